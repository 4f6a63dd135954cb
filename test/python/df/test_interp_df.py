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
