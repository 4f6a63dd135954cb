"""A filtered kinded fold (df-fuse's filter→reduce) → `loop.predloop` with accumulators.

Every accumulator of the fold steps as `select(p, acc ⊕ v, acc)` under one predicate p
that reads no accumulator. The predloop's `pred` region computes p (only the body ops p
depends on); its body computes v and yields `acc ⊕ v` — accumulators change only on active
lanes, so the select disappears and each accumulator keeps its kind and reassoc flag.

```
%r = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
^bb0(%acc: f32, %e: f32):
  %c = arith.cmpf ogt, %e, %zero : f32
  %n = arith.addf %acc, %e : f32
  %s = arith.select %c, %n, %acc : f32
  df.yield %s : f32
} attributes {df.kinds = [#df.kind<add>], df.reassoc}
  →
%cnt, %r = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset)
    accs(%acc = %z : f32 add reassoc) pred {
  %e = loop.load %x[%i] : !loop.buf<f32>
  %c = arith.cmpf ogt, %e, %zero : f32
  loop.yield %c : i1
} body {
  %e = loop.load %x[%i] : !loop.buf<f32>
  %n = arith.addf %acc, %e : f32
  loop.yield %n : f32
}
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, ReduceKind
from loopopt.lowering.df_to_loop_body import emit_slice, inline_body
from loopopt.lowering.df_to_loop_combine import accum, combine
from loopopt.lowering.df_to_loop_context import KernelLowering
from loopopt.lowering.df_to_loop_filter import build_predloop
from loopopt.lowering.df_to_loop_nest import iters_for, load
from loopopt.lowering.df_to_loop_values import Lowered, Point
from loopopt.passes.df_fusion.kinded_fold import AccumulatorStep, fold_reassoc


def is_filtered(steps: Sequence[AccumulatorStep]) -> bool:
    """Every accumulator is built-in and steps under one and the same predicate."""
    preds = {id(s.pred) for s in steps}
    return (
        all(s.kind != ReduceKind.CUSTOM and s.pred is not None for s in steps) and len(preds) == 1
    )


def lower_filtered_fold(
    op: df.FoldOp,
    ctx: KernelLowering,
    b: Builder,
    steps: Sequence[AccumulatorStep],
    inputs: list[Lowered],
    inits: list[Lowered],
) -> None:
    t = op.inputs.types[0]
    assert isinstance(t, ArrayType)
    axes = t.axis_names
    (it,) = iters_for(inputs, axes, axes)
    pred_value = steps[0].pred
    assert pred_value is not None
    block = op.body.block

    def pred(pb: Builder, point: Point) -> SSAValue:
        xs = [load(ctx, pb, x, axes, point) for x in inputs]
        # the predicate reads no accumulator: bind them to their (unused) inits
        p = emit_slice(ctx, pb, block, [*inits, *xs], pred_value)
        assert isinstance(p, SSAValue)
        return p

    def body(bb: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
        xs = [load(ctx, bb, x, axes, point) for x in inputs]
        values = inline_body(ctx, bb, block, [*acc_args, *xs], op, [s.value for s in steps])  # type: ignore[misc]
        elements = values[len(steps):]
        return [
            combine(bb, s.kind, acc, v, op)  # type: ignore[arg-type]
            for s, acc, v in zip(steps, acc_args, elements, strict=True)
        ]

    reassoc = fold_reassoc(op)
    accs = [accum(s.kind, reassoc) for s in steps]
    loop_op = build_predloop(ctx, b, it, pred, body, inits, accs)  # type: ignore[arg-type]
    for r, v in zip(op.outputs, loop_op.acc_results, strict=True):
        ctx.bind(r, v)
