"""The exact FMA oracle: single rounding where numpy's a*b + c rounds twice."""

from fractions import Fraction

import numpy as np
import pytest

from loopopt.runtime import fma


def round_to_f32(exact: Fraction) -> np.float32:
    """Correct round-to-nearest-even of an exact rational to float32 (no double rounding)."""
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))]
    best = min(abs(Fraction(float(c)) - exact) for c in candidates)
    ties = [c for c in candidates if abs(Fraction(float(c)) - exact) == best]
    return min(ties, key=lambda c: int(c.view(np.uint32)) & 1)


def test_f32_case_where_fused_and_unfused_differ():
    a = np.float32(1 + 2**-12)
    c = np.float32(-(1 + 2**-11))
    # a*a = 1 + 2^-11 + 2^-24: the 2^-24 is lost when the product is rounded first.
    assert a * a + c == 0
    got = fma(a, a, c)
    assert isinstance(got, np.float32) and got == np.float32(2**-24)


def test_f64_case_where_fused_and_unfused_differ():
    a = np.array([1 + 2**-27, 2.0])
    c = np.array([-(1 + 2**-26), 1.0])
    got = fma(a, a, c)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, [2**-54, 5.0])
    np.testing.assert_array_equal(a * a + c, [0.0, 5.0])


def test_broadcasting_and_python_scalars():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = fma(x, 2.0, np.float32(1))
    assert got.dtype == np.float32 and got.shape == (2, 3)
    np.testing.assert_array_equal(got, x * 2 + 1)


def test_random_operands_are_correctly_rounded():
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        a, b, c = (rng.standard_normal(300).astype(dtype) for _ in range(3))
        c[::3] = -(a[::3] * b[::3])  # near-cancellation, where double rounding shows most
        got = fma(a, b, c)
        for x, y, z, r in zip(a, b, c, got):
            exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
            expected = round_to_f32(exact) if dtype == np.float32 else float(exact)
            assert r == expected, (x, y, z)


def test_integer_operands_are_refused():
    with pytest.raises(TypeError, match="float32 or float64"):
        fma(np.arange(3), 2, 1)


# The interpreter's exact FMA (pure numpy, no compiler) against libm's, bit for bit.


def _adversarial(dtype, rng, n=4000):
    """Operands whose a*b + c lands on, or within a hair of, a rounding midpoint (integers
    near 2**(p+1), where the spacing is 2, so odd integers are midpoints), cancels exactly or
    almost, underflows to subnormals, overflows, or meets inf, nan and signed zeros."""
    bits = 24 if dtype == np.float32 else 53
    half = bits // 2 + 1
    a = 2.0**half + rng.integers(0, 2**half, n)
    b = 2.0**half + rng.integers(0, 2**half, n)
    c = rng.integers(-8, 9, n) + rng.choice([0.0, 0.5, -0.5, 0.25, -0.25, 2.0**-40, -(2.0**-40), 1.0, -1.0], n)
    scale = 2.0 ** rng.integers(-60, 60, n)
    a, c = a * scale, c * scale
    tiny = np.finfo(dtype).tiny
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, tiny / 8, np.finfo(dtype).max, 1.0, -1.0])
    k = n // 4
    with np.errstate(all="ignore"):
        for v in (a, b, c):
            v[:k] = rng.choice(specials, k) * np.where(rng.random(k) < 0.5, 1.0, rng.standard_normal(k))
        a, b, c = a.astype(dtype), b.astype(dtype), c.astype(dtype)
        c[k : 2 * k] = -(a[k : 2 * k] * b[k : 2 * k])  # cancellation: the result is the product's error
        sub = slice(2 * k, 3 * k)  # products near the subnormal range
        a[sub] = a[sub] * np.asarray(tiny**0.5 * 2.0 ** -(bits // 2), dtype)
        b[sub] = b[sub] * np.asarray(tiny**0.5, dtype)
        c[sub] = -(a[sub] * b[sub]) * rng.choice(np.array([1.0, 0.5, 2.0], dtype), k)
    return a, b, c


def _same_bits(got, want):
    return (got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_interpreter_fma_matches_libm_on_random_and_adversarial_operands(dtype):
    from loopopt.interp.lanewise import exact_fma

    rng = np.random.default_rng(11)
    cases = [tuple((rng.standard_normal(20000) * 2.0 ** rng.integers(-30, 30, 20000)).astype(dtype) for _ in range(3))]
    for seed in range(4):
        cases.append(_adversarial(dtype, np.random.default_rng(seed)))
    for a, b, c in cases:
        got, want = exact_fma(a, b, c), fma(a, b, c)
        assert got.dtype == dtype
        bad = np.flatnonzero(~_same_bits(got, want))
        assert bad.size == 0, [(a[i], b[i], c[i], got[i], want[i]) for i in bad[:5]]
    # The adversarial sets do hit the hard cases: ties and off-by-a-hair midpoints.
    a, b, c = _adversarial(dtype, np.random.default_rng(0))
    with np.errstate(all="ignore"):
        assert np.count_nonzero(fma(a, b, c) != a * b + c) > 100


def test_interpreter_fma_scalars_and_broadcasting():
    from loopopt.interp.lanewise import exact_fma

    got = exact_fma(np.float32(1 + 2**-12), np.float32(1 + 2**-12), np.float32(-(1 + 2**-11)))
    assert type(got) is np.float32 and got == np.float32(2**-24)
    got = exact_fma(np.float64(1e300), np.float64(1e300), np.float64(-np.inf))
    assert type(got) is np.float64 and got == -np.inf
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    np.testing.assert_array_equal(exact_fma(x, 2.0, np.float64(1)), x * 2 + 1)
    assert exact_fma(np.float64(1e300), np.float64(1e300), np.float64(0)) == np.inf
    assert np.signbit(exact_fma(np.float64(-0.0), np.float64(1), np.float64(-0.0)))
    assert not np.signbit(exact_fma(np.float64(3), np.float64(5), np.float64(-15)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_interpreter_fma_settles_almost_every_lane_in_vector_code(dtype, monkeypatch):
    """Vectorized: on random operands only a tiny share of lanes (midpoint hazards) takes the
    per-element exact-rational path; the rest is settled with numpy in floats. Counted, not
    timed (timings belong in benchmarks: a loaded CI machine makes them flaky)."""
    from loopopt.interp import lanewise

    calls = 0
    slow = lanewise._fma_exact_rational

    def counting(*args, **kwargs):
        nonlocal calls
        calls += 1
        return slow(*args, **kwargs)

    monkeypatch.setattr(lanewise, "_fma_exact_rational", counting)
    rng = np.random.default_rng(5)
    n = 200_000
    a, b, c = (rng.standard_normal(n).astype(dtype) for _ in range(3))
    out = lanewise.exact_fma(a, b, c)
    assert out.dtype == dtype and out.shape == (n,)
    assert calls <= n // 1000, f"{calls} of {n} lanes took the per-element rational path"


def test_interpreter_fma_scalar_path_matches_the_array_path():
    from loopopt.interp.lanewise import exact_fma

    for dtype in (np.float32, np.float64):
        a, b, c = _adversarial(dtype, np.random.default_rng(7), n=1200)
        arrays = exact_fma(a, b, c)
        scalars = np.array([exact_fma(x, y, z) for x, y, z in zip(a, b, c)], dtype)
        assert np.all(_same_bits(scalars, arrays))
