"""Named legality predicates of df fusion.

Each predicate returns None when fusion is legal, or the `Rejection` (a stable code and a
reason) naming the condition that failed. Patterns call them guard-first; the pass's
remark walk calls the same patterns, so the code a remark prints is the code that
stopped the rewrite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from loopopt.diagnostics import location_of
from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind
from loopopt.dialects.effects import effects_of, is_speculatable
from loopopt.passes.df_fusion.codes import FuseReject


@dataclass(frozen=True)
class Rejection:
    """A declined fusion: the op the remark points at, the code and a reason."""

    op: Operation
    code: FuseReject
    reason: str


@dataclass(frozen=True)
class FusionOptions:
    """The pass options the legality predicates read."""

    max_recompute_ops: int = 8
    """A producer with other users is recomputed in the consumer when its body has at most
    this many ops (terminator excluded); otherwise it stays materialized."""
    recompute: bool = True
    """Allow recomputing a multi-use producer at all."""
    horizontal: bool = True
    """Fuse independent reductions over one domain into one multi-result reduction."""


def where(op: Operation) -> str:
    """`df.map at file:line:col` for reasons that name a second op."""
    loc = location_of(op)
    return f"{op.name} at {loc}" if loc else op.name


# -- effects --------------------------------------------------------------------------


def _is_rng(op: Operation) -> bool:
    effects = effects_of(op)
    return effects is not None and any(
        isinstance(e.resource, df.RandomEffect.RngResource) for e in effects
    )


def body_ops(op: Operation) -> Iterable[Operation]:
    """The ops nested in `op`'s regions (not `op` itself), terminators excluded."""
    for region in op.regions:
        for inner in region.walk():
            if not inner.has_trait(IsTerminator):
                yield inner


def check_effects(*ops: Operation) -> Rejection | None:
    """No op in the fusion region (the bodies of `ops`) has effects: RNG or unknown ones
    (a func.call, an op without an effect interface) would run a different number of
    times or in a different order once fused. arith/math ops are effect-free, casts such as
    arith.extsi included (dialects/effects.py). The remark points at the last op (the
    consumer)."""
    for op in ops:
        for inner in body_ops(op):
            if _is_rng(inner):
                return Rejection(ops[-1], FuseReject.EFFECTS_RNG,
                                 f"{where(inner)} draws random numbers in the fusion region")
            effects = effects_of(inner)
            if effects is None or effects:
                return Rejection(ops[-1], FuseReject.EFFECTS_UNKNOWN,
                                 f"{where(inner)} has unknown effects in the fusion region")
    return None


# -- producer uses --------------------------------------------------------------------


def body_size(op: Operation) -> int:
    """Ops a recompute would duplicate: the body ops, terminators excluded."""
    return sum(1 for _ in body_ops(op))


def other_users(producer: Operation, consumer: Operation) -> list[Operation]:
    """Users of `producer`'s results other than `consumer` (each listed once)."""
    seen: dict[int, Operation] = {}
    for r in producer.results:
        for use in r.uses:
            if use.operation is not consumer:
                seen.setdefault(id(use.operation), use.operation)
    return list(seen.values())


TRANSCENDENTAL_OPS: frozenset[str] = frozenset({
    "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
    "math.sin", "math.cos", "math.tan", "math.sinh", "math.cosh", "math.tanh", "math.asin", "math.acos",
    "math.atan", "math.atan2", "math.asinh", "math.acosh", "math.atanh", "math.erf", "math.powf",
    "math.fpowi", "math.cbrt",
})  # fmt: skip
"""Ops a recompute never duplicates, whatever the body size: each costs tens of simple ops
(targets/c_vmath.py's cores, libm on scalars). sqrt/rsqrt are one instruction and not listed."""


def transcendental_in(op: Operation) -> Operation | None:
    """The first transcendental op in `op`'s bodies, if any."""
    return next((inner for inner in body_ops(op) if inner.name in TRANSCENDENTAL_OPS), None)


def check_producer_uses(
    producer: Operation, consumer: Operation, options: FusionOptions
) -> Rejection | None:
    """The producer is consumed only here, or is cheap enough to recompute here (seed 003's
    virtualization: inline when the computation is small, materialize otherwise). A
    recomputed producer stays for its other users. A producer with a transcendental is
    never recomputed: softmax's exp map feeds the sum and the scaling map, and recomputing it
    in both doubled the exps (issue 12)."""
    others = other_users(producer, consumer)
    if not others:
        return None
    size = body_size(producer)
    if not options.recompute:
        return Rejection(consumer, FuseReject.MULTI_USE,
                         f"producer {where(producer)} has {len(others)} other user(s) and "
                         f"recompute=false: it stays materialized")
    if (costly := transcendental_in(producer)) is not None:
        return Rejection(consumer, FuseReject.TRANSCENDENTAL,
                         f"producer {where(producer)} has {len(others)} other user(s) and computes "
                         f"{where(costly)}: it stays materialized, computed once")
    if size > options.max_recompute_ops:
        return Rejection(consumer, FuseReject.MULTI_USE,
                         f"producer {where(producer)} has {len(others)} other user(s) and "
                         f"{size} body ops > max_recompute_ops={options.max_recompute_ops}: "
                         f"it stays materialized")
    return None


# -- domains and order ------------------------------------------------------------------


def order_sensitive(kind: ReduceKind, element_type, reassoc: bool) -> bool:
    """A float add/mul accumulator without `reassoc`: its order is fixed and no fused
    flag may license reordering it."""
    return _reassoc_matters(kind, element_type) and not reassoc


def _reassoc_matters(kind: ReduceKind, element_type) -> bool:
    """`reassoc` changes the result of float add/mul only: integer and min/max kinds are
    associative anyway, and a custom step always runs in element order (df.reduce's
    custom triples, df.fold), so fusing keeps a sequential fold's order as it is."""
    return kind in (ReduceKind.ADD, ReduceKind.MUL) and isinstance(
        element_type, Float32Type | Float64Type
    )


@dataclass(frozen=True)
class Accumulators:
    """The (kind, element type) of each accumulator of a reduction, and its reassoc flag."""

    kinds: Sequence[ReduceKind]
    types: Sequence
    reassoc: bool

    def uses_reassoc(self) -> bool:
        return self.reassoc and any(
            _reassoc_matters(k, t) for k, t in zip(self.kinds, self.types, strict=True))

    def order_fixed(self) -> bool:
        return any(order_sensitive(k, t, self.reassoc)
                   for k, t in zip(self.kinds, self.types, strict=True))


def check_order(a: Accumulators, b: Accumulators, at: Operation) -> Rejection | None:
    """One fused reduction has one `reassoc` flag: fusing a reassociable float reduction
    with an order-sensitive one would either reorder the latter or drop the former's
    permission. Integer and min/max accumulators are associative either way."""
    if (a.uses_reassoc() and b.order_fixed()) or (b.uses_reassoc() and a.order_fixed()):
        return Rejection(at, FuseReject.ORDER,
                         "one candidate may be reassociated and the other keeps its "
                         "sequential order: one fused reduction cannot do both")
    return None


def fused_reassoc(a: Accumulators, b: Accumulators) -> bool:
    """The flag of a fusion `check_order` accepted: set unless an accumulator needs order
    (then no accumulator relied on it)."""
    return (a.reassoc or b.reassoc) and not a.order_fixed() and not b.order_fixed()


# -- dependence -----------------------------------------------------------------------


def values_used(op: Operation) -> Iterable[SSAValue]:
    """Operands of `op` and of every op in its bodies (captured values included)."""
    for inner in op.walk():
        yield from inner.operands


def depends_on(later: Operation, earlier: Operation, block: Block) -> bool:
    """Whether `later` reads, directly or through ops of `block`, a result of `earlier`."""
    work = [v for v in values_used(later)]
    seen: set[int] = set()
    while work:
        v = work.pop()
        owner = v.owner
        if not isinstance(owner, Operation):
            continue
        while owner.parent_block() is not block and owner.parent_op() is not None:
            owner = owner.parent_op()
        if owner is earlier:
            return True
        if id(owner) in seen or owner.parent_block() is not block:
            continue
        seen.add(id(owner))
        work.extend(values_used(owner))
    return False


def check_independent(earlier: Operation, later: Operation) -> Rejection | None:
    """Horizontal candidates must not read each other's results (a variance that reads
    the mean needs the mean's pass to finish first)."""
    block = later.parent_block()
    assert block is not None
    if depends_on(later, earlier, block):
        return Rejection(later, FuseReject.DEPENDENCE,
                         f"it reads the result of {where(earlier)}, so the two cannot "
                         f"run in one pass")
    return None


# -- speculation ------------------------------------------------------------------------


def check_speculatable(op: Operation, why: str, at: Operation | None = None,
                       regions: Sequence[Region] | None = None) -> Rejection | None:
    """Every op of `op`'s bodies (or only of `regions`) may run on elements it did not run
    on before (`why`): none may trap. arith/math ops never do (docs/integer_semantics.md:
    a division by zero is 0); an op of another dialect may (`llvm.sdiv`). The remark points
    at `at` (default `op`)."""
    inner_ops = body_ops(op) if regions is None else (
        inner for r in regions for inner in r.walk() if not inner.has_trait(IsTerminator))
    for inner in inner_ops:
        if not is_speculatable(inner):
            return Rejection(at or op, FuseReject.SPECULATION,
                             f"{where(inner)} may trap and would run on {why}")
    return None
