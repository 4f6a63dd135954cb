"""The interpreter's integer semantics against Python's exact integers (docs/integer_semantics.md).

The interpreter is the oracle of every differential test, so it is checked here against an
independent reference written with Python `int`s: compute exactly, reduce mod 2**w and
reinterpret. Every integer arith op, every cmpi predicate and the integer math ops run through
an xDSL Interpreter (the path kernels and loop-simplify's folding take) on numpy scalars and on
lane arrays, on i1, i8, i16, i32, i64 and index, with the edge values (0, ±1, MIN, MAX, MIN+1,
MAX-1, powers of two) always in the mix; conversions on NaN, ±inf, -0.0, huge values and the
floats just inside and outside each integer range. No numpy warning may escape (warnings are
errors in this module).
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation
from xdsl.utils.test_value import create_ssa_value

from loopopt.interp.dtypes import numpy_dtype
from loopopt.interp.lanewise import LanewiseArithFunctions
from loopopt.interp.simd import convert_lanes

pytestmark = pytest.mark.filterwarnings("error")

INDEX = IndexType()
INT_TYPES: list[Attribute] = [i1, i8, i16, i32, i64, INDEX]
TYPE_IDS = ["i1", "i8", "i16", "i32", "i64", "index"]


# --------------------------------------------------------------------------- reference (Python ints)


def width(t: Attribute) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data  # type: ignore[attr-defined]


def signed(v: int, w: int) -> int:
    """v mod 2**w, read as a w-bit two's complement integer."""
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def unsigned(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def ref_ipowi(a: int, b: int, w: int) -> int:
    if b >= 0:
        return pow(a, b, 1 << w)
    return 1 if a == 1 else (-1 if b % 2 else 1) if a == -1 else 0


# Each reference takes the operands' signed values and the width and returns the exact result,
# which is then reduced with `signed(., w)`.
REF_BINARY: dict[type[Operation], Callable[[int, int, int], int]] = {
    arith.AddiOp: lambda a, b, w: a + b,
    arith.SubiOp: lambda a, b, w: a - b,
    arith.MuliOp: lambda a, b, w: a * b,
    arith.DivSIOp: lambda a, b, w: 0 if b == 0 else trunc_div(a, b),
    arith.RemSIOp: lambda a, b, w: 0 if b == 0 else a - b * trunc_div(a, b),
    arith.FloorDivSIOp: lambda a, b, w: 0 if b == 0 else a // b,
    arith.CeilDivSIOp: lambda a, b, w: 0 if b == 0 else -(-a // b),
    arith.DivUIOp: lambda a, b, w: 0 if b == 0 else unsigned(a, w) // unsigned(b, w),
    arith.RemUIOp: lambda a, b, w: 0 if b == 0 else unsigned(a, w) % unsigned(b, w),
    arith.CeilDivUIOp: lambda a, b, w: 0 if b == 0 else -(-unsigned(a, w) // unsigned(b, w)),
    arith.AndIOp: lambda a, b, w: a & b,
    arith.OrIOp: lambda a, b, w: a | b,
    arith.XOrIOp: lambda a, b, w: a ^ b,
    arith.ShLIOp: lambda a, b, w: 0 if unsigned(b, w) >= w else a << unsigned(b, w),
    arith.ShRUIOp: lambda a, b, w: 0 if unsigned(b, w) >= w else unsigned(a, w) >> unsigned(b, w),
    arith.ShRSIOp: lambda a, b, w: (-1 if a < 0 else 0) if unsigned(b, w) >= w else a >> unsigned(b, w),
    arith.MinSIOp: lambda a, b, w: min(a, b),
    arith.MaxSIOp: lambda a, b, w: max(a, b),
    arith.MinUIOp: lambda a, b, w: min(unsigned(a, w), unsigned(b, w)),
    arith.MaxUIOp: lambda a, b, w: max(unsigned(a, w), unsigned(b, w)),
    math.IPowIOp: ref_ipowi,
}

REF_UNARY: dict[type[Operation], Callable[[int, int], int]] = {
    math.AbsIOp: lambda a, w: abs(a),
    math.CtPopOp: lambda a, w: bin(unsigned(a, w)).count("1"),
}

REF_CMPI: dict[str, Callable[[int, int, int], bool]] = {
    "eq": lambda a, b, w: a == b,
    "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: a < b,
    "sle": lambda a, b, w: a <= b,
    "sgt": lambda a, b, w: a > b,
    "sge": lambda a, b, w: a >= b,
    "ult": lambda a, b, w: unsigned(a, w) < unsigned(b, w),
    "ule": lambda a, b, w: unsigned(a, w) <= unsigned(b, w),
    "ugt": lambda a, b, w: unsigned(a, w) > unsigned(b, w),
    "uge": lambda a, b, w: unsigned(a, w) >= unsigned(b, w),
}


def edge_values(w: int) -> list[int]:
    """0, ±1, MIN, MAX, MIN+1, MAX-1, ±2, ±powers of two and their neighbours (as w-bit signed)."""
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    raw = {0, 1, -1, 2, -2, 3, -3, lo, hi, lo + 1, hi - 1, w, w - 1, w + 1, 7, -7}
    for k in range(w):
        raw |= {1 << k, -(1 << k), (1 << k) - 1, (1 << k) + 1}
    return sorted({signed(v, w) for v in raw})


def corner_values(w: int) -> list[int]:
    """The edge values that matter most, few enough for all pairs: 0, ±1, ±2, ±3, ±7, MIN, MAX,
    MIN+1, MAX-1, the shift amounts w-1, w, w+1, and ±2**k, 2**k ± 1 at k = w/2 and w-2."""
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    raw = {0, 1, -1, 2, -2, 3, -3, 7, -7, lo, hi, lo + 1, hi - 1, w - 1, w, w + 1}
    for k in {w // 2, max(w - 2, 0)}:
        raw |= {1 << k, -(1 << k), (1 << k) - 1, (1 << k) + 1}
    return sorted({signed(v, w) for v in raw})


# --------------------------------------------------------------------------- the interpreter


INTERPRETER = Interpreter(ModuleOp([]))
INTERPRETER.register_implementations(LanewiseArithFunctions())


def to_numpy(values: list[int], t: Attribute) -> np.ndarray:
    """Signed Python values as lanes of t (i1: nonzero is true)."""
    dt = numpy_dtype(t)
    if dt == np.bool_:
        return np.array([v != 0 for v in values], dtype=np.bool_)
    return np.array(values, dtype=dt)


def from_numpy(x, t: Attribute) -> list[int]:
    """Lanes of t as signed Python values (i1 true is -1)."""
    arr = np.atleast_1d(np.asarray(x))
    if arr.dtype == np.bool_:
        return [-1 if v else 0 for v in arr.tolist()]
    return [int(v) for v in arr.tolist()]


def run(op: Operation, *args):
    (result,) = INTERPRETER.run_op(op, args)
    return result


def check_result(result, expected: np.ndarray, dtype: np.dtype, what: Callable[[], str], lanes: list) -> None:
    """Same dtype, same values; `what()` names the case (formatted only on failure)."""
    got = np.atleast_1d(np.asarray(result))
    assert got.dtype == dtype, f"{what()}: dtype {got.dtype} != {dtype}"
    if not np.array_equal(got, expected):
        bad = np.flatnonzero(got != expected)[:5]
        detail = ", ".join(f"{lanes[k]} -> {got[k]} (expected {expected[k]})" for k in bad)
        raise AssertionError(f"{what()}: {detail}")


@cache
def binary_ops(t: Attribute) -> list[tuple[Operation, Callable[[int, int, int], int]]]:
    x, y = create_ssa_value(t), create_ssa_value(t)
    return [(op_class(x, y), ref) for op_class, ref in REF_BINARY.items()]


@cache
def cmpi_ops(t: Attribute) -> list[tuple[Operation, str, Callable[[int, int, int], bool]]]:
    x, y = create_ssa_value(t), create_ssa_value(t)
    return [(arith.CmpiOp(x, y, pred), pred, ref) for pred, ref in REF_CMPI.items()]


def check_binary(t: Attribute, a: list[int], b: list[int], scalars: int = 2) -> None:
    """Every binary integer op and cmpi predicate on lanes (a, b) of type t, as arrays and
    on the first `scalars` lanes as numpy scalars, against the Python-int reference."""
    w = width(t)
    dt = numpy_dtype(t)
    na, nb = to_numpy(a, t), to_numpy(b, t)
    lanes = list(zip(a, b))
    for op, ref in binary_ops(t):
        expected = to_numpy([signed(ref(p, q, w), w) for p, q in lanes], t)
        check_result(run(op, na, nb), expected, dt, lambda: f"{op.name} : {t}", lanes)
        for k in range(min(scalars, len(a))):
            result = run(op, na[k], nb[k])
            assert not isinstance(result, np.ndarray), f"{op.name}: scalar in, array out"
            check_result(result, expected[k : k + 1], dt, lambda: f"{op.name} : {t} (scalar)", lanes[k : k + 1])
    for op, pred, ref in cmpi_ops(t):
        expected = np.array([ref(p, q, w) for p, q in lanes], dtype=np.bool_)
        check_result(run(op, na, nb), expected, np.dtype(np.bool_), lambda: f"cmpi {pred} : {t}", lanes)
        for k in range(min(scalars, len(a))):
            check_result(run(op, na[k], nb[k]), expected[k : k + 1], np.dtype(np.bool_),
                         lambda: f"cmpi {pred} : {t} (scalar)", lanes[k : k + 1])


def check_unary(t: Attribute, a: list[int]) -> None:
    w = width(t)
    dt = numpy_dtype(t)
    x = create_ssa_value(t)
    na = to_numpy(a, t)
    for op_class, ref in REF_UNARY.items():
        op = op_class(x)
        expected = to_numpy([signed(ref(p, w), w) for p in a], t)
        check_result(run(op, na), expected, dt, lambda: f"{op.name} : {t}", a)
        check_result(run(op, na[0]), expected[:1], dt, lambda: f"{op.name} : {t} (scalar)", a[:1])


# --------------------------------------------------------------------------- binary ops and cmpi


@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
def test_every_pair_of_edge_values(t):
    """All pairs of corner values, every op and predicate, as arrays and as numpy scalars."""
    edges = corner_values(width(t))
    a = [p for p in edges for _ in edges]
    b = [q for _ in edges for q in edges]
    check_binary(t, a, b, scalars=len(a))  # the scalar path (Python ints for i8..i64) on every pair too
    check_unary(t, edges)


def test_i8_exhaustively():
    """All 65536 i8 pairs, as arrays."""
    values = list(range(-128, 128))
    check_binary(i8, [p for p in values for _ in values], [q for _ in values for q in values], scalars=0)
    check_unary(i8, values)


def int_lanes(w: int) -> st.SearchStrategy[int]:
    """Signed w-bit values, biased to the edges."""
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    return st.one_of(st.sampled_from(edge_values(w)), st.integers(lo, hi))


@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
@given(data=st.data())
def test_random_lanes_match_python_ints(t, data):
    w = width(t)
    pairs = data.draw(st.lists(st.tuples(int_lanes(w), int_lanes(w)), min_size=1, max_size=24))
    a, b = [p for p, _ in pairs], [q for _, q in pairs]
    check_binary(t, a, b)
    check_unary(t, a)


@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
def test_scalar_broadcasts_over_lanes(t):
    """A scalar operand with an array operand (a constant in a df.map body) broadcasts."""
    w = width(t)
    dt = numpy_dtype(t)
    edges = edge_values(w)
    x, y = create_ssa_value(t), create_ssa_value(t)
    for s in (0, -1, edges[0], edges[-1]):
        for op_class, ref in REF_BINARY.items():
            op = op_class(x, y)
            lanes = [(p, s) for p in edges]
            expected = to_numpy([signed(ref(p, s, w), w) for p in edges], t)
            check_result(run(op, to_numpy(edges, t), to_numpy([s], t)[0]), expected, dt, lambda: f"{op.name} array, scalar", lanes)
            expected = to_numpy([signed(ref(s, p, w), w) for p in edges], t)
            check_result(run(op, to_numpy([s], t)[0], to_numpy(edges, t)), expected, dt, lambda: f"{op.name} scalar, array", lanes)


def test_i1_is_minus_one_signed_and_one_unsigned():
    """The lead's examples: cmpi slt true, false is true; ult is false; i1 add is xor."""
    x, y = create_ssa_value(i1), create_ssa_value(i1)
    t, f = np.bool_(True), np.bool_(False)
    assert run(arith.CmpiOp(x, y, "slt"), t, f) == np.bool_(True)
    assert run(arith.CmpiOp(x, y, "ult"), t, f) == np.bool_(False)
    assert run(arith.AddiOp(x, y), t, t) == np.bool_(False)
    assert run(arith.MinSIOp(x, y), t, f) == np.bool_(True)
    assert run(arith.MinUIOp(x, y), t, f) == np.bool_(False)
    assert run(arith.DivSIOp(x, y), t, t) == np.bool_(True)  # MIN / -1 = MIN


def test_named_edge_cases():
    """The issue's cases, spelled out (the abs-based division got the sign of MIN / 2 wrong)."""
    x, y = create_ssa_value(i32), create_ssa_value(i32)
    mn = np.int32(-(2**31))
    assert run(arith.DivSIOp(x, y), mn, np.int32(-1)) == mn
    assert run(arith.RemSIOp(x, y), mn, np.int32(-1)) == 0
    assert run(arith.DivSIOp(x, y), mn, np.int32(2)) == -(2**30)
    assert run(arith.DivSIOp(x, y), np.int32(7), mn) == 0
    assert run(arith.RemSIOp(x, y), np.int32(7), mn) == 7
    assert run(arith.DivSIOp(x, y), np.int32(7), np.int32(0)) == 0
    assert run(arith.RemUIOp(x, y), np.int32(7), np.int32(0)) == 0
    assert run(arith.ShRSIOp(x, y), np.int32(-5), np.int32(-1)) == -1
    assert run(math.CtPopOp(x), np.int32(-1)) == 32


# --------------------------------------------------------------------------- conversions


FLOAT_TYPES = [f32, f64]


def float_edges(w: int, dt: type) -> list[float]:
    """NaN, ±inf, ±0, huge, fractions, and the floats of dt just inside and outside the
    signed and unsigned w-bit ranges."""
    out = [np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 0.9999, -0.9999, 1.0, -1.0, 1.5, -1.5,
           2.5, -2.5, 1e30, -1e30, 3.4e38, -3.4e38, 5e-324]
    for edge in (2.0 ** (w - 1), -(2.0 ** (w - 1)), 2.0**w, 2.0 ** (w - 1) - 1, -(2.0 ** (w - 1)) - 1, 2.0**w - 1):
        e = dt(edge)
        out += [float(e), float(np.nextafter(e, dt(np.inf))), float(np.nextafter(e, dt(-np.inf)))]
    return [float(dt(v)) for v in out]


def ref_fptoi(x: float, w: int, is_signed: bool) -> int:
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if is_signed else (0, (1 << w) - 1)
    if pymath.isnan(x):
        return 0
    exact = (hi if x > 0 else lo) if pymath.isinf(x) else min(max(pymath.trunc(x), lo), hi)
    return signed(exact, w)


def ref_round_to_f32(n: int) -> float:
    """The int n rounded to the nearest f32 (ties to even), exactly."""
    m = abs(n)
    if m.bit_length() > 24:
        shift = m.bit_length() - 24
        q, r = divmod(m, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        m = q << shift
    return float(-m if n < 0 else m)


def float_values(ft: Attribute, values: list[float]) -> np.ndarray:
    return np.array(values, dtype=numpy_dtype(ft))


@pytest.mark.parametrize("ft", FLOAT_TYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
def test_float_to_int_saturates_and_nan_is_zero(t, ft):
    w = width(t)
    dt = numpy_dtype(t)
    values = float_edges(w, numpy_dtype(ft).type)
    xs = float_values(ft, values)
    x = create_ssa_value(ft)
    for op_class, is_signed in ((arith.FPToSIOp, True), (arith.FPToUIOp, False)):
        op = op_class(x, t)
        expected = to_numpy([ref_fptoi(float(v), w, is_signed) for v in xs], t)
        check_result(run(op, xs), expected, dt, lambda: f"{op.name} {ft} -> {t}", list(xs))
        for k in range(len(xs)):
            check_result(run(op, xs[k]), expected[k : k + 1], dt, lambda: f"{op.name} {ft} -> {t} (scalar)", [xs[k]])
        if is_signed:  # simd.convert is fptosi lane-wise
            check_result(convert_lanes(xs, dt), expected, dt, lambda: f"simd.convert {ft} -> {t}", list(xs))


@pytest.mark.parametrize("ft", FLOAT_TYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("t", [i8, i32, i64], ids=["i8", "i32", "i64"])
@given(data=st.data())
def test_random_floats_to_int(t, ft, data):
    w = width(t)
    dt = numpy_dtype(t)
    width_bits = 32 if isinstance(ft, Float32Type) else 64
    xs = float_values(ft, data.draw(st.lists(st.floats(width=width_bits), min_size=1, max_size=16)))
    x = create_ssa_value(ft)
    for op_class, is_signed in ((arith.FPToSIOp, True), (arith.FPToUIOp, False)):
        expected = to_numpy([ref_fptoi(float(v), w, is_signed) for v in xs], t)
        check_result(run(op_class(x, t), xs), expected, dt, lambda: f"{op_class.name} {ft} -> {t}", list(xs))


@pytest.mark.parametrize("ft", FLOAT_TYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
@given(data=st.data())
def test_int_to_float_rounds_to_nearest(t, ft, data):
    """sitofp reads the lanes signed (i1 true is -1.0), uitofp unsigned; both round to nearest even."""
    w = width(t)
    a = data.draw(st.lists(int_lanes(w), min_size=1, max_size=24)) + edge_values(w)
    rnd = ref_round_to_f32 if isinstance(ft, Float32Type) else float
    x = create_ssa_value(t)
    fdt = numpy_dtype(ft)
    for op_class, read in ((arith.SIToFPOp, lambda v: v), (arith.UIToFPOp, lambda v: unsigned(v, w))):
        op = op_class(x, ft)
        expected = np.array([rnd(read(v)) for v in a], dtype=fdt)
        check_result(run(op, to_numpy(a, t)), expected, fdt, lambda: f"{op.name} {t} -> {ft}", a)
        check_result(run(op, to_numpy(a, t)[0]), expected[:1], fdt, lambda: f"{op.name} {t} -> {ft} (scalar)", a[:1])


def int_conversions(t: Attribute, u: Attribute):
    """(op, reference on the signed value) for every integer conversion from t to u."""
    w, v = width(t), width(u)
    x = create_ssa_value(t)
    if isinstance(t, IndexType) or isinstance(u, IndexType):
        yield arith.IndexCastOp(x, u), lambda a: signed(a, v)
    elif v > w:
        yield arith.ExtSIOp(x, u), lambda a: a
        yield arith.ExtUIOp(x, u), lambda a: unsigned(a, w)
    elif v < w:
        yield arith.TruncIOp(x, u), lambda a: signed(a, v)


@pytest.mark.parametrize("u", INT_TYPES, ids=TYPE_IDS)
@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
def test_integer_casts(t, u):
    """extsi sign-extends (i1 true -> -1), extui zero-extends, trunci and index_cast keep the low bits."""
    a = edge_values(width(t))
    dt = numpy_dtype(u)
    for op, ref in int_conversions(t, u):
        expected = to_numpy([signed(ref(p), width(u)) for p in a], u)
        check_result(run(op, to_numpy(a, t)), expected, dt, lambda: f"{op.name} {t} -> {u}", a)
        check_result(run(op, to_numpy(a, t)[-1]), expected[-1:], dt, lambda: f"{op.name} {t} -> {u} (scalar)", a[-1:])


def test_types_are_what_the_tests_claim():
    """Guard against a vacuous suite: the widths and dtypes line up, and the edges are edges."""
    assert [numpy_dtype(t) for t in INT_TYPES] == [np.bool_, np.int8, np.int16, np.int32, np.int64, np.int64]
    assert isinstance(f32, Float32Type) and isinstance(f64, Float64Type)
    assert all(isinstance(t, IntegerType | IndexType) for t in INT_TYPES)
    assert edge_values(1) == [-1, 0]
    assert {-128, -127, 126, 127, 0, 1, -1, 64, -64} <= set(edge_values(8))
    assert len(float_edges(32, np.float32)) > 30


def test_fpowi_extreme_integer_exponents():
    """fpowi's square-and-multiply terminates on |MIN| (it looped forever: abs(MIN) < 0) and
    reads an i1 exponent signed (true is -1)."""
    x, n = create_ssa_value(f64), create_ssa_value(i64)
    op = math.FPowIOp(x, n)
    mn, mx = np.int64(-(2**63)), np.int64(2**63 - 1)
    bases = np.array([1.0, -1.0, 2.0, 0.5, 2.0, -1.0])
    exps = np.array([mn, mn, mn, mn, -1, mx], dtype=np.int64)
    np.testing.assert_array_equal(run(op, bases, exps), [1.0, 1.0, 0.0, np.inf, 0.5, -1.0])
    scalar = run(op, np.float64(2.0), mx)
    assert scalar == np.inf and not isinstance(scalar, np.ndarray)
    b = create_ssa_value(i1)
    assert run(math.FPowIOp(x, b), np.float64(4.0), np.bool_(True)) == 0.25
