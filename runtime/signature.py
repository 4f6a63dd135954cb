"""Kernel signatures: the Python description of a C kernel's calling convention.

A `KernelSignature` says, per docs/calling_convention.md, which C parameters a
kernel takes and which scalar results it returns, so the runtime can generate a
checked caller (native or foreign) without parsing C.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class DType:
    """One row of the element type table of the calling convention."""

    name: str
    c_type: str
    numpy_or_loader: np.dtype[Any] | Callable[[], np.dtype[Any]]
    """The numpy dtype, or a function returning it (bf16: ml_dtypes, imported when first asked)."""
    # Buffer-protocol format characters (after any byte-order prefix) accepted for it.
    buffer_formats: str
    # The same-width unsigned numpy dtype also accepted (i8 and i16 are signless, as in MLIR:
    # a uint8 array is i8 data that the kernel's ops read unsigned); None for the others.
    unsigned: np.dtype[Any] | None = None

    @property
    def numpy(self) -> np.dtype[Any]:
        d = self.numpy_or_loader
        return d if isinstance(d, np.dtype) else d()

    @property
    def itemsize(self) -> int:
        return self.numpy.itemsize

    def accepts(self, dt: np.dtype[Any]) -> bool:
        """Whether a numpy array of dtype `dt` may be passed for this element type."""
        return dt == self.numpy or (self.unsigned is not None and dt == self.unsigned)


def _bfloat16() -> np.dtype[Any]:
    from loopopt.interp.dtypes import bfloat16_dtype

    return bfloat16_dtype()


DTYPES: dict[str, DType] = {
    d.name: d
    for d in (
        DType("f16", "uint16_t", np.dtype(np.float16), "e"),  # storage: IEEE half bits (targets/c_part.py)
        DType("bf16", "uint16_t", _bfloat16, ""),  # storage: bfloat16 bits; no buffer format (pyext views it as uint16)
        DType("f32", "float", np.dtype(np.float32), "f"),
        DType("f64", "double", np.dtype(np.float64), "d"),
        DType("i8", "int8_t", np.dtype(np.int8), "bB", np.dtype(np.uint8)),
        DType("i16", "int16_t", np.dtype(np.int16), "hH", np.dtype(np.uint16)),
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


def _check_ident(what: str, name: str) -> None:
    """Names reach the generated wrapper (and axis names its error messages): only names
    `loopopt.names` accepts (hand-written library kernels may use the `lo_` prefix)."""
    from loopopt.names import require_c_name

    require_c_name(name, what, allow_lo_prefix=True)


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
        for a in self.axes:
            _check_ident(f"array parameter {self.name!r}: axis", a)
        if self.capacity is not None:
            _check_ident(f"array parameter {self.name!r}: capacity axis", self.capacity)
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
    _: KW_ONLY
    extents: tuple[tuple[str, int], ...] = ()
    """Computed axes: (axis, index of the `i64` result returning its extent). The kernel
    computes such an axis's extent from scalars (a range's start/end/step), writes nothing on
    it unless every output on it is large enough, and returns the required extent; callers
    check outputs against it after the call. Extent results are ABI plumbing: the Python
    wrapper does not return them (`visible_results`)."""
    steps: tuple[tuple[str, int], ...] = ()
    """(computed axis, index into `params` of the scalar that is its range's step): a call
    with that scalar 0 is a ValueError before the kernel runs."""

    def __post_init__(self) -> None:
        _check_ident("kernel name", self.name)
        object.__setattr__(self, "params", tuple(self.params))
        object.__setattr__(self, "results", tuple(self.results))
        object.__setattr__(self, "extents", tuple((str(a), int(j)) for a, j in self.extents))
        object.__setattr__(self, "steps", tuple((str(a), int(k)) for a, k in self.steps))
        for axis, j in self.extents:
            _check_ident(f"kernel {self.name!r}: computed axis", axis)
            if not 0 <= j < len(self.results) or self.results[j] != "i64":
                raise ValueError(f"kernel {self.name!r}: computed axis {axis!r} has extent result {j}, "
                                 f"which is not an i64 result of {self.results}")
        if len({a for a, _ in self.extents}) != len(self.extents) or len({j for _, j in self.extents}) != len(self.extents):
            raise ValueError(f"kernel {self.name!r}: computed axes {self.extents} repeat an axis or a result")
        for axis, k in self.steps:
            if axis not in dict(self.extents):
                raise ValueError(f"kernel {self.name!r}: step of {axis!r}, which is not a computed axis")
            if not 0 <= k < len(self.params) or not isinstance(self.params[k], ScalarParam) \
                    or self.params[k].dtype not in ("i32", "i64"):
                raise ValueError(f"kernel {self.name!r}: the step of axis {axis!r} must be an integer scalar parameter")
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

        computed = dict(self.extents)
        for p in self.params:
            if isinstance(p, ArrayParam) and not p.output and any(a in computed for a in p.axes):
                raise ValueError(f"kernel {self.name!r}: input {p.name!r} is on a computed axis")
            if isinstance(p, ArrayParam) and p.count_result is not None and p.count_result in computed.values():
                raise ValueError(f"kernel {self.name!r}: output {p.name!r} has an extent result as its count")

    @property
    def visible_results(self) -> tuple[int, ...]:
        """Indices of the results the Python wrapper returns: all but the computed extents."""
        hidden = {j for _, j in self.extents}
        return tuple(j for j in range(len(self.results)) if j not in hidden)

    def computed_dims(self, o: ArrayParam) -> list[tuple[int, str, int]]:
        """(dimension, computed axis, extent result) of each dimension of output `o` bounded by
        a computed axis: its capacity axis (dimension 0) or an axis of `axes`."""
        computed = dict(self.extents)
        names = [o.capacity] + list(o.axes[1:]) if o.capacity is not None else list(o.axes)
        return [(d, a, computed[a]) for d, a in enumerate(names) if a in computed]

    def check_computed_extents(self, shapes: Sequence[Sequence[int]], results: Sequence[Any]) -> None:
        """After a call: every output on a computed axis holds the extent the kernel returned
        (`results` are all C results, extents included), else the ValueError every caller raises."""
        for o, shape in zip(self.outputs, shapes):
            for d, axis, j in self.computed_dims(o):
                need = int(results[j])
                if need < 0 or (need > shape[d] if d == 0 else need != shape[d]):
                    raise ValueError(
                        f"{self.name}(): output {o.name!r} needs {need} elements on axis {axis!r} but has {shape[d]}"
                    )

    def check_steps(self, inputs: Sequence[Any]) -> None:
        """A range step of 0 is a ValueError before the call (`inputs` in `self.inputs` order)."""
        position = {id(p): k for k, p in enumerate(self.inputs)}
        for axis, k in self.steps:
            p = self.params[k]
            try:
                zero = int(inputs[position[id(p)]]) == 0
            except (TypeError, ValueError, IndexError):
                continue  # a bad scalar is reported by whoever encodes it
            if zero:
                raise ValueError(f"{self.name}(): the range on axis {axis!r} has step {p.name!r} = 0")

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
        has; a computed axis's extent comes from the kernel: see `call_alloc`)."""
        known = self.axis_extents(inputs, extents)
        shapes = []
        for o in self.outputs:
            dims = (o.capacity,) if o.capacity is not None else o.axes
            if not dims:
                raise ValueError(f"{self.name}(): cannot size output {o.name!r}: it has no axes")
            missing = [a for a in dims if a not in known]
            if missing:
                computed = " (a computed axis: use call_alloc, which asks the kernel)" if missing[0] in dict(self.extents) else ""
                raise ValueError(
                    f"{self.name}(): cannot size output {o.name!r}: no input has axis {missing[0]!r} "
                    f"(pass extents={{{missing[0]!r}: ...}}){computed}"
                )
            shapes.append(tuple(known[a] for a in dims))
        return shapes

    def allocate_outputs(self, inputs: Sequence[Any], extents: Mapping[str, int] | None = None) -> list[np.ndarray]:
        """Zeroed outputs of the shapes `output_shapes` gives."""
        return [np.zeros(s, o.dt.numpy) for o, s in zip(self.outputs, self.output_shapes(inputs, extents))]

    def trim_outputs(self, outputs: Sequence[np.ndarray], results: Sequence[Any]) -> list[np.ndarray]:
        """Cut filter outputs down to the count the kernel returned (`results`: all C results)."""
        return [
            out[: int(results[o.count_result])] if o.count_result is not None else out
            for o, out in zip(self.outputs, outputs)
        ]

    def call_alloc(
        self,
        function: Any,
        inputs: Sequence[Any],
        extents: Mapping[str, int] | None = None,
        query: Any = None,
    ) -> tuple[Any, ...]:
        """Call a native wrapper `function` (inputs, then outputs; returns the visible results)
        with allocated outputs; returns (*outputs, *visible results), filter outputs trimmed.

        Outputs on computed axes are sized by asking the kernel: `query` (the wrapper's
        `_extents_<name>` twin, which runs the kernel and returns its extent results) is called
        once with those outputs empty — the kernel's guard then writes nothing on those axes —
        then the outputs are allocated to the extents and `function` runs. The kernel is
        evaluated twice; `extents` entries for computed axes are not needed and ignored.
        """
        computed = dict(self.extents)
        known = {a: n for a, n in (extents or {}).items() if a not in computed}
        self.check_steps(inputs)
        if computed:
            if query is None:
                raise ValueError(f"{self.name}(): no extent query for its computed axes {sorted(computed)}")
            shapes = self.output_shapes(inputs, {**known, **{a: 0 for a in computed}})
            found = query(*inputs, *[np.zeros(s, o.dt.numpy) for o, s in zip(self.outputs, shapes)])
            known.update({a: int(n) for (a, _), n in zip(self.extents, found, strict=True)})
        outputs = self.allocate_outputs(inputs, known)
        returned = function(*inputs, *outputs)
        got = () if not self.visible_results else (returned,) if len(self.visible_results) == 1 else tuple(returned)
        return (*self.trim_outputs(outputs, self.full_results(got, known)), *got)

    def full_results(self, visible: Sequence[Any], extents: Mapping[str, int]) -> tuple[Any, ...]:
        """All C results (what `count_result` and `extents` index) from the visible ones a
        wrapper returned and the extent of each computed axis (e.g. its outputs' lengths)."""
        full: list[Any] = [None] * len(self.results)
        for j, v in zip(self.visible_results, visible, strict=True):
            full[j] = v
        for a, j in self.extents:
            full[j] = np.int64(extents[a])
        return tuple(full)
