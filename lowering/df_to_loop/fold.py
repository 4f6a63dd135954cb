"""df.fold → one `loop.for` nest (row-major) with one custom accumulator per fold accumulator.

The fold body is the accumulator step, inlined; record accumulators become one custom
accumulator per field. A fold is sequential by definition, so its accumulators are
`custom` (no neutral element, no reassociation), except one whose body is a built-in kind's
step (`maxui(acc, f(x))`: combine.body_kinds), which gets that kind (never reassoc). df-fuse composes a fused map (or a
filter, as `select(p, step, acc)`) into the body itself, so a fused fold needs nothing
more: it is still one loop.

```
%s = df.fold(%x) init(%z) : !df.array<i64, [i]> -> i64 {
^bb0(%acc: i64, %e: i64):
  %m = arith.muli %acc, %k : i64
  %n = arith.addi %m, %e : i64
  df.yield %n : i64
}
  →
%s = loop.for %i in [%c0, %n) accs(%acc = %z : i64 custom) {
  %e = loop.load %x[%i] : !loop.buf<i64>
  %m = arith.muli %acc, %k : i64
  %n = arith.addi %m, %e : i64
  loop.yield %n : i64
}
```
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.combine import accum, body_kinds
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.nest import build_nest, iters_for, load
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.reduce import flatten, regroup, scalar_init
from loopopt.lowering.df_to_loop.values import Point


class LowerFold(DFLoweringPattern[df.FoldOp]):
    op_type = df.FoldOp

    def lower(self, op: df.FoldOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        inits = [scalar_init(ctx, v, op) for v in op.inits]
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        axes = t.axis_names
        flat_inits = flatten(inits)
        kinds = body_kinds(op.body.block, len(inits))  # custom unless the body is one kind's step
        accs = [accum(k, False) for k, v in zip(kinds, inits, strict=True) for _ in flatten([v])]

        def step(inner: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            xs = [load(ctx, inner, x, axes, point) for x in inputs]
            return flatten(inline_body(ctx, inner, op.body.block, [*regroup(inits, acc_args), *xs], op))

        results = build_nest(ctx, b, iters_for(inputs, axes, axes), flat_inits, accs, step)
        for r, v in zip(op.outputs, regroup(inits, results), strict=True):
            ctx.bind(r, v)
