"""The scalar target's unrolled loops (loop-pipeline's `loop-unroll{accs=split}`) against numpy.

On `target=scalar` every innermost scalar loop runs 4 body copies an iteration and a
reduction whose order may change keeps 4 partial accumulators (copies 2-4 start at the
kind's neutral element), combined before a one-element remainder loop. Checked here: maps
(wrapping i32 arithmetic), integer folds (exact: add/mul wrap, min/max/umin from a runtime
init, so a wrong neutral element or a dropped init shows), a reassociated f32 sum (within
a bound), a float sum without `reassoc` (left one chain: bit-exact to numpy's sequential
`add.accumulate`), float max with a NaN, a scan (not split) and two folds fused into one
loop; sizes 0-9 (every remainder, empty and one-iteration main loops), primes, 1000, 65537;
full-range data and data of one sign (a neutral of 0 for min / umin would win there).
"""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.compile import compile

PROGRAM = """
func.func @axpy_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>, %a: i32) -> !df.array<i32, [i]> {
  %r = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %f : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}
func.func @sum_i32(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %s = df.reduce add(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @prod_i64(%x: !df.array<i64, [i]>, %init: i64) -> i64 {
  %s = df.reduce mul(%x, %init) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
func.func @min_i32(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %s = df.reduce min(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @umin_i32(%x: !df.array<i32, [i]>, %init: i32) -> i32 {
  %s = df.reduce umin(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @sum_f32(%x: !df.array<f32, [i]>, %init: f32) -> f32 {
  %s = df.reduce add(%x, %init) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @sum_f32_ordered(%x: !df.array<f32, [i]>, %init: f32) -> f32 {
  %s = df.reduce add(%x, %init) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @max_f32(%x: !df.array<f32, [i]>, %init: f32) -> f32 {
  %s = df.reduce max(%x, %init) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @cumsum_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %r = df.scan add(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %r : !df.array<i32, [i]>
}
func.func @sum_and_max_i32(%x: !df.array<i32, [i]>, %init: i32) -> (i32, i32) {
  %s = df.reduce add(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  %m = df.reduce max(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s, %m : i32, i32
}
"""

SIZES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 31, 1000, 65537)
I32 = np.iinfo(np.int32)


@pytest.fixture(scope="module")
def kernels():
    return compile(PROGRAM, target="scalar")


def test_the_scalar_pipeline_unrolls(kernels):
    c = kernels.c_source
    assert "loop-unroll{factor=4 full_threshold=0 accs=split}" in c
    body = c[c.index("int32_t sum_i32(") :]
    assert "acc_3 = " in body[: body.index("\n}")]  # four partial sums


def _ints(n: int, sign: str, rng: np.random.Generator, dtype=np.int32) -> np.ndarray:
    info = np.iinfo(dtype)
    lo, hi = {"full": (info.min, info.max), "positive": (1, 1000), "negative": (-1000, -1)}[sign]
    return rng.integers(lo, hi, n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("sign", ["full", "positive", "negative"])
@pytest.mark.parametrize("n", SIZES)
def test_integer_maps_and_folds(kernels, n, sign):
    rng = np.random.default_rng(n * 7 + len(sign))
    x, y = _ints(n, sign, rng), _ints(n, "full", rng)
    a = np.int32(-7)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(kernels.call_alloc("axpy_i32", x, y, a), a * x + y)
        for init in (np.int32(0), np.int32(5), np.int32(I32.max), np.int32(I32.min)):
            assert kernels.call_alloc("sum_i32", x, init) == np.add.reduce(x, initial=init, dtype=np.int32)
            assert kernels.call_alloc("min_i32", x, init) == min(x.min(initial=I32.max), init)
            assert kernels.call_alloc("umin_i32", x, init) == np.uint32(min(x.view(np.uint32).min(initial=2**32 - 1), init.view(np.uint32))).view(np.int32)
            s, m = kernels.call_alloc("sum_and_max_i32", x, init)
            assert (s, m) == (np.add.reduce(x, initial=init, dtype=np.int32), max(x.max(initial=I32.min), init))
        np.testing.assert_array_equal(kernels.call_alloc("cumsum_i32", x), np.cumsum(x, dtype=np.int32))
        x64 = _ints(n, sign, rng, np.int64) % 5 - 2  # products that stay nonzero often, wrap sometimes
        for init in (np.int64(1), np.int64(-3)):
            assert kernels.call_alloc("prod_i64", x64, init) == np.multiply.reduce(x64, initial=init, dtype=np.int64)


@pytest.mark.parametrize("n", SIZES)
def test_float_folds(kernels, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    init = np.float32(0.5)
    exact = float(np.sum(x, dtype=np.float64)) + 0.5
    assert kernels.call_alloc("sum_f32", x, init) == pytest.approx(exact, rel=1e-5, abs=1e-5 * max(n, 1) ** 0.5)
    # without reassoc: one chain in element order, bit for bit
    ordered = np.add.accumulate(np.concatenate([[init], x]).astype(np.float32))[-1]
    assert kernels.call_alloc("sum_f32_ordered", x, init).tobytes() == np.float32(ordered).tobytes()
    assert kernels.call_alloc("max_f32", x, np.float32(-np.inf)) == (x.max() if n else -np.inf)
    assert kernels.call_alloc("max_f32", -np.abs(x) - 1, np.float32(-0.5)) == np.float32(-0.5)
    if n:
        x[n // 2] = np.nan
        assert np.isnan(kernels.call_alloc("max_f32", x, np.float32(-np.inf)))
