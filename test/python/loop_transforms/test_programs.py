"""Hand-written Loop IR programs run by the interpreter before and after each transform.

The programs cover what the df corpus does not lower to: predloops with accumulators,
zips with accumulators, nonzero and runtime lower bounds (including empty and reversed
ranges), in-place updates, every integer accumulator kind, constant trip counts for full
unrolling, and loop nests. Integer and array results must be bit-identical; float
reductions (reassoc) within a summation bound.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from loop_ir import parse, transformed, vector_loops
from loopopt.dialects import loop
from loopopt.interp.runner import run_function

PIPELINES = (
    "loop-tile{size=8}",
    "loop-tile{size=3}",
    "loop-vectorize",
    "loop-vectorize{width=4}",
    "loop-vectorize{width=8}",
    "loop-vectorize{width=16}",
    "loop-unroll{factor=4}",
    "loop-unroll{factor=3 full_threshold=0}",
    "loop-tile{size=8},loop-vectorize{width=4}",
    "loop-unroll{factor=4},loop-vectorize{width=8}",
    "loop-tile{size=16},loop-vectorize{width=8},loop-unroll{factor=4}",
)

SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17)
"""0, 1 and W-1, W, W+1 for W = 4, 8, 16 (tile sizes 3, 8, 16 and factors 3, 4 too)."""

LARGE = 1009
"""A prime, run for the pipelines whose loops end up vectorized (the scalar interpreter is slow)."""
LARGE_PIPELINES = {"loop-vectorize", "loop-tile{size=8},loop-vectorize{width=4}",
                   "loop-tile{size=16},loop-vectorize{width=8},loop-unroll{factor=4}"}

FILTER_MAP_MAX = """
func.func @k(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %lo: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %cnt, %m = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) accs(%a = %lo : f32 max) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %x : f32
    loop.append %y, %o : !loop.buf<f32>
    %t = arith.maximumf %a, %y : f32
    loop.yield %t : f32
  }
  func.return %cnt, %m : index, f32
}
"""

ZIP_DOT_AND_DIFF = """
func.func @k(%a: !loop.buf<i32>, %b: !loop.buf<i32>, %o: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<i32>
  %s = loop.zip %i in [%c0, %n) streams(%x = %a : !loop.buf<i32>, %y = %b : !loop.buf<i32>) accs(%acc = %z : i32 add) {
    %p = arith.muli %x, %y : i32
    %d = arith.subi %x, %y : i32
    loop.store %d, %o[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %p : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}
"""

OFFSET_BOUNDS = """
func.func @k(%a: !loop.buf<i64>, %o: !loop.buf<i64>, %lo: index, %z: i64) -> (i64, i64, i64, i64, i64, i64) {
  %n = loop.dim %a, 0 : !loop.buf<i64>
  %one = arith.constant 1 : i64
  %big = arith.constant 9223372036854775807 : i64
  %small = arith.constant -9223372036854775808 : i64
  %ones = arith.constant -1 : i64
  %r:6 = loop.for %i in [%lo, %n) accs(%s = %z : i64 add, %p = %one : i64 mul, %mn = %big : i64 min, %mx = %small : i64 max, %an = %ones : i64 and, %or = %z : i64 or) {
    %x = loop.load %a[%i] : !loop.buf<i64>
    %k = arith.index_cast %i : index to i64
    %y = arith.addi %x, %k : i64
    %w = loop.load %o[%i] : !loop.buf<i64>
    %w2 = arith.addi %w, %y : i64
    loop.store %w2, %o[%i] : !loop.buf<i64>
    %s2 = arith.addi %s, %y : i64
    %p2 = arith.muli %p, %x : i64
    %mn2 = arith.minsi %mn, %y : i64
    %mx2 = arith.maxsi %mx, %y : i64
    %an2 = arith.andi %an, %y : i64
    %or2 = arith.ori %or, %y : i64
    loop.yield %s2, %p2, %mn2, %mx2, %an2, %or2 : i64, i64, i64, i64, i64, i64
  }
  func.return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : i64, i64, i64, i64, i64, i64
}
"""

FLOAT_SUM_SHIFTED = """
func.func @k(%a: !loop.buf<f64>, %o: !loop.buf<f64>, %z: f64) -> f64 {
  %c1 = arith.constant 1 : index
  %n = loop.dim %a, 0 : !loop.buf<f64>
  %s = loop.for %i in [%c1, %n) accs(%acc = %z : f64 add reassoc) {
    %x = loop.load %a[%i] : !loop.buf<f64>
    %prev = loop.load %a[%i - 1] : !loop.buf<f64>
    %d = arith.subf %x, %prev : f64
    loop.store %d, %o[%i - 1] : !loop.buf<f64>
    %sq = arith.mulf %d, %d : f64
    %t = arith.addf %acc, %sq : f64
    loop.yield %t : f64
  }
  func.return %s : f64
}
"""

ROWS = """
func.func @k(%m: !loop.buf<f32, 2>, %o: !loop.buf<f32>, %sc: !loop.buf<f32, 2>, %z: f32) {
  %c0 = arith.constant 0 : index
  %r = loop.dim %m, 0 : !loop.buf<f32, 2>
  %c = loop.dim %m, 1 : !loop.buf<f32, 2>
  loop.for %i in [%c0, %r) {
    %s = loop.for %j in [%c0, %c) accs(%a = %z : f32 max) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %h = arith.constant 0.5 : f32
      %y = arith.mulf %x, %h : f32
      loop.store %y, %sc[%i, %j] : !loop.buf<f32, 2>
      %t = arith.maximumf %a, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %o[%i] : !loop.buf<f32>
  }
  func.return
}
"""

CONSTANT_TRIPS = """
func.func @k(%a: !loop.buf<i32>, %o: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %s = loop.for %i in [%c2, %c7) accs(%acc = %z : i32 add) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.yield %t : i32
  }
  %s2 = loop.for %i in range(%c0, %c11, %c3) accs(%acc = %s : i32 max) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    %t = arith.maxsi %acc, %x : i32
    loop.yield %t : i32
  }
  loop.for %i in [%c0, %c11) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    %y = arith.muli %x, %x : i32
    loop.store %y, %o[%i] : !loop.buf<i32>
  }
  func.return %s2 : i32
}
"""

DECLINED = """
func.func @k(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %m = arith.subi %n, %c1 : index
  loop.for %i in [%c0, %m) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %y = arith.addi %x, %z : i32
    loop.store %y, %b[%i + 1] : !loop.buf<i32>
  }
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 custom) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}
"""
"""A recurrence through memory and a custom scan: vectorizing either would change the answers
(add/min/max scans do vectorize: lowering/loop_to_simd/scan.py)."""


def _rng(n: int) -> np.random.Generator:
    return np.random.default_rng(1000 + n)


def _floats(n, dt=np.float32):
    return _rng(n).uniform(-1, 1, n).astype(dt)


def _ints(n, dt=np.int32, lo=-50, hi=50):
    return _rng(n).integers(lo, hi, n, dtype=dt, endpoint=True)


def _args_filter(n):
    return [_floats(n), np.zeros(n, np.float32), np.float32(-np.inf)]


def _args_zip(n):
    return [_ints(n), _ints(n)[::-1].copy(), np.zeros(n, np.int32), np.int32(7)]


def _args_offsets(n):
    lo = 5 if n % 2 else 2  # sometimes past the end: an empty (reversed) range
    return [_ints(n, np.int64, -3, 3), _ints(n, np.int64), np.int64(lo), np.int64(0)]


def _args_float_sum(n):
    return [_floats(n, np.float64), np.zeros(max(n - 1, 0), np.float64), np.float64(0.25)]


def _args_rows(n):
    cols = n % 7 + 1
    m = _rng(n).uniform(-1, 1, (n, cols)).astype(np.float32)
    return [m, np.zeros(n, np.float32), np.zeros((n, cols), np.float32), np.float32(-np.inf)]


def _args_declined(n):
    return [_ints(n), np.zeros(n, np.int32), np.int32(3)]


def _args_constant(n):
    return [_ints(11), np.zeros(11, np.int32), np.int32(n)]


PROGRAMS = {
    "filter_map_max": (FILTER_MAP_MAX, _args_filter),
    "zip_dot_and_diff": (ZIP_DOT_AND_DIFF, _args_zip),
    "offset_bounds_all_int_kinds": (OFFSET_BOUNDS, _args_offsets),
    "float_sum_shifted": (FLOAT_SUM_SHIFTED, _args_float_sum),
    "rows": (ROWS, _args_rows),
    "constant_trips": (CONSTANT_TRIPS, _args_constant),
    "declined": (DECLINED, _args_declined),
}


def _run(module, args):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    results = run_function(module, "k", *copies)
    return results, [c for c in copies if isinstance(c, np.ndarray)]


@cache
def _program(program: str):
    return parse(PROGRAMS[program][0])


@cache
def _before(program: str, n: int):
    return _run(_program(program), PROGRAMS[program][1](n))


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("program", PROGRAMS)
def test_same_answers(program, pipeline):
    make_args = PROGRAMS[program][1]
    after_module = transformed(_program(program), pipeline)
    for n in SIZES + ((LARGE,) if pipeline in LARGE_PIPELINES else ()):
        args = make_args(n)
        before, before_bufs = _before(program, n)
        after, after_bufs = _run(after_module, args)
        for k, (b, a) in enumerate(zip(before_bufs, after_bufs, strict=True)):
            np.testing.assert_array_equal(a, b, err_msg=f"{program} n={n} buffer {k}")
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            assert np.asarray(a).dtype == np.asarray(b).dtype
            if program == "float_sum_shifted":
                terms = np.diff(args[0]) ** 2
                bound = 2 * (terms.size + 2) * np.finfo(np.float64).eps * (np.sum(np.abs(terms)) + 0.25)
                assert abs(float(a) - float(b)) <= bound, f"n={n}: {a} vs {b}"
            else:
                np.testing.assert_array_equal(a, b, err_msg=f"{program} n={n} result {k}")


@pytest.mark.parametrize("program", [p for p in PROGRAMS if p not in ("constant_trips", "declined")])
def test_every_program_vectorizes(program):
    module = transformed(parse(PROGRAMS[program][0]), "loop-vectorize")
    assert vector_loops(module), f"{program} has no vector loop"
    assert not [o for o in module.walk() if isinstance(o, loop.ZipOp)]


def test_declined_loops_stay_scalar():
    module = transformed(parse(DECLINED), "loop-tile{size=4},loop-vectorize{width=4}")
    assert not vector_loops(module)


def test_full_unroll_leaves_no_loop_and_range_desc_counts():
    module = transformed(parse(CONSTANT_TRIPS), "loop-unroll{factor=4 full_threshold=5}")
    loops = [o for o in module.walk() if isinstance(o, loop.LoopLike)]
    # [2, 7) (5 trips) and range(0, 11, 3) (4 trips) unroll fully; [0, 11) (11 trips) by 4
    assert [type(o) for o in loops] == [loop.ForOp, loop.ForOp]
    assert not loops[0].is_interval and loops[1].is_interval


def test_tile_then_vectorize_vectorizes_lanes_and_remainder():
    module = transformed(parse(ZIP_DOT_AND_DIFF), "loop-tile{size=8},loop-vectorize{width=8}")
    vecs = vector_loops(module)
    assert len(vecs) == 2
    assert isinstance(vecs[0].parent_op(), loop.ForOp)  # the lane loop, inside the tile loop
    assert all(v.width.concrete == 8 for v in vecs)
