"""numpy oracles for the kernel library, and the comparison each result kind needs.

Maps must be bit-exact: the reference applies the ISA's float contract (fused
a*x + b via the exact fma oracle on FMA ISAs, rounded product then add on
scalar/sse2). Float reductions are reassociated by the kernels, so they are
compared within |got - ref| <= C * n * eps * sum(|terms|) (C = REDUCTION_C),
the classic bound for any summation order ((n-1) * eps/2 * sum|terms|) with a
factor 2 of margin; products within C * n * eps * |ref|. Integers are exact
and wrap like numpy. min/max are exact (NaN if any NaN; -0.0 == 0.0). Float scans
(cumsum) are reassociated per block, so each prefix is held to the same bound over
its own terms, C * n * eps * sum(|x[:i+1]|); row sums each row, over that row's terms.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from loopopt.kernels import FMA_ISAS, PATTERNS
from loopopt.runtime import fma

REDUCTION_C = 1.0
NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
VECTOR_BYTES = {"scalar": 0, "sse2": 16, "avx2": 32, "avx512": 64, "neon": 16}


def lanes(isa: str, dtype: str) -> int:
    """Vector width W of an ISA for a dtype (1 for scalar)."""
    return max(1, VECTOR_BYTES[isa] // np.dtype(NP[dtype]).itemsize)


def edge_sizes(w: int) -> list[int]:
    """Sizes that hit every loop of a kernel: empty, tail only, one vector, the unrolled body, primes."""
    sizes = {0, 1, 2, 3, w - 1, w, w + 1, 2 * w - 1, 2 * w, 2 * w + 3, 4 * w - 1, 4 * w, 4 * w + 1}
    sizes |= {5 * w + 3, 8 * w + 7, 7, 13, 31, 61, 127, 257, 1000, 1021, 65537}
    return sorted(s for s in sizes if s >= 0)


def row_shape(n: int) -> tuple[int, int]:
    """The matrix a row fold sees n elements as: 3 rows when n divides by 3, else one row; no rows when n = 0."""
    rows = 0 if n == 0 else 3 if n % 3 == 0 else 1
    return rows, n // max(rows, 1)


def neutral(pattern: str, dtype: str) -> Any:
    t = NP[dtype]
    if pattern == "min":
        return t(np.inf) if dtype[0] == "f" else t(np.iinfo(t).max)
    if pattern == "max":
        return t(-np.inf) if dtype[0] == "f" else t(np.iinfo(t).min)
    return t(1) if pattern == "prod" else t(0)


def madd(isa: str, a: Any, x: np.ndarray, b: Any) -> np.ndarray:
    """a*x + b elementwise with the ISA's contract."""
    if x.dtype.kind == "f" and isa in FMA_ISAS:
        return np.asarray(fma(np.full_like(x, a), x, np.broadcast_to(np.asarray(b, x.dtype), x.shape)), x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return (x.dtype.type(a) * x + b).astype(x.dtype)


def expected(pattern: str, dtype: str, isa: str, x: np.ndarray, y: np.ndarray, a: Any, b: Any) -> Any:
    """Reference output array (maps, filters) or scalar (folds)."""
    t = NP[dtype]
    a, b = t(a), t(b)
    with np.errstate(all="ignore"):
        if pattern == "axpb":
            return madd(isa, a, x, b)
        if pattern == "axpy":
            return madd(isa, a, x, y)
        if pattern == "sqrt_abs_axpb":
            return (np.sqrt(np.abs(a * x)) + b).astype(t)
        if pattern == "filter_gt0_scale":
            return (a * x[x > 0]).astype(t)
        if pattern == "row_sum":  # per row, like sum: integers wrap; floats exact-ish in f64/longdouble
            m = x.reshape(row_shape(x.size))
            return m.sum(axis=1, dtype=t) if dtype[0] == "i" else m.astype(np.float64 if dtype == "f32" else np.longdouble).sum(axis=1)
        if pattern == "cumsum":  # integers wrap (numpy's cumsum in the element type); floats: exact-ish in f64/longdouble
            return np.cumsum(x, dtype=t) if dtype[0] == "i" else np.cumsum(x.astype(np.float64 if dtype == "f32" else np.longdouble))
        if dtype[0] == "i":  # integer folds: exact, wrapping in the element type
            terms = {"sum": x, "prod": x, "sumsq": x * x, "dot": x * y, "filter_gt0_sum": x[x > 0]}
            if pattern in ("min", "max"):
                return getattr(np, pattern)(x) if x.size else neutral(pattern, dtype)
            fold = np.prod if pattern == "prod" else np.sum
            return t(fold(terms[pattern], dtype=t))
        if pattern in ("min", "max"):
            return getattr(np, pattern)(x) if x.size else neutral(pattern, dtype)
        wide = x.astype(np.float64) if dtype == "f32" else x.astype(np.longdouble)
        if pattern == "prod":
            return np.prod(wide)
        terms = {"sum": wide, "sumsq": wide * wide, "dot": wide * y.astype(wide.dtype), "filter_gt0_sum": wide[wide > 0]}[pattern]
        return terms


def check(pattern: str, dtype: str, isa: str, got: Any, x: np.ndarray, y: np.ndarray, a: Any, b: Any, what: str = "") -> None:
    """Assert a kernel's result against the oracle with the comparison its kind needs."""
    with np.errstate(all="ignore"):
        _check(pattern, dtype, isa, got, x, y, a, b, what)


def _check(pattern: str, dtype: str, isa: str, got: Any, x: np.ndarray, y: np.ndarray, a: Any, b: Any, what: str) -> None:
    ref = expected(pattern, dtype, isa, x, y, a, b)
    ctx = f"{pattern}_{dtype}_{isa} n={x.size} {what}"
    kind = PATTERNS[pattern].kind
    if kind in ("scan", "row_fold") and dtype[0] == "f":
        a = np.abs(x.astype(ref.dtype))
        if kind == "scan":
            bound = REDUCTION_C * x.size * float(np.finfo(NP[dtype]).eps) * np.cumsum(a)
        else:
            m = a.reshape(row_shape(x.size))
            bound = REDUCTION_C * m.shape[1] * float(np.finfo(NP[dtype]).eps) * m.sum(axis=1)
        _check_float_outputs(np.asarray(got), ref, bound, dtype, ctx)
        return
    if kind in ("map", "zip_map", "filter_map", "scan", "row_fold"):
        got = np.asarray(got)
        assert got.dtype == ref.dtype and got.shape == ref.shape, f"{ctx}: shape {got.shape} != {ref.shape}"
        # bit-exact, NaN payloads aside
        same = (got == ref) | (np.isnan(got) & np.isnan(ref)) if dtype[0] == "f" else got == ref
        bad = np.flatnonzero(~same)
        assert bad.size == 0, f"{ctx}: {bad.size} elements differ, first at {bad[0]}: {got[bad[0]]!r} != {ref[bad[0]]!r}"
        return
    got_t = NP[dtype](got)
    if dtype[0] == "i" or pattern in ("min", "max"):
        ok = got_t == ref or (dtype[0] == "f" and np.isnan(got_t) and np.isnan(ref))
        assert ok, f"{ctx}: got {got_t!r}, expected {ref!r}"
        return
    eps = float(np.finfo(NP[dtype]).eps)
    n = x.size
    if pattern == "prod":
        exact = ref
        bound = REDUCTION_C * n * eps * abs(exact)
    else:
        finite = bool(np.all(np.isfinite(ref)))
        exact = math.fsum(ref.tolist()) if finite and ref.dtype == np.float64 else np.sum(ref)
        bound = REDUCTION_C * n * eps * float(np.sum(np.abs(ref))) if finite else 0.0
    exact = float(exact)
    if math.isnan(exact) or math.isinf(exact):
        assert (math.isnan(exact) and np.isnan(got_t)) or got_t == exact, f"{ctx}: got {got_t!r}, expected {exact!r}"
        return
    err = abs(float(got_t) - exact)
    assert err <= bound, f"{ctx}: got {got_t!r}, expected {exact!r}, error {err:.3g} > bound {bound:.3g}"


def _check_float_outputs(got: np.ndarray, ref: np.ndarray, bound: np.ndarray, dtype: str, ctx: str) -> None:
    """Each output within its bound of the exact one (prefix sums, row sums); NaN/Inf where the reference has them."""
    assert got.dtype == NP[dtype] and got.shape == ref.shape, f"{ctx}: shape {got.shape} != {ref.shape}"
    finite = np.isfinite(ref)
    err = np.abs(got.astype(ref.dtype) - ref)
    bad = np.flatnonzero(finite & ~(err <= bound))
    assert bad.size == 0, f"{ctx}: output {bad[0]}: got {got[bad[0]]!r}, expected {ref[bad[0]]!r} ± {bound[bad[0]]:.3g}"
    special = ~finite & ~((np.isnan(ref) & np.isnan(got)) | (got == ref))
    assert not special.any(), f"{ctx}: output {np.flatnonzero(special)[0]}: special value differs"
