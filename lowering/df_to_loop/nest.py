"""Loop nests over a df domain, and element reads/writes at one iteration.

Every df op lowers to one nest of `loop.for` built here (zip and predloop build their own
single loop but use the same element access): one loop per iterated axis, accumulators
threaded through every level (the inner loop's results are the outer loop's next values).
Every loop is `[0, extent)` over positions; an axis a `df.range` walks has the range's
guarded length as extent (0 when an output on its axis is too small: see
df_to_loop/sources.py) and computes each element as start + k*step in i64 arithmetic, so no
loop bound or index can overflow whatever the range's start, end and step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, i64
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.values import (
    BufArray,
    GatherArray,
    Lowered,
    Point,
    RangeArray,
    RecordArray,
    RecordValue,
)


@dataclass(frozen=True)
class Iter:
    """One loop of a nest: the axis it walks and its extent (the loop is `[0, extent)`)."""

    axis: str
    extent: SSAValue


def iters_for(arrays: Sequence[Lowered], axes: Sequence[str], walk: Sequence[str],
              array_axes: Sequence[Sequence[str]] | None = None) -> list[Iter]:
    """Loops over axes `walk` of arrays on `axes` (the op's spelling): a range input on an
    axis bounds that loop by its guarded length (which is at most every buffer's extent on
    the axis); otherwise the first input's extent bounds it. With `array_axes` (each array's
    own axes, when some are broadcast) the first array on the axis does."""
    out: list[Iter] = []
    for a in walk:
        rng = next((x for x in arrays if isinstance(x, RangeArray) and x.axis == a), None)
        if rng is not None:
            extent = rng.count
        elif array_axes is None:
            extent = arrays[0].extents[list(axes).index(a)]  # type: ignore[union-attr]
        else:
            k = next(k for k, own in enumerate(array_axes) if a in own)
            extent = arrays[k].extents[list(array_axes[k]).index(a)]  # type: ignore[union-attr]
        out.append(Iter(a, extent))
    return out


StepFn = Callable[[Builder, Point, list[SSAValue]], Sequence[SSAValue]]
"""Builds the innermost body: (builder, point, accumulators) -> next accumulator values."""


def build_nest(
    ctx: KernelLowering,
    builder: Builder,
    iters: Sequence[Iter],
    inits: Sequence[SSAValue],
    accs: Sequence[loop.AccumAttr],
    step: StepFn,
    outer: Point | None = None,
) -> list[SSAValue]:
    """`loop.for` per iter, outermost first, carrying `inits` through every level."""
    it, rest = iters[0], iters[1:]
    block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    var = block.args[0]
    var.name_hint = it.axis
    inner = Builder(InsertPoint.at_end(block))
    bounds, point = loop_header(ctx, inner, it, var, outer)
    accs_in = list(block.args[1:])
    if rest:
        nexts = build_nest(ctx, inner, rest, accs_in, accs, step, point)
    else:
        nexts = list(step(inner, point, accs_in))
    inner.insert(loop.YieldOp(*nexts))
    op = builder.insert(loop.ForOp(bounds, inits, accs, block))
    return list(op.res)


def loop_header(
    ctx: KernelLowering, inner: Builder, it: Iter, var: SSAValue, outer: Point | None = None
) -> tuple[list[SSAValue], Point]:
    """The bounds of the loop for `it` and the point its variable `var` reaches (with the
    positions of enclosing loops from `outer`)."""
    positions = dict(outer.positions) if outer else {}
    positions[it.axis] = Affine.var(var)
    return [ctx.index(0), it.extent], Point(positions)


def materialize(ctx: KernelLowering, b: Builder, a: Affine) -> SSAValue:
    """An `index` value equal to affine expression `a`."""
    total: SSAValue | None = None
    for v, c in a.terms:
        term = v if c == 1 else b.insert(arith.MuliOp(v, ctx.index(c))).result
        total = term if total is None else b.insert(arith.AddiOp(total, term)).result
    if total is None:
        return ctx.index(a.offset)
    if a.offset:
        total = b.insert(arith.AddiOp(total, ctx.index(a.offset))).result
    return total


def load(ctx: KernelLowering, b: Builder, arr: Lowered, axes: Sequence[str], point: Point) -> Lowered:
    """The element of lowered array `arr` (on `axes`, as its df type spells them) at `point`."""
    if isinstance(arr, BufArray):
        return b.insert(loop.LoadOp(arr.buf, point.at(axes))).result
    if isinstance(arr, RangeArray):
        return range_element(ctx, b, arr, materialize(ctx, b, point.positions[axes[0]]))
    if isinstance(arr, GatherArray):
        return gather_element(ctx, b, arr, point)
    if isinstance(arr, RecordArray):
        fields = tuple(load(ctx, b, f, axes, point) for f in arr.fields)
        return RecordValue(arr.record, fields)  # type: ignore[arg-type]
    raise TypeError(f"cannot load an element of {arr}")


def range_element(ctx: KernelLowering, b: Builder, r: RangeArray, k: SSAValue) -> SSAValue:
    """Element `k` (an `index` position) of range `r`: start + k*step as i64 arithmetic,
    which wraps, so the result is exact for every position of the range."""
    e = b.insert(arith.IndexCastOp(k, i64)).result
    if r.step_const != 1:
        e = b.insert(arith.MuliOp(e, r.step)).result
    if r.start_const != 0:
        e = b.insert(arith.AddiOp(e, r.start)).result
    return e


def gather_element(ctx: KernelLowering, b: Builder, g: GatherArray, point: Point) -> SSAValue:
    """`source[k]` if k <u bound else 0, for index k = idx at `point`: the load's position is
    in bounds whatever k is (0 when k is not), so it is an unconditional `loop.load`; zeroed:
    0 without reading."""
    element = g.source.buf.type.element_type  # type: ignore[attr-defined]
    if g.zeroed:
        return b.insert(const_op(0, element)).result
    k = load(ctx, b, g.indices, g.axes, point)
    assert isinstance(k, SSAValue)
    inside = b.insert(arith.CmpiOp(k, g.bound, "ult")).result
    inside.name_hint = "in_bounds"
    safe = b.insert(arith.SelectOp(inside, k, b.insert(const_op(0, k.type)).result)).result
    j = b.insert(arith.IndexCastOp(safe, IndexType())).result
    v = b.insert(loop.LoadOp(g.source.buf, [Affine.var(j)])).result
    return b.insert(arith.SelectOp(inside, v, b.insert(const_op(0, element)).result)).result


def const_op(value: int, t) -> arith.ConstantOp:
    """The constant `value` (0 in practice, or an index) of scalar type `t`."""
    if isinstance(t, IntegerType | IndexType):
        return arith.ConstantOp(IntegerAttr(value, t))
    return arith.ConstantOp(FloatAttr(float(value), t))


def store(b: Builder, value: Lowered, dest: Lowered, axes: Sequence[str], point: Point) -> None:
    """Write element `value` into lowered array `dest` at `point`."""
    if isinstance(dest, BufArray):
        assert isinstance(value, SSAValue)
        b.insert(loop.StoreOp(value, dest.buf, point.at(axes)))
    elif isinstance(dest, RecordArray):
        assert isinstance(value, RecordValue)
        for v, f in zip(value.fields, dest.fields, strict=True):
            store(b, v, f, axes, point)
    else:
        raise TypeError(f"cannot store into {dest}")
