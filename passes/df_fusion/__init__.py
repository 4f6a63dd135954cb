"""SOAC fusion on the df dialect: one RewritePattern per rewrite, named legality
predicates, stable rejection codes (docs/fusion_codes.md). The pass is passes/df_fuse.py.

Modules: codes (FuseReject), legality (predicates, options), pattern (the candidates /
rewrite shape), rebuild (building fused ops), one module per pattern. Every fused result
is an ordinary df op whose fusion is in its verified regions (df.reduce `map` / `where`,
df.filter `map`, df.scan `map` / `where`) or composed into a body (df.map, df.fold):
nothing rests on discardable attributes.
"""

from __future__ import annotations

from loopopt.passes.df_fusion.filter_map import FuseFilterIntoMap
from loopopt.passes.df_fusion.filter_reduce import FuseFilterIntoReduction
from loopopt.passes.df_fusion.filter_scan import FuseFilterIntoScan
from loopopt.passes.df_fusion.horizontal import FuseHorizontalReductions
from loopopt.passes.df_fusion.legality import FusionOptions
from loopopt.passes.df_fusion.map_map import FuseMapIntoMap
from loopopt.passes.df_fusion.map_reduce import FuseMapIntoReduction
from loopopt.passes.df_fusion.pattern import FusionPattern


def populate_df_fusion_patterns(options: FusionOptions) -> list[FusionPattern]:
    """The df fusion patterns, vertical first (producer into consumer), then horizontal."""
    patterns: list[FusionPattern] = [
        FuseMapIntoMap(options),           # map ∘ map -> map (zip -> map too)
        FuseMapIntoReduction(options),     # map -> reduce/scan (map prologue), map -> fold (body)
        FuseFilterIntoMap(options),        # filter -> map -> filter with a map region
        FuseFilterIntoReduction(options),  # filter -> reduce (where), filter -> fold (select)
        FuseFilterIntoScan(options),       # filter -> scan (where: a prefix over the kept elements)
    ]
    if options.horizontal:
        patterns.append(FuseHorizontalReductions(options))  # reduce ∥ reduce -> one pass
    return patterns
