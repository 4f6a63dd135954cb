"""df.select → `arith.select`: in place on scalars, inside one loop over an array domain.

```
%r = df.select %c, %a, %b : !df.array<i1, [i]>, !df.array<f32, [i]>
  →
loop.for %i in [%c0, %n) {
  %ce = loop.load %c[%i] : !loop.buf<i1>
  %ae = loop.load %a[%i] : !loop.buf<f32>
  %be = loop.load %b[%i] : !loop.buf<f32>
  %s = arith.select %ce, %ae, %be : f32
  loop.store %s, %out[%i] : !loop.buf<f32>
}
```
A scalar condition with array operands is loaded once per element like any capture.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.nest import build_nest, iters_for, load, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.scalar import lower_scalar_op, select_value
from loopopt.lowering.df_to_loop.values import Point


class LowerSelect(DFLoweringPattern[df.SelectOp]):
    op_type = df.SelectOp

    def lower(self, op: df.SelectOp, ctx: KernelLowering, b: Builder) -> None:
        t = op.result.type
        if not isinstance(t, ArrayType):
            (r,) = lower_scalar_op(b, op, [ctx.get(v, op) for v in op.operands]) or ()
            ctx.bind(op.result, r)
            return
        cond, lhs, rhs = (ctx.get(v, op) for v in op.operands)
        axes = t.axis_names
        dest = ctx.destination(b, op.result, lhs.extents)  # type: ignore[union-attr]
        cond_is_array = isinstance(op.cond.type, ArrayType)
        if not cond_is_array and not isinstance(cond, SSAValue):
            raise LoopoptDiagnostic("df.select: the condition must be i1 or an i1 array", op)

        def step(inner: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
            c = load(ctx, inner, cond, axes, point) if cond_is_array else cond
            assert isinstance(c, SSAValue)
            a = load(ctx, inner, lhs, axes, point)
            e = load(ctx, inner, rhs, axes, point)
            store(inner, select_value(inner, c, a, e, op), dest, axes, point)
            return []

        build_nest(ctx, b, iters_for([lhs, rhs], axes, axes), [], [], step)
        ctx.bind(op.result, dest)
