"""The loopopt.jit corpus: numpy-style functions, each jitted for every ISA this machine runs
(NEON under qemu for a sample) and compared with the same function run by plain numpy.

Comparison (the corpus entry's `tol`):
* "exact": integers, booleans, compaction, and float elementwise code without mul+add
  (no FMA contraction possible) or transcendental functions: bit-exact.
* "ew": float elementwise code with mul+add (FMA contraction is part of each target's
  contract) or libm transcendentals: |got - want| <= 4 eps (|want| + 1).
* "red": float reductions, reassociated (numpy sums pairwise): |got - want| <= 2 n eps sum|x|
  over the reduced terms (we use max(|want|, n * max|term|) as a bound of sum|x|).
"""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params

import loopopt

SIZES = (0, 1, 3, 7, 8, 9, 16, 17, 33, 100, 1001)
RNG = np.random.default_rng(1234)


def f32(n): return (RNG.standard_normal(n)).astype(np.float32)
def f64(n): return RNG.standard_normal(n)
def i32(n): return RNG.integers(-1000, 1000, n).astype(np.int32)
def i64(n): return RNG.integers(-10**6, 10**6, n).astype(np.int64)
def pos32(n): return (RNG.random(n) + 0.5).astype(np.float32)


CORPUS = []


def case(inputs, tol="exact", nonempty=False, neon=False):
    def register(fn):
        CORPUS.append((fn, inputs, tol, nonempty, neon))
        return fn
    return register


@case(lambda n: (f32(n), np.float32(1.5)), tol="red", neon=True)
def sum_where(x, a):
    return np.sum(np.where(x > 0, x * a, 0))


@case(lambda n: (np.float32(2.0), f32(n), f32(n)), tol="ew", neon=True)
def axpy(a, x, y):
    return a * x + y


@case(lambda n: (f64(n),), tol="ew")
def poly(x):
    return x * x * 3.0 + x * 2.0 + 1.0


@case(lambda n: (f32(n),), neon=True)
def relu(x):
    return np.maximum(x, 0)


@case(lambda n: (f32(n),))
def clip(x):
    return np.clip(x, -0.5, 0.5)


@case(lambda n: (f32(n),), tol="red")
def abs_sum(x):
    return np.sum(np.abs(x))


@case(lambda n: (f32(n),))
def sqrt_abs(x):
    return np.sqrt(np.abs(x))


@case(lambda n: (f64(n),), tol="ew")
def gauss(x):
    return np.exp(-x * x)


@case(lambda n: (f32(n), 0.25), neon=True)
def mask_index(x, t):
    return x[x > t]


@case(lambda n: (f32(n),), tol="red")
def mask_sum(x):
    return np.sum(x[x > 0])


@case(lambda n: (f32(n), f32(n)), tol="ew")
def mask_two(x, y):
    m = (x > 0) & (y < 0.5)
    return x[m] * 2 + y[m]


@case(lambda n: (f32(n),), neon=True)
def count_positive(x):
    return np.sum(x > 0)


@case(lambda n: (f32(n), i32(n)), nonempty=True)
def min_max(x, k):
    return np.min(x), np.max(x), k.min(), k.max()


@case(lambda n: (pos32(n),), tol="red")
def product(x):
    return np.prod(1 + (x - 1) * 0.001)


@case(lambda n: (i32(n), f64(n)))
def cumsums(k, x):
    return np.cumsum(k), np.cumsum(x)


@case(lambda n: (f64(n),), tol="red", nonempty=True)
def mean(x):
    return np.mean(x)


@case(lambda n: (f64(n),), tol="red", nonempty=True)
def center(x):
    return x - np.mean(x)


@case(lambda n: (f32(n),), tol="ew", nonempty=True)
def scale_by_max(x):
    return x / np.max(np.abs(x))


@case(lambda n: (i32(n),), neon=True)
def int_arith(k):
    return (k * 3 + 7) // 2, k % 5, -k, np.abs(k)


@case(lambda n: (i64(n), i64(n)))
def int_absdiff(a, b):
    return np.where(a > b, a - b, b - a)


@case(lambda n: (f32(n), f32(n)))
def bool_logic(x, y):
    return ((x > 0) & (y < 0.5)) | ~(x < -0.3), (x > 0) ^ (y > 0)


@case(lambda n: (f32(n), i32(n)), tol="ew")
def casts(x, k):
    return x.astype(np.float64) * 2, k.astype(np.float32) + 0.5, k.astype(np.int64) * 3


@case(lambda n: (i32(n), f32(n)), tol="ew")
def mixed_promotion(k, x):
    return k + x, k * 2.5, x * 2.5  # f64, f64, f32 (NEP 50: Python floats are weak)


@case(lambda n: ({"x": f32(n), "y": f32(n)},), tol="red")
def record_dict(p):
    return np.sum(p["x"] * p["y"])


def _structured(n):
    r = np.zeros(n, dtype=[("a", np.float64), ("b", np.int32)])
    r["a"], r["b"] = f64(n), i32(n)
    return (r,)


@case(_structured, tol="ew")
def record_structured(r):
    return r["a"] * r["b"] + 1


@case(lambda n: (f32(n), f32(n)), tol="red")
def dot(x, y):
    return np.sum(x * y)


@case(lambda n: (f32(n),))
def any_all(x):
    return np.any(x > 2.5), np.all(x > -10)


@case(lambda n: (f64(n),), tol="red", nonempty=True)
def variance(x):
    return np.mean((x - np.mean(x)) ** 2)


@case(lambda n: (i64(n), 7))
def python_int_arg(k, c):
    return k * c + np.sum(k[k > c])


@case(lambda n: (f32(n),))
def filter_then_scan(x):
    return np.cumsum(x[x > 0.5] > 1.0)


@case(lambda n: (f32(n),), neon=True)
def nested_mask(x):
    return x[x > 0][x[x > 0] < 1] * 2  # the same mask twice is one filter (one axis)


@case(lambda n: (f64(n),), tol="red")
def filtered_stats(x):
    big = x[np.abs(x) > 0.5]
    return np.sum(big), np.sum(big * big), np.sum(np.abs(x) > 0.5)


@case(lambda n: (f32(n),), nonempty=True)
def above_mean(x):
    return x[x > np.mean(x)]  # a reduction captured by a filter's predicate


@case(lambda n: (f32(n), f32(n)), tol="red")
def two_masks(x, y):
    return x[x > 0], y[y > 0], np.sum(x[x < 0])  # three filters, three new axes


@case(lambda n: (f32(n),))
def scan_then_filter(x):
    return np.cumsum(x)[x > 0], np.cumsum(x[x > 0] * 2)


@case(lambda n: (f32(n),), nonempty=True)
def where_of_reductions(x):
    return np.where(x > 0, np.max(x), np.min(x))


assert len(CORPUS) >= 25


def _check(got, want, tol, terms_max):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, tol, terms_max)
        return
    w = np.asarray(want)
    g = np.asarray(got)
    assert g.dtype == w.dtype, f"dtype {g.dtype} != numpy's {w.dtype}"
    assert g.shape == w.shape, f"shape {g.shape} != numpy's {w.shape}"
    if tol == "exact" or w.dtype.kind in "biu":
        np.testing.assert_array_equal(g, w)
        return
    eps = np.finfo(w.dtype).eps
    if tol == "ew":
        bound = 4 * eps * (np.abs(w.astype(np.float64)) + 1)
    else:
        n = max(terms_max[0], 1)
        bound = 2 * n * eps * max(float(np.max(np.abs(w))) if w.size else 0.0, n * terms_max[1], 1.0)
    diff = np.abs(g.astype(np.float64) - w.astype(np.float64))
    assert np.all((diff <= bound) | (np.isnan(g) & np.isnan(w))), f"max |Δ| {diff.max()} > bound"


def _terms(args):
    """(n, max |x|) over the array arguments: the scale of the reduced terms."""
    arrays = []
    for a in args:
        if isinstance(a, dict):
            arrays.extend(a.values())
        elif isinstance(a, np.ndarray) and a.dtype.names:
            arrays.extend(a[f] for f in a.dtype.names)
        elif isinstance(a, np.ndarray):
            arrays.append(a)
    n = max((len(a) for a in arrays), default=0)
    m = max((float(np.max(np.abs(a.astype(np.float64)))) for a in arrays if a.size), default=0.0)
    return n, 4 * max(m, 1.0) ** 2


def _params():
    out = []
    for fn, inputs, tol, nonempty, neon in CORPUS:
        isas = ("scalar", "sse2", "avx2", "avx512") + (("neon",) if neon else ())
        for p in isa_params(isas):
            out.append(pytest.param(fn, inputs, tol, nonempty, p.values[0], marks=p.marks,
                                    id=f"{fn.__name__}-{p.values[0]}"))
    return out


@pytest.mark.parametrize("fn,inputs,tol,nonempty,isa", _params())
def test_corpus(fn, inputs, tol, nonempty, isa):
    jitted = loopopt.jit(fn, target=isa)
    sizes = (0, 1, 9, 33, 100) if isa == "neon" else SIZES
    for n in sizes:
        if nonempty and n == 0:
            continue
        args = inputs(n)
        with np.errstate(all="ignore"):
            want = fn(*args)
        got = jitted(*args)
        _check(got, want, tol, _terms(args))
    assert jitted.c_source and "func.func" in str(jitted.df)
