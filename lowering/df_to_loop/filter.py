"""df.filter → `loop.predloop` (width 1 until vectorized) appending the kept elements.

The predicate body becomes the `pred` region; the loop body appends every input element
(every field of a record) to its output buffer with `loop.append` — or, for a filter with
a `map` region (df-fuse's filter → map), the map's values computed from them, so the
filtered intermediate is never written. The predloop's first result, the number of
active lanes, becomes the extent of the filter's new axis. Outputs are allocated (or, for
kernel results, passed) with the input's length as capacity.

```
%p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> { ^bb0(%e: f32): ... df.yield %c : i1 }
  →
%cnt = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) pred {
  %e = loop.load %x[%i] : !loop.buf<f32>
  ...
  loop.yield %c : i1
} body {
  %e = loop.load %x[%i] : !loop.buf<f32>
  loop.append %e, %out : !loop.buf<f32>
}
```
With a map region the body is `%e = loop.load ...; <map body>; loop.append %mapped, %out`.
An unfused df.filter followed by a df.map is two loops (the filter's output materialized).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.context import KernelLowering, with_extents
from loopopt.lowering.df_to_loop.nest import Iter, iters_for, load, loop_header
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.values import BufArray, Lowered, Point, RecordArray, RecordValue

BodyFn = Callable[[Builder, Point, list[SSAValue]], Sequence[SSAValue]]


def build_predloop(
    ctx: KernelLowering,
    b: Builder,
    it: Iter,
    pred: Callable[[Builder, Point], SSAValue],
    body: BodyFn,
    inits: Sequence[SSAValue] = (),
    accs: Sequence[loop.AccumAttr] = (),
) -> loop.PredLoopOp:
    """A width-1 `loop.predloop` over `it`: `pred` gives the lane's i1, `body` runs on active lanes."""
    pred_block = Block(arg_types=[IndexType()])
    pred_block.args[0].name_hint = it.axis
    pb = Builder(InsertPoint.at_end(pred_block))
    bounds, point = loop_header(ctx, pb, it, pred_block.args[0])
    pb.insert(loop.YieldOp(pred(pb, point)))

    body_block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    body_block.args[0].name_hint = it.axis
    bb = Builder(InsertPoint.at_end(body_block))
    _, point = loop_header(ctx, bb, it, body_block.args[0])
    bb.insert(loop.YieldOp(*body(bb, point, list(body_block.args[1:]))))
    return b.insert(loop.PredLoopOp(bounds, inits, accs, pred_block, body_block, width=1))


def append(b: Builder, value: Lowered, dest: Lowered, user: Operation) -> None:
    """`loop.append` of one element (each field of a record) to its output buffer."""
    if isinstance(dest, BufArray) and isinstance(value, SSAValue):
        b.insert(loop.AppendOp(value, dest.buf))
    elif isinstance(dest, RecordArray) and isinstance(value, RecordValue):
        for v, f in zip(value.fields, dest.fields, strict=True):
            append(b, v, f, user)
    else:
        raise LoopoptDiagnostic(f"{user.name}: cannot append a {type(value).__name__} element", user)


def filter_predicate(ctx: KernelLowering, op: df.FilterOp, inputs: list[Lowered]):
    """The `pred` builder of a filter: load its elements and inline its predicate body."""
    in_axes = [v.type.axis_names for v in op.inputs]  # type: ignore[attr-defined]

    def pred(pb: Builder, point: Point) -> SSAValue:
        elements = [load(ctx, pb, x, a, point) for x, a in zip(inputs, in_axes, strict=True)]
        (p,) = inline_body(ctx, pb, op.body.block, elements, op)
        assert isinstance(p, SSAValue)
        return p

    return pred


class LowerFilter(DFLoweringPattern[df.FilterOp]):
    op_type = df.FilterOp

    def lower(self, op: df.FilterOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        t = op.inputs.types[0]
        assert isinstance(t, ArrayType)
        (it,) = iters_for(inputs, t.axis_names, t.axis_names)
        capacity = ctx.root_capacity(it.extent)
        # an output nobody reads gets no buffer and no appends (a zipped filter's other output)
        dests = [ctx.destination(b, r, (capacity,), (capacity,)) if r.uses else None for r in op.outputs]
        in_axes = [v.type.axis_names for v in op.inputs]  # type: ignore[attr-defined]

        def body(bb: Builder, point: Point, accs: list[SSAValue]) -> list[SSAValue]:
            elements = [load(ctx, bb, x, a, point) for x, a in zip(inputs, in_axes, strict=True)]
            if op.has_map:
                elements = inline_body(ctx, bb, op.map.block, elements, op)
            for value, dest in zip(elements, dests, strict=True):
                if dest is not None:
                    append(bb, value, dest, op)
            return []

        pl = build_predloop(ctx, b, it, filter_predicate(ctx, op, inputs), body)
        pl.count.name_hint = "count"
        ctx.note_count(pl.count, capacity)
        for r, dest in zip(op.outputs, dests, strict=True):
            if dest is not None:
                ctx.bind(r, with_extents(dest, (pl.count,)))
