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
The kind and `reassoc` are kept (loop-vectorize turns this shape into an in-register
parallel prefix); custom inlines its body. A `map` prologue (df-fuse's map → scan) is
inlined between the loads and the combine: still one loop, the mapped intermediate never
written.

A scan with a `where` predicate (df-fuse's filter → scan) is a width-1 `loop.predloop`
like a filter's, whose accumulator is the running value and whose body appends it: the
result's new axis has the predloop's count as extent.
```
%cnt, %s = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset)
    accs(%acc = %z : i32 add) pred { ...where... } body {
  %e = loop.load %x[%i] : !loop.buf<i32>
  %t = arith.addi %acc, %e : i32
  loop.append %t, %out : !loop.buf<i32>
  loop.yield %t : i32
}
```
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, ReduceKind
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.combine import accum, body_kinds, combine
from loopopt.lowering.df_to_loop.context import KernelLowering, with_extents
from loopopt.lowering.df_to_loop.filter import append, build_predloop
from loopopt.lowering.df_to_loop.nest import build_nest, iters_for, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.reduce import (
    flatten,
    load_distinct,
    prologue_values,
    regroup,
    scalar_init,
)
from loopopt.lowering.df_to_loop.values import Lowered, Point


class LowerScan(DFLoweringPattern[df.ScanOp]):
    op_type = df.ScanOp

    def lower(self, op: df.ScanOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        init = scalar_init(ctx, op.init, op)
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        axes = t.axis_names
        kind = op.kind.data
        loop_kind = body_kinds(op.body.block, 1)[0] if kind == ReduceKind.CUSTOM else kind
        accs = [accum(loop_kind, op.reassoc is not None) for _ in flatten([init])]

        def running(inner: Builder, point: Point, acc_args: list[SSAValue]) -> Lowered:
            """The next running value: the scanned value at `point` combined into the carried one."""
            (acc,) = regroup([init], acc_args)
            (e,) = prologue_values(ctx, inner, op, load_distinct(ctx, inner, op, inputs, axes, point))
            if kind == ReduceKind.CUSTOM:
                (nxt,) = inline_body(ctx, inner, op.body.block, [acc, e], op)
                return nxt
            assert isinstance(acc, SSAValue) and isinstance(e, SSAValue)
            return combine(inner, kind, acc, e, op)

        if op.has_where:
            return self._lower_kept(op, ctx, b, inputs, init, accs, running)
        dest = ctx.destination(b, op.output, inputs[0].extents)  # type: ignore[union-attr]

        def step(inner: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            nxt = running(inner, point, acc_args)
            store(inner, nxt, dest, axes, point)
            return flatten([nxt])

        build_nest(ctx, b, iters_for(inputs, axes, axes), flatten([init]), accs, step)
        ctx.bind(op.output, dest)

    @staticmethod
    def _lower_kept(op: df.ScanOp, ctx: KernelLowering, b: Builder, inputs: list[Lowered], init: Lowered,
                    accs: list, running) -> None:  # fmt: skip
        """filter → scan: a predloop over the inputs, appending the running value where `where` holds."""
        axes = op.inputs.types[0].axis_names  # type: ignore[attr-defined]
        (it,) = iters_for(inputs, axes, axes)
        capacity = ctx.root_capacity(it.extent)
        dest = ctx.destination(b, op.output, (capacity,), (capacity,))

        def pred(pb: Builder, point: Point) -> SSAValue:
            elements = load_distinct(ctx, pb, op, inputs, axes, point)
            (keep,) = inline_body(ctx, pb, op.where.block, elements, op)
            assert isinstance(keep, SSAValue)
            return keep

        def body(bb: Builder, point: Point, acc_args: list[SSAValue]) -> list[SSAValue]:
            nxt = running(bb, point, acc_args)
            append(bb, nxt, dest, op)
            return flatten([nxt])

        pl = build_predloop(ctx, b, it, pred, body, flatten([init]), accs)
        pl.count.name_hint = "count"
        ctx.note_count(pl.count, capacity)
        ctx.bind(op.output, with_extents(dest, (pl.count,)))
