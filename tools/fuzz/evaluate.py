"""An independent numpy evaluator of fuzzer kernels (it does not use `loopopt.interp`).

Semantics (docs/fuzzing.md): integers wrap; divsi/remsi by zero give 0, divsi(MIN, -1) = MIN,
remsi(MIN, -1) = 0 (truncating); shifts by an amount >= the width (unsigned) give 0 (shrsi: the
sign); fptosi saturates, NaN -> 0. Floats are IEEE in their own precision; min/max propagate
NaN. Reductions and scans run in element order from the init (a `reassoc` float sum gets a
bound instead). Each value carries a *taint* mask: lanes whose exact value the contract leaves
open (the sign of a zero from min/max of -0.0 and +0.0, copysign from a NaN's sign); tainted
lanes are not compared.

FMA contraction (a*b + c -> fma) is part of the avx2/avx512/neon contract: with `fma=True`
every contraction site (`fma_sites`) is evaluated fused (one rounding, libm's fma); the
generator keeps at most one site per kernel so "matches the unfused or the fused reference"
is an exact check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .program import (
    FLOATS,
    WIDTH,
    Arg,
    Const,
    Expr,
    Filter,
    Fold,
    Gather,
    Input,
    Kernel,
    Map,
    Op,
    Param,
    Project,
    Range,
    Reduce,
    Scalar,
    Scan,
    Select,
    node_types,
)

NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "i1": np.bool_}
UNSIGNED = {"i8": np.uint8, "i16": np.uint16, "i32": np.uint32, "i64": np.uint64}


def _bf16() -> Any:
    import ml_dtypes

    return ml_dtypes.bfloat16


def np_type(dt: str) -> Any:
    """The numpy scalar type of a dtype (bf16: ml_dtypes.bfloat16, imported on first use)."""
    return _bf16() if dt == "bf16" else NP[dt]


def round_to_bf16(x: np.ndarray) -> np.ndarray:
    """f32 -> bf16 by hand: round to nearest even on the f32 bits (8 significant bits kept),
    subnormals round, overflow gives inf, a NaN stays a NaN (its payload is not compared).
    Independent of ml_dtypes' conversion; ml_dtypes only holds the exact result."""
    f = np.asarray(x, np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    lsb = (bits >> 16) & 1
    rounded = ((bits + 0x7FFF + lsb) >> 16).astype(np.uint32)
    nan = np.isnan(f)
    rounded = np.where(nan, ((bits >> 16) | 0x40).astype(np.uint32), rounded).astype(np.uint16)
    return rounded.view(_bf16())
UFUNC = {
    "add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum,
    "and": np.bitwise_and, "or": np.bitwise_or, "umin": np.minimum, "umax": np.maximum,
}  # fmt: skip
"""Built-in reduction kinds (np.minimum / np.maximum propagate NaN; zero signs are tainted)."""


@dataclass
class Val:
    """An evaluated value: numpy array (0-d for scalars), taint mask, and where it came from."""

    a: np.ndarray
    taint: np.ndarray
    mul: tuple[Val, Val] | None = None
    """For a float map whose body is a product: its operands (a later add may contract it)."""
    open: bool = False
    """Its length is open: it comes from a filter whose predicate was tainted on some lane."""


@dataclass
class Ref:
    """The reference for one kernel result."""

    value: Any
    """ndarray (arrays, records as dict of field arrays) or numpy scalar."""
    taint: np.ndarray
    bound: np.ndarray | None = None
    """Absolute tolerance per element (reassociated float sums), None: exact."""
    open: bool = False
    """Nothing is known (a filter with a tainted predicate decided its length): not compared."""


def _v(a: Any, taint: Any = None) -> Val:
    a = np.asarray(a)
    t = np.zeros(a.shape, bool) if taint is None else np.broadcast_to(np.asarray(taint, bool), a.shape).copy()
    return Val(a, t)


def _fma(b: np.ndarray, c: np.ndarray, a: np.ndarray) -> np.ndarray:
    from loopopt.runtime.reference import fma

    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    if 0 in shape:
        return np.zeros(shape, a.dtype)
    return np.asarray(fma(b, c, a)).reshape(shape)


# --------------------------------------------------------------------------- lane-wise operations


def fmin(a: np.ndarray, b: np.ndarray, is_max: bool) -> tuple[np.ndarray, np.ndarray]:
    """arith.minimumf / maximumf: NaN-propagating; the sign of a zero tie is tainted."""
    pick = (a > b) if is_max else (a < b)
    r = np.where(pick, a, b)
    r = np.where(np.isnan(a) | np.isnan(b), np.array(np.nan, a.dtype), r)
    taint = (a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b))
    return r.astype(a.dtype), taint


def int_div(a: np.ndarray, b: np.ndarray, dt: str, rem: bool) -> np.ndarray:
    lo = np.iinfo(NP[dt]).min
    special = (b == 0) | ((a == lo) & (b == -1))
    bs = np.where(special, np.array(1, a.dtype), b)
    r = np.fmod(a, bs)
    if rem:
        return np.where(special, np.array(0, a.dtype), r).astype(a.dtype)
    q = (a - r) // bs
    q = np.where(b == 0, np.array(0, a.dtype), q)  # MIN / -1 keeps a / 1 = MIN
    return q.astype(a.dtype)


def shift(a: np.ndarray, b: np.ndarray, dt: str, left: bool) -> np.ndarray:
    w = WIDTH[dt]
    u = UNSIGNED[dt]
    bu = np.broadcast_to(b, np.broadcast_shapes(a.shape, b.shape)).astype(a.dtype).view(u)
    big = bu >= w
    amount = (bu & u(w - 1)).astype(u)
    au = np.broadcast_to(a, bu.shape).astype(a.dtype)
    if left:
        r = (au.view(u) << amount).view(a.dtype)
        return np.where(big, np.array(0, a.dtype), r)
    r = au >> amount.astype(a.dtype)
    return np.where(big, au >> np.array(w - 1, a.dtype), r)


def cast(x: np.ndarray, src: str, dst: str, is_unsigned: bool = False) -> np.ndarray:
    if dst == "bf16":
        f32 = np.asarray(x).astype(np.float32)  # f64 -> bf16 rounds twice (docs/design.md, as ml_dtypes)
        return round_to_bf16(f32)
    if src == "bf16":
        return np.asarray(x).astype(np.float32).astype(NP[dst])  # exact widening
    if dst == "f16":  # from f32 or f64, rounded once to nearest even (targets/c_part.py lo_f64_to_f16)
        with np.errstate(over="ignore"):
            return np.asarray(x).astype(np.float16)
    if src == "f16":
        return np.asarray(x).astype(NP[dst])  # exact widening
    if is_unsigned and src in FLOATS:
        w = WIDTH[dst]
        f = np.asarray(x).astype(np.float64)
        with np.errstate(all="ignore"):
            t = np.trunc(np.where(np.isfinite(f), f, 0.0))
            inside = (t >= 0) & (t < 2.0**w)
            u = np.where(inside, t, 0.0).astype(UNSIGNED[dst]) if w < 64 else _f64_to_u64(np.where(inside, t, 0.0))
        u = np.where(f >= 2.0**w, UNSIGNED[dst](2**w - 1), u)
        u = np.where(np.isnan(f), UNSIGNED[dst](0), u)
        return np.asarray(u).astype(UNSIGNED[dst]).astype(NP[dst])
    if is_unsigned and src != "i1":
        return unsigned(x).astype(NP[dst])  # uitofp / extui: the unsigned value (rounded once)
    if src in FLOATS and dst not in FLOATS:
        w = WIDTH[dst]
        f = x.astype(np.float64)
        info = np.iinfo(NP[dst])
        with np.errstate(all="ignore"):
            t = np.trunc(np.where(np.isfinite(f), f, 0.0))
            inside = (t < 2.0 ** (w - 1)) & (t >= -(2.0 ** (w - 1)))
            r = np.where(inside, t, 0.0).astype(NP[dst])
        r = np.where(f >= 2.0 ** (w - 1), NP[dst](info.max), r)
        r = np.where(f < -(2.0 ** (w - 1)), NP[dst](info.min), r)
        r = np.where(np.isnan(f), NP[dst](0), r)
        return r.astype(NP[dst])
    return x.astype(NP[dst])


def _f64_to_u64(t: np.ndarray) -> np.ndarray:
    """Integral floats in [0, 2^64) to uint64 exactly (numpy's cast of values >= 2^63 is
    platform-dependent)."""
    t = np.asarray(t, np.float64)
    big = t >= 2.0**63
    low = np.where(big, t - 2.0**63, t).astype(np.int64).astype(np.uint64)
    return np.where(big, low + np.uint64(2**63), low).astype(np.uint64)


FLOAT_CMP = {
    "oeq": np.equal, "one": np.not_equal, "olt": np.less, "ole": np.less_equal,
    "ogt": np.greater, "oge": np.greater_equal,
}  # fmt: skip
INT_CMP = {
    "eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
    "sgt": np.greater, "sge": np.greater_equal,
}  # fmt: skip


def unsigned(a: np.ndarray) -> np.ndarray:
    """The same bits read as an unsigned integer of their width (numpy's astype wraps)."""
    a = np.asarray(a)
    return a.astype(UNSIGNED[_dt_of(a)])


def _dt_of(a: np.ndarray) -> str:
    return {np.dtype(v): k for k, v in NP.items()}[a.dtype]


def compare(pred: str, a: np.ndarray, b: np.ndarray, is_float: bool) -> np.ndarray:
    if not is_float:
        if pred[0] == "u":
            return INT_CMP["s" + pred[1:]](unsigned(a), unsigned(b))
        return INT_CMP[pred](a, b)
    unordered = np.isnan(a) | np.isnan(b)
    if pred == "ord":
        return ~unordered
    if pred == "uno":
        return unordered
    if pred[0] == "o":
        return FLOAT_CMP[pred](a, b) & ~unordered
    return FLOAT_CMP["o" + pred[1:]](a, b) | unordered


def binary(name: str, a: np.ndarray, b: np.ndarray, dt: str) -> tuple[np.ndarray, np.ndarray | None]:
    if dt in FLOATS:
        match name:
            case "add":
                return a + b, None
            case "sub":
                return a - b, None
            case "mul":
                return a * b, None
            case "div":
                return a / b, None
            case "min" | "max":
                return fmin(a, b, name == "max")
            case "copysign":
                return np.copysign(a, b), np.isnan(b)
    match name:
        case "add":
            return a + b, None
        case "sub":
            return a - b, None
        case "mul":
            return a * b, None
        case "div" | "rem":
            return int_div(a, b, dt, name == "rem"), None
        case "min":
            return np.minimum(a, b), None
        case "max":
            return np.maximum(a, b), None
        case "and":
            return a & b, None
        case "or":
            return a | b, None
        case "xor":
            return a ^ b, None
        case "shl" | "shr":
            return shift(a, b, dt, name == "shl"), None
        case "ushr":
            return ushift(a, b, dt), None
        case "umin" | "umax":
            ua, ub = unsigned(a), unsigned(b)
            return (np.minimum(ua, ub) if name == "umin" else np.maximum(ua, ub)).astype(NP[dt]), None
        case "udiv" | "urem":
            ua, ub = unsigned(a), unsigned(b)
            zero = ub == 0
            safe = np.where(zero, np.ones_like(ub), ub)
            r = (ua % safe) if name == "urem" else (ua // safe)
            return np.where(zero, np.zeros_like(r), r).astype(NP[dt]), None
    raise ValueError(name)


def ushift(a: np.ndarray, b: np.ndarray, dt: str) -> np.ndarray:
    """shrui: a logical shift; 0 when the amount (unsigned) is >= the width."""
    w = WIDTH[dt]
    u = UNSIGNED[dt]
    ua, ub = np.broadcast_arrays(unsigned(a), unsigned(b))
    r = ua >> np.where(ub >= w, np.zeros_like(ub), ub)
    return np.where(ub >= w, np.zeros_like(ua), r).astype(u).astype(NP[dt])


def unary(name: str, a: np.ndarray, dt: str) -> np.ndarray:
    match name:
        case "neg":
            return -a
        case "abs":
            return np.abs(a)
        case "sqrt":
            return np.sqrt(a)
        case "floor":
            return np.floor(a)
        case "ceil":
            return np.ceil(a)
        case "trunc":
            return np.trunc(a)
    raise ValueError(name)


# --------------------------------------------------------------------------- FMA contraction sites


def _root_is_mul(kernel: Kernel, e: Expr, arg_srcs: tuple[int, ...] | None) -> bool:
    if isinstance(e, Op) and e.name == "mul" and e.dtype in FLOATS:
        return True
    if isinstance(e, Arg) and arg_srcs is not None and e.index < len(arg_srcs) and arg_srcs[e.index] is not None:
        src = kernel.nodes[arg_srcs[e.index]]
        return isinstance(src, Map) and _root_is_mul(kernel, src.expr, None)
    return False


def fma_sites(kernel: Kernel) -> list[tuple[int, Expr | None]]:
    """Where the pipeline may contract a float a*b + c: (node, add expr) or (node, None) for a
    non-reassoc add reduction/scan of a product map. An add of two products counts twice."""
    sites: list[tuple[int, Expr | None]] = []

    def scan(node_index: int, e: Expr | None, srcs: tuple[int, ...] | None) -> None:
        if e is None:
            return
        for x in _walk(e):
            if isinstance(x, Op) and x.name == "add" and x.dtype in FLOATS:
                for operand in x.args:
                    if _root_is_mul(kernel, operand, srcs):
                        sites.append((node_index, x))

    for i, node in enumerate(kernel.nodes):
        match node:
            case Map(srcs=srcs, expr=e):
                scan(i, e, srcs)
            case Filter(srcs=srcs, pred=e):
                scan(i, e, srcs)
            case Reduce(kind=kind, src=s, body=body, reassoc=ra):
                scan(i, body, None)
                if kind == "add" and _is_product_map(kernel, s) and not ra:
                    sites.append((i, None))
            case Scan(kind=kind, src=s, body=body):
                scan(i, body, None)
                if kind == "add" and _is_product_map(kernel, s):
                    sites.append((i, None))
            case Fold(bodies=bodies, srcs=srcs, inits=inits):
                shifted = (None,) * len(inits) + srcs
                for b in bodies:
                    scan(i, b, shifted)  # type: ignore[arg-type]
    return sites


def _is_product_map(kernel: Kernel, s: int) -> bool:
    src = kernel.nodes[s]
    return isinstance(src, Map) and _root_is_mul(kernel, src.expr, None)


def _walk(e: Expr):
    yield e
    if isinstance(e, Op):
        for a in e.args:
            yield from _walk(a)


# --------------------------------------------------------------------------- evaluation


class Evaluator:
    def __init__(self, kernel: Kernel, args: dict[int, Any], fma: bool = False):
        self.k = kernel
        self.types = node_types(kernel)
        self.fma = fma
        self.vals: dict[int, list[Val]] = {}
        self.args = args
        self.bounds: dict[int, np.ndarray] = {}

    # -- expressions

    def expr(self, e: Expr, env: list[Val]) -> Val:
        with np.errstate(all="ignore"):
            return self._expr(e, env)

    def _expr(self, e: Expr, env: list[Val]) -> Val:
        if isinstance(e, Arg):
            return env[e.index]
        if isinstance(e, Scalar):
            return self.value(e.ref)
        if isinstance(e, Const):
            return _v(np.array(e.value, NP[e.dtype]) if e.dtype != "i1" else np.bool_(e.value))
        assert isinstance(e, Op)
        if e.name.startswith("field:"):
            rec = env[e.args[0].index]  # type: ignore[union-attr]
            f = e.name.split(":", 1)[1]
            return _v(rec.a[f], rec.taint)  # type: ignore[index]
        if self.fma and e.name == "add" and e.dtype in FLOATS:
            for k in (0, 1):
                m = self._mul_operands(e.args[k], env)
                if m is not None:
                    other = self._expr(e.args[1 - k], env)
                    b, c = m
                    return Val(_fma(b.a, c.a, other.a).astype(NP[e.dtype]), b.taint | c.taint | other.taint)
        xs = [self._expr(a, env) for a in e.args]
        taint = xs[0].taint
        for x in xs[1:]:
            taint = taint | x.taint
        if e.name.startswith("cmp:"):
            r = compare(e.name[4:], xs[0].a, xs[1].a, e.args[0].dtype in FLOATS)
            return Val(np.asarray(r), np.asarray(taint))
        if e.name == "select":
            r = np.where(xs[0].a, xs[1].a, xs[2].a).astype(np_type(e.dtype))
            return Val(r, np.asarray(taint))
        if e.name in ("cast", "ucast"):
            return Val(np.asarray(cast(xs[0].a, e.args[0].dtype, e.dtype, e.name == "ucast")), np.asarray(taint))
        if len(xs) == 1:
            return Val(np.asarray(unary(e.name, xs[0].a, e.dtype)).astype(NP[e.dtype]), np.asarray(taint))
        r, extra = binary(e.name, xs[0].a, xs[1].a, e.dtype)
        if extra is not None:
            taint = taint | extra
        out = Val(np.asarray(r).astype(NP[e.dtype]), np.asarray(taint))
        if e.name == "mul" and e.dtype in FLOATS:
            out.mul = (xs[0], xs[1])
        return out

    def _mul_operands(self, e: Expr, env: list[Val]) -> tuple[Val, Val] | None:
        if isinstance(e, Op) and e.name == "mul" and e.dtype in FLOATS:
            v = self._expr(e, env)
            return v.mul
        if isinstance(e, Arg):
            return env[e.index].mul
        return None

    # -- nodes

    def value(self, index: int) -> Val:
        return self.values(index)[0]

    def values(self, index: int) -> list[Val]:
        if index not in self.vals:
            with np.errstate(all="ignore"):
                self.vals[index] = self.node(index, self.k.nodes[index])
        return self.vals[index]

    def node(self, i: int, node: Any) -> list[Val]:
        vals = self._node(i, node)
        if any(self.value(r).open for r in _array_refs(node)):
            for v in vals:
                v.open = True
                v.taint = np.ones(np.shape(v.a), bool)
        return vals

    def _node(self, i: int, node: Any) -> list[Val]:
        match node:
            case Input(fields=fields):
                a = self.args[i]
                if fields:
                    n = len(a[fields[0]])
                    return [Val(a, np.zeros(n, bool))]  # type: ignore[arg-type]
                return [_v(a)]
            case Param(dtype=dt):
                return [_v(np.array(self.args[i], NP[dt]))]
            case Range(start=s, end=e, step=st):
                r = np.arange(int(self.args[s]), int(self.args[e]), int(self.args[st]), dtype=np.int64)
                return [_v(r)]
            case Map(srcs=srcs, expr=e):
                env = [self.value(s) for s in srcs]
                shape = env[0].taint.shape
                v = self.expr(e, env)
                out = Val(np.broadcast_to(v.a, shape).copy(), np.broadcast_to(v.taint, shape).copy())
                if v.mul is not None:
                    b, c = v.mul
                    out.mul = (
                        Val(np.broadcast_to(b.a, shape), np.broadcast_to(b.taint, shape)),
                        Val(np.broadcast_to(c.a, shape), np.broadcast_to(c.taint, shape)),
                    )
                return [out]
            case Select(cond=c, a=a, b=b):
                cv, av, bv = self.value(c), self.value(a), self.value(b)
                r = np.where(cv.a, av.a, bv.a)
                return [Val(r.astype(av.a.dtype), (cv.taint | np.where(cv.a, av.taint, bv.taint)))]
            case Filter(srcs=srcs, pred=p):
                env = [self.value(s) for s in srcs]
                n = env[0].a.shape[0]
                pv = self.expr(p, env)
                mask = np.broadcast_to(pv.a, (n,))
                ambiguous = bool(np.broadcast_to(pv.taint, (n,)).any())
                outs = []
                for v in env:
                    kept = v.a[mask]
                    outs.append(Val(kept, np.full(kept.shape, True) if ambiguous else v.taint[mask], open=ambiguous))
                return outs
            case Project(src=s, index=k):
                return [self.values(s)[k]]
            case Gather(src=s, idx=ix):
                sv, iv = self.value(s), self.value(ix)
                idx = iv.a.astype(np.int64)
                inside = (idx >= 0) & (idx < sv.a.shape[0])
                safe = np.where(inside, idx, 0)
                picked = sv.a[safe] if sv.a.shape[0] else np.zeros(idx.shape, sv.a.dtype)
                r = np.where(inside, picked, np.zeros((), sv.a.dtype)).astype(sv.a.dtype)
                t = iv.taint | np.where(inside, sv.taint[safe] if sv.a.shape[0] else False, False)
                return [Val(r, t)]
            case Reduce():
                return [self.reduce(i, node)]
            case Scan():
                return [self.scan(i, node)]
            case Fold():
                return self.fold(node)
        raise TypeError(node)

    # -- reductions

    def combine(self, kind: str, acc: Val, x: Val, dt: str, body: Expr | None, fused: tuple[Val, Val] | None) -> Val:
        if kind == "custom":
            r = self.expr(body, [acc, x])  # type: ignore[arg-type]
            shape = np.broadcast_shapes(acc.a.shape, np.shape(x.a))
            return Val(np.broadcast_to(r.a, shape).astype(acc.a.dtype), np.broadcast_to(r.taint, shape).copy())
        t = acc.taint | x.taint
        with np.errstate(all="ignore"):
            if kind == "add" and fused is not None:
                return Val(_fma(fused[0].a, fused[1].a, acc.a).astype(acc.a.dtype), t | fused[0].taint | fused[1].taint)
            if kind in ("min", "max") and dt in FLOATS:
                r, extra = fmin(acc.a, x.a, kind == "max")
                return Val(r, t | extra)
            name = kind
            r, _ = binary(name, acc.a, x.a, dt)
            return Val(np.asarray(r).astype(acc.a.dtype), t)

    def reduce(self, i: int, node: Reduce) -> Val:
        src = self.value(node.src)
        dt = node.init.dtype
        axes = self.types[node.src][0].axes or ()
        over = node.over or axes
        a, taint = src.a, src.taint
        mul = src.mul if (self.fma and node.kind == "add" and not node.reassoc and dt in FLOATS) else None
        if len(axes) == 2:
            if tuple(over) == ("i", "j"):
                a, taint = a.reshape(-1), taint.reshape(-1)
                if mul is not None:
                    mul = tuple(Val(m.a.reshape(-1), m.taint.reshape(-1)) for m in mul)  # type: ignore[assignment]
                lanes: tuple[int, ...] = ()
                axis = 0
            else:
                axis = 0 if over == ("i",) else 1
                lanes = (a.shape[1 - axis],)
        else:
            axis = 0
            lanes = ()
        init = np.full(lanes, node.init.value, NP[dt]) if node.init.dtype != "i1" else np.full(lanes, bool(node.init.value))
        if node.reassoc and dt in FLOATS and node.kind == "add":
            acc = self.sum_pairwise(a, taint, axis, init)
            return acc
        acc = Val(init, np.zeros(lanes, bool))
        count = a.shape[axis]
        if node.body is None and mul is None:
            stacked = np.concatenate([init[None] if lanes else init.reshape(1), np.moveaxis(a, axis, 0)], axis=0)
            ufunc = UFUNC[node.kind]
            with np.errstate(all="ignore"):
                if dt in FLOATS and node.kind in ("add", "mul"):
                    r = ufunc.accumulate(stacked, axis=0)[-1]
                elif node.kind in ("umin", "umax"):
                    r = ufunc.reduce(unsigned(stacked), axis=0).astype(NP[dt])
                else:
                    r = ufunc.reduce(stacked, axis=0)
            t = np.moveaxis(taint, axis, 0).any(axis=0) if count else np.zeros(lanes, bool)
            if dt in FLOATS and node.kind in ("min", "max"):
                t = t | (r == 0)
            return Val(np.asarray(r).astype(NP[dt]), np.asarray(t))
        for k in range(count):
            x = Val(np.take(a, k, axis=axis), np.take(taint, k, axis=axis))
            fused = (Val(np.take(mul[0].a, k, axis=axis), np.take(mul[0].taint, k, axis=axis)),
                     Val(np.take(mul[1].a, k, axis=axis), np.take(mul[1].taint, k, axis=axis))) if mul else None  # fmt: skip
            acc = self.combine(node.kind, acc, x, dt, node.body, fused)
        if node.kind in ("min", "max") and dt in FLOATS:
            acc.taint = acc.taint | (acc.a == 0)
        return acc

    def sum_pairwise(self, a: np.ndarray, taint: np.ndarray, axis: int, init: np.ndarray) -> Val:
        """A reassociated float sum: the exact-ish value (in float64 / longdouble) and a bound."""
        dt = a.dtype
        wide = np.float64 if dt == np.float32 else np.longdouble
        with np.errstate(all="ignore"):
            total = np.sum(a.astype(wide), axis=axis) + init.astype(wide)
            mag = np.sum(np.abs(a.astype(wide)), axis=axis) + np.abs(init.astype(wide))
            m = a.shape[axis]
            eps = np.finfo(dt).eps
            bound = 2.0 * (m + 1) * eps * mag
            value = total.astype(dt)
            # Non-finite terms: the sum is exactly NaN/inf in any order; an overflow of finite
            # terms leaves the result open (taint).
            nonfinite = (~np.isfinite(a)).any(axis=axis) | ~np.isfinite(init)
            sequential = np.add.accumulate(np.concatenate([init.reshape((1,) + init.shape), np.moveaxis(a, axis, 0)]), axis=0)[-1]
            value = np.where(nonfinite, sequential, value).astype(dt)
            # finite terms whose magnitudes add up past the largest float may overflow to
            # either infinity in some order (then +inf + -inf is NaN): the result is open
            finite = np.where(np.isfinite(a), np.abs(a.astype(wide)), 0)
            mag_finite = np.sum(finite, axis=axis) + np.where(np.isfinite(init), np.abs(init.astype(wide)), 0)
            overflow = mag_finite >= wide(np.finfo(dt).max)
        t = np.moveaxis(taint, axis, 0).any(axis=0) if m else np.zeros(init.shape, bool)
        v = Val(np.asarray(value), np.asarray(t | overflow))
        self.bounds[id(v)] = np.asarray(np.where(nonfinite, 0.0, bound).astype(np.float64))
        return v

    def scan(self, i: int, node: Scan) -> Val:
        src = self.value(node.src)
        dt = node.init.dtype
        n = src.a.shape[0]
        mul = src.mul if (self.fma and node.kind == "add" and dt in FLOATS) else None
        if node.body is None and mul is None:
            with np.errstate(all="ignore"):
                seq = np.concatenate([np.array([node.init.value], NP[dt]), src.a])
                if node.kind in ("umin", "umax"):
                    r = UFUNC[node.kind].accumulate(unsigned(seq))[1:].astype(NP[dt])
                else:
                    r = UFUNC[node.kind].accumulate(seq)[1:]
            taint = np.logical_or.accumulate(src.taint) if n else src.taint.copy()
            if node.kind in ("min", "max") and dt in FLOATS:
                taint = taint | (r == 0)
            return Val(r.astype(NP[dt]), taint)
        acc = _v(np.array(node.init.value, NP[dt]))
        out = np.empty(n, NP[dt])
        taint = np.zeros(n, bool)
        for k in range(n):
            x = Val(src.a[k], src.taint[k])
            fused = (Val(mul[0].a[k], mul[0].taint[k]), Val(mul[1].a[k], mul[1].taint[k])) if mul else None
            acc = self.combine(node.kind, acc, x, dt, node.body, fused)
            out[k] = acc.a
            taint[k] = bool(np.any(acc.taint))
        if node.kind in ("min", "max") and dt in FLOATS:
            taint |= out == 0
        return Val(out, taint)

    def fold(self, node: Fold) -> list[Val]:
        srcs = [self.value(s) for s in node.srcs]
        accs = [_v(np.array(c.value, NP[c.dtype])) for c in node.inits]
        n = srcs[0].a.shape[0]
        for k in range(n):
            env = accs + [Val(s.a[k], s.taint[k], None) for s in srcs]
            # a fold's element from a product map can contract with an add in the body
            for j, s in enumerate(srcs):
                if s.mul is not None:
                    env[len(accs) + j].mul = (Val(s.mul[0].a[k], s.mul[0].taint[k]), Val(s.mul[1].a[k], s.mul[1].taint[k]))
            accs = [self.expr(b, env) for b in node.bodies]
            accs = [Val(np.asarray(v.a).astype(NP[c.dtype]), np.asarray(v.taint)) for v, c in zip(accs, node.inits)]
        return accs


def _array_refs(node: Any) -> list[int]:
    """The nodes a node reads whole (an open length makes all of its results open)."""
    match node:
        case Map(srcs=srcs) | Filter(srcs=srcs) | Fold(srcs=srcs):
            return list(srcs)
        case Select(a=a, b=b, cond=c):
            return [a, b, c]
        case Reduce(src=s) | Scan(src=s) | Project(src=s):
            return [s]
        case Gather(src=s, idx=ix):
            return [s, ix]
    return []


def evaluate(kernel: Kernel, args: dict[int, Any], fma: bool = False) -> list[Ref]:
    """The reference results of `kernel` on `args` (node index -> input array / scalar)."""
    ev = Evaluator(kernel, args, fma)
    refs = []
    for r in kernel.results:
        v = ev.value(r)
        bound = ev.bounds.get(id(v))
        t = ev.types[r][0]
        value: Any = v.a
        if t.axes is None:
            value = NP[t.dtype](v.a[()]) if v.a.shape == () else v.a
        refs.append(Ref(value, np.asarray(v.taint), bound, v.open))
    return refs
