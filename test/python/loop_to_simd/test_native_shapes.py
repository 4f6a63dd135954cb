"""The lowering's run-time choices, compiled and run natively: streaming stores (peeled to the
output's alignment) above `stream_bytes`, whole-vector compaction stores inside the capacity.

`run_compiled` puts every buffer in a canary-filled allocation at an element offset, so a peel
that misses the alignment faults (aligned streaming stores) and a store past an output fails."""

from __future__ import annotations

import numpy as np
import pytest

import loopopt
from loopopt.dialects import simd
from loopopt.tools.loop_run import run_compiled


def isa_params(isas):
    return [pytest.param(isa, marks=pytest.mark.isa(isa), id=isa) for isa in isas]

AXPB = """
func.func @axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}
"""

FILTER_SCALE = """
func.func @pos(%x: !df.array<i32, [i]>, %a: i32) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %m = arith.muli %a, %e : i32
    df.yield %m : i32
  }
  func.return %y : !df.array<i32, [k]>
}
"""


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
def test_streamed_map_output_is_exact_at_every_offset(isa):
    compiled = loopopt.compile(AXPB, target=isa, pipeline=f"loop-pipeline{{target={isa} stream_bytes=64}}")
    assert "_mm_sfence();" in compiled.c_source and "_stream_ps(" in compiled.c_source
    rng = np.random.default_rng(0)
    for n in (0, 1, 15, 16, 17, 63, 64, 65, 200, 1000, 4099):
        x = rng.standard_normal(n).astype(np.float32)
        expected = np.float32(1.5) * x  # a*x + b, contracted or not: b = 0 keeps it exact
        for offset in (0, 1, 3):
            (got,) = run_compiled(compiled, "axpb", [x, np.float32(1.5), np.float32(0)], offset)
            np.testing.assert_array_equal(got, expected, err_msg=f"n={n} offset={offset}")


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_compaction_is_exact_with_whole_vector_stores(isa):
    compiled = loopopt.compile(FILTER_SCALE, target=isa)
    assert any(isinstance(op, simd.CompressStoreOp) and op.full is not None for op in compiled.module.walk())
    rng = np.random.default_rng(1)
    for n in (0, 1, 3, 4, 5, 8, 9, 31, 32, 33, 67, 1000):
        x = rng.integers(-1000, 1000, n, dtype=np.int32)
        for offset in (0, 1):
            (got,) = run_compiled(compiled, "pos", [x, np.int32(3)], offset)
            np.testing.assert_array_equal(got, np.int32(3) * x[x > 0], err_msg=f"n={n} offset={offset}")
