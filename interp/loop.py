"""Semantics of the `loop` dialect on numpy values.

A `!loop.buf` is a writable numpy array (2-D for rank 2), an `index` an np.int64 and every
other scalar a numpy scalar of its exact dtype. Loop bodies are run by xDSL's interpreter,
with `arith`/`math` lane-wise (interp/lanewise.py), so one body serves three modes:

* scalar (`loop.for`, `loop.zip`, a vector loop's scalar tail, any width-1 loop): the loop
  variable is an np.int64;
* lane-wise (a `loop.vecloop` block): the variable is an int64 array of W lanes, so values
  that depend on it are arrays of lanes and the others stay scalars (uniform); loads
  gather (or broadcast, for a uniform index), stores scatter;
* compressed (a `loop.predloop` block): the body sees only the active lanes, in order.

Vector accumulators start at their kind's neutral element on every lane, are reduced
horizontally in lane order after the last full block and then combined with the init;
results therefore depend on the width only through float reassociation. A symbolic width
`#loop.width<W>` runs with `LoopFunctions.symbolic_width` lanes (default 4).

Every buffer access is bounds-checked: an index past either end is an InterpretationError
(numpy would silently wrap negative indices).
"""

from __future__ import annotations

import weakref

from collections.abc import Sequence
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
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccKind, TailKind, neutral_element
from loopopt.interp.dtypes import numpy_dtype



# --------------------------------------------------------------------------- buffers and indices


def _buffer(op: Operation, buf: Any, t: Attribute) -> np.ndarray:
    """The runtime buffer, checked against its `!loop.buf` type."""
    assert isinstance(t, loop.BufType)
    if not isinstance(buf, np.ndarray):
        raise InterpretationError(f"{op.name}: expected a numpy buffer, got {type(buf).__name__}")
    if buf.ndim != t.rank.data:
        raise InterpretationError(f"{op.name}: buffer has {buf.ndim} dimensions, type {t} has {t.rank.data}")
    dt = numpy_dtype(t.element_type)
    if buf.dtype != dt:
        raise InterpretationError(f"{op.name}: buffer dtype {buf.dtype} != element type {dt}")
    return buf


_INT64_HALF, _INT64_SPAN = 1 << 63, 1 << 64

_Plan = list[tuple[int, list[tuple[int, int]]]]
_plans: "weakref.WeakKeyDictionary[Operation, tuple[tuple[Attribute, ...], _Plan]]" = weakref.WeakKeyDictionary()


def _plan(op: loop.LoadOp | loop.StoreOp) -> _Plan:
    """Per dimension: (offset, [(index operand position, coeff)]) — decoded once per op.

    Decoding the affine properties dominated the cost of interpreting a load; the plan is
    keyed on the op and revalidated against the property attributes it was built from.
    """
    key = (op.dim_terms, op.coeffs, op.offsets)
    cached = _plans.get(op)
    if cached is not None and all(a is b for a, b in zip(cached[0], key, strict=True)):
        return cached[1]
    position = {v: k for k, v in enumerate(op.indices)}
    plan = [(a.offset, [(position[v], c) for v, c in a.terms]) for a in op.affine_indices]
    _plans[op] = (key, plan)
    return plan


def _out_of_bounds(op: loop.LoadOp | loop.StoreOp, bad: int, d: int, length: int) -> InterpretationError:
    return InterpretationError(f"{op.name}: index {bad} out of bounds of dimension {d} (length {length})")


def _index(op: loop.LoadOp | loop.StoreOp, buf: np.ndarray, index_values: Sequence[Any]) -> tuple[Any, ...]:
    """Each dimension's Σ coeff·var + offset (an int64 or an int64 array of lanes), bounds-checked."""
    out: list[Any] = []
    for d, (offset, terms) in enumerate(_plan(op)):
        if all(type(index_values[k]) is np.int64 for k, _ in terms):
            # Scalar indices (scalar loops): Python integers wrapped to int64 give what the int64
            # arithmetic below gives, at a fraction of its cost per load and store.
            exact = offset + sum(c * int(index_values[k]) for k, c in terms)
            wrapped = (exact + _INT64_HALF) % _INT64_SPAN - _INT64_HALF
            if not 0 <= wrapped < buf.shape[d]:
                raise _out_of_bounds(op, wrapped, d, buf.shape[d])
            out.append(np.int64(wrapped))
            continue
        idx: Any = np.int64(offset)
        for k, c in terms:
            idx = idx + np.int64(c) * np.asarray(index_values[k], dtype=np.int64)
        idx = np.asarray(idx, dtype=np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= buf.shape[d]):
            bad = idx[(idx < 0) | (idx >= buf.shape[d])].reshape(-1)[0]
            raise _out_of_bounds(op, int(bad), d, buf.shape[d])
        out.append(idx if idx.ndim else np.int64(idx))
    return tuple(out)


def _lanes_of(value: Any) -> int | None:
    return len(value) if isinstance(value, np.ndarray) and value.ndim else None


# --------------------------------------------------------------------------- ranges


def _uniform_int(op: Operation, value: Any) -> int:
    """A loop bound as a Python int; bounds varying across lanes are an error."""
    arr = np.asarray(value)
    if arr.ndim and arr.size:
        if np.any(arr != arr.reshape(-1)[0]):
            raise InterpretationError(f"{op.name}: loop bounds vary across lanes")
        return int(arr.reshape(-1)[0])
    return int(arr)


def _range(op: loop.LoopLike, bounds: Sequence[Any]) -> tuple[int, int, int]:
    """(first value, step, trip count) of the op's LoopRange."""
    lo, hi = _uniform_int(op, bounds[0]), _uniform_int(op, bounds[1])
    step = 1 if op.is_interval else _uniform_int(op, bounds[2])
    if step == 0:
        raise InterpretationError(f"{op.name}: range step is 0")
    if step > 0:
        trips = max(0, -(-(hi - lo) // step))
    else:
        trips = max(0, -(-(lo - hi) // -step))
    return lo, step, trips


# --------------------------------------------------------------------------- accumulators


def _dtype(t: Attribute) -> np.dtype:
    return numpy_dtype(t)


def _neutral(kind: AccKind, t: Attribute) -> Any:
    return _dtype(t).type(neutral_element(kind, t))


def _combine(kind: AccKind, t: Attribute, a: Any, b: Any) -> Any:
    if kind == AccKind.CUSTOM:
        raise InterpretationError("a custom accumulator cannot be combined across lanes")
    with np.errstate(all="ignore"):
        return _dtype(t).type(kind.combine(t, a, b))  # the kinds' one definition: i1 add is xor


def _hreduce(kind: AccKind, t: Attribute, lanes: np.ndarray) -> Any:
    """The lanes of a vector accumulator combined left to right (lane order)."""
    result = _dtype(t).type(lanes[0])
    for x in lanes[1:]:
        result = _combine(kind, t, result, x)
    return result


def _broadcast(value: Any, n: int, t: Attribute) -> np.ndarray:
    """A yielded value as n lanes (a uniform value is the same on every lane)."""
    return np.array(np.broadcast_to(np.asarray(value, dtype=_dtype(t)), (n,)))


@register_impls
class LoopFunctions(InterpreterFunctions):
    """Interpreter functions of the `loop` dialect."""

    def __init__(self, symbolic_width: int = 4):
        if symbolic_width <= 0:
            raise ValueError(f"symbolic width must be positive, got {symbolic_width}")
        self.symbolic_width = symbolic_width
        """Lanes used for a `#loop.width<W>` that lowering has not made concrete yet."""
        self._append_at: dict[loop.PredLoopOp, tuple[int, int]] = {}
        """Per running predloop: (cursor, active lanes) of the body execution in progress."""
        self._block_lanes: dict[Operation, int] = {}
        """Per running vector loop: the lanes of the body execution in progress (1 in a tail)."""

    # ----------------------------------------------------------------- buffers

    @impl(loop.DimOp)
    def run_dim(self, interpreter: Interpreter, op: loop.DimOp, args: PythonValues):
        buf = _buffer(op, args[0], op.buf.type)
        return (np.int64(buf.shape[op.dim.value.data]),)

    @impl(loop.CallDimOp)
    def run_call_dim(self, interpreter: Interpreter, op: loop.CallDimOp, args: PythonValues):
        """The interpreter runs a parallel kernel unsplit: the whole call is this one."""
        return (np.int64(_buffer(op, args[0], op.buf.type).shape[0]),)

    @impl(loop.AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: loop.AllocOp, args: PythonValues):
        t = op.result.type
        assert isinstance(t, loop.BufType)
        shape = tuple(_uniform_int(op, n) for n in args)
        if any(n < 0 for n in shape):
            raise InterpretationError(f"loop.alloc: negative size in {shape}")
        return (np.zeros(shape, dtype=_dtype(t.element_type)),)

    @impl(loop.DeallocOp)
    def run_dealloc(self, interpreter: Interpreter, op: loop.DeallocOp, args: PythonValues):
        _buffer(op, args[0], op.buf.type)
        return ()

    @impl(loop.LoadOp)
    def run_load(self, interpreter: Interpreter, op: loop.LoadOp, args: PythonValues):
        buf = _buffer(op, args[0], op.buf.type)
        value = buf[_index(op, buf, args[1:])]
        return (value.copy() if isinstance(value, np.ndarray) else value,)

    @impl(loop.StoreOp)
    def run_store(self, interpreter: Interpreter, op: loop.StoreOp, args: PythonValues):
        value, raw_buf, *indices = args
        buf = _buffer(op, raw_buf, op.buf.type)
        idx = _index(op, buf, indices)
        if _lanes_of(value) is not None and all(np.ndim(i) == 0 for i in idx):
            raise InterpretationError("loop.store: a lane-varying value stored to a uniform index")
        buf[idx] = value
        return ()

    @impl(loop.AppendOp)
    def run_append(self, interpreter: Interpreter, op: loop.AppendOp, args: PythonValues):
        value, raw_buf = args
        out = _buffer(op, raw_buf, op.out.type)
        parent = op.parent_op()
        assert isinstance(parent, loop.PredLoopOp)
        cursor, active = self._append_at[parent]
        if cursor + active > len(out):
            raise InterpretationError(
                f"loop.append: elements [{cursor}, {cursor + active}) out of bounds of a buffer of length {len(out)}"
            )
        lanes = _lanes_of(value)
        if lanes is None:
            out[cursor : cursor + active] = value
        elif lanes == active:
            out[cursor : cursor + active] = value
        else:
            raise InterpretationError(f"loop.append: value has {lanes} lanes, {active} are active")
        return ()

    @impl(loop.LaneScanOp)
    def run_lane_scan(self, interpreter: Interpreter, op: loop.LaneScanOp, args: PythonValues):
        """Lane k = x[0] ⊕ ... ⊕ x[k], combined in lane order; one lane (a scalar loop) is x.
        A uniform x in a block of n lanes is n copies of it."""
        (value,) = args
        kind, t = op.kind.data, op.value.type
        if _lanes_of(value) is None:
            lanes = self._block_lanes.get(op.parent_op(), 1)  # type: ignore[arg-type]
            if lanes == 1:
                return (value,)
            value = _broadcast(value, lanes, t)
        out = np.array(value, dtype=_dtype(t))
        for k in range(1, len(out)):
            out[k] = _combine(kind, t, out[k - 1], out[k])
        return (out,)

    @impl_terminator(loop.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: loop.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    # ----------------------------------------------------------------- scalar loops

    @impl(loop.ForOp)
    def run_for(self, interpreter: Interpreter, op: loop.ForOp, args: PythonValues):
        bounds, inits = args[: len(op.bounds)], args[len(op.bounds) :]
        lo, step, trips = _range(op, bounds)
        accs = tuple(inits)
        for k in range(trips):
            accs = interpreter.run_ssacfg_region(op.body, (np.int64(lo + k * step), *accs), "loop.for")
        return accs

    @impl(loop.ZipOp)
    def run_zip(self, interpreter: Interpreter, op: loop.ZipOp, args: PythonValues):
        nb, ns = len(op.bounds), len(op.streams)
        bounds, streams, inits = args[:nb], args[nb : nb + ns], args[nb + ns :]
        bufs = [_buffer(op, b, s.type) for b, s in zip(streams, op.streams, strict=True)]
        lo, step, trips = _range(op, bounds)
        accs = tuple(inits)
        for k in range(trips):
            i = lo + k * step
            for s, b in enumerate(bufs):
                if not 0 <= i < len(b):
                    raise InterpretationError(f"loop.zip: index {i} out of bounds of stream #{s} (length {len(b)})")
            elems = tuple(b[i] for b in bufs)
            accs = interpreter.run_ssacfg_region(op.body, (np.int64(i), *elems, *accs), "loop.zip")
        return accs

    # ----------------------------------------------------------------- vector loops

    def width_of(self, op: loop.VecLoopOp | loop.PredLoopOp) -> int:
        """The lanes a vector loop runs with: its concrete width, or `symbolic_width`."""
        return op.width.concrete or self.symbolic_width

    @impl(loop.VecLoopOp)
    def run_vecloop(self, interpreter: Interpreter, op: loop.VecLoopOp, args: PythonValues):
        return _VectorRun(self, interpreter, op, args).run()

    @impl(loop.PredLoopOp)
    def run_predloop(self, interpreter: Interpreter, op: loop.PredLoopOp, args: PythonValues):
        return _VectorRun(self, interpreter, op, args).run()


class _VectorRun:
    """One execution of a vecloop or predloop: full blocks, then the tail, then the results."""

    def __init__(
        self,
        functions: LoopFunctions,
        interpreter: Interpreter,
        op: loop.VecLoopOp | loop.PredLoopOp,
        args: PythonValues,
    ):
        self.functions = functions
        self.interpreter = interpreter
        self.op = op
        self.width = functions.width_of(op)
        nb = len(op.bounds)
        self.lo, self.step, self.trips = _range(op, args[:nb])
        self.inits = tuple(args[nb:])
        self.kinds = [acc.acc_kind for acc in op.accs.data]
        self.types = [v.type for v in op.inits]
        self.scans = [acc.is_scan for acc in op.accs.data]
        """Scan accumulators hold the running value on every lane and carry the last active one."""
        self.count = 0
        """Active lanes so far (a predloop's cursor); every lane of a vecloop is active."""

    def run(self) -> PythonValues:
        op, w = self.op, self.width
        full, rest = divmod(self.trips, w)
        tail = op.tail.data
        if w == 1:
            # A one-lane loop is a scalar loop: its accumulators start at their inits.
            accs = self.inits
            for k in range(self.trips):
                accs = self._scalar_iteration(k, accs)
            return self._results(accs)
        if rest and tail == TailKind.NONE:
            raise InterpretationError(
                f"{op.name}: tail(none) but the trip count {self.trips} is not a multiple of the width {w}"
            )
        vaccs = [
            np.full(w, init if scan else _neutral(k, t), dtype=_dtype(t))
            for k, t, init, scan in zip(self.kinds, self.types, self.inits, self.scans, strict=True)
        ]
        for b in range(full):
            self._block(b * w, w, vaccs)
        if rest and tail == TailKind.MASKED:
            self._block(full * w, rest, vaccs)
        accs = tuple(
            _dtype(t).type(v[0]) if scan else _combine(k, t, init, _hreduce(k, t, v))
            for k, t, init, v, scan in zip(self.kinds, self.types, self.inits, vaccs, self.scans, strict=True)
        )
        if tail == TailKind.SCALAR:
            for k in range(full * w, self.trips):
                accs = self._scalar_iteration(k, accs)
        return self._results(accs)

    def _results(self, accs: Sequence[Any]) -> PythonValues:
        if isinstance(self.op, loop.PredLoopOp):
            return (np.int64(self.count), *accs)
        return tuple(accs)

    def _block(self, first: int, lanes: int, vaccs: list[np.ndarray]) -> None:
        """Iterations first .. first+lanes-1 as lanes 0 .. lanes-1, updating the vector accumulators."""
        var = (self.lo + (first + np.arange(lanes, dtype=np.int64)) * self.step).astype(np.int64)
        if isinstance(self.op, loop.PredLoopOp):
            (pred,) = self.interpreter.run_ssacfg_region(self.op.pred, (var,), "loop.predloop.pred")
            mask = np.broadcast_to(np.asarray(pred, dtype=np.bool_), (lanes,))
            active = np.flatnonzero(mask)
            if not len(active):
                return
            var = var[active]
        else:
            active = np.arange(lanes)
        current = tuple(v[active] for v in vaccs)
        new = self._run_body(var, current, len(active))
        for v, value, t, scan in zip(vaccs, new, self.types, self.scans, strict=True):
            v[active] = _broadcast(value, len(active), t)
            if scan:
                v[:] = v[active[-1]]

    def _scalar_iteration(self, k: int, accs: Sequence[Any]) -> tuple[Any, ...]:
        var = np.int64(self.lo + k * self.step)
        if isinstance(self.op, loop.PredLoopOp):
            (pred,) = self.interpreter.run_ssacfg_region(self.op.pred, (var,), "loop.predloop.pred")
            if not bool(pred):
                return tuple(accs)
        return tuple(self._run_body(var, accs, 1))

    def _run_body(self, var: Any, accs: Sequence[Any], active: int) -> PythonValues:
        op = self.op
        self.functions._block_lanes[op] = active
        if isinstance(op, loop.PredLoopOp):
            saved = self.functions._append_at.get(op)
            self.functions._append_at[op] = (self.count, active)
            try:
                out = self.interpreter.run_ssacfg_region(op.body, (var, *accs), op.name)
            finally:
                if saved is None:
                    del self.functions._append_at[op]
                else:
                    self.functions._append_at[op] = saved
        else:
            out = self.interpreter.run_ssacfg_region(op.body, (var, *accs), op.name)
        self.count += active
        return out
