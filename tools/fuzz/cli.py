"""`loop-fuzz`: random df programs, compiled for every ISA, checked against a numpy evaluator.

    loop-fuzz --seed 1 --budget 60s --isas scalar,sse2,avx2,neon --out fuzz-out
    loop-fuzz --programs 400 --seed 7            # a fixed amount instead of a time budget
    loop-fuzz --replay fuzz-out/mismatch_avx2_000.pkl

Prints a table per ISA (programs, runs, mismatches, internal errors, compile errors,
crashes, timeouts, rejected) and writes every failure, minimized, as a standalone .mlir
(with the failure in comments) into --out, plus summary.json. Exit status 0 when there was
no failure (rejections are not failures), 2 when there was one, 1 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .generate import CONSTRUCTS, DEFAULT_EXCLUDE, GenOptions, Generator
from .minimize import minimize, write_failure
from .program import DTYPES, NARROW
from .runner import FAILURES, BatchRunner, Failure, Stats, reproduce



def parse_budget(text: str) -> float:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(s|m|h)?", text.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"budget {text!r}: expected e.g. 90s, 10m, 1h")
    return float(m.group(1)) * {"s": 1, "m": 60, "h": 3600, None: 1}[m.group(2)]


def default_isas() -> list[str]:
    from loopopt import runtime

    isas = list(runtime.isa.host_isas())
    if runtime.isa.neon_runner_available()[0]:
        isas.append("neon")
    if "avx512" not in isas:
        isas.append("avx512")  # compiled only
    return isas


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"loop-fuzz: error: {message}", file=sys.stderr)
        raise SystemExit(1)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="loop-fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None, help="first seed (default: from the clock)")
    p.add_argument("--budget", type=parse_budget, default=None, help="time budget (60s, 10m)")
    p.add_argument("--programs", type=int, default=None, help="stop after this many programs")
    p.add_argument("--isas", default=None, help="comma-separated ISAs (default: this CPU's, neon, avx512 compiled only)")
    p.add_argument("--batch", type=int, default=40, help="kernels per compiled module")
    p.add_argument("--neon-sample", type=int, default=20, help="kernels of each batch run under qemu")
    p.add_argument("--foreign-sample", type=int, default=10, help="kernels of each batch compiled for an ISA this CPU cannot run")
    p.add_argument("--dtypes", default=",".join(DTYPES + NARROW))
    p.add_argument("--exclude", default="", help=f"constructs to leave out: {', '.join(CONSTRUCTS)}")
    p.add_argument("--include", default="", help="constructs to put back from the default exclusions")
    p.add_argument("--small", action="store_true", help="sizes up to ~127 only (faster)")
    p.add_argument("--configs", action="store_true",
                   help="compile each batch per ISA with a random cpu= and, half of the time, parallel=N with small chunks and 1-4 threads")
    p.add_argument("--cpus", default=None,
                   help="with --configs: the cpu= values to choose from (comma-separated; 'none' for no cpu=)")
    p.add_argument("--big", type=float, default=0.0,
                   help="chance that a kernel the evaluator runs fast also gets a size past the L2 (65 Ki-512 Ki elements)")
    p.add_argument("--out", type=Path, default=Path("fuzz-out"))
    p.add_argument("--minimize", type=int, default=8, help="minimize at most this many distinct failures")
    p.add_argument("--replay", type=Path, default=None, help="re-run one saved failure (.pkl)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = build_parser()
    args = p.parse_args(argv)
    if args.replay is not None:
        f: Failure = pickle.loads(args.replay.read_bytes())
        got = reproduce(f.kernel, f.isa, f.n or 0, f.seed or 0, getattr(f, "config", None))
        print("reproduced:" if got else "does not reproduce", got.cls if got else "", got.message if got else "")
        return 2 if got else 0
    exclude = set(DEFAULT_EXCLUDE) - set(filter(None, args.include.split(",")))
    exclude |= set(filter(None, args.exclude.split(",")))
    unknown = sorted(exclude - set(CONSTRUCTS))
    if unknown:
        p.error(f"unknown construct(s) {', '.join(unknown)}; known: {', '.join(CONSTRUCTS)}")
    dtypes = tuple(d for d in args.dtypes.split(",") if d)
    if not dtypes or set(dtypes) - set(DTYPES + NARROW):
        p.error(f"--dtypes: choose from {', '.join(DTYPES + NARROW)}")
    isas = args.isas.split(",") if args.isas else default_isas()
    from loopopt.runtime.isa import ISAS

    from .runner import EMIT_ONLY, SANITIZED

    if {i.removeprefix(SANITIZED).removeprefix(EMIT_ONLY) for i in isas} - set(ISAS) or "san-neon" in isas:
        p.error(f"--isas: choose from {', '.join(ISAS)} (san-<isa>: the sanitized build of a native one; "
                "emit-<isa>: the pipeline and the C printer only)")
    if args.budget is None and args.programs is None:
        args.budget = 60.0
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
    options = GenOptions(dtypes=dtypes, exclude=frozenset(exclude))
    stats = Stats()
    runner = BatchRunner(isas, stats, neon_sample=args.neon_sample, small_sizes=args.small,
                         compile_only_sample=args.foreign_sample, configs=args.configs, big=args.big)
    if args.cpus:
        from loopopt.dialects.cpu_models import CPUS as MODELS

        runner.cpus = tuple("" if c == "none" else c for c in args.cpus.split(","))
        if set(runner.cpus) - {"", *MODELS}:
            p.error(f"--cpus: choose from none, {', '.join(MODELS)}")
    start = time.monotonic()
    made = 0
    batch = 0
    print(f"loop-fuzz: seed {seed}, ISAs {','.join(isas)}, excluded: {','.join(sorted(exclude)) or 'nothing'}", flush=True)
    while True:
        if args.programs is not None and made >= args.programs:
            break
        if args.budget is not None and time.monotonic() - start >= args.budget:
            break
        count = args.batch if args.programs is None else min(args.batch, args.programs - made)
        kernels = []
        for k in range(count):
            s = seed * 100_003 + made + k
            kernels.append(Generator(s, options).kernel(f"f{s}"))
        runner.run_batch(kernels, seed * 7919 + batch)
        made += count
        batch += 1
        print(f"  {made} programs, {time.monotonic() - start:.0f}s, failures {len(runner.failures)}", flush=True)
    elapsed = time.monotonic() - start
    written = report_failures(runner.failures, args.out, args.minimize)
    print(stats.table())
    failures = sum(stats.total(c) for c in FAILURES)
    print(f"{made} programs generated in {elapsed:.0f}s; failures: {failures}; rejected: {stats.total('rejected')}")
    for msg, n in runner.rejected.most_common(10):
        print(f"  rejected x{n}: {msg}")
    for path in written:
        print(f"  wrote {path}")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps({
        "seed": seed, "isas": isas, "programs": made, "seconds": round(elapsed, 1),
        "excluded": sorted(exclude), "per_isa": {k: dict(v) for k, v in stats.per_isa.items()},
        "rejected": dict(runner.rejected), "failures": [str(p) for p in written],
    }, indent=2))  # fmt: skip
    return 2 if failures else 0


def report_failures(failures: list[Failure], out: Path, limit: int) -> list[Path]:
    """Write each failing kernel once (the ISAs it failed on in the header); minimize the
    first `limit` distinct (class, message) ones."""
    written: list[Path] = []
    seen: set[tuple[str, str]] = set()
    by_kernel: dict[tuple[str, str], list[Failure]] = {}
    for f in failures:
        by_kernel.setdefault((f.kernel.name, f.cls), []).append(f)
    for group in by_kernel.values():
        f = group[0]
        key = (f.cls, re.sub(r"[0-9]+|%[a-z_0-9]+", "#", f.message.splitlines()[0] if f.message else "")[:80])
        small = f
        if key not in seen and len(seen) < limit and f.cls != "evaluator_error":
            seen.add(key)
            try:
                small = minimize(f)
            except Exception as e:  # noqa: BLE001 - keep the unminimized failure
                print(f"  minimizing failed: {type(e).__name__}: {e}", file=sys.stderr)
        small.message = f"failed on: {', '.join(g.isa for g in group)}\n{small.message}"
        written.append(write_failure(small, out, len(written), f))
    return written


if __name__ == "__main__":
    sys.exit(main())
