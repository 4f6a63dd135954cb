"""Horizontal fusion: independent reductions over one domain become one pass with
several accumulators (mean and variance of one array: one loop, two accumulators)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind, axes_of, format_axes
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import (
    Accumulators,
    Rejection,
    check_effects,
    check_independent,
    check_order,
    check_speculatable,
    depends_on,
    fused_reassoc,
    where,
)
from loopopt.passes.df_fusion.pattern import FusionPattern
from loopopt.passes.df_fusion.rebuild import (
    build_fold,
    element_body,
    inline_body,
    is_total,
    mapped,
    new_body,
    pick,
    sequential_step,
    union,
)

Reductions = (df.ReduceOp, df.FoldOp)


def _domain(op: Operation) -> tuple[str, ...]:
    return axes_of(op.operands[0].type)


def same_predicate(a: df.ReduceOp, b: df.ReduceOp) -> bool:
    """Both reduce every element, or both keep the same elements: their `where` bodies are
    structurally equal once each argument is matched with the other's argument for the
    same input value (an argument without a counterpart must be unused)."""
    if not a.has_where or not b.has_where:
        return a.has_where == b.has_where
    block_a, block_b = a.where.block, b.where.block
    context: dict = {block_a: block_b}
    for arg_a, va in zip(block_a.args, a.inputs, strict=True):
        for arg_b, vb in zip(block_b.args, b.inputs, strict=True):
            if va is vb:
                context[arg_a] = arg_b
    ops_a, ops_b = list(block_a.ops), list(block_b.ops)
    return len(ops_a) == len(ops_b) and all(
        x.is_structurally_equivalent(y, context) for x, y in zip(ops_a, ops_b, strict=True))


class FuseHorizontalReductions(FusionPattern):
    """Two df.reduce / df.fold ops of one block whose inputs share their axes, neither
    reading the other, become one op at the later one's position.

    ```
    %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
    %m = df.reduce max(%y, %lo) over [i] : !df.array<f32, [i]> -> f32
    ```
    becomes the dialect's multi-triple reduce
    ```
    %s, %m = df.reduce add(%x, %zero), max(%y, %lo) over [i] reassoc
        : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32, f32
    ```
    Reduces with map prologues merge their prologues (one map region yielding both ops'
    values, over the union of their inputs) and keep their common `where`. A pair with a
    df.fold becomes one df.fold whose body takes each op's in-order step (a reduce's step
    is `acc ⊕ map(x)`, under `select` for a `where`): exact, and a sequential fold keeps
    its order. Legality: same reduced axes (DOMAIN_MISMATCH); same predicate or none
    (DOMAIN_MISMATCH: they reduce different subsets); a filtered reduce's map and custom
    body would run on the elements its predicate drops once in a fold (SPECULATION); no
    dependence between the two (DEPENDENCE); no effects; one `reassoc` flag fits both
    (ORDER). Ops between the two that read the earlier result move after the fused op.
    """

    roots = Reductions

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots) or op.parent_block() is None:
            return
        earlier = op.prev_op
        while earlier is not None:
            if isinstance(earlier, Reductions) and _domain(earlier) == _domain(op):
                yield self._check(earlier, op) or earlier
            earlier = earlier.prev_op

    def _check(self, first: Operation, second: Operation) -> Rejection | None:
        if _over(first) != _over(second):
            return Rejection(second, FuseReject.DOMAIN_MISMATCH,
                             f"it reduces over {format_axes(_over(second))} but "
                             f"{where(first)} over {format_axes(_over(first))}")
        if isinstance(first, df.ReduceOp) and isinstance(second, df.ReduceOp):
            if not same_predicate(first, second):
                reason = (f"its where predicate differs from that of {where(first)}: the two "
                          f"reduce different elements" if first.has_where and second.has_where
                          else f"it reduces {_subset(second)} but {where(first)} {_subset(first)}")
                return Rejection(second, FuseReject.DOMAIN_MISMATCH, reason)
        else:
            for op in (first, second):
                if isinstance(op, df.ReduceOp) and op.has_where:
                    rejection = check_speculatable(
                        op, "the elements its predicate drops once it steps in a df.fold",
                        at=second, regions=[op.map, op.body])
                    if rejection is not None:
                        return rejection
        return (check_independent(first, second) or check_effects(first, second)
                or check_order(_accs(first), _accs(second), second))

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        block = op.parent_block()
        assert block is not None
        if isinstance(op, df.ReduceOp) and isinstance(partner, df.ReduceOp):
            fused = _merge_reduces(partner, op)
        else:
            fused = _merge_into_fold(partner, op)
        fused.location = op.location
        n = len(partner.results)
        rewriter.replace(op, fused, fused.results[n:])
        _move_dependents_after(partner, fused, block, rewriter)
        for old, new in zip(partner.results, fused.results[:n], strict=True):
            rewriter.replace_all_uses_with(old, new)
        rewriter.erase(partner)


def _over(op: Operation) -> tuple[str, ...]:
    """The axes an op reduces (a fold reduces every axis)."""
    return op.over_axis_names if isinstance(op, df.ReduceOp) else _domain(op)


def _subset(op: df.ReduceOp) -> str:
    return "only where its predicate holds" if op.has_where else "every element"


def _accs(op: Operation) -> Accumulators:
    if isinstance(op, df.ReduceOp):
        return Accumulators(op.kind_values, op.value_types, op.reassoc is not None)
    assert isinstance(op, df.FoldOp)
    return Accumulators([ReduceKind.CUSTOM] * len(op.inits), list(op.inits.types), False)


def _merge_reduces(first: df.ReduceOp, second: df.ReduceOp) -> df.ReduceOp:
    """One multi-triple reduce; map prologues merge into one, the custom triples' bodies
    share one block, the common predicate is kept once."""
    kinds = first.kind_values + second.kind_values
    body = _merge_custom_bodies(first, second)
    reassoc = fused_reassoc(_accs(first), _accs(second))
    inits = [*first.inits, *second.inits]
    if not first.has_map and not second.has_map:
        inputs = [*first.inputs, *second.inputs]
        where_region = _restrict_where(first, inputs, list(first.inputs))
        return df.ReduceOp(kinds, inputs, inits, first.over_axis_names, reassoc, body,
                           where=where_region)
    inputs = union(first.inputs, second.inputs)

    def values(builder, elems):
        return (mapped(first, builder, pick(first.inputs, inputs, elems))
                + mapped(second, builder, pick(second.inputs, inputs, elems)))

    return df.ReduceOp(kinds, inputs, inits, first.over_axis_names, reassoc, body,
                       map_region=element_body(inputs, values),
                       where=_restrict_where(first, inputs, list(first.inputs)))


def _restrict_where(op: df.ReduceOp, inputs: list[SSAValue], own: list[SSAValue]):
    """`op`'s predicate as a region over the elements of `inputs` (which include `own`)."""
    if not op.has_where:
        return None
    positions = [next(k for k, w in enumerate(inputs) if w is v) for v in own]
    return element_body(inputs, lambda b, elems: inline_body(
        op.where, b, [elems[k] for k in positions]))


def _merge_custom_bodies(first: df.ReduceOp, second: df.ReduceOp):
    custom1 = [k for k, kind in enumerate(first.kind_values) if kind == ReduceKind.CUSTOM]
    custom2 = [k for k, kind in enumerate(second.kind_values) if kind == ReduceKind.CUSTOM]
    if not custom1 and not custom2:
        return None
    t1 = [first.value_types[k] for k in custom1]
    t2 = [second.value_types[k] for k in custom2]
    c1, c2 = len(t1), len(t2)

    def fill(builder, args):
        accs1, accs2 = args[:c1], args[c1:c1 + c2]
        xs1, xs2 = args[c1 + c2:c1 + c2 + c1], args[c1 + c2 + c1:]
        out = inline_body(first.body, builder, [*accs1, *xs1]) if c1 else []
        return out + (inline_body(second.body, builder, [*accs2, *xs2]) if c2 else [])

    return new_body(t1 + t2 + t1 + t2, ["acc"] * (c1 + c2) + [None] * (c1 + c2), fill)


def _merge_into_fold(first: Operation, second: Operation) -> df.FoldOp:
    """One df.fold over both ops' inputs (each input once) taking both ops' steps."""
    assert isinstance(first, Reductions) and isinstance(second, Reductions)
    for op in (first, second):
        assert not isinstance(op, df.ReduceOp) or is_total(op)
    inputs = union(first.inputs, second.inputs)
    m = len(first.inits)

    def step(builder, accs, elems):
        return (sequential_step(first, builder, accs[:m], pick(first.inputs, inputs, elems))
                + sequential_step(second, builder, accs[m:], pick(second.inputs, inputs, elems)))

    return build_fold(inputs, [*first.inits, *second.inits], second.location, step)


def _move_dependents_after(first: Operation, fused: Operation, block: Block,
                           rewriter: PatternRewriter) -> None:
    """Ops between `first` and `fused` that read `first` (directly or not) move after
    `fused`, in order: `first`'s results are now defined there."""
    movers = []
    op = first.next_op
    while op is not None and op is not fused:
        if depends_on(op, first, block):
            movers.append(op)
        op = op.next_op
    point = fused
    for mover in movers:
        mover.detach()
        rewriter.insert(mover, InsertPoint.after(point))
        point = mover
