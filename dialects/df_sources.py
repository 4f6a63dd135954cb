"""df sources and scalars: `df.constant`, `df.range` (an i64 array that lowers to loop bounds), and
`df.random` (the one effectful df op: it reads and advances an RNG, so fusion must respect it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import I64, FloatAttr, IntegerAttr, i64
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, Pure, Resource
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_syntax import parse_attrs, print_attrs
from loopopt.dialects.df_types import ArrayType, ReduceKind, is_scalar_type, kind_accepts


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A scalar constant of a df element type: `%c = df.constant 2.0 : f32`."""

    name = "df.constant"

    value = prop_def(IntegerAttr | FloatAttr)
    """The value, typed: its type is the result's dtype."""
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, value: IntegerAttr | FloatAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, IntegerAttr | FloatAttr):
            parser.raise_error("df.constant expects an integer or float literal with its type", pos)
        op = cls(value)
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.value)
        print_attrs(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException(
                f"df.constant result type {self.result.type} differs from value type {self.value.type}"
            )
        if not is_scalar_type(self.result.type):
            raise VerifyException(
                f"df.constant type must be f32, f64, i1, i8, i16, i32 or i64, found {self.result.type}"
            )


@irdl_op_definition
class RangeOp(IRDLOperation):
    """`start..end` (exclusive) by `step` as an i64 array: a source that lowers to loop
    bounds, never to an allocation.

    `%r = df.range %start, %end, %step : !df.array<i64, [i]>`

    Semantics are Python's `range(start, end, step)` on exact integers: elements
    start + k*step for k = 0, 1, ... while before `end` (either sign of step), so every
    element is a valid i64 and the length is exact for any i64 start/end/step (no
    overflow near INT64_MIN/INT64_MAX). A step of 0 is an error: a verifier error when
    the step is a constant, a runtime error (ValueError / InterpretationError) otherwise;
    a compiled kernel never hangs on it (the range is empty there).
    """

    name = "df.range"

    start = operand_def(I64)
    end = operand_def(I64)
    step = operand_def(I64)
    result = result_def(ArrayType)

    traits = traits_def(Pure())

    assembly_format = "$start `,` $end `,` $step attr-dict `:` type($result)"

    def __init__(self, start: SSAValue, end: SSAValue, step: SSAValue, axis: str):
        super().__init__(operands=[start, end, step], result_types=[ArrayType(i64, [axis])])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, ArrayType)
        if t.element_type != i64 or t.rank != 1:
            raise VerifyException(
                f"df.range result must be a rank-1 i64 array, found {t}"
            )
        step = self.step.owner
        if (
            isinstance(step, arith.ConstantOp | ConstantOp)
            and isinstance(step.value, IntegerAttr)
            and step.value.value.data == 0
        ):
            raise VerifyException("df.range step must not be 0 (the range would never end)")


class RandomEffect(MemoryEffect):
    """df.random reads and advances the random generator's state."""

    @dataclass(frozen=True)
    class RngResource(Resource):
        def name(self) -> str:
            return "df.rng"

    @classmethod
    def get_effects(cls, op: Operation):
        rng = cls.RngResource()
        return frozenset(
            (EffectInstance(MemoryEffectKind.READ, resource=rng),
             EffectInstance(MemoryEffectKind.WRITE, resource=rng))
        )


@irdl_op_definition
class RandomOp(IRDLOperation):
    """A fresh array of `length` random elements (effectful: two calls differ).

    Floats are uniform in [0, 1); integers uniform in [0, 2^31). Exists so that fusion
    legality ("effects block fusion") has an effectful df op to test against.

    `%r = df.random %n : !df.array<f32, [i]>`
    """

    name = "df.random"

    length = operand_def(I64)
    result = result_def(ArrayType)

    traits = traits_def(RandomEffect())

    assembly_format = "$length attr-dict `:` type($result)"

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, ArrayType)
        elt = t.element_type
        if t.rank != 1 or not kind_accepts(ReduceKind.ADD, elt):  # numeric, not i1 nor record
            raise VerifyException(
                f"df.random result must be a rank-1 array of f32, f64, i32 or i64, found {t}"
            )
