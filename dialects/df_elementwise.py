"""df's elementwise ops: `df.map` (zipWith over one domain), `df.filter` (compaction onto a new
axis, optionally mapping the kept elements) and `df.select` (elementwise `cond ? a : b`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure, RecursiveMemoryEffect, RecursivelySpeculatable
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_body import BodyOp, YieldOp, print_body, verify_body
from loopopt.dialects.df_syntax import parse_attrs, parse_inputs_arrow_results, print_attrs, print_types
from loopopt.dialects.df_types import ArrayType, axes_of, element_type_of, format_axes, is_value_type
from loopopt.dialects.df_verify import broadcast_axes, common_axes


@irdl_op_definition
class MapOp(BodyOp):
    """Elementwise map (zipWith) over one or more arrays of one domain.

    The body binds one element of each input and yields one element per result; it runs
    lane-wise, so it must not depend on the order of elements.

    ```
    %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%e: f32):
      %d = arith.mulf %e, %e : f32
      df.yield %d : f32
    }
    ```
    """

    name = "df.map"

    inputs = var_operand_def(ArrayType)
    """The arrays, all on the same axes (zip)."""
    outputs = var_result_def(ArrayType)
    """One array per yielded value, on the inputs' axes."""
    body = region_def("single_block")
    """(x_1: T_1, ..., x_n: T_n) -> (r_1, ..., r_m), lane-wise."""

    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(self, inputs: Sequence[SSAValue], result_types: Sequence[Attribute], body: Region):
        super().__init__(operands=[inputs], result_types=[result_types], regions=[body])

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.map needs at least one input array, found none")
        if not self.outputs:
            raise VerifyException("df.map needs at least one result, found none")
        # the results' axes are the domain; inputs on some of them are broadcast by axis name
        axes = broadcast_axes("df.map", self.inputs, axes_of(self.outputs.types[0]))
        for i, t in enumerate(self.outputs.types):
            assert isinstance(t, ArrayType)
            if t.axis_names != axes:
                raise VerifyException(
                    f"df.map result {i} has axes {format_axes(t.axis_names)}, "
                    f"expected the inputs' axes {format_axes(axes)}"
                )
        verify_body(
            "df.map",
            self.body,
            [element_type_of(t) for t in self.inputs.types],
            [element_type_of(t) for t in self.outputs.types],
        )


def _enclosing_func(op: Operation) -> FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent


@irdl_op_definition
class FilterOp(IRDLOperation):
    """Keeps the elements whose predicate holds, compacted onto a NEW axis; with a `map`
    region, the kept elements are mapped on the way (filter → map in one op).

    Several inputs are filtered by one predicate over their zipped elements; the results
    share the new axis. Inputs are rank 1. Without `map` there is one result per input
    (its kept elements); with `map` there is one result per value the map yields, and
    the map runs on the kept elements only (it never sees an element the predicate drops).

    ```
    %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
    ^bb0(%e: f32):
      %c = arith.cmpf ogt, %e, %zero : f32
      df.yield %c : i1
    }
    %q = df.filter %x : !df.array<f32, [i]> -> !df.array<f64, [k]> {
    ^bb0(%e: f32):
      %c = arith.cmpf ogt, %e, %zero : f32
      df.yield %c : i1
    } map {
    ^bb0(%e: f32):
      %d = arith.extf %e : f32 to f64
      df.yield %d : f64
    }
    ```
    """

    name = "df.filter"

    inputs = var_operand_def(ArrayType)
    """Rank-1 arrays of one domain."""
    outputs = var_result_def(ArrayType)
    """The kept elements of each input (or the mapped kept elements), on one new axis."""
    body = region_def("single_block")
    """The predicate: (x_1, ..., x_n) -> i1."""
    map = region_def()
    """Optional: (x_1, ..., x_n) -> (r_1, ..., r_m), lane-wise, applied to the kept
    elements; empty when the filter keeps its inputs' elements as they are."""

    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(self, inputs: Sequence[SSAValue], new_axis: str, body: Region,
                 map_region: Region | None = None):
        if map_region is not None:
            term = map_region.block.last_op
            assert isinstance(term, YieldOp)
            types = [ArrayType(v.type, [new_axis]) for v in term.arguments]
        else:
            types = [t.with_axes([new_axis]) for t in (v.type for v in inputs)]  # type: ignore[attr-defined]
        super().__init__(operands=[inputs], result_types=[types],
                         regions=[body, map_region if map_region is not None else Region()])

    @property
    def has_map(self) -> bool:
        return bool(self.map.blocks)

    @property
    def new_axis(self) -> str:
        return axes_of(self.outputs.types[0])[0]

    @classmethod
    def parse(cls, parser: Parser) -> FilterOp:
        operands, result_types = parse_inputs_arrow_results(parser)
        body = parser.parse_region()
        map_region = parser.parse_region() if parser.parse_optional_keyword("map") else Region()
        op = cls.build(
            operands=[operands()],
            result_types=[result_types],
            regions=[body, map_region],
        )
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(" : ")
        print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        print_types(printer, self.outputs.types)
        print_body(printer, self.body)
        if self.has_map:
            printer.print_string(" map")
            print_body(printer, self.map)
        print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.filter needs at least one input array, found none")
        axes = common_axes("df.filter", self.inputs)
        if len(axes) != 1:
            raise VerifyException(f"df.filter inputs must be rank 1, found axes {format_axes(axes)}")
        if not self.outputs:
            raise VerifyException("df.filter needs at least one result, found none")
        new_axes = common_axes("df.filter", self.outputs, "result")
        if len(new_axes) != 1 or new_axes == axes:
            raise VerifyException(
                f"df.filter result must be on one new axis, found {format_axes(new_axes)} "
                f"for input axes {format_axes(axes)}"
            )
        elements = [element_type_of(t) for t in self.inputs.types]
        verify_body("df.filter", self.body, elements, [IntegerAttr(0, 1).type])
        if self.has_map:
            verify_body("df.filter map", self.map, elements,
                         [element_type_of(t) for t in self.outputs.types])
        else:
            if len(self.outputs) != len(self.inputs):
                raise VerifyException(
                    f"df.filter has {len(self.inputs)} inputs, expected as many results, "
                    f"found {len(self.outputs)}"
                )
            for i, (a, r) in enumerate(zip(self.inputs.types, self.outputs.types, strict=True)):
                if element_type_of(a) != element_type_of(r):
                    raise VerifyException(
                        f"df.filter result {i} has element type {element_type_of(r)}, "
                        f"expected the input's {element_type_of(a)}"
                    )
        self._verify_axis_is_fresh(new_axes[0])

    def _verify_axis_is_fresh(self, axis: str) -> None:
        """The new axis names a new domain: no kernel argument nor other filter uses it."""
        func = _enclosing_func(self)
        if func is None:
            return
        if any(axis in axes_of(t) for t in func.function_type.inputs):
            raise VerifyException(
                f"df.filter new axis '{axis}' is already an axis of a kernel argument"
            )
        for other in func.walk():
            if other is not self and isinstance(other, FilterOp) and other.outputs and \
                    axis in axes_of(other.outputs.types[0]):
                raise VerifyException(
                    f"df.filter new axis '{axis}' is also produced by another df.filter"
                )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """Elementwise choice: `cond ? a : b` over one domain (or one scalar condition).

    `%r = df.select %c, %a, %b : !df.array<i1, [i]>, !df.array<f32, [i]>`
    """

    name = "df.select"

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def()
    """i1, or an i1 array on the operands' axes."""
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($result)"

    def __init__(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        c, t = self.cond.type, self.result.type
        if element_type_of(c) != IntegerAttr(0, 1).type:
            raise VerifyException(f"df.select condition must be i1 or an i1 array, found {c}")
        if isinstance(c, ArrayType) and c.axis_names != axes_of(t):
            raise VerifyException(
                f"df.select condition has axes {format_axes(c.axis_names)}, "
                f"expected the operands' axes {format_axes(axes_of(t))}"
            )
        if not is_value_type(t):
            raise VerifyException(f"df.select operands must be df values, found {t}")
