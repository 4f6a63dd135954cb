"""Tuples and records at the kernel's top level: resolved at compile time, no loop.

`df.make_tuple` / `df.get` pick values; `df.make_records` groups field arrays into a
struct of arrays and `df.field` takes one back out (the same buffer, no copy).
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.ir import Operation

from loopopt.dialects import df
from loopopt.lowering.df_to_loop.context import KernelLowering
from loopopt.lowering.df_to_loop.pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop.scalar import lower_scalar_op


def _resolve(op: Operation, ctx: KernelLowering, b: Builder) -> None:
    results = lower_scalar_op(b, op, [ctx.get(v, op) for v in op.operands])
    assert results is not None
    for r, v in zip(op.results, results, strict=True):
        ctx.bind(r, v)


class LowerMakeTuple(DFLoweringPattern[df.MakeTupleOp]):
    op_type = df.MakeTupleOp

    def lower(self, op: df.MakeTupleOp, ctx: KernelLowering, b: Builder) -> None:
        _resolve(op, ctx, b)


class LowerGet(DFLoweringPattern[df.GetOp]):
    op_type = df.GetOp

    def lower(self, op: df.GetOp, ctx: KernelLowering, b: Builder) -> None:
        _resolve(op, ctx, b)


class LowerMakeRecords(DFLoweringPattern[df.MakeRecordsOp]):
    op_type = df.MakeRecordsOp

    def lower(self, op: df.MakeRecordsOp, ctx: KernelLowering, b: Builder) -> None:
        _resolve(op, ctx, b)


class LowerField(DFLoweringPattern[df.FieldOp]):
    op_type = df.FieldOp

    def lower(self, op: df.FieldOp, ctx: KernelLowering, b: Builder) -> None:
        _resolve(op, ctx, b)
