"""The accumulator step of a built-in reduction kind: acc ⊕ x as one arith op
(`df.kind_combiner`: floats addf, mulf, minimumf / maximumf — NaN-propagating, like the df
interpreter; integers addi, muli, minsi / maxsi, andi, ori; i1: min is and, max is or).
The df kind maps one-to-one onto the loop accumulator kind, so the vectorizer keeps knowing
the neutral element. A custom body (df.reduce / df.scan `custom`, df.fold) whose accumulator
is used once, by a built-in kind's combiner whose result it yields (`maxui(acc, x)`,
`addi(x, acc)`, after a map fused into a fold's body too), gets that kind as its loop
accumulator (`body_kinds`): the step is unchanged, but the vectorizer and loop-parallelize
see a reduction instead of a sequential fold. Float add/mul bodies become non-reassoc
add/mul, which stay in order.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df import kind_combiner
from loopopt.dialects.df_types import ReduceKind
from loopopt.dialects.loop_attrs import AccumAttr, acc_kind_fits_type

_BODY_KINDS = (ReduceKind.AND, ReduceKind.OR, *(k for k in ReduceKind if k.is_builtin and k not in (ReduceKind.AND, ReduceKind.OR)))
"""The kinds a body's combiner is matched against, and/or first: on i1, andi is and (not min)."""


def accum(kind: ReduceKind, reassoc: bool) -> AccumAttr:
    return AccumAttr(kind, reassoc)  # df and loop share one ReductionKind


def combine(b: Builder, kind: ReduceKind, acc: SSAValue, x: SSAValue, user: Operation) -> SSAValue:
    """`acc ⊕ x` for built-in `kind` on the type of `acc`."""
    op_type = kind_combiner(kind, acc.type)
    if op_type is None:
        raise LoopoptDiagnostic(f"{user.name}: reduction kind {kind.value} is not defined on {acc.type}", user)
    return b.insert(op_type(acc, x)).results[0]  # type: ignore[call-arg]


def body_kinds(block: Block, accs: int) -> list[ReduceKind]:
    """The kind of each of the first `accs` arguments of a custom body (accumulators, then
    elements): built-in kind K when the accumulator's only use is K's combiner on its type and
    that result is the body's yield at the same position; else custom."""
    term = block.last_op
    yields = list(term.operands) if isinstance(term, df.YieldOp) else []
    return [_kind_of(arg, yields[k] if k < len(yields) else None) for k, arg in enumerate(block.args[:accs])]


def _kind_of(acc: SSAValue, yielded: SSAValue | None) -> ReduceKind:
    uses = list(acc.uses)
    if yielded is None or len(uses) != 1 or uses[0].operation is not yielded.owner:
        return ReduceKind.CUSTOM
    step = uses[0].operation
    if len(step.operands) != 2 or list(step.operands).count(acc) != 1:
        return ReduceKind.CUSTOM
    return next((k for k in _BODY_KINDS if _is_combiner(step, k, acc.type)), ReduceKind.CUSTOM)


def _is_combiner(step: Operation, kind: ReduceKind, t: Attribute) -> bool:
    return type(step) is kind_combiner(kind, t) and acc_kind_fits_type(kind, t)

