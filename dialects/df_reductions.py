"""df's reductions: `df.reduce` (associative, several triples at once, optionally fused with the
map and filter feeding it), `df.fold` (sequential, in element order) and `df.scan` (inclusive
prefix); plus what a built-in kind means in arith terms (`kind_combiner`) and the type a
reduction over some axes has (`reduced_type`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect, RecursivelySpeculatable
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_body import print_body, print_region_kw, verify_body
from loopopt.dialects.df_syntax import (
    parse_attrs,
    parse_axes,
    parse_prologue_regions,
    parse_reduction_head,
    parse_type_list,
    print_attrs,
    print_triples,
    print_types,
    resolve_reduction,
)
from loopopt.dialects.df_types import (
    ArrayType,
    ReduceKind,
    ReduceKindAttr,
    axes_of,
    element_type_of,
    format_axes,
    is_element_type,
    kind_accepts,
)
from loopopt.dialects.df_verify import broadcast_axes, common_axes, types_text, verify_kind


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
        domain: Sequence[str] | None = None,
    ):
        """`domain`: the axes iterated when the map prologue's inputs are broadcast (the results
        are on its axes other than `over_axes`); by default the first input's."""
        t0 = inputs[0].type
        assert isinstance(t0, ArrayType)
        if domain is not None:
            t0 = t0.with_axes(list(domain))
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
    def broadcasts(self) -> bool:
        """A map prologue reads inputs on different axes (broadcast by axis name)."""
        return self.has_map and len({getattr(t, "axis_names", None) for t in self.inputs.types}) > 1

    @property
    def domain_axes(self) -> tuple[str, ...]:
        """The axes the reduction iterates: the inputs' (the first's when they share them), or
        with broadcasting inputs the result's axes followed by the reduced ones (a matrix
        product's `[i, k]` + `[j]`), read by axis name."""
        if not self.broadcasts:
            return axes_of(self.inputs.types[0])
        return (*axes_of(self.outputs.types[0]), *self.over_axis_names)

    @property
    def value_types(self) -> list[Attribute]:
        """The type of each triple's reduced values (= its init's and accumulator's type)."""
        return list(self.inits.types)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        prologue, triples = parse_reduction_head(parser)
        parser.parse_keyword("over")
        over = parse_axes(parser)
        reassoc = parser.parse_optional_keyword("reassoc") is not None
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = parse_type_list(parser)
        parser.parse_punctuation("->")
        out_types = parse_type_list(parser)
        value_types = [element_type_of(t) for t in out_types]
        inputs, inits = resolve_reduction(parser, prologue, triples, in_types, value_types, pos)
        where, map_region = parse_prologue_regions(parser, prologue, "df.reduce")
        body = parser.parse_optional_region() or Region()
        props: dict[str, Attribute] = {
            "kinds": ArrayAttr(t[0] for t in triples),
            "over_axes": ArrayAttr(StringAttr(a) for a in over),
        }
        if reassoc:
            props["reassoc"] = UnitAttr()
        op = cls.build(operands=[inputs, inits], result_types=[out_types], properties=props,
                       regions=[where, map_region, body])
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        if self.has_map:
            printer.print_string("(")
            printer.print_list(self.inputs, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        print_triples(printer, self.kinds, None if self.has_map else self.inputs, self.inits)
        printer.print_string(" over " + format_axes(self.over_axis_names))
        if self.reassoc is not None:
            printer.print_string(" reassoc")
        printer.print_string(" : ")
        print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        print_types(printer, self.outputs.types)
        print_region_kw(printer, "where", self.where)
        print_region_kw(printer, "map", self.map)
        if self.body.blocks:
            print_body(printer, self.body)
        print_attrs(printer, self)

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
        # a map prologue may read inputs broadcast along the domain (a matvec's vector, a matmul's rows and columns)
        axes = broadcast_axes("df.reduce", self.inputs, self.domain_axes) if self.broadcasts else common_axes("df.reduce", self.inputs)
        over = self.over_axis_names
        if not over or len(set(over)) != len(over) or not set(over) <= set(axes):
            raise VerifyException(
                f"df.reduce over_axes {format_axes(over)} must be distinct axes of the input "
                f"axes {format_axes(axes)}"
            )
        elements = [element_type_of(t) for t in self.inputs.types]
        values = self.value_types
        if self.has_map:
            verify_body("df.reduce map", self.map, elements, values)
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
            verify_body("df.reduce where", self.where, elements, [IntegerAttr(0, 1).type])
        t0 = self.inputs.types[0]
        assert isinstance(t0, ArrayType)
        t0 = t0.with_axes(list(axes))
        custom_accs: list[Attribute] = []
        for i, (kind, value, out) in enumerate(zip(self.kind_values, values, self.outputs, strict=True)):
            expected = reduced_type(t0.with_element(value), over)
            if out.type != expected:
                raise VerifyException(
                    f"df.reduce result {i} has type {out.type}, expected {expected}"
                )
            verify_kind("df.reduce", i, kind, value)
            if kind == ReduceKind.CUSTOM:
                custom_accs.append(value)
        if custom_accs:
            if not self.body.blocks:
                raise VerifyException("df.reduce with a custom kind needs a body, found none")
            verify_body("df.reduce", self.body, custom_accs * 2, custom_accs)
        elif self.body.blocks:
            raise VerifyException("df.reduce has a body but no custom kind")


def kind_combiner(kind: ReduceKind, t: Attribute) -> type[Operation] | None:
    """The arith op computing `acc ⊕ v` for built-in `kind` on scalar type `t` (what
    df.reduce / df.scan mean, in arith terms: the shared `ReductionKind.arith_combiner`);
    None for custom or a kind df does not define on `t` (`kind_accepts`: no i1 add/mul,
    no float and/or, no records)."""
    if not kind_accepts(kind, t):
        return None
    return ReduceKind(kind).arith_combiner(t)


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
        in_types = parse_type_list(parser)
        parser.parse_punctuation("->")
        out_types = parse_type_list(parser)
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
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(") init(")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(") : ")
        print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        print_types(printer, self.outputs.types)
        print_body(printer, self.body)
        print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.fold needs at least one input array, found none")
        common_axes("df.fold", self.inputs)
        if not self.inits:
            raise VerifyException("df.fold needs at least one accumulator, found none")
        inits, outs = list(self.inits.types), list(self.outputs.types)
        if inits != outs:
            raise VerifyException(
                f"df.fold result types {types_text(outs)} must equal its init types {types_text(inits)}"
            )
        for t in outs:
            if not is_element_type(t):
                raise VerifyException(f"df.fold accumulators must be scalars or records, found {t}")
        verify_body("df.fold", self.body, outs + [element_type_of(t) for t in self.inputs.types], outs)


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
    With a `where` predicate (df-fuse's filter → scan) the scan runs over the kept elements
    only, in order, and its result lives on a new axis, like a filter's: out[j] = init ⊕
    v[k_0] ⊕ ... ⊕ v[k_j] for the kept positions k_0 < k_1 < ...; the prologue runs on kept
    elements only.
    ```
    %r = df.scan add(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [k]> where {
    ^bb0(%e: i32):
      %c = arith.cmpi sgt, %e, %zero : i32
      df.yield %c : i1
    }
    ```
    """

    name = "df.scan"

    inputs = var_operand_def(ArrayType)
    """The scanned array, or with a map prologue the arrays it reads (one domain)."""
    init = operand_def()
    """Initial value, of the scanned value's type."""
    output = result_def(ArrayType)
    """The prefixes, of the init's type: on the inputs' axis, or with `where` on a new axis."""
    kind = prop_def(ReduceKindAttr)
    """add | mul | min | max | and | or | custom."""
    reassoc = opt_prop_def(UnitAttr)
    """Present when floats may be reassociated (a parallel prefix is allowed)."""
    map = region_def()
    """Optional prologue (x_1..x_n) -> v, lane-wise; empty: the single input's elements."""
    body = region_def()
    """For kind custom: (acc, v) -> acc; else empty."""
    where = region_def()
    """Optional predicate (x_1..x_n) -> i1, lane-wise: only elements where it holds are
    scanned, and the result is on a new axis (filter → scan); empty: every element."""

    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def __init__(self, kind: ReduceKind | str, input: SSAValue | Sequence[SSAValue], init: SSAValue,
                 body: Region | None = None, reassoc: bool = False, *,
                 map_region: Region | None = None, where: Region | None = None, kept_axis: str | None = None):
        inputs = [input] if isinstance(input, SSAValue) else list(input)
        t0 = inputs[0].type
        assert isinstance(t0, ArrayType)
        out = t0.with_element(init.type)
        if kept_axis is not None:
            out = out.with_axes([kept_axis])
        props: dict[str, Attribute] = {"kind": ReduceKindAttr(ReduceKind(kind))}
        if reassoc:
            props["reassoc"] = UnitAttr()
        super().__init__(operands=[inputs, init], result_types=[out],
                         properties=props,
                         regions=[r if r is not None else Region() for r in (map_region, body, where)])

    @property
    def has_map(self) -> bool:
        return bool(self.map.blocks)

    @property
    def has_where(self) -> bool:
        return bool(self.where.blocks)

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        prologue, triples = parse_reduction_head(parser)
        if len(triples) != 1:
            parser.raise_error(f"df.scan takes one (kind, value, init) triple, found {len(triples)}")
        reassoc = parser.parse_optional_keyword("reassoc") is not None
        parser.parse_punctuation(":")
        pos = parser.pos
        in_types = parse_type_list(parser)
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        (inputs, (init,)) = resolve_reduction(
            parser, prologue, triples, in_types, [element_type_of(out_type)], pos)
        where, map_region = parse_prologue_regions(parser, prologue, "df.scan")
        body = parser.parse_optional_region() or Region()
        props: dict[str, Attribute] = {"kind": triples[0][0]}
        if reassoc:
            props["reassoc"] = UnitAttr()
        op = cls.build(operands=[inputs, init], result_types=[out_type], properties=props,
                       regions=[map_region, body, where])
        parse_attrs(parser, op)
        return op

    def print(self, printer: Printer) -> None:
        if self.has_map:
            printer.print_string("(")
            printer.print_list(self.inputs, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        print_triples(printer, [self.kind], None if self.has_map else self.inputs, [self.init])
        if self.reassoc is not None:
            printer.print_string(" reassoc")
        printer.print_string(" : ")
        print_types(printer, self.inputs.types)
        printer.print_string(" -> ")
        printer.print_attribute(self.output.type)
        print_region_kw(printer, "where", self.where)
        print_region_kw(printer, "map", self.map)
        if self.body.blocks:
            print_body(printer, self.body)
        print_attrs(printer, self)

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException("df.scan needs at least one input array, found none")
        axes = common_axes("df.scan", self.inputs)
        if len(axes) != 1:
            raise VerifyException(f"df.scan input must be rank 1, found axes {format_axes(axes)}")
        t = self.inputs.types[0]
        assert isinstance(t, ArrayType)
        value = self.init.type
        elements = [element_type_of(u) for u in self.inputs.types]
        if self.has_map:
            verify_body("df.scan map", self.map, elements, [value])
        elif len(self.inputs) != 1:
            raise VerifyException(
                f"df.scan without a map region scans one input, found {len(self.inputs)}"
            )
        elif value != t.element_type:
            raise VerifyException(
                f"df.scan init has type {value}, expected the element type {t.element_type}"
            )
        expected = t.with_element(value)
        if self.has_where:
            verify_body("df.scan where", self.where, elements, [IntegerAttr(0, 1).type])
            out = self.output.type
            if not isinstance(out, ArrayType) or out.rank != 1 or out.axis_names == t.axis_names:
                raise VerifyException(
                    f"df.scan with where scans the kept elements onto a new axis: expected a rank-1 "
                    f"result on an axis other than {format_axes(t.axis_names)}, found {out}")
            expected = out.with_element(value)
        if self.output.type != expected:
            raise VerifyException(f"df.scan result has type {self.output.type}, expected {expected}")
        kind = self.kind.data
        verify_kind("df.scan", 0, kind, value)
        if kind == ReduceKind.CUSTOM:
            if not self.body.blocks:
                raise VerifyException("df.scan with kind custom needs a body, found none")
            verify_body("df.scan", self.body, [value] * 2, [value])
        elif self.body.blocks:
            raise VerifyException(f"df.scan has a body but kind {kind.value}, expected custom")
