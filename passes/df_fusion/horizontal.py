"""Horizontal fusion: independent reductions over one domain become one pass with
several accumulators (mean and variance of one array: one loop, two accumulators)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind, axes_of, element_type_of, format_axes
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import (
    Accumulators,
    Rejection,
    check_effects,
    check_independent,
    check_order,
    depends_on,
    fused_reassoc,
    where,
)
from loopopt.passes.df_fusion.pattern import FusionPattern
from loopopt.passes.df_fusion.rebuild import Reduction, build_fold, inline_body, new_body

Reductions = (df.ReduceOp, df.FoldOp)


def _domain(op: Operation) -> tuple[str, ...]:
    return axes_of(op.operands[0].type)


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
    and a pair involving a df.fold becomes one kinded df.fold (accumulators concatenated,
    each keeping its kind and its own step, so a sequential fold keeps its order).
    Legality: same reduced axes (domain); no dependence between the two (DEPENDENCE);
    no effects; one `reassoc` flag fits both (ORDER). Ops between the two that read the
    earlier result move after the fused op.
    """

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, Reductions) or op.parent_block() is None:
            return
        earlier = op.prev_op
        while earlier is not None:
            if isinstance(earlier, Reductions) and _domain(earlier) == _domain(op):
                yield self._check(earlier, op) or earlier
            earlier = earlier.prev_op

    def _check(self, first: Operation, second: Operation) -> Rejection | None:
        a, b = Reduction.of(first), Reduction.of(second)
        if a is None or b is None:
            if isinstance(first, df.ReduceOp) and isinstance(second, df.ReduceOp):
                same = first.over_axis_names == second.over_axis_names
            else:
                same = False
            if not same:
                return Rejection(second, FuseReject.DOMAIN_MISMATCH,
                                 f"it reduces over {format_axes(_over(second))} but "
                                 f"{where(first)} over {format_axes(_over(first))}")
        return (check_independent(first, second) or check_effects(first, second)
                or check_order(_accs(first), _accs(second), second))

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        block = op.parent_block()
        assert block is not None
        if isinstance(op, df.ReduceOp) and isinstance(partner, df.ReduceOp):
            fused = _merge_reduces(partner, op)
        else:
            fused = _merge_folds(partner, op)
        fused.location = op.location
        n = len(partner.results)
        rewriter.replace(op, fused, fused.results[n:])
        _move_dependents_after(partner, fused, block, rewriter)
        for old, new in zip(partner.results, fused.results[:n], strict=True):
            rewriter.replace_all_uses_with(old, new)
        rewriter.erase(partner)


def _over(op: Operation) -> tuple[str, ...]:
    return op.over_axis_names if isinstance(op, df.ReduceOp) else _domain(op)


def _accs(op: Operation):
    r = Reduction.of(op)
    if r is not None:
        return r.accumulators
    assert isinstance(op, df.ReduceOp)
    return Accumulators(op.kind_values, [element_type_of(t) for t in op.inputs.types],
                        op.reassoc is not None)


def _merge_reduces(first: df.ReduceOp, second: df.ReduceOp) -> df.ReduceOp:
    """One multi-triple reduce; the custom triples' bodies share one block."""
    kinds = first.kind_values + second.kind_values
    custom1 = [k for k, kind in enumerate(first.kind_values) if kind == ReduceKind.CUSTOM]
    custom2 = [k for k, kind in enumerate(second.kind_values) if kind == ReduceKind.CUSTOM]
    body = None
    if custom1 or custom2:
        t1 = [element_type_of(first.inputs.types[k]) for k in custom1]
        t2 = [element_type_of(second.inputs.types[k]) for k in custom2]
        c1, c2 = len(t1), len(t2)

        def fill(builder, args):
            accs1, accs2 = args[:c1], args[c1:c1 + c2]
            xs1, xs2 = args[c1 + c2:c1 + c2 + c1], args[c1 + c2 + c1:]
            out = inline_body(first.body, builder, [*accs1, *xs1]) if c1 else []
            return out + (inline_body(second.body, builder, [*accs2, *xs2]) if c2 else [])

        arg_types = t1 + t2 + t1 + t2
        body = new_body(arg_types, ["acc"] * (c1 + c2) + [None] * (c1 + c2), fill)
    return df.ReduceOp(
        kinds, [*first.inputs, *second.inputs], [*first.inits, *second.inits],
        first.over_axis_names, fused_reassoc(_accs(first), _accs(second)), body,
    )


def _merge_folds(first: Operation, second: Operation) -> df.FoldOp:
    """One kinded fold over both ops' inputs (each input once)."""
    a, b = Reduction.of(first), Reduction.of(second)
    assert a is not None and b is not None
    inputs = []
    for v in a.inputs + b.inputs:
        if not any(v is w for w in inputs):
            inputs.append(v)
    m = len(a.inits)

    def fill(builder, accs, elems):
        elem = {id(v): e for v, e in zip(inputs, elems, strict=True)}
        steps_a = a.steps(builder, accs[:m], [elem[id(v)] for v in a.inputs])
        return steps_a + b.steps(builder, accs[m:], [elem[id(v)] for v in b.inputs])

    return build_fold(inputs, a.inits + b.inits, a.kinds + b.kinds,
                      fused_reassoc(a.accumulators, b.accumulators), second.location,
                      [v.name_hint for v in inputs], fill)


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
