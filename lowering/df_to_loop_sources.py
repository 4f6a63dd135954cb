"""Sources: df.constant → arith.constant; df.range → a range descriptor (no allocation).

A range becomes index-typed `start, end, step` plus its element count
(max(0, ceil((end - start) / step)), numpy's `arange` length); loops over it walk
`range(start, end, step)` and use the variable as the element. `df.random` has no Loop IR
form (Loop IR has no random source) and is rejected with a diagnostic.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType
from loopopt.lowering.df_to_loop_context import KernelLowering
from loopopt.lowering.df_to_loop_pattern import DFLoweringPattern
from loopopt.lowering.df_to_loop_scalar import lower_scalar_op
from loopopt.lowering.df_to_loop_values import RangeArray


class LowerConstant(DFLoweringPattern[df.ConstantOp]):
    op_type = df.ConstantOp

    def lower(self, op: df.ConstantOp, ctx: KernelLowering, b: Builder) -> None:
        (r,) = lower_scalar_op(b, op, []) or ()
        ctx.bind(op.result, r)


def constant_int(v: SSAValue) -> int | None:
    """The value of an integer constant (arith.constant or df.constant), else None."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp | df.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class LowerRange(DFLoweringPattern[df.RangeOp]):
    op_type = df.RangeOp

    def lower(self, op: df.RangeOp, ctx: KernelLowering, b: Builder) -> None:
        idx = IndexType()
        start, end, step = (
            b.insert(arith.IndexCastOp(ctx.get(v, op), idx)).result  # type: ignore[arg-type]
            for v in (op.start, op.end, op.step)
        )
        step_const = constant_int(op.step)
        if step_const == 0:
            raise LoopoptDiagnostic("df.range: step must not be 0", op)
        if step_const is not None:
            sign = ctx.index(1 if step_const > 0 else -1)
        else:
            positive = b.insert(arith.CmpiOp(step, ctx.index(0), "sgt")).result
            sign = b.insert(arith.SelectOp(positive, ctx.index(1), ctx.index(-1))).result
        diff = b.insert(arith.SubiOp(end, start)).result
        biased = b.insert(arith.SubiOp(b.insert(arith.AddiOp(diff, step)).result, sign)).result
        quotient = b.insert(arith.DivSIOp(biased, step)).result
        count = b.insert(arith.MaxSIOp(quotient, ctx.index(0))).result
        count.name_hint = "range_len"
        t = op.result.type
        assert isinstance(t, ArrayType)
        ctx.bind(op.result, RangeArray(start, end, step, step_const, count, t.axis_names[0]))


class LowerRandom(DFLoweringPattern[df.RandomOp]):
    op_type = df.RandomOp

    def lower(self, op: df.RandomOp, ctx: KernelLowering, b: Builder) -> None:
        raise LoopoptDiagnostic(
            "df.random has no Loop IR lowering (Loop IR has no random source); "
            "pass the random array in as a kernel argument", op
        )
