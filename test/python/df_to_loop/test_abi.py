"""The kernel ABI attributes convert-df-to-loop writes, read back by lowering/abi.py."""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import lower, parse

from loopopt.lowering.abi import call_loop_kernel, find_kernel, kernel_signature
from loopopt.runtime.signature import ArrayParam, ScalarParam

SOURCE = """
func.func @scaled_positive(%x: !df.array<f32, [i]>, %s: f32) -> (f32, !df.array<f32, [k]>) {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.mulf %e, %s : f32
    df.yield %d : f32
  }
  %t = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %t, %y : f32, !df.array<f32, [k]>
}

func.func @swap(%p: !df.array<!df.record<x: i32, y: i32>, [i]>) -> !df.array<!df.record<x: i32, y: i32>, [i]> {
  %q = df.map %p : !df.array<!df.record<x: i32, y: i32>, [i]> -> !df.array<!df.record<x: i32, y: i32>, [i]> {
  ^bb0(%e: !df.record<x: i32, y: i32>):
    %x = df.field %e["x"] : !df.record<x: i32, y: i32> -> i32
    %y = df.field %e["y"] : !df.record<x: i32, y: i32> -> i32
    %r = df.make_records %y, %x : i32, i32 -> !df.record<x: i32, y: i32>
    df.yield %r : !df.record<x: i32, y: i32>
  }
  func.return %q : !df.array<!df.record<x: i32, y: i32>, [i]>
}

func.func @col_sums(%m: !df.array<i64, [i, j]>) -> !df.array<i64, [j]> {
  %z = arith.constant 0 : i64
  %r = df.reduce add(%m, %z) over [i] : !df.array<i64, [i, j]> -> !df.array<i64, [j]>
  func.return %r : !df.array<i64, [j]>
}

func.func @iota(%n: i64) -> !df.array<i64, [r]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %n, %one : !df.array<i64, [r]>
  func.return %idx : !df.array<i64, [r]>
}
"""


@pytest.fixture(scope="module")
def module():
    return lower(parse("abi.mlir", SOURCE), fuse=False)


def test_filter_kernel_signature(module):
    sig = kernel_signature(find_kernel(module, "scaled_positive"))
    assert sig.params == (
        ArrayParam("x", "f32", 1, False, axes=("i",)),
        ScalarParam("s", "f32"),
        ArrayParam("out", "f32", 1, True, axes=("k",), capacity="i", count_result=1),
    )
    assert sig.results == ("f32", "i64")
    assert sig.c_declaration() == (
        "void scaled_positive(const float *restrict, int64_t, float, float *restrict, int64_t, "
        "float *restrict, int64_t *restrict);"
    )


def test_call_filter_kernel_trims_to_count(module):
    x = np.array([1.0, -2.0, 3.0, 0.0, 5.0], np.float32)
    total, y = call_loop_kernel(module, "scaled_positive", [x, np.float32(2)])
    assert total == np.float32(7.0)
    np.testing.assert_array_equal(y, np.array([2.0, 6.0, 10.0], np.float32))


def test_record_kernel_fields_are_struct_of_arrays(module):
    sig = kernel_signature(find_kernel(module, "swap"))
    assert [p.name for p in sig.params] == ["p_x", "p_y", "out_x", "out_y"]
    assert [p.output for p in sig.params] == [False, False, True, True]
    (q,) = call_loop_kernel(module, "swap", [{"x": np.arange(4, dtype=np.int32), "y": np.ones(4, np.int32)}])
    assert list(q) == ["x", "y"]
    np.testing.assert_array_equal(q["x"], np.ones(4, np.int32))
    np.testing.assert_array_equal(q["y"], np.arange(4, dtype=np.int32))


def test_partial_rank2_reduce_output_sized_by_its_axis(module):
    m = np.arange(12, dtype=np.int64).reshape(3, 4)
    (r,) = call_loop_kernel(module, "col_sums", [m])
    np.testing.assert_array_equal(r, m.sum(axis=0))
    sig = kernel_signature(find_kernel(module, "col_sums"))
    assert [(p.rank, p.axes) for p in sig.params] == [(2, ("i", "j")), (1, ("j",))]
    assert sig.output_shapes([m]) == [(4,)]


def test_output_on_a_range_axis_is_sized_by_the_kernel(module):
    """A range's axis is computed in the kernel (loop.extents): the caller sizes it by a query run."""
    (r,) = call_loop_kernel(module, "iota", [np.int64(5)])
    np.testing.assert_array_equal(r, np.arange(5))
    (r,) = call_loop_kernel(module, "iota", [np.int64(0)])
    assert r.shape == (0,)
