"""The fuzzer's numpy evaluator on hand-checked programs and integer/float corner cases."""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.tools.fuzz.compare import compare_results
from loopopt.tools.fuzz.evaluate import Ref, cast, evaluate, fma_sites, int_div, shift
from loopopt.tools.fuzz.program import (
    Arg,
    Const,
    Filter,
    Fold,
    Input,
    Kernel,
    Map,
    Op,
    Param,
    Range,
    Reduce,
    Scalar,
    Scan,
    Select,
)

I32 = np.int32
MIN32, MAX32 = -(2**31), 2**31 - 1


def test_integer_division_semantics() -> None:
    a = np.array([7, -7, 7, -7, MIN32, MIN32, 5, 0], I32)
    b = np.array([2, 2, -2, -2, -1, 0, 0, 0], I32)
    assert int_div(a, b, "i32", rem=False).tolist() == [3, -3, -3, 3, MIN32, 0, 0, 0]
    assert int_div(a, b, "i32", rem=True).tolist() == [1, -1, 1, -1, 0, 0, 0, 0]


def test_shift_semantics() -> None:
    a = np.array([1, 1, -8, -8, 1, -1, 3], I32)
    b = np.array([31, 32, 1, 40, -1, 33, 0], I32)
    assert shift(a, b, "i32", left=True).tolist() == [MIN32, 0, -16, 0, 0, 0, 3]
    assert shift(a, b, "i32", left=False).tolist() == [0, 0, -4, -1, 0, -1, 3]


def test_fptosi_saturates_and_nan_is_zero() -> None:
    x = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, -2.9, 2.9, -2147483648.0], np.float32)
    assert cast(x, "f32", "i32").tolist() == [0, MAX32, MIN32, MAX32, MIN32, -2, 2, MIN32]
    big = np.array([9.3e18, -9.3e18, 2.0**63], np.float64)
    assert cast(big, "f64", "i64").tolist() == [2**63 - 1, -(2**63), 2**63 - 1]


def _kernel(nodes, results) -> Kernel:
    return Kernel("k", tuple(nodes), tuple(results))


def test_filter_map_reduce_program() -> None:
    # sum(x[x > 0] * 3) + 10 (integers) and the filtered array itself
    x = Arg(0, "i32")
    k = _kernel(
        [
            Input("i32"),
            Filter((0,), Op("cmp:sgt", (x, Const(0, "i32")), "i1"), "k0"),
            Map((1,), Op("mul", (x, Const(3, "i32")), "i32")),
            Reduce("add", 2, Const(10, "i32")),
        ],
        [3, 1],
    )
    data = np.array([1, -2, 5, 0, 7], I32)
    s, kept = evaluate(k, {0: data})
    assert s.value == np.int32(10 + 3 * 13)
    assert kept.value.tolist() == [1, 5, 7]


def test_scan_fold_select_range_rank2() -> None:
    e = Arg(0, "f64")
    k = _kernel(
        [
            Input("f64"),  # 0
            Scan("max", 0, Const(-np.inf, "f64")),  # 1: running max
            Fold((0,), (Const(0.0, "f64"), Const(0, "i64")),  # 2: horner and count
                 (Op("add", (Op("mul", (Arg(0, "f64"), Const(2.0, "f64")), "f64"), Arg(2, "f64")), "f64"),
                  Op("add", (Arg(1, "i64"), Const(1, "i64")), "i64"))),  # fmt: skip
            Param("i1"),  # 3
            Select(3, 0, 1, scalar_cond=True),  # 4
            Param("i64", "start"),  # 5
            Param("i64", "end"),  # 6
            Param("i64", "step"),  # 7
            Range(5, 6, 7, zipped=True),  # 8
            Map((0, 8), Op("sub", (e, Op("cast", (Arg(1, "i64"),), "f64")), "f64")),  # 9
        ],
        [1, 2, 4, 9],
    )
    x = np.array([1.0, 3.0, 2.0, np.nan, 0.5])
    args = {0: x, 3: np.bool_(False), 5: np.int64(10), 6: np.int64(0), 7: np.int64(-2)}
    scan, horner, sel, shifted = evaluate(k, args)
    np.testing.assert_array_equal(scan.value, [1.0, 3.0, 3.0, np.nan, np.nan])
    assert np.isnan(horner.value)  # the NaN element poisons the fold
    np.testing.assert_array_equal(sel.value, scan.value)
    np.testing.assert_array_equal(shifted.value, x - np.array([10, 8, 6, 4, 2]))

    m = _kernel([Input("i32", 2, (), 3), Reduce("add", 0, Const(1, "i32"), over=("j",)),
                 Reduce("max", 0, Const(MIN32, "i32"), over=("i",))], [1, 2])  # fmt: skip
    mat = np.arange(6, dtype=I32).reshape(2, 3)
    rows, cols = evaluate(m, {0: mat})
    assert rows.value.tolist() == [1 + 3, 1 + 12] and cols.value.tolist() == [3, 4, 5]


def test_float_sum_in_order_and_reassoc_bound() -> None:
    big = np.float32(1e8)
    x = np.array([big, 1.0, -big, 1.0], np.float32)
    k = _kernel([Input("f32"), Reduce("add", 0, Const(0.0, "f32"))], [1])
    (ordered,) = evaluate(k, {0: x})
    assert ordered.value == np.float32(1.0)  # (1e8 + 1) rounds to 1e8, then -1e8, + 1
    kr = _kernel([Input("f32"), Reduce("add", 0, Const(0.0, "f32"), reassoc=True)], [1])
    (free,) = evaluate(kr, {0: x})
    assert free.bound is not None and free.bound >= 2.0
    assert compare_results([free], None, (np.float32(0.0),)) is None
    assert compare_results([free], None, (np.float32(1e3),)) is not None
    assert compare_results([ordered], None, (np.float32(2.0),)) is not None


def test_min_max_nan_and_zero_sign() -> None:
    a, b = Arg(0, "f32"), Arg(1, "f32")
    k = _kernel([Input("f32"), Input("f32"), Map((0, 1), Op("min", (a, b), "f32"))], [2])
    x = np.array([np.nan, 1.0, -0.0, 2.0], np.float32)
    y = np.array([1.0, np.nan, 0.0, -3.0], np.float32)
    (r,) = evaluate(k, {0: x, 1: y})
    assert np.isnan(r.value[:2]).all() and r.value[3] == -3.0
    assert r.taint.tolist() == [False, False, True, False]  # min(-0, +0): either zero
    assert compare_results([r], None, (np.array([np.nan, np.nan, 0.0, -3.0], np.float32),)) is None
    assert compare_results([r], None, (np.array([np.nan, 1.0, 0.0, -3.0], np.float32),)) is not None


def test_exact_compare_distinguishes_zero_signs() -> None:
    ref = Ref(np.array([0.0, 1.0], np.float32), np.zeros(2, bool))
    assert compare_results([ref], None, (np.array([-0.0, 1.0], np.float32),)) is not None
    assert compare_results([ref], None, (np.array([0.0, 1.0], np.float32),)) is None


def test_fma_site_is_evaluated_fused() -> None:
    a, b, c = Arg(0, "f32"), Arg(1, "f32"), Arg(2, "f32")
    k = _kernel([Input("f32"), Input("f32"), Input("f32"),
                 Map((0, 1, 2), Op("add", (Op("mul", (a, b), "f32"), c), "f32"))], [3])  # fmt: skip
    assert len(fma_sites(k)) == 1
    x = np.array([1 + 2**-12], np.float32)
    args = {0: x, 1: x, 2: np.array([-1.0], np.float32)}
    (plain,) = evaluate(k, args)
    (fused,) = evaluate(k, args, fma=True)
    assert plain.value[0] == np.float32(2**-11)  # the 2**-24 of the product is rounded away
    assert fused.value[0] == np.float32(2**-11 + 2**-24)
    # a compiled result may be either one, nothing else
    assert compare_results([plain], [fused], (fused.value,)) is None
    assert compare_results([plain], [fused], (plain.value,)) is None
    assert compare_results([plain], None, (fused.value,)) is not None
    # across a map boundary (fusion brings the product to the add) and in a sequential sum
    k2 = _kernel([Input("f32"), Input("f32"), Map((0, 1), Op("mul", (a, b), "f32")),
                  Reduce("add", 2, Const(-1.0, "f32"))], [3])  # fmt: skip
    assert len(fma_sites(k2)) == 1
    (p2,) = evaluate(k2, args)
    (f2,) = evaluate(k2, args, fma=True)
    assert p2.value == plain.value[0] and f2.value == fused.value[0]


def test_captured_scalar_and_copysign_taint() -> None:
    x = Arg(0, "f64")
    k = _kernel([Input("f64"), Reduce("max", 0, Const(-np.inf, "f64")),
                 Map((0,), Op("copysign", (Op("sub", (x, Scalar(1, "f64")), "f64"), x), "f64"))], [2])  # fmt: skip
    (r,) = evaluate(k, {0: np.array([1.0, -4.0, np.nan])})
    assert np.isnan(r.value).all()  # the max is NaN, so every x - max is
    assert r.taint.tolist() == [False, False, True]  # copysign from a NaN's sign bit


def test_custom_reduce_over_one_axis_of_rank2_keeps_the_other() -> None:
    # regression: a custom step that ignores both its arguments still gives one value per column
    m = _kernel([Input("i64", 2, (), 3, rows_n=False), Reduce("custom", 0, Const(-626, "i64"), over=("i",),
                 body=Const(0, "i64"))], [1])  # fmt: skip
    (r,) = evaluate(m, {0: np.zeros((3, 0), np.int64)})
    assert r.value.shape == (0,)
    (r,) = evaluate(m, {0: np.ones((3, 4), np.int64)})
    assert r.value.tolist() == [0, 0, 0, 0]
    (empty,) = evaluate(m, {0: np.ones((0, 4), np.int64)})
    assert empty.value.tolist() == [-626] * 4


def test_reassoc_sum_whose_finite_terms_overflow_is_open() -> None:
    # regression (fuzz-out mismatch_sse2): inf + (-max) + (-max) is inf in order, NaN when the
    # two -max are added first (SSE2 / NEON lanes) — both are sums of the same terms
    big = np.finfo(np.float64).max
    k = _kernel([Input("f64"), Reduce("add", 0, Const(2.0, "f64"), reassoc=True)], [1])
    (r,) = evaluate(k, {0: np.array([np.inf, -big, -big, 1.0])})
    assert compare_results([r], None, (np.float64(np.nan),)) is None
    assert compare_results([r], None, (np.float64(np.inf),)) is None
    # without an overflow the infinities decide exactly
    (exact,) = evaluate(k, {0: np.array([np.inf, -1.0, 5.0])})
    assert exact.value == np.inf
    assert compare_results([exact], None, (np.float64(np.nan),)) is not None


def test_filter_with_a_tainted_predicate_has_an_open_length() -> None:
    # regression (fuzz-out mismatch_neon): copysign(x, NaN) depends on the NaN's sign bit, which
    # x86 and AArch64 set differently, so the filter's count is open, and so is a sum of it
    x = Arg(0, "f32")
    k = _kernel(
        [
            Input("f32"),
            Reduce("add", 0, Const(-2.5, "f32")),
            Filter((0,), Op("cmp:ogt", (Op("copysign", (x, Scalar(1, "f32")), "f32"), Const(0.0, "f32")), "i1"), "k0"),
            Reduce("add", 2, Const(0.0, "f32")),
        ],
        [2, 3],
    )
    kept, total = evaluate(k, {0: np.array([1.0, np.nan, 2.0], np.float32)})
    assert kept.open and total.taint.all()
    assert compare_results([kept, total], None, (np.array([1.0, 2.0], np.float32), np.float32(3.0))) is None
    kept, total = evaluate(k, {0: np.array([1.0, -3.0, 2.0], np.float32)})
    assert not kept.open and kept.value.tolist() == [] and total.value == 0.0
    assert compare_results([kept, total], None, (np.array([1.0], np.float32), np.float32(0.0))) is not None


# --------------------------------------------------------------------------- session 20 constructs


def test_unsigned_ops_against_python_integers() -> None:
    from loopopt.tools.fuzz.evaluate import binary, compare

    for dt, w in (("i8", 8), ("i16", 16), ("i64", 64)):
        t = np.dtype(f"int{w}")
        vals = [0, 1, -1, 2, 3, 7, w - 1, w, w + 1, -(2 ** (w - 1)), 2 ** (w - 1) - 1, -2]
        a = np.array([x for x in vals for _ in vals], t)
        b = np.array([y for _ in vals for y in vals], t)
        ua, ub = [int(x) % 2**w for x in a], [int(y) % 2**w for y in b]

        def signed(u: int) -> int:
            return u - 2**w if u >= 2 ** (w - 1) else u

        want = {
            "udiv": [signed(x // y) if y else 0 for x, y in zip(ua, ub)],
            "urem": [signed(x % y) if y else 0 for x, y in zip(ua, ub)],
            "umin": [signed(min(x, y)) for x, y in zip(ua, ub)],
            "umax": [signed(max(x, y)) for x, y in zip(ua, ub)],
            "ushr": [signed(x >> y) if y < w else 0 for x, y in zip(ua, ub)],
        }
        for name, expected in want.items():
            got, _ = binary(name, a, b, dt)
            assert got.dtype == t and got.tolist() == expected, (dt, name)
        assert compare("ult", a, b, False).tolist() == [x < y for x, y in zip(ua, ub)]
        assert compare("uge", a, b, False).tolist() == [x >= y for x, y in zip(ua, ub)]


def test_unsigned_conversions() -> None:
    x = np.array([np.nan, -np.inf, -1.0, -0.5, 0.0, 1.9, 255.0, 255.9, 256.0, np.inf], np.float32)
    assert cast(x, "f32", "i8", True).tolist() == [0, 0, 0, 0, 0, 1, -1, -1, -1, -1]  # [0, 255] as i8 bits
    assert cast(x, "f32", "i8").tolist() == [0, -128, -1, 0, 0, 1, 127, 127, 127, 127]
    big = np.array([2.0**64, 2.0**63, 2.0**63 + 2048, 1.5e19, -3.0], np.float64)
    assert cast(big, "f64", "i64", True).astype(np.uint64).tolist() == [2**64 - 1, 2**63, 2**63 + 2048, 15 * 10**18, 0]
    assert cast(np.array([-1, 5], np.int8), "i8", "f32", True).tolist() == [255.0, 5.0]
    assert cast(np.array([-1], np.int64), "i64", "f32", True).tolist() == [2.0**64]
    assert cast(np.array([-1, 3], np.int16), "i16", "i64", True).tolist() == [65535, 3]
    assert cast(np.array([-1, True], np.bool_), "i1", "i32", True).tolist() == [1, 1]


def test_bf16_rounding_matches_ml_dtypes_where_it_rounds_once() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    from loopopt.tools.fuzz.evaluate import round_to_bf16

    rng = np.random.default_rng(5)
    bits = np.concatenate([
        rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32),
        (np.arange(2**16, dtype=np.uint32) << 16) | 0x8000,  # every tie
        (np.arange(2**16, dtype=np.uint32) << 16) | 0x7FFF,
        np.array([0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x00000001, 0x80008000, 0x7F800000], np.uint32),
    ])  # fmt: skip
    x = bits.view(np.float32)
    got = round_to_bf16(x).astype(np.float32)
    with np.errstate(all="ignore"):
        want = x.astype(ml_dtypes.bfloat16).astype(np.float32)
    nan = np.isnan(x)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
    # f64 -> bf16 rounds twice, through f32 (docs/design.md): 1 + 2^-8 + 2^-30 becomes the
    # f32 tie 1 + 2^-8, then 1.0 (rounded once it would be 1 + 2^-7)
    d = np.array([1.0 + 2.0**-8 + 2.0**-30], np.float64)
    assert cast(d, "f64", "bf16").astype(np.float32).tolist() == [1.0]


def test_f16_conversions_round_once() -> None:
    """f32 and f64 -> f16 round to nearest even once (targets/c_part.py `lo_f64_to_f16`; through
    f32 the f64 value below would round twice), past 65504 to inf; f16 -> f32/f64 is exact."""
    d = np.array([1.0 + 2.0**-11 + 2.0**-40, 65520.0, -65519.0, 2.0**-25, 2.0**-25 + 2.0**-40, np.nan], np.float64)
    got = cast(d, "f64", "f16")
    assert got.dtype == np.float16
    assert got[:5].tolist() == [1.0 + 2.0**-10, np.inf, -65504.0, 0.0, 2.0**-24]
    assert np.isnan(got[5])
    assert cast(np.array([1.0 + 2.0**-11], np.float32), "f32", "f16").tolist() == [1.0]  # a tie: to even
    bits = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    wide = cast(bits, "f16", "f64")
    ok = ~np.isnan(bits)
    assert wide.dtype == np.float64 and np.array_equal(cast(wide, "f64", "f16")[ok].view(np.uint16), bits[ok].view(np.uint16))


def test_gather_umin_scan_and_bool_fold_program() -> None:
    from loopopt.tools.fuzz.program import Gather

    k = _kernel(
        [
            Input("i8", axis="j"),  # 0: x (axis j)
            Input("i64", index=True),  # 1: idx
            Gather(0, 1),  # 2: x[idx], 0 out of bounds
            Scan("umin", 2, Const(-1, "i8")),  # 3: running unsigned min from 255
            Reduce("umax", 2, Const(0, "i8")),  # 4
            Map((2,), Op("cmp:ult", (Arg(0, "i8"), Const(100, "i8")), "i1")),  # 5
            Fold((5,), (Const(1, "i1"),), (Op("and", (Arg(0, "i1"), Arg(1, "i1")), "i1"),)),  # 6: all < 100
        ],
        [2, 3, 4, 6],
    )
    x = np.array([10, -56, 120, 3], np.int8)  # -56 is 200 unsigned
    idx = np.array([1, 7, -1, 2, 0, 3, 4], np.int64)
    g, run, top, small = evaluate(k, {0: x, 1: idx})
    assert g.value.tolist() == [-56, 0, 0, 120, 10, 3, 0]
    assert run.value.tolist() == [-56, 0, 0, 0, 0, 0, 0]
    assert top.value == np.int8(-56)
    assert not small.value
