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

`kernel_signature` turns them into a `loopopt.runtime.KernelSignature` (what the C printer
and runtime use); `call_loop_kernel` runs a Loop IR kernel in the interpreter the way a C
caller would: buffers allocated per the attributes, filter outputs trimmed to their count,
results regrouped into the df kernel's results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from xdsl.ir import Attribute

ROLE = "loop.role"
AXES = "loop.axes"
CAPACITY = "loop.capacity"
COUNT = "loop.count"
RESULT = "loop.result"
FIELD = "loop.field"
KERNEL = "loop.kernel"


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
    """C-identifier names: each argument's SSA name hint when usable and unique, else argK."""
    import re

    names: list[str] = []
    for k, a in enumerate(func.body.block.args if func.body.blocks else ()):
        hint = a.name_hint
        ok = hint is not None and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", hint) and hint not in names
        names.append(hint if ok else f"arg{k}")  # type: ignore[arg-type]
    if not names:
        names = [f"arg{k}" for k in range(len(func.function_type.inputs))]
    return names


def kernel_args(func: FuncOp) -> list[BufferArg | ScalarArg]:
    """Every argument of a Loop IR kernel, decoded from its ABI attributes."""
    from loopopt.dialects.loop_attrs import BufType

    attrs = list(func.arg_attrs.data) if func.arg_attrs is not None else []
    out: list[BufferArg | ScalarArg] = []
    for k, (t, name) in enumerate(zip(func.function_type.inputs, _arg_names(func), strict=True)):
        d: Mapping[str, Attribute] = attrs[k].data if k < len(attrs) and isinstance(attrs[k], DictionaryAttr) else {}
        if not isinstance(t, BufType):
            out.append(ScalarArg(k, name, t))
            continue
        role = d.get(ROLE)
        axes = d.get(AXES)
        if not isinstance(role, StringAttr) or role.data not in ("in", "out") or not isinstance(axes, ArrayAttr):
            raise ValueError(f"@{func.sym_name.data}: buffer argument #{k} lacks {ROLE} / {AXES} attributes")
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
    return KernelSignature(func.sym_name.data, tuple(params), results)


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
    for axes no input has, such as a range's); filter outputs get their capacity and come
    back trimmed to their count.
    """
    from loopopt.interp.dtypes import numpy_dtype
    from loopopt.interp.runner import make_interpreter

    func = find_kernel(module, name)
    args = kernel_args(func)
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
    shapes = kernel_signature(func).output_shapes([values[a.index] for a in ins], extents)
    for a, shape in zip(outs, shapes, strict=True):
        values[a.index] = np.zeros(shape, dtype=numpy_dtype(a.element_type))
    with np.errstate(all="ignore"):
        results = tuple(make_interpreter(module).call_op(name, tuple(values)))
    return df_results(outs, values, results)


def df_results(outs: Sequence[BufferArg], values: Sequence[Any], results: Sequence[Any]) -> tuple[Any, ...]:
    """A kernel call's outcome in the df kernel's result order: each output buffer (`values`
    holds one value per func argument) trimmed to its count at its df result position, record
    fields gathered into a dict, the scalar results (not counts) in the remaining positions."""
    by_position: dict[int, list[BufferArg]] = {}
    for a in outs:
        by_position.setdefault(a.result if a.result is not None else -1, []).append(a)
    counts = {a.count_result for a in outs if a.count_result is not None}
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
