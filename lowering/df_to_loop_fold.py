"""df.fold → one `loop.for` nest (row-major) with one accumulator per fold accumulator.

The fold body is the accumulator step, inlined; record accumulators become one custom
accumulator per field. A plain fold's accumulators are `custom`. df-fuse's fused forms
arrive as *kinded* folds (passes/df_fusion/kinded_fold.py: `df.kinds`, `df.reassoc`):
map→reduce, map→fold and horizontally fused reductions are ONE loop whose accumulators
keep their kind and reassoc flag; a filtered one (filter→reduce: every accumulator steps
under one predicate) becomes a predloop (df_to_loop_filtered_fold.py).

```
%s = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
^bb0(%acc: f32, %e: f32):
  %sq = arith.mulf %e, %e : f32
  %n = arith.addf %acc, %sq : f32
  df.yield %n : f32
} attributes {df.kinds = [#df.kind<add>], df.reassoc}
  →
%s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
  %e = loop.load %x[%i] : !loop.buf<f32>
  %sq = arith.mulf %e, %e : f32
  %n = arith.addf %acc, %sq : f32
  loop.yield %n : f32
}
```
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, ReduceKind
from loopopt.lowering.df_to_loop_body import inline_body
from loopopt.lowering.df_to_loop_combine import accum
from loopopt.lowering.df_to_loop_context import KernelLowering
from loopopt.lowering.df_to_loop_filtered_fold import is_filtered, lower_filtered_fold
from loopopt.lowering.df_to_loop_nest import build_nest, iters_for, load
from loopopt.lowering.df_to_loop_pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop_reduce import flatten, regroup, scalar_init
from loopopt.lowering.df_to_loop_values import Point, scalars_of
from loopopt.passes.df_fusion.kinded_fold import (
    KINDS_ATTR,
    AccumulatorStep,
    accumulator_steps,
    fold_kinds,
    fold_reassoc,
)


def fold_steps(op: df.FoldOp) -> list[AccumulatorStep]:
    """The accumulators of a (kinded) fold; a broken `df.kinds` contract is a user error."""
    try:
        return accumulator_steps(op)
    except ValueError as e:
        raise LoopoptDiagnostic(f"df.fold with {KINDS_ATTR}: {e}", op) from None


class LowerFold(DFLoweringPattern[df.FoldOp]):
    op_type = df.FoldOp

    def lower(self, op: df.FoldOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        inits = [scalar_init(ctx, v, op) for v in op.inits]
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        axes = t.axis_names
        steps = fold_steps(op)
        if is_filtered(steps) and t.rank == 1:
            lower_filtered_fold(op, ctx, b, steps, inputs, inits)
            return
        reassoc = fold_reassoc(op)
        accs = [
            accum(kind, reassoc and kind != ReduceKind.CUSTOM)
            for kind, v in zip(fold_kinds(op), inits, strict=True)
            for _ in scalars_of(v)
        ]

        def step(inner: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            xs = [load(ctx, inner, x, axes, point) for x in inputs]
            return flatten(inline_body(ctx, inner, op.body.block, [*regroup(inits, acc_args), *xs], op))

        results = build_nest(ctx, b, iters_for(inputs, axes, axes), flatten(inits), accs, step)
        for r, v in zip(op.outputs, regroup(inits, results), strict=True):
            ctx.bind(r, v)
