"""`x[idx]` (and np.take) in `@loopopt.jit`: numpy's integer-array indexing through df.gather.

An index counts from the end when negative (wrapped with len(x), a hidden kernel argument);
one outside [-len(x), len(x)) raises numpy's IndexError with numpy's message, located at the
`x[idx]` line, after a kernel that read nothing outside x. Every ISA this machine runs (NEON
under qemu), index arrays of the sizes around the vector widths, primes and a large one,
sources of 1, 5 and 1000 elements, every index dtype.
"""

from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
from isa_support import isa_params

import loopopt
from loopopt.frontend import JitError

SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 97, 1009, 65537)
SOURCES = (1, 5, 1000)
ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")

CASES = {
    "take": lambda x, idx: x[idx],
    "sum": lambda x, idx: x[idx].sum(),
    "max": lambda x, idx: np.max(x[idx]),
    "scaled": lambda x, idx: x[idx] * 2 + 1,
    "np_take_mean": lambda x, idx: np.take(x, idx).mean(),
    "lookup_of_computed": lambda x, idx: (x * 3)[idx],
    "two_gathers": lambda x, idx: x[idx] - x[idx // 2],
}


def _indices(dt: type[np.integer], nx: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Valid indices only, negative ones (from the end) too where the dtype has them."""
    lo = -nx if np.iinfo(dt).min < 0 else 0
    hi = min(nx, np.iinfo(dt).max + 1)
    return rng.integers(lo, hi, size=n).astype(dt)


def _source(nx: int, dt: type, rng: np.random.Generator) -> np.ndarray:
    return (rng.standard_normal(nx) * 100).astype(dt) if dt is not np.int32 else rng.integers(-99, 99, nx).astype(dt)


def _params():
    out = []
    for name in CASES:
        for p in isa_params(ISAS):
            out.append(pytest.param(name, p.values[0], marks=p.marks, id=f"{name}-{p.values[0]}"))
    return out


@pytest.mark.parametrize("name,isa", _params())
def test_gather_matches_numpy(name: str, isa: str) -> None:
    fn = CASES[name]
    jitted = loopopt.jit(fn, target=isa)
    sizes = (0, 1, 5, 17, 1009) if isa == "neon" else SIZES
    for xdt, idt in ((np.float32, np.int64), (np.float64, np.int32), (np.int32, np.int16), (np.float32, np.uint8),
                     (np.float32, np.int32)):  # 32-bit data by i8-i32 / u8-u16: the i32 wrap (test_i32_indices_...)
        for nx in SOURCES:
            for n in sizes:
                if name in ("max", "np_take_mean") and n == 0:
                    continue  # numpy raises on an empty max / warns on an empty mean
                rng = np.random.default_rng([nx, n, len(name)])
                x, idx = _source(nx, xdt, rng), _indices(idt, nx, n, rng)
                with np.errstate(all="ignore"):
                    want = fn(x, idx)
                got = jitted(x, idx)
                assert np.asarray(got).dtype == np.asarray(want).dtype, (name, isa, n)
                if name in ("sum", "np_take_mean") and xdt != np.int32:
                    # any summation order of n terms: |error| <= n * eps * sum |x_k| (the scalar target adds in order)
                    bound = (n + 1) * np.finfo(xdt).eps * np.sum(np.abs(x[idx]), dtype=np.float64)
                    np.testing.assert_allclose(got, want, rtol=0, atol=2 * bound + 1e-6)
                else:
                    np.testing.assert_array_equal(got, want, err_msg=f"{name} on {isa}: {xdt.__name__}[{idt.__name__}] nx={nx} n={n}")


def _line_of(fn, text: str) -> int:
    lines, first = inspect.getsourcelines(fn)
    return first + next(j for j, line in enumerate(lines) if text in line)


@pytest.mark.parametrize("isa", isa_params(("scalar", "avx2")))
@pytest.mark.parametrize("bad,nx", [(10, 10), (-11, 10), (2**40, 10), (0, 0), (-1, 0), (255, 7)])
def test_out_of_range_index_raises_numpys_index_error(bad: int, nx: int, isa: str) -> None:
    def f(x, idx):
        return x[idx].sum()  # the x[idx] line

    jitted = loopopt.jit(f, target=isa)
    idt = np.uint8 if bad == 255 else np.int64
    for n, at in ((1, 0), (33, 32), (1009, 500)):
        x = np.ones(nx, np.float32)
        idx = np.zeros(n, idt) if nx else np.full(n, bad, idt)
        idx[at] = bad
        with pytest.raises(IndexError) as numpy_error:
            x[idx]
        with pytest.raises(IndexError) as ours:
            jitted(x, idx)
        assert str(ours.value).startswith(f"{__file__}:{_line_of(f, 'the x[idx] line')}:"), str(ours.value)
        assert str(numpy_error.value) in str(ours.value), (str(ours.value), str(numpy_error.value))


def test_in_range_calls_after_an_error_still_work() -> None:
    jitted = loopopt.jit(lambda x, idx: x[idx], target="scalar")
    x = np.arange(4, dtype=np.float64)
    with pytest.raises(IndexError):
        jitted(x, np.array([4]))
    np.testing.assert_array_equal(jitted(x, np.array([3, -4, 0])), [3.0, 0.0, 0.0])


def test_index_arrays_must_be_integers_and_sources_sized() -> None:
    with pytest.raises(JitError, match="must hold integers"):
        loopopt.jit(lambda x, i: x[i], target="scalar")(np.ones(3), np.ones(3))
    with pytest.raises(JitError, match="boolean-mask indexing is not supported"):
        loopopt.jit(lambda x, i: x[x > 0][i], target="scalar")(np.ones(3), np.zeros(2, np.int64))


@pytest.mark.isa("avx512")
def test_gather_is_df_gather_and_fuses_into_the_sum() -> None:
    """x[idx].sum() traces to one df.gather read by the reduction's own loop (no buffer for it)."""
    jitted = loopopt.jit(lambda x, idx: x[idx].sum(), target="avx512")
    spec = jitted.specialize(np.ones(3, np.float32), np.zeros(2, np.int64))
    assert "df.gather" in str(spec.df)
    assert "lo_gather_f32_by_i64" in spec.c_source  # the wrapped index is an i64 (i32 indices: below)


def test_scalar_results_take_the_direct_call_and_views_still_work() -> None:
    """x[idx].sum() calls the kernel directly (lengths appended, no output buffers); a strided
    view falls back to contiguous copies, with the same bounds check."""
    jitted = loopopt.jit(lambda x, idx: x[idx].sum(), target="scalar")
    x = np.arange(20, dtype=np.float64)
    idx = np.array([0, -1, 3], np.int64)
    assert jitted(x, idx) == x[idx].sum()
    assert jitted.last.direct
    view = x[::2]
    assert jitted(view, idx) == view[idx].sum()
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 0 with size 10"):
        jitted(view, np.array([10], np.int64))
    with pytest.raises(IndexError, match="index -21 is out of bounds for axis 0 with size 20"):
        jitted(x, np.array([5, -21], np.int64))


@pytest.mark.parametrize("isa,intrinsic", [
    pytest.param(isa, intrinsic, marks=pytest.mark.isa(isa), id=isa)
    for isa, intrinsic in (("avx2", "_mm256_mask_i32gather_ps"), ("avx512", "_mm512_mask_i32gather_ps"))
])
def test_i32_indices_of_32_bit_data_wrap_in_i32_and_use_the_vector_gather(isa, intrinsic) -> None:
    """f32 data by i32 indices: the index is wrapped in i32 (not i64), so the gather runs at the
    32-bit lane count with the ISA's 32-bit gather (the CPU model says it beats scalar loads);
    i64 indices and f64 data keep i64."""
    jitted = loopopt.jit(lambda x, idx: x[idx] * 2, target=isa)
    spec = jitted.specialize(np.ones(3, np.float32), np.zeros(2, np.int32))
    assert "df.gather %x[%0] : !df.array<f32, [i]>, !df.array<i32, [i1]>" in str(spec.df)
    assert intrinsic in spec.c_source and "by_i64" not in spec.c_source
    assert [c.bits for c in spec.checks] == [32] and spec.narrow == [0]
    for x, idx in ((np.ones(3, np.float32), np.zeros(2, np.int64)), (np.ones(3), np.zeros(2, np.int32))):
        wide = jitted.specialize(x, idx)
        assert [c.bits for c in wide.checks] == [64] and not wide.narrow


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512", "neon")))
@pytest.mark.parametrize("xdt,idt", [(np.float32, np.int32), (np.uint32, np.int8), (np.int32, np.uint16)])
def test_i32_wrap_raises_exactly_as_the_i64_wrap(isa: str, xdt, idt) -> None:
    """Out-of-range indices at the ends of the index dtype, and below -len(x): numpy's message."""
    jitted = loopopt.jit(lambda x, idx: x[idx].sum(), target=isa)
    info = np.iinfo(idt)
    for nx in (1, 7, 1000):
        x = np.arange(nx).astype(xdt)
        for bad in sorted({min(nx, info.max), info.max, -nx - 1, info.min}):
            if -nx <= bad < nx or not info.min <= bad <= info.max:
                continue
            for n, at in ((1, 0), (17, 16), (257, 100)):
                idx = np.zeros(n, idt)
                idx[at] = bad
                with pytest.raises(IndexError) as numpy_error:
                    x[idx]
                with pytest.raises(IndexError) as ours:
                    jitted(x, idx)
                assert str(ours.value).endswith(f"{numpy_error.value} (x[idx])"), (str(ours.value), nx, bad)
        idx = np.arange(-nx if info.min < 0 else 0, nx).astype(idt)
        assert jitted(x, idx) == x[idx].sum()


def test_x_longer_than_the_i32_limit_runs_the_i64_specialization(monkeypatch) -> None:
    """len(x) > NARROW_GATHER_LIMIT (2**31 - 1; lowered here): the i32 wrap would overflow, so
    the call runs the same function traced with i64 indices, with the same checks."""
    jit_module = importlib.import_module("loopopt.frontend.jit")
    monkeypatch.setattr(jit_module, "NARROW_GATHER_LIMIT", 100)
    jitted = loopopt.jit(lambda x, idx: x[idx] * 2, target="avx2")
    idx = np.array([-1, 0, -60, 59], np.int32)
    short, long = np.arange(60, dtype=np.float32), np.arange(101, dtype=np.float32)
    np.testing.assert_array_equal(jitted(short, idx), short[idx] * 2)
    spec = jitted.last
    assert spec.narrow == [0] and spec._wide is None
    np.testing.assert_array_equal(jitted(long, idx), long[idx] * 2)  # the guard misses: widened
    assert spec._wide is not None and [c.bits for c in spec._wide.checks] == [64]
    np.testing.assert_array_equal(jitted(short, idx), short[idx] * 2)  # back on the i32 kernel
    idx[2] = -102
    with pytest.raises(IndexError, match="index -102 is out of bounds for axis 0 with size 101"):
        jitted(long, idx)
    assert len(jitted.cache) == 1
