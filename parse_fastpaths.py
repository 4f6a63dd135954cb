"""Faster paths through xDSL 0.74's parser for what loopopt's IR spells most, same syntax.

Declarative assembly formats (`FormatProgram.parse`: `arith.addf %a, %b : f32`, `df.yield %s
: f32`, `func.return`, `math.sqrt`, `arith.constant`, ~60 % of a df module's ops) run every
directive through its object, build a `ParsingState` with a fresh `VerificationContext` per op,
and check each parsed type against the op's IRDL constraints to infer the types the text leaves
out. Here a format whose directives are all of the plain kinds below gets a *plan* (one step per
directive, made once per program) that reads the tokens with the same parser calls; the
constraint resolution (xDSL's own three functions) is remembered per (op class, parsed types,
operand counts, properties, attributes), which is all it reads (attributes are immutable
values). Then the operands are resolved and the op built exactly as xDSL does.

The plan only reads text it is sure of: an attribute dictionary (`{`), an optional group's
keyword anchor present (`fastmath`), or any error (a missing operand, a bad type) puts the
lexer back where the op's format began and runs xDSL's `FormatProgram.parse`, which accepts
or refuses the text with its own message and location. Nothing before that point has side
effects: operands are resolved only after every token was read.

Builtin integer, float and index types (`f32`, `i1`, `index`) are a single bare identifier,
and `parse_optional_type` read them through a function type probe, a regex and a fresh
attribute; the common names are answered from a table of the same attributes (equal values:
xDSL's own code shares such instances, e.g. `i32`), any other spelling takes xDSL's path.

`LOOPOPT_NO_FASTPATHS=1` keeps xDSL's code (`xdsl_fastpaths.opted_out`);
test/python/test_parse_fastpaths.py round-trips the test corpus through both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_FALLBACK = object()
"""A plan's answer when the text needs xDSL's own parse."""


class _State:
    """The fields of xDSL's `ParsingState` that directives set (no verification context)."""

    __slots__ = ("operands", "operand_types", "result_types", "regions", "successors", "attributes", "properties")

    def __init__(self, n_operands: int, n_results: int, n_regions: int, n_successors: int) -> None:
        self.operands: list[Any] = [None] * n_operands
        self.operand_types: list[Any] = [None] * n_operands
        self.result_types: list[Any] = [None] * n_results
        self.regions: list[Any] = [None] * n_regions
        self.successors: list[Any] = [None] * n_successors
        self.attributes: dict[str, Any] = {}
        self.properties: dict[str, Any] = {}


def _plan_steps(stmts: Any) -> list[Callable[[Any, Any], bool]] | None:
    """One callable per directive (False: fall back to xDSL), or None if a directive is of a
    kind the plan does not read."""
    from xdsl.irdl import declarative_assembly_format as f
    from xdsl.utils.mlir_lexer import KIND_BY_PUNCTUATION_SPELLING, MLIRTokenKind

    bare, percent, lbrace = MLIRTokenKind.BARE_IDENT, MLIRTokenKind.PERCENT_IDENT, MLIRTokenKind.L_BRACE
    steps: list[Callable[[Any, Any], bool]] = []
    for stmt in stmts:
        kind = type(stmt)
        if kind is f.WhitespaceDirective:
            continue
        if kind is f.PunctuationDirective:
            token_kind = KIND_BY_PUNCTUATION_SPELLING[stmt.punctuation]

            def punct(p: Any, s: Any, k: Any = token_kind) -> bool:
                return p._parse_optional_token(k) is not None

            steps.append(punct)
        elif kind is f.OperandVariable:

            def operand(p: Any, s: Any, i: int = stmt.index) -> bool:
                s.operands[i] = (p.parse_unresolved_operand(),)
                return True

            steps.append(operand)
        elif kind is f.AttrDictDirective and not stmt.with_keyword:

            def attr_dict(p: Any, s: Any) -> bool:
                return p._parser_state.current_token.kind is not lbrace  # a dictionary: xDSL reads it

            steps.append(attr_dict)
        elif kind is f.AttributeVariable:
            steps.append(lambda p, s, d=stmt: d.parse(p, s) or True)
        elif kind is f.TypeDirective and type(stmt.inner) in (f.OperandVariable, f.ResultVariable):
            steps.append(lambda p, s, d=stmt.inner: d.set_types(s, (p.parse_type(),)) or True)
        elif kind is f.TypeDirective and type(stmt.inner) is f.VariadicOperandVariable:

            def types(p: Any, s: Any, i: int = stmt.inner.index) -> bool:
                found = p.parse_optional_undelimited_comma_separated_list(p.parse_optional_type, p.parse_type)
                s.operand_types[i] = () if found is None else found
                return True

            steps.append(types)
        elif kind is f.OptionalGroupDirective and not stmt.else_elements and type(stmt.then_first) is f.KeywordDirective:
            then = stmt.then_elements

            def keyword_group(p: Any, s: Any, word: str = stmt.then_first.keyword, then: Any = then) -> bool:
                token = p._parser_state.current_token
                if token.kind is bare and token.text == word:
                    return False  # the group is present: xDSL reads it
                for element in then:
                    element.set_empty(s)
                return True

            steps.append(keyword_group)
        elif (kind is f.OptionalGroupDirective and not stmt.else_elements
              and type(stmt.then_first) is f.VariadicOperandVariable):
            inner = _plan_steps(stmt.then_elements)
            if inner is None:
                return None

            def operand_group(p: Any, s: Any, first: Any = stmt.then_first, then: Any = stmt.then_elements,
                              inner: Any = inner) -> bool:
                if p._parser_state.current_token.kind is not percent:
                    first.set_empty(s)
                    for element in then:
                        element.set_empty(s)
                    return True
                found = p.parse_optional_undelimited_comma_separated_list(
                    p.parse_optional_unresolved_operand, p.parse_unresolved_operand)
                s.operands[first.index] = found
                return all(step(p, s) for step in inner)

            steps.append(operand_group)
        else:
            return None
    return steps


def _single_defs(op_def: Any) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] | tuple[()]:
    """How many values (fewest, most) each operand and result definition takes, for an op whose
    `build` only flattens its arguments: no options (segment sizes), regions or successors.
    `()` for any other op."""
    from xdsl.irdl import OptionalDef, VariadicDef

    if op_def.options or op_def.regions or op_def.successors:
        return ()

    def count(d: Any) -> tuple[int, int]:
        return (0, 1) if isinstance(d, OptionalDef) else (0, 1 << 62) if isinstance(d, VariadicDef) else (1, 1)

    return tuple(count(d) for _, d in op_def.operands), tuple(count(d) for _, d in op_def.results)


def _counts_fit(groups: Any, counts: tuple[tuple[int, int], ...]) -> bool:
    """Each group has as many values as its definition takes (anything else goes through
    `build`, which refuses it as xDSL does)."""
    return all(lo <= len(g) <= hi for g, (lo, hi) in zip(groups, counts, strict=True))


_SHAPES: dict[type, Any] = {}
"""`_single_defs` per op class."""


def build_parsed(op_type: Any, operands: Any, result_types: Any, properties: dict[str, Any],
                 attributes: dict[str, Any], regions: Any = (), successors: Any = ()) -> Any:
    """What `FormatProgram.parse` builds from the parsed groups: `op_type.build(...)`, or for an
    op whose `build` only flattens its arguments the `create` it amounts to (irdl_op_init's
    flattened lists; the same IR)."""
    singles = _SHAPES.get(op_type)
    if singles is None:
        singles = _SHAPES[op_type] = _single_defs(op_type.get_irdl_definition())
    if singles and _counts_fit(operands, singles[0]) and _counts_fit(result_types, singles[1]):
        return op_type.create(
            operands=[v for group in operands for v in group],
            result_types=[t for group in result_types for t in group],
            properties={k: v for k, v in properties.items() if v is not None},
            attributes={k: v for k, v in attributes.items() if v is not None},
        )
    return op_type.build(result_types=result_types, operands=operands, attributes=attributes,
                         properties=properties, regions=list(regions), successors=list(successors))


def resolve_format_types(program: Any, op_type: Any, op_def: Any, operands: Any, operand_types: Any,
                         result_types: Any, properties: dict[str, Any],
                         attributes: dict[str, Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """xDSL's check of the parsed types (and properties) against the op's constraints and its
    inference of the others: `FormatProgram.parse`'s three calls on a `ParsingState` holding
    what the text gave. Raises xDSL's error for a type the op refuses."""
    from xdsl.irdl.declarative_assembly_format import ParsingState

    state = ParsingState(op_type)
    state.operands, state.operand_types, state.result_types = operands, operand_types, result_types
    state.attributes, state.properties = attributes, properties
    program.resolve_constraint_variables(state, op_def)
    return (tuple(tuple(t) for t in program.resolve_operand_types(state, op_def)),
            tuple(tuple(t) for t in program.resolve_result_types(state, op_def)))


def _install_format_plans() -> None:
    from xdsl.irdl.declarative_assembly_format import FormatProgram, ParsingState

    original = FormatProgram.parse
    plans: dict[int, tuple[Any, Any]] = {}  # id(program) -> (program, steps or None)
    resolved: dict[Any, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}

    def resolve(program: Any, op_type: Any, op_def: Any, s: _State) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """xDSL's constraint check and type inference for the parsed parts (remembered)."""
        try:
            key: Any = (op_type, tuple(len(o) for o in s.operands),
                        tuple(None if t is None else tuple(t) for t in s.operand_types),
                        tuple(None if t is None else tuple(t) for t in s.result_types),
                        tuple(s.properties.items()), tuple(s.attributes.items()))
            hit = resolved.get(key)
        except TypeError:  # an unhashable attribute: not remembered
            key, hit = None, None
        if hit is not None:
            return hit
        answer = resolve_format_types(program, op_type, op_def, s.operands, s.operand_types, s.result_types,
                                      s.properties, s.attributes)
        if key is not None:
            resolved[key] = answer
        return answer

    def parse(self: Any, parser: Any, op_type: Any) -> Any:
        entry = plans.get(id(self))
        if entry is None or entry[0] is not self:
            entry = plans[id(self)] = (self, _plan_steps(self.stmts))
        steps = entry[1]
        if steps is None:
            return original(self, parser, op_type)
        op_def = op_type.get_irdl_definition()
        state = parser._parser_state
        lexer = state.lexer
        saved = (lexer.pos, state.current_token)
        s = _State(len(op_def.operands), len(op_def.results), len(op_def.regions), len(op_def.successors))
        try:
            ok = all(step(parser, s) for step in steps)
        except Exception:  # noqa: BLE001 - any refusal: xDSL's parse says it, from the same token
            ok = False
        if not ok or None in s.operands:
            lexer.pos, state.current_token = saved
            return original(self, parser, op_type)
        operand_types, result_types = resolve(self, op_type, op_def, s)
        operands = tuple(parser.resolve_operands(uo, ot, parser.pos)
                         for uo, ot in zip(s.operands, operand_types, strict=True))
        return build_parsed(op_type, operands, result_types, s.properties, s.attributes, s.regions, s.successors)

    parse.__wrapped__ = original  # type: ignore[attr-defined]
    FormatProgram.parse = parse  # type: ignore[method-assign]


BUILTIN_TYPE_NAMES = ("index", "f16", "bf16", "f32", "f64", "f80", "f128",
                      *(f"{s}i{n}" for s in ("", "s", "u") for n in (1, 8, 16, 32, 64)))
"""Bare-identifier builtin types answered from a table (each is one whole token)."""


def _install_builtin_types() -> None:
    from xdsl.parser.attribute_parser import AttrParser
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    original = AttrParser.parse_optional_type
    bare = MLIRTokenKind.BARE_IDENT
    table: dict[str, Any] = {}

    def parse_optional_type(self: Any) -> Any:
        state = self._parser_state
        token = state.current_token
        if token.kind is bare:
            span = token.span
            content = span.input.content
            if type(content) is str:
                found = table.get(content[span.start:span.end])
                if found is not None:
                    state.current_token = state.lexer.lex()
                    return found
        return original(self)

    parse_optional_type.__wrapped__ = original  # type: ignore[attr-defined]
    AttrParser.parse_optional_type = parse_optional_type  # type: ignore[method-assign]

    from xdsl.context import Context
    from xdsl.parser import Parser

    for name in BUILTIN_TYPE_NAMES:  # what xDSL's own parse of each name gives
        table[name] = original(Parser(Context(), name))


def install() -> None:
    """Install both (called by `xdsl_fastpaths.install`, which checks the opt-out)."""
    _install_format_plans()
    _install_builtin_types()
