"""`loop-run`: compile a df program, run its kernels, check them against the interpreter, time them.

    loop-run examples/sum_of_squares.mlir                   # every kernel, this CPU's best ISA
    loop-run prog.mlir -t neon --kernel sumsq               # NEON, run under qemu-aarch64
    loop-run prog.mlir --input x=x.npy --input a=2.5 --print-c

Each kernel is compiled with the default pipeline (`loop-pipeline{target=T}`, or `-p`), run
on inputs of size `--n` (random with `--seed`, or the arrays and scalars given with
`--input`), and its results are compared with loopopt's interpreter running the *original*
df program on the same inputs. Then the compiled kernel is timed against numpy's natural
expression of the program: the `ref=` of the kernel's `// REF:` header line (the format of
`loopopt.tools.ref_header`, which the df corpus uses too; its `inputs=` specs, value ranges
included, are used for the random inputs too). Without a header there is no numpy time.

"Matches" is bit-exact (FMA-aware), or a stated bound where a reduction was reassociated,
or the REF header's `tol=`: the rules are in loop_run_check.
The check runs on at most `--check-n` elements (the interpreter runs custom folds element
by element): random inputs of that size; given `--input`s are always checked whole.

Exit status: 0 when every kernel matched; 1 on an error in the input (file, program, kernel
name, REF header, `.npy` data, a target this machine cannot run; printed as
`file:line:col: error: ...` or `loop-run: error: ...`, or `internal error: ... (please
report)` for a bug in loopopt, never a traceback unless LOOPOPT_DEBUG=1); 2 on a command-line
error (unknown flag, bad `-p` pipeline, unknown target name, malformed `--input`, `-o` not a
`.npz`), as argparse and xdsl-opt; 3 when a kernel gave a MISMATCH (docs/loop_run.md).

`-o out.npz` saves each kernel's compiled results on the checked inputs, keys `KERNEL.K`
(the K-th result; `KERNEL.K.FIELD` for a record field), and those inputs as `KERNEL.in.ARG`. REF
expressions are checked against a small grammar, never given to a bare `eval`
(docs/ref_header.md).

The library functions (`make_inputs`, `run_compiled`, `run_compiled_batch`,
`reference_results`, `compare_results`) are what the differential tests use too.

This module is the command line and the per-kernel check, and re-exports those functions;
they live in loop_run_inputs (the inputs), loop_run_native (calls of compiled code, checked
and timed) and loop_run_check (the reference and the comparison rules).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

from loopopt.tools.loop_run_check import (
    CONTRACT_PIPELINE,
    FMA_OPS,
    FloatRule,
    compare_results,
    contracts_fma,
    float_rules,
    fma_contracted,
    interpret,
    reduction_terms,
    reference_results,
)
from loopopt.tools.loop_run_inputs import (
    RunError,
    UsageError,
    arg_names,
    check_header,
    input_size,
    make_inputs,
    parse_given,
    ref_namespace,
)
from loopopt.tools.loop_run_native import Guarded, best_time, format_seconds, native_call, run_compiled, run_compiled_batch
from loopopt.tools.ref_header import RefError, RefHeader, parse_ref_headers

__all__ = [
    "CONTRACT_PIPELINE", "EXIT_ERROR", "EXIT_MISMATCH", "EXIT_OK", "EXIT_USAGE", "FMA_OPS", "Check", "FloatRule",
    "Guarded", "RunError", "UsageError", "arg_names", "best_time", "build_parser", "check_header", "check_kernel",
    "compare_results", "contracts_fma", "float_rules", "fma_contracted", "format_seconds", "input_size", "interpret",
    "main", "make_inputs", "native_call", "parse_given", "reduction_terms", "ref_namespace", "reference_results",
    "run_compiled", "run_compiled_batch",
]  # fmt: skip

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_MISMATCH = 0, 1, 2, 3


@dataclass
class Check:
    """The outcome of checking one kernel."""

    problems: list[str]
    n: int
    notes: list[str] = field(default_factory=list)
    results: tuple[Any, ...] = ()
    """The compiled kernel's results (df order), for `-o`."""

    @property
    def ok(self) -> bool:
        return not self.problems


def check_kernel(df_module: ModuleOp, compiled: Any, name: str, inputs: Sequence[Any],
                 header: RefHeader | None = None) -> Check:
    """Run compiled `name` on `inputs` and compare with the df interpreter."""
    from loopopt.lowering.abi import find_kernel

    fma = contracts_fma(compiled.module, name)
    plain = reference_results(df_module, name, inputs, fma=False)
    ref = reference_results(df_module, name, inputs, fma=True) if fma else plain
    extents = _result_extents(find_kernel(df_module, name), plain)
    if compiled.library is not None:
        got = run_compiled(compiled, name, inputs, extents=extents)
    else:
        got = run_compiled_batch(compiled, name, [inputs], [extents])[0]
    rules = float_rules(df_module, name, inputs, plain, header)
    check = Check(compare_results(got, ref, rules, plain if fma else None), input_size(inputs), results=tuple(got))
    if fma:
        check.notes.append("FMA-contracted")
    kinds = sorted({r.why for r in rules.values() if r.kind != "exact"})
    check.notes.extend(kinds)
    return check


def _result_extents(kernel: func.FuncOp, results: Sequence[Any]) -> dict[str, int]:
    """Axis extents of the df results (sizes outputs on a range's axis)."""
    from loopopt.dialects.df_types import ArrayType

    extents: dict[str, int] = {}
    for t, r in zip(kernel.function_type.outputs, results, strict=True):
        if isinstance(t, ArrayType):
            arr = next(iter(r.values())) if isinstance(r, dict) else r
            extents.update(zip(t.axis_names, np.shape(arr)))
    return extents


# --------------------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"loop-run: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="loop-run",
        description="Compile a df program, run its kernels, check them against loopopt's interpreter "
        "and time them against numpy.",
        epilog="Exit status: 0 all kernels match, 1 an error in the input, 2 a command-line error, "
        "3 a kernel MISMATCH (docs/loop_run.md).",
    )
    p.add_argument("file", help="a .mlir df (or Loop IR) program")
    p.add_argument("-p", "--pipeline", default=None,
                   help="pass pipeline (default: loop-pipeline{target=TARGET})")
    p.add_argument("-t", "--target", default="native",
                   help="scalar, sse2, avx2, avx512, neon (under qemu) or native (default: this CPU's best)")
    p.add_argument("-k", "--kernel", action="append", default=[], metavar="NAME",
                   help="run only this kernel (repeatable; default: every kernel)")
    p.add_argument("-n", "--n", type=int, default=1_000_000, help="size of the random inputs (default 1000000)")
    p.add_argument("--check-n", type=int, default=10_000,
                   help="size of the random inputs of the interpreter check (default 10000; capped at --n)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-i", "--input", action="append", default=[], metavar="NAME=PATH.npy|VALUE",
                   help="an argument's value: a .npy array, a number for a scalar, REC.FIELD=PATH.npy for records")
    p.add_argument("--print-c", action="store_true", help="print the generated C first")
    p.add_argument("--no-time", action="store_true", help="skip the timings")
    p.add_argument("-o", "--output", default=None, metavar="OUT.npz",
                   help="save each kernel's results (keys KERNEL.K) and checked inputs (KERNEL.in.ARG) to OUT.npz")
    return p


def main(argv: Sequence[str] | None = None, out: Any = None) -> int:
    """loop-run on `argv`: exit status 0 (every kernel matched), 1 (an error in the input),
    2 (a command-line error), 3 (a MISMATCH); errors are a diagnostic on stderr, never a
    traceback."""
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help: 0; a command-line error: 2 (printed by the parser)
        return e.code if isinstance(e.code, int) else EXIT_OK if e.code is None else EXIT_USAGE
    try:
        return _run(args, out)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - xDSL's ArgSpecParseError is a BaseException
        out.flush()  # what was printed comes before the diagnostic
        _report(e, args.file)
        from xdsl.utils.exceptions import ArgSpecParseError

        from loopopt.diagnostics import PipelineError

        if isinstance(e, UsageError | PipelineError | ArgSpecParseError):
            return EXIT_USAGE
    return EXIT_ERROR


def _report(e: BaseException, file: str) -> None:
    """A diagnostic for `e`: located for errors in the input, `internal error` for bugs."""
    from loopopt.diagnostics import report
    from loopopt.runtime import CompileError, ForeignRunError

    if isinstance(e, RefError):
        print(e, file=sys.stderr)
    elif isinstance(e, RunError) or (isinstance(e, CompileError | ForeignRunError) and not isinstance(e, DiagnosticException)):
        print(f"loop-run: error: {e}", file=sys.stderr)
    else:
        report(e, file)


def _run(args: argparse.Namespace, out: Any) -> int:
    from loopopt.compile import compile as compile_module
    from loopopt.compile import kernels_of, make_context, parse
    from loopopt.diagnostics import decode_source, verify_located

    if args.n < 0 or args.check_n < 0:
        raise UsageError("--n and --check-n must be >= 0")
    if args.output is not None and not args.output.endswith(".npz"):
        raise UsageError(f"-o {args.output}: the results are saved as a .npz file (name it OUT.npz)")
    if args.output is not None and not Path(args.output).resolve().parent.is_dir():
        raise RunError(f"cannot write {args.output}: its directory does not exist")
    target = _check_target(args.target)
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RunError(f"cannot read {args.file}: {e.strerror or e}") from None
    text = decode_source(data, args.file)
    headers = parse_ref_headers(text, args.file)
    df_module = parse(text, make_context(), args.file)
    verify_located(df_module)
    kernels = kernels_of(df_module)
    names = [k.sym_name.data for k in kernels]
    for name in args.kernel:
        if name not in names:
            raise RunError(f"no kernel {name!r} in {args.file} (kernels: {', '.join(names) or 'none'})")
    selected = [k for k in kernels if not args.kernel or k.sym_name.data in args.kernel]
    given = parse_given(args.input, selected)
    compiled = compile_module(df_module, target=target, pipeline=args.pipeline)
    if args.print_c:
        print(compiled.c_source, file=out)
    foreign = compiled.library is None
    print(f"{args.file}: target {compiled.target}" + (" (run under qemu)" if foreign else ""), file=out)
    status = EXIT_OK
    saved: dict[str, np.ndarray] = {}
    for k, kernel in enumerate(selected):
        name = kernel.sym_name.data
        header = headers.get(name)
        if header is not None:
            check_header(kernel, header)
        seed_rng = np.random.default_rng([args.seed, k])
        check_inputs = make_inputs(kernel, min(args.n, args.check_n), seed_rng, header, given)
        check = check_kernel(df_module, compiled, name, check_inputs, header)
        if args.output is not None:
            saved.update(_saved_arrays(name, arg_names(kernel), check_inputs, check.results))
        notes = f" ({'; '.join(check.notes)})" if check.notes else ""
        if check.ok:
            print(f"{name}: matches the interpreter (n={check.n}){notes}", file=out)
        else:
            status = EXIT_MISMATCH
            print(f"{name}: MISMATCH against the interpreter (n={check.n}){notes}", file=out)
            for problem in check.problems:
                print(f"  {problem}", file=out)
        if args.no_time:
            continue
        if foreign:
            print("  timing skipped: the kernel runs under qemu", file=out)
            continue
        inputs = make_inputs(kernel, args.n, np.random.default_rng([args.seed, k, 1]), header, given)
        print("  " + _timing_line(df_module, compiled, kernel, inputs, header), file=out)
    if args.output is not None:
        try:
            with open(args.output, "wb") as f:
                np.savez(f, **saved)
        except OSError as e:
            raise RunError(f"cannot write {args.output}: {e.strerror or e}") from None
        print(f"results saved to {args.output}", file=out)
    return status


def _saved_arrays(name: str, names: Sequence[str], inputs: Sequence[Any], results: Sequence[Any]) -> dict[str, np.ndarray]:
    """`-o`'s arrays for one kernel: `NAME.K` per result (`NAME.K.FIELD` per record field),
    `NAME.in.ARG` per input (`NAME.in.ARG.FIELD`)."""
    arrays: dict[str, np.ndarray] = {}

    def put(key: str, value: Any) -> None:
        if isinstance(value, dict):
            for f, v in value.items():
                arrays[f"{key}.{f}"] = np.asarray(v)
        else:
            arrays[key] = np.asarray(value)

    for arg, value in zip(names, inputs):
        put(f"{name}.in.{arg}", value)
    for k, value in enumerate(results):
        put(f"{name}.{k}", value)
    return arrays


def _check_target(target: str) -> str:
    from loopopt import runtime

    if target == "native":
        return target
    if target not in runtime.ISAS:
        raise UsageError(f"unknown target {target!r}; expected one of {', '.join(runtime.ISAS)} or native")
    if target in runtime.isa.FOREIGN_TOOLS:
        ok, why = runtime.neon_runner_available()
        if not ok:
            raise RunError(f"cannot run {target} kernels here: {why}")
    elif target not in runtime.host_isas():
        raise RunError(f"this CPU cannot run {target} (it runs {', '.join(runtime.host_isas())}, and neon under qemu)")
    return target


def _timing_line(df_module: ModuleOp, compiled: Any, kernel: func.FuncOp, inputs: Sequence[Any],
                 header: RefHeader | None) -> str:
    name = kernel.sym_name.data
    n = input_size(inputs)
    extents: dict[str, int] = {}
    try:
        call = native_call(compiled, name, inputs, extents)
    except ValueError:  # an output on a range's axis: its extent comes from a reference run
        extents = _result_extents(kernel, interpret(df_module, name, inputs))
        call = native_call(compiled, name, inputs, extents)
    ours = best_time(call)
    line = f"n={n}: loopopt {format_seconds(ours)}"
    if header is None:
        return line + "; numpy: no REF header with a numpy expression for this kernel"
    env = ref_namespace(header, inputs, n)
    header.evaluate(header.expr, env, n)  # a failing expression: a RefError naming the line
    expr = header.compiled_ref()
    with np.errstate(all="ignore"):
        theirs = best_time(lambda: expr(env))
    return line + f", numpy {format_seconds(theirs)} ({theirs / ours:.2f}x)"


if __name__ == "__main__":
    raise SystemExit(main())
