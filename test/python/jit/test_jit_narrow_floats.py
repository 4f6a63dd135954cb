"""float16 and ml_dtypes.bfloat16 in `@loopopt.jit`: arrays, numpy scalars (f16 / bf16 scalar
kernel parameters), Python numbers next to them, against numpy / ml_dtypes on every ISA.

numpy's float16 loops and ml_dtypes' bfloat16 loops compute each operation in float32 and
round its result: so does the jit, so elementwise results are compared bit for bit (NaN for
NaN). Sizes around every vector width, primes and a large one, and unaligned views (a slice
starting one element in: contiguous, but off the vector alignment).
"""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params

import loopopt
from loopopt.frontend import JitError

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = ml_dtypes.bfloat16
SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 97, 1009, 65537)
NEON_SIZES = (0, 1, 3, 4, 5, 17, 97)

ELEMENTWISE = {
    "mul_scalar": lambda x, y, a: x * a,
    "axpy": lambda x, y, a: a * x + y,
    "weak_float": lambda x, y, a: x * 1.5 - 0.1,  # bf16: ml_dtypes gives float32 here; f16 stays f16
    "weak_int": lambda x, y, a: x + 3,
    "div": lambda x, y, a: x / (np.abs(y) + 1),
    "cube_square": lambda x, y, a: x ** 3 + np.square(y),
    "sqrt_abs_neg": lambda x, y, a: np.sqrt(np.abs(x)) - y,
    "where_cmp": lambda x, y, a: np.where(x > y, x, a),
    "min_max_clip": lambda x, y, a: np.clip(np.maximum(x, y), -1, 2) + np.minimum(x, a),
    "compare": lambda x, y, a: (x <= a) ^ (y != x),
    "to_f32": lambda x, y, a: x.astype(np.float32) * y,
    "to_i32": lambda x, y, a: (np.clip(np.where(x == x, x, 0), -100, 100) * 4).astype(np.int32),  # NaN: undefined
    "from_i8": lambda x, y, a: x + (y > 0).astype(np.int8),
    "mask": lambda x, y, a: x[x > a],
    "mask_other": lambda x, y, a: y[x > 0] * a,
    "returned": lambda x, y, a: x,
}

REDUCTIONS = {
    "max": lambda x, y, a: np.max(x * a),
    "min": lambda x, y, a: y.min(),
    "sum_f16": lambda x, y, a: np.sum(x * y),
    "mean_f16": lambda x, y, a: np.mean(x),
}


def _data(dt, n: int, seed: int):
    """x, y (unaligned views: one element into a larger array) and a numpy scalar a of dtype dt,
    with NaN and infinities among the values."""
    rng = np.random.default_rng([n, seed])
    big = (rng.standard_normal((2, n + 1)) * 4).astype(dt)
    if n > 3:
        big[0, 2], big[1, 3], big[0, n] = np.nan, np.inf, -np.inf
    return big[0, 1:], big[1, 1:], dt(0.7)


def _params():
    out = []
    for dt in (np.float16, BF16):
        for p in isa_params():
            out.append(pytest.param(dt, p.values[0], marks=p.marks, id=f"{np.dtype(dt).name}-{p.values[0]}"))
    return out


def _same_bits(got, want, what):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, what
    g, w = got.astype(np.float64), want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    assert same.all(), (what, g[~same][:5], w[~same][:5])


@pytest.mark.parametrize("dt,isa", _params())
def test_elementwise_matches_numpy_bit_for_bit(dt, isa):
    sizes = NEON_SIZES if isa == "neon" else SIZES
    for name, fn in ELEMENTWISE.items():
        jitted = loopopt.jit(fn, target=isa)
        for n in sizes:
            x, y, a = _data(dt, n, len(name))
            with np.errstate(all="ignore"):
                want = fn(x, y, a)
                got = jitted(x, y, a)
            _same_bits(got, want, f"{name} {np.dtype(dt).name} on {isa}, n={n}")


@pytest.mark.parametrize("dt,isa", _params())
def test_reductions(dt, isa):
    sizes = NEON_SIZES if isa == "neon" else SIZES
    for name, fn in REDUCTIONS.items():
        if dt is BF16 and name.endswith("_f16"):
            continue  # refused: test_bf16_sums_and_scans_are_refused
        jitted = loopopt.jit(fn, target=isa)
        for n in sizes:
            if n == 0 and name in ("max", "min", "mean_f16"):
                continue  # numpy raises / warns on empty arrays
            x, y, a = _data(dt, n, 7)
            x, y = np.nan_to_num(x, posinf=5, neginf=-5), np.nan_to_num(y, posinf=5, neginf=-5)
            with np.errstate(all="ignore"):
                want = fn(x, y, a)
                got = jitted(x, y, a)
            assert type(got) is type(want), (name, type(got), type(want))
            if name.endswith("_f16"):
                # numpy sums float16 in float32 pairwise (rounding to float16 every 8192 elements);
                # the kernel in float32 in any order, rounding once
                terms = np.abs(x * y if name == "sum_f16" else x).astype(np.float64)
                scale = np.sum(terms) / (n if name == "mean_f16" else 1)
                bound = (2 + n / 8192) * 2.0**-10 * scale + (n + 1) * 2.0**-23 * scale
                assert abs(float(got) - float(want)) <= bound, (name, isa, n, got, want)
            else:
                _same_bits(got, want, f"{name} {np.dtype(dt).name} on {isa}, n={n}")


@pytest.mark.parametrize("dt,isa", _params())
def test_gather(dt, isa):
    f = loopopt.jit(lambda x, idx: x[idx] * 2, target=isa)
    for n in (NEON_SIZES if isa == "neon" else SIZES):
        x, _, _ = _data(dt, max(n, 1), 3)
        idx = np.random.default_rng(n).integers(-len(x), len(x), n).astype(np.int32)
        _same_bits(f(x, idx), x[idx] * 2, f"gather {np.dtype(dt).name} on {isa}, n={n}")


@pytest.mark.parametrize("isa", isa_params(("scalar", "avx2", "avx512", "neon")))
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # the reference x16 * nan
def test_scalar_parameters_round_like_numpy(isa):
    """f16 / bf16 numpy scalars are f16 / bf16 kernel parameters; Python floats next to f16
    arrays are rounded once to float16, as numpy rounds them."""
    f = loopopt.jit(lambda x, a: x * a, target=isa)
    x16 = np.linspace(-3, 3, 37).astype(np.float16)
    for a in (np.float16(0.1), np.float16(65504), np.float16(-0.0), np.float16(np.nan)):
        _same_bits(f(x16, a), x16 * a, f"f16 * {a!r}")
    assert "f16" in str(f.cache[next(iter(f.cache))].df)
    xb = np.linspace(-3, 3, 37).astype(BF16)
    for a in (BF16(0.1), BF16(3e38), BF16(-1e-40)):
        _same_bits(f(xb, a), xb * a, f"bf16 * {a!r}")
    for a in (0.1, 1 / 3, 65519.0, 65520.0, 2.0**-25, 5.960464477539063e-08 * 1.5):  # rounding edges of f16
        _same_bits(f(x16, a), x16 * a, f"f16 * {a!r}")
    g = loopopt.jit(lambda a, b: a * b + a, target=isa)  # scalars only: f16 / bf16 results
    for a, b in ((np.float16(1.1), np.float16(3.3)), (BF16(1.1), BF16(3.3))):
        got = g(a, b)
        assert type(got) is type(a * b + a) and got == a * b + a


def test_promotion_with_other_dtypes():
    f = loopopt.jit(lambda x, y: x + y, target="scalar")
    h, b = np.ones(3, np.float16), np.ones(3, BF16)
    for other in (np.float32, np.float64, np.int8, np.uint8, np.int16, np.int32, np.bool_):
        y = np.ones(3, other)
        _same_bits(f(h, y), h + y, f"f16 + {np.dtype(other).name}")
    for other in (np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.int32, np.bool_):
        y = np.ones(3, other)  # ml_dtypes' ufuncs: bf16 + f16 / i16 is f32, bf16 + i32 is f64
        _same_bits(f(b, y), b + y, f"bf16 + {np.dtype(other).name}")
    g = loopopt.jit(lambda x: (x * 2.0, np.where(x > 0, x, 0.5), np.clip(x, 0, 1)), target="scalar")
    for got, want in zip(g(b), (b * 2.0, np.where(b > 0, b, 0.5), np.clip(b, 0, 1))):
        _same_bits(got, want, "bf16 with Python numbers (float32, float64, float32 in ml_dtypes)")


def test_bf16_sums_and_scans_are_refused():
    x = np.ones(1000, BF16)
    assert np.sum(x) == 256  # ml_dtypes: in order, in bfloat16 (why the jit refuses)
    for fn, word in ((lambda x: np.sum(x), "np.sum"), (lambda x: x.mean(), "np.mean"),
                     (lambda x: np.prod(x), "np.prod")):
        with pytest.raises(JitError, match=f"{word} of a bfloat16 array is not supported"):
            loopopt.jit(fn, target="scalar")(x)
    with pytest.raises(JitError, match="np.cumsum of a float16 array is not supported"):
        loopopt.jit(lambda x: np.cumsum(x), target="scalar")(np.ones(4, np.float16))
    assert loopopt.jit(lambda x: np.sum(x.astype(np.float32)), target="scalar")(x) == np.float32(1000)


def test_kernel_computes_in_f32_and_rounds_each_operation():
    """(x * y) + z rounds x * y to float16 before the addition, as numpy does: a kernel that
    kept the f32 product would differ on these values."""
    x, y, z = np.float16(1 + 3 * 2**-10), np.float16(1 + 3 * 2**-10), np.float16(-1)
    f = loopopt.jit(lambda x, y, z: x * y + z, target="avx2")
    xs = np.full(9, x)
    got = f(xs, np.full(9, y), np.full(9, z))
    _same_bits(got, xs * y + z, "f16 fma")
    assert got[0] != np.float16(np.float32(x) * np.float32(y) + np.float32(z))
    assert "arith.truncf" in str(f.df) and "arith.extf" in str(f.df)
