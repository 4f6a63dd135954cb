"""The accumulator step of a built-in reduction kind: acc ⊕ x as one arith op
(`df.kind_combiner`: floats addf, mulf, minimumf / maximumf — NaN-propagating, like the df
interpreter; integers addi, muli, minsi / maxsi, andi, ori; i1: min is and, max is or).
The df kind maps one-to-one onto the loop accumulator kind, so the vectorizer keeps knowing
the neutral element.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects.df import kind_combiner
from loopopt.dialects.df_types import ReduceKind
from loopopt.dialects.loop_attrs import AccumAttr

def accum(kind: ReduceKind, reassoc: bool) -> AccumAttr:
    return AccumAttr(kind, reassoc)  # df and loop share one ReductionKind


def combine(b: Builder, kind: ReduceKind, acc: SSAValue, x: SSAValue, user: Operation) -> SSAValue:
    """`acc ⊕ x` for built-in `kind` on the type of `acc`."""
    op_type = kind_combiner(kind, acc.type)
    if op_type is None:
        raise LoopoptDiagnostic(f"{user.name}: reduction kind {kind.value} is not defined on {acc.type}", user)
    return b.insert(op_type(acc, x)).results[0]  # type: ignore[call-arg]
