"""`df-fuse`: SOAC fusion on the df dialect (map, filter, reduce, fold; horizontal)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker

from loopopt.diagnostics import remark
from loopopt.passes.df_fusion import FusionOptions, populate_df_fusion_patterns
from loopopt.passes.df_fusion.legality import Rejection
from loopopt.passes.options import check_options
from loopopt.passes.pattern_dispatch import DispatchApplier


@dataclass(frozen=True)
class DFFusePass(ModulePass):
    """Fuse df producers into their consumers and independent reductions into one pass.

    Input: df kernels (func.func over !df.array values). Output: the same kernels with
    fewer df ops, each fused result an ordinary verified df op: map ∘ map is one map;
    map → reduce/scan is a reduce/scan with a `map` prologue (partial reductions too);
    filter → reduce is a reduce with a `where` predicate (a map in between composes into
    the prologue); filter → map is a filter with a `map` region; map → fold and filter →
    fold compose into the fold's body (exact: the map before the step, the step under
    `select`); reductions over one domain that do not read each other (and keep the same
    elements) are one multi-triple df.reduce, or one df.fold when a fold is involved. A
    producer with other users is recomputed in the consumer if its bodies have at most
    `max_recompute_ops` ops, else it stays materialized. Nothing with effects (df.random
    via a decl_ref, func.call) is fused. Dead ops the pass did not create stay.

    ```
    %sq = df.map %x {x*x}                  %r = df.reduce(%x) add(%zero) over [i] reassoc
    %r = df.reduce add(%sq, %zero)   ->          : ... -> f32 map { x*x }
           over [i] reassoc
    ```
    With `remarks=true`, each fusion declined at the fixpoint prints
    `file:line:col: remark: FUSE_REJECT_...: reason` (codes: docs/fusion_codes.md).
    """

    name = "df-fuse"

    remarks: bool = False
    """Print a remark with a stable code for every declined fusion."""
    max_recompute_ops: int = 8
    """Largest producer body (ops) recomputed in a consumer when the producer has other users."""
    recompute: bool = True
    """Allow recomputing multi-use producers at all (false: they always stay materialized)."""
    horizontal: bool = True
    """Fuse independent reductions over one domain."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = FusionOptions(self.max_recompute_ops, self.recompute, self.horizontal)
        patterns = populate_df_fusion_patterns(options)
        PatternRewriteWalker(
            DispatchApplier(list(patterns), dce_enabled=False),  # each op tries only the patterns rooted at its class
        ).rewrite_module(op)
        if self.remarks:
            for rejection in declined_fusions(op, options):
                remark(rejection.op, rejection.code, rejection.reason)


def declined_fusions(module: ModuleOp, options: FusionOptions) -> list[Rejection]:
    """Every fusion candidate left unfused, in program order, each reported once."""
    patterns = populate_df_fusion_patterns(options)
    found: list[Rejection] = []
    seen: set[tuple[int, str, str]] = set()
    for op in module.walk():
        for rejection in [r for p in patterns for r in p.rejections(op)]:
            key = (id(rejection.op), rejection.code, rejection.reason)
            if key not in seen:
                seen.add(key)
                found.append(rejection)
    return found
