"""The shared reduction kind: every neutral element is neutral under its combiner on every type,
the combiner is the exact (wrapping) operation, and the three dialects' attributes keep their
spellings while sharing the one enum."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, f32, f64, i1, i32, i64
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from loopopt.compile import make_context
from loopopt.dialects import df_types, loop_attrs, simd
from loopopt.dialects.reduction_kind import ReductionKind

BUILTIN = [k for k in ReductionKind if k.is_builtin]
INT_TYPES = [i32, i64, IndexType()]
FLOAT_TYPES = [f32, f64]
NP = {f32: np.float32, f64: np.float64, i32: np.int32, i64: np.int64, IndexType(): np.int64, i1: np.bool_}


def bits(t) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data


def wrap(v: int, n: int) -> int:
    """`v` as a signed n-bit integer (what wrapping arithmetic leaves)."""
    v &= (1 << n) - 1
    return v - (1 << n) if v >> (n - 1) else v


EXACT = {
    ReductionKind.ADD: lambda a, b: a + b,
    ReductionKind.MUL: lambda a, b: a * b,
    ReductionKind.MIN: min,
    ReductionKind.MAX: max,
    # unsigned order of n-bit values (n <= 64, given signed): the order of v mod 2^64
    ReductionKind.UMIN: lambda a, b: min(a, b, key=lambda v: v % (1 << 64)),
    ReductionKind.UMAX: lambda a, b: max(a, b, key=lambda v: v % (1 << 64)),
    ReductionKind.AND: lambda a, b: a & b,
    ReductionKind.OR: lambda a, b: a | b,
}
"""The integer combiners on exact Python ints, wrapped afterwards."""


def int_samples(n: int) -> list[int]:
    lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
    return [lo, lo + 1, -(1 << 20) - 7, -2, -1, 0, 1, 2, 3, 12345, (1 << 20) + 5, hi - 1, hi]


FLOAT_SAMPLES = [-math.inf, -1e30, -2.5, -1.0, -1e-40, 0.0, 1e-40, 1.0, 3.25, 1e30, math.inf, math.nan]


def same_float(a, b) -> bool:
    """Equal to the bit (NaN equals NaN; -0.0 differs from +0.0)."""
    return np.asarray(a).tobytes() == np.asarray(b).tobytes() or (np.isnan(a) and np.isnan(b))


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
@pytest.mark.parametrize("kind", BUILTIN, ids=str)
def test_integer_neutral_is_neutral_exactly(kind, t):
    n = bits(t)
    e = kind.neutral(t)
    assert isinstance(e, int) and wrap(e, n) == e
    for x in int_samples(n):
        assert wrap(EXACT[kind](e, x), n) == x, (kind, t, x)
        assert wrap(EXACT[kind](x, e), n) == x, (kind, t, x)


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
@pytest.mark.parametrize("kind", BUILTIN, ids=str)
def test_integer_combine_is_the_wrapping_operation(kind, t):
    n, dt = bits(t), NP[t]
    xs = int_samples(n)
    for a in xs:
        got = kind.combine(t, dt(a), np.array(xs, dtype=dt))
        assert got.dtype == dt
        assert got.tolist() == [wrap(EXACT[kind](a, b), n) for b in xs], (kind, t, a)


@pytest.mark.parametrize("kind", BUILTIN, ids=str)
def test_bool_neutral_is_neutral(kind):
    e = kind.neutral(i1)
    assert isinstance(e, bool)
    exact = {ReductionKind.ADD: lambda a, b: a ^ b}.get(kind, EXACT[kind])
    for x in (False, True):
        for a, b in ((e, x), (x, e)):
            assert bool(exact(a, b)) is x
            assert bool(kind.combine(i1, np.bool_(a), np.bool_(b))) is x, (kind, a, b)
    assert [bool(kind.combine(i1, np.bool_(a), np.bool_(b))) for a in (0, 1) for b in (0, 1)] == [
        bool(exact(a, b) & 1) for a in (0, 1) for b in (0, 1)
    ]


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
@pytest.mark.parametrize("kind", [ReductionKind.ADD, ReductionKind.MUL, ReductionKind.MIN, ReductionKind.MAX], ids=str)
def test_float_neutral_is_neutral(kind, t):
    dt = NP[t]
    e = dt(kind.neutral(t))
    for x in [dt(v) for v in FLOAT_SAMPLES + [-0.0]]:
        for got in (kind.combine(t, e, x), kind.combine(t, x, e)):
            assert got.dtype == dt
            # bit for bit, -0.0 included: add's identity is -0.0 (-0.0 + +0.0 would be +0.0)
            assert same_float(got, x), (kind, t, x, got)


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
def test_float_min_max_propagate_nan(t):
    nan, one = NP[t](math.nan), NP[t](1.0)
    for kind in (ReductionKind.MIN, ReductionKind.MAX):
        assert np.isnan(kind.combine(t, nan, one)) and np.isnan(kind.combine(t, one, nan))


def test_kinds_without_a_neutral_element():
    with pytest.raises(ValueError, match="custom"):
        ReductionKind.CUSTOM.neutral(f32)
    with pytest.raises(ValueError, match="no neutral element on f32"):
        ReductionKind.AND.neutral(f32)
    with pytest.raises(ValueError):
        ReductionKind.CUSTOM.combine(i32, 1, 2)
    assert ReductionKind.OR.arith_combiner(f64) is None and ReductionKind.CUSTOM.arith_combiner(i32) is None


UNSIGNED_NP = {8: (np.int8, np.uint8), 16: (np.int16, np.uint16), 32: (np.int32, np.uint32), 64: (np.int64, np.uint64)}


@pytest.mark.parametrize("n", UNSIGNED_NP)
def test_unsigned_kinds_against_python_ints(n):
    """umin/umax on i8..i64: neutral all-ones / 0 (UINT_MAX / 0 as unsigned), and the combine on
    the signed dtype and on the unsigned one equals the exact min/max of the values mod 2^n."""
    t, (sdt, udt) = IntegerType(n), UNSIGNED_NP[n]
    assert ReductionKind.UMIN.neutral(t) == -1 and ReductionKind.UMAX.neutral(t) == 0
    us = sorted({v % (1 << n) for v in int_samples(n)} | {(1 << n) - 1, 1 << (n - 1), (1 << (n - 1)) - 1})
    for kind, exact in ((ReductionKind.UMIN, min), (ReductionKind.UMAX, max)):
        assert exact(kind.neutral(t) % (1 << n), 12) == 12 and exact(12, kind.neutral(t) % (1 << n)) == 12
        for a in us:
            got_u = kind.combine(t, udt(a), np.array(us, dtype=udt))
            assert got_u.dtype == udt and got_u.tolist() == [exact(a, b) for b in us], (kind, n, a)
            got_s = kind.combine(t, np.array(wrap(a, n), dtype=sdt), np.array([wrap(b, n) for b in us], dtype=sdt))
            assert got_s.dtype == sdt and got_s.tolist() == [wrap(exact(a, b), n) for b in us], (kind, n, a)
        scalar = kind.combine(t, sdt(-1), sdt(1))  # numpy scalars stay scalars of their dtype
        assert isinstance(scalar, sdt) and int(scalar) == (-1 if kind is ReductionKind.UMAX else 1)


def test_unsigned_kinds_are_integer_only():
    for kind in (ReductionKind.UMIN, ReductionKind.UMAX):
        assert kind.arith_combiner(f32) is None and kind.arith_combiner(f64) is None
        with pytest.raises(ValueError, match="no neutral element on f64"):
            kind.neutral(f64)
        with pytest.raises(ValueError, match="integers"):
            kind.combine(f32, np.float32(1), np.float32(2))
        assert not kind.order_matters(i32)
    assert ReductionKind.UMAX.arith_combiner(i32) is arith.MaxUIOp
    assert ReductionKind.UMIN.arith_combiner(IntegerType(8)) is arith.MinUIOp
    assert ReductionKind.UMIN.arith_combiner(i1) is arith.AndIOp and ReductionKind.UMAX.arith_combiner(i1) is arith.OrIOp


def test_arith_combiners():
    assert ReductionKind.MIN.arith_combiner(f32) is arith.MinimumfOp  # NaN-propagating
    assert ReductionKind.MAX.arith_combiner(i64) is arith.MaxSIOp
    assert ReductionKind.ADD.arith_combiner(i1) is arith.XOrIOp
    assert ReductionKind.MUL.arith_combiner(IntegerType(1)) is arith.AndIOp
    assert ReductionKind.ADD.arith_combiner(IndexType()) is arith.AddiOp


def test_order_matters_only_for_float_add_mul_and_custom():
    matters = {(k, str(t)) for k in ReductionKind for t in (f32, f64, i1, i32, i64) if k.order_matters(t)}
    floats = {(k, str(t)) for k in (ReductionKind.ADD, ReductionKind.MUL) for t in (f32, f64)}
    customs = {(ReductionKind.CUSTOM, str(t)) for t in (f32, f64, i1, i32, i64)}
    assert matters == floats | customs


@pytest.mark.parametrize(
    "text, attr_type",
    [
        ("#df.kind<add>", df_types.ReduceKindAttr),
        ("#df.kind<custom>", df_types.ReduceKindAttr),
        ("#loop.acc_kind<min>", loop_attrs.AccKindAttr),
        ("#loop.acc_kind<custom>", loop_attrs.AccKindAttr),
        ("#simd.reduce_kind<or>", simd.ReduceKindAttr),
        ("#loop.acc<max reassoc>", loop_attrs.AccumAttr),
    ],
)
def test_dialect_spellings_round_trip(text, attr_type):
    attr = Parser(make_context(), text).parse_attribute()
    assert isinstance(attr, attr_type) and str(attr) == text


def test_one_enum_for_three_dialects():
    assert df_types.ReduceKind is loop_attrs.AccKind is simd.ReduceKind is ReductionKind
    assert df_types.ReduceKindAttr.kinds == tuple(ReductionKind)
    assert simd.ReduceKindAttr.kinds == tuple(BUILTIN)


def test_simd_has_no_custom_kind():
    with pytest.raises(ParseError, match="Expected `add`, `mul`, `min`, `max`, `umin`, `umax`, `and`, or `or`."):
        Parser(make_context(), "#simd.reduce_kind<custom>").parse_attribute()
    with pytest.raises(VerifyException, match="simd.reduce_kind has no kind custom"):
        simd.ReduceKindAttr(ReductionKind.CUSTOM)
    with pytest.raises(ParseError, match="Expected `add`, .*`or`, or `custom`."):
        Parser(make_context(), "#df.kind<xor>").parse_attribute()
