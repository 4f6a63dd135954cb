"""A df kernel's signature → the Loop IR kernel ABI (docs/calling_convention.md, "In Loop IR").

* every array argument becomes a `!loop.buf<T[, 2]>` argument with `loop.role = "in"` and
  `loop.axes`; an array of records becomes one buffer per field (struct of arrays);
* every array result becomes out buffer argument(s) appended after the inputs, in result
  order, with `loop.role = "out"`, `loop.axes`, and — when it lies on a filter's new axis —
  `loop.capacity` (the input axis bounding its length) and `loop.count` (the position of
  the `index` result holding its length); `loop.result` / `loop.field` say which df result
  (and record field) it holds, so callers can rebuild the df kernel's results;
* scalar results stay results; an array on a filter axis contributes its count (`index`)
  at its own place in the result order; `func.return` of arrays disappears: the producers
  wrote straight into the out buffers (a value that is not the product of a loop — a
  kernel input, a range, a value returned twice — is copied by one loop);
* an axis a df.range walks that no input has (a computed axis) returns the range's
  required length as an extra `index` result after the others: func attribute
  `loop.extents = {i = 2 : i64}`, and `loop.steps = {i = 1 : i64}` when the range's step
  is that scalar argument (docs/ranges.md);
* an axis inputs give runs to the first input's length only when every other buffer on it
  (inputs, outputs) holds as many, else to 0 (`guard_input_axes`, like a range's guard): a
  C caller's mismatched lengths read and write nothing, reductions give their init;
* the func gets the unit attribute `loop.kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    TupleType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df, loop
from loopopt.dialects.df_types import ArrayType, RecordType
from loopopt.lowering.abi import AXES, CAPACITY, COUNT, EXTENTS, FIELD, KERNEL, RESULT, ROLE, STEPS
from loopopt.lowering.df_to_loop.context import KernelLowering, check_buffer_rank
from loopopt.lowering.df_to_loop.nest import Iter, build_nest, iters_for, load, store
from loopopt.lowering.df_to_loop.sources import range_guard
from loopopt.lowering.df_to_loop.values import (
    BufArray,
    Lowered,
    Point,
    RecordArray,
    RecordValue,
    TupleValue,
    buffers_of,
    is_array,
    scalars_of,
)


@dataclass
class OutParam:
    """An out buffer argument and the df result it holds."""

    arg: BlockArgument
    axes: tuple[str, ...]
    position: int
    """Which df result (func.return operand) it belongs to."""


def convert_inputs(ctx: KernelLowering) -> None:
    """Append the new input arguments (buffers, scalars) and bind the old ones to them."""
    block = ctx.block
    for arg in list(block.args):
        hint = arg.name_hint or f"arg{arg.index}"
        lowered = _new_input(ctx, arg.type, hint, arg)
        if isinstance(lowered, SSAValue):
            arg.replace_all_uses_with(lowered)
        ctx.bind(arg, lowered)


def _new_input(ctx: KernelLowering, t: Attribute, hint: str, arg: BlockArgument) -> Lowered:
    block = ctx.block
    if isinstance(t, ArrayType):
        elem = t.element_type
        if isinstance(elem, RecordType):
            fields = tuple(
                _new_input(ctx, t.with_element(ft), f"{hint}_{n}", arg) for n, ft in elem.fields
            )
            return RecordArray(elem, fields)
        check_buffer_rank(t, ctx.func)
        new = block.insert_arg(loop.BufType(elem, t.rank), len(block.args))
        new.name_hint = hint
        ctx.arg_attrs[new] = {ROLE: StringAttr("in"), AXES: _axes_attr(t.axis_names)}
        extents = []
        for d, a in enumerate(t.axis_names):
            if a not in ctx.axis_extent:
                ctx.axis_extent[a] = ctx.dim(new, d, f"n_{a}")
                ctx.axis_source[a] = new
            extents.append(ctx.axis_extent[a])
        return BufArray(new, t.axis_names, tuple(extents))
    if isinstance(t, RecordType):
        fields = tuple(_new_input(ctx, ft, f"{hint}_{n}", arg) for n, ft in t.fields)
        return RecordValue(t, fields)  # type: ignore[arg-type]
    if isinstance(t, TupleType):
        raise LoopoptDiagnostic(f"kernel @{ctx.func.sym_name.data}: tuple arguments are not supported ({t})", ctx.func)
    new = block.insert_arg(t, len(block.args))
    new.name_hint = arg.name_hint
    return new


def guard_input_axes(ctx: KernelLowering) -> None:
    """Bound each input axis by every buffer on it, like a range (sources.py `range_guard`):
    its extent becomes `select(fits, first_len, 0)` where `fits` is `first_len <=` the length
    on that axis of every other input and of every output on it, so a caller's mismatched
    lengths (a short output, a short second input) read and write nothing and reductions give
    their init. A filter's output on an axis derived from it is not in `fits`: the filter
    writes min(count, capacity) and returns the full count. No guard when the first input is
    the only buffer on the axis."""
    class _Entry:
        insert = staticmethod(ctx.entry_insert)

    swap: dict[SSAValue, SSAValue] = {}
    for a, first in list(ctx.axis_extent.items()):
        fits = range_guard(ctx, _Entry(), a, first, skip=ctx.axis_source[a], filtered=False)  # type: ignore[arg-type]
        if fits is None:
            continue
        first.name_hint = f"len_{a}"
        n = ctx.entry_insert(arith.SelectOp(fits, first, ctx.index(0))).results[0]
        n.name_hint = f"n_{a}"
        ctx.axis_extent[a] = swap[first] = n
    if swap:
        for v, lowered in list(ctx.env.items()):
            ctx.env[v] = _swap_extents(lowered, swap)


def _swap_extents(lowered: Lowered, swap: dict[SSAValue, SSAValue]) -> Lowered:
    if isinstance(lowered, BufArray):
        return BufArray(lowered.buf, lowered.axes, tuple(swap.get(e, e) for e in lowered.extents))
    if isinstance(lowered, RecordArray):
        return RecordArray(lowered.record, tuple(_swap_extents(f, swap) for f in lowered.fields))  # type: ignore[misc]
    return lowered


def convert_outputs(ctx: KernelLowering, ret: func.ReturnOp) -> dict[int, Lowered]:
    """Append one out buffer per array result (per field for records); preassign producers."""
    arrays = [(p, v) for p, v in enumerate(ret.arguments) if isinstance(v.type, ArrayType)]
    counted = {a for op in ctx.func.walk() if isinstance(op, df.FilterOp)
               for r in op.outputs for a in r.type.axis_names}  # type: ignore[attr-defined]  # fmt: skip
    out_dests: dict[int, Lowered] = {}
    for p, v in enumerate(ret.arguments):
        if isinstance(v.type, TupleType) and _holds_array(v.type):
            raise LoopoptDiagnostic("kernel results that are tuples holding arrays are not supported", ret)
        if not isinstance(v.type, ArrayType):
            continue
        name = "out" if len(arrays) == 1 else f"out{p}"
        dest = _new_output(ctx, v.type, name, p)
        out_dests[p] = dest
        if isinstance(v, OpResult) and v not in ctx.destinations and _in_place(v, ret, counted):
            _preassign(ctx, v, dest)
    return out_dests


def _in_place(v: OpResult, ret: func.ReturnOp, counted: set[str]) -> bool:
    """Whether `v`'s producer may write straight into its out buffer. An array on a filter's axis
    holds a count of elements, and the caller's capacity may be smaller (docs/calling_convention.md):
    only a filter bounds its writes by it, and only when nothing else reads the result (a reader
    would read past the capacity). Otherwise `v` goes to scratch and `convert_return` copies the
    first min(count, capacity) elements."""
    t = v.type
    assert isinstance(t, ArrayType)
    if not counted.intersection(t.axis_names):
        return True
    return isinstance(v.owner, df.FilterOp) and all(u.operation is ret for u in v.uses)


def _holds_array(t: Attribute) -> bool:
    if isinstance(t, TupleType):
        return any(_holds_array(e) for e in t.types)
    return isinstance(t, ArrayType)


def _new_output(ctx: KernelLowering, t: ArrayType, hint: str, position: int, field: str | None = None) -> Lowered:
    elem = t.element_type
    if isinstance(elem, RecordType):
        return RecordArray(
            elem,
            tuple(_new_output(ctx, t.with_element(ft), f"{hint}_{n}", position, n) for n, ft in elem.fields),
        )
    block = ctx.block
    check_buffer_rank(t, ctx.func)
    new = block.insert_arg(loop.BufType(elem, t.rank), len(block.args))
    new.name_hint = hint
    ctx.arg_attrs[new] = {
        ROLE: StringAttr("out"),
        AXES: _axes_attr(t.axis_names),
        RESULT: IntegerAttr(position, i64),
    }
    if field is not None:
        ctx.arg_attrs[new][FIELD] = StringAttr(field)
    ctx.out_params.append(OutParam(new, t.axis_names, position))
    return BufArray(new, t.axis_names, ())


def _preassign(ctx: KernelLowering, v: OpResult, dest: Lowered) -> None:
    """`v`'s producer writes into `dest`; through df.make_records, its fields' producers do;
    through df.field, the record producer writes that field there (its other fields get
    buffers of their own when it runs)."""
    ctx.destinations[v] = dest
    producer = v.op
    if isinstance(producer, df.MakeRecordsOp) and isinstance(dest, RecordArray):
        for field_value, field_dest in zip(producer.fields, dest.fields, strict=True):
            if isinstance(field_value, OpResult) and field_value not in ctx.destinations:
                _preassign(ctx, field_value, field_dest)
    if isinstance(producer, df.FieldOp) and isinstance(producer.value, OpResult):
        records = producer.value
        rec = records.type.element_type  # type: ignore[attr-defined]
        whole = ctx.destinations.get(records)
        fields = list(whole.fields) if isinstance(whole, RecordArray) else [None] * len(rec.fields)
        if whole is not None and not isinstance(whole, RecordArray):
            return
        k = [n for n, _ in rec.fields].index(producer.field.data)
        if fields[k] is None:
            fields[k] = dest
            ctx.destinations[records] = RecordArray(rec, tuple(fields))  # type: ignore[arg-type]


def _axes_attr(axes: tuple[str, ...]) -> ArrayAttr[StringAttr]:
    return ArrayAttr(StringAttr(a) for a in axes)


def convert_return(ctx: KernelLowering, ret: func.ReturnOp, out_dests: dict[int, Lowered]) -> None:
    """The new func.return: scalar results and filter counts; copies for arrays not yet in place."""
    b = Builder(InsertPoint.before(ret))
    results: list[SSAValue] = []
    for p, v in enumerate(ret.arguments):
        lowered = ctx.get(v, ret)
        if p not in out_dests:
            results.extend(_scalar_results(lowered, ret))
            continue
        dest = out_dests[p]
        extent = lowered.extents[0]  # type: ignore[union-attr]
        if [x.buf for x in buffers_of(lowered)] != [x.buf for x in buffers_of(dest)]:
            limit = None
            if extent in ctx.count_capacity:  # the first min(count, capacity) elements
                for out in buffers_of(dest):
                    cap = b.insert(arith.MaxSIOp(b.insert(loop.DimOp(out.buf, 0)).results[0], ctx.index(0))).results[0]
                    limit = b.insert(arith.MinSIOp(limit or extent, cap)).results[0]
            copy(ctx, b, lowered, dest, v.type.axis_names, limit)  # type: ignore[attr-defined]
        if extent in ctx.count_capacity:
            capacity = ctx.root_capacity(extent)
            axis = next((a for a, e in ctx.axis_extent.items() if e is capacity), ctx.extent_axis.get(capacity))
            for out in ctx.out_params:
                if out.position == p:
                    ctx.arg_attrs[out.arg][COUNT] = IntegerAttr(len(results), i64)
                    if axis is not None:
                        ctx.arg_attrs[out.arg][CAPACITY] = StringAttr(axis)
            results.append(extent)
    results += _computed_extents(ctx, len(results))
    for buf in reversed(ctx.allocs):
        b.insert(loop.DeallocOp(buf))
    b.insert(func.ReturnOp(*results))
    ret.detach()
    ret.erase(safe_erase=False)
    ctx.results = results


def _computed_extents(ctx: KernelLowering, first: int) -> list[SSAValue]:
    """The required length of each computed axis (walked by a df.range, on no input buffer),
    as extra `index` results from position `first` on; recorded for `loop.extents` (and
    `loop.steps` when the range's step is a kernel argument, so a caller can reject step 0)."""
    inputs = {a for arg, attrs in ctx.arg_attrs.items() if attrs.get(ROLE) == StringAttr("in")
              for a in (x.data for x in attrs[AXES].data)}  # type: ignore[attr-defined]  # fmt: skip
    extents: list[SSAValue] = []
    for axis, rng in ctx.ranges.items():
        if axis in inputs:
            continue  # an input's length bounds the axis (the guard checks the range against it)
        ctx.computed[axis] = first + len(extents)
        extents.append(rng.required)
        if isinstance(rng.step, BlockArgument) and rng.step.owner is ctx.block:
            ctx.steps[axis] = rng.step
    return extents


def _scalar_results(lowered: Lowered, ret: func.ReturnOp) -> list[SSAValue]:
    if is_array(lowered):
        raise LoopoptDiagnostic("an array inside a kernel result tuple is not supported", ret)
    if isinstance(lowered, TupleValue):
        return [s for item in lowered.items for s in _scalar_results(item, ret)]
    return scalars_of(lowered)


def copy(ctx: KernelLowering, b: Builder, src: Lowered, dest: Lowered, axes: tuple[str, ...],
         limit: SSAValue | None = None) -> None:  # fmt: skip
    """One loop nest copying array `src` into `dest` (a result that no loop produced in place);
    `limit`, when given, replaces the extent of the first axis (a capacity-bounded count)."""

    def step(inner: Builder, point: Point, _: list[SSAValue]) -> list[SSAValue]:
        store(inner, load(ctx, inner, src, axes, point), dest, axes, point)
        return []

    iters = iters_for([src], axes, axes)
    if limit is not None:
        iters[0] = Iter(iters[0].axis, limit)
    build_nest(ctx, b, iters, [], [], step)


def finish_signature(ctx: KernelLowering) -> None:
    """Function type, ABI argument attributes and the `loop.kernel` marker."""
    f = ctx.func
    args = list(ctx.block.args)
    f.function_type = FunctionType.from_lists([a.type for a in args], [r.type for r in ctx.results])
    f.arg_attrs = ArrayAttr(DictionaryAttr(ctx.arg_attrs.get(a, {})) for a in args)
    f.res_attrs = None
    f.attributes[KERNEL] = UnitAttr()
    if ctx.computed:
        f.attributes[EXTENTS] = DictionaryAttr({a: IntegerAttr(p, i64) for a, p in ctx.computed.items()})
    if ctx.steps:
        f.attributes[STEPS] = DictionaryAttr({a: IntegerAttr(args.index(v), i64) for a, v in ctx.steps.items()})
