"""df.scan → a `loop.for` whose accumulator is also stored at every element.

```
%p = df.scan add(%x, %z) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  →
loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
  %e = loop.load %x[%i] : !loop.buf<f32>
  %t = arith.addf %acc, %e : f32
  loop.store %t, %out[%i] : !loop.buf<f32>
  loop.yield %t : f32
}
```
The kind and `reassoc` are kept (a parallel prefix could use them); custom inlines its body.
A `map` prologue (df-fuse's map → scan) is inlined between the loads and the combine: still
one loop, the mapped intermediate never written.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, ReduceKind
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.combine import accum, combine
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.nest import build_nest, iters_for, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.reduce import (
    flatten,
    load_distinct,
    prologue_values,
    regroup,
    scalar_init,
)
from loopopt.lowering.df_to_loop.values import Point


class LowerScan(DFLoweringPattern[df.ScanOp]):
    op_type = df.ScanOp

    def lower(self, op: df.ScanOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        init = scalar_init(ctx, op.init, op)
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        axes = t.axis_names
        kind = op.kind.data
        dest = ctx.destination(b, op.output, inputs[0].extents)  # type: ignore[union-attr]
        accs = [accum(kind, op.reassoc is not None) for _ in flatten([init])]

        def step(inner: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            (acc,) = regroup([init], acc_args)
            (e,) = prologue_values(ctx, inner, op, load_distinct(ctx, inner, op, inputs, axes, point))
            if kind == ReduceKind.CUSTOM:
                (nxt,) = inline_body(ctx, inner, op.body.block, [acc, e], op)
            else:
                assert isinstance(acc, SSAValue) and isinstance(e, SSAValue)
                nxt = combine(inner, kind, acc, e, op)
            store(inner, nxt, dest, axes, point)
            return flatten([nxt])

        build_nest(ctx, b, iters_for(inputs, axes, axes), flatten([init]), accs, step)
        ctx.bind(op.output, dest)
