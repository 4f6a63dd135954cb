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
