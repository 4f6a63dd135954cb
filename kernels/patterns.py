"""The kernel patterns of the library and their signatures (docs/calling_convention.md).

This table mirrors the X-macro list in include/loopopt_kernels.h; a test
checks that every prototype the header declares matches `signature(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from loopopt.runtime import ArrayParam, KernelSignature, ScalarParam

DTYPES: tuple[str, ...] = ("f32", "f64", "i32", "i64")
FLOAT_DTYPES: tuple[str, ...] = ("f32", "f64")
ISAS: tuple[str, ...] = ("scalar", "sse2", "avx2", "avx512", "neon")
FMA_ISAS: frozenset[str] = frozenset({"avx2", "avx512", "neon"})
"""ISAs whose float `a*x + b` / `a*x + y` is one fused multiply-add (scalar and sse2: unfused)."""


@dataclass(frozen=True)
class Pattern:
    """One pattern: its kind and the dtypes it exists for."""

    name: str
    kind: str  # "map", "zip_map", "fold", "zip_fold", "filter_map", "scan", "row_fold"
    dtypes: tuple[str, ...] = DTYPES
    doc: str = ""


PATTERNS: dict[str, Pattern] = {
    p.name: p
    for p in (
        Pattern("axpb", "map", doc="out[i] = a*x[i] + b"),
        Pattern("axpy", "zip_map", doc="out[i] = a*x[i] + y[i]"),
        Pattern("sqrt_abs_axpb", "map", FLOAT_DTYPES, doc="out[i] = sqrt(|a*x[i]|) + b"),
        Pattern("sum", "fold", doc="sum of x (integers wrap)"),
        Pattern("prod", "fold", doc="product of x (integers wrap)"),
        Pattern("min", "fold", doc="minimum of x; NaN if any NaN; +Inf / INT_MAX if empty"),
        Pattern("max", "fold", doc="maximum of x; NaN if any NaN; -Inf / INT_MIN if empty"),
        Pattern("sumsq", "fold", doc="sum of x*x"),
        Pattern("dot", "zip_fold", doc="sum of x*y"),
        Pattern("filter_gt0_sum", "fold", doc="sum of the x > 0"),
        Pattern("filter_gt0_scale", "filter_map", doc="out[k++] = a*x[i] for each x[i] > 0; returns k"),
        Pattern("cumsum", "scan", doc="out[i] = x[0] + ... + x[i] (integers wrap; floats reassociated)"),
        Pattern("row_sum", "row_fold", doc="out[r] = sum of row r of the row-major matrix x (this ISA's sum per row)"),
    )
}


def kernel_name(pattern: str, dtype: str, isa: str | None = None) -> str:
    """`lo_<pattern>_<dtype>_<isa>`, or the dispatcher `lo_<pattern>_<dtype>` when isa is None."""
    check(pattern, dtype, isa)
    return f"lo_{pattern}_{dtype}" + (f"_{isa}" if isa is not None else "")


def check(pattern: str, dtype: str, isa: str | None = None) -> Pattern:
    if pattern not in PATTERNS:
        raise ValueError(f"unknown pattern {pattern!r}; expected one of {', '.join(PATTERNS)}")
    p = PATTERNS[pattern]
    if dtype not in p.dtypes:
        raise ValueError(f"pattern {pattern!r} has no dtype {dtype!r} (has {', '.join(p.dtypes)})")
    if isa is not None and isa not in ISAS:
        raise ValueError(f"unknown ISA {isa!r}; expected one of {', '.join(ISAS)}")
    return p


def signature(pattern: str, dtype: str, isa: str | None = None) -> KernelSignature:
    """The runtime signature of one kernel (isa None: the dispatcher)."""
    kind = check(pattern, dtype, isa).kind
    x = ArrayParam("x", dtype, axes=("n",))
    y = ArrayParam("y", dtype, axes=("n",))
    a, b = ScalarParam("a", dtype), ScalarParam("b", dtype)
    name = kernel_name(pattern, dtype, isa)
    if kind == "map":
        return KernelSignature(name, (x, a, b, ArrayParam("out", dtype, output=True, axes=("n",))))
    if kind == "zip_map":
        return KernelSignature(name, (x, y, a, ArrayParam("out", dtype, output=True, axes=("n",))))
    if kind == "fold":
        return KernelSignature(name, (x,), (dtype,))
    if kind == "zip_fold":
        return KernelSignature(name, (x, y), (dtype,))
    if kind == "scan":
        return KernelSignature(name, (x, ArrayParam("out", dtype, output=True, axes=("n",))))
    if kind == "row_fold":
        m = ArrayParam("x", dtype, 2, axes=("r", "n"))
        return KernelSignature(name, (m, ArrayParam("out", dtype, output=True, axes=("r",))))
    assert kind == "filter_map"
    out = ArrayParam("out", dtype, output=True, capacity="n", count_result=0)
    return KernelSignature(name, (x, a, out), ("i64",))


def kernels(isa: str | None = None) -> list[tuple[str, str]]:
    """Every (pattern, dtype) of the library."""
    return [(p.name, dt) for p in PATTERNS.values() for dt in p.dtypes]


def signatures(isa: str | None) -> list[KernelSignature]:
    """All kernel signatures of one ISA (None: the dispatchers)."""
    return [signature(p, dt, isa) for p, dt in kernels()]
