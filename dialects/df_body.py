"""df bodies: the single block of a region op (map, filter, reduce, fold, scan), ended by `df.yield`.

`verify_body` is the contract every body is checked against (its arguments and its yields);
`print_body` / `print_region_kw` print a body, and `BodyOp` is the whole syntax of an op that
is only inputs, result types and one body (df.map).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Attribute, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, lazy_traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_syntax import parse_attrs, parse_inputs_arrow_results, print_attrs, print_types
from loopopt.dialects.df_verify import types_text


def _region_ops() -> tuple[type[IRDLOperation], ...]:
    from loopopt.dialects.df_elementwise import FilterOp, MapOp
    from loopopt.dialects.df_reductions import FoldOp, ReduceOp, ScanOp

    return (MapOp, FilterOp, ReduceOp, FoldOp, ScanOp)


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """Ends a df body: the element result(s), predicate, or new accumulator values."""

    name = "df.yield"

    traits = lazy_traits_def(
        lambda: (IsTerminator(), HasParent(*_region_ops()), Pure())
    )


def verify_body(
    op_name: str, body: Region, arg_types: Sequence[Attribute], yield_types: Sequence[Attribute]
) -> None:
    """The body's single block takes `arg_types` and its df.yield gives `yield_types`."""
    blocks = len(body.blocks)
    if blocks != 1:
        raise VerifyException(f"{op_name} body must have one block, found {blocks}")
    block = body.block
    found_args = [a.type for a in block.args]
    if found_args != list(arg_types):
        raise VerifyException(
            f"{op_name} body arguments have types {types_text(found_args)}, "
            f"expected {types_text(arg_types)}"
        )
    term = block.last_op
    if not isinstance(term, YieldOp):
        found = term.name if term is not None else "an empty block"
        raise VerifyException(f"{op_name} body must end in df.yield, found {found}")
    found_yield = [a.type for a in term.arguments]
    if found_yield != list(yield_types):
        raise VerifyException(
            f"{op_name} body yields {types_text(found_yield)}, expected {types_text(yield_types)}"
        )


def print_body(printer: Printer, region: Region) -> None:
    printer.print_string(" ")
    printer.print_region(region, print_entry_block_args=True, print_empty_block=True)


def print_region_kw(printer: Printer, keyword: str, region: Region) -> None:
    if region.blocks:
        printer.print_string(f" {keyword}")
        print_body(printer, region)


class BodyOp(IRDLOperation):
    """The syntax of an op with inputs, result types and one body (df.map):
    `df.<op> %a, %b : T_a, T_b -> R... { ^bb0(...): ... }`."""

    @classmethod
    def parse(cls, parser: Parser):
        operands, result_types = parse_inputs_arrow_results(parser)
        body = parser.parse_region()
        op = cls.build(
            operands=[operands()],
            result_types=[result_types],
            regions=[body],
        )
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        print_types(printer, self.operand_types)
        printer.print_string(" -> ")
        print_types(printer, self.result_types)
        print_body(printer, self.regions[0])
        print_attrs(printer, self)
