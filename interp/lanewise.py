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
from typing import Any

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, VectorType
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
    """Correctly rounded a*b+c for f32 (via f64, exact product) and f64 (via exact rationals)."""
    dt = np.result_type(a, b, c)
    if dt == np.float32:
        with np.errstate(all="ignore"):
            wide = np.float64(1) * np.asarray(a, np.float64) * np.asarray(b, np.float64)
            return _round_to_f32_from_exact(wide, np.asarray(c, np.float64))
    return _fma_f64(a, b, c)


def _round_to_f32_from_exact(prod: np.ndarray, c: np.ndarray):
    # prod is exact in f64 (24+24 bit mantissas); prod + c is rounded once to f64, then to f32.
    # The double rounding can only differ from a single rounding when the f64 sum lies exactly
    # halfway between two f32 values; fix those cases with exact rational arithmetic.
    from fractions import Fraction

    with np.errstate(all="ignore"):
        s = prod + c
        out = np.asarray(s.astype(np.float32))
    flat_s = np.atleast_1d(s)
    flat_out = np.atleast_1d(out).copy()
    flat_p = np.broadcast_to(prod, flat_s.shape)
    flat_c = np.broadcast_to(c, flat_s.shape)
    for k in range(flat_s.size):
        v = flat_s.flat[k]
        if not np.isfinite(v):
            continue
        lo = np.float32(v)
        if np.float64(lo) == v:
            continue  # exactly representable: no double-rounding hazard
        nxt = np.nextafter(lo, np.float32(np.inf) if np.float64(lo) < v else np.float32(-np.inf))
        mid = (Fraction(float(lo)) + Fraction(float(nxt))) / 2
        if Fraction(float(v)) != mid:
            continue
        exact = Fraction(float(flat_p.flat[k])) + Fraction(float(flat_c.flat[k]))
        if exact == mid:
            continue  # a true tie: ties-to-even from the f64 value is right
        flat_out.flat[k] = lo if abs(exact - Fraction(float(lo))) < abs(exact - Fraction(float(nxt))) else nxt
    return flat_out.reshape(np.shape(out)) if np.ndim(out) else np.float32(flat_out[0])


def _fma_f64(a, b, c):
    from fractions import Fraction

    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64))
    out = np.empty(a.shape, np.float64)
    for k in range(a.size):
        x, y, z = float(a.flat[k]), float(b.flat[k]), float(c.flat[k])
        if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
            with np.errstate(all="ignore"):
                out.flat[k] = x * y + z
            continue
        out.flat[k] = float(Fraction(x) * Fraction(y) + Fraction(z))
    return out if out.ndim else np.float64(out[()])


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
