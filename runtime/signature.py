"""Kernel signatures: the Python description of a C kernel's calling convention.

A `KernelSignature` says, per docs/calling_convention.md, which C parameters a
kernel takes and which scalar results it returns, so the runtime can generate a
checked caller (native or foreign) without parsing C.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class DType:
    """One row of the element type table of the calling convention."""

    name: str
    c_type: str
    numpy: np.dtype[Any]
    # Buffer-protocol format characters (after any byte-order prefix) accepted for it.
    buffer_formats: str

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize


DTYPES: dict[str, DType] = {
    d.name: d
    for d in (
        DType("f32", "float", np.dtype(np.float32), "f"),
        DType("f64", "double", np.dtype(np.float64), "d"),
        DType("i32", "int32_t", np.dtype(np.int32), "i" if np.dtype(np.intc).itemsize == 4 else ""),
        DType("i64", "int64_t", np.dtype(np.int64), "lq" if np.dtype(np.int_).itemsize == 8 else "q"),
        DType("bool", "uint8_t", np.dtype(np.bool_), "?"),
    )
}


def dtype_info(name: str) -> DType:
    """The table row of dtype `name`, or a ValueError listing the valid names."""
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r}; expected one of {sorted(DTYPES)}") from None


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _check_ident(what: str, name: str) -> None:
    if not _IDENT.match(name):
        raise ValueError(f"{what} {name!r} is not a valid C identifier")


@dataclass(frozen=True)
class ArrayParam:
    """A contiguous array parameter: `T *x, int64_t x_len` (rank 1) or `x, x_rows, x_cols` (rank 2).

    `axes` names the axis of each dimension (`("i", "j")` for a rank-2 array): every
    dimension of every array that shares an axis name has the same extent, except that an
    output's first dimension is a capacity and may be larger. Empty `axes` leaves the
    array unconstrained. `capacity` marks a filter output: its length is at least the
    extent of that axis (its own axis, the filter's new one, is known only after the
    call). `count_result` marks a filter output too: the index (into the signature's
    results) of the `i64` result saying how many elements it wrote.
    """

    name: str
    dtype: str
    rank: int = 1
    output: bool = False
    _: KW_ONLY
    axes: tuple[str, ...] = ()
    capacity: str | None = None
    count_result: int | None = None

    def __post_init__(self) -> None:
        _check_ident("array parameter", self.name)
        dtype_info(self.dtype)
        object.__setattr__(self, "axes", tuple(self.axes or ()))
        if self.rank not in (1, 2):
            raise ValueError(f"array parameter {self.name!r}: rank must be 1 or 2, not {self.rank}")
        if self.axes and len(self.axes) != self.rank:
            raise ValueError(
                f"array parameter {self.name!r}: axes {self.axes} name {len(self.axes)} dimensions, "
                f"expected one per dimension of its rank {self.rank}"
            )
        if not all(isinstance(a, str) and a for a in self.axes):
            raise ValueError(f"array parameter {self.name!r}: axes {self.axes} must be non-empty strings")
        if self.capacity is not None and not (self.output and self.rank == 1):
            raise ValueError(f"array parameter {self.name!r}: only a rank-1 output can have a capacity axis")
        if self.count_result is not None and not self.output:
            raise ValueError(f"array parameter {self.name!r}: only an output can have a count_result")

    @property
    def dt(self) -> DType:
        return DTYPES[self.dtype]

    def c_params(self) -> list[str]:
        """C parameter types, in order (pointer then lengths)."""
        const = "" if self.output else "const "
        return [f"{const}{self.dt.c_type} *restrict"] + ["int64_t"] * self.rank

    def constrained_dims(self) -> list[tuple[int, str]]:
        """(dimension, axis) of each dimension that must agree with its axis group."""
        return [(d, a) for d, a in enumerate(self.axes) if not (self.capacity is not None and d == 0)]

    def describe_dim(self, d: int) -> str:
        """How error messages name dimension `d`: `'x'` (rank 1), `'m' dim 1` (rank 2)."""
        return f"'{self.name}'" if self.rank == 1 else f"'{self.name}' dim {d}"


@dataclass(frozen=True)
class ScalarParam:
    """A scalar input passed by value."""

    name: str
    dtype: str

    def __post_init__(self) -> None:
        _check_ident("scalar parameter", self.name)
        dtype_info(self.dtype)

    @property
    def dt(self) -> DType:
        return DTYPES[self.dtype]

    @property
    def output(self) -> bool:
        return False

    def c_params(self) -> list[str]:
        return [self.dt.c_type]


Param = ArrayParam | ScalarParam


@dataclass(frozen=True)
class KernelSignature:
    """A kernel: its symbol, its parameters in C order (inputs, then array outputs), its scalar results.

    With two or more results the C function returns void and takes one `ret`
    pointer per result after the params; the runtime adds those itself.
    """

    name: str
    params: tuple[Param, ...]
    results: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_ident("kernel name", self.name)
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "results", tuple(self.results))
        for r in self.results:
            dtype_info(r)
        seen: set[str] = set()
        in_outputs = False
        for p in self.params:
            if p.name in seen:
                raise ValueError(f"kernel {self.name!r}: duplicate parameter name {p.name!r}")
            seen.add(p.name)
            if p.output:
                in_outputs = True
            elif in_outputs:
                raise ValueError(
                    f"kernel {self.name!r}: input {p.name!r} comes after an output; "
                    "the convention lists inputs first, then array outputs"
                )
            if isinstance(p, ArrayParam) and p.count_result is not None:
                if not 0 <= p.count_result < len(self.results) or self.results[p.count_result] != "i64":
                    raise ValueError(
                        f"kernel {self.name!r}: output {p.name!r} has count_result={p.count_result}, "
                        f"which is not an i64 result of {self.results}"
                    )

    @property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.output)

    @property
    def outputs(self) -> tuple[ArrayParam, ...]:
        return tuple(p for p in self.params if isinstance(p, ArrayParam) and p.output)

    @property
    def return_c_type(self) -> str:
        return DTYPES[self.results[0]].c_type if len(self.results) == 1 else "void"

    def c_declaration(self) -> str:
        """The C prototype (unnamed params), used to check the kernel source against the signature."""
        types = [t for p in self.params for t in p.c_params()]
        if len(self.results) >= 2:
            types += [f"{DTYPES[r].c_type} *restrict" for r in self.results]
        return f"{self.return_c_type} {self.name}({', '.join(types) or 'void'});"

    def axis_extents(self, inputs: Sequence[Any], extents: Mapping[str, int] | None = None) -> dict[str, int]:
        """The extent of every axis the array inputs (or `extents`) fix; a disagreement raises ValueError."""
        if len(inputs) != len(self.inputs):
            raise TypeError(
                f"{self.name}() takes {len(self.inputs)} inputs "
                f"({', '.join(p.name for p in self.inputs)}) but {len(inputs)} were given"
            )
        known: dict[str, tuple[int, str]] = {a: (int(n), "extents=") for a, n in (extents or {}).items()}
        for p, x in zip(self.inputs, inputs):
            if not isinstance(p, ArrayParam) or not p.axes:
                continue
            shape = np.shape(x)
            if len(shape) != p.rank:
                raise ValueError(f"{self.name}(): parameter {p.name!r} expects a rank-{p.rank} array, found rank {len(shape)}")
            for d, axis in p.constrained_dims():
                n, source = known.setdefault(axis, (shape[d], p.describe_dim(d)))
                if shape[d] != n:
                    raise ValueError(
                        f"{self.name}(): length mismatch on axis {axis!r}: {source} has {n} "
                        f"but {p.describe_dim(d)} has {shape[d]}"
                    )
        return {a: n for a, (n, _) in known.items()}

    def output_shapes(self, inputs: Sequence[Any], extents: Mapping[str, int] | None = None) -> list[tuple[int, ...]]:
        """Shapes to allocate for the outputs: each dimension the extent of its axis (a filter
        output: of its capacity axis), taken from the inputs or from `extents` (an axis no input
        has, such as a range's)."""
        known = self.axis_extents(inputs, extents)
        shapes = []
        for o in self.outputs:
            dims = (o.capacity,) if o.capacity is not None else o.axes
            if not dims:
                raise ValueError(f"{self.name}(): cannot size output {o.name!r}: it has no axes")
            missing = [a for a in dims if a not in known]
            if missing:
                raise ValueError(
                    f"{self.name}(): cannot size output {o.name!r}: no input has axis {missing[0]!r} "
                    f"(pass extents={{{missing[0]!r}: ...}})"
                )
            shapes.append(tuple(known[a] for a in dims))
        return shapes

    def allocate_outputs(self, inputs: Sequence[Any], extents: Mapping[str, int] | None = None) -> list[np.ndarray]:
        """Zeroed outputs of the shapes `output_shapes` gives."""
        return [np.zeros(s, o.dt.numpy) for o, s in zip(self.outputs, self.output_shapes(inputs, extents))]

    def trim_outputs(self, outputs: Sequence[np.ndarray], results: Sequence[Any]) -> list[np.ndarray]:
        """Cut filter outputs down to the count the kernel returned."""
        return [
            out[: int(results[o.count_result])] if o.count_result is not None else out
            for o, out in zip(self.outputs, outputs)
        ]
