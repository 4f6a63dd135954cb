"""Types and attributes of the `loop` dialect: buffers, widths and the loop kinds.

`!loop.buf<T>` / `!loop.buf<T, 2>` is a C pointer plus its length(s). The kinds that
shape a loop (how its range is given, how its accumulators combine, how a vector loop
ends, how a predicated loop masks) are `EnumAttribute`s so that passes read them as
enums rather than strings; `#loop.width<W>` is the SIMD width, symbolic until lowering.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from loopopt.dialects.reduction_kind import ReductionKind, ReductionKindSyntax

# --------------------------------------------------------------------------- buffers


def is_element_type(t: Attribute) -> bool:
    """Element types a buffer may hold: f32 f64 i8 i16 i32 i64 i1, and f16 and bf16 (storage)."""
    if isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
        return True
    return isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64) and t.signedness.data.name == "SIGNLESS"


@irdl_attr_definition
class BufType(ParametrizedAttribute, TypeAttribute):
    """A buffer: a C pointer to `element_type` plus `rank` lengths (rank 2 is row-major).

    `!loop.buf<f32>` has rank 1; `!loop.buf<f32, 2>` has rank 2.
    """

    name = "loop.buf"

    element_type: Attribute
    rank: IntAttr

    def __init__(self, element_type: Attribute, rank: int | IntAttr = 1):
        super().__init__(element_type, rank if isinstance(rank, IntAttr) else IntAttr(rank))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            element_type = parser.parse_type()
            rank = parser.parse_integer(allow_negative=False, allow_boolean=False) if parser.parse_optional_punctuation(",") else 1
        return (element_type, IntAttr(rank))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.element_type)
            if self.rank.data != 1:
                printer.print_string(f", {self.rank.data}")

    def verify(self) -> None:
        if not is_element_type(self.element_type):
            raise VerifyException(
                f"!loop.buf element type must be one of f16, bf16, f32, f64, i8, i16, i32, i64, i1, found {self.element_type}"
            )
        if self.rank.data not in (1, 2):
            raise VerifyException(f"!loop.buf rank must be 1 or 2, found {self.rank.data}")


# --------------------------------------------------------------------------- kinds


class _AngleEnum:
    """Print and parse an enum attribute as `#loop.<name><value>`."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)  # type: ignore[misc]


class RangeKind(StrEnum):
    """How a loop's range is given (seed 000 §1.5 LoopRange)."""

    INTERVAL = auto()
    """`[lo, hi)`: two operands, unit step."""
    RANGE_DESC = auto()
    """`range(start, end, step)`: three operands; start, start+step, ... while before end."""


@irdl_attr_definition
class RangeKindAttr(_AngleEnum, EnumAttribute[RangeKind]):
    name = "loop.range_kind"


AccKind = ReductionKind
"""How an accumulator combines values (the shared reduction kinds); the vectorizer derives the
neutral element from it. `custom` is any sequential step: it cannot be split across lanes."""


@irdl_attr_definition
class AccKindAttr(ReductionKindSyntax, EnumAttribute[ReductionKind]):
    name = "loop.acc_kind"


class TailKind(StrEnum):
    """What a vector loop does with the n mod W iterations left after its full blocks."""

    SCALAR = auto()
    """A scalar epilogue runs the same body one lane at a time."""
    NONE = auto()
    """No epilogue: the trip count is promised to be a multiple of W."""
    MASKED = auto()
    """One last, partial block runs with the lanes past the end masked off."""


@irdl_attr_definition
class TailKindAttr(_AngleEnum, EnumAttribute[TailKind]):
    name = "loop.tail"


class MaskForm(StrEnum):
    """How a predicated loop's lane mask is realised (seed 000 §1.4); chosen at lowering."""

    UNSET = auto()
    """Not chosen yet (before convert-loop-to-simd)."""
    AVX512_MASK = auto()
    """AVX-512 mask registers folded into masked instructions."""
    SELECT_BLEND = auto()
    """Compute all lanes, then blend/select by the mask."""
    BRANCH_PER_LANE = auto()
    """Scalar fallback: a width-1 predloop, the scalar loop it means. The C printer runs its body
    on every element and stores at the cursor branch-free when the body may run there (pure
    ops, loads, appends), else branches on each lane's predicate (targets/c_print_loops.py)."""


@irdl_attr_definition
class MaskFormAttr(_AngleEnum, EnumAttribute[MaskForm]):
    name = "loop.mask_form"


# --------------------------------------------------------------------------- width


@irdl_attr_definition
class WidthAttr(ParametrizedAttribute):
    """A SIMD width in lanes: symbolic (`#loop.width<W>`) until lowering, then `#loop.width<8>`."""

    name = "loop.width"

    value: IntAttr | StringAttr

    SYMBOLIC: ClassVar[str] = "W"

    def __init__(self, value: int | str | IntAttr | StringAttr = "W"):
        if isinstance(value, int):
            value = IntAttr(value)
        elif isinstance(value, str):
            value = StringAttr(value)
        super().__init__(value)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (parse_width_value(parser),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.spelling)

    @property
    def is_symbolic(self) -> bool:
        return isinstance(self.value, StringAttr)

    @property
    def concrete(self) -> int | None:
        """The width in lanes, or None while symbolic."""
        return self.value.data if isinstance(self.value, IntAttr) else None

    @property
    def spelling(self) -> str:
        return str(self.value.data)

    def verify(self) -> None:
        if isinstance(self.value, IntAttr) and self.value.data <= 0:
            raise VerifyException(f"vector width must be positive, found {self.value.data}")


def parse_width_value(parser: AttrParser) -> IntAttr | StringAttr:
    """An integer width or a symbolic width name."""
    n = parser.parse_optional_integer(allow_boolean=False)
    if n is not None:
        return IntAttr(n)
    return StringAttr(parser.parse_identifier("expected a width: an integer or a symbol such as W"))


# --------------------------------------------------------------------------- accumulators


@irdl_attr_definition
class AccumAttr(ParametrizedAttribute):
    """One accumulator's kind, whether float reassociation is allowed for it, and whether it
    is a scan's running value.

    `#loop.acc<add reassoc>`, `#loop.acc<max>`, `#loop.acc<add scan>`. Loops hold one per
    accumulator, in order. `scan` matters in a vector loop only: there the accumulator holds
    the running value on every lane (starting at the init) and the last lane of the yielded
    vector is carried into the next block, instead of W partial results folded at the end
    (docs/design.md, loop.vecloop; loop-vectorize sets it on the scan shape).
    """

    name = "loop.acc"

    kind: AccKindAttr
    reassoc: IntAttr
    scan: IntAttr

    def __init__(self, kind: AccKind | AccKindAttr, reassoc: bool = False, scan: bool = False):
        if isinstance(kind, AccKind):
            kind = AccKindAttr(kind)
        super().__init__(kind, IntAttr(int(reassoc)), IntAttr(int(scan)))

    @property
    def is_reassoc(self) -> bool:
        return bool(self.reassoc.data)

    @property
    def is_scan(self) -> bool:
        return bool(self.scan.data)

    @property
    def acc_kind(self) -> AccKind:
        return self.kind.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            kind, reassoc, scan = parse_acc_spec(parser)
        return (AccKindAttr(kind), IntAttr(int(reassoc)), IntAttr(int(scan)))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.spec)

    @property
    def spec(self) -> str:
        """`add reassoc` / `max` / `add scan`, as written in a loop's accs clause."""
        return self.kind.data.value + (" reassoc" if self.is_reassoc else "") + (" scan" if self.is_scan else "")


def parse_acc_spec(parser: AttrParser) -> tuple[AccKind, bool, bool]:
    """`<kind> [reassoc] [scan]`."""
    kind = parser.parse_str_enum(AccKind)
    reassoc = parser.parse_optional_keyword("reassoc") is not None
    return kind, reassoc, parser.parse_optional_keyword("scan") is not None


def acc_kind_fits_type(kind: AccKind, t: Attribute) -> bool:
    """and/or/umin/umax need integers (i1 included); the other kinds take any scalar type."""
    if kind in (AccKind.AND, AccKind.OR, AccKind.UMIN, AccKind.UMAX):
        return isinstance(t, IntegerType | IndexType)
    return True


def neutral_element(kind: AccKind, t: Attribute) -> int | float | bool:
    """The identity of `kind` on scalar type `t` (`ReductionKind.neutral`); ValueError for custom."""
    return kind.neutral(t)


def neutral_attr(kind: AccKind, t: Attribute) -> IntegerAttr | FloatAttr:
    """`neutral_element` as an attribute, ready for an `arith.constant`."""
    value = neutral_element(kind, t)
    if isinstance(t, Float32Type | Float64Type):
        return FloatAttr(float(value), t)
    assert isinstance(t, IntegerType | IndexType)
    return IntegerAttr(int(value), t)
