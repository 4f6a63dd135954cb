"""Loop nests over a df domain, and element reads/writes at one iteration.

Every df op lowers to one nest of `loop.for` built here (zip and predloop build their own
single loop but use the same element access): one loop per iterated axis, accumulators
threaded through every level (the inner loop's results are the outer loop's next values).
An axis walked by a `df.range` becomes a `range(start, end, step)` loop whose variable is
the element itself; every other axis is `[0, extent)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, i64
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.lowering.df_to_loop_context import KernelLowering
from loopopt.lowering.df_to_loop_values import (
    BufArray,
    Lowered,
    Point,
    RangeArray,
    RecordArray,
    RecordValue,
)


@dataclass(frozen=True)
class Iter:
    """One loop of a nest: the axis it walks and either its extent or the range it walks."""

    axis: str
    extent: SSAValue
    range: RangeArray | None = None


def iters_for(arrays: Sequence[Lowered], axes: Sequence[str], walk: Sequence[str]) -> list[Iter]:
    """Loops over axes `walk` of arrays on `axes` (the op's spelling): a range input on an
    axis makes that loop walk the range; otherwise the first input's extent bounds it."""
    out: list[Iter] = []
    for a in walk:
        d = list(axes).index(a)
        rng = next((x for x in arrays if isinstance(x, RangeArray)), None)
        extent = arrays[0].extents[d]  # type: ignore[union-attr]
        out.append(Iter(a, extent, rng))
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
    range_vars = outer.range_vars if outer else ()
    if it.range is None:
        positions[it.axis] = Affine.var(var)
        return [ctx.index(0), it.extent], Point(positions, range_vars)
    r = it.range
    positions[it.axis] = range_position(inner, r, var)
    return [r.start, r.end, r.step], Point(positions, (*range_vars, (r, var)))


def range_position(b: Builder, r: RangeArray, var: SSAValue) -> Affine:
    """The 0-based position of range element `var`: var - start for a unit step (affine),
    else (var - start) / step."""
    if r.step_const == 1:
        return Affine(((var, 1), (r.start, -1)), 0)
    diff = b.insert(arith.SubiOp(var, r.start)).result
    return Affine.var(b.insert(arith.DivSIOp(diff, r.step)).result)


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
        var = point.range_var(arr)
        if var is None:  # walked by position: start + k * step
            k = materialize(ctx, b, point.positions[axes[0]])
            var = b.insert(arith.AddiOp(arr.start, b.insert(arith.MuliOp(k, arr.step)).result)).result
        return b.insert(arith.IndexCastOp(var, i64)).result
    if isinstance(arr, RecordArray):
        fields = tuple(load(ctx, b, f, axes, point) for f in arr.fields)
        return RecordValue(arr.record, fields)  # type: ignore[arg-type]
    raise TypeError(f"cannot load an element of {arr}")


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
