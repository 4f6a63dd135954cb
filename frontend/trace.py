"""Tracing numpy-style Python functions into a DAG of array operations.

`trace(fn, specs)` calls `fn` once on tracer values (`TArray`, `TScalar`) that overload
Python's operators and take part in numpy's dispatch (`__array_ufunc__` for `np.sqrt`,
`np.maximum`, ..., `__array_function__` for `np.sum`, `np.where`, `np.clip`, ...). Every
operation records a `Node`; nothing is computed. `loopopt.frontend.lower` turns the nodes
into a df kernel.

Axes: each rank-1 input starts on its own axis; an elementwise operation on two arrays
unifies their axes (the runtime then checks the lengths are equal). `x[mask]` puts its
result on a new axis owned by the mask: arrays filtered by the same mask share it, and it
never unifies with another axis (its length is only known at run time).

Dtypes (float16, bfloat16, float32, float64, int8..int64, uint8..uint64, bool) follow numpy 2's promotion (NEP 50): Python numbers are
weak, so `x * 2.0` with an f32 `x` stays f32; bfloat16 follows ml_dtypes' ufuncs (a probe of np.add). Anything else is a `JitError` naming the
line of the user's function that asked for it.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import numpy as np

from loopopt.diagnostics import LoopoptDiagnostic

__all__ = ["JitError", "Node", "Axis", "TArray", "TScalar", "TRecord", "Trace", "trace", "SUPPORTED_DTYPES"]

try:
    import ml_dtypes

    _BF16: np.dtype[Any] | None = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bf16 is optional (pip install ml_dtypes); without it a bf16 array cannot exist
    _BF16 = None
_F16 = np.dtype(np.float16)
NARROW_FLOATS = tuple(d for d in (_F16, _BF16) if d is not None)
"""Storage floats: every operation on them computes in f32 and rounds its result (numpy's
float16 loops and ml_dtypes' bfloat16 loops do the same, one rounding per operation)."""
SUPPORTED_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
                                                np.uint8, np.uint16, np.uint32, np.uint64, np.bool_)) + NARROW_FLOATS
_SUPPORTED = "float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool"
"""Unsigned dtypes lower to the signless integer of their width with unsigned ops (`divui`,
`cmpi ult`, `extui`, `maxui`): docs/integer_semantics.md."""
_BOOL = np.dtype(np.bool_)
_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)
_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_U32 = np.dtype(np.uint32)
_F64 = np.dtype(np.float64)


def kind_of(dt: np.dtype[Any]) -> str:
    """numpy's dtype kind, with "f" for bfloat16 (ml_dtypes' dtype has kind "V")."""
    return "f" if dt == _BF16 else dt.kind

_HERE = os.path.dirname(os.path.abspath(__file__))
_NUMPY = os.path.dirname(os.path.abspath(np.__file__))


class JitError(LoopoptDiagnostic, TypeError):
    """An unsupported construct in a jitted function, located at the user's line
    (`file:line:col: error: ...`)."""


def _user_frame() -> FrameType | None:
    """The innermost frame outside loopopt.frontend and numpy: the user's call site."""
    frame = inspect.currentframe()
    while frame is not None:
        name = os.path.abspath(frame.f_code.co_filename)
        if not (name.startswith(_HERE) or name.startswith(_NUMPY)):
            return frame
        frame = frame.f_back
    return None


def where_now() -> str | None:
    frame = _user_frame()
    if frame is None:
        return None
    info = inspect.getframeinfo(frame, context=0)
    col = info.positions.col_offset if info.positions and info.positions.col_offset is not None else 0
    return f"{info.filename}:{info.lineno}:{col + 1}"


def error(message: str) -> JitError:
    return JitError(message, None, where_now())


# --------------------------------------------------------------------------- the DAG


class Axis:
    """An iteration domain (union-find). `mask` is the mask node of a filter's new axis."""

    def __init__(self, mask: Node | None = None, label: str = ""):
        self.parent: Axis | None = None
        self.mask = mask
        self.label = label

    def root(self) -> Axis:
        a = self
        while a.parent is not None:
            a = a.parent
        return a


def unify(a: Axis, b: Axis, what: str) -> Axis:
    ra, rb = a.root(), b.root()
    if ra is rb:
        return ra
    if ra.mask is not None or rb.mask is not None:
        raise error(f"{what}: the operands have different lengths (the result of boolean-mask indexing "
                    "has a data-dependent length and only combines with arrays filtered by the same mask)")
    rb.parent = ra
    return ra


@dataclass(eq=False)
class Node:
    """One traced operation. `axis` is None for a scalar."""

    op: str
    """arg, const, cast, bin, cmp, un, where, filter, gather, reduce, scan"""
    args: tuple[Node, ...]
    dtype: np.dtype[Any]
    axis: Axis | None = None
    attr: Any = None
    """The arg index, the constant, the bin/cmp/un/reduce/scan kind."""
    weak: bool = False
    """A Python number (NEP 50 weak scalar)."""
    where: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_array(self) -> bool:
        return self.axis is not None


ELEMENTWISE = frozenset({"const", "cast", "bin", "cmp", "un", "where"})


class Trace:
    """The nodes of one traced call and the kernel arguments."""

    def __init__(self) -> None:
        self.args: list[Node] = []
        self.arg_names: list[str] = []
        self.lengths: dict[int, Node] = {}
        """Hidden kernel arguments: per argument position j, an int64 scalar argument the
        caller sets to len(args[j]) (x[idx] wraps negative indices and checks bounds with it)."""
        self.checks: list[IndexCheck] = []
        """The bounds checks of x[idx]: extra kernel results the caller tests after the call."""
        self.narrow_gathers = True
        """x[idx] with 32-bit x and i8-i32 / u8-u16 indices wraps its index in i32 (so the gather
        has 32-bit lanes: the vector gather instruction); the caller then guarantees
        len(x) <= NARROW_GATHER_LIMIT (jit.py retraces with this False for longer x)."""


@dataclass(eq=False)
class IndexCheck:
    """x[idx]'s bounds: `bad` (bool: some index outside [-len(x), len(x))) and `largest` (the
    largest wrapped index as uint64, for the message) are kernel results; `length` is the
    position of the argument whose length len(x) is."""

    bad: Node
    largest: Node
    length: int
    signed: bool
    where: str | None
    bits: int = 64
    """The width of the wrapped index and of `largest` (32: the i32 wrap)."""


def _py_weak_value(n: Node) -> Any:
    """A Python value of the weak node's kind, for np.result_type."""
    if n.dtype.kind == "f":
        return 0.0
    if n.dtype.kind == "b":
        return False
    return 0


def promote(*nodes: Node, what: str, probe: Callable[..., Any] | None = None) -> np.dtype[Any]:
    """numpy's result dtype of an operation on `nodes` (NEP 50: Python numbers weak); with
    bfloat16 the dtype of `probe` (default: np.add, pairwise) run by ml_dtypes on one-element
    arrays (np.result_type disagrees with its ufuncs, which are what user code runs)."""
    strong = [n.dtype for n in nodes if not n.weak]
    weak = [_py_weak_value(n) for n in nodes if n.weak]
    if not strong:
        strong = [n.dtype for n in nodes]
        weak = []
    try:
        if _BF16 is not None and _BF16 in [n.dtype for n in nodes]:
            dt = _bf16_result([np.zeros(1, n.dtype) if not n.weak else _py_weak_value(n) for n in nodes], probe)
        else:
            dt = np.result_type(*strong, *weak)
    except TypeError as e:
        raise error(f"{what}: cannot promote {', '.join(str(n.dtype) for n in nodes)}: {e}") from None
    if dt not in SUPPORTED_DTYPES:
        raise error(f"{what}: the result dtype {dt} is not supported ({_SUPPORTED})")
    return dt


def _bf16_result(operands: list[Any], probe: Callable[..., Any] | None) -> np.dtype[Any]:
    """The dtype ml_dtypes gives (a bf16 array times a Python float is float32 there, np.clip
    of bf16 is float32); TypeError where it has no loop."""
    if probe is not None:
        return np.asarray(probe(*operands)).dtype
    r = operands[0]
    for o in operands[1:]:
        r = np.add(r, o)
    return np.asarray(r).dtype


def cast(n: Node, dt: np.dtype[Any]) -> Node:
    if n.dtype == dt:
        return n if not n.weak or n.op != "const" else Node("const", (), dt, None, n.attr, weak=False)
    if n.op == "const":
        v = n.attr
        if dt.kind in "iu":
            info = np.iinfo(dt)
            if not (info.min <= int(v) <= info.max):
                raise error(f"the Python integer {v} is out of bounds for {dt}")
            v = int(v)
        elif dt in NARROW_FLOATS:
            with np.errstate(over="ignore"):
                v = float(np.array(v, dt))  # rounded as numpy / ml_dtypes round it
        elif dt.kind == "f":
            v = float(v)
        else:
            v = bool(v)
        return Node("const", (), dt, None, v)
    if (dt in NARROW_FLOATS or n.dtype in NARROW_FLOATS) and not {dt, n.dtype} & {_F32, _F64}:
        return cast(cast(n, _F32), dt)  # to / from integers and the other narrow float through f32
    return _consed(("cast", dt.str, id(n)), lambda: Node("cast", (n,), dt, n.axis, where=n.where))


_CSE: list[dict[tuple[Any, ...], Node]] = []
"""Hash-consing of the trace being built: the same operation on the same operands is the same
node (so `x[x > 1]` twice is one filter, on one axis)."""


def _consed(key: tuple[Any, ...], make: Callable[[], Node]) -> Node:
    if not _CSE:
        return make()
    table = _CSE[-1]
    node = table.get(key)
    if node is None:
        node = table[key] = make()
    return node


def _const_key(n: Node) -> Any:
    return ("const", type(n.attr), repr(n.attr), n.dtype.str, n.weak) if n.op == "const" and not n.args else id(n)


def _elementwise(op: str, attr: Any, args: Sequence[Node], dtype: np.dtype[Any], what: str) -> Node:
    if op in ("bin", "un", "where") and dtype in NARROW_FLOATS:  # in f32, rounded once
        wide = [a if a.dtype == _BOOL and op == "where" and j == 0 else cast(a, _F32) for j, a in enumerate(args)]
        return cast(_elementwise(op, attr, wide, _F32, what), dtype)
    if op == "cmp" and args[0].dtype in NARROW_FLOATS:  # exact in f32
        return _elementwise(op, attr, [cast(a, _F32) for a in args], dtype, what)
    axis = None
    for a in args:
        if a.axis is not None:
            axis = a.axis if axis is None else unify(axis, a.axis, what)
    key = (op, attr, dtype.str, *(_const_key(a) for a in args))
    return _consed(key, lambda: Node(op, tuple(args), dtype, axis, attr, where=where_now()))


def wrap(n: Node) -> TArray | TScalar:
    return TArray(n) if n.is_array else TScalar(n)


def to_node(v: Any, what: str) -> Node:
    """A node from a tracer, a Python number or a numpy scalar (constants)."""
    if isinstance(v, Traced):
        return v.node
    if isinstance(v, bool):
        return Node("const", (), _BOOL, None, v, weak=True)
    if isinstance(v, int):
        return Node("const", (), _I64, None, v, weak=True)
    if isinstance(v, float):
        return Node("const", (), _F64, None, v, weak=True)
    if isinstance(v, np.generic) or (isinstance(v, np.ndarray) and v.ndim == 0):
        dt = np.asarray(v).dtype
        if dt not in SUPPORTED_DTYPES:
            raise error(f"{what}: dtype {dt} is not supported ({_SUPPORTED})")
        return Node("const", (), dt, None, np.asarray(v).item())
    if isinstance(v, np.ndarray):
        raise error(f"{what}: a numpy array that is not an argument of the jitted function cannot be "
                    "captured (pass it as an argument)")
    raise error(f"{what}: unsupported operand of type {type(v).__name__}")


# --------------------------------------------------------------------------- operations

_FLOAT_UNARY = {"sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil", "log2", "log10", "exp2",
                "expm1", "log1p", "tan", "arctan", "trunc", "rint"}


def binary(kind: str, a: Any, b: Any) -> TArray | TScalar:
    what = f"'{kind}'"
    na, nb = to_node(a, what), to_node(b, what)
    dt = promote(na, nb, what=what)
    if kind == "div":
        if kind_of(dt) != "f":
            dt = _F64
    elif kind in ("and", "or", "xor", "shl", "shr"):
        if kind_of(dt) == "f" or (kind in ("shl", "shr") and dt == _BOOL):
            raise error(f"{what} is not defined on floating-point values ({na.dtype}, {nb.dtype})")
    elif kind in ("add", "sub", "mul", "floordiv", "mod", "pow") and dt == _BOOL:
        raise error(f"{what} on two booleans is not supported (use &, | or ^, or cast with .astype)")
    elif kind in ("floordiv", "mod") and kind_of(dt) == "f":
        raise error(f"{what} is supported on integers only")
    if kind == "pow":
        if nb.op == "const" and isinstance(nb.attr, int | float) and float(nb.attr) in (2.0, 3.0) and \
                (kind_of(dt) == "f" or isinstance(nb.attr, int)):
            wide = _F32 if dt in NARROW_FLOATS else dt  # x**3 of a narrow float: rounded once, as numpy's power
            x = cast(na, wide)
            r = _elementwise("bin", "mul", (x, x), wide, what)
            if float(nb.attr) == 3.0:
                r = _elementwise("bin", "mul", (r, x), wide, what)
            return wrap(cast(r, dt))
        if kind_of(dt) != "f":
            raise error("'**' on integers is supported only with the constant exponents 2 and 3")
    return wrap(_elementwise("bin", kind, (cast(na, dt), cast(nb, dt)), dt, what))


def compare(pred: str, a: Any, b: Any) -> TArray | TScalar:
    what = f"comparison '{pred}'"
    na, nb = to_node(a, what), to_node(b, what)
    dt = promote(na, nb, what=what)
    return wrap(_elementwise("cmp", pred, (cast(na, dt), cast(nb, dt)), _BOOL, what))


def unary(kind: str, a: Any) -> TArray | TScalar:
    what = f"'{kind}'"
    n = to_node(a, what)
    dt = n.dtype
    if kind in _FLOAT_UNARY:
        if dt == _BOOL:
            raise error(f"np.{kind} of a boolean array is not supported (numpy gives float16)")
        if kind_of(dt) != "f":
            if kind in ("floor", "ceil", "trunc", "rint"):
                return wrap(n)
            dt = np.promote_types(dt, np.float16)  # numpy's: (u)int8 -> f16, (u)int16 -> f32, wider -> f64
        return wrap(_elementwise("un", kind, (cast(n, dt),), dt, what))
    if kind == "neg" and dt == _BOOL:
        raise error("negating a boolean is not supported (use ~)")
    if kind == "invert" and kind_of(dt) == "f":
        raise error("'~' is not defined on floating-point values")
    if kind == "abs" and dt == _BOOL:
        return wrap(n)
    if kind == "square":
        if dt == _BOOL:
            raise error("np.square of a boolean array is not supported")
        return wrap(_elementwise("bin", "mul", (n, n), dt, what))
    return wrap(_elementwise("un", kind, (n,), dt, what))


def where(c: Any, a: Any, b: Any) -> TArray | TScalar:
    what = "np.where"
    nc, na, nb = (to_node(v, what) for v in (c, a, b))
    if nc.dtype != _BOOL:
        nc = to_node(compare("ne", wrap(nc) if isinstance(c, Traced) else c, 0), what)
    dt = promote(na, nb, what=what, probe=lambda a, b: np.where(True, a, b))
    return wrap(_elementwise("where", None, (nc, cast(na, dt), cast(nb, dt)), dt, what))


def astype(a: Any, dtype: Any) -> TArray | TScalar:
    n = to_node(a, "astype")
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise error(f"astype: {e}") from None
    if dt not in SUPPORTED_DTYPES:
        raise error(f"astype: dtype {dt} is not supported ({_SUPPORTED})")
    if dt == _BOOL and n.dtype != _BOOL:
        return compare("ne", wrap(n), 0)
    return wrap(cast(n, dt))


def reduce(kind: str, a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
           keepdims: bool = False, initial: Any = None, where: Any = True) -> TScalar:
    what = f"np.{ {'add': 'sum', 'mul': 'prod'}.get(kind, kind)}"
    if out is not None or keepdims or initial is not None or where is not True or dtype is not None:
        raise error(f"{what}: only the array argument (and axis=0 or None) is supported")
    if axis not in (None, 0, -1, (0,)):
        raise error(f"{what}: axis={axis!r} is not supported (arrays are one-dimensional)")
    n = to_node(a, what)
    if not n.is_array:
        return TScalar(n)
    dt = n.dtype
    if kind in ("add", "mul") and dt.kind in "bi" and dt != _I64:
        n, dt = cast(n, _I64), _I64
    if kind in ("add", "mul") and dt.kind == "u" and dt != _U64:  # numpy sums unsigned in uint64
        n, dt = cast(n, _U64), _U64
    if kind in ("min", "max") and dt == _BOOL:
        kind = "and" if kind == "min" else "or"
    if dt in NARROW_FLOATS:
        _refuse_ordered(dt, what, kind)
        return TScalar(cast(Node("reduce", (cast(n, _F32),), _F32, None, kind, where=where_now()), dt))
    node = Node("reduce", (n,), dt, None, kind, where=where_now())
    return TScalar(node)


def _refuse_ordered(dt: np.dtype[Any], what: str, kind: str = "add") -> None:
    """ml_dtypes reduces bfloat16 in order, rounding to bfloat16 at every step (np.sum of 1000
    ones is 256), and numpy's cumsum of float16 rounds to float16 at every step: results a
    vectorized kernel accumulating in f32 does not reproduce, so they are refused."""
    if kind in ("add", "mul") and dt == _BF16:
        raise error(f"{what} of a bfloat16 array is not supported (ml_dtypes accumulates in bfloat16, in order); "
                    "use .astype(np.float32) first")


def scan(kind: str, a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> TArray:
    what = "np.cumsum" if kind == "add" else "np.cumprod"
    if out is not None or dtype is not None or axis not in (None, 0, -1):
        raise error(f"{what}: only the array argument (and axis=0 or None) is supported")
    n = to_node(a, what)
    if not n.is_array:
        raise error(f"{what} of a scalar is not supported")
    dt = n.dtype
    if dt in NARROW_FLOATS:
        raise error(f"{what} of a {dt} array is not supported (numpy rounds the running value to {dt} at "
                    "every step); use .astype(np.float32) first")
    if dt.kind in "bi" and dt != _I64:
        n, dt = cast(n, _I64), _I64
    if dt.kind == "u" and dt != _U64:
        n, dt = cast(n, _U64), _U64
    return TArray(Node("scan", (n,), dt, n.axis, kind, where=where_now()))


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> TScalar:
    n = to_node(a, "np.mean")
    if not n.is_array:
        raise error("np.mean of a scalar is not supported")
    if out is not None or keepdims or dtype is not None or axis not in (None, 0, -1):
        raise error("np.mean: only the array argument (and axis=0 or None) is supported")
    dt = n.dtype if kind_of(n.dtype) == "f" else _F64
    if dt in NARROW_FLOATS:  # numpy: the sum and the division in float32, then one rounding
        _refuse_ordered(dt, "np.mean")
        return astype(mean(wrap(cast(n, _F32))), dt)  # type: ignore[return-value]
    total = reduce("add", wrap(cast(n, dt)))
    ones = Node("const", (n,), _I64, n.axis, 1)  # 1 per element of n (n only gives the axis)
    count = TScalar(Node("reduce", (ones,), _I64, None, "add"))
    return binary("div", total, astype(count, dt))  # type: ignore[return-value]


def clip(a: Any, a_min: Any = None, a_max: Any = None, out: Any = None, **kwargs: Any) -> Any:
    if out is not None or kwargs:
        raise error("np.clip: only (a, a_min, a_max) are supported")
    what = "np.clip"
    nodes = [to_node(v, what) for v in (a, a_min, a_max) if v is not None]
    given = (a_min is not None, a_max is not None)
    dt = promote(*nodes, what=what, probe=lambda x, *b: np.clip(x, b[0] if given[0] else None,
                                                               b[-1] if given[1] else None))
    r: Any = wrap(cast(to_node(a, what), dt))
    if a_min is not None:
        r = binary("max", r, wrap(cast(to_node(a_min, what), dt)))
    if a_max is not None:
        r = binary("min", r, wrap(cast(to_node(a_max, what), dt)))
    return r


def mask_index(x: Any, mask: Any) -> TArray:
    nx, nm = to_node(x, "x[mask]"), to_node(mask, "x[mask]")
    if not nx.is_array:
        raise error("indexing a scalar is not supported")
    if not nm.is_array or nm.dtype != _BOOL:
        raise error("only boolean-mask indexing x[mask] is supported (a boolean array on x's axis)")
    unify(nx.axis, nm.axis, "x[mask]")  # type: ignore[arg-type]
    new_axis = nm.extra.get("filter_axis")
    if new_axis is None:
        new_axis = nm.extra["filter_axis"] = Axis(mask=nm)
    return TArray(_consed(("filter", id(nm), id(nx)),
                          lambda: Node("filter", (nm, nx), nx.dtype, new_axis, where=where_now())))


_TRACES: list[Trace] = []
"""The trace being recorded (x[idx] adds hidden arguments and results to it)."""


def gather_index(x: Any, idx: Any) -> TArray:
    """x[idx] with an integer index array: numpy's semantics. A negative index counts from the
    end; one outside [-len(x), len(x)) makes the call raise IndexError (jit.py tests the
    kernel's `bad` result). The kernel gathers at the wrapped index (df.gather, whose own
    bounds check then never fires), with len(x) a hidden argument."""
    nx, ni = to_node(x, "x[idx]"), to_node(idx, "x[idx]")
    if not nx.is_array:
        raise error("indexing a scalar is not supported")
    if ni.dtype.kind not in "iu":
        raise error(f"x[idx]: the index array must hold integers (or be a boolean mask), found {ni.dtype}")
    t = _TRACES[-1]
    root = nx.axis.root()  # type: ignore[union-attr]
    source = next((j for j, a in enumerate(t.args) if a.is_array and a.axis.root() is root), None)  # type: ignore[union-attr]
    if root.mask is not None or source is None:
        raise error("x[idx]: x must be an argument or computed elementwise from arguments (its length is "
                    "needed before the call); the result of boolean-mask indexing is not supported")
    n = t.lengths.get(source)
    if n is None:
        n = t.lengths[source] = Node("arg", (), _I64, None, len(t.args))
        t.args.append(n)
        t.arg_names.append(f"len_{t.arg_names[source]}")
    signed = ni.dtype.kind == "i"
    narrow = t.narrow_gathers and nx.dtype.itemsize == 4 and nx.dtype.kind in "fiu" and \
        ni.dtype.itemsize <= (4 if signed else 2)
    wide, unsigned = (_I32, _U32) if narrow else (_I64, _U64)
    length: Any = wrap(cast(n, _I32)) if narrow else wrap(n)  # exact: len(x) <= NARROW_GATHER_LIMIT then
    k: Any = wrap(cast(ni, wide))  # unsigned: the same bits (a uint64 past INT64_MAX is out of range)
    if signed:
        k = where(compare("lt", k, 0), binary("add", k, length), k)  # i32: no overflow as len(x) < 2**31
    ku = astype(k, unsigned)
    bad = reduce("or", compare("ge", ku, astype(length, unsigned)))
    largest = reduce("max", ku)
    here = where_now()
    t.checks.append(IndexCheck(bad.node, largest.node, source, signed, here, 32 if narrow else 64))
    kn = to_node(k, "x[idx]")
    return TArray(Node("gather", (nx, kn), nx.dtype, kn.axis, where=here))


# --------------------------------------------------------------------------- tracers


def _unsupported(what: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise error(what)
    return method


_UFUNCS: dict[Any, tuple[str, str]] = {
    np.add: ("bin", "add"), np.subtract: ("bin", "sub"), np.multiply: ("bin", "mul"),
    np.true_divide: ("bin", "div"), np.floor_divide: ("bin", "floordiv"), np.remainder: ("bin", "mod"),
    np.power: ("bin", "pow"), np.minimum: ("bin", "min"), np.maximum: ("bin", "max"),
    np.fmin: ("bin", "min"), np.fmax: ("bin", "max"),
    np.logical_and: ("bin", "and"), np.logical_or: ("bin", "or"), np.logical_xor: ("bin", "xor"),
    np.bitwise_and: ("bin", "and"), np.bitwise_or: ("bin", "or"), np.bitwise_xor: ("bin", "xor"),
    np.left_shift: ("bin", "shl"), np.right_shift: ("bin", "shr"),
    np.less: ("cmp", "lt"), np.less_equal: ("cmp", "le"), np.greater: ("cmp", "gt"),
    np.greater_equal: ("cmp", "ge"), np.equal: ("cmp", "eq"), np.not_equal: ("cmp", "ne"),
    np.negative: ("un", "neg"), np.absolute: ("un", "abs"), np.square: ("un", "square"),
    np.invert: ("un", "invert"), np.positive: ("un", "pos"),
    **{getattr(np, k): ("un", k) for k in _FLOAT_UNARY if hasattr(np, k)},
}


class Traced:
    """Common operator overloading of TArray and TScalar."""

    __array_priority__ = 1000

    def __init__(self, node: Node):
        self.node = node

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.node.dtype

    def __add__(self, o): return binary("add", self, o)
    def __radd__(self, o): return binary("add", o, self)
    def __sub__(self, o): return binary("sub", self, o)
    def __rsub__(self, o): return binary("sub", o, self)
    def __mul__(self, o): return binary("mul", self, o)
    def __rmul__(self, o): return binary("mul", o, self)
    def __truediv__(self, o): return binary("div", self, o)
    def __rtruediv__(self, o): return binary("div", o, self)
    def __floordiv__(self, o): return binary("floordiv", self, o)
    def __rfloordiv__(self, o): return binary("floordiv", o, self)
    def __mod__(self, o): return binary("mod", self, o)
    def __rmod__(self, o): return binary("mod", o, self)
    def __pow__(self, o): return binary("pow", self, o)
    def __rpow__(self, o): return binary("pow", o, self)
    def __and__(self, o): return binary("and", self, o)
    def __rand__(self, o): return binary("and", o, self)
    def __or__(self, o): return binary("or", self, o)
    def __ror__(self, o): return binary("or", o, self)
    def __xor__(self, o): return binary("xor", self, o)
    def __rxor__(self, o): return binary("xor", o, self)
    def __lt__(self, o): return compare("lt", self, o)
    def __le__(self, o): return compare("le", self, o)
    def __gt__(self, o): return compare("gt", self, o)
    def __ge__(self, o): return compare("ge", self, o)
    def __eq__(self, o): return compare("eq", self, o)  # type: ignore[override]
    def __ne__(self, o): return compare("ne", self, o)  # type: ignore[override]
    def __neg__(self): return unary("neg", self)
    def __pos__(self): return self
    def __abs__(self): return unary("abs", self)
    def __invert__(self): return unary("invert", self)

    __hash__ = object.__hash__

    __bool__ = _unsupported("the truth value of a traced value is not known while tracing: data-dependent "
                            "Python control flow (if/while/and/or on arrays) is not supported; use np.where")
    __float__ = _unsupported("float() of a traced value is not supported (values are only known at run time)")
    __int__ = _unsupported("int() of a traced value is not supported (values are only known at run time)")
    __index__ = _unsupported("a traced value cannot be used as an index or a length")
    __complex__ = _unsupported("complex values are not supported")
    __len__ = _unsupported("len() of a traced array is not supported (lengths are only known at run time)")
    __iter__ = _unsupported("iterating over a traced array in Python is not supported: use array operations")
    __matmul__ = __rmatmul__ = _unsupported("'@' is not supported")
    def __lshift__(self, o): return binary("shl", self, o)
    def __rlshift__(self, o): return binary("shl", o, self)
    def __rshift__(self, o): return binary("shr", self, o)  # arithmetic on signed, logical on unsigned
    def __rrshift__(self, o): return binary("shr", o, self)
    __setitem__ = _unsupported("assignment into an array is not supported: build a new array (np.where)")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise error(f"'.{name}' of a traced value is not supported by loopopt.jit")

    def astype(self, dtype: Any, **kwargs: Any) -> Any:
        if kwargs:
            raise error("astype: only the dtype argument is supported")
        return astype(self, dtype)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method != "__call__":
            raise error(f"np.{ufunc.__name__}.{method} is not supported")
        if kwargs:
            raise error(f"np.{ufunc.__name__}: keyword arguments ({', '.join(kwargs)}) are not supported")
        entry = _UFUNCS.get(ufunc)
        if entry is None:
            raise error(f"np.{ufunc.__name__} is not supported by loopopt.jit")
        kind, name = entry
        if kind == "un":
            return self if name == "pos" else unary(name, inputs[0])
        a, b = inputs
        if ufunc in (np.logical_and, np.logical_or, np.logical_xor):
            a, b = astype(a, np.bool_), astype(b, np.bool_)
        return binary(name, a, b) if kind == "bin" else compare(name, a, b)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        impl = _FUNCTIONS.get(func)
        if impl is None:
            raise error(f"np.{getattr(func, '__name__', func)} is not supported by loopopt.jit")
        return impl(*args, **kwargs)

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise error("a traced value cannot be converted to a numpy array (np.asarray, np.array, ...) "
                    "while tracing")

    def __repr__(self) -> str:
        kind = "array" if self.node.is_array else "scalar"
        return f"<traced {kind} {self.node.dtype}>"


class TArray(Traced):
    """A traced rank-1 array."""

    ndim = 1

    @property
    def shape(self) -> Any:
        raise error(".shape of a traced array is not supported (lengths are only known at run time)")

    @property
    def size(self) -> Any:
        raise error(".size of a traced array is not supported (lengths are only known at run time)")

    def __getitem__(self, index: Any) -> TArray:
        if isinstance(index, Traced):
            if index.node.dtype == _BOOL:
                return mask_index(self, index)
            return gather_index(self, index)
        raise error(f"indexing with {type(index).__name__} is not supported (only x[boolean mask] and "
                    "x[integer index array])")

    def sum(self, *a: Any, **k: Any) -> TScalar: return reduce("add", self, *a, **k)
    def prod(self, *a: Any, **k: Any) -> TScalar: return reduce("mul", self, *a, **k)
    def min(self, *a: Any, **k: Any) -> TScalar: return reduce("min", self, *a, **k)
    def max(self, *a: Any, **k: Any) -> TScalar: return reduce("max", self, *a, **k)
    def mean(self, *a: Any, **k: Any) -> TScalar: return mean(self, *a, **k)
    def all(self) -> TScalar: return reduce("and", astype(self, np.bool_))
    def any(self) -> TScalar: return reduce("or", astype(self, np.bool_))
    def cumsum(self, *a: Any, **k: Any) -> TArray: return scan("add", self, *a, **k)
    def cumprod(self, *a: Any, **k: Any) -> TArray: return scan("mul", self, *a, **k)
    def clip(self, a_min: Any = None, a_max: Any = None) -> Any: return clip(self, a_min, a_max)


class TScalar(Traced):
    """A traced scalar: an argument, a reduction's result, or arithmetic on those."""

    ndim = 0
    shape = ()


class TRecord(dict):  # type: ignore[type-arg]
    """The fields of a record argument (a dict of arrays, or a structured array) by name."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __missing__(self, key: Any) -> Any:
        raise error(f"the record has no field {key!r} (fields: {', '.join(map(str, self))})")


def _axis_error() -> Any:
    raise error("np.take: only axis=None or 0 is supported (arrays are one-dimensional)")


def _np_where(condition: Any, x: Any = None, y: Any = None) -> Any:
    if x is None or y is None:
        raise error("np.where(cond) with one argument (indices) is not supported: use x[cond]")
    return where(condition, x, y)


_FUNCTIONS: dict[Any, Callable[..., Any]] = {
    np.sum: lambda a, *r, **k: reduce("add", a, *r, **k),
    np.prod: lambda a, *r, **k: reduce("mul", a, *r, **k),
    np.min: lambda a, *r, **k: reduce("min", a, *r, **k),
    np.max: lambda a, *r, **k: reduce("max", a, *r, **k),
    np.amin: lambda a, *r, **k: reduce("min", a, *r, **k),
    np.amax: lambda a, *r, **k: reduce("max", a, *r, **k),
    np.all: lambda a: reduce("and", astype(a, np.bool_)),
    np.any: lambda a: reduce("or", astype(a, np.bool_)),
    np.cumsum: lambda a, *r, **k: scan("add", a, *r, **k),
    np.cumprod: lambda a, *r, **k: scan("mul", a, *r, **k),
    np.mean: mean,
    np.take: lambda a, indices, axis=None: gather_index(a, indices) if axis in (None, 0) else _axis_error(),
    np.where: _np_where,
    np.clip: clip,
}


# --------------------------------------------------------------------------- entry


@dataclass
class ArgSpec:
    """What one argument of the jitted function is: an array, a scalar, or a record."""

    kind: str
    """array, scalar, record"""
    dtype: np.dtype[Any] | None = None
    weak: bool = False
    fields: tuple[tuple[str, np.dtype[Any]], ...] = ()


def trace(fn: Callable[..., Any], specs: Sequence[ArgSpec], names: Sequence[str],
          narrow_gathers: bool = True) -> tuple[Trace, Any]:
    """Call fn on tracers built from `specs`; returns the trace and fn's result (tracers)."""
    t = Trace()
    t.narrow_gathers = narrow_gathers

    def arg(dtype: np.dtype[Any], is_array: bool, name: str, weak: bool = False) -> Node:
        node = Node("arg", (), dtype, Axis(label=name) if is_array else None, len(t.args), weak=weak)
        t.args.append(node)
        t.arg_names.append(name)
        return node

    values: list[Any] = []
    for spec, name in zip(specs, names, strict=True):
        if spec.kind == "record":
            values.append(TRecord({f: TArray(arg(dt, True, f"{name}_{f}")) for f, dt in spec.fields}))
        else:
            assert spec.dtype is not None
            values.append(wrap(arg(spec.dtype, spec.kind == "array", name, spec.weak)))
    _CSE.append({})
    _TRACES.append(t)
    try:
        with np.errstate(all="ignore"):
            out = fn(*values)
    finally:
        _CSE.pop()
        _TRACES.pop()
    return t, out
