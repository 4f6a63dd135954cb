"""`Library` results with computed extents: the wrapper returns the visible results only,
`results_tuple` follows it, and `Library.call_alloc` sizes range outputs by asking the kernel."""

import numpy as np
import pytest

import loopopt
from loopopt.runtime.library import results_tuple

RANGE_KERNELS = """
func.func @sum_range_i64(%start: i64, %end: i64, %step: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %s = df.reduce add(%r, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

func.func @squares_of_range_i32(%len: i64) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %len, %one : !df.array<i64, [i]>
  %y = df.map %idx : !df.array<i64, [i]> -> !df.array<i32, [i]> {
  ^bb0(%k: i64):
    %t = arith.trunci %k : i64 to i32
    %s = arith.muli %t, %t : i32
    df.yield %s : i32
  }
  func.return %y : !df.array<i32, [i]>
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("LOOPOPT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        yield loopopt.compile(RANGE_KERNELS, target="scalar").library
    finally:
        mp.undo()


def test_results_tuple_is_the_visible_results(lib):
    sig = lib.signatures["sum_range_i64"]
    assert sig.extents and len(sig.visible_results) == 1  # the range's extent is hidden
    got = results_tuple(sig, lib["sum_range_i64"](np.int64(-3), np.int64(9), np.int64(3)))
    assert got == (np.int64(sum(range(-3, 9, 3))),)


def test_library_call_alloc_sizes_range_outputs(lib):
    assert lib.call_alloc("sum_range_i64", np.int64(-3), np.int64(9), np.int64(3)) == (np.int64(6),)
    (squares,) = lib.call_alloc("squares_of_range_i32", np.int64(7))
    np.testing.assert_array_equal(squares, (np.arange(7) ** 2).astype(np.int32))
    (empty,) = lib.call_alloc("squares_of_range_i32", np.int64(0))
    assert empty.shape == (0,)
