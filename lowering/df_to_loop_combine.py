"""The accumulator step of a built-in reduction kind: acc ⊕ x as one arith op.

Floats: addf, mulf, minimumf / maximumf (NaN-propagating, like the df interpreter's numpy
minimum / maximum). Integers: addi, muli, minsi / maxsi, andi, ori. i1: min is and, max is
or. The df kind maps one-to-one onto the loop accumulator kind, so the vectorizer keeps
knowing the neutral element.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects.df_types import ReduceKind
from loopopt.dialects.loop_attrs import AccKind, AccumAttr

ACC_KIND: dict[ReduceKind, AccKind] = {
    ReduceKind.ADD: AccKind.ADD,
    ReduceKind.MUL: AccKind.MUL,
    ReduceKind.MIN: AccKind.MIN,
    ReduceKind.MAX: AccKind.MAX,
    ReduceKind.AND: AccKind.AND,
    ReduceKind.OR: AccKind.OR,
    ReduceKind.CUSTOM: AccKind.CUSTOM,
}

_FLOAT: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddfOp,
    ReduceKind.MUL: arith.MulfOp,
    ReduceKind.MIN: arith.MinimumfOp,
    ReduceKind.MAX: arith.MaximumfOp,
}

_INT: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddiOp,
    ReduceKind.MUL: arith.MuliOp,
    ReduceKind.MIN: arith.MinSIOp,
    ReduceKind.MAX: arith.MaxSIOp,
    ReduceKind.AND: arith.AndIOp,
    ReduceKind.OR: arith.OrIOp,
}

_BOOL: dict[ReduceKind, type[Operation]] = {
    ReduceKind.MIN: arith.AndIOp,
    ReduceKind.MAX: arith.OrIOp,
    ReduceKind.AND: arith.AndIOp,
    ReduceKind.OR: arith.OrIOp,
}


def accum(kind: ReduceKind, reassoc: bool) -> AccumAttr:
    return AccumAttr(ACC_KIND[kind], reassoc)


def combine(b: Builder, kind: ReduceKind, acc: SSAValue, x: SSAValue, user: Operation) -> SSAValue:
    """`acc ⊕ x` for built-in `kind` on the type of `acc`."""
    t = acc.type
    if isinstance(t, Float32Type | Float64Type):
        table = _FLOAT
    elif isinstance(t, IntegerType) and t.width.data == 1:
        table = _BOOL
    else:
        table = _INT
    op_type = table.get(kind)
    if op_type is None:
        raise LoopoptDiagnostic(f"{user.name}: reduction kind {kind.value} is not defined on {t}", user)
    return b.insert(op_type(acc, x)).results[0]  # type: ignore[call-arg]
