"""Source locations and user-facing diagnostics (`file:line:col: error|remark: ...`).

xDSL's parser only keeps a location when the source spells `loc(...)`. loopopt's tools
parse with `LocatedParser`, which stamps every operation with the `FileLineColLoc` of
its first token, so verifier errors, pass failures and pass remarks can point at the
line a user wrote.
"""

from __future__ import annotations

import sys
from typing import IO

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException


class LocatedParser(Parser):
    """A Parser that records each operation's source position as its location."""

    line_offset: int = 0

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        if not isinstance(op.location, FileLineColLoc):
            where = start.get_location()
            op.location = FileLineColLoc(
                StringAttr(where.file),
                IntAttr(where.line + self.line_offset),
                IntAttr(where.col),
            )
        return op


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

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op

    def __str__(self) -> str:
        where = location_of(self.op)
        return f"{where}: error: {self.message}" if where else f"error: {self.message}"
