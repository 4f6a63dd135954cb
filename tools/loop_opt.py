"""`loop-opt`: xdsl-opt with loopopt's dialects, passes and targets.

It keeps every xdsl-opt flag and turns every mistake a user can make (malformed input,
verifier failures, unknown passes or options, unsupported targets) into a
`file:line:col: error: ...` line and exit status 1 instead of a Python traceback.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from loopopt import __version__
from loopopt.diagnostics import (
    InternalError,
    LocatedParser,
    LoopoptDiagnostic,
    _op_in_traceback,
    debug_enabled,
    format_diagnostic,
    report,
)
from loopopt.diagnostics import verify_located as verify_located
from loopopt.registry import get_all_dialects, get_all_passes, get_all_targets


class LoopOptMain(xDSLOptMain):
    version_format = f"loop-opt {__version__} (xDSL {{xdsl_version}})"

    current_pass: ModulePass | None = None
    """The pass running now (named by an internal error)."""

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

    def setup_pipeline(self):
        """xDSL's pipeline setup, through loopopt's spec parser (clean errors, MLIR-style
        commas) and with a located verification after every pass."""
        from loopopt.compile import parse_pipeline

        self.pipeline = parse_pipeline(self.args.passes, self._between_passes, self.available_passes)

    def _between_passes(self, previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
        args = self.args
        if args.time_passes and previous is not None:
            print(f"Pass {previous.name} took {time.perf_counter() - self._pass_start} seconds")
        if previous is not None and not args.disable_verify:
            try:
                verify_located(module)
            except LoopoptDiagnostic as e:
                raise InternalError(f"pass '{previous.name}' produced invalid IR: {e.message}", e.op) from None
        if previous is not None and following is not None and args.print_between_passes:
            print(f"IR after {previous.name}:")
            Printer(stream=sys.stdout).print_op(module)
            print("\n\n\n")
        self.current_pass = following
        self._pass_start = time.perf_counter()

    def output_resulting_program(self, prog: ModuleOp) -> str:
        """xDSL's output step, with the `-t` spec's options checked first: a bad one is an
        error in the command line, not a crash of the printer."""
        import inspect

        from xdsl.utils.arg_spec import parse_spec

        from loopopt.diagnostics import PipelineError

        spec = parse_spec(self.args.target)
        entry = self.available_targets.get(spec.name)
        if entry is not None and not inspect.signature(entry).parameters:
            try:
                entry().from_spec(spec)
            except LoopoptDiagnostic as e:
                raise PipelineError(f"-t {self.args.target}: {e.message}") from None
            except (ValueError, TypeError) as e:
                raise PipelineError(f"-t {self.args.target}: {e}") from None
        return super().output_resulting_program(prog)

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        self._chunk_offset = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    def apply_passes(self, prog: ModuleOp):
        if not self.args.disable_verify:
            verify_located(prog)
        try:
            super().apply_passes(prog)
        except (DiagnosticException, InternalError, RecursionError):
            raise
        except Exception as e:
            if debug_enabled() or self.current_pass is None:
                raise
            raise InternalError(f"pass '{self.current_pass.name}' failed: {type(e).__name__}: {e}",
                                _op_in_traceback(e)) from e
        finally:
            self.current_pass = None

    def _parse_located(self, io: IO[bytes]):
        parser = LocatedParser(self.ctx, io.read(), self.get_input_name())
        parser.line_offset = getattr(self, "_chunk_offset", 0)
        return parser.parse_module(not self.args.no_implicit_module)


def format_error(error: BaseException, input_name: str) -> str:
    """One `loc: error: message` diagnostic (plus source context where there is one)."""
    return format_diagnostic(error, input_name)


def run(args: Sequence[str] | None = None) -> int:
    """loop-opt on `args`; the exit status: 0, or 1 for any error (a diagnostic on stderr:
    bad input, bad options or pipeline, and command-line usage errors too)."""
    argv = list(sys.argv[1:] if args is None else args)
    input_name = next((a for a in argv if not a.startswith("-") and a.endswith(".mlir")), "<stdin>")
    try:
        LoopOptMain(args=argv).run()
    except SystemExit as e:  # --help/--version exit 0; argparse errors exit 2 -> 1
        return 0 if e.code in (0, None) else 1
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - ArgSpecParseError is a BaseException
        return report(e, input_name)
    return 0


def main() -> None:
    """Console entry point."""
    sys.exit(run())


if __name__ == "__main__":
    main()
