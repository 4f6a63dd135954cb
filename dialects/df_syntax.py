"""The custom-syntax pieces df ops share: operand and type lists, attr-dicts, axes, kinds, and
the (kind, value, init) triples of df.reduce / df.scan.

The ops' `parse` / `print` pairs are written with these, so one spelling (`add(%x, %init)`,
`over [i]`, `attributes {...}`) is parsed and printed the same way by every op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from loopopt.dialects.df_types import ReduceKind, ReduceKindAttr


def parse_type_list(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)


def parse_inputs_arrow_results(parser: Parser) -> tuple[Callable[[], Sequence[SSAValue]], list[Attribute]]:
    """`%a, %b : T_a, T_b -> R_1, ...` (df.map, df.filter): the result types and a function
    that resolves the operands, to be called after the op's regions are parsed."""
    operands = parse_operand_list(parser)
    parser.parse_punctuation(":")
    pos = parser.pos
    types = parse_type_list(parser)
    if len(types) != len(operands):
        parser.raise_error(f"{len(operands)} operands but {len(types)} types", pos, parser.pos)
    parser.parse_punctuation("->")
    result_types = parse_type_list(parser)
    return (lambda: parser.resolve_operands(operands, types, pos)), result_types


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def print_body(printer: Printer, region: Region) -> None:
    printer.print_string(" ")
    printer.print_region(region, print_entry_block_args=True, print_empty_block=True)


def parse_attrs(parser: Parser, op: Operation) -> None:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data


def print_attrs(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=True)


def parse_axes(parser: Parser) -> list[str]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_identifier(" for an axis name")
    )


def parse_kind(parser: Parser) -> ReduceKindAttr:
    return ReduceKindAttr(parser.parse_str_enum(ReduceKind))


def parse_triples(
    parser: Parser, with_inputs: bool
) -> list[tuple[ReduceKindAttr, UnresolvedOperand | None, UnresolvedOperand]]:
    """`add(%x, %init), custom(%y, %init2)`, or with a map prologue `add(%init), ...`
    (the reduced values come from the map region, not from an input each)."""

    def triple():
        kind = parse_kind(parser)
        parser.parse_punctuation("(")
        x = parser.parse_unresolved_operand() if with_inputs else None
        if with_inputs:
            parser.parse_punctuation(",")
        init = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        return kind, x, init

    return parser.parse_comma_separated_list(parser.Delimiter.NONE, triple)


def print_triples(printer: Printer, kinds, inputs, inits) -> None:
    """Prints `kind(%x, %init)` per triple, or `kind(%init)` when `inputs` is None."""

    kinds = list(kinds)

    def one(k: int):
        printer.print_string(f"{kinds[k].data.value}(")
        if inputs is not None:
            printer.print_operand(inputs[k])
            printer.print_string(", ")
        printer.print_operand(inits[k])
        printer.print_string(")")

    printer.print_list(range(len(kinds)), one)


def parse_reduction_head(parser: Parser):
    """`(%x, %y) add(%i), ...` (map prologue form) or `add(%x, %i), ...` (plain form).
    Returns (prologue inputs or None, triples)."""
    prologue = None
    if parser.parse_optional_punctuation("(") is not None:
        prologue = parse_operand_list(parser)
        parser.parse_punctuation(")")
    return prologue, parse_triples(parser, with_inputs=prologue is None)


def resolve_reduction(parser: Parser, prologue, triples, input_types, value_types, pos):
    """The input and init operands: the inits take the reduced value types (the map's
    yields, or the inputs' element types)."""
    names = prologue if prologue is not None else [t[1] for t in triples]
    if len(input_types) != len(names):
        parser.raise_error(f"{len(names)} inputs but {len(input_types)} input types", pos, parser.pos)
    inputs = parser.resolve_operands(names, input_types, pos)
    if len(value_types) != len(triples):
        parser.raise_error(f"{len(triples)} triples but {len(value_types)} result types", pos, parser.pos)
    inits = parser.resolve_operands([t[2] for t in triples], value_types, pos)
    return inputs, inits


def parse_prologue_regions(parser: Parser, prologue, what: str) -> tuple[Region, Region]:
    """The optional `where {...}` then `map {...}` regions (map required with a prologue)."""
    where = parser.parse_region() if parser.parse_optional_keyword("where") else Region()
    has_map = parser.parse_optional_keyword("map") is not None
    if has_map != (prologue is not None):
        parser.raise_error(
            f"{what}: inputs in parentheses before the kinds go with a map region, "
            f"inputs inside the triples without one"
        )
    return where, parser.parse_region() if has_map else Region()


def print_region_kw(printer: Printer, keyword: str, region: Region) -> None:
    if region.blocks:
        printer.print_string(f" {keyword}")
        print_body(printer, region)
