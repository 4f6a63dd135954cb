"""Fuzzing with hostile inputs: `python -m loopopt.tools.fuzz.invalid --seed S --cases N`.

The differential fuzzer (`loop-fuzz`) feeds valid programs and checks results; this one feeds
broken ones (`invalid_mutate`: mutated programs, random pipelines, options and targets) to
`loop-opt ... -t c` and to `loopopt.compile.emit`, and holds each outcome to the project's
rule for errors a user can cause (docs/fuzzing.md, "Hostile inputs"):

* exit 0 with C that gcc compiles with `-Wall -Wextra -Werror` and the target's flags, and,
  for a sample of df programs that pass, kernels that match the interpreter (`loop-run`);
* or a non-zero exit with a located diagnostic (`file:line:col: error:`; a command-line
  error, exit 2, may name only the input) and no traceback, no `internal error`.

Each case runs in a forked child of this process (the modules stay imported: ~20 ms a case
instead of a second's start-up) with a timeout, so a hang or a crash is a failure too.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from loopopt.tools.fuzz.invalid_mutate import Case, make_case, seed_texts

WERROR = ("-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-c", "-o", "/dev/null", "-x", "c")
"""The project's warning flags (test_c_warnings.py): printed C must compile under them."""

COMPILERS = {"neon": "aarch64-linux-gnu-gcc"}
RUNNABLE = ("scalar", "sse2", "avx2", "avx512")
LOCATED = re.compile(r"^\S.*:\d+:\d+: error: ", re.MULTILINE)
NAMED = re.compile(r"^\S[^\n]*: error: ", re.MULTILINE)
CHILD_CRASH = 70
"""The exit status of a child whose function raised: the traceback is on its stderr."""


@dataclasses.dataclass
class Outcome:
    """What one run of a case gave: exit status (None: timeout; negative: a signal), streams."""

    rc: int | None
    out: str
    err: str
    seconds: float


def run_forked(fn: Callable[[], int], timeout: float) -> Outcome:
    """`fn()` in a forked child with stdout/stderr captured; its return value is the exit status."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            rc = CHILD_CRASH
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                # new streams on fds 1 and 2: pytest's capture may have replaced sys.stdout/err
                sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
                rc = fn()
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
            except BaseException:  # noqa: BLE001 - an escaping exception is what we look for
                traceback.print_exc()
                rc = CHILD_CRASH
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(rc if isinstance(rc, int) and 0 <= rc < 256 else 1)
        rc: int | None = None
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Outcome(rc, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), seconds)


def compile_c(source: str, timeout: float = 60) -> str | None:
    """None when gcc compiles `source` warning-free with the flags its header names, else why not."""
    m = re.search(r"^ \* target: (\w+)(?: \(([^)]*)\))?", source, re.MULTILINE)
    isa = m.group(1) if m else "scalar"
    flags = [f for f in m.group(2).split() if f.startswith("-")] if m and m.group(2) else []
    cc = COMPILERS.get(isa, "gcc")
    try:
        proc = subprocess.run([cc, *flags, *WERROR, "-"], input=source, capture_output=True, text=True,
                              timeout=timeout)
    except FileNotFoundError:
        return None  # no cross compiler: nothing to check
    except subprocess.TimeoutExpired:
        return f"{cc} timed out"
    return None if proc.returncode == 0 else f"{cc} {' '.join(flags)}: {proc.stderr[-2000:]}"


UNLOCATED: Counter[str] = Counter()
"""`NAME: error: ...` diagnostics of exit status 1 (errors about the pipeline or target, not
about a place in the input): accepted, and listed by the summary for review."""


def judge_diagnostic(rc: int, err: str) -> tuple[str, str] | None:
    """A failure (class, message) for a non-zero exit, or None when it is a proper diagnostic."""
    if "Traceback" in err or rc == CHILD_CRASH:
        return "traceback", err[-3000:]
    if "internal error" in err:
        return "internal", err.strip()[:3000]
    if LOCATED.search(err) or (rc == 2 and NAMED.search(err)):
        return None
    named = NAMED.search(err)
    if named:
        line = err[named.end():].splitlines()[0] if err[named.end():] else ""
        UNLOCATED[re.sub(r"'[^']*'|\d+", "_", line)[:120]] += 1
        return None
    return "unlocated", f"exit {rc}: {err.strip()[:3000]}"


@dataclasses.dataclass
class Failure:
    kind: str
    message: str
    case: Case
    mode: str

    def signature(self) -> str:
        """The failure's shape: its class and first line without names and numbers."""
        first = next((ln for ln in self.message.splitlines() if "error" in ln or "Error" in ln),
                     self.message.splitlines()[0] if self.message else "")
        first = re.sub(r"^\S*:\d+:\d+: ", "", first)
        first = re.sub(r"'[^']*'|\"[^\"]*\"|%\S+|@\S+|\d+", "_", first)
        return f"{self.kind}: {first[:160]}"


def check_cli(case: Case, path: str, timeout: float, check_rate: float, rng: random.Random) -> Failure | None:
    """`loop-opt` on the case; then, for an accepted df program, `loop-run` against the interpreter."""
    from loopopt.tools import loop_opt

    got = run_forked(lambda: loop_opt.run(case.argv(path)), timeout)
    if got.rc is None:  # the machine may just be busy: a hang takes three times as long again
        got = run_forked(lambda: loop_opt.run(case.argv(path)), 3 * timeout)
    if got.rc is None:
        return Failure("timeout", f"loop-opt took more than {4 * timeout} s", case, "cli")
    if got.rc < 0:
        return Failure("crash", f"loop-opt died on signal {-got.rc}", case, "cli")
    if got.rc != 0:
        bad = judge_diagnostic(got.rc, got.err)
        return Failure(bad[0], bad[1], case, "cli") if bad else None
    if "Traceback" in got.err or "error" in got.err:
        return Failure("traceback" if "Traceback" in got.err else "bad_exit", f"exit 0 with: {got.err[-2000:]}",
                       case, "cli")
    if case.target.startswith("c") and got.out.strip():
        problem = compile_c(got.out)
        if problem is not None:
            return Failure("compile_error", problem, case, "cli")
    return check_run(case, path, timeout, check_rate, rng)


def check_run(case: Case, path: str, timeout: float, check_rate: float, rng: random.Random) -> Failure | None:
    """An accepted df program, compiled and run on a runnable ISA: it must match the interpreter."""
    if rng.random() >= check_rate or "!loop.buf" in case.text or "loop.target" in case.text:
        return None
    from loopopt.tools import loop_run

    isa = case.isa if case.isa in RUNNABLE else "scalar"
    argv = [path, "-t", isa, "--no-time", "-n", str(rng.choice((0, 1, 7, 33))), "--seed", str(rng.randrange(99))]
    if case.pipeline is not None and "target=" not in case.pipeline:
        argv += ["-p", case.pipeline]
    got = run_forked(lambda: loop_run.main(argv), timeout * 4)
    if got.rc is None:
        return Failure("timeout", "loop-run timed out", case, "run")
    if got.rc < 0:
        return Failure("crash", f"loop-run died on signal {-got.rc}", case, "run")
    if got.rc == 3:
        return Failure("mismatch", got.out[-3000:], case, "run")
    if got.rc != 0:
        if "target" in got.err and "cannot run" in got.err:
            return None
        bad = judge_diagnostic(got.rc, got.err)  # e.g. random range bounds that do not match the arrays
        return Failure(bad[0], bad[1], case, "run") if bad else None
    return None


def check_api(case: Case, timeout: float) -> Failure | None:
    """`loopopt.compile.emit` on the case: a `DiagnosticException` with a location, or C that compiles."""

    def child() -> int:
        from xdsl.utils.exceptions import DiagnosticException, ParseError

        from loopopt.compile import emit
        from loopopt.diagnostics import InternalError, format_diagnostic

        try:
            compiled = emit(case.text, target=case.isa, pipeline=case.pipeline or "")
        except InternalError as e:
            print(format_diagnostic(e, "<api>"), file=sys.stderr)
            return 1
        except (DiagnosticException, ParseError) as e:
            text = format_diagnostic(e, "<api>")
            print(text, file=sys.stderr)
            return 2 if "PipelineError" in type(e).__name__ else 3
        sys.stdout.write(compiled.c_source)
        return 0

    got = run_forked(child, timeout)
    if got.rc is None:
        got = run_forked(child, 3 * timeout)
    if got.rc is None:
        return Failure("timeout", f"emit took more than {4 * timeout} s", case, "api")
    if got.rc < 0:
        return Failure("crash", f"emit died on signal {-got.rc}", case, "api")
    if got.rc == 0:
        problem = compile_c(got.out)
        return Failure("compile_error", problem, case, "api") if problem else None
    bad = judge_diagnostic(2 if got.rc == 2 else 1, got.err)
    if got.rc == CHILD_CRASH:
        bad = ("traceback", got.err[-3000:])
    return Failure(bad[0], bad[1], case, "api") if bad else None


def check_jit(case: Case, timeout: float, rng: random.Random) -> Failure | None:
    """A hostile `loopopt.jit` call (invalid_jit): numpy's answer or a clean error."""
    from loopopt.tools.fuzz.invalid_jit import make_jit_case, run_jit_case

    jit_case = make_jit_case(rng, case.isa)
    case = dataclasses.replace(case, text=jit_case.describe(), pipeline=None, how=["jit"], seed_name="jit")

    def child() -> int:
        verdict = run_jit_case(jit_case)
        if verdict is not None:
            print(f"{verdict[0]}\n{verdict[1]}", file=sys.stderr)
        return 0 if verdict is None else 1

    got = run_forked(child, 4 * timeout)
    if got.rc is None:
        return Failure("timeout", f"the jit call took more than {4 * timeout} s", case, "jit")
    if got.rc < 0:
        return Failure("crash", f"the jit call died on signal {-got.rc}", case, "jit")
    if got.rc == CHILD_CRASH:
        return Failure("traceback", got.err[-3000:], case, "jit")
    if got.rc != 0:
        kind, _, message = got.err.partition("\n")
        return Failure(kind.strip() or "jit", message[-3000:], case, "jit")
    return None


def save(failure: Failure, out_dir: Path, k: int) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"{failure.kind}_{k:03d}"
    Path(f"{stem}.mlir").write_text(failure.case.text)
    meta = {"kind": failure.kind, "mode": failure.mode, "argv": failure.case.argv(f"{stem}.mlir"),
            "isa": failure.case.isa, "how": failure.case.how, "seed_program": failure.case.seed_name,
            "message": failure.message}
    Path(f"{stem}.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    return stem


def fuzz(seed: int, cases: int, *, timeout: float = 30.0, check_rate: float = 0.1, api_rate: float = 0.25,
         jit_rate: float = 0.1,
         out_dir: Path | None = None, budget: float | None = None, log: Callable[[str], None] | None = None) -> tuple[Counter[str], dict[str, Failure]]:
    """Run `cases` hostile cases from `seed`; the outcome counts and one failure per signature."""
    rng = random.Random(seed)
    seeds = seed_texts()
    counts: Counter[str] = Counter()
    failures: dict[str, Failure] = {}
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="loopopt-invalid-") as tmp:
        for n in range(cases):
            if budget is not None and time.monotonic() - start > budget:
                break
            case_seed = rng.randrange(2**31)
            case = make_case(random.Random(case_seed), seeds, case_seed)
            path = os.path.join(tmp, f"case{hashlib.sha1(case.text.encode('utf-8', 'replace')).hexdigest()[:8]}.mlir")
            Path(path).write_text(case.text, encoding="utf-8", errors="surrogateescape")
            r = rng.random()
            mode = "api" if r < api_rate else "jit" if r < api_rate + jit_rate else "cli"
            if mode == "api":
                failure = check_api(case, timeout)
            elif mode == "jit":
                failure = check_jit(case, timeout, rng)
            else:
                failure = check_cli(case, path, timeout, check_rate, rng)
            counts["cases"] += 1
            counts[mode] += 1
            if log and counts["cases"] % 200 == 0:
                log(f"{counts['cases']} cases, {time.monotonic() - start:.0f} s: "
                    + " ".join(f"{k}={v}" for k, v in sorted(counts.items()) if k != "cases"))
            if failure is None:
                continue
            counts[failure.kind] += 1
            sig = failure.signature()
            if sig not in failures:
                failures[sig] = failure
                if out_dir is not None:
                    stem = save(failure, out_dir, len(failures))
                    sig += f"  [{stem.name}]"
                if log:
                    log(f"case {n} ({case.seed_name}, {'+'.join(case.how)}): {sig}")
    return counts, failures


def replay(meta_path: Path, timeout: float) -> int:
    """A saved failure (`--out`'s .json and .mlir) run again: 2 while it still fails."""
    meta = json.loads(meta_path.read_text())
    text_path = meta_path.with_suffix(".mlir")
    argv = meta["argv"]
    pipeline = argv[argv.index("-p") + 1] if "-p" in argv else None
    case = Case(text_path.read_text(), pipeline, argv[argv.index("-t") + 1], meta["isa"], meta["how"],
                meta["seed_program"])
    if meta["mode"] == "jit":
        print("jit failures are not replayable: the case is in the message", file=sys.stderr)
        return 1
    if meta["mode"] == "api":
        failure = check_api(case, timeout)
    else:
        failure = check_cli(case, str(text_path), timeout, 1.0 if meta["mode"] == "run" else 0.0, random.Random(0))
    print("passes now" if failure is None else f"{failure.kind}: {failure.message}")
    return 0 if failure is None else 2


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m loopopt.tools.fuzz.invalid",
                                description="Feed hostile programs, pipelines and targets to loop-opt and "
                                "loopopt.compile; report tracebacks, unlocated errors, bad C and hangs.")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cases", type=int, default=200)
    p.add_argument("--budget", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds per case (default 30; a case over it runs again with three times as long)")
    p.add_argument("--check-rate", type=float, default=0.1,
                   help="share of accepted df programs also run against the interpreter (default 0.1)")
    p.add_argument("--api-rate", type=float, default=0.25, help="share of cases given to loopopt.compile.emit")
    p.add_argument("--jit-rate", type=float, default=0.1, help="share of cases that are hostile loopopt.jit calls")
    p.add_argument("--out", type=Path, default=None, help="write each distinct failure here (.mlir + .json)")
    p.add_argument("--replay", type=Path, default=None, metavar="FAILURE.json",
                   help="run one saved failure again (cli and api cases) and print its outcome")
    args = p.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay, args.timeout)
    counts, failures = fuzz(args.seed, args.cases, timeout=args.timeout, check_rate=args.check_rate,
                            api_rate=args.api_rate, jit_rate=args.jit_rate, out_dir=args.out, budget=args.budget,
                            log=lambda s: print(s, flush=True))
    print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    for sig in failures:
        print(f"  {sig}")
    if UNLOCATED:
        print("diagnostics without a line:col (accepted; review):")
        for message, k in UNLOCATED.most_common(20):
            print(f"  {k:5d}  {message}")
    return 2 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
