"""df.gather → a bounds-checked loop over the indices (and a zero loop when x is empty).

```
%y = df.gather %x[%idx] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  →
%nx = loop.dim %x, 0 : !loop.buf<f32>
%n_ok = arith.select (%nx > 0), max(%n, 0), 0    // x empty: no element can be read
%bound = trunc(min(%nx, 2**31)) : i32            // i64 indices: %nx itself
loop.for %i in [%c0, %n_ok) {
  %k = loop.load %idx[%i] : !loop.buf<i32>
  %in = arith.cmpi ult, %k, %bound : i32         // unsigned: a negative index is huge
  %s = arith.select %in, %k, 0 : i32             // in bounds whatever %k is
  %j = arith.index_cast %s : i32 to index
  %v = loop.load %x[%j] : !loop.buf<f32>
  %r = arith.select %in, %v, 0.0 : f32
  loop.store %r, %out[%i] : !loop.buf<f32>
}
loop.for %i in [%n_ok, %n) { loop.store 0.0, %out[%i] }   // runs only when x is empty
```
Out of bounds (idx < 0 or idx >= len(x), any i32/i64 value) gives 0 and reads nothing
(dialects/df_gather.py). The i32 bound is min(len(x), 2**31) as an unsigned i32: every
non-negative i32 index of an array that long is in bounds and every negative one (>= 2**31
unsigned) is not. The load's index is always in [0, len(x)), so the Loop IR needs no
conditional load, and loop-vectorize turns `loop.load %x[%j]` into a gather
(lowering/loop_to_simd/gather.py) with i32 lanes next to f32 data, i64 lanes next to f64.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.nest import Iter, StepFn, build_nest, const_op, gather_element, iters_for, store
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.values import BufArray, GatherArray, Lowered, Point

I32_BOUND = 2**31
"""Bounds of an i32 index are compared against min(len(x), 2**31), unsigned."""


class LowerGather(DFLoweringPattern[df.GatherOp]):
    op_type = df.GatherOp

    def lower(self, op: df.GatherOp, ctx: KernelLowering, b: Builder) -> None:
        x, idx = ctx.get(op.source, op), ctx.get(op.indices, op)
        if not isinstance(x, BufArray):
            raise LoopoptDiagnostic("df.gather: the source must be an array held in memory (an input or a computed array), not a df.range", op)
        t = op.result.type
        it = op.indices.type
        assert isinstance(t, ArrayType) and isinstance(it, ArrayType)
        axes = t.axis_names
        index_type = it.element_type
        assert isinstance(index_type, IntegerType)
        (n,) = iters_for([idx], axes, axes)
        nx = x.extents[0]
        fused = fuses_into_user(op)
        dest = None if fused else ctx.destination(b, op.result, (n.extent,))
        zero_index = ctx.index(0)
        some = b.insert(arith.CmpiOp(nx, zero_index, "sgt")).result
        # a C caller's negative length holds nothing: unclamped, the zero loop's start
        # `&out[n_ok]` was a pointer far before the output (UBSan: pointer overflow)
        trips = b.insert(arith.MaxSIOp(n.extent, zero_index)).result
        n_ok = b.insert(arith.SelectOp(some, trips, zero_index)).result
        n_ok.name_hint = f"n_{axes[0]}_in_x"
        g = GatherArray(x, idx, _bound(b, ctx, nx, index_type), n_ok)
        if dest is None:
            ctx.bind(op.result, g)  # read in its user's own loop: loops_reading_gathers
            return

        def step(inner: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
            store(inner, gather_element(ctx, inner, g, point), dest, axes, point)
            return []

        build_nest(ctx, b, [Iter(n.axis, n_ok)], [], [], step)
        _zero_rest(ctx, b, dest, axes, n_ok, n.extent, t.element_type)
        ctx.bind(op.result, dest)


def fuses_into_user(op: df.GatherOp) -> bool:
    """The gather's one user reads it element by element on its axis: a full reduction
    without `where` (df.reduce over [i], a map prologue and horizontal triples included) or a
    rank-1 map of inputs on one axis. The user's loop reads x[idx[i]] itself and the gathered
    array is never stored."""
    uses = list(op.result.uses)
    if len(uses) != 1:
        return False
    user = uses[0].operation
    if isinstance(user, df.MapOp):
        return len({v.type.axis_names for v in user.inputs}) == 1 and user.outputs.types[0].rank == 1  # type: ignore[attr-defined]
    return (isinstance(user, df.ReduceOp) and not user.has_where and not user.broadcasts
            and tuple(user.over_axis_names) == tuple(user.domain_axes))  # fmt: skip


def loops_reading_gathers(ctx: KernelLowering, b: Builder, it: Iter, inputs: list[Lowered], inits: list[SSAValue],
                          accs: list, step_for: Callable[[list[Lowered]], StepFn]) -> list[SSAValue]:  # fmt: skip
    """A rank-1 reduction or map reading fused gathers: one loop over [0, n_ok) loading
    x[idx[i]] bounds-checked, then one over [n_ok, n) where each gathered element is 0 (a
    zero-trip loop unless a gather's source is empty, which then is never read); the
    accumulators run through both."""
    gathers = [x for x in inputs if isinstance(x, GatherArray)]
    readable = gathers[0].readable
    for g in gathers[1:]:
        readable = b.insert(arith.MinSIOp(readable, g.readable)).result
    first = build_nest(ctx, b, [Iter(it.axis, readable)], inits, accs, step_for(inputs))
    zeroed = [dataclasses.replace(x, zeroed=True) if isinstance(x, GatherArray) else x for x in inputs]
    block = Block(arg_types=[IndexType(), *(v.type for v in first)])
    var = block.args[0]
    var.name_hint = it.axis
    inner = Builder(InsertPoint.at_end(block))
    nexts = step_for(zeroed)(inner, Point({it.axis: _affine(var)}), list(block.args[1:]))
    inner.insert(loop.YieldOp(*nexts))
    return list(b.insert(loop.ForOp([readable, it.extent], first, accs, block)).res)


def _affine(v: SSAValue):
    from loopopt.dialects.loop_affine import Affine

    return Affine.var(v)


def _bound(b: Builder, ctx: KernelLowering, nx: SSAValue, index_type: IntegerType) -> SSAValue:
    """len(x) as the index type, for an unsigned compare (see the module docstring)."""
    if index_type.width.data == 64:
        bound = b.insert(arith.IndexCastOp(nx, index_type)).result
    else:
        capped = b.insert(arith.MinSIOp(nx, ctx.index(I32_BOUND))).result
        bound = b.insert(arith.IndexCastOp(capped, index_type)).result
    bound.name_hint = "bound"
    return bound


def _zero_rest(ctx: KernelLowering, b: Builder, dest, axes, lo: SSAValue, hi: SSAValue, element) -> None:
    """`out[i] = 0` for i in [lo, hi): the elements of a gather from an empty array."""
    block = Block(arg_types=[IndexType()])
    var = block.args[0]
    var.name_hint = axes[0]
    inner = Builder(InsertPoint.at_end(block))
    zero = inner.insert(const_op(0, element)).result
    store(inner, zero, dest, axes, Point({axes[0]: _affine(var)}))
    inner.insert(loop.YieldOp())
    b.insert(loop.ForOp([lo, hi], [], [], block))
