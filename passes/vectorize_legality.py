"""Named legality predicates of loop-vectorize.

Each predicate returns None when its condition holds, or the `Decline` (the op a remark
points at, a stable code and a reason) naming what failed. `vectorization_decline` runs
them in a fixed order (accumulators, then ops, then memory), so a loop with several
problems always reports the same code.

The predicates read a `Candidate`: the loop's body blocks (a predloop's `pred` too), the
variable each binds, its accumulators and its step. Buffers that are different SSA values
are assumed not to overlap (the kernel calling convention makes every buffer `restrict`;
`loop.alloc` returns fresh memory).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccKind
from loopopt.passes.decline import Decline
from loopopt.passes.loop_surgery import constant_index
from loopopt.passes.vectorize_codes import VecReject
from loopopt.passes.vectorize_table import missing_vector_form


@dataclass(frozen=True)
class Candidate:
    """What the predicates read of a loop about to be vectorized."""

    op: loop.LoopLike
    """The loop (for a zip: its equivalent `loop.for`, see loop_surgery.zip_as_for)."""
    located_at: Operation
    """Where loop-level remarks point (the zip itself for a zip)."""
    blocks: tuple[Block, ...]
    """The blocks run per iteration: the body, and a predloop's `pred` before it."""
    accumulators: tuple[loop.Accumulator, ...]

    @property
    def vars(self) -> tuple[BlockArgument, ...]:
        """The loop variable as each block binds it."""
        return tuple(b.args[0] for b in self.blocks)

    @property
    def step(self) -> int | None:
        """Iteration step: 1 for an interval, the constant step of a range_desc, else None."""
        return 1 if self.op.step is None else constant_index(self.op.step)

    def body_ops(self) -> Iterator[Operation]:
        for block in self.blocks:
            yield from block.ops

    def defined_inside(self, value: SSAValue) -> bool:
        """Defined by the loop's blocks (so possibly varying), not outside (uniform)."""
        return self.op.is_ancestor(value.owner)

    @staticmethod
    def of(op: loop.ForOp | loop.PredLoopOp, located_at: Operation | None = None) -> Candidate:
        blocks = (op.pred.block, op.body.block) if isinstance(op, loop.PredLoopOp) else (op.body.block,)
        return Candidate(op, located_at or op, blocks, tuple(op.accumulators))


# --------------------------------------------------------------------------- accumulators

COMBINE_OPS: dict[AccKind, tuple[type[Operation], ...]] = {
    AccKind.ADD: (arith.AddfOp, arith.AddiOp),
    AccKind.MUL: (arith.MulfOp, arith.MuliOp),
    # the kinds mean NaN-propagating min/max (like the interpreter's horizontal combine)
    AccKind.MIN: (arith.MinimumfOp, arith.MinSIOp),
    AccKind.MAX: (arith.MaximumfOp, arith.MaxSIOp),
    AccKind.UMIN: (arith.MinUIOp,),
    AccKind.UMAX: (arith.MaxUIOp,),
    AccKind.AND: (arith.AndIOp,),
    AccKind.OR: (arith.OrIOp,),
}
"""Accumulator kind -> the body ops that perform its step `acc = acc <op> x`."""


def _is_float(t) -> bool:
    return isinstance(t, Float32Type | Float64Type)


def _is_int_lane(t) -> bool:
    return isinstance(t, IntegerType) and t.width.data in (32, 64)


def _is_bool(t) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def custom_reduction(c: Candidate) -> Decline | None:
    for k, acc in enumerate(c.accumulators):
        if acc.kind == AccKind.CUSTOM:
            return Decline(
                c.located_at,
                VecReject.CUSTOM_REDUCTION,
                f"accumulator #{k} is custom: no neutral element to start the lanes from",
            )
    return None


def float_reduction_order(c: Candidate) -> Decline | None:
    for k, acc in enumerate(c.accumulators):
        if _is_float(acc.arg.type) and acc.kind in (AccKind.ADD, AccKind.MUL) and not acc.reassoc:
            return Decline(
                c.located_at,
                VecReject.FLOAT_REDUCTION_ORDER,
                f"accumulator #{k} ({acc.kind.value} on {acc.arg.type}) is not reassoc: "
                "splitting it across lanes would change the rounding",
            )
    return None


def _forward_slice(value: SSAValue) -> Iterator[Operation]:
    """Ops that use `value`, directly or through other ops' results."""
    seen: set[Operation] = set()
    work = [value]
    while work:
        for use in work.pop().uses:
            if use.operation not in seen:
                seen.add(use.operation)
                yield use.operation
                work.extend(use.operation.results)


def is_stored(acc: loop.Accumulator) -> bool:
    """The carried value reaches a `loop.store`/`loop.append`: the loop is a scan."""
    return any(isinstance(user, loop.StoreOp | loop.AppendOp) for user in _forward_slice(acc.arg))


SCAN_KINDS = (AccKind.ADD, AccKind.MUL, AccKind.MIN, AccKind.MAX, AccKind.UMIN, AccKind.UMAX, AccKind.AND, AccKind.OR)
"""Scan kinds with a vector form: a neutral element to shift into the lanes, associative
(float add/mul only with `reassoc`, see float_reduction_order). umin/umax step by vector
maxui/minui, which the printer spells on every ISA (SSE2 i32 by the sign flip)."""

NARROW_SCAN_KINDS = (AccKind.MIN, AccKind.MAX, AccKind.UMIN, AccKind.UMAX)
"""Scan kinds of i8/i16 lanes (the narrow lane slides: targets/isa_*.py scan rows)."""


def scan_step(acc: loop.Accumulator) -> Operation | None:
    """The op computing the next running value from the carried one (its only use)."""
    uses = list(acc.arg.uses)
    return uses[0].operation if len(uses) == 1 else None


def scan_shape_error(acc: loop.Accumulator) -> str | None:
    """None when the stored accumulator is a scan with a vector form, else why not.

    The shape (seed 000 §5, parallel prefix): the carried value's only use is its kind's
    combine `t = acc op x` with an x that does not depend on it; t is the yielded next value
    and is otherwise only stored (`loop.store`, every iteration) or appended (`loop.append` in
    a predloop: filter → scan, a prefix over the kept elements)."""
    if acc.kind not in SCAN_KINDS:
        return f"a {acc.kind.value} scan has no neutral element to slide into the lanes"
    narrow = isinstance(acc.arg.type, IntegerType) and acc.arg.type.width.data in (8, 16)
    if not (_is_float(acc.arg.type) or _is_int_lane(acc.arg.type) or narrow and acc.kind in NARROW_SCAN_KINDS):
        return f"a scan of {acc.arg.type} by {acc.kind.value} (vector scans take f32, f64, i32 or i64; i8/i16 only min/max/umin/umax)"
    step = scan_step(acc)
    if step is None or acc.next is not step.results[0] or not isinstance(step, COMBINE_OPS[acc.kind]):
        names = " or ".join(t.name for t in COMBINE_OPS[acc.kind])
        return f"the running value is not stepped by one {names} of the carried value"
    xs = [v for v in step.operands if v is not acc.arg]
    if len(xs) != 1 or any(o is xs[0].owner for o in _forward_slice(acc.arg)):
        return "the scanned value depends on the running value (a recurrence)"
    for use in step.results[0].uses:
        user = use.operation
        if not (isinstance(user, loop.YieldOp) or (isinstance(user, loop.StoreOp | loop.AppendOp) and user.value is step.results[0])):
            return f"the running value is used by {user.name}, a scan only stores and yields it"
    return None


def scan(c: Candidate) -> Decline | None:
    stored = [(k, acc) for k, acc in enumerate(c.accumulators) if is_stored(acc)]
    for k, acc in stored:
        why = scan_shape_error(acc)
        if why is not None:
            return Decline(c.located_at, VecReject.SCAN, f"accumulator #{k} is stored every iteration but is not a scan: {why}")
    if stored and len(stored) != len(c.accumulators):
        return Decline(c.located_at, VecReject.SCAN, "a scan and a reduction in one loop (each vectorizes on its own)")
    return None


def not_a_reduction(c: Candidate) -> Decline | None:
    for k, acc in enumerate(c.accumulators):
        if is_stored(acc):
            continue  # a scan: `scan` checked its shape
        why = reduction_shape_error(acc, k)
        if why is not None:
            at = acc.next.owner if acc.next is not None and isinstance(acc.next.owner, Operation) else c.located_at
            return Decline(at, VecReject.NOT_A_REDUCTION, f"accumulator #{k}: {why}")
    return None


def reduction_shape_error(acc: loop.Accumulator, k: int) -> str | None:
    """None when the step is `acc <kind-op> x` (or acc unchanged) and acc is used only there."""
    if acc.kind == AccKind.CUSTOM:
        return None  # custom_reduction reports these
    if _is_bool(acc.arg.type) and acc.kind not in (AccKind.AND, AccKind.OR):
        return f"an i1 accumulator must be and/or, found {acc.kind.value}"
    uses = list(acc.arg.uses)
    if len(uses) != 1:
        return f"the carried value is used {len(uses)} times, a reduction uses it once"
    if acc.next is acc.arg:
        return None
    combine = uses[0].operation
    expected = COMBINE_OPS[acc.kind]
    if not isinstance(combine, expected):
        names = " or ".join(t.name for t in expected)
        return f"the carried value feeds {combine.name}, a {acc.kind.value} reduction needs {names}"
    if acc.next is not combine.results[0] or len(list(combine.results[0].uses)) != 1:
        return f"the {combine.name} of the carried value must be the yielded next value and used only there"
    return None


# --------------------------------------------------------------------------- ops


def no_vector_form(c: Candidate) -> Decline | None:
    for op in c.body_ops():
        why = missing_vector_form(op)
        if why is not None:
            return Decline(op, VecReject.NO_VECTOR_FORM, why)
    return None


# --------------------------------------------------------------------------- memory


def _accesses(c: Candidate) -> Iterator[loop.LoadOp | loop.StoreOp | loop.AppendOp]:
    for op in c.body_ops():
        if isinstance(op, loop.LoadOp | loop.StoreOp | loop.AppendOp):
            yield op


def _var_coeffs(c: Candidate, op: loop.LoadOp | loop.StoreOp) -> list[int] | str:
    """Per dimension, the coefficient of the loop variable; or why the index is not affine in it."""
    out: list[int] = []
    for d, (coeffs, _) in enumerate(op.normalized_indices()):
        total = 0
        for v, coeff in coeffs.items():
            if v in c.vars:
                total += coeff
            elif c.defined_inside(v):
                return f"index of dimension {d} is computed in the loop body (a gather/scatter)"
        out.append(total)
    return out


def is_gather(c: Candidate, op: loop.LoadOp | loop.StoreOp | loop.AppendOp) -> bool:
    """A load from a rank-1 buffer at one value computed in the body (`b[j]`): each lane reads
    its own element (`simd.gather`, lowering/loop_to_simd/gather.py). Stores at a computed
    index (scatters) stay declined."""
    if not isinstance(op, loop.LoadOp) or op.buf_type.rank.data != 1:
        return False
    ((coeffs, offset),) = op.normalized_indices()
    return offset == 0 and len(coeffs) == 1 and all(k == 1 and v not in c.vars and c.defined_inside(v) for v, k in coeffs.items())


def nonunit_stride(c: Candidate) -> Decline | None:
    step = c.step
    for op in _accesses(c):
        if isinstance(op, loop.AppendOp) or is_gather(c, op):
            continue
        coeffs = _var_coeffs(c, op)
        if isinstance(coeffs, str):
            return Decline(op, VecReject.NONUNIT_STRIDE, coeffs)
        *outer, last = coeffs
        for d, coeff in enumerate(outer):
            if coeff != 0:
                return Decline(
                    op,
                    VecReject.NONUNIT_STRIDE,
                    f"index of dimension {d} moves with the loop variable (coefficient {coeff}): "
                    "consecutive iterations are a row apart",
                )
        if last == 0:
            continue
        if step is None:
            return Decline(op, VecReject.NONUNIT_STRIDE, "the loop's step is not a constant: unknown stride")
        if last * step != 1:
            return Decline(
                op,
                VecReject.NONUNIT_STRIDE,
                f"stride {last * step} elements per iteration (coefficient {last}, step {step}); "
                "vectorizable accesses have stride 1 or 0",
            )
    return None


def _index_key(c: Candidate, op: loop.LoadOp | loop.StoreOp) -> tuple[tuple[frozenset, int], ...]:
    """The access's affine index with every binding of the loop variable seen as one variable."""
    key: list[tuple[frozenset, int]] = []
    for coeffs, offset in op.normalized_indices():
        merged: dict[object, int] = {}
        for v, coeff in coeffs.items():
            name: object = "<loop var>" if v in c.vars else v
            merged[name] = merged.get(name, 0) + coeff
        key.append((frozenset((n, k) for n, k in merged.items() if k), offset))
    return tuple(key)


def _never_meet(c: Candidate, w: loop.StoreOp, a: loop.LoadOp | loop.StoreOp) -> bool:
    """The two accesses differ by a nonzero constant in a dimension the loop variable does not
    move (`out[%i, %k]` and `out[%i + 1, %k]`, rows that loop-unroll-jam jammed): in every
    iteration they name different elements, so they carry no dependence."""
    for (wv, wo), (av, ao) in zip(_index_key(c, w), _index_key(c, a), strict=True):
        if wv == av and wo != ao and not any(n == "<loop var>" for n, _ in wv):
            return True
    return False


def memory_dependence(c: Candidate) -> Decline | None:
    accesses = list(_accesses(c))
    for w in accesses:
        if isinstance(w, loop.LoadOp):
            continue
        buf = w.out if isinstance(w, loop.AppendOp) else w.buf
        if isinstance(w, loop.StoreOp):
            coeffs = _var_coeffs(c, w)
            if not isinstance(coeffs, str) and not any(coeffs):
                return Decline(
                    w,
                    VecReject.MEMORY_DEPENDENCE,
                    "every iteration stores to the same element (an output dependence)",
                )
        for a in accesses:
            if a is w:
                continue
            other = a.out if isinstance(a, loop.AppendOp) else a.buf
            if other is not buf:
                continue
            if isinstance(w, loop.StoreOp) and not isinstance(a, loop.AppendOp) and _never_meet(c, w, a):
                continue
            same = (
                isinstance(w, loop.StoreOp)
                and not isinstance(a, loop.AppendOp)
                and _index_key(c, w) == _index_key(c, a)
            )
            if not same:
                return Decline(
                    w,
                    VecReject.MEMORY_DEPENDENCE,
                    f"the buffer written here is also accessed by {a.name} at another index "
                    "(a loop-carried dependence through memory)",
                )
    return None


# --------------------------------------------------------------------------- all of them

PREDICATES: Sequence[Callable[[Candidate], Decline | None]] = (
    scan,
    custom_reduction,
    float_reduction_order,
    not_a_reduction,
    no_vector_form,
    nonunit_stride,
    memory_dependence,
)
"""The legality conditions, in the order they are checked."""


def vectorization_decline(c: Candidate) -> Decline | None:
    """The first failed condition, or None when the loop may be vectorized."""
    for predicate in PREDICATES:
        decline = predicate(c)
        if decline is not None:
            return decline
    return None
