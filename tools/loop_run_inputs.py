"""`loop-run`'s inputs: random or given (`--input NAME=PATH.npy`) values for a df kernel's arguments.

A kernel's `// REF:` header (loopopt.tools.ref_header) gives each argument's dtype, shape and
value range; without one, arrays get extent n on the first axis. `--input` values are checked
against the argument they name (rank, dtype, record fields; only value-preserving casts) and
are user text: any problem is a `RunError` (exit 1) or `UsageError` (exit 2), never a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Attribute

from loopopt.tools.ref_header import RefError, RefHeader, random_values, scalar_type


class RunError(Exception):
    """A user error with no source location: printed as `loop-run: error: ...`."""


class UsageError(RunError):
    """A command-line error (exit status 2): printed as `loop-run: error: ...`."""


def ref_namespace(header: RefHeader, inputs: Sequence[Any], n: int) -> dict[str, Any]:
    """What the header's expressions see, for inputs given in argument order."""
    return header.namespace({s.name: x for s, x in zip(header.inputs, inputs)}, n)


def arg_names(kernel: func.FuncOp) -> list[str]:
    return [a.name_hint or f"arg{k}" for k, a in enumerate(kernel.args)]


_UNSIGNED_SPEC = {"i8": "u8", "i16": "u16"}
"""A REF spec may give signless i8/i16 arguments unsigned data."""


def _dtype_name(t: Attribute) -> str:
    from loopopt.lowering.abi import dtype_name

    name = dtype_name(t)
    return "i1" if name == "bool" else name


class Inputs(list):
    """A kernel's argument values, remembering the size `n` they were made for (what
    `input_size` reports when no argument is an array: a kernel of scalars, such as the
    bounds of a df.range, sizes its work from them)."""

    def __init__(self, values: Sequence[Any], n: int):
        super().__init__(values)
        self.n = n


def make_inputs(kernel: func.FuncOp, n: int, rng: np.random.Generator,
                header: RefHeader | None = None, given: Mapping[str, Any] | None = None) -> Inputs:
    """One value per argument of df kernel `kernel`: given, from the REF spec, or random of size n.

    Without a spec, an array's first axis has extent n and any other axis 4; scalars are
    random (floats in [-1, 1), integers in [1, 8]: scalars are often lengths or steps).
    The result remembers n, or 0 when every argument is given (nothing was made of n).
    """
    from loopopt.dialects.df_types import ArrayType, RecordType

    given = given or {}
    specs = {s.name: s for s in header.inputs} if header is not None else {}
    values: list[Any] = []
    for name, t in zip(arg_names(kernel), kernel.function_type.inputs, strict=True):
        if name in given:
            values.append(given[name])
        elif name in specs:
            values.append(specs[name].make(n, rng))
        elif isinstance(t, ArrayType):
            shape = (n,) + (4,) * (t.rank - 1)
            el = t.element_type
            if isinstance(el, RecordType):
                values.append({f: random_values(_dtype_name(ft), shape, rng) for f, ft in el.fields})
            else:
                values.append(random_values(_dtype_name(el), shape, rng))
        else:
            dt = _dtype_name(t)
            low, high = (None, None) if dt in ("f32", "f64", "i1") else (1, 8)
            values.append(random_values(dt, (), rng, low, high)[()])
    made_of_n = any(name not in given for name in arg_names(kernel))
    return Inputs(values, n if made_of_n else 0)


def check_header(kernel: func.FuncOp, header: RefHeader) -> None:
    """A RefError (naming the REF line) when the header's `inputs=` do not match the kernel's
    arguments, taken in order: their count, dtypes and ranks."""
    from loopopt.dialects.df_types import ArrayType, RecordType

    def fail(why: str) -> NoReturn:
        raise RefError(f"{header.filename}:{header.line}: error: bad REF header for @{header.kernel}: {why}")

    names = arg_names(kernel)
    if not header.inputs:
        return
    if len(header.inputs) != len(names):  # specs go with arguments by position (names may differ)
        fail(f"{len(header.inputs)} inputs= specs; the kernel has {len(names)} arguments ({', '.join(names) or 'none'})")
    for spec, t in zip(header.inputs, kernel.function_type.inputs, strict=True):
        el = t.element_type if isinstance(t, ArrayType) else t
        rank = t.rank if isinstance(t, ArrayType) else 0
        if len(spec.dims) != rank:
            fail(f"input {spec.name} has {len(spec.dims)} dims, the argument {t} has rank {rank}")
        if isinstance(el, RecordType):
            want = [(f, _dtype_name(ft)) for f, ft in el.fields]
            if list(spec.fields) != want:
                fail(f"input {spec.name} has fields {list(spec.fields)}, the argument has {want}")
        elif spec.fields or spec.dtype not in (_dtype_name(el), _UNSIGNED_SPEC.get(_dtype_name(el))):
            fail(f"input {spec.name} is {spec.dtype or 'a record'}, the argument is {t}")


def parse_given(items: Sequence[str], kernels: Sequence[func.FuncOp]) -> dict[str, Any]:
    """`--input NAME=PATH.npy` / `NAME=NUMBER` / `REC.FIELD=PATH.npy` -> values by argument name."""
    from loopopt.dialects.df_types import ArrayType, RecordType

    types: dict[str, Attribute] = {}
    for k in kernels:
        types.update(zip(arg_names(k), k.function_type.inputs))
    given: dict[str, Any] = {}
    for item in items:
        name, sep, what = item.partition("=")
        if not sep or not name or not what:
            raise UsageError(f"--input expects NAME=PATH.npy or NAME=VALUE, found {item!r}")
        base, _, fieldname = name.partition(".")
        if base not in types:
            raise UsageError(f"--input {name}: no kernel has an argument named {base!r} "
                           f"(arguments: {', '.join(sorted(types)) or 'none'})")
        t = types[base]
        el = t.element_type if isinstance(t, ArrayType) else t
        if fieldname:
            if not isinstance(el, RecordType) or el.field_type(fieldname) is None:
                raise UsageError(f"--input {name}: argument {base!r} has no record field {fieldname!r}")
            el = el.field_type(fieldname)
        elif isinstance(el, RecordType):
            raise UsageError(f"--input {name}: {base!r} is an array of records; give each field as {base}.FIELD=PATH.npy")
        dt = scalar_type(_dtype_name(el))
        if isinstance(t, ArrayType):
            try:
                arr = np.load(what, allow_pickle=False)
            except (OSError, ValueError, EOFError) as e:
                raise RunError(f"--input {name}: cannot load {what!r}: {e or type(e).__name__}") from None
            except Exception as e:  # a corrupt header can raise anything numpy's parser meets
                raise RunError(f"--input {name}: cannot load {what!r}: {type(e).__name__}: {e}") from None
            if not isinstance(arr, np.ndarray):
                raise RunError(f"--input {name}: {what} is not a single .npy array")
            if arr.ndim != t.rank:
                raise RunError(f"--input {name}: {what} has rank {arr.ndim}, the argument has rank {t.rank}")
            if arr.dtype != dt:
                if arr.dtype.fields is not None or arr.dtype.hasobject or not np.can_cast(arr.dtype, dt, "safe"):
                    raise RunError(f"--input {name}: {what} holds {arr.dtype}, the argument is {np.dtype(dt)} "
                                   f"(only value-preserving conversions are made)")
                arr = arr.astype(dt)
            value: Any = np.ascontiguousarray(arr)
        else:
            try:
                value = dt(float(what) if np.issubdtype(dt, np.floating) else int(what, 0))
            except ValueError:
                raise UsageError(f"--input {name}: {what!r} is not a {np.dtype(dt)} value") from None
        if fieldname:
            given.setdefault(base, {})[fieldname] = value
        else:
            given[base] = value
    for base, v in given.items():
        el = types[base].element_type if isinstance(types[base], ArrayType) else None
        if isinstance(v, dict) and isinstance(el, RecordType):
            missing = [f for f, _ in el.fields if f not in v]
            if missing:
                raise RunError(f"--input {base}: record fields {', '.join(missing)} are not given")
            given[base] = {f: v[f] for f, _ in el.fields}
    return given


def input_size(inputs: Sequence[Any]) -> int:
    """The size n of a set of inputs: the first axis of the first array; without arrays, the
    n `make_inputs` made them for (0 for other sequences)."""
    for v in inputs:
        if isinstance(v, dict):
            v = next(iter(v.values()))
        if isinstance(v, np.ndarray) and v.ndim:
            return v.shape[0]
    return getattr(inputs, "n", 0)
