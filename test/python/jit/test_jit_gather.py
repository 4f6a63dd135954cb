"""`x[idx]` (and np.take) in `@loopopt.jit`: numpy's integer-array indexing through df.gather.

An index counts from the end when negative (wrapped with len(x), a hidden kernel argument);
one outside [-len(x), len(x)) raises numpy's IndexError with numpy's message, located at the
`x[idx]` line, after a kernel that read nothing outside x. Every ISA this machine runs (NEON
under qemu), index arrays of the sizes around the vector widths, primes and a large one,
sources of 1, 5 and 1000 elements, every index dtype.
"""

from __future__ import annotations

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
    for xdt, idt in ((np.float32, np.int64), (np.float64, np.int32), (np.int32, np.int16), (np.float32, np.uint8)):
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


def test_gather_is_df_gather_and_fuses_into_the_sum() -> None:
    """x[idx].sum() traces to one df.gather read by the reduction's own loop (no buffer for it)."""
    jitted = loopopt.jit(lambda x, idx: x[idx].sum(), target="avx512")
    spec = jitted.specialize(np.ones(3, np.float32), np.zeros(2, np.int32))
    assert "df.gather" in str(spec.df)
    assert "lo_gather_f32_by_i64" in spec.c_source  # the wrapped index is an i64


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
