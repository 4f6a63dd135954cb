"""loopopt's compiled df programs agree with the hand-written kernel library (the oracle).

For every pattern of `loopopt.kernels.PATTERNS` (axpb, axpy, sqrt_abs_axpb, sum, prod, min,
max, sumsq, dot, filter_gt0_sum, filter_gt0_scale, cumsum, row_sum) × its dtypes × every ISA this machine
runs (scalar, sse2, avx2, avx512 natively; neon under qemu), hypothesis draws sizes biased
to 0, 1, W-1, W, W+1, near multiples of W and large (1000, 4099, 65537), data (integers
full-range or small; floats at scales 1e-3..1e3, near 1 for products, with NaN, ±Inf and
-0.0 sprinkled in when drawn) and, natively, buffers at +0 or +1 element. The df program
(programs/patterns.mlir.in) compiled with the default pipeline for that ISA must give:
* maps and filters: the kernel's output bit for bit (NaNs equal) — both contract `a*x + b`
  to one FMA on avx2/avx512/neon and round twice on scalar/sse2;
* integer folds and float min/max: the kernel's value exactly (NaN if any NaN; ±0 equal);
* reassociated float folds: within 2·n·eps·Σ|tᵢ| of the kernel (each of them is within
  n·eps·Σ|tᵢ| of the exact value, kernels/README.md), products within 2·n·eps·|ref|;
  float scans (cumsum) the same per prefix, over that prefix's terms, and row sums per row
  (n elements as 3 rows when n divides by 3, else one row);
  a NaN or infinite kernel result must be matched exactly.
NEON: each hypothesis example is a batch of cases run through one qemu process per side.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pattern_programs import program

from loopopt import kernels, runtime
from loopopt.compile import compile
from loopopt.dialects.simd_targets import TARGETS
from loopopt.tools.loop_run import run_compiled, run_compiled_batch

NATIVE = ("scalar", "sse2", "avx2", "avx512")
NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
LARGE = (1000, 4099, 65537)
FLOAT_SPECIALS = (np.nan, np.inf, -np.inf, -0.0)
TERMS = {
    "sum": lambda x, y: x,
    "sumsq": lambda x, y: x * x,
    "dot": lambda x, y: x * y,
    "filter_gt0_sum": lambda x, y: x[x > 0],
}


def width(isa: str, dtype: str) -> int:
    return 1 if isa == "scalar" else TARGETS[isa].vector_bits // (8 * np.dtype(NP[dtype]).itemsize)


def sizes(w: int) -> st.SearchStrategy[int]:
    edges = st.sampled_from(sorted({0, 1, max(w - 1, 0), w, w + 1}))
    near = st.builds(lambda k, d: max(0, k * w + d), st.integers(0, 9), st.integers(-2, 2))
    return st.one_of(edges, near, st.integers(0, 4 * w + 8), st.sampled_from(LARGE))


@dataclass(frozen=True)
class Case:
    """One drawn case: the data is made from `seed` (hypothesis shrinks n and the flags)."""

    pattern: str
    dtype: str
    n: int
    seed: int
    specials: bool
    small_ints: bool
    scale: int
    offset: int

    def data(self) -> tuple[np.ndarray, np.ndarray, Any, Any]:
        rng = np.random.default_rng(self.seed)
        t = NP[self.dtype]
        if self.dtype[0] == "i":
            info = np.iinfo(t)
            lo, hi = (-5, 5) if self.small_ints else (info.min, info.max)
            x, y = (rng.integers(lo, hi, self.n, dtype=t, endpoint=True) for _ in range(2))
            a, b = (t(v) for v in rng.integers(lo, hi, 2, endpoint=True))
            return x, y, a, b
        if self.pattern == "prod":  # factors near ±1: long products neither overflow nor underflow
            x = ((1 + rng.uniform(-1, 1, self.n) * 2.0**-8) * rng.choice([-1.0, 1.0], self.n)).astype(t)
        else:
            x = (rng.standard_normal(self.n) * 10.0**self.scale).astype(t)
        y = (rng.standard_normal(self.n) * 10.0**self.scale).astype(t)
        if self.specials and self.n:
            for arr in (x, y):
                where = rng.choice(self.n, size=max(1, self.n // 64), replace=False)
                arr[where] = rng.choice(np.array(FLOAT_SPECIALS, t), where.size)
        a, b = (t(v) for v in rng.uniform(-3, 3, 2))
        return x, y, a, b

    def df_inputs(self) -> list[Any]:
        x, y, a, b = self.data()
        kind = kernels.PATTERNS[self.pattern].kind
        if kind == "row_fold":
            return [x.reshape(self.rows(), -1) if self.n else x.reshape(0, 0)]
        return {"map": [x, a, b], "zip_map": [x, y, a], "fold": [x], "zip_fold": [x, y], "filter_map": [x, a], "scan": [x]}[kind]

    def rows(self) -> int:
        """A row fold's rows (test/python/kernels/kernels_oracle.row_shape's rule)."""
        return 0 if self.n == 0 else 3 if self.n % 3 == 0 else 1


@st.composite
def cases(draw, isa: str, pattern: str, dtype: str | None = None) -> Case:
    dtype = dtype or draw(st.sampled_from(kernels.PATTERNS[pattern].dtypes))
    floats = dtype[0] == "f"
    return Case(
        pattern,
        dtype,
        draw(sizes(width(isa, dtype))),
        draw(st.integers(0, 2**32 - 1)),
        draw(st.booleans()) if floats else False,
        draw(st.booleans()) if not floats else False,
        draw(st.integers(-3, 3)),
        draw(st.integers(0, 1)) if isa != "neon" else 0,
    )


@functools.cache
def ours(dtype: str, isa: str):
    """The pattern programs of one dtype compiled for one ISA (default pipeline)."""
    return compile(program(dtype), target=isa)


@functools.cache
def oracle_neon(pattern: str, dtype: str) -> runtime.ForeignKernel:
    return runtime.ForeignKernel(kernels.isa_source("neon"), kernels.signature(pattern, dtype, "neon"), "neon")


def oracle_native(case: Case, isa: str) -> Any:
    """The library kernel's result: its output array (filters trimmed) or its scalar."""
    fn = kernels.library(isa)[kernels.kernel_name(case.pattern, case.dtype, isa)]
    inputs = case.df_inputs()
    kind = kernels.PATTERNS[case.pattern].kind
    if kind in ("fold", "zip_fold"):
        return fn(*inputs)
    buf = np.full(case.n + case.offset, 7, NP[case.dtype])
    out = buf[case.offset :]
    if kind == "row_fold":
        out = out[: case.rows()]
    count = fn(*inputs, out)
    return out[:count] if kind == "filter_map" else out


def agree(case: Case, got: Any, ref: Any, isa: str) -> None:
    """Assert loopopt's result `got` against the kernel's `ref` (see the module docstring)."""
    where = f"{case.pattern}_{case.dtype} on {isa}, n={case.n}, {case}"
    kind = kernels.PATTERNS[case.pattern].kind
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, f"{where}: {got.dtype}{got.shape} vs {ref.dtype}{ref.shape}"
    floats = case.dtype[0] == "f"
    same = (got == ref) | (np.isnan(got) & np.isnan(ref)) if floats else got == ref
    if np.all(same):
        return
    if kind in ("scan", "row_fold") and floats:
        _agree_per_output(case, got, ref, where)
        return
    if kind in ("map", "zip_map", "filter_map", "scan", "row_fold") or not floats or case.pattern in ("min", "max"):
        bad = np.flatnonzero(~np.atleast_1d(same))
        first = int(bad[0])
        raise AssertionError(
            f"{where}: {bad.size} values differ, first at [{first}]: loopopt {np.atleast_1d(got)[first]!r}, "
            f"kernel {np.atleast_1d(ref)[first]!r}"
        )
    assert np.isfinite(ref), f"{where}: loopopt {got!r}, kernel {ref!r}"
    x, y, _, _ = case.data()
    eps = float(np.finfo(NP[case.dtype]).eps)
    with np.errstate(all="ignore"):
        if case.pattern == "prod":
            bound = 2.0 * case.n * eps * max(abs(float(ref)), abs(float(got)))
        else:
            terms = TERMS[case.pattern](x.astype(np.float64), y.astype(np.float64))
            bound = 2.0 * case.n * eps * float(np.sum(np.abs(terms))) + float(np.finfo(NP[case.dtype]).tiny)
    err = abs(float(got) - float(ref))
    assert err <= bound, f"{where}: loopopt {got!r}, kernel {ref!r}: |diff| {err:.3g} > bound {bound:.3g}"


def _agree_per_output(case: Case, got: np.ndarray, ref: np.ndarray, where: str) -> None:
    """Float prefix sums (row sums): each within 2·m·eps·Σ|its terms| of the kernel's, m = n (the row
    length); non-finite outputs exactly equal."""
    x, _, _, _ = case.data()
    eps = float(np.finfo(NP[case.dtype]).eps)
    with np.errstate(all="ignore"):
        a = np.abs(x.astype(np.float64))
        if kernels.PATTERNS[case.pattern].kind == "scan":
            terms, m = np.cumsum(a), case.n
        else:
            terms, m = a.reshape(case.rows(), -1).sum(axis=1) if case.n else a[:0], case.n // max(case.rows(), 1)
        bound = 2.0 * m * eps * terms + float(np.finfo(NP[case.dtype]).tiny)
        finite = np.isfinite(ref)
        ok = np.where(finite, np.abs(got.astype(np.float64) - ref.astype(np.float64)) <= bound,
                      (got == ref) | (np.isnan(got) & np.isnan(ref)))
    bad = np.flatnonzero(~ok)
    assert bad.size == 0, f"{where}: output {bad[0]}: loopopt {got[bad[0]]!r}, kernel {ref[bad[0]]!r}"


def _ours_value(results: tuple[Any, ...]) -> Any:
    (value,) = results
    return value


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in NATIVE])
@pytest.mark.parametrize("pattern", list(kernels.PATTERNS))
def test_native_agrees_with_kernel_library(pattern, isa):
    @settings(max_examples=max(10, settings().max_examples // 2))
    @given(cases(isa, pattern))
    def check(case: Case) -> None:
        compiled = ours(case.dtype, isa)
        got = _ours_value(run_compiled(compiled, pattern, case.df_inputs(), offset=case.offset))
        agree(case, got, oracle_native(case, isa), isa)

    check()


NEON_BATCH = 8


@pytest.mark.isa("neon")
@pytest.mark.parametrize("pattern", list(kernels.PATTERNS))
@settings(max_examples=max(3, settings().max_examples // 20))
@given(data=st.data())
def test_neon_agrees_with_kernel_library(pattern, data):
    """Each example: NEON_BATCH cases of one dtype through one qemu run of each side."""
    dtype = data.draw(st.sampled_from(kernels.PATTERNS[pattern].dtypes), label="dtype")
    batch = data.draw(st.lists(cases("neon", pattern, dtype), min_size=1, max_size=NEON_BATCH), label="cases")
    got = run_compiled_batch(ours(dtype, "neon"), pattern, [c.df_inputs() for c in batch])
    ref = oracle_neon(pattern, dtype).batch([c.df_inputs() for c in batch])
    for case, mine, (outputs, results) in zip(batch, got, ref, strict=True):
        theirs = outputs[0] if outputs else results[0]
        agree(case, _ours_value(mine), theirs, "neon")


def test_agree_catches_a_difference():
    """The comparison can fail: one ulp off in a map, and a sum off by more than its bound."""
    case = Case("axpb", "f32", 9, 1, False, False, 0, 0)
    x, _, a, b = case.data()
    ref = (a * x + b).astype(np.float32)
    got = ref.copy()
    got[4] = np.nextafter(got[4], np.float32(np.inf))
    with pytest.raises(AssertionError):
        agree(case, got, ref, "scalar")
    total = Case("sum", "f64", 1000, 2, False, False, 0, 0)
    x, _, _, _ = total.data()
    s = np.float64(np.sum(x))
    agree(total, np.float64(s + 1e-12), s, "scalar")
    with pytest.raises(AssertionError):
        agree(total, np.float64(s + 1e-9), s, "scalar")


def test_programs_cover_every_pattern_and_dtype():
    """Each pattern of the library exists in the program of each of its dtypes."""
    for pattern, dtype in kernels.kernels():
        assert f"func.func @{pattern}(" in program(dtype), (pattern, dtype)
