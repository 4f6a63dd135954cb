"""Named legality predicates of loop-fuse (seed 001 §3), one per rule.

`fusion_rejection(first, second, gates)` runs them in a fixed order and returns the first
`Rejection` (a stable code, the op the remark points at, a reason) or None when the two
loops may be fused. The pattern and the pass's remark walk call the same function, so the
code a remark prints is the code that stopped the rewrite.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator, MemoryEffectKind

from loopopt.diagnostics import location_of
from loopopt.dialects import loop
from loopopt.passes.loop_fusion.codes import LoopFuseReject
from loopopt.passes.loop_fusion.elem0 import (
    J,
    Elem0Domain,
    IndexForm,
    access_elem0,
    elem0_domain,
    index_form,
    is_injective,
)
from loopopt.passes.loop_deps import effects_of, is_effect_free
from loopopt.passes.loop_fusion.noalias import is_known_buffer, may_alias

GUARD_ATTR = "loop.guard"
"""Discardable attribute naming a loop's guard policy (e.g. "bounds_checked"); fused loops
must carry the same one (seed 001 §3.5)."""

FUSABLE = (loop.ForOp, loop.ZipOp, loop.VecLoopOp)
SCALAR_KINDS = (loop.ForOp, loop.ZipOp)
"""A zip is a loop.for whose stream elements are loads at the variable: they fuse together."""


@dataclass(frozen=True)
class FusionGates:
    """The opt-in legality gates (seed 001), both off by default."""

    allow_control_flow_simple: bool = False
    """Admit bodies with one simple if-assign (an scf.if with one result, effect-free branches)."""
    allow_broadcast_identity: bool = False
    """Admit identity-safe broadcast reads (tmp[lo], tmp[i // k]) of the first loop's output."""


@dataclass(frozen=True)
class Rejection:
    """A declined fusion: the op the remark points at (the second loop), a code and a reason."""

    op: Operation
    code: LoopFuseReject
    reason: str


# --------------------------------------------------------------------------- naming


def describe_buffer(buf: SSAValue) -> str:
    """`argument #2` / `loop.alloc at f.mlir:3:8`, for reasons."""
    if isinstance(buf, BlockArgument):
        return f"argument #{buf.index}"
    owner = buf.owner
    assert isinstance(owner, Operation)
    loc = location_of(owner)
    return f"{owner.name} at {loc}" if loc else owner.name


def describe(op: Operation) -> str:
    loc = location_of(op)
    return f"{op.name} at {loc}" if loc else op.name


# --------------------------------------------------------------------------- structure


def body_ops(op: Operation) -> Iterator[Operation]:
    """Every op nested in `op`'s regions, terminators excluded."""
    for region in op.regions:
        for inner in region.walk():
            if not inner.has_trait(IsTerminator):
                yield inner


def ops_between(first: Operation, second: Operation) -> list[Operation]:
    out: list[Operation] = []
    op = first.next_op
    while op is not None and op is not second:
        out.append(op)
        op = op.next_op
    return out


def uses_values_of(op: Operation, values: set[SSAValue]) -> bool:
    """Whether `op` or anything nested in it uses one of `values`."""
    return any(v in values for o in op.walk() for v in o.operands)


def results_reaching(first: Operation, between: Iterable[Operation]) -> set[SSAValue]:
    """`first`'s results and the results of in-between ops computed from them."""
    tainted: set[SSAValue] = set(first.results)
    for op in between:
        if uses_values_of(op, tainted):
            tainted.update(op.results)
    return tainted


# --------------------------------------------------------------------------- rules


def check_kind(first: Operation, second: Operation) -> Rejection | None:
    if not isinstance(first, FUSABLE) or not isinstance(second, FUSABLE):
        odd = first if not isinstance(first, FUSABLE) else second
        return Rejection(second, LoopFuseReject.LOOP_KIND, f"loop-fuse does not fuse {describe(odd)}")
    if type(first) is not type(second) and not (isinstance(first, SCALAR_KINDS) and isinstance(second, SCALAR_KINDS)):
        return Rejection(second, LoopFuseReject.LOOP_KIND, f"{first.name} and {second.name} are different loop kinds")
    return None


def check_dependence(first: Operation, second: Operation, between: list[Operation]) -> Rejection | None:
    """The second loop must not read a result of the first (a fold's final value)."""
    if uses_values_of(second, results_reaching(first, between)):
        return Rejection(
            second, LoopFuseReject.DEPENDENCE, f"it uses the final value of {describe(first)}"
        )
    return None


def loop_buffers(op: Operation) -> set[SSAValue]:
    """The buffers a loop loads, stores or streams."""
    streams = set(op.streams) if isinstance(op, loop.ZipOp) else set()
    return streams | {a.buf for a in body_ops(op) if isinstance(a, loop.LoadOp | loop.StoreOp)}


def check_adjacency(first: Operation, second: Operation, between: list[Operation]) -> Rejection | None:
    """Ops between the loops are moved out of the way; they must not touch the loops' buffers."""
    buffers = loop_buffers(first) | loop_buffers(second)
    for op in between:
        effects = effects_of(op)
        if effects is None:
            return Rejection(second, LoopFuseReject.NOT_ADJACENT, f"{describe(op)} between the loops has unknown effects")
        for e in effects:
            if e.kind == MemoryEffectKind.ALLOC:
                continue
            if not isinstance(e.value, SSAValue) or any(may_alias(e.value, b) for b in buffers):
                return Rejection(
                    second, LoopFuseReject.NOT_ADJACENT, f"{describe(op)} between the loops touches their buffers"
                )
    return None


def check_domain(first: loop.LoopLike, second: loop.LoopLike) -> Rejection | None:
    """Rule 1: the same elem0 trip count, unit steps, and (vecloops) one width and tail."""
    for op in (first, second):
        if elem0_domain(op) is None:
            return Rejection(second, LoopFuseReject.DOMAIN_MISMATCH, f"{describe(op)} has a non-unit step")
    d1, d2 = elem0_domain(first), elem0_domain(second)
    assert d1 is not None and d2 is not None
    if d1.n != d2.n:
        return Rejection(second, LoopFuseReject.DOMAIN_MISMATCH, f"trip count differs from {describe(first)}")
    if isinstance(first, loop.VecLoopOp) and isinstance(second, loop.VecLoopOp):
        if first.width != second.width or first.tail != second.tail:
            return Rejection(
                second,
                LoopFuseReject.DOMAIN_MISMATCH,
                f"width({second.width.spelling}) tail({second.tail.data.value}) differs from "
                f"width({first.width.spelling}) tail({first.tail.data.value}) of {describe(first)}",
            )
    return None


def check_guard(first: Operation, second: Operation) -> Rejection | None:
    """Rule 5: both loops carry the same `loop.guard` (or neither does)."""
    g1, g2 = first.attributes.get(GUARD_ATTR), second.attributes.get(GUARD_ATTR)
    if g1 != g2:
        return Rejection(
            second, LoopFuseReject.GUARD_POLICY, f"guard {g2 or 'none'} differs from guard {g1 or 'none'} of {describe(first)}"
        )
    return None


def _is_rng(op: Operation) -> bool:
    effects = effects_of(op)
    return effects is not None and any("rng" in e.resource.name() for e in effects)


def check_effects(first: Operation, second: Operation) -> Rejection | None:
    """Rule 4: no RNG and no unknown-effect op in either body."""
    for op in (first, second):
        for inner in body_ops(op):
            if _is_rng(inner):
                return Rejection(second, LoopFuseReject.EFFECTS_RNG, f"{describe(inner)} draws random numbers")
            if inner.regions:
                continue  # judged by its contents (and by check_control_flow)
            if effects_of(inner) is None:
                return Rejection(second, LoopFuseReject.EFFECTS_UNKNOWN, f"{describe(inner)} has unknown effects")
    return None


def is_simple_if_assign(op: Operation) -> bool:
    """One scf.if with one result whose branches only compute (no effects, no regions)."""
    if not isinstance(op, scf.IfOp) or len(op.results) != 1 or not op.false_region.blocks:
        return False
    return all(not inner.regions and is_effect_free(inner) for inner in body_ops(op))


def check_control_flow(first: Operation, second: Operation, gates: FusionGates) -> Rejection | None:
    """Control flow in a body blocks fusion, except one simple if-assign per body when allowed."""
    for op in (first, second):
        region_ops = [inner for inner in body_ops(op) if inner.regions]
        if not region_ops:
            continue
        simple = len(region_ops) == 1 and is_simple_if_assign(region_ops[0])
        if not (simple and gates.allow_control_flow_simple):
            what = "a simple if-assign (allow_control_flow_simple=false)" if simple else "control flow"
            return Rejection(second, LoopFuseReject.CONTROL_FLOW, f"{describe(region_ops[0])} in the body of {describe(op)} is {what}")
    return None


def check_noalias(first: Operation, second: Operation) -> Rejection | None:
    """Rule 3: every buffer is a function argument or a loop.alloc result."""
    for op in (first, second):
        for buf in sorted(loop_buffers(op), key=lambda b: str(b.name_hint)):
            if not is_known_buffer(buf):
                return Rejection(
                    second, LoopFuseReject.NOALIAS_MISSING, f"{describe_buffer(buf)} may alias other buffers"
                )
    return None


@dataclass
class _Access:
    op: loop.LoadOp | loop.StoreOp | loop.ZipOp
    """A load, a store, or a zip reading a stream at its variable."""
    forms: tuple[IndexForm, ...]
    in_second: bool

    @property
    def writes(self) -> bool:
        return isinstance(self.op, loop.StoreOp)


@dataclass
class _SharedBuffer:
    buf: SSAValue
    accesses: list[_Access] = field(default_factory=list)


def _shared_buffers(first: loop.LoopLike, second: loop.LoopLike) -> list[_SharedBuffer]:
    """Buffers accessed by both loops and written by at least one, with elem0 forms."""
    table: dict[SSAValue, _SharedBuffer] = {}
    for in_second, op in ((False, first), (True, second)):
        dom = elem0_domain(op)
        assert dom is not None
        for stream in op.streams if isinstance(op, loop.ZipOp) else ():
            entry = table.setdefault(stream, _SharedBuffer(stream))
            entry.accesses.append(_Access(op, (IndexForm.of({J: 1}) + dom.lo,), in_second))
        for a in body_ops(op):
            if isinstance(a, loop.LoadOp | loop.StoreOp):
                entry = table.setdefault(a.buf, _SharedBuffer(a.buf))
                entry.accesses.append(_Access(a, access_elem0(a, op.var, dom.lo), in_second))
    return [
        s
        for s in table.values()
        if any(a.writes for a in s.accesses)
        and any(a.in_second for a in s.accesses)
        and any(not a.in_second for a in s.accesses)
    ]


def _identity_safe(read: _Access, write_form: IndexForm, second: loop.LoopLike, d2: Elem0Domain) -> bool:
    """A broadcast read in the second loop sees only elements the first loop wrote in an
    earlier or the same iteration, and never rewrites: the first loop writes t[j + q] and
    the read is t[c] with c - q ≤ 0, or t[i // k] (k ≥ 1) with i = j + q, q ≥ 0."""
    if write_form.coeff(J) != 1 or len(read.forms) != 1:
        return False
    q = write_form - IndexForm.of({J: 1})
    (g,) = read.forms
    if (d := (g - q).constant) is not None and d <= 0:
        return True
    if not isinstance(read.op, loop.LoadOp):
        return False
    (affine,) = read.op.affine_indices
    if affine.offset != 0 or len(affine.terms) != 1 or affine.terms[0][1] != 1:
        return False
    div = affine.terms[0][0].owner
    if not isinstance(div, arith.DivSIOp | arith.FloorDivSIOp | arith.DivUIOp):
        return False
    k = index_form(div.rhs).constant
    numerator = index_form(div.lhs)
    var = second.var
    if k is None or k < 1 or numerator.coeff(var) != 1:
        return False
    rest = numerator - IndexForm.of({var: 1})
    lo_q = q.constant
    return rest.constant == 0 and d2.lo == q and lo_q is not None and lo_q >= 0


def check_access(first: loop.LoopLike, second: loop.LoopLike, gates: FusionGates) -> Rejection | None:
    """Rule 2: a buffer one loop writes and both access is accessed at one injective elem0
    index by all accesses (so iteration j of the fused loop sees exactly what it saw before)."""
    d2 = elem0_domain(second)
    assert d2 is not None
    for shared in _shared_buffers(first, second):
        name = describe_buffer(shared.buf)
        writes = [a for a in shared.accesses if a.writes]
        reference = writes[0].forms
        if not is_injective(reference):
            return Rejection(
                second, LoopFuseReject.BROADCAST_ND, f"{describe(writes[0].op)} writes {name} at a broadcast index"
            )
        for a in shared.accesses:
            if a.forms == reference:
                continue
            if is_injective(a.forms):
                return Rejection(
                    second,
                    LoopFuseReject.INDEXMAP_NOT_IDENTITY,
                    f"{describe(a.op)} accesses {name} at another elem0 index than {describe(writes[0].op)}",
                )
            safe = (
                a.in_second
                and not a.writes
                and all(not w.in_second for w in writes)
                and all(w.forms == reference for w in writes)
                and _identity_safe(a, reference[0], second, d2)
            )
            if not (safe and gates.allow_broadcast_identity):
                why = "identity-safe (allow_broadcast_identity=false)" if safe else "not identity-safe"
                return Rejection(
                    second, LoopFuseReject.BROADCAST_ND, f"{describe(a.op)} reads {name} at a broadcast index, {why}"
                )
    return None


def fusion_rejection(first: Operation, second: Operation, gates: FusionGates) -> Rejection | None:
    """Why `first` and the next loop `second` of its block cannot be fused (None: they can)."""
    between = ops_between(first, second)
    if r := check_kind(first, second):
        return r
    assert isinstance(first, loop.LoopLike) and isinstance(second, loop.LoopLike)
    return (
        check_dependence(first, second, between)
        or check_adjacency(first, second, between)
        or check_domain(first, second)
        or check_guard(first, second)
        or check_effects(first, second)
        or check_control_flow(first, second, gates)
        or check_noalias(first, second)
        or check_access(first, second, gates)
    )


def previous_loop(op: Operation) -> Operation | None:
    """The nearest loop before `op` in its block."""
    prev = op.prev_op
    while prev is not None and not isinstance(prev, loop.LoopLike):
        prev = prev.prev_op
    return prev

