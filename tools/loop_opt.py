"""`loop-opt`: xdsl-opt with loopopt's dialects, passes and targets.

It keeps every xdsl-opt flag and turns every mistake a user can make (malformed input,
verifier failures, unknown passes or options, unsupported targets) into a
`file:line:col: error: ...` line instead of a Python traceback. Exit status (docs/cli.md):
0 success, 1 an error in the input program (or an internal error), 2 a command-line error
(unknown flag, bad `-p` pipeline or `-t` spec, bad pass option), as xdsl-opt.

`--help` lists loopopt's passes first; `--list-passes [all]` lists them (with xDSL's),
`--help-pass NAME` prints one pass's options with their types, defaults, valid values and
documentation.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib.util
import os
import sys
import time
import typing
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
    first_op_of_dialect,
    format_diagnostic,
    report,
)
from loopopt.diagnostics import verify_located as verify_located
from loopopt.registry import get_all_dialects, get_all_passes, get_all_targets

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
"""loop-opt's exit statuses: success, an error in the input program, a command-line error."""

DESCRIPTION = "loopopt's optimizer driver: xdsl-opt with the df, loop and simd dialects, their passes and the `c` target."

EXAMPLES = """\
examples:
  loop-opt prog.mlir -p 'df-fuse{remarks=true}'
  loop-opt prog.mlir -p 'loop-pipeline{target=avx2}' -t c > prog.c
  loop-opt --help-pass loop-unroll
  loop-opt big.mlir -p 'loop-pipeline{target=avx2}' -t c --jobs 2 > big.c

exit status: 0 success, 1 an error in the input program, 2 a command-line error
(unknown flag, bad -p pipeline, -t spec or pass option). docs/cli.md has the details."""


def _field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a dataclass's fields (`x: int = 0` then `\"\"\"...\"\"\"`)."""
    import ast
    import inspect
    import textwrap

    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for stmt, after in zip(body, body[1:]):
            if (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[stmt.target.id] = " ".join(after.value.value.split())
    return docs


def pass_summary(cls: type) -> str:
    """The first sentence of a pass's docstring."""
    doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split())
    return doc.split(". ")[0].rstrip(".") if doc else ""


def pass_help(name: str, cls: type[ModulePass]) -> str:
    """`--help-pass NAME`: the pass's summary and each option: type, default, valid values, doc."""
    from loopopt.passes.options import PASS_OPTIONS

    lines = [f"{name}: {pass_summary(cls) or '(no description)'}"]
    fields = [f for f in dataclasses.fields(cls) if f.init and f.name != "name"]
    if not fields:
        lines.append("  no options")
        return "\n".join(lines)
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - unresolvable annotations: print them as written
        hints = {}
    docs = _field_docs(cls)
    checks = PASS_OPTIONS.get(name, {})
    lines.append("options:")
    for f in fields:
        from loopopt.compile import typing_repr

        kind = typing_repr(hints[f.name]) if f.name in hints else str(f.type)
        default = f.default if f.default is not dataclasses.MISSING else None
        if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        spelled = str(default).lower() if isinstance(default, bool) else repr(default) if isinstance(default, str) else default
        lines.append(f"  {f.name.replace('_', '-')}: {kind} = {spelled}")
        check = checks.get(f.name)
        valid = _describe_check(check) if check is not None else ""
        if valid:
            lines.append(f"      valid: {valid}")
        if f.name in docs:
            lines.append(f"      {docs[f.name]}")
    lines.append(f"usage: -p '{name}{{{fields[0].name.replace('_', '-')}=...}}' (options separated by commas or spaces)")
    return "\n".join(lines)


def _describe_check(check: object) -> str:
    lo, hi = getattr(check, "lo", None), getattr(check, "hi", None)
    if lo is not None and hi is not None:
        return f"[{lo}, {hi}]" + (", a power of two" if getattr(check, "power_of_two", False) else "")
    choices = getattr(check, "choices", None)
    if callable(choices):
        try:
            return " | ".join(repr(c) if c == "" else c for c in choices())
        except Exception:  # noqa: BLE001
            return ""
    if type(check).__name__ == "BoolOption":
        return "true | false"
    return (type(check).__doc__ or "").strip().split("\n")[0]


def _loopopt_pass_lines() -> list[str]:
    lines = []
    for name, factory in sorted(get_all_passes().items()):
        try:
            summary = pass_summary(factory())
        except Exception:  # noqa: BLE001 - a pass module that fails to import is still listed
            summary = ""
        lines.append(f"  {name:<22} {summary}")
    return lines


class LoopOptMain(xDSLOptMain):
    version_format = f"loop-opt {__version__} (xDSL {{xdsl_version}})"

    current_pass: ModulePass | None = None
    """The pass running now (named by an internal error)."""
    jobs_c: str | None = None
    """The C file the `--jobs` workers printed: the output, the module's passes done."""

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
        if importlib.util.find_spec("llvmlite") is None:  # xDSL's llvm target needs it
            self.available_targets.pop("llvm", None)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        """xdsl-opt's flags, with `-p`/`-t` help that leads with loopopt's passes and targets
        (not xDSL's 150 passes), `--list-passes` and `--help-pass NAME`."""
        super().register_all_arguments(arg_parser)
        arg_parser.prog = "loop-opt"
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.description = DESCRIPTION
        format_help = arg_parser.format_help

        def format_help_with_passes() -> str:
            # built only when help is printed: listing the passes imports every pass module
            arg_parser.description = (DESCRIPTION + "\n\nloopopt passes (--help-pass NAME for options; "
                                      "--list-passes all for xDSL's too):\n" + "\n".join(_loopopt_pass_lines()))
            return format_help()

        arg_parser.format_help = format_help_with_passes  # type: ignore[method-assign]
        arg_parser.epilog = EXAMPLES
        ours = ", ".join(sorted(get_all_targets()))
        for action in arg_parser._actions:
            if "-p" in action.option_strings:
                action.help = ("pass pipeline, e.g. 'df-fuse,convert-df-to-loop' or 'loop-pipeline{target=avx2}' "
                               "(loopopt's passes above; xDSL's too: --list-passes all)")
            elif "-t" in action.option_strings:
                action.help = f"output: mlir (default) or loopopt's {ours} (c{{isa=...}}); others: " + ", ".join(
                    t for t in self.available_targets if t not in ("mlir", *get_all_targets()))
            elif "--disable-verify" in action.option_strings:
                action.help = ("skip verifying the input and the IR after every pass (on by default, like "
                               "mlir-opt's --verify-each; ~10%% of a large module's compile time)")
        main = self

        class ListPasses(argparse.Action):
            def __call__(self, parser, namespace, values, option_string=None):  # noqa: ANN001
                if values not in (None, "all"):
                    parser.error(f"argument --list-passes: expected nothing or 'all', found {values!r}")
                print("loopopt passes:")
                print("\n".join(_loopopt_pass_lines()))
                if values == "all":
                    ours = set(get_all_passes())
                    print("xDSL passes:")
                    print("\n".join(f"  {n}" for n in sorted(main.available_passes) if n not in ours))
                parser.exit(EXIT_OK)

        class HelpPass(argparse.Action):
            def __call__(self, parser, namespace, values, option_string=None):  # noqa: ANN001
                factory = main.available_passes.get(values)
                if factory is None:
                    import difflib

                    close = difflib.get_close_matches(values, list(main.available_passes), n=3)
                    hint = f"; did you mean {', '.join(close)}?" if close else " (--list-passes lists them)"
                    parser.error(f"argument --help-pass: unknown pass {values!r}{hint}")
                print(pass_help(values, factory()))
                parser.exit(EXIT_OK)

        arg_parser.add_argument(
            "--jobs", type=_job_count, default=1, metavar="N",
            help=("with -p and -t c: lower and print the module's functions in N forked processes "
                  "(0: one per CPU; default 1); the same C, in less wall time but no less CPU time. "
                  "Serial anyway for other targets, --split-input-file, --print-between-passes, "
                  "--time-passes, a module of fewer than 2 functions or without os.fork"))
        arg_parser.add_argument("--list-passes", nargs="?", const=None, default=None, metavar="all",
                                action=ListPasses, help="list loopopt's passes (with 'all': xDSL's too) and exit")
        arg_parser.add_argument("--help-pass", metavar="NAME", action=HelpPass,
                                help="print a pass's options (type, default, valid values, meaning) and exit")

    def register_all_frontends(self):
        super().register_all_frontends()
        self.available_frontends["mlir"] = self._parse_located

    def setup_pipeline(self):
        """xDSL's pipeline setup, through loopopt's spec parser (clean errors, MLIR-style
        commas) and with a located verification after every pass."""
        if not self.args.passes:  # nothing to parse: skip importing the pipeline machinery
            return super().setup_pipeline()
        from loopopt.compile import parse_pipeline

        self.pipeline = parse_pipeline(self.args.passes, self._between_passes, self.available_passes)
        if self.args.print_between_passes or self.args.time_passes:
            self.pipeline = type(self.pipeline)(self._expanded(self.pipeline.passes), self._between_passes)

    def _expanded(self, passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
        """`loop-pipeline` replaced by the passes it runs (as it runs them), so that
        `--print-between-passes` and `--time-passes` show each of them."""
        from loopopt.passes.pipeline import LoopPipelinePass

        out: list[ModulePass] = []
        for p in passes:
            if isinstance(p, LoopPipelinePass):
                out.extend(pass_ for _, pass_ in p.step_passes())
            else:
                out.append(p)
        return tuple(out)

    def _between_passes(self, previous: ModulePass | None, module: ModuleOp, following: ModulePass | None) -> None:
        args = self.args
        if args.time_passes and previous is not None:
            # stderr, so that `-t c --time-passes > k.c` stays valid C
            print(f"Pass {previous.name} took {time.perf_counter() - self._pass_start} seconds", file=sys.stderr)
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

    def _checked_spec(self, prog: ModuleOp):  # noqa: ANN202
        """The `-t` spec, its options checked (PipelineError) and, for `-t c`, `prog` checked
        for df ops left and given the `-p` pipeline to name in the header."""
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
        if spec.name == "c":
            leftover = first_op_of_dialect(prog, "df")
            if leftover is not None:
                raise LoopoptDiagnostic(
                    f"{leftover.name} has no C form: lower df first, e.g. -p 'loop-pipeline{{target=avx2}}' "
                    "or -p 'df-fuse,convert-df-to-loop'", leftover)
            if self.args.passes and "pipeline" not in spec.parameters:
                self._record_pipeline(prog)
        return spec

    def output_resulting_program(self, prog: ModuleOp) -> str:
        """xDSL's output step, with the `-t` spec's options checked first: a bad one is an
        error in the command line, not a crash of the printer."""
        if self.jobs_c is not None:
            return self.jobs_c
        self._checked_spec(prog)
        return super().output_resulting_program(prog)

    def _record_pipeline(self, prog: ModuleOp) -> None:
        """`-t c` names the `-p` pipeline in the C header when no pass recorded one
        (`loop-pipeline` records the passes it ran), so that any header's `pipeline:` line
        is what to pass back to `-p`, `loop-run -p` or `loopopt.compile(pipeline=...)`."""
        from xdsl.dialects.builtin import StringAttr

        from loopopt.targets.c import PIPELINE_ATTR

        if PIPELINE_ATTR not in prog.attributes:
            prog.attributes[PIPELINE_ATTR] = StringAttr(self.args.passes)

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0):
        self._chunk_offset = start_offset
        return super().parse_chunk(chunk, file_extension, start_offset)

    def apply_passes(self, prog: ModuleOp):
        if not self.args.disable_verify:
            verify_located(prog)
        jobs = self._jobs(prog)
        if jobs > 1:
            self.jobs_c = self._compile_in_jobs(prog, jobs)
            if self.jobs_c is not None:
                return
        self._run_pipeline(prog)

    def _jobs(self, prog: ModuleOp) -> int:
        """How many `--jobs` workers compile `prog`: 1 (serial) unless `-p ... -t c` with
        nothing that prints per pass or per chunk, and `prog` holds only functions."""
        from xdsl.dialects.func import FuncOp
        from xdsl.utils.arg_spec import parse_spec

        from loopopt import compile_jobs

        args = self.args
        jobs = args.jobs or os.cpu_count() or 1
        if (jobs < 2 or not args.passes or args.split_input_file or args.print_between_passes or args.time_passes
                or args.verify_diagnostics or args.parsing_diagnostics or args.shrink or not compile_jobs.is_available()):
            return 1
        try:
            if parse_spec(args.target).name != "c":
                return 1
        except BaseException:  # noqa: BLE001 - the serial path reports a bad spec
            return 1
        return jobs if all(isinstance(op, FuncOp) for op in prog.ops) else 1

    def _compile_in_jobs(self, prog: ModuleOp, jobs: int) -> str | None:
        """`prog` compiled to C by `jobs` forked workers (loopopt/compile_jobs.py), each
        lowering and printing a share of its functions; None when it must be done serially:
        fewer than 2 functions, workers whose modules disagree on the file's header, or a
        worker's error (the serial compile reports it: the same text and exit status, whatever
        order the passes meet the errors in; `prog` is the parent's, untouched)."""
        from xdsl.dialects.builtin import StringAttr

        from loopopt.compile_jobs import Died, Failed, function_shares, run_workers
        from loopopt.targets.c import c_printer
        from loopopt.targets.c_parallel import with_drivers

        shares = function_shares(prog, jobs)
        if len(shares) < 2:
            return None
        names = [op.sym_name.data for op in prog.ops]  # type: ignore[attr-defined]
        outcomes = run_workers(len(shares), lambda k: self._job(prog, shares[k], names))
        for k, outcome in enumerate(outcomes):
            if isinstance(outcome, Died):
                raise InternalError(f"loop-opt --jobs: the worker compiling @{shares[k][0]} .. @{shares[k][-1]} "
                                    f"{outcome.why}")
        printed = [o.value for o in outcomes]  # type: ignore[union-attr]
        if any(isinstance(p, Failed) for p in printed) or len({p.file for p in printed}) > 1:
            return None  # (e.g. different CPU features used)
        _replay(outcomes)
        stub = ModuleOp([])
        stub.attributes.update({k: StringAttr(v) for k, v in printed[0].file[0]})
        printer = c_printer(stub, *printed[0].file[1:])
        code = printer.assemble("\n".join(p.code for p in printed if p.code), any(p.needs_stdlib for p in printed))
        return with_drivers(code, [d for p in printed for d in p.drivers])

    def _job(self, prog: ModuleOp, share: list[str], names: list[str]) -> object:
        """A worker's compile: `prog` cut to `share` (and what it references), the pipeline,
        the C of `share`'s functions; or its error, named (the parent then compiles serially)."""
        from xdsl.dialects.builtin import StringAttr

        from loopopt.compile_jobs import Failed, PrintedShare, keep_share
        from loopopt.targets.c import FEATURES_ATTR, PIPELINE_ATTR, TARGET_ATTRS, c_printer, has_parallel_kernels
        from loopopt.targets.c_parallel import chunk_kernels

        try:
            keep_share(prog, share)
            self._run_pipeline(prog)
            spec = self._checked_spec(prog)
            target = self.available_targets[spec.name]().from_spec(spec)
            printer = c_printer(prog, target.target, target.pipeline)
            others = set(names).difference(share)  # (kept for their references: printed by their share)
            only = {op.sym_name.data for op in prog.ops if op.sym_name.data not in others}  # with the passes' new ones
            code, needs_stdlib = printer.print_functions(prog, only, names)
            drivers: list[str] = []
            if has_parallel_kernels(prog):
                code, drivers = chunk_kernels(prog, code, only)
            attrs = tuple((k, v.data) for k in (*TARGET_ATTRS, PIPELINE_ATTR, FEATURES_ATTR)
                          if isinstance(v := prog.attributes.get(k), StringAttr))
            return PrintedShare(code, needs_stdlib, drivers, (attrs, target.target, target.pipeline))
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - the serial compile reports it
            return Failed(f"{type(e).__name__}: {e}")

    def _run_pipeline(self, prog: ModuleOp) -> None:
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


def _replay(outcomes: Sequence[object]) -> None:
    """What the workers printed (remarks, warnings), in module order."""
    for outcome in outcomes:
        sys.stdout.write(getattr(outcome, "stdout", ""))
        sys.stderr.write(getattr(outcome, "stderr", ""))


def _job_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of processes >= 0 (0: one per CPU), found {text!r}")
    return n


def format_error(error: BaseException, input_name: str) -> str:
    """One `loc: error: message` diagnostic (plus source context where there is one)."""
    return format_diagnostic(error, input_name)


def run(args: Sequence[str] | None = None) -> int:
    """loop-opt on `args`; the exit status: 0; 1 for an error in the input program (or an
    internal error); 2 for a command-line error: argparse's, a bad `-p` pipeline or `-t`
    spec, a pass option out of range (a diagnostic on stderr each, never a traceback)."""
    from xdsl.utils.exceptions import ArgSpecParseError

    from loopopt.diagnostics import PipelineError

    argv = list(sys.argv[1:] if args is None else args)
    input_name = next((a for a in argv if not a.startswith("-") and a.endswith(".mlir")), "<stdin>")
    try:
        LoopOptMain(args=argv).run()
    except SystemExit as e:  # --help/--version exit 0; argparse errors exit 2
        return EXIT_OK if e.code in (0, None) else e.code if isinstance(e.code, int) else EXIT_USAGE
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - ArgSpecParseError is a BaseException
        report(e, input_name)
        return EXIT_USAGE if isinstance(e, PipelineError | ArgSpecParseError) else EXIT_ERROR
    return EXIT_OK


def main() -> None:
    """Console entry point. A short-lived process: the cyclic garbage collector stays off
    (its full collections traverse the whole IR: superlinear in module size; the cycles
    freed by the passes are returned at exit; docs/compile_time.md)."""
    gc.disable()
    sys.exit(run())


if __name__ == "__main__":
    main()
