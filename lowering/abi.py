"""Reading the Loop IR kernel ABI (docs/calling_convention.md, "In Loop IR").

convert-df-to-loop writes these argument attributes on every buffer argument of a kernel
(`func.func` marked `loop.kernel`):

| attribute        | value                    | meaning                                           |
|------------------|--------------------------|---------------------------------------------------|
| `loop.role`      | `"in"` / `"out"`         | input or output buffer                            |
| `loop.axes`      | `["i"]`, `["i", "j"]`    | the df axis of each dimension                     |
| `loop.capacity`  | `"i"`                    | filter output: capacity >= extent of axis `i`     |
| `loop.count`     | result index (i64)       | filter output: which result holds its length      |
| `loop.result`    | df result index (i64)    | output: which df result it holds                  |
| `loop.field`     | `"x"`                    | output: which record field it holds               |

and two func attributes for computed axes (an axis whose extent the kernel computes from
scalars, a `df.range`'s): `loop.extents = {i = 1 : i64}` (axis -> the `index` result that
returns its extent) and, optionally, `loop.steps = {i = 2 : i64}` (axis -> the scalar
argument that is the range's step, so callers can reject a step of 0 up front).

`verify_kernel_abi` checks all of them against the kernel with located errors (the
attributes come from user text when Loop IR is written by hand): every name a C identifier
`loopopt.names` accepts, one axis per dimension, roles, counts, results and fields
consistent, and every output dimension bounded by something the caller checks (an input's
axis, a computed axis, or a filter's capacity axis), so no kernel can write past an output.
`kernel_signature` turns them into a `loopopt.runtime.KernelSignature` (what the C printer
and runtime use); `call_loop_kernel` runs a Loop IR kernel in the interpreter the way a C
caller would: buffers allocated per the attributes, filter outputs trimmed to their count,
results regrouped into the df kernel's results.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue

ROLE = "loop.role"
AXES = "loop.axes"
CAPACITY = "loop.capacity"
COUNT = "loop.count"
RESULT = "loop.result"
FIELD = "loop.field"
KERNEL = "loop.kernel"
EXTENTS = "loop.extents"
STEPS = "loop.steps"
ARG_ATTRS = (ROLE, AXES, CAPACITY, COUNT, RESULT, FIELD)


@dataclass(frozen=True)
class BufferArg:
    """One buffer argument as the ABI attributes describe it."""

    index: int
    """Position among the func's arguments."""
    name: str
    element_type: Attribute
    rank: int
    output: bool
    axes: tuple[str, ...]
    capacity: str | None = None
    count_result: int | None = None
    result: int | None = None
    field: str | None = None


@dataclass(frozen=True)
class ScalarArg:
    index: int
    name: str
    type: Attribute


def dtype_name(t: Attribute) -> str:
    """The calling convention's dtype name of an element type (index is i64, i1 is bool)."""
    if isinstance(t, IndexType):
        return "i64"
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "bool"
    return str(t)


def _arg_names(func: FuncOp) -> list[str]:
    """C-identifier names: each argument's SSA name hint when `loopopt.names` accepts it and it
    is unique, else argK (made unique)."""
    from loopopt.names import c_name_problem

    hints = [a.name_hint for a in func.body.block.args] if func.body.blocks else []
    if not hints:
        hints = [None] * len(func.function_type.inputs)
    names: list[str | None] = []
    for hint in hints:
        ok = hint is not None and c_name_problem(hint) is None and hint not in names
        names.append(hint if ok else None)
    taken = {n for n in names if n is not None}
    out: list[str] = []
    for k, n in enumerate(names):
        if n is None:
            n, j = f"arg{k}", 1
            while n in taken:
                n, j = f"arg{k}_{j}", j + 1
            taken.add(n)
        out.append(n)
    return out


def kernel_args(func: FuncOp) -> list[BufferArg | ScalarArg]:
    """Every argument of a Loop IR kernel, decoded from its ABI attributes (verified first:
    a `LoopoptDiagnostic` located at the func when they are inconsistent)."""
    verify_kernel_abi(func)
    return _decode_args(func)


def _arg_dicts(func: FuncOp) -> list[Mapping[str, Attribute]]:
    attrs = list(func.arg_attrs.data) if func.arg_attrs is not None else []
    n = len(func.function_type.inputs)
    return [attrs[k].data if k < len(attrs) and isinstance(attrs[k], DictionaryAttr) else {} for k in range(n)]


def _decode_args(func: FuncOp) -> list[BufferArg | ScalarArg]:
    from loopopt.dialects.loop_attrs import BufType

    out: list[BufferArg | ScalarArg] = []
    for k, (t, name, d) in enumerate(zip(func.function_type.inputs, _arg_names(func), _arg_dicts(func), strict=True)):
        if not isinstance(t, BufType):
            out.append(ScalarArg(k, name, t))
            continue
        role, axes = d[ROLE], d[AXES]
        assert isinstance(role, StringAttr) and isinstance(axes, ArrayAttr)
        out.append(
            BufferArg(
                k,
                name,
                t.element_type,
                t.rank.data,
                role.data == "out",
                tuple(a.data for a in axes),  # type: ignore[attr-defined]
                _str(d.get(CAPACITY)),
                _int(d.get(COUNT)),
                _int(d.get(RESULT)),
                _str(d.get(FIELD)),
            )
        )
    return out


def computed_extents(func: FuncOp) -> dict[str, int]:
    """`loop.extents`: computed axis -> position of the result holding its extent."""
    d = func.attributes.get(EXTENTS)
    return {a: v.value.data for a, v in d.data.items() if isinstance(v, IntegerAttr)} if isinstance(d, DictionaryAttr) else {}


def range_steps(func: FuncOp) -> dict[str, int]:
    """`loop.steps`: computed axis -> index of the scalar argument that is its range's step."""
    d = func.attributes.get(STEPS)
    return {a: v.value.data for a, v in d.data.items() if isinstance(v, IntegerAttr)} if isinstance(d, DictionaryAttr) else {}


def verify_kernel_abi(func: FuncOp, written: Collection[SSAValue] | None = None) -> None:
    """Check a kernel's ABI attributes against the kernel itself; a `LoopoptDiagnostic` at the
    func names the first problem. See docs/calling_convention.md, "In Loop IR". `written`: the
    buffers the kernel's ops write, when the caller has them (the C printer: a walk less)."""
    from loopopt.diagnostics import LoopoptDiagnostic
    from loopopt.dialects.loop_attrs import BufType
    from loopopt.names import check_c_name, python_repr

    kname = func.sym_name.data
    check_c_name(kname, "kernel name", func, allow_lo_prefix=True)

    def fail(message: str) -> None:
        raise LoopoptDiagnostic(f"@{kname}: {message}", func)

    outputs_type = list(func.function_type.outputs.data)
    n_results = len(outputs_type)

    def result_position(value: Attribute | None, what: str) -> int:
        if not isinstance(value, IntegerAttr) or not isinstance(value.value.data, int):
            fail(f"{what} must be an integer attribute (a result position), found {python_repr(str(value))}")
        assert isinstance(value, IntegerAttr)
        pos = value.value.data
        if not 0 <= pos < n_results:
            fail(f"{what} = {pos} is not a result of the kernel (it has {n_results})")
        if not isinstance(outputs_type[pos], IndexType | IntegerType) or (
            isinstance(outputs_type[pos], IntegerType) and outputs_type[pos].width.data != 64  # type: ignore[attr-defined]
        ):
            fail(f"{what} = {pos} names result #{pos} of type {outputs_type[pos]}, expected index or i64")
        return pos

    # Func attributes: computed axes and their steps.
    extents: dict[str, int] = {}
    raw = func.attributes.get(EXTENTS)
    if raw is not None:
        if not isinstance(raw, DictionaryAttr):
            fail(f"{EXTENTS} must be a dictionary {{axis = result position}}, found {python_repr(str(raw))}")
        assert isinstance(raw, DictionaryAttr)
        for axis, v in raw.data.items():
            check_c_name(axis, f"@{kname}: computed axis name in {EXTENTS}", func)
            extents[axis] = result_position(v, f"{EXTENTS}[{axis}]")
        if len(set(extents.values())) != len(extents):
            fail(f"{EXTENTS} names one result for two axes")
    input_types = list(func.function_type.inputs.data)
    raw = func.attributes.get(STEPS)
    if raw is not None:
        if not isinstance(raw, DictionaryAttr):
            fail(f"{STEPS} must be a dictionary {{axis = argument position}}, found {python_repr(str(raw))}")
        assert isinstance(raw, DictionaryAttr)
        for axis, v in raw.data.items():
            if axis not in extents:
                fail(f"{STEPS} names axis {python_repr(axis)}, which is not a computed axis of {EXTENTS}")
            k = v.value.data if isinstance(v, IntegerAttr) else None
            if not isinstance(k, int) or not 0 <= k < len(input_types) or not isinstance(input_types[k], IntegerType | IndexType):
                fail(f"{STEPS}[{axis}] must name a scalar integer argument, found {python_repr(str(v))}")

    # Argument attributes.
    dicts = _arg_dicts(func)
    names = _arg_names(func)
    if written is None:
        written = {w for o in func.walk() if (w := _written(o)) is not None}
    args = func.body.block.args if func.body.blocks else ()
    input_axes: set[str] = set()
    outs: list[tuple[int, BufType, Mapping[str, Attribute]]] = []
    counts: set[int] = set()
    for k, (t, d) in enumerate(zip(input_types, dicts, strict=True)):
        what = f"argument #{k} ({python_repr(names[k])})"
        unknown = sorted(key for key in d if key.startswith("loop.") and key not in ARG_ATTRS)
        if unknown:
            fail(f"{what} has unknown ABI attribute {python_repr(unknown[0])} (expected {', '.join(ARG_ATTRS)})")
        if not isinstance(t, BufType):
            present = [key for key in ARG_ATTRS if key in d]
            if present:
                fail(f"{what} is a scalar but carries the buffer attribute {present[0]}")
            continue
        role, axes = d.get(ROLE), d.get(AXES)
        if not isinstance(role, StringAttr) or role.data not in ("in", "out"):
            fail(f"buffer {what} needs {ROLE} = \"in\" or \"out\", found {python_repr(str(role)) if role else 'none'}")
        assert isinstance(role, StringAttr)
        if not isinstance(axes, ArrayAttr) or not all(isinstance(a, StringAttr) for a in axes.data):
            fail(f"buffer {what} needs {AXES} = a list of axis names (one per dimension), found "
                 f"{python_repr(str(axes)) if axes else 'none'}")
        assert isinstance(axes, ArrayAttr)
        axis_names = [a.data for a in axes.data]  # type: ignore[attr-defined]
        for a in axis_names:
            check_c_name(a, f"@{kname}: axis name of {what}", func)
        if len(axis_names) != t.rank.data:
            fail(f"buffer {what} has rank {t.rank.data} but {AXES} names {len(axis_names)} axes {axis_names}")
        if len(set(axis_names)) != len(axis_names):
            fail(f"buffer {what} names axis {python_repr(axis_names[0])} twice in {AXES}")
        if role.data == "in":
            extra = [key for key in (CAPACITY, COUNT, RESULT, FIELD) if key in d]
            if extra:
                fail(f"input {what} carries {extra[0]}, which only an output can have")
            if k < len(args) and args[k] in written:
                fail(f"input {what} ({ROLE} = \"in\") is written by the kernel")
            computed = [a for a in axis_names if a in extents]
            if computed:
                fail(f"input {what} is on axis {python_repr(computed[0])}, which {EXTENTS} says the kernel computes")
            input_axes.update(axis_names)
            continue
        outs.append((k, t, d))
        capacity, count, field = d.get(CAPACITY), d.get(COUNT), d.get(FIELD)
        if count is not None:
            if t.rank.data != 1:
                fail(f"output {what}: only a rank-1 output can have {COUNT}")
            counts.add(result_position(count, f"{COUNT} of output {what}"))
        if capacity is not None:
            if not isinstance(capacity, StringAttr):
                fail(f"output {what}: {CAPACITY} must be an axis name, found {python_repr(str(capacity))}")
            assert isinstance(capacity, StringAttr)
            check_c_name(capacity.data, f"@{kname}: capacity axis of {what}", func)
            if t.rank.data != 1:
                fail(f"output {what}: only a rank-1 output can have {CAPACITY}")
        if RESULT in d:
            r = d[RESULT]
            if not isinstance(r, IntegerAttr) or not isinstance(r.value.data, int) or r.value.data < 0:
                fail(f"output {what}: {RESULT} must be a non-negative integer, found {python_repr(str(r))}")
        if field is not None:
            if not isinstance(field, StringAttr):
                fail(f"output {what}: {FIELD} must be a field name, found {python_repr(str(field))}")
            assert isinstance(field, StringAttr)
            check_c_name(field.data, f"@{kname}: field name of {what}", func)
            if RESULT not in d:
                fail(f"output {what}: {FIELD} needs {RESULT} (the record result the field belongs to)")

    # Every output dimension is bounded by something the caller checks before (an input's
    # axis, a capacity axis) or after the call (a computed axis, guarded by the kernel).
    bounded = input_axes | set(extents)
    for k, t, d in outs:
        what = f"output #{k} ({python_repr(names[k])})"
        axis_names = [a.data for a in d[AXES].data]  # type: ignore[attr-defined]
        capacity = _str(d.get(CAPACITY))
        dims = [(0, capacity, CAPACITY)] if capacity is not None else []
        dims += [(j, a, AXES) for j, a in enumerate(axis_names) if not (capacity is not None and j == 0)]
        for j, a, attr in dims:
            if a not in bounded:
                fail(
                    f"{what} dimension {j} is on axis {python_repr(a)} ({attr}), which no input buffer has and "
                    f"which is not a computed axis ({EXTENTS}): nothing would check the output's length "
                    "before the kernel writes it"
                )
    overlap = counts & set(extents.values())
    if overlap:
        fail(f"result #{min(overlap)} is both a {COUNT} and an extent in {EXTENTS}")

    # df result positions: outputs (a record's fields share one) and the remaining scalar results.
    groups: dict[int, list[str | None]] = {}
    for k, _, d in outs:
        r = _int(d.get(RESULT))
        if r is not None:
            groups.setdefault(r, []).append(_str(d.get(FIELD)))
    for r, fields in groups.items():
        if len(fields) > 1 and (None in fields or len(set(fields)) != len(fields)):
            fail(f"outputs sharing {RESULT} = {r} must be distinct fields of one record ({FIELD})")
    if all(RESULT in d for _, _, d in outs):
        plain = n_results - len(counts) - len(extents)
        if groups and max(groups) >= len(groups) + plain:
            fail(f"{RESULT} = {max(groups)} is past the kernel's {len(groups) + plain} df results")


_WRITTEN_OPERAND: dict[type, str | None] = {}
"""The operand naming the buffer an op writes, per op class (None: it writes none); asked of
every op of every kernel, so answered once per class."""


def _written(op: Any) -> Any:
    cls = type(op)
    operand = _WRITTEN_OPERAND.get(cls, "")
    if operand == "":
        from loopopt.dialects import loop, simd

        stores = (loop.StoreOp, simd.StoreOp, simd.MaskedStoreOp, simd.CompressStoreOp)
        operand = _WRITTEN_OPERAND[cls] = (
            "out" if issubclass(cls, loop.AppendOp) else "buf" if issubclass(cls, stores) else None
        )
    return None if operand is None else getattr(op, operand)


def _str(a: Attribute | None) -> str | None:
    return a.data if isinstance(a, StringAttr) else None


def _int(a: Attribute | None) -> int | None:
    return a.value.data if isinstance(a, IntegerAttr) else None


def kernel_signature(func: FuncOp):
    """The `KernelSignature` of a Loop IR kernel (C parameter order = argument order)."""
    from loopopt.runtime.signature import ArrayParam, KernelSignature, ScalarParam

    params = []
    for a in kernel_args(func):
        if isinstance(a, ScalarArg):
            params.append(ScalarParam(a.name, dtype_name(a.type)))
        else:
            params.append(
                ArrayParam(
                    a.name,
                    dtype_name(a.element_type),
                    a.rank,
                    a.output,
                    axes=a.axes,
                    capacity=a.capacity,
                    count_result=a.count_result,
                )
            )
    results = tuple(dtype_name(t) for t in func.function_type.outputs)
    return KernelSignature(
        func.sym_name.data,
        tuple(params),
        results,
        extents=tuple(computed_extents(func).items()),
        steps=tuple(range_steps(func).items()),
    )


def find_kernel(module: ModuleOp, name: str) -> FuncOp:
    for op in module.walk():
        if isinstance(op, FuncOp) and op.sym_name.data == name:
            return op
    raise KeyError(f"no func.func @{name} in the module")


def flatten_inputs(inputs: Sequence[Any]) -> list[Any]:
    """df-shaped inputs -> the kernel's C inputs: an array of records becomes its field arrays."""
    flat: list[Any] = []
    for x in inputs:
        flat.extend(x.values() if isinstance(x, dict) else [x])
    return flat


def call_loop_kernel(
    module: ModuleOp, name: str, inputs: Sequence[Any], extents: Mapping[str, int] | None = None
) -> tuple[Any, ...]:
    """Run Loop IR kernel `name` on df-shaped `inputs`; its df-shaped results.

    Inputs are given as the df kernel takes them: numpy arrays, dicts of field arrays for
    arrays of records, scalars. Output buffers are allocated as the runtime allocates them
    (`KernelSignature.output_shapes`: from the axes' extents in the inputs, or from `extents`
    for axes no input has); filter outputs get their capacity and come back trimmed to their
    count. Outputs on computed axes (`loop.extents`) are sized like `call_alloc` sizes them:
    the kernel runs once with them empty to learn the extents, then again; a range step of 0
    (`loop.steps`) is a ValueError.
    """
    from loopopt.interp.dtypes import numpy_dtype
    from loopopt.interp.runner import make_interpreter

    func = find_kernel(module, name)
    args = kernel_args(func)
    sig = kernel_signature(func)
    ins = [a for a in args if not (isinstance(a, BufferArg) and a.output)]
    outs = [a for a in args if isinstance(a, BufferArg) and a.output]
    flat = flatten_inputs(inputs)
    if len(flat) != len(ins):
        raise TypeError(f"@{name} takes {len(ins)} inputs (record fields counted apart), found {len(flat)}")
    values: list[Any] = [None] * len(args)
    for a, leaf in zip(ins, flat, strict=True):
        if isinstance(a, ScalarArg):
            values[a.index] = numpy_dtype(a.type).type(leaf)
        else:
            values[a.index] = np.array(leaf, dtype=numpy_dtype(a.element_type), copy=True, order="C")
    in_values = [values[a.index] for a in ins]
    sig.check_steps(in_values)
    interpreter = make_interpreter(module)
    computed = dict(sig.extents)
    known = {a: n for a, n in (extents or {}).items() if a not in computed}

    def run(shapes: Sequence[tuple[int, ...]]) -> tuple[Any, ...]:
        for a, shape in zip(outs, shapes, strict=True):
            values[a.index] = np.zeros(shape, dtype=numpy_dtype(a.element_type))
        with np.errstate(all="ignore"):
            return tuple(interpreter.call_op(name, tuple(values)))

    if computed:  # ask the kernel for its computed extents with those outputs empty
        found = run(sig.output_shapes(in_values, {**known, **{a: 0 for a in computed}}))
        known.update({a: int(found[j]) for a, j in computed.items()})
    shapes = sig.output_shapes(in_values, known)
    results = run(shapes)
    sig.check_computed_extents(shapes, results)
    return df_results(outs, values, results, hidden=set(computed.values()))


def df_results(
    outs: Sequence[BufferArg], values: Sequence[Any], results: Sequence[Any], hidden: set[int] = frozenset()  # type: ignore[assignment]
) -> tuple[Any, ...]:
    """A kernel call's outcome in the df kernel's result order: each output buffer (`values`
    holds one value per func argument) trimmed to its count at its df result position, record
    fields gathered into a dict, the scalar results (not counts, not the computed extents in
    `hidden`) in the remaining positions."""
    by_position: dict[int, list[BufferArg]] = {}
    for a in outs:
        by_position.setdefault(a.result if a.result is not None else -1, []).append(a)
    counts = {a.count_result for a in outs if a.count_result is not None} | set(hidden)
    scalars = iter(r for k, r in enumerate(results) if k not in counts)
    df_results: list[Any] = []
    position = 0
    remaining = len(results) - len(counts)
    while remaining > 0 or position in by_position:
        group = by_position.get(position)
        if group is None:
            df_results.append(next(scalars))
            remaining -= 1
        else:
            arrays = {}
            for a in group:
                arr = values[a.index]
                if a.count_result is not None:
                    arr = arr[: int(results[a.count_result])]
                arrays[a.field] = arr
            df_results.append(arrays[None] if None in arrays else arrays)
        position += 1
    return tuple(df_results)
