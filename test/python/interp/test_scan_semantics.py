"""The interpreter's scan semantics, checked against independent Python: simd.slide_up /
slide_up_dup / splat_last / first_lane lane by lane, the log-step prefix they build against a running
Python sum/min/max (exact ints, wrapping), and a `scan` vecloop/predloop at several widths
against a sequential Python loop."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import ModuleOp, VectorType, f32, i32, i64
from xdsl.interpreter import Interpreter

from loopopt.compile import parse
from loopopt.dialects import simd
from loopopt.dialects.loop_attrs import AccKind
from loopopt.interp.runner import make_interpreter, run_function
from loopopt.interp.simd import SimdFunctions
from loopopt.lowering.loop_to_simd.scan import lane_prefix


def _run(op, *inputs):
    op.verify()
    interpreter = Interpreter(ModuleOp([]))
    interpreter.register_implementations(SimdFunctions())
    return interpreter.run_op(op, inputs)


@pytest.mark.parametrize("n,by", [(4, 1), (4, 2), (8, 4), (16, 8), (2, 1)])
def test_slide_up_lane_by_lane(n: int, by: int) -> None:
    v, fill = xdsl_test.TestOp(result_types=[VectorType(i32, [n])] * 2).results
    x = np.arange(100, 100 + n, dtype=np.int32)
    f = np.arange(-n, 0, dtype=np.int32)
    (got,) = _run(simd.SlideUpOp(v, fill, by), x, f)
    expected = [int(f[n - by + k]) if k < by else int(x[k - by]) for k in range(n)]
    assert got.tolist() == expected


@pytest.mark.parametrize("n,by", [(4, 1), (4, 2), (8, 1), (8, 2), (8, 4), (16, 8), (2, 1)])
def test_slide_up_dup_lane_by_lane(n: int, by: int) -> None:
    """Lane k = v[k - by], the low `by` lanes keep their own value (SSE2 pshufd 0,0,1,2 / 0,1,0,1)."""
    (v,) = xdsl_test.TestOp(result_types=[VectorType(i32, [n])]).results
    x = np.arange(100, 100 + n, dtype=np.int32)
    (got,) = _run(simd.SlideUpDupOp(v, by), x)
    assert got.tolist() == [int(x[k]) if k < by else int(x[k - by]) for k in range(n)]
    assert got.dtype == np.int32


@pytest.mark.parametrize("kind", [AccKind.MAX, AccKind.MIN, AccKind.UMAX, AccKind.UMIN, AccKind.OR, AccKind.AND])
@pytest.mark.parametrize("n", [2, 4, 8, 16])
def test_dup_prefix_is_the_running_value(kind: AccKind, n: int) -> None:
    """lane_prefix without a neutral (slide_up_dup steps) gives Python's running min/max/or/and
    for the idempotent kinds, signed and unsigned, extremes included."""
    rng = np.random.default_rng([n, 7])
    x = rng.choice(np.array([0, -1, -(2**63), 2**63 - 1, 1, 5, -5], dtype=np.int64), size=n)
    ops: list = []
    (v,) = xdsl_test.TestOp(result_types=[VectorType(i64, [n])]).results
    out = lane_prefix(kind, v, None, lambda o: ops.append(o) or o)
    assert any(isinstance(o, simd.SlideUpDupOp) for o in ops) and not any(isinstance(o, simd.SlideUpOp) for o in ops)
    interpreter = make_interpreter(ModuleOp([]))
    env = {v: x}
    for op in ops:
        (env[op.results[0]],) = interpreter.run_op(op, [env[a] for a in op.operands])
    u = lambda e: e % 2**64  # noqa: E731
    step = {AccKind.MAX: max, AccKind.MIN: min, AccKind.OR: lambda a, b: a | b, AccKind.AND: lambda a, b: a & b,
            AccKind.UMAX: lambda a, b: max(a, b, key=u), AccKind.UMIN: lambda a, b: min(a, b, key=u)}[kind]  # fmt: skip
    expected, running = [], None
    for e in x.tolist():
        running = e if running is None else step(running, e)
        expected.append(running)
    assert env[out].tolist() == expected


def test_splat_last_and_first_lane() -> None:
    (v,) = xdsl_test.TestOp(result_types=[VectorType(f32, [8])]).results
    x = np.array([1, 2, 3, 4, 5, 6, 7, np.nan], dtype=np.float32)
    (splat,) = _run(simd.SplatLastOp(v), x)
    assert np.isnan(splat).all() and len(splat) == 8
    (first,) = _run(simd.FirstLaneOp(v), x)
    assert first == np.float32(1)


@pytest.mark.parametrize("kind", [AccKind.ADD, AccKind.MAX, AccKind.MIN, AccKind.MUL])
@pytest.mark.parametrize("n", [2, 4, 8])
def test_log_step_prefix_is_the_running_value(kind: AccKind, n: int) -> None:
    """The ops lane_prefix emits, interpreted, give Python's running value (wrapping i64)."""
    rng = np.random.default_rng(n)
    x = rng.integers(-(2**62), 2**62, size=n).astype(np.int64)
    neutral = {AccKind.ADD: 0, AccKind.MUL: 1, AccKind.MAX: -(2**63), AccKind.MIN: 2**63 - 1}[kind]
    ops: list = []
    v, fill = xdsl_test.TestOp(result_types=[VectorType(i64, [n])] * 2).results
    out = lane_prefix(kind, v, fill, lambda o: ops.append(o) or o)
    interpreter = make_interpreter(ModuleOp([]))
    env = {v: x, fill: np.full(n, neutral, dtype=np.int64)}
    for op in ops:
        (env[op.results[0]],) = interpreter.run_op(op, [env[a] for a in op.operands])
    step = {AccKind.ADD: lambda a, b: a + b, AccKind.MUL: lambda a, b: a * b, AccKind.MAX: max, AccKind.MIN: min}[kind]
    running, expected = neutral, []
    for e in x.tolist():
        running = step(running, e)
        running = (running + 2**63) % 2**64 - 2**63  # i64 wraps
        expected.append(running)
    assert env[out].tolist() == expected


VECLOOP = """
func.func @f(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %s = loop.vecloop %i in [%c0, %n) width(WIDTH) tail(TAIL) accs(%acc = %z : i32 add scan) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <add> %x : i32
    %t = arith.addi %acc, %p : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}
"""

PREDLOOP = """
func.func @f(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %z: i32) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %cnt, %s = loop.predloop %i in [%c0, %n) width(WIDTH) tail(TAIL) mask(unset) accs(%acc = %z : i32 add scan) pred {
    %e = loop.load %b[%i] : !loop.buf<i32>
    %c = arith.cmpi sgt, %e, %zero : i32
    loop.yield %c : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <add> %x : i32
    %t = arith.addi %acc, %p : i32
    loop.append %t, %o : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %cnt, %s : index, i32
}
"""


@pytest.mark.parametrize("width", [1, 4, 8])
@pytest.mark.parametrize("tail", ["scalar", "masked"])
@pytest.mark.parametrize("n", [0, 1, 3, 8, 13])
def test_scan_loops_are_the_sequential_scan(width: int, tail: str, n: int) -> None:
    x = np.random.default_rng(n).integers(-50, 50, size=n).astype(np.int32)
    kept = [int(e) for e in x if e > 0]
    for text, elements in ((VECLOOP, [int(e) for e in x]), (PREDLOOP, kept)):
        module = parse(text.replace("WIDTH", str(width)).replace("TAIL", tail))
        out = np.zeros(n, np.int32)
        results = run_function(module, "f", x, out, np.int32(7))
        running, expected = 7, []
        for e in elements:
            running += e
            expected.append(running)
        assert out[: len(expected)].tolist() == expected
        assert int(results[-1]) == running
