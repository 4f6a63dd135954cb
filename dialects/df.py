"""The `df` dialect: loop-free dataflow over arrays with named axes.

A df kernel is a `func.func` whose arguments and results are `!df.array` values and
scalars. Its body is a graph of map / filter / select / reduce / fold / scan nodes with
typed edges (dtype + axes in every type); there are no loops, buffers or indices yet.
`convert-df-to-loop` later turns domains into loops and reductions into accumulators.

Region-holding ops (map, filter, reduce, fold, scan) take a body whose entry block binds
the elements (and accumulators) as scalars; bodies use `arith`/`math`, may capture scalars
defined outside, and end in `df.yield`.

Horizontal fusion: one `df.reduce` carries several (kind, input, init) triples over one
domain and gives one result per triple (mean and variance in one pass), instead of a
separate multi-result op, so single and fused reductions share one verifier, one lowering
and one interpreter path. The custom triples share the body: its block takes
(acc_1..acc_m, x_1..x_m) for the m custom triples, in order, and yields the m new accs.

Fused forms: df-fuse's results are ordinary df ops whose fusion is spelled in verified
regions and properties, never in discardable attributes, so any pass may rewrite them:
`df.reduce` with an optional `map` prologue (map → reduce; partial reductions too) and an
optional `where` predicate (filter → reduce), `df.filter` with an optional `map` region
(filter → map), `df.scan` with an optional `map` prologue (map → scan). Each means exactly
the unfused chain. A `df.fold` that absorbs a map simply composes it into its body (exact,
no contract); df.fold stays for genuinely sequential custom folds.

Effects: everything is pure except `df.random` (reads and advances an RNG); region ops
have the effects of their bodies; `df.decl_ref` has the effects of the referenced
declaration; a `func.call` in a body has unknown effects (xDSL's default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    Float32Type,
    Float64Type,
    IntegerType,
    FlatSymbolRefAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TupleType,
    UnitAttr,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    HasParent,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    Pure,
    RecursiveMemoryEffect,
    RecursivelySpeculatable,
    Resource,
    SymbolTable,
    SymbolUserOpInterface,
    get_effects,
)
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_types import (
    ArrayType,
    RecordType,
    ReduceKind,
    ReduceKindAttr,
    axes_of,
    element_type_of,
    format_axes,
    is_element_type,
    is_scalar_type,
    is_value_type,
    kind_accepts,
)

__all__ = [
    "DF",
    "ArrayType",
    "RecordType",
    "ReduceKind",
    "ReduceKindAttr",
]


# ----------------------------------------------------------------------------------------
# Shared helpers (verification and syntax)
# ----------------------------------------------------------------------------------------


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


def _common_axes(op_name: str, values: Sequence[SSAValue], what: str = "input") -> tuple[str, ...]:
    """The axes all `values` (df arrays) share; raises naming the first that differs."""
    first = values[0].type
    if not isinstance(first, ArrayType):
        raise VerifyException(f"{op_name} {what} 0 must be a !df.array, found {first}")
    axes = first.axis_names
    for i, v in enumerate(values[1:], 1):
        t = v.type
        if not isinstance(t, ArrayType):
            raise VerifyException(f"{op_name} {what} {i} must be a !df.array, found {t}")
        if t.axis_names != axes:
            raise VerifyException(
                f"{op_name} {what}s must share one domain: {what} {i} has axes "
                f"{format_axes(t.axis_names)}, expected {format_axes(axes)}"
            )
    return axes


def _verify_body(
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
            f"{op_name} body arguments have types {_types(found_args)}, "
            f"expected {_types(arg_types)}"
        )
    term = block.last_op
    if not isinstance(term, YieldOp):
        found = term.name if term is not None else "an empty block"
        raise VerifyException(f"{op_name} body must end in df.yield, found {found}")
    found_yield = [a.type for a in term.arguments]
    if found_yield != list(yield_types):
        raise VerifyException(
            f"{op_name} body yields {_types(found_yield)}, expected {_types(yield_types)}"
        )


def _parse_type_list(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


def _parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)


def _print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def _print_body(printer: Printer, region: Region) -> None:
    printer.print_string(" ")
    printer.print_region(region, print_entry_block_args=True, print_empty_block=True)


def _parse_attrs(parser: Parser, op: Operation) -> None:
    attrs = parser.parse_optional_attr_dict_with_keyword()
    if attrs is not None:
        op.attributes |= attrs.data


def _print_attrs(printer: Printer, op: Operation) -> None:
    if op.attributes:
        printer.print_op_attributes(op.attributes, print_keyword=True)


def _parse_axes(parser: Parser) -> list[str]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_identifier(" for an axis name")
    )


def _parse_kind(parser: Parser) -> ReduceKindAttr:
    return ReduceKindAttr(parser.parse_str_enum(ReduceKind))


def _verify_kind(op_name: str, index: int, kind: ReduceKind, element_type: Attribute) -> None:
    if not kind_accepts(kind, element_type):
        need = {
            ReduceKind.AND: "an integer or i1",
            ReduceKind.OR: "an integer or i1",
            ReduceKind.ADD: "a float or i32/i64",
            ReduceKind.MUL: "a float or i32/i64",
        }.get(kind, "a scalar")
        raise VerifyException(
            f"{op_name} kind {kind.value} (triple {index}) needs {need} element type, "
            f"found {element_type}"
        )


# ----------------------------------------------------------------------------------------
# Sources and scalars
# ----------------------------------------------------------------------------------------


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
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.value)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException(
                f"df.constant result type {self.result.type} differs from value type {self.value.type}"
            )
        if not is_scalar_type(self.result.type):
            raise VerifyException(
                f"df.constant type must be f32, f64, i1, i32 or i64, found {self.result.type}"
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


# ----------------------------------------------------------------------------------------
# Elementwise
# ----------------------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """Ends a df body: the element result(s), predicate, or new accumulator values."""

    name = "df.yield"

    traits = lazy_traits_def(
        lambda: (IsTerminator(), HasParent(MapOp, FilterOp, ReduceOp, FoldOp, ScanOp), Pure())
    )


class _BodyOp(IRDLOperation):
    """The syntax of an op with inputs, result types and one body (df.map):
    `df.<op> %a, %b : T_a, T_b -> R... { ^bb0(...): ... }`."""

    @classmethod
    def parse(cls, parser: Parser):
        operands = _parse_operand_list(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = _parse_type_list(parser)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types", pos, parser.pos)
        parser.parse_punctuation("->")
        result_types = _parse_type_list(parser)
        body = parser.parse_region()
        op = cls.build(
            operands=[parser.resolve_operands(operands, types, pos)],
            result_types=[result_types],
            regions=[body],
        )
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        _print_types(printer, self.operand_types)
        printer.print_string(" -> ")
        _print_types(printer, self.result_types)
        _print_body(printer, self.regions[0])
        _print_attrs(printer, self)


@irdl_op_definition
class MapOp(_BodyOp):
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
        axes = _common_axes("df.map", self.inputs)
        if not self.outputs:
            raise VerifyException("df.map needs at least one result, found none")
        for i, t in enumerate(self.outputs.types):
            assert isinstance(t, ArrayType)
            if t.axis_names != axes:
                raise VerifyException(
                    f"df.map result {i} has axes {format_axes(t.axis_names)}, "
                    f"expected the inputs' axes {format_axes(axes)}"
                )
        _verify_body(
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
        operands = _parse_operand_list(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = _parse_type_list(parser)
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands but {len(types)} types", pos, parser.pos)
        parser.parse_punctuation("->")
        result_types = _parse_type_list(parser)
        body = parser.parse_region()
        map_region = parser.parse_region() if parser.parse_optional_keyword("map") else Region()
        op = cls.build(
            operands=[parser.resolve_operands(operands, types, pos)],
            result_types=[result_types],
            regions=[body, map_region],
        )
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(" : ")
        _print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        _print_types(printer, self.outputs.types)
        _print_body(printer, self.body)
        if self.has_map:
            printer.print_string(" map")
            _print_body(printer, self.map)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.filter needs at least one input array, found none")
        axes = _common_axes("df.filter", self.inputs)
        if len(axes) != 1:
            raise VerifyException(f"df.filter inputs must be rank 1, found axes {format_axes(axes)}")
        if not self.outputs:
            raise VerifyException("df.filter needs at least one result, found none")
        new_axes = _common_axes("df.filter", self.outputs, "result")
        if len(new_axes) != 1 or new_axes == axes:
            raise VerifyException(
                f"df.filter result must be on one new axis, found {format_axes(new_axes)} "
                f"for input axes {format_axes(axes)}"
            )
        elements = [element_type_of(t) for t in self.inputs.types]
        _verify_body("df.filter", self.body, elements, [IntegerAttr(0, 1).type])
        if self.has_map:
            _verify_body("df.filter map", self.map, elements,
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


# ----------------------------------------------------------------------------------------
# Reductions
# ----------------------------------------------------------------------------------------


def _parse_triples(
    parser: Parser, with_inputs: bool
) -> list[tuple[ReduceKindAttr, UnresolvedOperand | None, UnresolvedOperand]]:
    """`add(%x, %init), custom(%y, %init2)`, or with a map prologue `add(%init), ...`
    (the reduced values come from the map region, not from an input each)."""

    def triple():
        kind = _parse_kind(parser)
        parser.parse_punctuation("(")
        x = parser.parse_unresolved_operand() if with_inputs else None
        if with_inputs:
            parser.parse_punctuation(",")
        init = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        return kind, x, init

    return parser.parse_comma_separated_list(parser.Delimiter.NONE, triple)


def _print_triples(printer: Printer, kinds, inputs, inits) -> None:
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


def _parse_reduction_head(parser: Parser):
    """`(%x, %y) add(%i), ...` (map prologue form) or `add(%x, %i), ...` (plain form).
    Returns (prologue inputs or None, triples)."""
    prologue = None
    if parser.parse_optional_punctuation("(") is not None:
        prologue = _parse_operand_list(parser)
        parser.parse_punctuation(")")
    return prologue, _parse_triples(parser, with_inputs=prologue is None)


def _resolve_reduction(parser: Parser, prologue, triples, input_types, value_types, pos):
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


def _parse_prologue_regions(parser: Parser, prologue, what: str) -> tuple[Region, Region]:
    """The optional `where {...}` then `map {...}` regions (map required with a prologue)."""
    where = parser.parse_region() if parser.parse_optional_keyword("where") else Region()
    has_map = parser.parse_optional_keyword("map") is not None
    if has_map != (prologue is not None):
        parser.raise_error(
            f"{what}: inputs in parentheses before the kinds go with a map region, "
            f"inputs inside the triples without one"
        )
    return where, parser.parse_region() if has_map else Region()


def _print_region_kw(printer: Printer, keyword: str, region: Region) -> None:
    if region.blocks:
        printer.print_string(f" {keyword}")
        _print_body(printer, region)


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduction over some axes, one or several (kind, value, init) triples at once,
    optionally fused with the map and the filter that produce its values.

    Reducing over every axis gives a scalar; reducing a rank-2 array over one axis gives
    an array over the remaining axis. Several triples (all inputs on one domain) give one
    result each: the form horizontal fusion produces. An empty domain gives `init`.

    Fused forms (what df-fuse builds; each is exactly the unfused chain):
    * `map` prologue: the reduced values are not the inputs' elements but the values a
      lane-wise map region computes from them, one per triple: map → reduce. The inputs
      x_1..x_n are then listed before the kinds and the triples only name their inits.
    * `where` predicate (rank-1 inputs): elements where it yields false are skipped — not
      mapped, not combined: filter → reduce over the filter's inputs. A map prologue sees
      only the elements the predicate keeps.

    ```
    %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
    %s, %q = df.reduce add(%x, %z), add(%sq, %z) over [i] reassoc
        : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32, f32
    %m = df.reduce custom(%x, %init) over [i] : !df.array<f32, [i]> -> f32 {
    ^bb0(%acc: f32, %e: f32):
      ...
      df.yield %next : f32
    }
    %d = df.reduce(%x, %y) add(%zero) over [i] reassoc
        : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32 where {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %zero : f32
      df.yield %c : i1
    } map {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      df.yield %p : f32
    }
    ```
    """

    name = "df.reduce"

    inputs = var_operand_def(ArrayType)
    """The arrays read, all on the same axes: one per triple without a map prologue."""
    inits = var_operand_def()
    """One initial value per triple, of its reduced value's type."""
    outputs = var_result_def()
    """One result per triple: the input domain without `over_axes` holding the value type
    (a scalar if no axis remains)."""
    kinds = prop_def(ArrayAttr[ReduceKindAttr])
    """The reducer of each triple: add | mul | min | max | and | or | custom."""
    over_axes = prop_def(ArrayAttr[StringAttr])
    """The axes collapsed (a non-empty subset of the inputs' axes)."""
    reassoc = opt_prop_def(UnitAttr)
    """Present when floats may be reassociated (tree / vector partial sums) — the
    vectorizer needs it for floating-point add/mul; integer and min/max reductions are
    associative regardless."""
    where = region_def()
    """Optional predicate (x_1..x_n) -> i1, lane-wise: elements where it is false are
    skipped. Rank-1 inputs only (a filtered domain). Empty: every element counts."""
    map = region_def()
    """Optional prologue (x_1..x_n) -> (v_1..v_m), lane-wise, one value per triple, of
    its init's type. Empty: triple k reduces input k's elements."""
    body = region_def()
    """For the custom triples: (acc_1..acc_c, v_1..v_c) -> (acc_1..acc_c); else empty."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(
        self,
        kinds: Sequence[ReduceKind | str],
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        over_axes: Sequence[str] | None = None,
        reassoc: bool = False,
        body: Region | None = None,
        *,
        map_region: Region | None = None,
        where: Region | None = None,
    ):
        t0 = inputs[0].type
        assert isinstance(t0, ArrayType)
        over = list(over_axes) if over_axes is not None else list(t0.axis_names)
        result_types = [reduced_type(t0.with_element(v.type), over) for v in inits]
        props: dict[str, Attribute] = {
            "kinds": ArrayAttr(ReduceKindAttr(ReduceKind(k)) for k in kinds),
            "over_axes": ArrayAttr(StringAttr(a) for a in over),
        }
        if reassoc:
            props["reassoc"] = UnitAttr()
        super().__init__(
            operands=[inputs, inits], result_types=[result_types], properties=props,
            regions=[r if r is not None else Region() for r in (where, map_region, body)],
        )

    @property
    def kind_values(self) -> list[ReduceKind]:
        return [k.data for k in self.kinds]

    @property
    def over_axis_names(self) -> tuple[str, ...]:
        return tuple(a.data for a in self.over_axes)

    @property
    def has_map(self) -> bool:
        return bool(self.map.blocks)

    @property
    def has_where(self) -> bool:
        return bool(self.where.blocks)

    @property
    def value_types(self) -> list[Attribute]:
        """The type of each triple's reduced values (= its init's and accumulator's type)."""
        return list(self.inits.types)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        prologue, triples = _parse_reduction_head(parser)
        parser.parse_keyword("over")
        over = _parse_axes(parser)
        reassoc = parser.parse_optional_keyword("reassoc") is not None
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = _parse_type_list(parser)
        parser.parse_punctuation("->")
        out_types = _parse_type_list(parser)
        value_types = [element_type_of(t) for t in out_types]
        inputs, inits = _resolve_reduction(parser, prologue, triples, in_types, value_types, pos)
        where, map_region = _parse_prologue_regions(parser, prologue, "df.reduce")
        body = parser.parse_optional_region() or Region()
        props: dict[str, Attribute] = {
            "kinds": ArrayAttr(t[0] for t in triples),
            "over_axes": ArrayAttr(StringAttr(a) for a in over),
        }
        if reassoc:
            props["reassoc"] = UnitAttr()
        op = cls.build(operands=[inputs, inits], result_types=[out_types], properties=props,
                       regions=[where, map_region, body])
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        if self.has_map:
            printer.print_string("(")
            printer.print_list(self.inputs, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        _print_triples(printer, self.kinds, None if self.has_map else self.inputs, self.inits)
        printer.print_string(" over " + format_axes(self.over_axis_names))
        if self.reassoc is not None:
            printer.print_string(" reassoc")
        printer.print_string(" : ")
        _print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        _print_types(printer, self.outputs.types)
        _print_region_kw(printer, "where", self.where)
        _print_region_kw(printer, "map", self.map)
        if self.body.blocks:
            _print_body(printer, self.body)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        m = len(self.kinds)
        if m == 0:
            raise VerifyException("df.reduce needs at least one (kind, value, init) triple, found none")
        if not (len(self.inits) == len(self.outputs) == m):
            raise VerifyException(
                f"df.reduce has {m} kinds, expected as many inits and results, found "
                f"{len(self.inits)} inits, {len(self.outputs)} results"
            )
        if not self.inputs:
            raise VerifyException("df.reduce needs at least one input array, found none")
        axes = _common_axes("df.reduce", self.inputs)
        over = self.over_axis_names
        if not over or len(set(over)) != len(over) or not set(over) <= set(axes):
            raise VerifyException(
                f"df.reduce over_axes {format_axes(over)} must be distinct axes of the input "
                f"axes {format_axes(axes)}"
            )
        elements = [element_type_of(t) for t in self.inputs.types]
        values = self.value_types
        if self.has_map:
            _verify_body("df.reduce map", self.map, elements, values)
        elif len(self.inputs) != m:
            raise VerifyException(
                f"df.reduce without a map region reduces one input per kind, expected {m} "
                f"inputs, found {len(self.inputs)}"
            )
        else:
            for i, (init, elt) in enumerate(zip(values, elements, strict=True)):
                if init != elt:
                    raise VerifyException(
                        f"df.reduce init {i} has type {init}, expected the element type {elt}"
                    )
        if self.has_where:
            if len(axes) != 1:
                raise VerifyException(
                    f"df.reduce where needs rank-1 inputs (a filtered domain), found axes "
                    f"{format_axes(axes)}"
                )
            _verify_body("df.reduce where", self.where, elements, [IntegerAttr(0, 1).type])
        t0 = self.inputs.types[0]
        assert isinstance(t0, ArrayType)
        custom_accs: list[Attribute] = []
        for i, (kind, value, out) in enumerate(zip(self.kind_values, values, self.outputs, strict=True)):
            expected = reduced_type(t0.with_element(value), over)
            if out.type != expected:
                raise VerifyException(
                    f"df.reduce result {i} has type {out.type}, expected {expected}"
                )
            _verify_kind("df.reduce", i, kind, value)
            if kind == ReduceKind.CUSTOM:
                custom_accs.append(value)
        if custom_accs:
            if not self.body.blocks:
                raise VerifyException("df.reduce with a custom kind needs a body, found none")
            _verify_body("df.reduce", self.body, custom_accs * 2, custom_accs)
        elif self.body.blocks:
            raise VerifyException("df.reduce has a body but no custom kind")


_FLOAT_COMBINERS: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddfOp,
    ReduceKind.MUL: arith.MulfOp,
    ReduceKind.MIN: arith.MinimumfOp,  # NaN-propagating, like the interpreter's np.minimum
    ReduceKind.MAX: arith.MaximumfOp,
}
_INT_COMBINERS: dict[ReduceKind, type[Operation]] = {
    ReduceKind.ADD: arith.AddiOp,
    ReduceKind.MUL: arith.MuliOp,
    ReduceKind.MIN: arith.MinSIOp,
    ReduceKind.MAX: arith.MaxSIOp,
    ReduceKind.AND: arith.AndIOp,
    ReduceKind.OR: arith.OrIOp,
}
_BOOL_COMBINERS: dict[ReduceKind, type[Operation]] = {
    ReduceKind.MIN: arith.AndIOp,
    ReduceKind.MAX: arith.OrIOp,
    ReduceKind.AND: arith.AndIOp,
    ReduceKind.OR: arith.OrIOp,
}


def kind_combiner(kind: ReduceKind, t: Attribute) -> type[Operation] | None:
    """The arith op computing `acc ⊕ v` for built-in `kind` on scalar type `t` (what
    df.reduce / df.scan mean, in arith terms); None for custom or a kind `t` lacks."""
    if isinstance(t, IntegerType) and t.width.data == 1:
        return _BOOL_COMBINERS.get(kind)
    table = _FLOAT_COMBINERS if isinstance(t, Float32Type | Float64Type) else _INT_COMBINERS
    return table.get(kind)


def reduced_type(t: ArrayType, over: Sequence[str]) -> Attribute:
    """The type of reducing `t` over `over`: the remaining axes, or the element type."""
    rest = [a for a in t.axis_names if a not in over]
    return t.with_axes(rest) if rest else t.element_type


@irdl_op_definition
class FoldOp(IRDLOperation):
    """Sequential fold over every element (row-major), with one or more accumulators.

    Unlike df.reduce it promises no associativity: the body sees elements in order.
    The inputs share one domain; the results are the final accumulators (scalars). A map
    feeding a fold fuses by composing its body into the fold's (exact: no extra contract).

    ```
    %acc, %idx = df.fold(%x) init(%c0, %i0) : !df.array<f32, [i]> -> f32, i64 {
    ^bb0(%a: f32, %k: i64, %e: f32):
      ...
      df.yield %a2, %k2 : f32, i64
    }
    ```
    """

    name = "df.fold"

    inputs = var_operand_def(ArrayType)
    """Arrays of one domain, visited in order."""
    inits = var_operand_def()
    """Initial accumulator values; their types are the result types."""
    outputs = var_result_def()
    """Final accumulator values."""
    body = region_def("single_block")
    """(acc_1..acc_m, x_1..x_n) -> (acc_1..acc_m)."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(self, inputs: Sequence[SSAValue], inits: Sequence[SSAValue], body: Region):
        super().__init__(operands=[inputs, inits], result_types=[[v.type for v in inits]],
                         regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> FoldOp:
        inputs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("init")
        inits = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = _parse_type_list(parser)
        parser.parse_punctuation("->")
        out_types = _parse_type_list(parser)
        if len(in_types) != len(inputs) or len(out_types) != len(inits):
            parser.raise_error(
                f"{len(inputs)} inputs and {len(inits)} inits but {len(in_types)} input types "
                f"and {len(out_types)} result types", pos, parser.pos)
        body = parser.parse_region()
        op = cls.build(
            operands=[parser.resolve_operands(inputs, in_types, pos),
                      parser.resolve_operands(inits, out_types, pos)],
            result_types=[out_types], regions=[body],
        )
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(") init(")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(") : ")
        _print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        _print_types(printer, self.outputs.types)
        _print_body(printer, self.body)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.fold needs at least one input array, found none")
        _common_axes("df.fold", self.inputs)
        if not self.inits:
            raise VerifyException("df.fold needs at least one accumulator, found none")
        inits, outs = list(self.inits.types), list(self.outputs.types)
        if inits != outs:
            raise VerifyException(
                f"df.fold result types {_types(outs)} must equal its init types {_types(inits)}"
            )
        for t in outs:
            if not is_element_type(t):
                raise VerifyException(f"df.fold accumulators must be scalars or records, found {t}")
        _verify_body("df.fold", self.body, outs + [element_type_of(t) for t in self.inputs.types], outs)


@irdl_op_definition
class ScanOp(IRDLOperation):
    """Inclusive prefix reduction of a rank-1 array: out[k] = init ⊕ v[0] ⊕ ... ⊕ v[k],
    where v is the input, or with a `map` prologue the value a lane-wise map region
    computes from the inputs' elements (map → scan in one op).

    ```
    %p = df.scan add(%x, %zero) : !df.array<f32, [i]> -> !df.array<f32, [i]>
    %q = df.scan(%x, %y) add(%zero) reassoc
        : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> map {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      df.yield %p : f32
    }
    ```
    """

    name = "df.scan"

    inputs = var_operand_def(ArrayType)
    """The scanned array, or with a map prologue the arrays it reads (one domain)."""
    init = operand_def()
    """Initial value, of the scanned value's type."""
    output = result_def(ArrayType)
    """The prefixes, on the inputs' axis, of the init's type."""
    kind = prop_def(ReduceKindAttr)
    """add | mul | min | max | and | or | custom."""
    reassoc = opt_prop_def(UnitAttr)
    """Present when floats may be reassociated (a parallel prefix is allowed)."""
    map = region_def()
    """Optional prologue (x_1..x_n) -> v, lane-wise; empty: the single input's elements."""
    body = region_def()
    """For kind custom: (acc, v) -> acc; else empty."""

    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(self, kind: ReduceKind | str, input: SSAValue | Sequence[SSAValue], init: SSAValue,
                 body: Region | None = None, reassoc: bool = False, *,
                 map_region: Region | None = None):
        inputs = [input] if isinstance(input, SSAValue) else list(input)
        t0 = inputs[0].type
        assert isinstance(t0, ArrayType)
        props: dict[str, Attribute] = {"kind": ReduceKindAttr(ReduceKind(kind))}
        if reassoc:
            props["reassoc"] = UnitAttr()
        super().__init__(operands=[inputs, init], result_types=[t0.with_element(init.type)],
                         properties=props,
                         regions=[r if r is not None else Region() for r in (map_region, body)])

    @property
    def has_map(self) -> bool:
        return bool(self.map.blocks)

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        prologue, triples = _parse_reduction_head(parser)
        if len(triples) != 1:
            parser.raise_error(f"df.scan takes one (kind, value, init) triple, found {len(triples)}")
        reassoc = parser.parse_optional_keyword("reassoc") is not None
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = _parse_type_list(parser)
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        (inputs, (init,)) = _resolve_reduction(
            parser, prologue, triples, in_types, [element_type_of(out_type)], pos)
        has_map = parser.parse_optional_keyword("map") is not None
        if has_map != (prologue is not None):
            parser.raise_error("df.scan: inputs in parentheses before the kind go with a map "
                               "region, an input inside the triple without one")
        map_region = parser.parse_region() if has_map else Region()
        body = parser.parse_optional_region() or Region()
        props: dict[str, Attribute] = {"kind": triples[0][0]}
        if reassoc:
            props["reassoc"] = UnitAttr()
        op = cls.build(operands=[inputs, init], result_types=[out_type], properties=props,
                       regions=[map_region, body])
        _parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        if self.has_map:
            printer.print_string("(")
            printer.print_list(self.inputs, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        _print_triples(printer, [self.kind], None if self.has_map else self.inputs, [self.init])
        if self.reassoc is not None:
            printer.print_string(" reassoc")
        printer.print_string(" : ")
        _print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        printer.print_attribute(self.output.type)
        _print_region_kw(printer, "map", self.map)
        if self.body.blocks:
            _print_body(printer, self.body)
        _print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.scan needs at least one input array, found none")
        axes = _common_axes("df.scan", self.inputs)
        if len(axes) != 1:
            raise VerifyException(f"df.scan input must be rank 1, found axes {format_axes(axes)}")
        t = self.inputs.types[0]
        assert isinstance(t, ArrayType)
        value = self.init.type
        elements = [element_type_of(u) for u in self.inputs.types]
        if self.has_map:
            _verify_body("df.scan map", self.map, elements, [value])
        elif len(self.inputs) != 1:
            raise VerifyException(
                f"df.scan without a map region scans one input, found {len(self.inputs)}"
            )
        elif value != t.element_type:
            raise VerifyException(
                f"df.scan init has type {value}, expected the element type {t.element_type}"
            )
        expected = t.with_element(value)
        if self.output.type != expected:
            raise VerifyException(f"df.scan result has type {self.output.type}, expected {expected}")
        kind = self.kind.data
        _verify_kind("df.scan", 0, kind, value)
        if kind == ReduceKind.CUSTOM:
            if not self.body.blocks:
                raise VerifyException("df.scan with kind custom needs a body, found none")
            _verify_body("df.scan", self.body, [value] * 2, [value])
        elif self.body.blocks:
            raise VerifyException(f"df.scan has a body but kind {kind.value}, expected custom")


# ----------------------------------------------------------------------------------------
# Tuples and records
# ----------------------------------------------------------------------------------------


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


# ----------------------------------------------------------------------------------------
# References to other declarations
# ----------------------------------------------------------------------------------------


class DeclRefSymbolUse(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, DeclRefOp)
        callee = SymbolTable.lookup_symbol(op, op.decl)
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"df.decl_ref: {op.decl} is not a func.func in the symbol table")
        ft = callee.function_type
        found_in, found_out = list(op.args.types), list(op.outputs.types)
        if list(ft.inputs) != found_in:
            raise VerifyException(
                f"df.decl_ref {op.decl} arguments have types {_types(found_in)}, "
                f"expected {_types(ft.inputs)}"
            )
        if list(ft.outputs) != found_out:
            raise VerifyException(
                f"df.decl_ref {op.decl} results have types {_types(found_out)}, "
                f"expected {_types(ft.outputs)}"
            )


class DeclRefEffects(MemoryEffect):
    """A decl_ref has the effects of the body of the declaration it references."""

    _in_progress: set[int] = set()
    """Declarations whose effects are being computed (a cycle means unknown effects)."""

    @classmethod
    def get_effects(cls, op: Operation):
        assert isinstance(op, DeclRefOp)
        callee = SymbolTable.lookup_symbol(op, op.decl)
        if not isinstance(callee, FuncOp) or id(callee) in cls._in_progress:
            return None  # unknown declaration, or recursion: unknown effects
        cls._in_progress.add(id(callee))
        try:
            effects: set[EffectInstance] = set()
            for block in callee.body.blocks:
                for inner in block.ops:  # nested ops count through their parents' effects
                    if inner.has_trait(IsTerminator):
                        continue
                    e = get_effects(inner)
                    if e is None:
                        return None
                    effects |= set(e)
            return frozenset(effects)
        finally:
            cls._in_progress.discard(id(callee))


@irdl_op_definition
class DeclRefOp(IRDLOperation):
    """The result(s) of another declaration (a func.func kernel) applied to `args`.

    `%m = df.decl_ref @mean(%x) : (!df.array<f32, [i]>) -> f32`
    """

    name = "df.decl_ref"

    decl = prop_def(SymbolRefAttr)
    """The referenced func.func."""
    args = var_operand_def()
    outputs = var_result_def()

    traits = traits_def(DeclRefSymbolUse(), DeclRefEffects())

    assembly_format = "$decl `(` $args `)` attr-dict `:` functional-type($args, $outputs)"

    def __init__(self, decl: str | SymbolRefAttr, args: Sequence[SSAValue], result_types: Sequence[Attribute]):
        ref = FlatSymbolRefAttr(decl) if isinstance(decl, str) else decl
        super().__init__(operands=[args], result_types=[result_types], properties={"decl": ref})


DF = Dialect(
    "df",
    [
        # sources and scalars
        ConstantOp,
        RangeOp,
        RandomOp,
        # elementwise
        MapOp,
        FilterOp,
        SelectOp,
        # reductions
        ReduceOp,
        FoldOp,
        ScanOp,
        # tuples and records
        MakeTupleOp,
        GetOp,
        MakeRecordsOp,
        FieldOp,
        # declarations
        DeclRefOp,
        # terminator
        YieldOp,
    ],
    [ArrayType, RecordType, ReduceKindAttr],
)
