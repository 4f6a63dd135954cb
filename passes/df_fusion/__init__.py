"""SOAC fusion on the df dialect: one RewritePattern per rewrite, named legality
predicates, stable rejection codes (docs/fusion_codes.md). The pass is passes/df_fuse.py.

Modules: codes (FuseReject), legality (predicates, options), pattern (the candidates /
rewrite shape), rebuild (building fused ops), kinded_fold (the fused reduction form that
df-to-loop lowers), one module per pattern, unsupported (pairs without a fused form).
"""

from __future__ import annotations

from loopopt.passes.df_fusion.filter_reduce import FuseFilterIntoReduction
from loopopt.passes.df_fusion.horizontal import FuseHorizontalReductions
from loopopt.passes.df_fusion.legality import FusionOptions
from loopopt.passes.df_fusion.map_map import FuseMapIntoMap
from loopopt.passes.df_fusion.map_reduce import FuseMapIntoReduction
from loopopt.passes.df_fusion.pattern import FusionPattern


def populate_df_fusion_patterns(options: FusionOptions) -> list[FusionPattern]:
    """The df fusion patterns, vertical first (producer into consumer), then horizontal."""
    patterns: list[FusionPattern] = [
        FuseMapIntoMap(options),           # map ∘ map -> map (zip -> map too)
        FuseMapIntoReduction(options),     # map -> reduce/fold -> kinded fold
        FuseFilterIntoReduction(options),  # filter -> reduce/fold -> predicated kinded fold
    ]
    if options.horizontal:
        patterns.append(FuseHorizontalReductions(options))  # reduce ∥ reduce -> one pass
    return patterns
