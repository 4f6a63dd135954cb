"""A simd kernel parsed from text and run by loopopt's interpreter, arith lane-wise around it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.parser import Parser

from loopopt.dialects.loop import Loop
from loopopt.dialects.simd import Simd
from loopopt.interp.runner import make_interpreter

KERNEL = """
func.func @tail(%x : !loop.buf<f32>, %out : !loop.buf<f32>, %n : index) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %m = simd.prefix_mask %n : vector<8xi1>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %v = simd.masked_load %x[%c0], %m, %zero : !loop.buf<f32>, vector<8xi1> -> vector<8xf32>
  %two = arith.constant 2.0 : f32
  %b = simd.broadcast %two : f32 -> vector<8xf32>
  %sq = arith.mulf %v, %v : vector<8xf32>
  %f = simd.fma %sq, %b, %v : vector<8xf32>
  %pos = simd.cmp <ogt> %f, %zero : vector<8xf32> -> vector<8xi1>
  %keep = arith.andi %pos, %m : vector<8xi1>
  %count = simd.compress_store %f, %keep, %out[%c0] : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  %sum = simd.hreduce <add> %f : vector<8xf32> -> f32
  func.return %sum, %count : f32, index
}
"""


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, func.Func, Loop, Simd):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


@pytest.mark.parametrize("n", [0, 1, 5, 7, 8])
def test_masked_tail_filter_and_sum(n):
    x = np.array([0.5, -2.0, -0.25, 3.0, 1.0, -1.0, 2.0, 0.125][:n], np.float32)
    out = np.full(n, np.nan, np.float32)
    module = parse(KERNEL)
    total, count = make_interpreter(module).call_op("tail", (x, out, np.int64(n)))
    f = 2 * x * x + x  # exact in f32 for these inputs
    kept = f[f > 0]
    assert count == len(kept)
    np.testing.assert_array_equal(out[:count], kept)
    assert np.isnan(out[count:]).all()  # nothing written past the kept elements
    assert total == np.float32(f.sum())
