"""Reductions whose K interleaved accumulators run on through the remainder blocks and the tail
(lowering/loop_to_simd/vecloop.py, predloop.py for filtered ones): compiled per ISA, interleave K and tail form, and compared
with numpy at the sizes where the blocks change hands (W, K*W, K*W±1, a full remainder plus a
tail, ...) and at unaligned offsets. Integer and min/max results are exact; a reassoc float sum
is within a bound; a float sum without `reassoc` keeps element order, bit for bit."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from isa_support import isa_params, isa_unavailable

import loopopt
from loopopt.dialects.simd_targets import TARGETS
from loopopt.tools.loop_run import run_compiled_batch

PROGRAM = """
func.func @stats(%x: !df.array<f32, [i]>, %y: !df.array<i32, [i]>) -> (f32, f32, i32, i32) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %izero = arith.constant 0 : i32
  %imax = arith.constant 2147483647 : i32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s, %m, %t, %lo = df.reduce add(%sq, %zero), max(%x, %ninf), add(%y, %izero), min(%y, %imax) over [i] reassoc
      : !df.array<f32, [i]>, !df.array<f32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]> -> f32, f32, i32, i32
  func.return %s, %m, %t, %lo : f32, f32, i32, i32
}

func.func @kept(%x: !df.array<f32, [i]>, %y: !df.array<i32, [i]>) -> (f32, i32) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %imin = arith.constant -2147483648 : i32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  %q = df.filter %y : !df.array<i32, [i]> -> !df.array<i32, [j]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %izero : i32
    df.yield %c : i1
  }
  %m = df.reduce max(%q, %imin) over [j] : !df.array<i32, [j]> -> i32
  func.return %s, %m : f32, i32
}

func.func @packed(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

func.func @ordered(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""

INTERLEAVES = (1, 2, 3, 4)
TAILS = ("scalar", "masked", "auto")


def sizes(width: int, k: int) -> list[int]:
    """Every boundary between main loop, remainder blocks and tail for W lanes and K copies."""
    kw = k * width
    around = {0, 1, width - 1, width, width + 1, kw - 1, kw, kw + 1, 2 * kw - 1, 2 * kw, 2 * kw + 1}
    around |= {kw + r * width + t for r in range(k) for t in (0, 1, width - 1)}  # every remainder count, with tails
    return sorted(n for n in around | {97, 1000, 1009} if n >= 0)


@functools.cache
def _compiled(isa: str, k: int, tail: str):
    cpu = " cpu=zen4" if tail == "auto" and isa != "neon" else ""
    return loopopt.compile(PROGRAM, target=isa, pipeline=f"loop-pipeline{{target={isa} interleave={k} tail={tail}{cpu}}}")


@pytest.mark.parametrize("tail", TAILS)
@pytest.mark.parametrize("k", INTERLEAVES)
@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512", "neon")))
def test_accumulators_through_remainder_and_tail(isa, k, tail):
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    if tail == "masked" and not TARGETS[isa].has_masked_load_store:
        pytest.skip(f"{isa} has no masked loads: its masked tail is the scalar one (tail=scalar covers it)")
    width = TARGETS[isa].vector_bits // 32
    rng = np.random.default_rng(1000 + k)
    cases, where = [], []
    for n in sizes(width, k):
        x = rng.standard_normal(n + 1).astype(np.float32)
        y = rng.integers(-(2**31), 2**31, n + 1, dtype=np.int64).astype(np.int32)
        for offset in (0, 1):  # a view one element in: every vector access unaligned
            cases.append([x[offset : offset + n], y[offset : offset + n]])
            where.append(f"isa={isa} K={k} tail={tail} n={n} offset={offset}")
    lib = _compiled(isa, k, tail)
    got = run_compiled_batch(lib, "stats", cases)
    kept = run_compiled_batch(lib, "kept", cases)
    packed = run_compiled_batch(lib, "packed", [[xv] for xv, _ in cases])
    for (xv, yv), (s, m, t, lo), (fs, fm), (p,), at in zip(cases, got, kept, packed, where, strict=True):
        n = len(xv)
        exact = float(np.sum(xv.astype(np.float64) ** 2))
        # n rounded products and n-1 rounded adds in any order: within n*u of the sum of |terms|
        assert abs(float(s) - exact) <= max(n, 1) * 2.0**-23 * exact, at
        assert m == (xv.max() if n else np.float32(-np.inf)), at
        assert t == np.sum(yv, dtype=np.int32), at  # wraps, like the kernel
        assert lo == (yv.min() if n else np.int32(2**31 - 1)), at
        pos = xv[xv > 0].astype(np.float64)
        assert abs(float(fs) - pos.sum()) <= max(len(pos), 1) * 2.0**-23 * pos.sum(), at  # filter -> sum (predloop)
        assert fm == (yv[yv > 0].max() if (yv > 0).any() else np.int32(-(2**31))), at  # filter -> max
        np.testing.assert_array_equal(p, xv[xv > 0], err_msg=at)  # filter (compaction at a cursor)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512", "neon")))
def test_sum_without_reassoc_keeps_element_order(isa):
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    lib = _compiled(isa, 4, "masked" if TARGETS[isa].has_masked_load_store else "scalar")
    rng = np.random.default_rng(7)
    cases = []
    for n in (0, 1, 15, 16, 17, 63, 64, 65, 1000):
        cases.append([(rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7, n)).astype(np.float32)])
    for (x,), (s,) in zip(cases, run_compiled_batch(lib, "ordered", cases), strict=True):
        expected = np.float32(0.0)
        for v in x:  # the Loop IR's order: init first, then each element in turn, rounded each step
            expected = np.float32(expected + v)
        assert np.float32(s).tobytes() == expected.tobytes(), f"isa={isa} n={len(x)}: {s!r} != {expected!r}"
