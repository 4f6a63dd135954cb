"""`loop-opt`: xdsl-opt with loopopt's dialects, passes and targets.

It keeps every xdsl-opt flag and turns every mistake a user can make (malformed input,
verifier failures, unknown passes or options, unsupported targets) into a
`file:line:col: error: ...` line and exit status 1 instead of a Python traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from loopopt import __version__
from loopopt.diagnostics import LocatedParser, LoopoptDiagnostic, location_of
from loopopt.registry import get_all_dialects, get_all_passes, get_all_targets


class LoopOptMain(xDSLOptMain):
    version_format = f"loop-opt {__version__} (xDSL {{xdsl_version}})"

    def register_all_dialects(self):
        super().register_all_dialects()
        for name, factory in get_all_dialects().items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self):
        super().register_all_passes()
        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets.update(get_all_targets())

    def register_all_frontends(self):
        super().register_all_frontends()
        self.available_frontends["mlir"] = self._parse_located

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        self._chunk_offset = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    def apply_passes(self, prog: ModuleOp):
        if not self.args.disable_verify:
            verify_located(prog)
        super().apply_passes(prog)

    def _parse_located(self, io: IO[bytes]):
        parser = LocatedParser(self.ctx, io.read(), self.get_input_name())
        parser.line_offset = getattr(self, "_chunk_offset", 0)
        return parser.parse_module(not self.args.no_implicit_module)


def verify_located(module: ModuleOp) -> None:
    """Verify op by op, innermost first, so a failure names the op (and line) at fault."""
    for op in module.walk(reverse=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            raise LoopoptDiagnostic(str(e).strip(), op) from None


def format_error(error: BaseException, input_name: str) -> str:
    """One `loc: error: message` diagnostic (plus source context where there is one)."""
    if isinstance(error, ParseError):
        where = error.span.get_location()
        context = str(error).split("\n", 1)[1] if "\n" in str(error) else ""
        return f"{where}: error: {error.msg}\n{context}".rstrip()
    op = getattr(error, "op", None)
    where = location_of(op) or input_name
    text = str(error)
    if text.startswith(f"{where}: error: "):
        return text
    return f"{where}: error: {text}"


def run(args: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if args is None else args)
    input_name = next((a for a in argv if not a.startswith("-") and a.endswith(".mlir")), "<stdin>")
    try:
        LoopOptMain(args=argv).run()
    except SystemExit as e:  # --help/--version exit 0; argparse errors exit 2 -> 1
        return 0 if e.code in (0, None) else 1
    except (ParseError, DiagnosticException) as e:
        print(format_error(e, input_name), file=sys.stderr)
        return 1
    except Exception as e:  # pipeline specs, unknown targets, unsupported ops in a pass
        print(f"{input_name}: error: {e}", file=sys.stderr)
        return 1
    return 0


def main() -> None:
    """Console entry point."""
    sys.exit(run())


if __name__ == "__main__":
    main()
