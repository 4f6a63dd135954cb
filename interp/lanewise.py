"""Lane-wise numpy semantics for `arith` and `math`.

xDSL's own arith interpreter works on Python ints and floats one element at a time.
loopopt interprets every value as a numpy scalar or a numpy array of lanes, so one
implementation runs scalar loop bodies, df.map bodies (once over whole arrays) and
vecloop bodies (once over W lanes). Results keep the exact element type of the op
(f32 stays f32) and integers wrap like numpy.

The semantics are tables: an op class maps to a numpy function.
"""

from __future__ import annotations

from collections.abc import Callable
from math import copysign, isfinite, isinf
from typing import Any

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, VectorType
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from loopopt.interp.dtypes import cast_to, numpy_dtype


def _quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run `fn` with numpy's overflow/invalid/divide warnings off (IEEE results, wrapping ints)."""

    def run(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)

    return run


def _int_div(a, b):
    """C-style truncating signed division (arith.divsi); division by zero is an error."""
    if np.any(np.asarray(b) == 0):
        raise InterpretationError("arith.divsi: division by zero")
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q).astype(np.result_type(a, b))


def _int_rem(a, b):
    """C-style remainder (arith.remsi): the sign follows the dividend."""
    if np.any(np.asarray(b) == 0):
        raise InterpretationError("arith.remsi: remainder by zero")
    return (a - _int_div(a, b) * b).astype(np.result_type(a, b))


def _ipow(a, b):
    return np.power(a, b)


def _fpowi(x, n):
    """x ** n for an integer n by square-and-multiply in x's type (x**3 = x*(x*x),
    x**4 = (x*x)*(x*x): the products loop-simplify unrolls powi into), 1/x**|n| for n < 0."""
    x = np.asarray(x)
    exps = np.broadcast_to(np.asarray(n), np.broadcast_shapes(x.shape, np.shape(n)))
    remaining = np.abs(exps).astype(np.int64)
    base = np.broadcast_to(x, exps.shape).copy()
    result = np.ones(exps.shape, dtype=x.dtype)
    while np.any(remaining):
        result = np.where(remaining & 1, result * base, result)
        remaining = remaining >> 1
        base = base * base
    return np.where(exps < 0, np.asarray(1, result.dtype) / result, result)


BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    arith.AddiOp: np.add,
    arith.SubiOp: np.subtract,
    arith.MuliOp: np.multiply,
    arith.DivSIOp: _int_div,
    arith.RemSIOp: _int_rem,
    arith.FloorDivSIOp: np.floor_divide,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.ShLIOp: np.left_shift,
    arith.ShRSIOp: np.right_shift,
    arith.MinSIOp: np.minimum,
    arith.MaxSIOp: np.maximum,
    # minimumf/maximumf propagate NaN (IEEE 754-2019 minimum/maximum), like numpy
    arith.MinimumfOp: np.minimum,
    arith.MaximumfOp: np.maximum,
    # minnumf/maxnumf return the non-NaN operand
    arith.MinnumfOp: np.fmin,
    arith.MaxnumfOp: np.fmax,
    math.PowFOp: np.power,
    math.IPowIOp: _ipow,
    math.FPowIOp: _fpowi,
    math.CopySignOp: np.copysign,
    math.Atan2Op: np.arctan2,
}

UNARY: dict[type[Operation], Callable[[Any], Any]] = {
    arith.NegfOp: np.negative,
    math.AbsFOp: np.abs,
    math.AbsIOp: np.abs,
    math.SqrtOp: np.sqrt,
    math.RsqrtOp: lambda x: 1 / np.sqrt(x),
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.LogOp: np.log,
    math.Log2Op: np.log2,
    math.Log10Op: np.log10,
    math.Log1pOp: np.log1p,
    math.SinOp: np.sin,
    math.CosOp: np.cos,
    math.TanOp: np.tan,
    math.TanhOp: np.tanh,
    math.FloorOp: np.floor,
    math.CeilOp: np.ceil,
    math.TruncOp: np.trunc,
    math.RoundEvenOp: np.rint,
    math.CtPopOp: lambda x: np.bitwise_count(x).astype(x.dtype),
}

CMPF: dict[str, Callable[[Any, Any], Any]] = {
    # ordered predicates are false when either operand is NaN (numpy's comparisons)
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda a, b: np.logical_and(np.not_equal(a, b), ~(np.isnan(a) | np.isnan(b))),
    "ord": lambda a, b: ~(np.isnan(a) | np.isnan(b)),
    "uno": lambda a, b: np.isnan(a) | np.isnan(b),
    "une": np.not_equal,
    "ueq": lambda a, b: np.equal(a, b) | np.isnan(a) | np.isnan(b),
    "ugt": lambda a, b: ~np.less_equal(a, b),
    "uge": lambda a, b: ~np.less(a, b),
    "ult": lambda a, b: ~np.greater_equal(a, b),
    "ule": lambda a, b: ~np.greater(a, b),
    "true": lambda a, b: np.ones(np.broadcast(a, b).shape, np.bool_),
    "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, np.bool_),
}

CMPI: dict[str, Callable[[Any, Any], Any]] = {
    "eq": np.equal,
    "ne": np.not_equal,
    "slt": np.less,
    "sle": np.less_equal,
    "sgt": np.greater,
    "sge": np.greater_equal,
}


def _as_bool(x):
    return x.astype(np.bool_) if isinstance(x, np.ndarray) else np.bool_(x)


def _result(value, op: Operation):
    """Cast `value` to op's (single) result type: keeps f32 f32 and wraps integers."""
    return cast_to(value, op.results[0].type)


class LanewiseArithFunctions(InterpreterFunctions):
    """`arith` and `math` over numpy scalars and lane arrays."""

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues):
        value = op.value
        if isinstance(value, IntegerAttr | FloatAttr):
            return (cast_to(value.value.data, op.result.type),)
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(op.result.type, VectorType):
            data = np.array(value.get_values(), dtype=numpy_dtype(op.result.type))
            return (data,)
        raise InterpretationError(f"arith.constant: unsupported value {value}")

    @impl(arith.CmpfOp)
    def run_cmpf(self, interpreter: Interpreter, op: arith.CmpfOp, args: PythonValues):
        name = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        return (_quiet(CMPF[name])(args[0], args[1]),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues):
        name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if name not in CMPI:
            raise InterpretationError(f"arith.cmpi: unsupported predicate {name}")
        return (CMPI[name](args[0], args[1]),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args: PythonValues):
        cond, a, b = args
        out = np.where(_as_bool(cond), a, b)
        return (_result(out, op),)

    @impl(math.FmaOp)
    def run_fma(self, interpreter: Interpreter, op: math.FmaOp, args: PythonValues):
        a, b, c = args
        return (_result(exact_fma(a, b, c), op),)



def _binary_impl(fn: Callable[[Any, Any], Any]):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        return (_quiet(lambda a, b: _result(fn(a, b), op))(args[0], args[1]),)

    return run


def _unary_impl(fn: Callable[[Any], Any]):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        return (_quiet(lambda a: _result(fn(a), op))(args[0]),)

    return run


def exact_fma(a, b, c):
    """Correctly rounded a*b + c (one rounding, IEEE special values), elementwise with broadcasting.

    Vectorized error-free transformations, no C compiler needed: f32 computes the product
    exactly in f64 and repairs the one double-rounding hazard (an f64 sum on an f32
    midpoint); f64 splits the product with Dekker's TwoProduct and sums the three exact
    parts with TwoSum, then resolves the rare elements whose rounding the floats cannot
    decide (and operands out of the splitting's range) with exact rationals.
    """
    dt = np.result_type(a, b, c)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"exact_fma: operands must be float32 or float64, found result dtype {dt}")
    if np.ndim(a) == np.ndim(b) == np.ndim(c) == 0:  # one element: rationals beat 40 numpy calls
        return dt.type(_fma_scalar(float(a), float(b), float(c), dt == np.float32))
    x, y, z = np.broadcast_arrays(*(np.asarray(v, dt) for v in (a, b, c)))
    with np.errstate(all="ignore"):
        out = _fma_f32(x, y, z) if dt == np.float32 else _fma_f64(x, y, z)
    return out if out.ndim else out[()]


def _two_sum(a, b):
    """s + e == a + b exactly, s = fl(a + b) (Knuth; exact unless a + b overflows)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fma_f32(a, b, c):
    # The product of two f32 is exact in f64, and so is p + c as s + e (TwoSum). Rounding
    # s to f32 can differ from rounding s + e only when s lies exactly on a midpoint of two
    # f32 values (midpoints are f64 numbers) and e != 0: then e's sign picks the neighbour.
    p = a.astype(np.float64) * b.astype(np.float64)
    s, e = _two_sum(p, c.astype(np.float64))
    r = s.astype(np.float32)
    other = np.nextafter(r, np.where(r.astype(np.float64) < s, np.float32(np.inf), np.float32(-np.inf)))
    # An f32 overflow to inf sits at 2**128 for the midpoint test (FLT_MAX + half an ulp rounds up).
    r64 = np.where(np.isinf(r), np.copysign(2.0**128, r.astype(np.float64)), r.astype(np.float64))
    midpoint = np.isfinite(s) & (r64 != s) & ((r64 + other.astype(np.float64)) * 0.5 == s)
    toward_other = (e != 0) & ((e > 0) == (other.astype(np.float64) > r64))
    return np.where(midpoint & toward_other, other, r)


_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitter for 53-bit significands


def _fma_f64(a, b, c):
    finite_ab = np.isfinite(a) & np.isfinite(b)
    finite = finite_ab & np.isfinite(c)
    zero_product = (a == 0) | (b == 0)
    # Dekker's TwoProduct is exact when the splits cannot overflow and the product's error
    # term cannot underflow; TwoSum needs sums that cannot overflow.
    safe = (
        finite & ~zero_product
        & (np.abs(a) < 2.0**995) & (np.abs(b) < 2.0**995)
        & (np.abs(a * b) > 2.0**-900) & (np.abs(a * b) < 2.0**1000) & (np.abs(c) < 2.0**1000)
    )
    aa, bb, cc = (np.where(safe, v, 1.0) for v in (a, b, c))
    p = aa * bb
    ah, bh = aa * _SPLIT, bb * _SPLIT
    ah, bh = ah - (ah - aa), bh - (bh - bb)
    al, bl = aa - ah, bb - bh
    ep = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # p + ep == a*b exactly
    s, es = _two_sum(p, cc)  # s + es == p + c exactly
    t, v = _two_sum(es, ep)  # a*b + c == s + t + v exactly
    r, w = _two_sum(s, t)  # s + t == r + w exactly, r = RN(s + t)
    # r is RN(a*b + c) unless v moves s + t across the midpoint next to r: only possible when
    # |w| + |v| reaches half the smaller gap around r. Those (and r == 0) are settled exactly.
    gap = np.minimum(np.nextafter(r, np.inf) - r, r - np.nextafter(r, -np.inf))
    hard = safe & (((v != 0) & (np.abs(w) + np.abs(v) >= 0.5 * gap)) | (r == 0))
    # Non-finite operands: a*b + c in floating point is the IEEE result, except that a finite
    # product that overflows must not turn c = ±inf into NaN. A zero product rounds once.
    out = np.where(finite_ab & ~np.isfinite(c), c, a * b + c)
    out = np.where(safe, r, out)
    rational = np.flatnonzero(((finite & ~safe & ~zero_product) | hard).reshape(-1))
    if rational.size:
        flat = out.reshape(-1)
        for k, x, y, z in zip(rational, a.reshape(-1)[rational], b.reshape(-1)[rational], c.reshape(-1)[rational]):
            flat[k] = _fma_exact_rational(float(x), float(y), float(z))
    return out


def _fma_exact_rational(x: float, y: float, z: float, f32: bool = False) -> float:
    """fma of finite x, y, z with x*y != 0 by exact rationals (a zero sum is +0, as in RN)."""
    from fractions import Fraction

    exact = Fraction(x) * Fraction(y) + Fraction(z)
    try:
        d = float(exact)  # int/int true division in CPython is correctly rounded
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")
    if not f32:
        return d
    # Rounding d to f32 is right unless d is an f32 midpoint that exact is not (as in _fma_f32).
    with np.errstate(all="ignore"):
        r = np.float32(d)
        other = np.nextafter(r, np.float32(np.inf) if float(r) < d else np.float32(-np.inf))
    r64 = copysign(2.0**128, float(r)) if isinf(r) else float(r)
    if r64 != d and (r64 + float(other)) * 0.5 == d and exact != d and (exact > d) == (float(other) > r64):
        return float(other)
    return float(r)


def _fma_scalar(x: float, y: float, z: float, f32: bool) -> float:
    """One exact fma in Python floats (f32 operands are exact as floats)."""
    if not (isfinite(x) and isfinite(y)) or x == 0 or y == 0:
        return x * y + z  # an infinite or zero product: the IEEE result of a plain multiply-add
    if not isfinite(z):
        return z
    return _fma_exact_rational(x, y, z, f32)


def _convert(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    """Numeric conversions: value-preserving casts to the result type (C semantics)."""
    return (_quiet(lambda a: _result(a, op))(args[0]),)


CONVERSIONS: tuple[type[Operation], ...] = (
    arith.IndexCastOp,
    arith.SIToFPOp,
    arith.FPToSIOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
)


def _install_tables() -> None:
    """Attach one `@impl` method per table row, then register the class."""
    rows: list[tuple[type[Operation], Callable[..., Any]]] = [
        *((op, _binary_impl(fn)) for op, fn in BINARY.items()),
        *((op, _unary_impl(fn)) for op, fn in UNARY.items()),
        *((op, _convert) for op in CONVERSIONS),
    ]
    for op, method in rows:
        setattr(LanewiseArithFunctions, "run_" + op.name.replace(".", "_"), impl(op)(method))
    register_impls(LanewiseArithFunctions)


_install_tables()
