"""df.map → one loop writing each result at the iteration's position.

* one plain rank-1 input:       `loop.for %i in [0, n)`, load x[i], body, store out[i];
* several inputs, or records:   `loop.zip` with one stream per buffer (an array of records
                                contributes one stream per field: struct of arrays, no
                                array-of-structs intermediate);
* a fused df.gather input:       two loops (lowering/df_to_loop/gather.py, loops_reading_gathers);
* a df.range input:             `loop.for %i in range(start, end, step)`, the element is %i;
* rank 2:                       a `loop.for` nest, store out[i, j].

```
%y = df.map %a, %b : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {...}
  →
loop.zip %i in [%c0, %n) streams(%x = %a : !loop.buf<f32>, %z = %b : !loop.buf<f32>) {
  %s = arith.addf %x, %z : f32
  loop.store %s, %out[%i] : !loop.buf<f32>
}
```
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType
from loopopt.dialects.loop_affine import Affine
from loopopt.lowering.df_to_loop.body import inline_body
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.gather import loops_reading_gathers
from loopopt.lowering.df_to_loop.nest import StepFn, build_nest, iters_for, load, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.values import (
    BufArray,
    GatherArray,
    Lowered,
    Point,
    RecordArray,
    RecordValue,
    buffers_of,
)


def zips(inputs: list[Lowered], rank: int) -> bool:
    """A map zips its inputs when it has several, or records, all held in buffers."""
    if rank != 1 or not all(isinstance(x, BufArray | RecordArray) for x in inputs):
        return False
    if not all(len(buffers_of(x)) == _leaf_count(x) for x in inputs):
        return False  # some field is a range: not a stream
    return len(inputs) > 1 or any(isinstance(x, RecordArray) for x in inputs)


def _leaf_count(x: Lowered) -> int:
    return sum(_leaf_count(f) for f in x.fields) if isinstance(x, RecordArray) else 1


class LowerMap(DFLoweringPattern[df.MapOp]):
    op_type = df.MapOp

    def lower(self, op: df.MapOp, ctx: KernelLowering, b: Builder) -> None:
        inputs = [ctx.get(v, op) for v in op.inputs]
        t = op.outputs.types[0]
        assert isinstance(t, ArrayType)
        axes = t.axis_names
        in_axes = [v.type.axis_names for v in op.inputs]  # type: ignore[attr-defined]
        iters = iters_for(inputs, axes, axes, in_axes)  # an input on fewer axes is broadcast by name
        dests = [ctx.destination(b, r, [it.extent for it in iters]) for r in op.outputs]

        def emit(inner: Builder, point: Point, elements: list[Lowered]) -> None:
            outs = inline_body(ctx, inner, op.body.block, elements, op)
            for value, dest in zip(outs, dests, strict=True):
                store(inner, value, dest, axes, point)

        def step_for(ins: list[Lowered]) -> StepFn:
            def step(inner: Builder, point: Point, accs: list[SSAValue]) -> list[SSAValue]:
                emit(inner, point, [load(ctx, inner, x, a, point) for x, a in zip(ins, in_axes, strict=True)])
                return []

            return step

        if any(isinstance(x, GatherArray) for x in inputs):  # rank 1: gathers read here
            loops_reading_gathers(ctx, b, iters[0], inputs, [], [], step_for)
        elif zips(inputs, t.rank):
            build_zip(ctx, b, inputs, iters[0].extent, axes[0], emit)
        else:
            build_nest(ctx, b, iters, [], [], step_for(inputs))
        for r, dest in zip(op.outputs, dests, strict=True):
            ctx.bind(r, dest)


def build_zip(ctx: KernelLowering, b: Builder, inputs: list[Lowered], n: SSAValue, axis: str, emit) -> loop.ZipOp:
    """`loop.zip` over every buffer of `inputs`; `emit(builder, point, elements)` fills the body."""
    streams = [buf for x in inputs for buf in buffers_of(x)]
    elem_types = [buf.buf.type.element_type for buf in streams]  # type: ignore[attr-defined]
    block = Block(arg_types=[IndexType(), *elem_types])
    var = block.args[0]
    var.name_hint = axis
    stream_args = iter(block.args[1:])
    elements: list[Lowered] = []
    for x in inputs:
        if isinstance(x, RecordArray):
            elements.append(RecordValue(x.record, tuple(next(stream_args) for _ in x.fields)))
        else:
            elements.append(next(stream_args))
    for x, arg in zip(streams, block.args[1:], strict=True):
        if x.buf.name_hint:
            arg.name_hint = f"{x.buf.name_hint}_e"
    inner = Builder(InsertPoint.at_end(block))
    emit(inner, Point({axis: Affine.var(var)}), elements)
    inner.insert(loop.YieldOp())
    return b.insert(loop.ZipOp([ctx.index(0), n], [s.buf for s in streams], [], [], block))
