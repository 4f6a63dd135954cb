"""Rank-2 semantics the vector code relies on, checked against independent Python:

* named-axis broadcasting in df.map and a reduce's map prologue (the interpreter's
  `_broadcast_inputs`) against exact Python ints, i32 wrapping included;
* simd loads and stores on a rank-2 buffer address it row-major (`row * cols + col`);
* loop-interchange gives the same loop-interpreter results as the column-order nest, bit
  for bit, for an ordered float column sum (each column still adds its rows in order).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import IndexType, ModuleOp, VectorType, f32
from xdsl.interpreter import Interpreter

from loopopt.compile import make_context, parse
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import BufType
from loopopt.interp.runner import run_function
from loopopt.lowering.abi import call_loop_kernel
from loopopt.interp.simd import SimdFunctions
from loopopt.passes.loop_interchange import LoopInterchangePass

MATVEC = """
func.func @matvec(%m: !df.array<i32, [i, j]>, %v: !df.array<i32, [j]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.map %m, %v : !df.array<i32, [i, j]>, !df.array<i32, [j]> -> !df.array<i32, [i, j]> {
  ^bb0(%a: i32, %b: i32):
    %q = arith.muli %a, %b : i32
    df.yield %q : i32
  }
  %r = df.reduce add(%p, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  func.return %r : !df.array<i32, [i]>
}
func.func @center(%m: !df.array<i32, [i, j]>, %c: !df.array<i32, [i]>) -> !df.array<i32, [i, j]> {
  %r = df.map %m, %c : !df.array<i32, [i, j]>, !df.array<i32, [i]> -> !df.array<i32, [i, j]> {
  ^bb0(%a: i32, %b: i32):
    %d = arith.subi %a, %b : i32
    df.yield %d : i32
  }
  func.return %r : !df.array<i32, [i, j]>
}
"""


def _wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


@pytest.mark.parametrize("rows,cols", [(0, 3), (1, 1), (3, 7), (5, 16), (2, 33)])
def test_broadcast_matches_exact_ints(rows: int, cols: int) -> None:
    rng = np.random.default_rng(rows * 100 + cols)
    m = rng.integers(-(2**31), 2**31, (rows, cols), dtype=np.int64).astype(np.int32)
    v = rng.integers(-(2**31), 2**31, cols, dtype=np.int64).astype(np.int32)
    c = rng.integers(-(2**31), 2**31, rows, dtype=np.int64).astype(np.int32)
    module = parse(MATVEC)
    (got,) = run_function(module, "matvec", m, v)
    assert [int(x) for x in got] == [_wrap32(sum(int(a) * int(b) for a, b in zip(row, v))) for row in m]
    (centered,) = run_function(module, "center", m, c)
    assert [[int(x) for x in r] for r in centered] == [[_wrap32(int(a) - int(c[i])) for a in m[i]] for i in range(rows)]


def test_broadcast_length_mismatch_is_an_error() -> None:
    from xdsl.interpreter import InterpretationError

    with pytest.raises(InterpretationError, match="axis 'j'"):
        run_function(parse(MATVEC), "matvec", np.zeros((2, 3), np.int32), np.zeros(4, np.int32))


def test_simd_load_store_on_rank2_buffer_is_row_major() -> None:
    buf_t = BufType(f32, 2)
    b, i = xdsl_test.TestOp(result_types=[buf_t, IndexType()]).results
    m = np.arange(24, dtype=np.float32).reshape(4, 6)
    interpreter = Interpreter(ModuleOp([]))
    interpreter.register_implementations(SimdFunctions())
    load = simd.LoadOp(b, i, VectorType(f32, [4]))
    (got,) = interpreter.run_op(load, (m, 1 * 6 + 2))
    assert got.tolist() == [8.0, 9.0, 10.0, 11.0]  # row 1, columns 2..5
    store = simd.StoreOp(load.result, b, i)
    interpreter.run_op(store, (np.full(4, -1.0, np.float32), m, 2 * 6 + 1))
    assert m[2].tolist() == [12.0, -1.0, -1.0, -1.0, -1.0, 17.0]


COLSUM = """
func.func @colsum(%m: !loop.buf<f32, 2> {loop.role = "in", loop.axes = ["i", "j"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %j in [%c0, %n_j) {
    %s = loop.for %i in [%c0, %n_i) accs(%acc = %z : f32 add) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %out[%j] : !loop.buf<f32>
  }
  func.return
}
"""


@pytest.mark.parametrize("rows,cols,jam", [(0, 5, 4), (1, 1, 1), (7, 3, 4), (13, 17, 4), (9, 8, 3)])
def test_interchange_keeps_every_column_sum_bit_exact(rows: int, cols: int, jam: int) -> None:
    m = (np.random.default_rng(rows + cols).standard_normal((rows, cols)) * 1e4).astype(np.float32)
    before = parse(COLSUM)
    after = parse(COLSUM)
    LoopInterchangePass(rows=jam).apply(make_context(), after)
    fors = [op for op in after.walk() if isinstance(op, loop.ForOp)]
    assert fors and not any(op.accs.data for op in fors)  # interchanged: the accumulators are in %out
    expected = np.zeros(cols, np.float32)
    for row in m:  # sequential f32 sums, row order
        expected = (expected + row).astype(np.float32)
    for module in (before, after):
        (out,) = call_loop_kernel(module, "colsum", [m], {"j": cols})
        assert np.asarray(out, np.float32).tobytes() == expected.tobytes()
