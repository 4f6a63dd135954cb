"""df interpreter semantics the corpus does not pin down on random data."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from corpus import context
from xdsl.parser import Parser
from xdsl.utils.exceptions import InterpretationError

from loopopt.interp.runner import INTERPRETERS, interpreter_functions, run_function


def _module(text: str):
    module = Parser(context(), text).parse_module()
    module.verify()
    return module


MINMAX = _module("""
func.func @mm(%x: !df.array<f32, [i]>) -> (f32, f32) {
  %z = arith.constant 0.0 : f32
  %lo, %hi = df.reduce min(%x, %z), max(%x, %z) over [i] : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32, f32
  func.return %lo, %hi : f32, f32
}
func.func @overflow(%x: !df.array<f32, [i]>, %y: !df.array<i32, [i]>) -> (!df.array<f32, [i]>, i32) {
  %big = arith.constant 3.0e38 : f32
  %z = arith.constant 0 : i32
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %big : f32
    %q = arith.subf %p, %p : f32
    df.yield %q : f32
  }
  %s = df.reduce add(%y, %z) over [i] : !df.array<i32, [i]> -> i32
  func.return %m, %s : !df.array<f32, [i]>, i32
}
func.func @zip(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %m = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    df.yield %s : f32
  }
  func.return %m : !df.array<f32, [i]>
}
func.func @rand(%n: i64) -> (!df.array<f64, [i]>, !df.array<f64, [i]>) {
  %a = df.random %n : !df.array<f64, [i]>
  %b = df.random %n : !df.array<f64, [i]>
  func.return %a, %b : !df.array<f64, [i]>, !df.array<f64, [i]>
}
func.func @range(%s: i64) -> !df.array<i64, [i]> {
  %r = df.range %s, %s, %s : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
""")


def test_float_min_max_propagate_nan_and_empty_gives_init():
    lo, hi = run_function(MINMAX, "mm", np.array([1, np.nan, -2], np.float32))
    assert np.isnan(lo) and np.isnan(hi) and lo.dtype == np.float32
    lo, hi = run_function(MINMAX, "mm", np.array([], np.float32))
    assert lo == 0 and hi == 0 and lo.dtype == np.float32


def test_numpy_warnings_do_not_leak():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m, s = run_function(MINMAX, "overflow", np.array([10, 1], np.float32),
                            np.array([2**31 - 1, 1], np.int32))
    assert np.isnan(m[0]) and m[1] == 0
    assert s == np.int32(-2**31)  # wraps in i32


def test_domain_extents_must_agree():
    with pytest.raises(InterpretationError, match="different extents"):
        run_function(MINMAX, "zip", np.zeros(3, np.float32), np.zeros(4, np.float32))


def test_random_draws_fresh_values_deterministically():
    a, b = run_function(MINMAX, "rand", 16)
    assert not np.array_equal(a, b) and np.all((0 <= a) & (a < 1))
    a2, _ = run_function(MINMAX, "rand", 16)
    np.testing.assert_array_equal(a, a2)  # each interpreter starts from seed 0


def test_range_rejects_zero_step():
    with pytest.raises(InterpretationError, match="step must not be 0"):
        run_function(MINMAX, "range", 0)


def test_runner_registers_every_existing_interpreter_module():
    found = {type(f).__module__ for f in interpreter_functions()}
    assert "loopopt.interp.df" in found
    assert found <= set(INTERPRETERS.values())


FUSED = _module("""
func.func @fused(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>, %m: !df.array<i32, [i, j]>)
    -> (i64, i32, !df.array<i64, [k]>, !df.array<i32, [i]>, !df.array<i64, [i]>) {
  %z = arith.constant 0 : i32
  %zl = arith.constant 0 : i64
  %lo = arith.constant -100000 : i32
  %two = arith.constant 2 : i32
  %s, %t = df.reduce(%x, %y) add(%zl), custom(%lo) over [i] : !df.array<i32, [i]>, !df.array<i32, [i]> -> i64, i32 where {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi sgt, %a, %z : i32
    df.yield %c : i1
  } map {
  ^bb0(%a: i32, %b: i32):
    %p = arith.muli %a, %b : i32
    %w = arith.extsi %p : i32 to i64
    %d = arith.divsi %b, %a : i32
    df.yield %w, %d : i64, i32
  } {
  ^bb0(%acc: i32, %v: i32):
    %n = arith.maxsi %acc, %v : i32
    df.yield %n : i32
  }
  %k = df.filter %x : !df.array<i32, [i]> -> !df.array<i64, [k]> {
  ^bb0(%a: i32):
    %r = arith.remsi %a, %two : i32
    %c = arith.cmpi eq, %r, %z : i32
    df.yield %c : i1
  } map {
  ^bb0(%a: i32):
    %w = arith.extsi %a : i32 to i64
    %q = arith.muli %w, %w : i64
    df.yield %q : i64
  }
  %p = df.scan(%x, %y) max(%lo) : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> map {
  ^bb0(%a: i32, %b: i32):
    %d = arith.subi %a, %b : i32
    df.yield %d : i32
  }
  %r = df.reduce(%m) add(%zl) over [j] : !df.array<i32, [i, j]> -> !df.array<i64, [i]> map {
  ^bb0(%a: i32):
    %w = arith.extsi %a : i32 to i64
    df.yield %w : i64
  }
  func.return %s, %t, %k, %p, %r : i64, i32, !df.array<i64, [k]>, !df.array<i32, [i]>, !df.array<i64, [i]>
}
""")


@pytest.mark.parametrize("n", [0, 1, 9, 100])
def test_fused_forms_equal_their_unfused_chains(n):
    """where masks first; the map prologue runs on kept elements only (its divsi of a
    dropped element, x <= 0, would change the custom max that the check below compares), lane-wise; filter-with-map maps the kept elements; scan and partial
    reduce read the prologue's values."""
    rng = np.random.default_rng(n)
    x = rng.integers(-50, 50, n, dtype=np.int32)
    x[::3] = 0
    y = rng.integers(-50, 50, n, dtype=np.int32)
    m = rng.integers(-1000, 1000, (n, 3), dtype=np.int32)
    s, t, k, p, r = run_function(FUSED, "fused", x, y, m)
    keep = x > 0
    xs, ys = x[keep], y[keep]
    assert s == np.sum((xs * ys).astype(np.int64)) and s.dtype == np.int64
    quot = np.trunc(ys / xs).astype(np.int32)
    assert t == max([-100000, *quot.tolist()]) and t.dtype == np.int32
    even = x[x % 2 == 0].astype(np.int64)
    np.testing.assert_array_equal(k, even * even)
    assert k.dtype == np.int64
    np.testing.assert_array_equal(p, np.maximum.accumulate(np.concatenate([[-100000], x - y]))[1:].astype(np.int32))
    np.testing.assert_array_equal(r, m.astype(np.int64).sum(axis=1))
    assert r.dtype == np.int64
