"""df ops on scalars, records and tuples: what needs no loop.

`df.constant` becomes `arith.constant`; a scalar `df.select` becomes `arith.select` (field
by field for records, item by item for tuples); `df.make_tuple` / `df.get`,
`df.make_records` / `df.field` resolve at compile time into groups of values. These rules
serve both the kernel's top level and the bodies inlined into loops.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, RecordType, element_type_of
from loopopt.lowering.df_to_loop.values import (
    Lowered,
    RecordArray,
    RecordValue,
    TupleValue,
    is_array,
)


def select_value(b: Builder, cond: SSAValue, lhs: Lowered, rhs: Lowered, user: Operation) -> Lowered:
    """`cond ? lhs : rhs` on scalars, records (per field) and tuples (per item)."""
    if isinstance(lhs, SSAValue) and isinstance(rhs, SSAValue):
        return b.insert(arith.SelectOp(cond, lhs, rhs)).result
    if isinstance(lhs, RecordValue) and isinstance(rhs, RecordValue):
        fields = tuple(select_value(b, cond, x, y, user) for x, y in zip(lhs.fields, rhs.fields, strict=True))
        return RecordValue(lhs.record, fields)  # type: ignore[arg-type]
    if isinstance(lhs, TupleValue) and isinstance(rhs, TupleValue):
        return TupleValue(tuple(select_value(b, cond, x, y, user) for x, y in zip(lhs.items, rhs.items, strict=True)))
    raise LoopoptDiagnostic(f"df.select: cannot select between {type(lhs).__name__} and {type(rhs).__name__}", user)


def lower_scalar_op(b: Builder, op: Operation, operands: Sequence[Lowered]) -> list[Lowered] | None:
    """The lowered results of a df op that needs no loop, or None when `op` needs one."""
    if isinstance(op, df.ConstantOp):
        c = b.insert(arith.ConstantOp(op.value))
        c.result.name_hint = op.result.name_hint
        return [c.result]
    if isinstance(op, df.MakeTupleOp):
        return [TupleValue(tuple(operands))]
    if isinstance(op, df.GetOp):
        (tup,) = operands
        assert isinstance(tup, TupleValue)
        return [tup.items[op.index.value.data]]
    if isinstance(op, df.MakeRecordsOp):
        rec = element_type_of(op.result.type)
        assert isinstance(rec, RecordType)
        if isinstance(op.result.type, ArrayType):
            return [RecordArray(rec, tuple(operands))]
        if not all(isinstance(v, SSAValue) for v in operands):
            raise LoopoptDiagnostic("df.make_records: record fields must be scalars", op)
        return [RecordValue(rec, tuple(operands))]  # type: ignore[arg-type]
    if isinstance(op, df.FieldOp):
        (value,) = operands
        if not isinstance(value, RecordArray | RecordValue):
            raise LoopoptDiagnostic(f"df.field: operand lowered to {type(value).__name__}, expected records", op)
        return [value.field(op.field.data)]
    if isinstance(op, df.SelectOp) and not isinstance(op.result.type, ArrayType):
        cond, lhs, rhs = operands
        if not isinstance(cond, SSAValue) or is_array(lhs) or is_array(rhs):
            raise LoopoptDiagnostic("df.select: a scalar select needs a scalar i1 condition", op)
        return [select_value(b, cond, lhs, rhs, op)]
    return None
