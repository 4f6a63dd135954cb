"""IEEE special values and integer extremes: NaN/±Inf/-0.0 in min/max and filters, wrapping integers."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_isas import isa_params
from kernels_call import call
from kernels_oracle import NP, check, lanes
from loopopt.kernels import kernel_name


def positions(n: int, w: int) -> list[int]:
    """Where to plant a special value: first, in the unrolled body, in the one-vector loop, in the tail, last."""
    return sorted({p for p in (0, 1, w - 1, 2 * w + 1, 4 * w + 2, n - 2, n - 1) if 0 <= p < n})


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("pattern", ["min", "max"])
def test_minmax_nan_anywhere_gives_nan(libraries, isa, dtype, pattern):
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    w = lanes(isa, dtype)
    for n in (1, w, 4 * w + 3, 9 * w + 5):
        for p in positions(n, w):
            x = np.linspace(-5, 5, n).astype(NP[dtype])
            x[p] = np.nan
            assert np.isnan(fn(x)), f"n={n}: NaN at {p} lost"


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("pattern", ["min", "max"])
def test_minmax_infinities_and_signed_zero(libraries, isa, dtype, pattern):
    """±Inf are ordinary extremes; -0.0 and +0.0 compare equal (either may be returned)."""
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    t = NP[dtype]
    w = lanes(isa, dtype)
    for n in (1, w + 1, 4 * w + 3):
        for p in positions(n, w):
            for special in (np.inf, -np.inf):
                x = np.linspace(-5, 5, n).astype(t)
                x[p] = special
                check(pattern, dtype, isa, fn(x), x, x, 0, 0, what=f"{special} at {p}")
            zeros = np.where(np.arange(n) % 2 == 0, t(0.0), t(-0.0)).astype(t)
            assert fn(zeros) == 0.0
    assert fn(np.array([np.inf] * 3, t)) == np.inf and fn(np.array([-np.inf] * 3, t)) == -np.inf


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("pattern", ["filter_gt0_scale", "filter_gt0_sum"])
def test_filters_on_nan_zero_inf(libraries, isa, dtype, pattern):
    """NaN, -0.0 and +0.0 are not > 0 (dropped); +Inf is kept; -Inf dropped."""
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    t = NP[dtype]
    specials = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -2.5, 3.0], t)
    rng = np.random.default_rng(5)
    for n in (1, 7, 8, 9, 33, 100, 1001):
        x = rng.choice(specials, n).astype(t)
        got = call(fn, pattern, x, x, t(2), t(0))
        check(pattern, dtype, isa, got, x, x, t(2), t(0))
        if pattern == "filter_gt0_scale":
            assert got.size == np.count_nonzero(x > 0)


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", ["i32", "i64"])
@pytest.mark.parametrize("pattern", ["sum", "prod", "sumsq", "dot", "filter_gt0_sum", "axpb", "axpy", "min", "max", "cumsum"])
def test_integer_extremes_wrap(libraries, isa, dtype, pattern):
    """INT_MIN / INT_MAX / -1 in every lane: results wrap in the element type, min/max hit the limits."""
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    t = NP[dtype]
    info = np.iinfo(t)
    w = lanes(isa, dtype)
    for n in (1, w + 1, 4 * w + 3, 1000):
        for fill in (info.max, info.min, -1):
            x = np.full(n, fill, t)
            x[n // 2] = info.max if fill != info.max else info.min
            got = call(fn, pattern, x, x[::-1].copy(), t(info.max), t(info.min))
            check(pattern, dtype, isa, got, x, x[::-1].copy(), t(info.max), t(info.min), what=f"fill={fill}")
    # a case whose exact value certainly overflows: the result is the wrapped one
    if pattern == "sum":
        assert fn(np.array([info.max, 1], t)) == info.min
