"""Lane semantics of the simd interpreter against numpy, one op at a time."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, VectorType, f32, f64, i32, i64
from xdsl.dialects import test as xdsl_test
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from loopopt.dialects import simd
from loopopt.dialects.loop_attrs import BufType
from loopopt.interp.simd import SimdFunctions

NAN = np.nan


def vec(n: int, t: Attribute) -> VectorType:
    return VectorType(t, [n])


def mask_t(n: int) -> VectorType:
    return VectorType(IntegerType(1), [n])


def values(*types: Attribute):
    """SSA values of the given types to build an op on."""
    return xdsl_test.TestOp(result_types=types).results


def run(op: Operation, *inputs):
    op.verify()
    interpreter = Interpreter(ModuleOp([]))
    interpreter.register_implementations(SimdFunctions())
    return interpreter.run_op(op, inputs)


def aligned_view(n: int, dtype, alignment: int, shift: int = 0) -> np.ndarray:
    """A length-n view whose first element is `shift` elements past an `alignment` boundary."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(n + alignment, dtype)
    start = (-raw.ctypes.data % alignment) // itemsize + shift
    return raw[start : start + n]


# ----------------------------------------------------------------- loads and stores


def test_load_reads_lanes():
    b, i = values(BufType(f32), IndexType())
    buf = np.arange(10, dtype=np.float32)
    (v,) = run(simd.LoadOp(b, i, vec(4, f32)), buf, np.int64(3))
    np.testing.assert_array_equal(v, [3, 4, 5, 6])
    assert v.dtype == np.float32
    buf[3] = 99  # the result is a copy, not a view
    assert v[0] == 3


@pytest.mark.parametrize("index", [-1, 7])
def test_unmasked_load_out_of_bounds_is_an_error(index):
    b, i = values(BufType(f32), IndexType())
    with pytest.raises(InterpretationError, match=r"out of bounds of a buffer of length 10"):
        run(simd.LoadOp(b, i, vec(4, f32)), np.zeros(10, np.float32), np.int64(index))


def test_load_buffer_dtype_must_match():
    b, i = values(BufType(f32), IndexType())
    with pytest.raises(InterpretationError, match="buffer dtype float64"):
        run(simd.LoadOp(b, i, vec(4, f32)), np.zeros(8), np.int64(0))


def test_aligned_load_checks_alignment():
    b, i = values(BufType(f64), IndexType())
    buf = aligned_view(16, np.float64, 32)
    buf[:] = np.arange(16)
    (v,) = run(simd.LoadOp(b, i, vec(4, f64), aligned=True), buf, np.int64(4))
    np.testing.assert_array_equal(v, [4, 5, 6, 7])
    with pytest.raises(InterpretationError, match="not a multiple of 32 bytes"):
        run(simd.LoadOp(b, i, vec(4, f64), aligned=True), buf, np.int64(2))


def test_store_writes_lanes_and_nothing_else():
    v, b, i = values(vec(8, i32), BufType(i32), IndexType())
    buf = np.full(12, -1, np.int32)
    run(simd.StoreOp(v, b, i), np.arange(8, dtype=np.int32), buf, np.int64(2))
    np.testing.assert_array_equal(buf, [-1, -1, 0, 1, 2, 3, 4, 5, 6, 7, -1, -1])


def test_store_out_of_bounds_is_an_error():
    v, b, i = values(vec(8, i32), BufType(i32), IndexType())
    buf = np.zeros(12, np.int32)
    with pytest.raises(InterpretationError, match=r"elements \[5, 13\) out of bounds"):
        run(simd.StoreOp(v, b, i), np.arange(8, dtype=np.int32), buf, np.int64(5))
    assert not buf.any()


def test_nontemporal_store_is_an_aligned_store():
    v, b, i = values(vec(4, f32), BufType(f32), IndexType())
    buf = aligned_view(8, np.float32, 16)
    run(simd.StoreOp(v, b, i, aligned=True, nontemporal=True), np.ones(4, np.float32), buf, np.int64(4))
    np.testing.assert_array_equal(buf, [0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.raises(InterpretationError, match="'aligned' access at element 1"):
        run(simd.StoreOp(v, b, i, aligned=True, nontemporal=True), np.ones(4, np.float32), buf, np.int64(1))


def test_masked_load_at_the_array_end():
    b, i, m, p = values(BufType(f32), IndexType(), mask_t(8), vec(8, f32))
    buf = np.arange(10, dtype=np.float32)
    tail = np.arange(8) < 2  # lanes 8, 9 are in bounds; 10..15 are past the end
    (v,) = run(simd.MaskedLoadOp(b, i, m, p), buf, np.int64(8), tail, np.full(8, -5, np.float32))
    np.testing.assert_array_equal(v, [8, 9, -5, -5, -5, -5, -5, -5])


def test_masked_load_active_lane_out_of_bounds_is_an_error():
    b, i, m, p = values(BufType(f32), IndexType(), mask_t(8), vec(8, f32))
    with pytest.raises(InterpretationError, match="active lane 2 at element 10 out of bounds"):
        run(simd.MaskedLoadOp(b, i, m, p), np.zeros(10, np.float32), np.int64(8),
            np.arange(8) < 3, np.zeros(8, np.float32))


def test_masked_store_touches_only_active_lanes():
    v, b, i, m = values(vec(4, i64), BufType(i64), IndexType(), mask_t(4))
    buf = np.full(6, 7, np.int64)
    mask = np.array([True, False, True, False])  # lane 3 would be past the end
    run(simd.MaskedStoreOp(v, b, i, m), np.array([10, 11, 12, 13], np.int64), buf, np.int64(3), mask)
    np.testing.assert_array_equal(buf, [7, 7, 7, 10, 7, 12])


def test_compress_store_keeps_lane_order_and_returns_count():
    v, m, b, o = values(vec(8, f32), mask_t(8), BufType(f32), IndexType())
    lanes = np.arange(8, dtype=np.float32) * 10
    mask = np.array([False, True, True, False, False, True, False, True])
    buf = np.full(7, -1, np.float32)
    (n,) = run(simd.CompressStoreOp(v, m, b, o), lanes, mask, buf, np.int64(3))
    assert n == 4 and isinstance(n, np.int64)
    np.testing.assert_array_equal(buf, [-1, -1, -1, 10, 20, 50, 70])  # exactly fits, nothing past


def test_compress_store_bounds_cover_only_written_elements():
    v, m, b, o = values(vec(4, f32), mask_t(4), BufType(f32), IndexType())
    buf = np.zeros(4, np.float32)
    (n,) = run(simd.CompressStoreOp(v, m, b, o), np.ones(4, np.float32), np.zeros(4, bool), buf, np.int64(4))
    assert n == 0
    with pytest.raises(InterpretationError, match=r"elements \[3, 5\) out of bounds"):
        run(simd.CompressStoreOp(v, m, b, o), np.ones(4, np.float32),
            np.array([True, True, False, False]), buf, np.int64(3))


@pytest.mark.parametrize("limit", [-5, 0, 1, 2, 3, 8])
def test_limited_compress_store_writes_what_fits_and_counts_all(limit):
    # the exact tail of a filter whose caller's capacity is below the count: nothing at or
    # past offset + max(limit, 0); the packed lanes first, then scratch (the inactive lanes) up
    # to min(N, limit); the count stays the full active-lane count
    v, m, b, o, lim = values(vec(4, i32), mask_t(4), BufType(i32), IndexType(), IndexType())
    mask = np.array([True, False, True, True])
    buf = np.full(8, -1, np.int32)
    (n,) = run(simd.CompressStoreOp(v, m, b, o, limit=lim), np.array([1, 2, 3, 4], np.int32), mask, buf,
               np.int64(3), np.int64(limit))  # fmt: skip
    assert n == 3 and isinstance(n, np.int64)
    span = min(4, max(limit, 0))
    np.testing.assert_array_equal(buf, [-1, -1, -1, *[1, 3, 4, 2][:span], *[-1] * (5 - span)])
    # the bounds cover only the lanes it may write: at the end of the buffer with no room, nothing
    (n,) = run(simd.CompressStoreOp(v, m, b, o, limit=lim), np.zeros(4, np.int32), mask, buf, np.int64(8), np.int64(0))
    assert n == 3


def test_compress_store_verifier_rejects_a_limit_with_full():
    v, m, b, o, lim = values(vec(4, i32), mask_t(4), BufType(i32), IndexType(), IndexType())
    with pytest.raises(Exception, match="cannot take a `limit`"):
        simd.CompressStoreOp(v, m, b, o, full=True, limit=lim).verify()


def test_full_compress_store_packs_then_may_write_the_whole_vector():
    v, m, b, o = values(vec(4, i32), mask_t(4), BufType(i32), IndexType())
    buf = np.full(7, -1, np.int32)
    mask = np.array([False, True, False, True])
    (n,) = run(simd.CompressStoreOp(v, m, b, o, full=True), np.array([1, 2, 3, 4], np.int32), mask, buf, np.int64(2))
    assert n == 2
    np.testing.assert_array_equal(buf[:4], [-1, -1, 2, 4])  # the packed lanes at the offset
    assert buf[6] == -1  # nothing past the vector
    # the whole vector must be in bounds, even with one active lane
    with pytest.raises(InterpretationError, match=r"elements \[4, 8\) out of bounds"):
        run(simd.CompressStoreOp(v, m, b, o, full=True), np.zeros(4, np.int32), mask, buf, np.int64(4))


@pytest.mark.parametrize("shift", [0, 1, 5, 15])
def test_align_offset_counts_elements_to_the_boundary(shift):
    (b, i) = values(BufType(f32), IndexType())
    buf = aligned_view(40, np.float32, 64, shift)
    (p,) = run(simd.AlignOffsetOp(b, i, 64), buf, np.int64(0))
    assert p == (16 - shift) % 16 and isinstance(p, np.int64)
    (p,) = run(simd.AlignOffsetOp(b, i, 64), buf, np.int64(3))
    assert p == (16 - shift - 3) % 16
    assert (buf[int(p) + 3 :].ctypes.data % 64) == 0


def test_align_offset_needs_an_element_aligned_address():
    (b, i) = values(BufType(f32), IndexType())
    raw = np.zeros(64, np.uint8)
    odd = raw[1:33].view(np.float32)  # 4-byte elements at an odd address
    with pytest.raises(InterpretationError, match="not aligned to its 4-byte elements"):
        run(simd.AlignOffsetOp(b, i, 32), odd, np.int64(0))


def test_store_fence_is_a_no_op():
    assert run(simd.StoreFenceOp()) == ()


# ----------------------------------------------------------------- lane construction


def test_broadcast_iota_prefix_mask():
    (s,) = values(f64)
    (b,) = run(simd.BroadcastOp(s, vec(4, f64)), np.float64(2.5))
    np.testing.assert_array_equal(b, [2.5] * 4)
    assert b.dtype == np.float64
    (iota,) = run(simd.IotaOp(vec(8, i32)))
    np.testing.assert_array_equal(iota, np.arange(8))
    assert iota.dtype == np.int32
    (n,) = values(IndexType())
    for count, expected in [(-2, 0), (0, 0), (3, 3), (8, 8), (100, 8)]:
        (m,) = run(simd.PrefixMaskOp(n, mask_t(8)), np.int64(count))
        np.testing.assert_array_equal(m, np.arange(8) < expected)


# ----------------------------------------------------------------- lane-wise


@pytest.mark.parametrize("dtype, t, eps", [(np.float32, f32, 2.0**-23), (np.float64, f64, 2.0**-52)])
def test_fma_rounds_once(dtype, t, eps):
    a, b, c = values(vec(4, t), vec(4, t), vec(4, t))
    x = np.full(4, 1 + eps, dtype)
    z = np.full(4, -(1 + 2 * eps), dtype)
    unfused = x * x + z  # x*x = 1 + 2eps + eps^2 rounds to 1 + 2eps: the sum is 0
    assert not unfused.any()
    (r,) = run(simd.FmaOp(a, b, c), x, x, z)
    np.testing.assert_array_equal(r, np.full(4, eps * eps, dtype))
    assert r.dtype == dtype


def test_min_max_propagate_nan_like_numpy():
    a, b = values(vec(4, f32), vec(4, f32))
    x = np.array([NAN, 1, 2, -0.5], np.float32)
    y = np.array([1, NAN, 3, -1], np.float32)
    (lo,) = run(simd.MinOp(a, b), x, y)
    (hi,) = run(simd.MaxOp(a, b), x, y)
    np.testing.assert_array_equal(lo, [NAN, NAN, 2, -1])
    np.testing.assert_array_equal(hi, [NAN, NAN, 3, -0.5])


def test_min_max_integers_are_signed():
    a, b = values(vec(4, i64), vec(4, i64))
    x = np.array([-(2**62), 5, 0, -1], np.int64)
    y = np.array([3, -5, 0, 1], np.int64)
    np.testing.assert_array_equal(run(simd.MinOp(a, b), x, y)[0], np.minimum(x, y))
    np.testing.assert_array_equal(run(simd.MaxOp(a, b), x, y)[0], np.maximum(x, y))


@pytest.mark.parametrize("pred, expected", [
    ("olt", [True, False, False, False]),
    ("ult", [True, False, True, True]),
    ("oeq", [False, True, False, False]),
    ("une", [True, False, True, True]),
    ("ord", [True, True, False, False]),
    ("uno", [False, False, True, True]),
])
def test_cmp_float_ordered_unordered(pred, expected):
    a, b = values(vec(4, f64), vec(4, f64))
    x = np.array([1, 2, NAN, 0])
    y = np.array([2, 2, 0, NAN])
    (m,) = run(simd.CmpOp(pred, a, b), x, y)
    assert m.dtype == np.bool_
    np.testing.assert_array_equal(m, expected)


def test_cmp_int_signed():
    a, b = values(vec(4, i32), vec(4, i32))
    x = np.array([-1, 0, 5, 2**31 - 1], np.int32)
    y = np.array([1, 0, -5, -(2**31)], np.int32)
    np.testing.assert_array_equal(run(simd.CmpOp("slt", a, b), x, y)[0], [True, False, False, False])
    np.testing.assert_array_equal(run(simd.CmpOp("sge", a, b), x, y)[0], [False, True, True, True])
    np.testing.assert_array_equal(run(simd.CmpOp("ne", a, b), x, y)[0], [True, False, True, True])


def test_select_blends():
    m, a, b = values(mask_t(4), vec(4, i32), vec(4, i32))
    mask = np.array([True, False, False, True])
    (r,) = run(simd.SelectOp(m, a, b), mask, np.arange(4, dtype=np.int32), np.full(4, 9, np.int32))
    np.testing.assert_array_equal(r, [0, 9, 9, 3])
    assert r.dtype == np.int32


# ----------------------------------------------------------------- convert


def test_convert_float_to_int_truncates_toward_zero_and_saturates():
    """Truncation toward zero; out-of-range lanes saturate and NaN gives 0 (docs/integer_semantics.md)."""
    (v,) = values(vec(8, f32))
    x = np.array([1.7, -1.7, -0.5, 2.5, NAN, 3e9, -3e9, -2.0**31], np.float32)
    (r,) = run(simd.ConvertOp(v, vec(8, i32)), x)
    int_min = -(2**31)
    np.testing.assert_array_equal(r, [1, -1, 0, 2, 0, 2**31 - 1, int_min, int_min])
    assert r.dtype == np.int32


def test_convert_int_to_float_rounds_to_nearest_even():
    (v,) = values(vec(4, i64))
    x = np.array([2**24 + 1, 2**24 + 3, -(2**24 + 1), 7], np.int64)
    (r,) = run(simd.ConvertOp(v, vec(4, f32)), x)
    np.testing.assert_array_equal(r, [2**24, 2**24 + 4, -(2**24), 7])
    assert r.dtype == np.float32


def test_convert_widen_and_narrow():
    (w,) = values(vec(4, i32))
    np.testing.assert_array_equal(
        run(simd.ConvertOp(w, vec(4, i64)), np.array([-1, 2, -(2**31), 5], np.int32))[0],
        [-1, 2, -(2**31), 5])
    (n,) = values(vec(4, i64))
    np.testing.assert_array_equal(
        run(simd.ConvertOp(n, vec(4, i32)), np.array([2**32 + 3, -1, 2**31, 0], np.int64))[0],
        [3, -1, -(2**31), 0])  # keeps the low 32 bits
    (d,) = values(vec(4, f64))
    r = run(simd.ConvertOp(d, vec(4, f32)), np.array([0.1, 1e40, -1e-50, NAN]))[0]
    np.testing.assert_array_equal(r, np.array([0.1, np.inf, -0.0, NAN], np.float32))
    assert np.signbit(r[2])


# ----------------------------------------------------------------- horizontal


def test_hreduce_add_is_a_pairwise_tree():
    (v,) = values(vec(8, f32))
    x = np.array([1e8, 1, 1, 1, -1e8, 1, 1, 1], np.float32)
    sequential = np.float32(0)
    for lane in x:
        sequential = np.float32(sequential + lane)
    assert sequential == 3  # 1e8 + 1 == 1e8 in f32
    (r,) = run(simd.HReduceOp("add", v), x)
    assert r == 6 and isinstance(r, np.float32)  # ((x0+x4) + (x2+x6)) + ((x1+x5) + (x3+x7))


def test_hreduce_int_add_and_mul_wrap():
    (v,) = values(vec(4, i32))
    x = np.full(4, 2**30, np.int32)
    (s,) = run(simd.HReduceOp("add", v), x)
    assert s == 0 and isinstance(s, np.int32)
    (p,) = run(simd.HReduceOp("mul", v), np.array([2**16, 2**16, 3, 1], np.int32))
    assert p == 0
    (w,) = values(vec(2, i64))
    (s64,) = run(simd.HReduceOp("add", w), np.array([2**63 - 1, 1], np.int64))
    assert s64 == -(2**63)


def test_hreduce_min_max_propagate_nan_and_bitwise():
    (v,) = values(vec(4, f64))
    assert np.isnan(run(simd.HReduceOp("min", v), np.array([1, NAN, -3, 0.0]))[0])
    assert run(simd.HReduceOp("max", v), np.array([1, 5, -3, 0.0]))[0] == 5
    (w,) = values(vec(4, i64))
    x = np.array([0b1100, 0b1010, 0b1110, 0b1000], np.int64)
    assert run(simd.HReduceOp("and", w), x)[0] == 0b1000
    assert run(simd.HReduceOp("or", w), x)[0] == 0b1110
    assert run(simd.HReduceOp("min", w), np.array([3, -7, 0, 2], np.int64))[0] == -7


def test_mask_popcount():
    (m,) = values(mask_t(16))
    mask = np.arange(16) % 3 == 0
    (n,) = run(simd.MaskPopcountOp(m), mask)
    assert n == 6 and isinstance(n, np.int64)
