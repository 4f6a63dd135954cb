"""A scan whose output the same kernel reads again (a filter or a fold of the running values):
loop-parallelize fixes a scan's chunks up only after every loop of the kernel ran, so such a
kernel must stay serial (PAR_REJECT_SCAN). loop-fuzz seed 2525 found the split form: a filter
of a min scan read chunk 1's values before the fix-up (`[256] want -4.08e16 got -3.0`)."""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import CHUNK, pipeline

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import threads

SOURCE = """
func.func @min_then_filter(%x: !df.array<f64, [i]>) -> (!df.array<f64, [k]>, !df.array<f64, [i]>) {
  %init = arith.constant 1.0e-40 : f64
  %s = df.scan min(%x, %init) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  %f = df.filter %s : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %z = arith.constant -2.0 : f64
    %p = arith.cmpf olt, %e, %z : f64
    df.yield %p : i1
  }
  func.return %f, %s : !df.array<f64, [k]>, !df.array<f64, [i]>
}

func.func @cumsum_then_max(%x: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, i32) {
  %z = arith.constant 0 : i32
  %s = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  %lo = arith.constant -2147483648 : i32
  %m = df.reduce max(%s, %lo) over [i] : !df.array<i32, [i]> -> i32
  func.return %s, %m : !df.array<i32, [i]>, i32
}
"""
SIZES = (0, 1, 7, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 3, 5 * CHUNK + 17, 1009)


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


def test_a_reread_scan_stays_serial_with_a_remark():
    k = loopopt_compile(SOURCE, target="avx2", pipeline=pipeline("avx2", -1, chunk=CHUNK, min_elements=0))
    assert not any("loop.parallel" in f.attributes for f in k.module.ops)


@pytest.mark.parametrize("isa", isa_params(("scalar", "avx2", "avx512")))
def test_a_reread_scan_matches_numpy_on_threads(isa):
    k = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, -1, chunk=CHUNK, min_elements=0))
    rng = np.random.default_rng(2525)
    for n in SIZES:
        x = rng.normal(0, 4, n)
        xi = rng.integers(-50, 60, n).astype(np.int32)
        run_min = np.minimum.accumulate(np.minimum(x, 1e-40)) if n else x
        cumsum = np.cumsum(xi, dtype=np.int32)
        for nt in (1, 2, 3, 4):
            loopopt.set_num_threads(nt)
            kept, s = k.outputs_and_results("min_then_filter", x)[:2]
            assert s.tobytes() == run_min.tobytes(), (isa, n, nt)
            assert kept.tobytes() == run_min[run_min < -2.0].tobytes(), (isa, n, nt)
            s, m = k.outputs_and_results("cumsum_then_max", xi)[:2]
            assert s.tobytes() == cumsum.tobytes(), (isa, n, nt)
            assert m == (cumsum.max() if n else -(2**31)), (isa, n, nt)
