"""Types and attributes of the `df` dialect: arrays with named axes, records, reduce kinds.

Every df value carries its element type (dtype) and its axes in its type, so that
fusion and the lowering to loops can see iteration domains without analysis: two
arrays share an iteration domain iff they have the same axes.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    StringAttr,
    TupleType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.reduction_kind import ReductionKind, ReductionKindSyntax

SCALAR_WIDTHS = (1, 8, 16, 32, 64)
"""Integer widths a df element may have: i1 (bool), i8, i16, i32, i64. Integers are signless,
as in MLIR: u8/u16 data is i8/i16, and the ops say unsigned (`cmpi ult`, `divui`, `extui`)."""


def is_scalar_type(t: Attribute) -> bool:
    """f32, f64, i1, i8, i16, i32 or i64: the element types numpy and C agree on; and f16 and
    bf16, storage types (arrays of them are converted to f32 to compute: `arith.extf` /
    `arith.truncf`; bf16 is ml_dtypes.bfloat16 at the Python boundary)."""
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return True
    return isinstance(t, IntegerType) and t.width.data in SCALAR_WIDTHS


def is_storage_float(t: Attribute) -> bool:
    """f16 or bf16: element types kernels store but compute on as f32."""
    return isinstance(t, Float16Type | BFloat16Type)


def is_integer_type(t: Attribute) -> bool:
    """i1, i8, i16, i32 or i64 (the types `and`/`or` reductions accept)."""
    return isinstance(t, IntegerType) and t.width.data in SCALAR_WIDTHS


def is_float_type(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


@irdl_attr_definition
class RecordType(ParametrizedAttribute, TypeAttribute):
    """`!df.record<x: f32, y: f32>`: a record of named scalar fields.

    An array of records is held as a struct of arrays (one array per field), so a record
    type mostly appears as the element type of a `!df.array`, or as a df.map body value.
    """

    name = "df.record"

    names: ArrayAttr[StringAttr]
    """Field names, in field order (the order of the struct-of-arrays field arrays)."""
    types: ArrayAttr[Attribute]
    """Field element types, one per name."""

    def __init__(self, fields: Sequence[tuple[str, Attribute]] | dict[str, Attribute]):
        items = list(fields.items()) if isinstance(fields, dict) else list(fields)
        super().__init__(
            ArrayAttr(StringAttr(n) for n, _ in items), ArrayAttr(t for _, t in items)
        )

    @property
    def fields(self) -> list[tuple[str, Attribute]]:
        return [(n.data, t) for n, t in zip(self.names, self.types, strict=True)]

    def field_type(self, name: str) -> Attribute | None:
        return dict(self.fields).get(name)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        def parse_field() -> tuple[str, Attribute]:
            name = parser.parse_identifier(" for a record field name")
            parser.parse_punctuation(":")
            return name, parser.parse_type()

        fields = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_field)
        return [ArrayAttr(StringAttr(n) for n, _ in fields), ArrayAttr(t for _, t in fields)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_list(
                self.fields,
                lambda f: (printer.print_string(f"{f[0]}: "), printer.print_attribute(f[1])),
            )

    def verify(self) -> None:
        if len(self.names) != len(self.types):
            raise VerifyException(
                f"record has {len(self.names)} field names but {len(self.types)} field types"
            )
        if not self.names.data:
            raise VerifyException("record needs at least one field, found none")
        seen: set[str] = set()
        for name, t in self.fields:
            if name in seen:
                raise VerifyException(f"record field '{name}' appears twice")
            seen.add(name)
            if not is_scalar_type(t):
                raise VerifyException(
                    f"record field '{name}' has type {t}, expected f32, f64, i1, i8, i16, i32 or i64"
                )


def is_element_type(t: Attribute) -> bool:
    """What a `!df.array` may hold: a scalar type or a record of scalars."""
    return is_scalar_type(t) or isinstance(t, RecordType)


_ARRAY_PARAMETERS: dict[str, tuple[Attribute, ...]] = {}
"""ArrayType's parameters per spelling of its `<...>` (ArrayType.parse_parameters)."""


@irdl_attr_definition
class ArrayType(ParametrizedAttribute, TypeAttribute):
    """`!df.array<f32, [i]>`, `!df.array<i64, [i, j]>`: an array over named axes.

    The rank is the number of axes (1 or 2); extents are runtime lengths. Axes name
    iteration domains: same axes, same domain. Rank-2 arrays are row-major ([rows, cols]).
    """

    name = "df.array"

    element_type: Attribute
    """The dtype of every element: f16 or bf16 (storage), f32, f64, i1, i8, i16, i32, i64 or a `!df.record`."""
    axes: ArrayAttr[StringAttr]
    """Axis names, outermost first."""

    def __init__(self, element_type: Attribute, axes: Sequence[str] | ArrayAttr[StringAttr]):
        if not isinstance(axes, ArrayAttr):
            axes = ArrayAttr(StringAttr(a) for a in axes)
        super().__init__(element_type, axes)

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(a.data for a in self.axes)

    @property
    def rank(self) -> int:
        return len(self.axes)

    def with_axes(self, axes: Sequence[str]) -> ArrayType:
        return ArrayType(self.element_type, axes)

    def with_element(self, element_type: Attribute) -> ArrayType:
        return ArrayType(element_type, self.axes)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        # A module spells the same few array types thousands of times: `<f32, [i]>` (a builtin
        # element type) is parsed once per spelling and skipped by text after that.
        text = parser.lexer.input.content
        start = parser.pos
        end = text.find(">", start)
        body = text[start:end + 1] if end > start and text.startswith("<", start) else None
        if body is not None and any(c in body[1:] for c in "<!#/"):  # nested, aliased or commented:
            body = None  # parsed every time (an alias means something else in another module)
        known = _ARRAY_PARAMETERS.get(body) if body is not None else None
        if known is not None:
            parser._resume_from(end + 1)
            return list(known)
        params = cls._parse_parameters(parser)
        if body is not None and not text[end + 1:parser.pos].strip() and len(_ARRAY_PARAMETERS) < 4096:
            _ARRAY_PARAMETERS[body] = tuple(params)
        return params

    @classmethod
    def _parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            element = parser.parse_type()
            parser.parse_punctuation(",")
            axes = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_identifier(" for an axis name")
            )
        return [element, ArrayAttr(StringAttr(a) for a in axes)]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            printer.print_string(", [" + ", ".join(self.axis_names) + "]")

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(
                f"df.array element type must be f16, bf16, f32, f64, i1, i8, i16, i32, i64 or a !df.record, "
                f"found {self.element_type}"
            )
        if self.rank not in (1, 2, 3):  # rank 3 only between a broadcasting map and its reduction
            raise VerifyException(f"df.array rank must be 1, 2 or 3, found {self.rank} axes")
        if len(set(self.axis_names)) != self.rank:
            raise VerifyException(f"df.array axes must be distinct, found {format_axes(self.axis_names)}")


def format_axes(axes: Sequence[str]) -> str:
    return "[" + ", ".join(axes) + "]"


def element_type_of(t: Attribute) -> Attribute:
    """The element type of an array type, or the type itself for a scalar."""
    return t.element_type if isinstance(t, ArrayType) else t


def axes_of(t: Attribute) -> tuple[str, ...]:
    """The axes of an array type; () for a scalar."""
    return t.axis_names if isinstance(t, ArrayType) else ()


def is_value_type(t: Attribute) -> bool:
    """Types a df value may have: arrays, scalars, records and tuples of those."""
    if isinstance(t, TupleType):
        return all(is_value_type(e) for e in t.types)
    return isinstance(t, ArrayType) or is_element_type(t)


ReduceKind = ReductionKind
"""The kinds of df.reduce / df.scan: the shared reduction kinds, `custom` included."""


@irdl_attr_definition
class ReduceKindAttr(ReductionKindSyntax, EnumAttribute[ReductionKind]):
    """`#df.kind<add>`; in df.reduce / df.scan syntax just the bare keyword `add`."""

    name = "df.kind"


def kind_accepts(kind: ReduceKind, element_type: Attribute) -> bool:
    """Whether a built-in kind is defined on this element type (custom accepts all)."""
    if kind == ReduceKind.CUSTOM:
        return True
    if is_storage_float(element_type):
        return False  # f16 / bf16: reduce their f32 values (arith.extf), as sums of them accumulate
    if kind in (ReduceKind.AND, ReduceKind.OR, ReduceKind.UMIN, ReduceKind.UMAX):
        return is_integer_type(element_type)
    if kind in (ReduceKind.ADD, ReduceKind.MUL):
        return is_float_type(element_type) or (
            is_integer_type(element_type) and element_type.width.data != 1  # type: ignore[union-attr]
        )
    return is_scalar_type(element_type)  # min/max
