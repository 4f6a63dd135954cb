"""df's tuples and records: `df.make_tuple` / `df.get` (several results of one kernel call) and
`df.make_records` / `df.field` (arrays of structs built from and taken apart into field arrays).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I64, ArrayAttr, IntegerAttr, StringAttr, TupleType, i64
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def, var_operand_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_types import ArrayType, RecordType, element_type_of


@irdl_op_definition
class MakeTupleOp(IRDLOperation):
    """`%t = df.make_tuple %a, %b : f32, i64 -> tuple<f32, i64>`"""

    name = "df.make_tuple"

    elements = var_operand_def()
    result = result_def(TupleType)

    traits = traits_def(Pure())

    assembly_format = "$elements attr-dict `:` type($elements) `->` type($result)"

    def __init__(self, elements: Sequence[SSAValue]):
        super().__init__(operands=[elements], result_types=[TupleType(ArrayAttr(v.type for v in elements))])

    def verify_(self) -> None:
        expected = TupleType(ArrayAttr(self.elements.types))
        if self.result.type != expected:
            raise VerifyException(f"df.make_tuple result has type {self.result.type}, expected {expected}")


@irdl_op_definition
class GetOp(IRDLOperation):
    """Element `index` of a tuple: `%a = df.get %t[0] : tuple<f32, i64> -> f32`"""

    name = "df.get"

    tuple = operand_def(TupleType)
    index = prop_def(IntegerAttr[I64])
    """Position of the element (0-based)."""
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$tuple `[` $index `]` attr-dict `:` type($tuple) `->` type($result)"

    def __init__(self, tup: SSAValue, index: int):
        t = tup.type
        assert isinstance(t, TupleType)
        super().__init__(operands=[tup], result_types=[t.types.data[index]],
                         properties={"index": IntegerAttr(index, i64)})

    def verify_(self) -> None:
        t = self.tuple.type
        assert isinstance(t, TupleType)
        k = self.index.value.data
        if not 0 <= k < len(t.types):
            raise VerifyException(f"df.get index {k} out of range for {t} ({len(t.types)} elements)")
        if self.result.type != t.types.data[k]:
            raise VerifyException(
                f"df.get result has type {self.result.type}, expected element {k}'s type {t.types.data[k]}"
            )


@irdl_op_definition
class MakeRecordsOp(IRDLOperation):
    """Field arrays (one domain) to an array of records, or field scalars to one record.

    `%r = df.make_records %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]>
        -> !df.array<!df.record<x: f32, y: f32>, [i]>`
    """

    name = "df.make_records"

    fields = var_operand_def()
    """One value per record field, in field order."""
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$fields attr-dict `:` type($fields) `->` type($result)"

    def __init__(self, fields: Sequence[tuple[str, SSAValue]]):
        rec = RecordType([(n, element_type_of(v.type)) for n, v in fields])
        t0 = fields[0][1].type
        result = t0.with_element(rec) if isinstance(t0, ArrayType) else rec
        super().__init__(operands=[[v for _, v in fields]], result_types=[result])

    def verify_(self) -> None:
        rt = self.result.type
        rec = element_type_of(rt)
        if not isinstance(rec, RecordType):
            raise VerifyException(f"df.make_records result must hold records, found {rt}")
        fields = rec.fields
        if len(fields) != len(self.fields):
            raise VerifyException(
                f"df.make_records got {len(self.fields)} fields, expected {len(fields)} for {rec}"
            )
        for (name, ft), v in zip(fields, self.fields, strict=True):
            expected = rt.with_element(ft) if isinstance(rt, ArrayType) else ft
            if v.type != expected:
                raise VerifyException(
                    f"df.make_records field '{name}' has type {v.type}, expected {expected}"
                )


@irdl_op_definition
class FieldOp(IRDLOperation):
    """One field of an array of records (a field array) or of a record (a scalar).

    `%x = df.field %r["x"] : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]>`
    """

    name = "df.field"

    value = operand_def()
    field = prop_def(StringAttr)
    """The field name."""
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "$value `[` $field `]` attr-dict `:` type($value) `->` type($result)"

    def __init__(self, value: SSAValue, field: str):
        t = value.type
        rec = element_type_of(t)
        assert isinstance(rec, RecordType)
        ft = rec.field_type(field)
        assert ft is not None, f"no field {field} in {rec}"
        result = t.with_element(ft) if isinstance(t, ArrayType) else ft
        super().__init__(operands=[value], result_types=[result], properties={"field": StringAttr(field)})

    def verify_(self) -> None:
        t = self.value.type
        rec = element_type_of(t)
        if not isinstance(rec, RecordType):
            raise VerifyException(f"df.field operand must be a record or an array of records, found {t}")
        name = self.field.data
        ft = rec.field_type(name)
        if ft is None:
            names = ", ".join(n for n, _ in rec.fields)
            raise VerifyException(f"df.field '{name}' is not a field of {rec} (fields: {names})")
        expected = t.with_element(ft) if isinstance(t, ArrayType) else ft
        if self.result.type != expected:
            raise VerifyException(f"df.field result has type {self.result.type}, expected {expected}")
