"""A module parser of loopopt's own for the text its users and benchmarks write (issue #11).

xDSL's parser goes through ~580 k instructions per df op even after twelve rounds of fast
paths inside it (docs/compile_time.md): a lexer object per token, a parser method per
grammar rule, an op's declarative format interpreted directive by directive. This one reads
the common subset straight from the text with a few regular expressions and builds exactly
the IR `LocatedParser` builds, by calling the same constructors with the same arguments:

* `builtin.module { ... }` or top-level ops (the implicit module), `func.func @f(%a: T, ...)
  -> (R, ...) { ... }` with named arguments, single-block regions (`^bb0(%e: f32):`), `//`
  comments, SSA names bound as xDSL binds them (scoped per region, the same name hints);
* ops from one table (`_FORMATS` by declarative-format text, `_CUSTOM` by name): the arith and
  math ops of the plain formats (binary, unary, cast, select), `arith.constant`, `arith.cmpf` /
  `arith.cmpi`, `func.return`, `df.yield`, `df.map`, `df.filter` (with its `map` region),
  `df.reduce` / `df.scan` (plain triples, optional body), `df.fold`; the types a format leaves
  out are inferred, and the parsed ones checked, by xDSL's own constraint resolution;
* types and constants: their spelling (`f32`, `vector<8xf32>`, `!df.array<f32, [i]>`,
  `0.0 : f32`) read by xDSL itself once per context (attributes are immutable values);
* each op located at its first token (`diagnostics._span_location`'s `FileLineColLoc`,
  with `LocatedParser.line_offset`).

Exact by construction: anything else (generic `"op"(...)` syntax, attribute dictionaries,
`loc(...)`, aliases, an unknown op or type spelling, several blocks, an undefined or
redefined value, a type mismatch, any exception from a constructor) makes `parse_module`
return None before the caller sees any of it, and the whole text is parsed by xDSL's parser
(with loopopt's fast paths), which accepts it or gives its own message and location.
`LOOPOPT_NO_FASTPATHS=1` turns it off. test/python/tools/test_fast_parser.py compares both
parsers' generic printouts with locations over every test, example and benchmark input.
"""

from __future__ import annotations

import bisect
import re
import weakref
from collections.abc import Callable
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from loopopt import xdsl_fastpaths
from loopopt.parse_fastpaths import build_parsed, resolve_format_types
from loopopt.diagnostics import MAX_NESTING, _file_line_col, _int_attr


class _GiveUp(Exception):
    """The text needs xDSL's parser (raised anywhere, caught once in `parse_module`)."""


_SKIP = re.compile(r"(?://[^\n]*\n?|\s+)*", re.ASCII)
"""xDSL's whitespace and comments (MLIRLexer._whitespace_regex)."""
_SPACE_OR_SLASH = frozenset(" \t\n\r\f\v/")
_VALUE = re.compile(r"%([0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)")
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_SYMBOL = re.compile(r"@([A-Za-z_][A-Za-z0-9_$.]*)")
_BLOCK = re.compile(r"\^([0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)")
_TYPE_NAME = re.compile(r"!?[A-Za-z_][A-Za-z0-9_$.]*")
"""A type's name (`f32`, `vector`, `!df.array`); its `<...>` follows it at once. The spelling
is parsed by xDSL, the whole of it or the parser gives up."""
_FLAT_ANGLE = re.compile(r"<[^<>\"{}\n-]*>")
"""`<...>` without nested brackets (`!df.array<f32, [i]>`), else `_closing_angle` counts."""
_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?)(?![0-9A-Za-z_.$])")
"""A numeric literal (the attribute `literal : type` is then read by xDSL from its text)."""
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_$.\-]")


class _Reader:
    """A cursor over the text, the SSA scope and the location stamping of one parse."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int) -> None:
        self.ctx, self.text, self.pos, self.length = ctx, text, 0, len(text)
        self.values: dict[str, SSAValue] = {}
        self.types = _spelling_cache(ctx)
        self.name = StringAttr(name)
        self.line_offset = line_offset
        self.starts = _line_starts(text)
        self.depth = 0
        self.sub_parser: Any = None

    # ------------------------------------------------------------------ tokens

    def skip(self) -> None:
        pos = self.pos
        if pos < self.length and self.text[pos] in _SPACE_OR_SLASH:  # most calls: at a token already
            self.pos = _SKIP.match(self.text, pos).end()  # type: ignore[union-attr]

    def peek(self, literal: str) -> bool:
        self.skip()
        return self.text.startswith(literal, self.pos)

    def optional(self, literal: str) -> bool:
        if self.peek(literal):
            self.pos += len(literal)
            return True
        return False

    def expect(self, literal: str) -> None:
        if not self.optional(literal):
            raise _GiveUp

    def match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        self.skip()
        m = pattern.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
        return m

    def keyword(self, word: str) -> bool:
        """`word` as a whole bare identifier."""
        self.skip()
        m = _BARE.match(self.text, self.pos)
        if m is not None and m.group() == word:
            self.pos = m.end()
            return True
        return False

    def bare(self) -> str:
        m = self.match(_BARE)
        if m is None:
            raise _GiveUp
        return m.group()

    def value_name(self) -> str:
        m = self.match(_VALUE)
        if m is None or self.text.startswith("#", self.pos):  # `%x#1`: xDSL's
            raise _GiveUp
        return m.group(1)

    def comma_list(self, item: Callable[[], Any]) -> list[Any]:
        items = [item()]
        while self.optional(","):
            items.append(item())
        return items

    # ------------------------------------------------------------------ values and types

    def use(self, name: str, type: Attribute) -> SSAValue:
        """A defined value of `type` (an undefined one or another type: xDSL's error)."""
        value = self.values.get(name)
        if value is None or value.type != type:
            raise _GiveUp
        return value

    def define(self, name: str, value: SSAValue) -> None:
        if name in self.values:
            raise _GiveUp
        self.values[name] = value
        if SSAValue.is_valid_name(name):
            value.name_hint = name

    def type(self) -> Attribute:
        self.skip()
        text, start = self.text, self.pos
        m = _TYPE_NAME.match(text, start)
        if m is None:
            raise _GiveUp
        end = m.end()
        if text.startswith("<", end):
            flat = _FLAT_ANGLE.match(text, end)
            end = flat.end() if flat is not None else _closing_angle(text, end)
        if end < len(text) and _IDENT_CHAR.match(text, end):
            raise _GiveUp
        self.pos = end
        return self.read_by_xdsl(start, "parse_type")

    def read_by_xdsl(self, start: int, method: str) -> Attribute:
        """The text from `start` to the cursor read by xDSL's `method` (once per spelling)."""
        key = (method, self.text[start:self.pos])
        found = self.types.get(key)
        if found is None:
            found = self.types[key] = _xdsl_reads(self.ctx, key[1], method)
        return found

    def by_xdsl(self, read: Callable[[Any], Any]) -> Any:
        """`read(parser)` by an xDSL parser (a `LocatedParser`: linear-time strings) of this
        text from the cursor, which then moves to where it stopped: an attribute dictionary,
        read where it is as xDSL reads it in place."""
        from loopopt.diagnostics import LocatedParser

        if self.sub_parser is None:
            self.sub_parser = LocatedParser(self.ctx, self.text, self.name.data)
        parser = self.sub_parser
        self.skip()
        try:
            parser._resume_from(self.pos)
            found = read(parser)
        except Exception as e:  # noqa: BLE001 - xDSL's error, reported by its own parse
            raise _GiveUp from e
        self.pos = parser._current_token.span.start
        return found

    def type_list(self) -> list[Attribute]:
        return self.comma_list(self.type)

    def location(self, start: int) -> Any:
        line = bisect.bisect_right(self.starts, start)
        return _file_line_col(self.name, _int_attr(line + self.line_offset), _int_attr(start - self.starts[line - 1] + 1))

    # ------------------------------------------------------------------ structure

    def operation(self) -> Operation:
        """`%a, %b = dialect.op ...`: the op, its results bound, located at its first token."""
        self.skip()
        start = self.pos
        names = self.comma_list(self.value_name) if self.text.startswith("%", start) else []
        if names:
            self.expect("=")
        self.skip()
        m = _BARE.match(self.text, self.pos)
        if m is None:
            raise _GiveUp
        self.pos = m.end()
        spelling = m.group()
        build = _BUILDERS.get(spelling)
        op_type = self.ctx.get_optional_op(spelling, dialect_stack=["builtin"]) if build is not None else None
        if op_type is None:
            raise _GiveUp
        op = build(self, op_type)
        if names and len(names) != len(op.results):
            raise _GiveUp
        for name, result in zip(names, op.results):
            self.define(name, result)
        op.location = self.location(start)
        return op

    def region(self, arguments: list[tuple[str, Attribute]] | None = None) -> Region:
        """`{ (^label(%a: T):)? op* }` with one block (several: xDSL's); values defined
        inside are dropped at its end, as xDSL scopes them."""
        self.expect("{")
        self.depth += 1
        if self.depth > MAX_NESTING:  # LocatedParser's located error
            raise _GiveUp
        outer = self.values
        self.values = dict(outer)
        region = Region()
        if arguments is not None:
            block = Block(arg_types=[t for _, t in arguments])
            for (name, _), arg in zip(arguments, block.args):
                self.define(name, arg)
            self.block_body(block)
            region.add_block(block)
        elif self.peek("^"):
            region.add_block(self.labeled_block())
        elif not self.peek("}"):
            block = Block()
            self.block_body(block)
            region.add_block(block)
        self.expect("}")
        self.values = outer
        self.depth -= 1
        return region

    def labeled_block(self) -> Block:
        m = self.match(_BLOCK)
        if m is None:
            raise _GiveUp
        block = Block()
        if not Block.is_default_block_name(m.group(1)):
            block.name_hint = m.group(1)
        if self.optional("("):

            def argument() -> None:
                name = self.value_name()
                self.expect(":")
                self.define(name, block.insert_arg(self.type(), len(block.args), None))

            self.comma_list(argument)
            self.expect(")")
        self.expect(":")
        self.block_body(block)
        return block

    def block_body(self, block: Block) -> None:
        while True:
            self.skip()
            if self.pos >= len(self.text) or self.text[self.pos] in "}^":
                return
            block.add_op(self.operation())


def _closing_angle(text: str, start: int) -> int:
    """The end of the `<...>` opening at `start`: no strings, arrows or nested functions
    (those give up rather than guess a bracket)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "\"-{}\n":
            raise _GiveUp
        i += 1
    raise _GiveUp


def _xdsl_reads(ctx: Context, spelling: str, method: str) -> Attribute:
    """What xDSL's parser's `method` (`parse_type`, `parse_attribute`) reads `spelling` as, the
    whole of it, or give up."""
    from xdsl.parser import Parser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    try:
        parser = Parser(ctx, spelling)
        found = getattr(parser, method)()
        if parser._current_token.kind is not MLIRTokenKind.EOF:
            raise _GiveUp
    except Exception as e:  # noqa: BLE001 - any refusal is xDSL's to report
        raise _GiveUp from e
    return found


_TYPE_CACHES: dict[int, tuple[weakref.ref[Context], dict[tuple[str, str], Attribute]]] = {}
"""Types and constants by spelling, per live context (by id: a context is unhashable); one
without the df dialect refuses `!df.array`, and a refusal is not remembered."""


def _spelling_cache(ctx: Context) -> dict[tuple[str, str], Attribute]:
    entry = _TYPE_CACHES.get(id(ctx))
    if entry is None or entry[0]() is not ctx:
        for key in [k for k, (ref, _) in _TYPE_CACHES.items() if ref() is None]:
            del _TYPE_CACHES[key]
        entry = _TYPE_CACHES[id(ctx)] = (weakref.ref(ctx), {})
    return entry[1]


def _line_starts(text: str) -> list[int]:
    starts, i = [0], text.find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = text.find("\n", i + 1)
    return starts


# ---------------------------------------------------------------------- op spellings


def _no_attribute_dict(r: _Reader) -> None:
    """Where a format has `attr-dict`: a dictionary there is xDSL's to read."""
    if r.peek("{"):
        raise _GiveUp


def _format_op(op_type: Any, operands: list[SSAValue | tuple[str, Attribute | None]],
               result_type: Attribute | None, properties: dict[str, Attribute], r: _Reader) -> Operation:
    """What `FormatProgram.parse` builds for an op of single operands and one result or none:
    the missing types inferred, and the parsed ones checked, by xDSL's own constraint
    resolution (remembered per op class and parsed types), the operands resolved, `build`."""
    given = tuple(None if isinstance(o, SSAValue) else o[1] for o in operands)
    key = (op_type, given, result_type, tuple(properties.items()))
    types = _INFERRED.get(key)
    if types is None:
        types = _INFERRED[key] = _infer(op_type, given, result_type, properties)
    operand_types, result_types = types
    values = [o if isinstance(o, SSAValue) else r.use(o[0], t[0])
              for o, t in zip(operands, operand_types, strict=True)]
    return _build(op_type, [(v,) for v in values], result_types, properties)


def _build(op_type: Any, operands: list[Any], result_types: Any, properties: dict[str, Attribute]) -> Operation:
    """What `FormatProgram.parse` builds (parse_fastpaths.build_parsed), with no attribute dictionary."""
    return build_parsed(op_type, operands, result_types, dict(properties), {})


def _infer(op_type: Any, given: tuple[Attribute | None, ...], result_type: Attribute | None,
           properties: dict[str, Attribute]) -> tuple[tuple[tuple[Attribute, ...], ...], tuple[tuple[Attribute, ...], ...]]:
    op_def = op_type.get_irdl_definition()
    if len(op_def.operands) != len(given) or len(op_def.results) != (result_type is not None):
        raise _GiveUp
    results = [] if result_type is None else [None if result_type is _INFERRED_RESULT else (result_type,)]
    return _resolve(op_type, [None if t is None else (t,) for t in given], [1] * len(given), results, properties)


def _resolve(op_type: Any, operand_types: list[Any], lengths: list[int], result_types: list[Any],
             properties: dict[str, Attribute]) -> tuple[tuple[tuple[Attribute, ...], ...], tuple[tuple[Attribute, ...], ...]]:
    """xDSL's check of the parsed types (and properties) against the op's constraints and its
    inference of the others: `FormatProgram.parse`'s three calls, on a `ParsingState` holding
    what the text gave (`lengths` operands per definition)."""
    from xdsl.irdl.declarative_assembly_format import FormatProgram

    op_def = op_type.get_irdl_definition()
    program = _PROGRAMS.get(op_type)
    if program is None:
        program = _PROGRAMS[op_type] = FormatProgram.from_str(op_def.assembly_format, op_def)
    try:
        return resolve_format_types(program, op_type, op_def, [(None,) * n for n in lengths], operand_types,
                                    result_types, dict(properties), {})
    except Exception as e:  # noqa: BLE001 - a type the op refuses: xDSL's message
        raise _GiveUp from e


_INFERRED: dict[Any, Any] = {}
"""`_infer`'s answers by (op class, parsed operand types, result type, properties)."""
_PROGRAMS: dict[type, Any] = {}
_INFERRED_RESULT: Any = object()
"""`_format_op`'s result type when the format infers it (arith.constant)."""


def _operands_of_one_type(count: int) -> Callable[[_Reader, Any], Operation]:
    """The reader of `%a, %b : T` (count 2: arith.addf, arith.addi, math.powf, ...), `%a : T`
    (1: math.sqrt, arith.negf, ...), `%c, %a, %b : T` (3: arith.select): the types of the
    operands the result type leaves open are inferred by xDSL's resolution."""

    def read(r: _Reader, op_type: Any) -> Operation:
        names = [r.value_name()]
        while len(names) < count:
            r.expect(",")
            names.append(r.value_name())
        _no_attribute_dict(r)
        r.expect(":")
        return _format_op(op_type, [(n, None) for n in names], r.type(), {}, r)

    return read


def _cast(r: _Reader, op_type: Any) -> Operation:
    """`%a : T to U` (arith.extf, arith.sitofp, ...)."""
    a = r.value_name()
    _no_attribute_dict(r)
    r.expect(":")
    t = r.type()
    if not r.keyword("to"):
        raise _GiveUp
    return _format_op(op_type, [(a, t)], r.type(), {}, r)


def _constant(r: _Reader, op_type: Any) -> Operation:
    """`1.5 : f32`, `0 : i32`, `true`: the attribute read by xDSL from its text (once per spelling)."""
    _no_attribute_dict(r)
    r.skip()
    start = r.pos
    if not (r.keyword("true") or r.keyword("false")):
        m = _NUMBER.match(r.text, start)
        if m is None:
            raise _GiveUp
        r.pos = m.end()
        r.expect(":")
        r.type()
    return _format_op(op_type, [], _INFERRED_RESULT, {"value": r.read_by_xdsl(start, "parse_attribute")}, r)


def _compare(r: _Reader, op_type: Any) -> Operation:
    """`ogt, %a, %b : T` (arith.cmpf without fastmath, arith.cmpi): their `parse`'s call."""
    predicate = r.bare()
    r.expect(",")
    a = r.value_name()
    r.expect(",")
    b = r.value_name()
    r.expect(":")
    t = r.type()
    return op_type(r.use(a, t), r.use(b, t), predicate)


def _terminator(r: _Reader, op_type: Any) -> Operation:
    """`func.return %a, %b : T, U` / `df.yield` (operands optional)."""
    _no_attribute_dict(r)
    operands: list[SSAValue] = []
    types: list[Attribute] = []
    if r.peek("%"):
        names = r.comma_list(r.value_name)
        r.expect(":")
        types = r.type_list()
        if len(types) != len(names):
            raise _GiveUp
        operands = [r.use(n, t) for n, t in zip(names, types)]
    key = (op_type, tuple(types))
    if key not in _INFERRED:  # xDSL's check of the types against the op's constraints
        op_def = op_type.get_irdl_definition()
        if len(op_def.operands) != 1 or op_def.results:
            raise _GiveUp
        _INFERRED[key] = _resolve(op_type, [tuple(types)], [len(types)], [], {})
    return _build(op_type, [operands], [], {})


def _types_arrow_types(r: _Reader) -> tuple[list[Attribute], list[Attribute]]:
    """`: T... -> R...` of the df ops."""
    r.expect(":")
    in_types = r.type_list()
    r.expect("->")
    return in_types, r.type_list()


def _inputs_arrow_results(r: _Reader) -> tuple[list[SSAValue], list[Attribute]]:
    """`%a, %b : T_a, T_b -> R, ...` (df_syntax.parse_inputs_arrow_results)."""
    names = r.comma_list(r.value_name)
    types, result_types = _types_arrow_types(r)
    if len(types) != len(names):  # xDSL's error
        raise _GiveUp
    return [r.use(n, t) for n, t in zip(names, types)], result_types


def _no_trailing_attributes(r: _Reader) -> None:
    """df ops end with an optional `attributes {...}`: xDSL's to read."""
    if r.peek("attributes") and not _IDENT_CHAR.match(r.text, r.pos + len("attributes")):
        raise _GiveUp


def _df_map(r: _Reader, op_type: Any) -> Operation:
    operands, result_types = _inputs_arrow_results(r)
    body = r.region()
    _no_trailing_attributes(r)
    return op_type.build(operands=[operands], result_types=[result_types], regions=[body])


def _df_filter(r: _Reader, op_type: Any) -> Operation:
    operands, result_types = _inputs_arrow_results(r)
    body = r.region()
    map_region = r.region() if r.keyword("map") else Region()
    _no_trailing_attributes(r)
    return op_type.build(operands=[operands], result_types=[result_types], regions=[body, map_region])


def _triples(r: _Reader) -> list[tuple[Any, str, str]]:
    """`add(%x, %init), ...` (df_syntax.parse_triples with inputs); the map prologue form
    `(%x) add(%init)` is xDSL's."""
    from loopopt.dialects.df_types import ReduceKind, ReduceKindAttr

    if r.peek("("):
        raise _GiveUp

    def triple() -> tuple[Any, str, str]:
        kind = r.bare()
        if kind not in _KINDS:
            raise _GiveUp
        r.expect("(")
        x = r.value_name()
        r.expect(",")
        init = r.value_name()
        r.expect(")")
        return ReduceKindAttr(ReduceKind(kind)), x, init

    if not _KINDS:
        _KINDS.update(k.value for k in ReduceKind)
    return r.comma_list(triple)


_KINDS: set[str] = set()


def _no_prologue_regions(r: _Reader) -> None:
    """`where {...}` / `map {...}` after a reduction's types: xDSL's."""
    if r.keyword("where") or r.keyword("map"):
        raise _GiveUp


def _df_reduce(r: _Reader, op_type: Any) -> Operation:
    """The plain form `add(%x, %init), ... over [i] reassoc? : T... -> R... {custom body}?`."""
    from loopopt.dialects.df_types import element_type_of

    triples = _triples(r)
    if not r.keyword("over"):
        raise _GiveUp
    r.expect("[")
    over = r.comma_list(r.bare)
    r.expect("]")
    reassoc = r.keyword("reassoc")
    in_types, out_types = _types_arrow_types(r)
    if len(in_types) != len(triples) or len(out_types) != len(triples):
        raise _GiveUp
    inputs = [r.use(x, t) for (_, x, _), t in zip(triples, in_types)]
    inits = [r.use(i, element_type_of(t)) for (_, _, i), t in zip(triples, out_types)]
    _no_prologue_regions(r)
    body = r.region() if r.peek("{") else Region()
    _no_trailing_attributes(r)
    props: dict[str, Attribute] = {
        "kinds": ArrayAttr(k for k, _, _ in triples),
        "over_axes": ArrayAttr(StringAttr(a) for a in over),
    }
    if reassoc:
        props["reassoc"] = UnitAttr()
    return op_type.build(operands=[inputs, inits], result_types=[out_types], properties=props,
                         regions=[Region(), Region(), body])


def _df_scan(r: _Reader, op_type: Any) -> Operation:
    """The plain form `add(%x, %init) reassoc? : T -> R {custom body}?`."""
    from loopopt.dialects.df_types import element_type_of

    triples = _triples(r)
    if len(triples) != 1:
        raise _GiveUp
    reassoc = r.keyword("reassoc")
    r.expect(":")
    in_types = r.type_list()
    r.expect("->")
    out_type = r.type()
    if len(in_types) != 1:
        raise _GiveUp
    (kind, x, i), = triples
    inputs, init = [r.use(x, in_types[0])], r.use(i, element_type_of(out_type))
    _no_prologue_regions(r)
    body = r.region() if r.peek("{") else Region()
    _no_trailing_attributes(r)
    props: dict[str, Attribute] = {"kind": kind}
    if reassoc:
        props["reassoc"] = UnitAttr()
    return op_type.build(operands=[inputs, init], result_types=[out_type], properties=props,
                         regions=[Region(), body, Region()])


def _df_fold(r: _Reader, op_type: Any) -> Operation:
    """`(%x, ...) init(%c, ...) : T... -> R... { body }` (FoldOp.parse)."""
    r.expect("(")
    inputs = r.comma_list(r.value_name)
    r.expect(")")
    if not r.keyword("init"):
        raise _GiveUp
    r.expect("(")
    inits = r.comma_list(r.value_name)
    r.expect(")")
    in_types, out_types = _types_arrow_types(r)
    if len(in_types) != len(inputs) or len(out_types) != len(inits):
        raise _GiveUp
    body = r.region()
    operands = [[r.use(n, t) for n, t in zip(inputs, in_types)], [r.use(n, t) for n, t in zip(inits, out_types)]]
    _no_trailing_attributes(r)
    return op_type.build(operands=operands, result_types=[out_types], regions=[body])


def _func(r: _Reader, op_type: Any) -> Operation:
    """`func.func @name(%a: T {attrs}?, ...) -> (R, ...) attributes {...}? { body }` (FuncOp.parse's
    call); visibility, unnamed arguments, argument locations and result attributes are xDSL's."""
    m = r.match(_SYMBOL)
    if m is None:
        raise _GiveUp
    r.expect("(")
    arguments: list[tuple[str, Attribute]] = []
    attrs: list[dict[str, Attribute]] = []
    if not r.optional(")"):

        def argument() -> tuple[str, Attribute]:
            name = r.value_name()
            r.expect(":")
            found = name, r.type()
            attrs.append(r.by_xdsl(lambda p: p.parse_optional_dictionary_attr_dict()) if r.peek("{") else {})
            return found

        arguments = r.comma_list(argument)
        r.expect(")")
    results: list[Attribute] = []
    if r.optional("->"):
        if r.optional("("):
            if not r.optional(")"):
                results = r.type_list()
                r.expect(")")
        else:
            results = [r.type()]
    extra = None
    if r.peek("attributes") and not _IDENT_CHAR.match(r.text, r.pos + len("attributes")):
        extra = r.by_xdsl(lambda p: p.parse_optional_attr_dict_with_keyword(_FUNC_RESERVED))
    region = r.region(arguments or None) if r.peek("{") else Region()
    arg_attrs = ArrayAttr(DictionaryAttr(a) for a in attrs) if any(attrs) else None
    func = op_type(name=m.group(1), function_type=([t for _, t in arguments], results), region=region,
                   visibility=None, arg_attrs=arg_attrs, res_attrs=None)
    if extra is not None:
        func.attributes |= extra.data
    return func


_FUNC_RESERVED = ("sym_name", "function_type", "sym_visibility")


def _module(r: _Reader, op_type: Any) -> Operation:
    """`builtin.module @name? attributes {...}? { ... }` (ModuleOp.parse's call)."""
    m = r.match(_SYMBOL)
    attributes = None
    if r.peek("attributes") and not _IDENT_CHAR.match(r.text, r.pos + len("attributes")):
        attributes = r.by_xdsl(lambda p: p.parse_optional_attr_dict_with_keyword()).data
    region = r.region()
    if not region.blocks:
        region.add_block(Block())
    return op_type(region, attributes, None if m is None else StringAttr(m.group(1)))


_FORMATS: dict[str, Callable[[_Reader, Any], Operation]] = {
    "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)": _operands_of_one_type(2),
    "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)": _operands_of_one_type(2),
    "$lhs `,` $rhs attr-dict `:` type($result)": _operands_of_one_type(2),
    "$cond `,` $lhs `,` $rhs attr-dict `:` type($result)": _operands_of_one_type(3),
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)": _operands_of_one_type(1),
    "$operand attr-dict `:` type($result)": _operands_of_one_type(1),
    "$input attr-dict `:` type($input) `to` type($result)": _cast,
}
"""The declarative formats read here, by their text: an op with one of them is read by its
shape's reader (a keyword group such as `fastmath<fast>` present is xDSL's: the reader
expects `:` there); the types the text leaves out are inferred by xDSL's own resolution."""

_CUSTOM: dict[str, Callable[[_Reader, Any], Operation]] = {
    "arith.constant": _constant,
    "arith.cmpf": _compare,
    "arith.cmpi": _compare,
    "func.return": _terminator,
    "df.yield": _terminator,
    "df.map": _df_map,
    "df.filter": _df_filter,
    "df.reduce": _df_reduce,
    "df.scan": _df_scan,
    "df.fold": _df_fold,
    "func.func": _func,
    "builtin.module": _module,
    "module": _module,
}
"""The op spellings read here beyond `_FORMATS`, each by the reader that mirrors its `parse`."""


def _builders() -> dict[str, Callable[[_Reader, Any], Operation]]:
    """Every op of arith and math whose format is in `_FORMATS`, and `_CUSTOM`."""
    from xdsl.dialects import arith, math
    from xdsl.irdl import IRDLOperation

    table: dict[str, Callable[[_Reader, Any], Operation]] = {}
    for dialect in (arith.Arith, math.Math):
        for op in dialect.operations:
            if issubclass(op, IRDLOperation) and (reader := _FORMATS.get(op.get_irdl_definition().assembly_format or "")):
                table[op.name] = reader
    table.update(_CUSTOM)
    return table


_BUILDERS: dict[str, Callable[[_Reader, Any], Operation]] = {}

enabled = True
"""False: every text goes to xDSL's parser (the tests compare both)."""

last_give_up: list[Any] = []
"""Where and why the last `parse_module` gave up (text offset, exception): which construct a
text needs xDSL's parser for."""


def parse_module(ctx: Context, text: str, name: str, line_offset: int = 0,
                 allow_implicit_module: bool = True) -> ModuleOp | None:
    """The module `LocatedParser(ctx, text, name).parse_module(...)` builds, or None when
    the text is not in this parser's subset (or is wrong): then nothing was built that the
    caller sees, and it parses the text with xDSL."""
    if not enabled or xdsl_fastpaths.opted_out() or not isinstance(text, str):
        return None
    if not _BUILDERS:
        _BUILDERS.update(_builders())
    last_give_up.clear()
    r = _Reader(ctx, text, name, line_offset)
    try:
        ops: list[Operation] = []
        while True:
            r.skip()
            if r.pos >= len(text):
                break
            ops.append(r.operation())
    except Exception as e:  # noqa: BLE001 - _GiveUp, or a constructor refusing a value: xDSL says how
        last_give_up[:] = [r.pos, e]
        return None
    if len(ops) == 1 and isinstance(ops[0], ModuleOp):
        return ops[0]
    if not ops or not allow_implicit_module:
        return None
    return ModuleOp(ops)
