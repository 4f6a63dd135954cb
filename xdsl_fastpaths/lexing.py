"""The lexer's and the parser's token reading.

`MLIRLexer.lex` (every token parsed) builds a 15-entry dict of single-character punctuation per
token before looking the character up, and reaches the token through a chain of small methods
(`_consume_whitespace`, `_get_chars`, `Input.slice`, `_consume_regex`, `_form_token`). For an
`MLIRLexer` over text the same regular expressions run inline: whitespace, then a bare
identifier, one of those characters (the table built once) or a `%`/`^`/`!` identifier give the
token xDSL builds (same kind, same span, the position after it); anything else, the end of
the input and every error are lexed by xDSL's own `lex` from the same position. A subclass,
bytes input or a lexer given its own expressions takes xDSL's steps. The token's `Span` (a frozen
dataclass: its `__init__` sets each field through `object.__setattr__`) gets the same fields in
the same order written into its dict, while `Span.__init__` is xDSL's.

The parser reads and consumes tokens through `_current_token` and `lexer` properties, and
compares a token's text through three more (`Token.text`, `Span.text`, `Span.content`, which
slices the input): `_consume_token`, `_parse_optional_token`, `parse_optional_characters`,
`parse_optional_punctuation` and `parse_punctuation` read the parser state's fields directly and
compare the text in place (a string input; bytes are decoded as xDSL does), with xDSL's asserts
and error messages.
"""

from __future__ import annotations

from typing import Any


def install_lexer() -> None:
    from xdsl.utils.lexer import Span, Token
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    original = MLIRLexer.lex
    eof = MLIRTokenKind.EOF
    punctuation = {  # xDSL 0.74's `single_char_punctuation` in MLIRLexer.lex
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "/": MLIRTokenKind.SLASH,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
    }

    prefixed = {"%": MLIRTokenKind.PERCENT_IDENT, "^": MLIRTokenKind.CARET_IDENT, "!": MLIRTokenKind.EXCLAMATION_IDENT}
    whitespace = MLIRLexer._whitespace_regex.match
    bare_suffix = MLIRLexer.bare_identifier_suffix_regex.match
    suffix_id = MLIRLexer._suffix_id.match
    bare = MLIRTokenKind.BARE_IDENT
    own = frozenset({"_whitespace_regex", "bare_identifier_suffix_regex", "_suffix_id"})
    """The class's expressions used inline: a lexer given its own takes xDSL's steps."""

    new = object.__new__
    plain_span = Span.__init__ is _XDSL_SPAN_INIT  # else (replaced by someone else) through it

    def span(start: int, end: int, inp: Any) -> Any:
        """`Span(start, end, inp)`: the fields its frozen dataclass `__init__` sets (through
        `object.__setattr__`, one call each), in the same order, into the new span's dict."""
        if not plain_span:
            return Span(start, end, inp)
        s = new(Span)
        d = s.__dict__
        d["start"] = start
        d["end"] = end
        d["input"] = inp
        d["line_offset"] = 0
        return s

    def lex(self: Any) -> Any:
        if type(self) is not MLIRLexer or type(content := self.input.content) is not str or not own.isdisjoint(self.__dict__):
            return lex_steps(self)
        inp = self.input
        pos = whitespace(content, self.pos).end()  # the pattern matches empty text too
        if pos >= inp.len:
            self.pos = pos
            return original(self)  # end of input: xDSL's token
        c = content[pos]
        if c.isalpha() or c == "_":
            end = bare_suffix(content, pos + 1).end()  # `[...]*`: always matches
            self.pos = end
            return Token(bare, span(pos, end, inp))
        kind = punctuation.get(c)
        if kind is not None:
            self.pos = pos + 1
            return Token(kind, span(pos, pos + 1, inp))
        kind = prefixed.get(c)
        if kind is not None and (m := suffix_id(content, pos + 1)) is not None:
            self.pos = m.end()
            return Token(kind, span(pos, self.pos, inp))
        self.pos = pos  # anything else (and every error) by xDSL's code, from the same position
        return original(self)

    def lex_steps(self: Any) -> Any:
        """A subclass or bytes input: xDSL's steps (its methods, which a subclass may override)."""
        self._consume_whitespace()
        start_pos = self.pos
        current_char = self._get_chars()
        if current_char is None:
            return self._form_token(eof, start_pos)
        if current_char.isalpha() or current_char == "_":
            return self._lex_bare_identifier(start_pos)
        kind = punctuation.get(current_char)
        if kind is not None:
            return self._form_token(kind, start_pos)
        self.pos = start_pos  # the rest from the same position, by xDSL's code
        return original(self)

    lex.__wrapped__ = original  # type: ignore[attr-defined]
    MLIRLexer.lex = lex  # type: ignore[method-assign]


def _xdsl_span_init() -> Any:
    from xdsl.utils.lexer import Span

    return Span.__init__


_XDSL_SPAN_INIT = _xdsl_span_init()
"""xDSL's dataclass `Span.__init__` (the lexer builds spans without it only while it is in place)."""


def install_parser_tokens() -> None:
    from xdsl.parser.base_parser import BaseParser
    from xdsl.parser.generic_parser import GenericParser
    from xdsl.utils.mlir_lexer import KIND_BY_PUNCTUATION_SPELLING

    if (GenericParser._consume_token, GenericParser._parse_optional_token, GenericParser.parse_optional_characters,
            BaseParser.parse_optional_punctuation, BaseParser.parse_punctuation) != _XDSL_PARSER_TOKENS:  # fmt: skip
        return  # replaced by someone else: left alone

    def _consume_token(self: Any, expected_kind: Any = None) -> Any:
        state = self._parser_state
        consumed_token = state.current_token
        assert expected_kind is None or consumed_token.kind == expected_kind, (
            f"Unexpected token {consumed_token}, expected {expected_kind}"
        )
        state.current_token = state.lexer.lex()
        return consumed_token

    def _parse_optional_token(self: Any, expected_kind: Any) -> Any:
        state = self._parser_state
        consumed_token = state.current_token
        if consumed_token.kind == expected_kind:
            state.current_token = state.lexer.lex()
            return consumed_token
        return None

    def parse_optional_characters(self: Any, text: str) -> str | None:
        state = self._parser_state
        span = state.current_token.span
        content = span.input.content
        if type(content) is str:
            same = span.end - span.start == len(text) and content.startswith(text, span.start)
        else:
            same = span.text == text  # bytes input: xDSL's decoding
        if same:
            state.current_token = state.lexer.lex()
            return text
        return None

    def parse_optional_punctuation(self: Any, punctuation: Any) -> Any:
        assert punctuation in KIND_BY_PUNCTUATION_SPELLING, (
            "'parse_optional_punctuation' must be called with a valid punctuation"
        )
        if _parse_optional_token(self, KIND_BY_PUNCTUATION_SPELLING[punctuation]) is not None:
            return punctuation
        return None

    def parse_punctuation(self: Any, punctuation: Any, context_msg: str = "") -> Any:
        assert punctuation in KIND_BY_PUNCTUATION_SPELLING, "'parse_punctuation' must be called with a valid punctuation"
        if _parse_optional_token(self, KIND_BY_PUNCTUATION_SPELLING[punctuation]) is None:
            self.raise_error(f"Expected '{punctuation}'" + context_msg, self._current_token.span)
        return punctuation

    GenericParser._consume_token = _consume_token  # type: ignore[method-assign]
    GenericParser._parse_optional_token = _parse_optional_token  # type: ignore[method-assign]
    GenericParser.parse_optional_characters = parse_optional_characters  # type: ignore[method-assign]
    BaseParser.parse_optional_punctuation = parse_optional_punctuation  # type: ignore[method-assign]
    BaseParser.parse_punctuation = parse_punctuation  # type: ignore[method-assign]


def _xdsl_parser_tokens() -> tuple[Any, ...]:
    from xdsl.parser.base_parser import BaseParser
    from xdsl.parser.generic_parser import GenericParser

    return (GenericParser._consume_token, GenericParser._parse_optional_token, GenericParser.parse_optional_characters,
            BaseParser.parse_optional_punctuation, BaseParser.parse_punctuation)  # fmt: skip


_XDSL_PARSER_TOKENS = _xdsl_parser_tokens()
"""xDSL's own token readers of the parser (the fallback; tests compare against them)."""
