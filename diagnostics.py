"""Source locations and user-facing diagnostics (`file:line:col: error|remark: ...`).

xDSL's parser only keeps a location when the source spells `loc(...)`. loopopt's tools
parse with `LocatedParser`, which stamps every operation with the `FileLineColLoc` of
its first token, so verifier errors, pass failures and pass remarks can point at the
line a user wrote.
"""

from __future__ import annotations

import bisect
import os
import re
import sys
import traceback
from collections.abc import Iterable
from typing import IO, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Attribute, BlockArgument, ErasedSSAValue, Operation, OpResult, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import BaseAttr
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Input, Span

from loopopt import xdsl_fastpaths

xdsl_fastpaths.install()  # memoized trait lookups and op signature checks (docs/compile_time.md)

AttributeInvT = TypeVar("AttributeInvT", bound=Attribute)

SAFE_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
"""xDSL 0.74's string-literal regex, `"(?:[^"\\\n\v\f]+|\\...)*"`, nests `+` in `*`: on an
unterminated string it backtracks exponentially (28 letters take ~10 s, doubling per letter).
This one matches the same strings with one character per repetition: linear time."""

MAX_NESTING = 64
"""Regions nested deeper than this are refused with a located error (Python's recursion
limit is reached near 90 levels in xDSL's recursive parser; the verifier, printer and
passes recurse too)."""


class LocatedParser(Parser):
    """A Parser that records each operation's source position as its location.

    It is also the guarded entry for untrusted text: non-UTF-8 bytes, undefined values,
    nesting too deep and unterminated strings give a located `ParseError` (in linear time);
    a value an attribute or op refuses (an overflowing literal) a located `LoopoptDiagnostic`.
    """

    line_offset: int = 0

    def __init__(self, ctx: Context, input: str | bytes, name: str = "<unknown>") -> None:
        if isinstance(input, bytes):
            input = decode_source(input, name)
        super().__init__(ctx, input, name)
        self.lexer._unescaped_characters_regex = SAFE_STRING_LITERAL  # type: ignore[attr-defined]
        self._depth = 0
        self._first_use: dict[str, Span] = {}

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """loopopt's own parser's module (`fast_parser`: the common subset, same IR), or when
        it gives up (anything else, any error) xDSL's, from the start of the text."""
        from loopopt import fast_parser

        source = self.lexer.input
        if (module := fast_parser.parse_module(
                self.ctx, source.content, source.name, self.line_offset, allow_implicit_module)) is not None:
            return module
        try:
            return super().parse_module(allow_implicit_module)
        except RecursionError:
            raise ParseError(self._current_token.span, "the input is nested too deeply") from None
        except ParseError as e:
            undefined = [n for n in self.forward_ssa_references if n in self._first_use]
            if not e.msg.startswith("values used but not defined") or not undefined:
                raise
            first = min(undefined, key=lambda n: self._first_use[n].start)
            raise ParseError(self._first_use[first], f"use of undefined value %{first}") from None

    def resolve_operand(self, operand: UnresolvedOperand, type: AttributeInvT) -> SSAValue[AttributeInvT]:
        if operand.operand_name not in self.ssa_values:
            self._first_use.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_optional_region(self, arguments: Iterable[Parser.Argument] | None = None) -> Region | None:
        start = self._current_token.span
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise ParseError(start, f"regions are nested more than {MAX_NESTING} deep")
            return super().parse_optional_region(arguments)
        finally:
            self._depth -= 1

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except (ParseError, RecursionError, LoopoptDiagnostic):
            raise
        except Exception as e:  # an attribute, type or op constructor refusing a parsed value
            # A DiagnosticException still (`--verify-diagnostics` prints these), located.
            message = _plain_message(e)
            if "Forward declared values do not have an owner" in message:  # xDSL's words for it
                message = f"'{start.text}' needs an operand that is not defined before it"
            loc = start.get_location()
            raise LoopoptDiagnostic(message, where=f"{loc.file}:{loc.line + self.line_offset}:{loc.col}") from None
        if not isinstance(op.location, FileLineColLoc):
            where = _span_location(self, start)
            if self.line_offset:
                where = _file_line_col(where.filename, _int_attr(where.line.data + self.line_offset), where.column)
            op.location = where
        return op


def _line_starts(content: str | bytes, newline: str | bytes) -> list[int]:
    starts, i = [0], content.find(newline)  # type: ignore[arg-type]
    while i >= 0:
        starts.append(i + 1)
        i = content.find(newline, i + 1)  # type: ignore[arg-type]
    return starts


_INT_ATTRS: dict[int, IntAttr] = {}
"""One `IntAttr` per line or column number below 65,536 stamped (attributes are immutable values)."""


def _int_attr(n: int) -> IntAttr:
    found = _INT_ATTRS.get(n)
    if found is None:
        found = IntAttr(n)
        if n < 1 << 16:  # bounded: the lines of a very long file are built each time
            _INT_ATTRS[n] = found
    return found


def _span_location(parser: Parser, span: Span) -> FileLineColLoc:
    """`span.get_location()` as a FileLineColLoc, in O(log lines): the line starts of the
    parser's input are computed once (get_location counts the newlines from the start of
    the text at every call, quadratic over a module), with its file name's `StringAttr`;
    line and column numbers are shared `IntAttr`s."""
    cached = parser.__dict__.get("_loopopt_line_starts")
    if cached is None or cached[0] is not span.input:
        name = StringAttr(span.input.name)
        FileLineColLoc(name, _int_attr(1), _int_attr(1))  # the class's first construction: xDSL's, as every other
        cached = (span.input, _line_starts(span.input.content, span.input.newline), name)
        parser.__dict__["_loopopt_line_starts"] = cached
    starts = cached[1]
    line = bisect.bisect_right(starts, span.start)
    return _file_line_col(cached[2], _int_attr(line + span.line_offset), _int_attr(span.start - starts[line - 1] + 1))


def _xdsl_builds_file_line_col() -> bool:
    """Whether `FileLineColLoc(...)` is xDSL 0.74's: the dataclass fields set in order and the
    parameters checked against `StringAttr`, `IntAttr`, `IntAttr` (all it verifies)."""
    cls = FileLineColLoc
    return (cls.__init__ is ParametrizedAttribute.__init__ and cls.verify is Attribute.verify
            and cls._verify is ParametrizedAttribute._verify
            and [(f, d.constr) for f, d in cls.get_irdl_definition().parameters]
            == [("filename", BaseAttr(StringAttr)), ("line", BaseAttr(IntAttr)), ("column", BaseAttr(IntAttr))]
            and all(d.converter is None for _, d in cls.get_irdl_definition().parameters))


_DIRECT_LOCATIONS = _xdsl_builds_file_line_col() and not xdsl_fastpaths.opted_out()
"""Off with the fast paths (LOOPOPT_NO_FASTPATHS): then every location is xDSL's constructor's."""


def _file_line_col(filename: StringAttr, line: IntAttr, column: IntAttr) -> FileLineColLoc:
    """`FileLineColLoc(filename, line, column)` for parameters of the classes it checks: its
    three fields set in its dict without the per-instance verification (each op's location is
    a new (line, column) pair, so the attribute memo never hit and kept ~one entry per op)."""
    if not _DIRECT_LOCATIONS or type(filename) is not StringAttr or type(line) is not IntAttr or type(column) is not IntAttr:
        return FileLineColLoc(filename, line, column)
    loc = _new_object(FileLineColLoc)
    loc.__dict__.update(filename=filename, line=line, column=column)  # in the order __init__ sets them
    return loc


_new_object = object.__new__


def locate_xdsl_parser() -> None:
    """Make xDSL's own `Parser` (plain `xdsl-opt` with loopopt's `xdsl.universe` plugin)
    stamp each operation it parses with the `FileLineColLoc` of its first token, as
    mlir-opt does, so remarks and errors point at the op's line there too, not `<unknown>`.

    Only an op left at `UnknownLoc` (no `loc(...)` in the text) is stamped; printing is
    unchanged (xDSL prints locations only with `--print-debuginfo`). `LocatedParser` keeps
    its own stamping (with its line offset for `--split-input-file`); under plain
    xdsl-opt a split file's lines count from its chunk's first line. Idempotent.
    """
    current = Parser.parse_operation
    if getattr(current, "_loopopt_locates", False):
        return

    def parse_operation(self: Parser) -> Operation:
        if isinstance(self, LocatedParser):
            return current(self)
        start = self._current_token.span
        op = current(self)
        if isinstance(op.location, UnknownLoc):
            op.location = _span_location(self, start)
        return op

    parse_operation._loopopt_locates = True  # type: ignore[attr-defined]
    parse_operation.__doc__ = current.__doc__
    Parser.parse_operation = parse_operation  # type: ignore[method-assign]


def decode_source(data: bytes, name: str) -> str:
    """`data` as UTF-8, or a ParseError at the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        text = data.decode("utf-8", errors="replace")
        offset = len(data[: e.start].decode("utf-8", errors="replace"))
        bad = data[e.start : e.end].hex(" ")
        span = Span(offset, offset + 1, Input(text, name))
        raise ParseError(span, f"the input is not UTF-8 text (byte 0x{bad} here)") from None


def _plain_message(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text[len("error: "):] if text.startswith("error: ") else text


def location_of(op: Operation | None) -> str | None:
    """`file:line:col` of `op` or of its nearest located ancestor, if any."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        op = op.parent_op()
    return None


def emit(kind: str, message: str, op: Operation | None = None, fallback: str = "<unknown>",
         stream: IO[str] | None = None) -> None:
    """Print one diagnostic line, `loc: kind: message`, to stderr (or `stream`)."""
    where = location_of(op) or fallback
    print(f"{where}: {kind}: {message}", file=stream or sys.stderr)


def remark(op: Operation, code: str, reason: str) -> None:
    """A pass remark with a stable code: `loc: remark: CODE: reason`."""
    emit("remark", f"{code}: {reason}", op)


class LoopoptDiagnostic(DiagnosticException):
    """A user-caused error attached to an operation (bad IR, bad options, unsupported op).

    loop-opt prints it as `file:line:col: error: message` and exits 1. It derives from
    xDSL's DiagnosticException so that `--verify-diagnostics` prints it too.
    """

    def __init__(self, message: str, op: Operation | None = None, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.op = op
        self.where = where
        """`file:line:col` when there is no op to point at (a value refused while parsing)."""

    def __str__(self) -> str:
        where = location_of(self.op) or self.where
        return f"{where}: error: {self.message}" if where else f"error: {self.message}"


class PipelineError(LoopoptDiagnostic, ValueError):
    """A malformed or invalid pass pipeline spec (`-p`, `pipeline=`): no operation to point
    at, so it carries the spec and the column and prints as `message` plus the spec with a
    caret under the column (tools prefix it with the input's name)."""

    def __init__(self, message: str, spec: str = "", column: int | None = None):
        super().__init__(message, None)
        self.spec = spec
        self.column = column

    def context(self) -> str:
        if self.column is None or not self.spec or "\n" in self.spec:
            return ""
        return f"  {self.spec}\n  {' ' * (self.column - 1)}^"

    def __str__(self) -> str:
        return f"{self.message}\n{self.context()}".rstrip()


class InternalError(Exception):
    """A bug in loopopt (a pass crashed, or produced invalid IR), reported as
    `loc: internal error: ... (please report)`."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


# --------------------------------------------------------------------------- verification


def _dominance_problem(value: SSAValue, user: Operation, index: dict[int, int]) -> str | None:
    """Why `value` may not be used by `user` (None if it may): erased, or not dominating."""
    if isinstance(value, ErasedSSAValue):
        return "uses a value that was erased"
    name = f"%{value.name_hint}" if value.name_hint else "a value"
    if isinstance(value, BlockArgument):
        def_block, def_op = value.block, None
    elif isinstance(value, OpResult):
        def_op = value.op
        def_block = def_op.parent_block()
        if def_block is None and not isinstance(def_op, ModuleOp):
            return f"uses {name}, whose defining '{def_op.name}' was erased or detached"
    else:
        return f"uses {name}, which is not defined by an operation or a block"
    cur: Operation | None = user
    while cur is not None:
        block = cur.parent_block()
        if block is None:
            break
        if block is def_block:
            if def_op is None or isinstance(block.parent_op(), ModuleOp):
                return None
            if def_op is cur:
                return f"uses its own result {name}"
            if def_op.parent_block() is block and _position(def_op, index) > _position(cur, index):
                return f"uses {name} before its definition"
            return None
        if def_block is not None and block.parent is def_block.parent:
            return None  # another block of the same CFG region: not checked here
        cur = block.parent_op()
    return f"uses {name}, which is not defined in an enclosing scope"


def _check_ssa(op: Operation, visible: set[int], index: dict[int, int]) -> None:
    """`_dominance_problem` for every operand of `op` and the ops nested in it, in `walk()`
    order. An operand among `visible` (the ids of the arguments of the enclosing blocks and of
    the results of the ops before `op` or its ancestors in them) dominates its use, so only
    the others are asked: values of other blocks of a CFG region, of the module's body, and
    the bad ones, whose first one is reported as the op-by-op check reports it. An op without
    regions is checked in its block's loop (one `issuperset` over its operands' ids), not by a
    call of its own."""
    if not visible.issuperset(map(id, op._operands)):
        _check_operands(op, visible, index)
    for region in op.regions:
        block = region._first_block
        while block is not None:
            added = list(map(id, block._args))
            visible.update(added)
            child = block._first_op
            while child is not None:
                if child.regions:
                    _check_ssa(child, visible, index)
                elif not visible.issuperset(map(id, child._operands)):
                    _check_operands(child, visible, index)
                results = child.results
                if results:
                    ids = list(map(id, results))
                    added += ids
                    visible.update(ids)
                child = child._next_op
            visible.difference_update(added)
            block = block._next_block


def _check_operands(op: Operation, visible: set[int], index: dict[int, int]) -> None:
    """The first of `op`'s operands outside `visible` that may not be used there, as an error."""
    for operand in op._operands:
        if id(operand) not in visible:
            problem = _dominance_problem(operand, op, index)
            if problem is not None:
                raise LoopoptDiagnostic(f"'{op.name}' {problem}", op)


def _position(op: Operation, index: dict[int, int]) -> int:
    if id(op) not in index:
        block = op.parent_block()
        assert block is not None
        for k, o in enumerate(block.ops):
            index[id(o)] = k
    return index[id(op)]


def verify_located(module: Operation) -> None:
    """Verify op by op (each op before the ops of its regions, last op first, as loop-opt always
    has), so a failure names the op (and line) at fault.

    Besides each op's own verifier this checks what xDSL 0.74 does not: every operand is
    defined before its use in an enclosing block (SSA dominance within a block; the blocks
    of one CFG region are not ordered) and no operand is an erased value.
    """
    _check_ssa(module, set(), {})  # SSA first: an op's verifier may trip over a bad operand
    for op in reverse_walk(module):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            raise LoopoptDiagnostic(_plain_message(e), op) from None
        if op.regions:
            _check_empty_blocks(op)


def reverse_walk(op: Operation) -> list[Operation]:
    """`list(op.walk(reverse=True))`: each op before the ops of its regions, the regions, blocks
    and ops last first. Collected in one list through the linked fields, not xDSL's three nested
    generators per level (every op passed up through each level's `yield from`: ~10 % of
    verifying a lowered module); a class with a walk of its own gets its own walk. Verifiers do
    not change the IR, so the order taken before them is the order the generators would give."""
    out = [op]
    default_walk = Operation.walk
    regions = op.regions
    for k in range(len(regions) - 1, -1, -1):
        block = regions[k]._last_block
        while block is not None:
            child = block._last_op
            while child is not None:
                if type(child).walk is not default_walk:
                    out += child.walk(reverse=True)
                elif child.regions:
                    out += reverse_walk(child)
                else:
                    out.append(child)
                child = child._prev_op
            block = block._prev_block
    return out


def first_op_of_dialect(op: Operation, dialect: str) -> Operation | None:
    """`next((o for o in op.walk() if o.dialect_name() == dialect), None)`: the drivers' check
    for df ops left after the pipeline, on every op of the lowered module (~11,000 per 1,000 df
    ops). Each class's dialect asked once (with its `name`: the answer is a function of it), the
    ops reached through the linked fields; a class with a walk of its own is walked by it."""
    if type(op).walk is not Operation.walk:
        return next((o for o in op.walk() if o.dialect_name() == dialect), None)
    if _dialect_of(op) == dialect:
        return op
    for region in op.regions:
        block = region._first_block
        while block is not None:
            child = block._first_op
            while child is not None:
                if child.regions or type(child).walk is not Operation.walk:
                    found = first_op_of_dialect(child, dialect)
                    if found is not None:
                        return found
                elif _dialect_of(child) == dialect:
                    return child
                child = child._next_op
            block = block._next_block
    return None


def _dialect_of(op: Operation) -> str:
    cls = type(op)
    entry = _DIALECTS.get(cls)
    if entry is None or entry[0] is not cls.name:
        entry = _DIALECTS[cls] = (cls.name, cls.dialect_name())
    return entry[1]


_DIALECTS: dict[type, tuple[str, str]] = {}
"""first_op_of_dialect's (name, dialect) per op class."""


def _check_empty_blocks(op: Operation) -> None:
    """xDSL's Block.verify check, which `verify(verify_nested_ops=False)` skips: a single-block
    region must end with a terminator, so an empty one (a function whose body was cut) is an
    error at its op, not a C function that returns nothing."""
    for region in op.regions:
        if len(region.blocks) == 1 and region.block.first_op is None:
            from xdsl.traits import NoTerminator

            if not op.has_trait(NoTerminator):
                raise LoopoptDiagnostic(f"'{op.name}' has an empty block: its single-block region must end with a terminator", op)


# --------------------------------------------------------------------------- reporting


def debug_enabled() -> bool:
    """LOOPOPT_DEBUG=1 (any value but empty or 0): internal errors show their traceback."""
    return os.environ.get("LOOPOPT_DEBUG", "") not in ("", "0")


def _op_in_traceback(error: BaseException) -> Operation | None:
    """The innermost located operation a crashing frame was working on (its locals)."""
    tb = error.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            if isinstance(value, Operation) and location_of(value) is not None:
                return value
    return None


def format_diagnostic(error: BaseException, input_name: str = "<input>") -> str:
    """The user-facing text of any exception: `loc: error: message` for errors in the input
    (parse, verify, pipeline, options, unsupported constructs), `loc: internal error: ...
    (please report)` for anything else. Never a traceback."""
    if isinstance(error, ParseError):
        where = error.span.get_location()
        text = str(error)
        context = text.split("\n", 1)[1] if "\n" in text else ""
        lines = [ln for ln in context.splitlines() if ln.strip() and ln.strip() != error.msg.strip()]
        if any(len(ln) > 200 for ln in lines):  # a hostile one-line input: no wall of text
            lines = []
        return "\n".join([f"{where}: error: {error.msg}", *lines]).rstrip()
    if isinstance(error, PipelineError):
        return f"{input_name}: error: {error}"
    if isinstance(error, ArgSpecParseError):  # a `-t` target spec (pipelines give PipelineError)
        lines = str(error).rstrip().splitlines()
        col = re.search(r":\d+:(\d+)$", lines[1]) if len(lines) > 3 else None
        if col is None:
            return f"{input_name}: error: {_plain_message(error)}"
        message = lines[-1].strip()
        return (f"{input_name}: error: bad spec '{lines[2]}': {message[:1].lower() + message[1:]} "
                f"(column {col[1]})")
    if isinstance(error, RecursionError):
        return f"{input_name}: error: the input is nested too deeply to process"
    if isinstance(error, UnicodeDecodeError):
        return f"{input_name}: error: the input is not UTF-8 text ({error.reason} at byte {error.start})"
    if isinstance(error, InternalError):
        where = location_of(error.op) or input_name
        return f"{where}: internal error: {error.message} (please report; LOOPOPT_DEBUG=1 shows the traceback)"
    if isinstance(error, DiagnosticException):
        op = getattr(error, "op", None)
        where = location_of(op) if isinstance(op, Operation) else None
        where = where or getattr(error, "where", None)
        message = getattr(error, "message", None) if isinstance(error, LoopoptDiagnostic) else None
        text = _plain_message(error) if message is None else message
        where = where or input_name
        prefix = f"{where}: error: "
        return text if text.startswith(prefix) else prefix + text
    op = _op_in_traceback(error)
    where = location_of(op) or input_name
    what = f"{type(error).__name__}: {_plain_message(error)}"
    return f"{where}: internal error: {what} (please report; LOOPOPT_DEBUG=1 shows the traceback)"


MAX_MESSAGE = 500
"""Longer diagnostic lines are cut (a hostile input can make xDSL quote a megabyte name)."""


def _cut(line: str) -> str:
    return line if len(line) <= MAX_MESSAGE else line[:MAX_MESSAGE] + f"... ({len(line) - MAX_MESSAGE} more characters)"


def report(error: BaseException, input_name: str = "<input>", stream: IO[str] | None = None) -> int:
    """Print `error` as a diagnostic (with its traceback first under LOOPOPT_DEBUG=1); exit status 1."""
    stream = stream or sys.stderr
    if debug_enabled():
        traceback.print_exception(error, file=stream)
    print("\n".join(_cut(line) for line in format_diagnostic(error, input_name).splitlines()), file=stream)
    return 1
