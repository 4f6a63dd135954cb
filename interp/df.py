"""Reference semantics of the `df` dialect on numpy values (the oracle for every pass).

Value model:
* scalar: a numpy scalar of the exact dtype (np.float32, np.int64, np.bool_ for i1);
* df array: a numpy ndarray of rank 1 or 2 (row-major), of the element dtype;
* record / array of records: a `dict` from field name to the field's value (a numpy
  scalar for a record, a numpy array for an array of records): struct of arrays, in field
  order, like the C calling convention;
* tuple: a Python tuple of values.

A df.map / df.filter body runs ONCE over whole arrays (the body ops are lane-wise, see
interp/lanewise.py), and so do the fused forms' regions: a `where` predicate over the whole
inputs gives a mask, a `map` region (of df.filter, df.reduce, df.scan) then runs over the
kept elements. df.fold and custom reduce / scan bodies run element by element in order
(sequential semantics). Built-in reduce kinds use numpy in the element type
(integer sums wrap, float min/max propagate NaN); an empty reduction gives its init.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.utils.exceptions import InterpretationError

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, RecordType, ReduceKind, element_type_of
from loopopt.dialects.reduction_kind import unsigned_minmax, unsigned_order
from loopopt.interp.dtypes import numpy_dtype

MAX_RANGE_ELEMENTS = 1 << 40
"""A df.range longer than this is an interpretation error (it could not be held in memory)."""


def _quiet(method: Callable[..., PythonValues]) -> Callable[..., PythonValues]:
    """Silence numpy's overflow / invalid / divide warnings (IEEE results, wrapping ints)."""

    @wraps(method)
    def run(*args: Any) -> PythonValues:
        with np.errstate(all="ignore"):
            return method(*args)

    return run


def as_value(value: Any, t: Attribute) -> Any:
    """`value` in the value model of type `t` (exact dtype; records as dicts of fields)."""
    elem = element_type_of(t)
    if isinstance(elem, RecordType):
        if not isinstance(value, dict):
            raise InterpretationError(f"a {t} value must be a dict of fields, got {type(value).__name__}")
        return {name: as_value(value[name], t.with_element(ft) if isinstance(t, ArrayType) else ft)
                for name, ft in elem.fields}
    dt = numpy_dtype(elem)
    if isinstance(t, ArrayType):
        arr = np.asarray(value, dtype=dt)
        if arr.ndim != t.rank:
            raise InterpretationError(f"a {t} value must have rank {t.rank}, got shape {arr.shape}")
        return arr
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return value.astype(dt, copy=False)  # lanes of a scalar (inside a lane-wise body)
    return dt.type(value)


def _broadcast(value: Any, shape: tuple[int, ...], t: Attribute) -> Any:
    """A lane-wise body result as a full array of `shape` (constants and captures broadcast)."""
    if isinstance(t, RecordType):
        return {n: _broadcast(value[n], shape, ft) for n, ft in t.fields}
    return np.array(np.broadcast_to(np.asarray(value, dtype=numpy_dtype(t)), shape))


def _shape_of(value: Any) -> tuple[int, ...]:
    return _shape_of(next(iter(value.values()))) if isinstance(value, dict) else np.shape(value)


def _take(value: Any, index: Any) -> Any:
    """value[index] for arrays and dicts of field arrays."""
    if isinstance(value, dict):
        return {n: v[index] for n, v in value.items()}
    return value[index]


def _domain(op: Operation) -> tuple[str, ...] | None:
    """The axes a map (its results') or a broadcasting reduce (`ReduceOp.domain_axes`) iterates."""
    if isinstance(op, df.MapOp):
        return op.outputs.types[0].axis_names  # type: ignore[attr-defined]
    if isinstance(op, df.ReduceOp) and op.broadcasts:
        return op.domain_axes
    return None


def _broadcast_inputs(op: Operation, args: Sequence[Any]) -> Sequence[Any]:
    """Inputs on some of the domain's axes, spread over it by axis name (df_verify.broadcast_axes):
    `v` on `[j]` next to `m` on `[i, j]` becomes `v[None, :]`; `b` on `[j, k]` in an `[i, k, j]`
    domain becomes `b.T[None, :, :]`."""
    types = [getattr(v.type, "axis_names", None) for v in op.operands[: len(args)]]
    domain = _domain(op)
    if domain is None or all(t == domain for t in types):
        return args
    extent: dict[str, int] = {}
    for value, axes in zip(args, types, strict=True):
        for a, n in zip(axes, np.shape(value), strict=True):
            if extent.setdefault(a, n) != n:
                raise InterpretationError(f"{op.name}: inputs have {extent[a]} and {n} elements on axis {a!r}")
    shape = tuple(extent[a] for a in domain)
    out = []
    for value, axes in zip(args, types, strict=True):
        if axes != domain:
            value = np.asarray(value).transpose(sorted(range(len(axes)), key=lambda k: domain.index(axes[k])))
            value = np.broadcast_to(np.expand_dims(value, [k for k, a in enumerate(domain) if a not in axes]), shape)
        out.append(value)
    return out


def _common_shape(op: Operation, values: Sequence[Any]) -> tuple[int, ...]:
    shapes = {_shape_of(v) for v in values}
    if len(shapes) != 1:
        raise InterpretationError(
            f"{op.name}: inputs on one domain have different extents {sorted(shapes)}"
        )
    return shapes.pop()


def _combine(kind: ReduceKind, a: Any, b: Any) -> Any:
    """The binary operator of a built-in kind (numpy, NaN-propagating min/max, umin/umax on
    the unsigned view)."""
    if kind in (ReduceKind.UMIN, ReduceKind.UMAX):
        return unsigned_minmax(kind, a, b)
    return {
        ReduceKind.ADD: np.add,
        ReduceKind.MUL: np.multiply,
        ReduceKind.MIN: np.minimum,
        ReduceKind.MAX: np.maximum,
        ReduceKind.AND: np.bitwise_and,
        ReduceKind.OR: np.bitwise_or,
    }[kind](a, b)


_UFUNC = {
    ReduceKind.ADD: np.add,
    ReduceKind.MUL: np.multiply,
    ReduceKind.MIN: np.minimum,
    ReduceKind.MAX: np.maximum,
    ReduceKind.UMIN: np.minimum,  # on the unsigned view (_ordered)
    ReduceKind.UMAX: np.maximum,
    ReduceKind.AND: np.bitwise_and,
    ReduceKind.OR: np.bitwise_or,
}


def _ordered(kind: ReduceKind, x: np.ndarray) -> np.ndarray:
    """x as `_UFUNC[kind]` must see it: umin/umax compare the unsigned view of the bits."""
    return unsigned_order(x) if kind in (ReduceKind.UMIN, ReduceKind.UMAX) else x


def reduce_builtin(kind: ReduceKind, x: np.ndarray, init: Any, axes: tuple[int, ...]) -> Any:
    """init ⊕ reduce(x over axes), in x's dtype; an empty reduction gives init."""
    dt = x.dtype
    out_shape = tuple(s for k, s in enumerate(x.shape) if k not in axes)
    if any(x.shape[a] == 0 for a in axes):
        r = np.full(out_shape, init, dtype=dt)
        return r if out_shape else dt.type(init)
    o = _ordered(kind, x)
    r = np.asarray(_UFUNC[kind].reduce(o, axis=axes, dtype=o.dtype)).astype(dt)
    if kind == ReduceKind.ADD and dt.kind == "f":
        # numpy's add.reduce starts from +0.0; a round-to-nearest sum is -0.0 exactly when
        # every term is (in any order), so those sums get their sign back
        r = np.where(np.all((x == 0) & np.signbit(x), axis=axes), dt.type(-0.0), r)
    r = np.asarray(_combine(kind, dt.type(init), r)).astype(dt)
    return r if out_shape else dt.type(r[()])


@register_impls
class DFFunctions(InterpreterFunctions):
    """Interpretation of every df op. `seed` seeds df.random's generator."""

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    # -- sources -------------------------------------------------------------------------

    @impl(df.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: df.ConstantOp, args: PythonValues):
        return (as_value(op.value.value.data, op.result.type),)

    @impl(df.RangeOp)
    def run_range(self, interpreter: Interpreter, op: df.RangeOp, args: PythonValues):
        start, end, step = (int(a) for a in args)
        if step == 0:
            raise InterpretationError("df.range: step must not be 0 (the range would never end)")
        # Python's range on exact ints (np.arange computes the length in floating point and
        # is wrong near the i64 limits); elements as start + k*step, wrapping mod 2**64 on
        # the way but exact at the end (every element is a valid i64)
        n = len(range(start, end, step))
        if n > MAX_RANGE_ELEMENTS:
            raise InterpretationError(f"df.range: {n} elements are too many to interpret")
        k = np.arange(n, dtype=np.int64)
        with np.errstate(over="ignore"):
            return ((k * np.int64(step) + np.int64(start)).astype(np.int64),)

    @impl(df.RandomOp)
    def run_random(self, interpreter: Interpreter, op: df.RandomOp, args: PythonValues):
        n = int(args[0])
        if n < 0:
            raise InterpretationError(f"df.random: negative length {n}")
        dt = numpy_dtype(element_type_of(op.result.type))
        if np.issubdtype(dt, np.floating):
            return (self.rng.random(n, dtype=dt),)
        return (self.rng.integers(0, 2**31, n, dtype=dt),)

    # -- elementwise ---------------------------------------------------------------------

    @impl(df.MapOp)
    @_quiet
    def run_map(self, interpreter: Interpreter, op: df.MapOp, args: PythonValues):
        return _run_map(interpreter, op.body, op, args, [element_type_of(t) for t in op.outputs.types])

    @impl(df.FilterOp)
    @_quiet
    def run_filter(self, interpreter: Interpreter, op: df.FilterOp, args: PythonValues):
        kept = _kept(interpreter, op.body, op, args)
        if not op.has_map:
            return kept
        return _run_map(interpreter, op.map, op, kept, [element_type_of(t) for t in op.outputs.types])

    @impl(df.SelectOp)
    def run_select(self, interpreter: Interpreter, op: df.SelectOp, args: PythonValues):
        cond, a, b = args
        return (_select(cond, a, b, op.result.type),)

    @impl(df.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: df.GatherOp, args: PythonValues):
        x, idx = (np.asarray(a) for a in args)
        # exact integer compare (no wrap): every i32/i64 index, INT64_MIN..INT64_MAX included
        inside = (idx >= 0) & (idx < len(x))
        picked = x[np.where(inside, idx, 0)] if len(x) else np.zeros(idx.shape, x.dtype)
        return (np.where(inside, picked, np.zeros((), x.dtype)).astype(x.dtype),)

    # -- reductions ----------------------------------------------------------------------

    @impl(df.ReduceOp)
    @_quiet
    def run_reduce(self, interpreter: Interpreter, op: df.ReduceOp, args: PythonValues):
        n = len(op.inputs)
        xs, inits = _prologue(interpreter, op, args[:n]), args[n:]
        domain = op.domain_axes
        axes = tuple(domain.index(a) for a in op.over_axis_names)
        results: list[Any] = [None] * len(inits)
        custom = [k for k, kind in enumerate(op.kind_values) if kind == ReduceKind.CUSTOM]
        for k, kind in enumerate(op.kind_values):
            if kind != ReduceKind.CUSTOM:
                results[k] = reduce_builtin(kind, xs[k], inits[k], axes)
        if custom:
            finals = _reduce_custom(
                interpreter, op.body, [xs[k] for k in custom], [inits[k] for k in custom], axes
            )
            for k, v in zip(custom, finals, strict=True):
                t = op.outputs.types[k]
                results[k] = (
                    _broadcast(v, _shape_of(results_shape(xs[k], axes)), element_type_of(t))
                    if isinstance(t, ArrayType) else as_value(v, t)
                )
        return tuple(results)

    @impl(df.FoldOp)
    @_quiet
    def run_fold(self, interpreter: Interpreter, op: df.FoldOp, args: PythonValues):
        n = len(op.inputs)
        xs, accs = args[:n], tuple(args[n:])
        shape = _common_shape(op, xs)
        for idx in np.ndindex(*shape):  # row-major, in order
            accs = interpreter.run_ssacfg_region(
                op.body, (*accs, *(_take(x, idx) for x in xs)), "df.fold"
            )
        return tuple(as_value(a, t) for a, t in zip(accs, op.outputs.types, strict=True))

    @impl(df.ScanOp)
    @_quiet
    def run_scan(self, interpreter: Interpreter, op: df.ScanOp, args: PythonValues):
        *inputs, init = args
        (x,) = _prologue(interpreter, op, inputs)
        kind = op.kind.data
        if kind != ReduceKind.CUSTOM:
            seq = np.concatenate([np.asarray([init], dtype=x.dtype), x])
            o = _ordered(kind, seq)
            return (_UFUNC[kind].accumulate(o, dtype=o.dtype)[1:].astype(x.dtype),)
        out = np.empty_like(x)
        acc = init
        for k in range(x.shape[0]):
            (acc,) = interpreter.run_ssacfg_region(op.body, (acc, x[k]), "df.scan")
            out[k] = acc
        return (out,)

    # -- tuples, records, declarations ---------------------------------------------------

    @impl(df.MakeTupleOp)
    def run_make_tuple(self, interpreter: Interpreter, op: df.MakeTupleOp, args: PythonValues):
        return (tuple(args),)

    @impl(df.GetOp)
    def run_get(self, interpreter: Interpreter, op: df.GetOp, args: PythonValues):
        return (args[0][op.index.value.data],)

    @impl(df.MakeRecordsOp)
    def run_make_records(self, interpreter: Interpreter, op: df.MakeRecordsOp, args: PythonValues):
        rec = element_type_of(op.result.type)
        assert isinstance(rec, RecordType)
        if isinstance(op.result.type, ArrayType):
            _common_shape(op, args)
        return ({name: v for (name, _), v in zip(rec.fields, args, strict=True)},)

    @impl(df.FieldOp)
    def run_field(self, interpreter: Interpreter, op: df.FieldOp, args: PythonValues):
        return (args[0][op.field.data],)

    @impl(df.DeclRefOp)
    def run_decl_ref(self, interpreter: Interpreter, op: df.DeclRefOp, args: PythonValues):
        return tuple(interpreter.call_op(op.decl.string_value(), args))

    @impl_terminator(df.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: df.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


def _kept(interpreter: Interpreter, pred: Region, op: Operation, args: Sequence[Any]) -> tuple[Any, ...]:
    """The elements of `args` (rank-1 arrays of one domain) where `pred` (run lane-wise
    over the whole arrays) holds, compacted."""
    shape = _common_shape(op, args)
    (p,) = interpreter.run_ssacfg_region(pred, tuple(args), op.name)
    mask = np.broadcast_to(np.asarray(p, dtype=np.bool_), shape)
    return tuple(_take(a, mask) for a in args)


def _run_map(
    interpreter: Interpreter, region: Region, op: Operation, args: Sequence[Any], types: Sequence[Attribute]
) -> tuple[Any, ...]:
    """A lane-wise map region run once over whole arrays; results broadcast to their shape."""
    args = _broadcast_inputs(op, args)
    shape = _common_shape(op, args)
    outs = interpreter.run_ssacfg_region(region, tuple(args), op.name)
    return tuple(_broadcast(v, shape, t) for v, t in zip(outs, types, strict=True))


def _prologue(interpreter: Interpreter, op: df.ReduceOp | df.ScanOp, xs: Sequence[Any]) -> tuple[Any, ...]:
    """The values a reduce / scan combines: its inputs' elements where its `where`
    predicate holds (all without one), mapped by its `map` prologue (as they are without
    one). The prologue runs on the kept elements only."""
    if op.has_where:  # a scan with `where` scans the kept elements onto its new axis
        xs = _kept(interpreter, op.where, op, xs)
    if op.has_map:
        return _run_map(interpreter, op.map, op, xs, [v.type for v in _inits(op)])
    return tuple(xs)


def _inits(op: df.ReduceOp | df.ScanOp) -> list:
    return list(op.inits) if isinstance(op, df.ReduceOp) else [op.init]


def _select(cond: Any, a: Any, b: Any, t: Attribute) -> Any:
    elem = element_type_of(t)
    if isinstance(elem, RecordType):
        return {n: _select(cond, a[n], b[n], ft) for n, ft in elem.fields}
    out = np.where(np.asarray(cond, dtype=np.bool_), a, b).astype(numpy_dtype(elem))
    return out if out.ndim else out[()]


def results_shape(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """An empty array with the shape of x reduced over `axes`."""
    return np.empty(tuple(s for k, s in enumerate(x.shape) if k not in axes))


def _reduce_custom(
    interpreter: Interpreter, body: Region, xs: list[np.ndarray], accs: list[Any], axes: tuple[int, ...]
) -> tuple[Any, ...]:
    """Fold the custom triples' body over the reduced axes in index order.

    The kept axes stay whole (the body is lane-wise across them), so a rank-2 reduction
    over one axis runs the body once per index of the reduced axis.
    """
    if any(isinstance(x, dict) for x in xs):
        raise InterpretationError("df.reduce: custom reductions of records are not interpreted")
    rank = xs[0].ndim
    kept = [a for a in range(rank) if a not in axes]
    perm = kept + list(axes)
    moved = [np.transpose(x, perm) for x in xs]
    kept_shape = moved[0].shape[: len(kept)]
    reduced = int(np.prod(moved[0].shape[len(kept):], dtype=np.int64))
    flat = [m.reshape(kept_shape + (reduced,)) for m in moved]
    state = tuple(
        np.full(kept_shape, a, dtype=x.dtype) if kept_shape else x.dtype.type(a)
        for a, x in zip(accs, xs, strict=True)
    )
    for k in range(flat[0].shape[-1]):
        state = interpreter.run_ssacfg_region(body, (*state, *(f[..., k] for f in flat)), "df.reduce")
    return state
