"""Sources: df.constant → arith.constant; df.range → a range descriptor (no allocation).

A range becomes its i64 start and step plus its length, `len(range(start, end, step))`
computed in `index` arithmetic that cannot overflow for any i64 operands (saturated at
INT64_MAX; 0 for a runtime step of 0: the kernel never hangs; df_to_loop/trips.py). Loops
over it walk positions [0, n) and compute each element as start + k*step in i64.

The guard (memory safety by construction): before any loop over the range's axis the
kernel computes `fits`, the AND over every buffer on that axis — inputs on it, outputs on
it or on an axis a filter derives from it (whose capacity it is) — of `length <= the
buffer's length on that dimension`, and loops use `n = select(fits, length, 0)`: a
buffer that is too small is never read or written past its end (nothing on the axis is
written at all, reductions over it give their init). An axis an input buffer gives gets the
same guard with the first input's length (kernel.py `guard_input_axes`). When no input has the axis (a computed axis) and an output names it, the
kernel returns the required length as an extra `index` result (func attribute
`loop.extents = {axis = position}`, plus `loop.steps = {axis = argument}` when the step is
a kernel argument), so the caller can size the outputs and raise on a too-small one.

`df.random` has no Loop IR form (Loop IR has no random source) and is rejected with a
diagnostic.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.abi import AXES, ROLE
from loopopt.lowering.df_to_loop.context import KernelLowering, RangeExtent
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.scalar import lower_scalar_op
from loopopt.lowering.df_to_loop.trips import IndexMath, trip_count
from loopopt.lowering.df_to_loop.values import RangeArray


class LowerConstant(DFLoweringPattern[df.ConstantOp]):
    op_type = df.ConstantOp

    def lower(self, op: df.ConstantOp, ctx: KernelLowering, b: Builder) -> None:
        (r,) = lower_scalar_op(b, op, []) or ()
        ctx.bind(op.result, r)


def constant_int(v: SSAValue) -> int | None:
    """The value of an integer constant (arith.constant or df.constant), else None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp | df.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class LowerRange(DFLoweringPattern[df.RangeOp]):
    op_type = df.RangeOp

    def lower(self, op: df.RangeOp, ctx: KernelLowering, b: Builder) -> None:
        t = op.result.type
        assert isinstance(t, ArrayType)
        axis = t.axis_names[0]
        start, end, step = (ctx.get(v, op) for v in (op.start, op.end, op.step))
        step_const = constant_int(op.step)
        if step_const == 0:
            raise LoopoptDiagnostic("df.range: step must not be 0", op)
        idx = IndexType()
        m = IndexMath(b.insert, ctx.index)
        bounds = [
            ctx.index(c) if (c := constant_int(v)) is not None else b.insert(arith.IndexCastOp(lowered, idx)).result
            for v, lowered in ((op.start, start), (op.end, end), (op.step, step))
        ]
        required = trip_count(m, *bounds)  # type: ignore[arg-type]
        if m.value(required) is None:
            required.name_hint = f"len_{axis}"
        # zipped with an input axis (no extent result): a filter's output is bounded by its own
        # min(count, capacity) rule, as on any input axis (kernel.py `guard_input_axes`)
        fits = range_guard(ctx, b, axis, required, filtered=axis not in ctx.axis_source)
        count = required
        if fits is not None:
            count = b.insert(arith.SelectOp(fits, required, ctx.index(0))).result
            count.name_hint = f"n_{axis}"
        assert isinstance(start, SSAValue) and isinstance(step, SSAValue)
        if axis not in ctx.ranges:
            ctx.ranges[axis] = RangeExtent(count, required, step)
            ctx.axis_extent.setdefault(axis, count)
        ctx.extent_axis.setdefault(count, axis)
        ctx.bind(op.result, RangeArray(start, step, step_const, constant_int(op.start), count, required, axis))


def derived_axes(f: FuncOp) -> dict[str, str]:
    """A filter's new axis -> the axis it filters (its capacity axis), for every df.filter."""
    out: dict[str, str] = {}
    for op in f.walk():
        if isinstance(op, df.FilterOp):
            src, dst = op.inputs.types[0], op.outputs.types[0]
            if isinstance(src, ArrayType) and isinstance(dst, ArrayType) and src.rank == dst.rank == 1:
                out.setdefault(dst.axis_names[0], src.axis_names[0])
    return out


def range_guard(ctx: KernelLowering, b: Builder, axis: str, length: SSAValue,
                skip: SSAValue | None = None, filtered: bool = True) -> SSAValue | None:  # fmt: skip
    """`fits`: `length <= ` every buffer's length on `axis` (inputs on it; outputs on it or,
    when `filtered`, on an axis filtered from it), or None when no buffer is on the axis.
    `skip` is the buffer `length` comes from (kernel.py `guard_input_axes`: an input axis;
    there a filter's output is bounded by its own min(count, capacity) rule instead)."""
    derived = derived_axes(ctx.func) if filtered else {}

    def root(a: str) -> str:
        seen = set()
        while a in derived and a not in seen:
            seen.add(a)
            a = derived[a]
        return a

    fits: SSAValue | None = None
    for arg in ctx.block.args:
        attrs = ctx.arg_attrs.get(arg)
        if not attrs or not isinstance(arg.type, loop.BufType) or arg is skip:
            continue
        output = attrs[ROLE] == StringAttr("out")
        for d, a in enumerate(x.data for x in attrs[AXES].data):  # type: ignore[attr-defined]
            if a == axis or (output and root(a) == axis):
                dim = ctx.dim(arg, d)
                ok = b.insert(arith.CmpiOp(length, dim, "sle")).result
                if skip is not None and arg.name_hint:  # named: the kernel's other temporaries keep their names
                    ok.name_hint = f"{arg.name_hint}_fits"
                fits = ok if fits is None else b.insert(arith.AndIOp(fits, ok)).result
    if fits is not None:
        fits.name_hint = f"fits_{axis}"
    return fits


class LowerRandom(DFLoweringPattern[df.RandomOp]):
    op_type = df.RandomOp

    def lower(self, op: df.RandomOp, ctx: KernelLowering, b: Builder) -> None:
        raise LoopoptDiagnostic(
            "df.random has no Loop IR lowering (Loop IR has no random source); "
            "pass the random array in as a kernel argument", op
        )
