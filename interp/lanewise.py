"""Lane-wise numpy semantics for `arith` and `math`.

xDSL's own arith interpreter works on Python ints and floats one element at a time.
loopopt interprets every value as a numpy scalar or a numpy array of lanes, so one
implementation runs scalar loop bodies, df.map bodies (once over whole arrays) and
vecloop bodies (once over W lanes). Results keep the exact element type of the op
(f32 stays f32). Integer semantics are total and defined on every width (wrap-around,
division by zero = 0, saturating float -> int; docs/integer_semantics.md).

The semantics are tables: an op class maps to a numpy function.
"""

from __future__ import annotations

from collections.abc import Callable
from math import copysign, inf, isfinite, isinf
from math import erf as libm_erf
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

from loopopt.interp.dtypes import cast_to, numpy_dtype, wrap_int


def _quiet(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run `fn` with numpy's overflow/invalid/divide warnings off (IEEE results, wrapping ints)."""

    def run(*args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)

    return run


# --------------------------------------------------------------------------- integers
#
# docs/integer_semantics.md: two's complement wrap-around on every width; shifts by an
# amount >= the width (read unsigned) give 0 (shli, shrui) or the sign fill (shrsi);
# division and remainder by zero give 0, divsi(MIN, -1) = MIN and remsi(MIN, -1) = 0,
# quotients truncate toward zero; fptosi/fptoui saturate (NaN -> 0). i1 is a 1-bit
# integer: true is 1 unsigned and -1 signed. Every function takes numpy scalars or arrays
# (broadcasting) of one integer dtype (np.bool_ for i1) and returns that dtype; no Python
# loop runs over lanes and no numpy warning or exception escapes.


def int_width(dt: np.dtype) -> int:
    """The bit width of an integer dtype (1 for np.bool_, which holds i1)."""
    return 1 if dt == np.bool_ else dt.itemsize * 8


def _signed(x: np.ndarray) -> np.ndarray:
    """x's lanes as signed integers: i1 true is -1 (held in an int8)."""
    return -(x.astype(np.int8)) if x.dtype == np.bool_ else x


def _unsigned(x: np.ndarray) -> np.ndarray:
    """x's lanes reinterpreted as unsigned integers of the same width (i1 true is 1)."""
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    return x.view(np.dtype(f"uint{x.itemsize * 8}"))


def wrap_to(r: np.ndarray, dt: np.dtype) -> np.ndarray:
    """The low `int_width(dt)` bits of integer lanes `r`, as dtype `dt` (two's complement)."""
    if dt == np.bool_:
        return (r & 1).astype(np.bool_)
    return r.astype(dt)  # integer -> integer astype keeps the low bits


def _lanes(fn: Callable[..., np.ndarray]) -> Callable[..., Any]:
    """Lift `fn(*arrays, dt)` to numpy scalars and arrays of one integer dtype `dt` (the
    first operand's): scalars in, a numpy scalar out; warnings silenced."""

    def run(*args: Any) -> Any:
        arrays = [np.asarray(a) for a in args]
        dt = arrays[0].dtype
        arrays = [a if a.dtype == dt else a.astype(dt) for a in arrays]
        with np.errstate(all="ignore"):
            out = np.asarray(fn(*arrays, dt))
        return out if out.ndim else out[()]

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _direct(ufunc: np.ufunc) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The interpreter's fast path for ops whose semantics on i8..i64 is plain numpy: when both
    operands are numpy values of one such dtype, call `ufunc` (integer ufuncs wrap and never
    warn, on arrays and on scalars alike); otherwise (i1, mixed or Python values) the general
    definition."""

    def wrap(general: Callable[..., Any]) -> Callable[..., Any]:
        def run(a: Any, b: Any) -> Any:
            dt = getattr(a, "dtype", None)
            if dt is not None and dt.kind == "i" and getattr(b, "dtype", None) == dt:
                return ufunc(a, b)
            return general(a, b)

        run.__name__ = general.__name__
        run.__doc__ = general.__doc__
        return run

    return wrap


def _scalar(exact: Callable[[int, int, int], int]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The fast path for two numpy integer scalars of one dtype (not i1): `exact(a, b, w)` on
    Python ints, reduced to the dtype (the interpreter runs loop.for bodies one scalar at a
    time; 0-d numpy calls cost ~1 µs each). Arrays and i1 take the vectorized definition."""

    def wrap(general: Callable[..., Any]) -> Callable[..., Any]:
        def run(a: Any, b: Any) -> Any:
            if isinstance(a, np.integer) and isinstance(b, np.integer) and a.dtype == b.dtype:
                dt = a.dtype
                return dt.type(wrap_int(exact(int(a), int(b), dt.itemsize * 8), dt))
            return general(a, b)

        run.__name__ = general.__name__
        run.__doc__ = general.__doc__
        return run

    return wrap


def wrap_unsigned(v: int, w: int) -> int:
    """A Python int's low w bits as an unsigned integer."""
    return v & ((1 << w) - 1)


def _trunc_div(a: int, b: int) -> int:
    """Python ints: a / b truncated toward zero (b != 0)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _amount(b: int, w: int) -> int:
    """A shift amount read as a w-bit unsigned integer."""
    return b & ((1 << w) - 1)


def _div_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Truncated quotient and remainder of signed lanes, defined everywhere: by 0 -> (0, 0),
    by -1 -> (-a wrapping, 0) (so MIN / -1 = MIN, the one quotient that overflows)."""
    zero, minus_one = b == 0, b == -1
    safe = np.where(zero | minus_one, 1, b).astype(b.dtype)
    r = np.fmod(a, safe)  # C's %: the dividend's sign; exact, since safe is not 0 or -1
    q = (a - r) // safe  # an exact division: floor == truncation
    q = np.where(minus_one, np.negative(a), q)
    return np.where(zero, 0, q).astype(a.dtype), r


@_scalar(lambda a, b, w: 0 if b == 0 else _trunc_div(a, b))
@_lanes
def divsi(a, b, dt):
    """Signed division truncating toward zero; x / 0 = 0, MIN / -1 = MIN."""
    return wrap_to(_div_parts(_signed(a), _signed(b))[0], dt)


@_scalar(lambda a, b, w: 0 if b == 0 else a - b * _trunc_div(a, b))
@_lanes
def remsi(a, b, dt):
    """Signed remainder with the dividend's sign; x % 0 = 0, MIN % -1 = 0."""
    return wrap_to(_div_parts(_signed(a), _signed(b))[1], dt)


@_scalar(lambda a, b, w: 0 if b == 0 else a // b)
@_lanes
def floordivsi(a, b, dt):
    """Signed division rounding toward -inf; x / 0 = 0, MIN / -1 = MIN."""
    sb = _signed(b)
    q, r = _div_parts(_signed(a), sb)
    return wrap_to(q - ((r != 0) & ((r < 0) != (sb < 0))), dt)


@_scalar(lambda a, b, w: 0 if b == 0 else -(-a // b))
@_lanes
def ceildivsi(a, b, dt):
    """Signed division rounding toward +inf; x / 0 = 0, MIN / -1 = MIN."""
    sb = _signed(b)
    q, r = _div_parts(_signed(a), sb)
    return wrap_to(q + ((r != 0) & ((r < 0) == (sb < 0))), dt)


def _udiv_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unsigned quotient and remainder; by 0 -> (0, 0)."""
    ua, ub = _unsigned(a), _unsigned(b)
    zero = ub == 0
    safe = np.where(zero, 1, ub).astype(ub.dtype)
    return np.where(zero, 0, ua // safe).astype(ua.dtype), ua % safe


@_scalar(lambda a, b, w: 0 if b == 0 else wrap_unsigned(a, w) // wrap_unsigned(b, w))
@_lanes
def divui(a, b, dt):
    """Unsigned division; x / 0 = 0."""
    return wrap_to(_udiv_parts(a, b)[0], dt)


@_scalar(lambda a, b, w: 0 if b == 0 else wrap_unsigned(a, w) % wrap_unsigned(b, w))
@_lanes
def remui(a, b, dt):
    """Unsigned remainder; x % 0 = 0."""
    return wrap_to(_udiv_parts(a, b)[1], dt)


@_scalar(lambda a, b, w: 0 if b == 0 else -(-wrap_unsigned(a, w) // wrap_unsigned(b, w)))
@_lanes
def ceildivui(a, b, dt):
    """Unsigned division rounding up; x / 0 = 0."""
    q, r = _udiv_parts(a, b)
    return wrap_to(q + (r != 0), dt)


@_direct(np.add)
@_lanes
def addi(a, b, dt):
    """Wrapping addition (i1: xor)."""
    return wrap_to(_signed(a) + _signed(b), dt)


@_direct(np.subtract)
@_lanes
def subi(a, b, dt):
    """Wrapping subtraction (i1: xor)."""
    return wrap_to(_signed(a) - _signed(b), dt)


@_direct(np.multiply)
@_lanes
def muli(a, b, dt):
    """Wrapping multiplication (i1: and)."""
    return wrap_to(_signed(a) * _signed(b), dt)


def _shift_amount(b: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(amount < width, the amount where it is, else 0), the amount read unsigned."""
    ub = _unsigned(b)
    inside = ub < width
    return inside, np.where(inside, ub, 0).astype(ub.dtype)


@_scalar(lambda a, b, w: 0 if _amount(b, w) >= w else a << _amount(b, w))
@_lanes
def shli(a, b, dt):
    """Left shift; an amount >= the width (unsigned) gives 0."""
    inside, s = _shift_amount(b, int_width(dt))
    ua = _unsigned(a)
    return wrap_to(np.where(inside, ua << s.astype(ua.dtype), 0).astype(ua.dtype), dt)


@_scalar(lambda a, b, w: 0 if _amount(b, w) >= w else wrap_unsigned(a, w) >> _amount(b, w))
@_lanes
def shrui(a, b, dt):
    """Logical right shift; an amount >= the width (unsigned) gives 0."""
    inside, s = _shift_amount(b, int_width(dt))
    ua = _unsigned(a)
    return wrap_to(np.where(inside, ua >> s.astype(ua.dtype), 0).astype(ua.dtype), dt)


@_scalar(lambda a, b, w: (-1 if a < 0 else 0) if _amount(b, w) >= w else a >> _amount(b, w))
@_lanes
def shrsi(a, b, dt):
    """Arithmetic right shift; an amount >= the width (unsigned) gives the sign fill."""
    inside, s = _shift_amount(b, int_width(dt))
    sa = _signed(a)
    fill = np.where(sa < 0, -1, 0).astype(sa.dtype)
    return wrap_to(np.where(inside, sa >> s.astype(sa.dtype), fill).astype(sa.dtype), dt)


@_direct(np.minimum)
@_lanes
def minsi(a, b, dt):
    return wrap_to(np.minimum(_signed(a), _signed(b)), dt)


@_direct(np.maximum)
@_lanes
def maxsi(a, b, dt):
    return wrap_to(np.maximum(_signed(a), _signed(b)), dt)


@_lanes
def minui(a, b, dt):
    return wrap_to(np.minimum(_unsigned(a), _unsigned(b)), dt)


@_lanes
def maxui(a, b, dt):
    return wrap_to(np.maximum(_unsigned(a), _unsigned(b)), dt)


@_lanes
def absi(a, dt):
    """|a|, wrapping: absi(MIN) = MIN (i1: absi(true) = true, |-1| = 1)."""
    return wrap_to(np.abs(_signed(a)), dt)


@_lanes
def ctpop(a, dt):
    """Number of set bits of the two's complement pattern (ctpop(-1 : i32) = 32)."""
    return wrap_to(np.bitwise_count(_unsigned(a)), dt)


@_lanes
def ipowi(a, b, dt):
    """a ** b wrapping; a negative exponent gives 1 / a**|b| truncated: 1 for a = 1,
    ±1 for a = -1, 0 otherwise (1 / 0 = 0, like division by zero)."""
    sa, sb = _signed(a), _signed(b)
    shape = np.broadcast_shapes(sa.shape, sb.shape)
    base = np.broadcast_to(_unsigned(a), shape).astype(np.uint64)  # wraps mod 2**64 ⊇ mod 2**w
    e = np.broadcast_to(np.where(sb > 0, sb, 0), shape).astype(np.uint64)
    result = np.ones(shape, np.uint64)
    while np.any(e):
        result = np.where(e & np.uint64(1), result * base, result)
        e = e >> np.uint64(1)
        base = base * base
    negative = np.where(sa == 1, 1, np.where(sa == -1, np.where(sb & 1, -1, 1), 0)).astype(np.int64)
    return wrap_to(np.where(sb < 0, negative.astype(np.uint64), result), dt)


def _cmp(compare: np.ufunc, view: Callable[[np.ndarray], np.ndarray]):
    def run(a: np.ndarray, b: np.ndarray, dt: np.dtype) -> np.ndarray:
        return compare(view(a), view(b))

    general = _lanes(run)
    return _direct(compare)(general) if view is _signed else general


CMPI: dict[str, Callable[[Any, Any], Any]] = {
    "eq": _cmp(np.equal, _signed),
    "ne": _cmp(np.not_equal, _signed),
    "slt": _cmp(np.less, _signed),
    "sle": _cmp(np.less_equal, _signed),
    "sgt": _cmp(np.greater, _signed),
    "sge": _cmp(np.greater_equal, _signed),
    "ult": _cmp(np.less, _unsigned),
    "ule": _cmp(np.less_equal, _unsigned),
    "ugt": _cmp(np.greater, _unsigned),
    "uge": _cmp(np.greater_equal, _unsigned),
}
"""arith.cmpi on lanes of one integer dtype (np.bool_ for i1: true is -1 signed, 1 unsigned)."""


# -------------------------------------------------------------------- conversions


def _int_or_float(r: np.ndarray, to: np.dtype) -> np.ndarray:
    return r.astype(to) if to.kind == "f" else wrap_to(r, to)


def fp_to_int(x, to: np.dtype, signed: bool = True):
    """fptosi (signed) / fptoui: truncate toward zero, saturate to the range of the
    `int_width(to)`-bit signed or unsigned integer, NaN -> 0; the result's bits as `to`."""
    w = int_width(to)
    lo, hi = (-(2 ** (w - 1)), 2 ** (w - 1) - 1) if signed else (0, 2**w - 1)
    if isinstance(x, np.floating | float):  # one scalar: Python floats, no 0-d arrays
        v = float(x)
        exact = 0 if v != v else (hi if v > 0 else lo) if v in (inf, -inf) else min(max(int(v), lo), hi)
        return to.type(wrap_int(exact, to))
    container = np.dtype(np.int64 if signed else np.uint64)
    with np.errstate(all="ignore"):
        t = np.trunc(np.asarray(x).astype(np.float64))  # exact for f32
        inside = (t >= float(lo)) & (t < float(hi + 1))  # powers of two: exact; False on NaN
        exact = np.where(inside, t, 0).astype(container)
        saturated = np.where(t > 0, container.type(hi), container.type(lo))
        out = np.where(inside, exact, np.where(np.isnan(t), container.type(0), saturated))
    out = wrap_to(out.astype(container), to)
    return out if out.ndim else out[()]


def int_to_fp(x, to: np.dtype, signed: bool = True):
    """sitofp / uitofp: the lanes read signed or unsigned, rounded to nearest even."""
    a = np.asarray(x)
    out = (_signed(a) if signed else _unsigned(a)).astype(to)
    return out if out.ndim else out[()]


def int_cast(x, to: np.dtype, signed: bool = True):
    """extsi / index_cast (signed) and extui (unsigned) and trunci: the value sign- or
    zero-extended, or its low bits kept."""
    a = np.asarray(x)
    out = wrap_to(_signed(a) if signed else _unsigned(a), to)
    return out if out.ndim else out[()]


def _conversion(kind: str) -> Callable[..., Any]:
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        to = numpy_dtype(op.results[0].type)
        x = args[0]
        if kind in ("fptosi", "fptoui"):
            return (fp_to_int(x, to, signed=kind == "fptosi"),)
        if kind in ("sitofp", "uitofp"):
            return (int_to_fp(x, to, signed=kind == "sitofp"),)
        if kind in ("sext", "zext"):
            return (int_cast(x, to, signed=kind == "sext"),)
        return (_quiet(lambda a: _result(a, op))(x),)  # extf, truncf: IEEE round to nearest

    return run


CONVERSIONS: dict[type[Operation], str] = {
    arith.IndexCastOp: "sext",
    arith.SIToFPOp: "sitofp",
    arith.UIToFPOp: "uitofp",
    arith.FPToSIOp: "fptosi",
    arith.FPToUIOp: "fptoui",
    arith.ExtFOp: "float",
    arith.TruncFOp: "float",
    arith.ExtSIOp: "sext",
    arith.ExtUIOp: "zext",
    arith.TruncIOp: "sext",  # keeps the low bits
}
"""Conversion op -> how its operand's lanes are read (docs/integer_semantics.md)."""


def _fpowi(x, n):
    """x ** n for an integer n by square-and-multiply in x's type (x**3 = x*(x*x),
    x**4 = (x*x)*(x*x): the products loop-simplify unrolls powi into), 1/x**|n| for n < 0."""
    x = np.asarray(x)
    n = _signed(np.asarray(n))  # an i1 exponent: true is -1
    exps = np.broadcast_to(n, np.broadcast_shapes(x.shape, n.shape))
    # |n| as uint64: abs(INT64_MIN) wraps to itself, which reads as 2**63 unsigned (a negative
    # count would never shift down to 0: loop-simplify folding fpowi(x, MIN) hung)
    remaining = np.abs(exps.astype(np.int64)).astype(np.uint64)
    base = np.broadcast_to(x, exps.shape).copy()
    result = np.ones(exps.shape, dtype=x.dtype)
    while np.any(remaining):
        result = np.where(remaining & np.uint64(1), result * base, result)
        remaining = remaining >> np.uint64(1)
        base = base * base
    out = np.where(exps < 0, np.asarray(1, result.dtype) / result, result)
    return out if out.ndim else out[()]


BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    # integers: docs/integer_semantics.md (wrapping, total division, defined shifts)
    arith.AddiOp: addi,
    arith.SubiOp: subi,
    arith.MuliOp: muli,
    arith.DivSIOp: divsi,
    arith.DivUIOp: divui,
    arith.RemSIOp: remsi,
    arith.RemUIOp: remui,
    arith.FloorDivSIOp: floordivsi,
    arith.CeilDivSIOp: ceildivsi,
    arith.CeilDivUIOp: ceildivui,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.ShLIOp: shli,
    arith.ShRUIOp: shrui,
    arith.ShRSIOp: shrsi,
    arith.MinSIOp: minsi,
    arith.MaxSIOp: maxsi,
    arith.MinUIOp: minui,
    arith.MaxUIOp: maxui,
    # minimumf/maximumf propagate NaN (IEEE 754-2019 minimum/maximum), like numpy
    arith.MinimumfOp: np.minimum,
    arith.MaximumfOp: np.maximum,
    # minnumf/maxnumf return the non-NaN operand
    arith.MinnumfOp: np.fmin,
    arith.MaxnumfOp: np.fmax,
    math.PowFOp: np.power,
    math.IPowIOp: ipowi,
    math.FPowIOp: _fpowi,
    math.CopySignOp: np.copysign,
    math.Atan2Op: np.arctan2,
}


def erf(x: Any) -> Any:
    """math.erf: numpy has none; the C library's in f64 (Python's math.erf), rounded once to x's type."""
    a = np.asarray(x)
    r = np.vectorize(libm_erf, otypes=[np.float64])(a.astype(np.float64))
    return r.astype(a.dtype) if a.shape else a.dtype.type(r)


UNARY: dict[type[Operation], Callable[[Any], Any]] = {
    arith.NegfOp: np.negative,
    math.AbsFOp: np.abs,
    math.AbsIOp: absi,
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
    math.ErfOp: erf,
    math.FloorOp: np.floor,
    math.CeilOp: np.ceil,
    math.TruncOp: np.trunc,
    math.RoundEvenOp: np.rint,
    math.CtPopOp: ctpop,
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


def _install_tables() -> None:
    """Attach one `@impl` method per table row, then register the class."""
    rows: list[tuple[type[Operation], Callable[..., Any]]] = [
        *((op, _binary_impl(fn)) for op, fn in BINARY.items()),
        *((op, _unary_impl(fn)) for op, fn in UNARY.items()),
        *((op, _conversion(kind)) for op, kind in CONVERSIONS.items()),
    ]
    for op, method in rows:
        setattr(LanewiseArithFunctions, "run_" + op.name.replace(".", "_"), impl(op)(method))
    register_impls(LanewiseArithFunctions)


_install_tables()
