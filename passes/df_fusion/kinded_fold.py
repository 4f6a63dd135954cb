"""The kinded fold: df-fuse's fused form of a reduction that absorbed a producer.

df.reduce takes its elements from arrays, so once a map (or a filter) is fused into it
the element is computed in a body: the fused op is a `df.fold` (sequential semantics,
always correct) that also says which built-in reduction each accumulator is, so that
df-to-loop can build one loop whose accumulators keep their kind and `reassoc` flag
(the vectorizer's neutral element and permission to reassociate):

```
%s = df.fold(%x) init(%zero) : !df.array<f32, [i]> -> f32 {
^bb0(%acc: f32, %e: f32):
  %sq = arith.mulf %e, %e : f32            // the fused map's body
  %next = arith.addf %acc, %sq : f32       // the Accum step: acc ⊕ v
  df.yield %next : f32
} attributes {df.kinds = [#df.kind<add>], df.reassoc}
```

Contract (checked by `accumulator_steps`): for accumulator k of kind `add|mul|min|max|
and|or`, the yielded value is `⊕(acc_k, v)` or, for a filtered reduction,
`arith.select(p, ⊕(acc_k, v), acc_k)`, where v and p do not depend on any accumulator
(`⊕` is `combiner_op(kind, type)`). A `custom` accumulator is an ordinary sequential fold
step. `df.reassoc` applies to the whole op, like df.reduce's flag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, UnitAttr
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind, ReduceKindAttr, is_float_type

KINDS_ATTR = "df.kinds"
"""Discardable attribute of a df.fold: one `#df.kind<...>` per accumulator."""
REASSOC_ATTR = "df.reassoc"
"""Discardable unit attribute of a df.fold: its float add/mul accumulators may be reassociated."""


_FLOAT_COMBINERS: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddfOp,
    ReduceKind.MUL: arith.MulfOp,
    ReduceKind.MIN: arith.MinimumfOp,  # NaN-propagating, like df.reduce min
    ReduceKind.MAX: arith.MaximumfOp,
}
_INT_COMBINERS: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddiOp,
    ReduceKind.MUL: arith.MuliOp,
    ReduceKind.MIN: arith.MinSIOp,
    ReduceKind.MAX: arith.MaxSIOp,
    ReduceKind.AND: arith.AndIOp,
    ReduceKind.OR: arith.OrIOp,
}


def combiner_op(kind: ReduceKind, element_type: Attribute) -> type[Operation]:
    """The arith op of a built-in kind on `element_type` (what df.reduce computes)."""
    table = _FLOAT_COMBINERS if is_float_type(element_type) else _INT_COMBINERS
    return table[kind]


def combine(kind: ReduceKind, acc: SSAValue, value: SSAValue) -> Operation:
    """`acc ⊕ value` as a new (uninserted) arith op."""
    return combiner_op(kind, acc.type)(acc, value)  # type: ignore[call-arg]


def set_kinds(fold: df.FoldOp, kinds: Sequence[ReduceKind], reassoc: bool) -> None:
    """Mark `fold` as a kinded fold (nothing to mark when every accumulator is custom)."""
    if any(k != ReduceKind.CUSTOM for k in kinds):
        fold.attributes[KINDS_ATTR] = ArrayAttr(ReduceKindAttr(k) for k in kinds)
    if reassoc:
        fold.attributes[REASSOC_ATTR] = UnitAttr()


def fold_kinds(fold: df.FoldOp) -> list[ReduceKind]:
    """The kind of each accumulator (all `custom` for an unmarked fold)."""
    attr = fold.attributes.get(KINDS_ATTR)
    if isinstance(attr, ArrayAttr):
        return [k.data for k in attr.data]  # type: ignore[union-attr]
    return [ReduceKind.CUSTOM] * len(fold.outputs)


def fold_reassoc(fold: df.FoldOp) -> bool:
    return REASSOC_ATTR in fold.attributes


@dataclass(frozen=True)
class AccumulatorStep:
    """Accumulator k of a kinded fold: acc_k = pred ? acc_k ⊕ value : acc_k."""

    kind: ReduceKind
    value: SSAValue | None
    """The element combined each step (None for a custom accumulator)."""
    pred: SSAValue | None
    """The filter predicate, for a filtered reduction."""


def _reads_accumulator(value: SSAValue, accs: Sequence[BlockArgument]) -> bool:
    work, seen = [value], set()
    while work:
        v = work.pop()
        if v in accs:
            return True
        if isinstance(v.owner, Operation) and id(v.owner) not in seen:
            seen.add(id(v.owner))
            for inner in v.owner.walk():
                work.extend(inner.operands)
    return False


def accumulator_steps(fold: df.FoldOp) -> list[AccumulatorStep]:
    """Decode a kinded fold's accumulators; raises ValueError if it breaks the contract."""
    kinds = fold_kinds(fold)
    block = fold.body.block
    accs = block.args[: len(fold.outputs)]
    term = block.last_op
    assert isinstance(term, df.YieldOp)
    if len(kinds) != len(accs):
        raise ValueError(f"{KINDS_ATTR} has {len(kinds)} kinds for {len(accs)} accumulators")
    steps: list[AccumulatorStep] = []
    for k, (kind, acc, y) in enumerate(zip(kinds, accs, term.arguments, strict=True)):
        if kind == ReduceKind.CUSTOM:
            steps.append(AccumulatorStep(kind, None, None))
            continue
        pred = None
        step = y.owner
        if isinstance(step, arith.SelectOp) and step.rhs is acc:
            pred, y, step = step.cond, step.lhs, step.lhs.owner
        expected = combiner_op(kind, acc.type)
        if not isinstance(step, expected) or step.operands[0] is not acc:
            raise ValueError(f"accumulator {k} ({kind.value}) does not yield {expected.name}(acc, v)")
        value = step.operands[1]
        for v in (value, pred):
            if v is not None and _reads_accumulator(v, accs):
                raise ValueError(f"accumulator {k}: the combined value reads an accumulator")
        steps.append(AccumulatorStep(kind, value, pred))
    return steps
