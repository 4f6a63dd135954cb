"""`loop-bench`: loopopt's generated code against the kernel library, gcc, numpy, BLAS and STREAM.

    loop-bench                                     # the full run (several minutes), into results/<cpu>/
    loop-bench --quick --out /tmp/b                # tiny sizes, one trial (CI smoke)
    loop-bench --patterns sum,axpy --sizes 1Ki,16Mi --dtypes f32 --isa avx2,avx512
    loop-bench --patterns softmax,cumsum,row_sum,matvec,matmul --sizes 64Ki,1Mi   # issue 12's rows

Writes <out>/README.md (the tables and the targets), <out>/bench.png (the plot, with the
`bench` extra's matplotlib), <out>/bench.json (raw numbers) and <out>/generated/<isa>.c
(the C loopopt generated, for reading next to the numbers). <out> is by default
results/<vendor>-<cpu model>/ (results/amd-zen4/): one folder per CPU, so runs on
different machines sit side by side.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from loopopt import runtime

from .bench import blas as bench_blas, env as bench_env, report as bench_report
from .bench.cells import measure_all
from .bench.impls import build_all
from .bench.overhead import measure_overheads
from .bench.patterns import DTYPES, PATTERNS, QUICK_SIZES, SIZES, parse_size
from .bench.plot import plot
from .bench.rotation import llc_bytes
from .bench.timing import QUICK, TimingConfig


NO_ROTATION = 1 << 62
"""An LLC size no cell exceeds: --no-rotate."""


def _list(text: str | None, valid: Sequence[str], what: str) -> list[str] | None:
    if text is None:
        return None
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in valid]
    if bad:
        raise SystemExit(f"loop-bench: unknown {what} {', '.join(bad)}; expected some of {', '.join(valid)}")
    return items


def default_out() -> Path:
    """results/<vendor>-<cpu model> of this machine (lowering/target.py's detection)."""
    from loopopt.lowering.target import native_cpu

    cpu = native_cpu()
    return Path("results") / f"{cpu.vendor}-{cpu.name}"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="loop-bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="results folder (default: results/<vendor>-<cpu model>, e.g. results/amd-zen4)")
    ap.add_argument("--quick", action="store_true", help="tiny sizes, one short trial, best ISA only, no 10k-op module (CI smoke)")
    ap.add_argument("--patterns", help=f"comma-separated subset of {','.join(PATTERNS)}")
    ap.add_argument("--sizes", help="comma-separated element counts, e.g. 1Ki,64Ki,1Mi,16Mi (default) or 5000")
    ap.add_argument("--dtypes", help=f"comma-separated subset of {','.join(DTYPES)}")
    ap.add_argument("--isa", help=f"comma-separated ISAs to run loopopt and the kernel library for (default: all this CPU runs: {','.join(runtime.host_isas())})")
    ap.add_argument("--trials", type=int, help="trials per implementation (default 15; --quick 1)")
    ap.add_argument("--far-trials", type=int,
                    help="trials for cells beyond the LLC, within a 30 s budget per cell (default 41; --quick 1)")
    ap.add_argument("--min-sample-ms", type=float, help="minimum length of one timing sample (default 1 ms)")
    ap.add_argument("--no-rotate", action="store_true",
                    help="time cells beyond the LLC on one buffer set, call after call (before session 22; bench/rotation.py)")
    ap.add_argument("--fixed-placement", action="store_true",
                    help="time every trial of a cell within the LLC on one buffer set, wherever numpy put it "
                         "(before session 31; default: a new placement per trial, bench/placement.py)")
    ap.add_argument("--no-compile-time", action="store_true", help="skip the call-overhead and compile-time measurements")
    ap.add_argument("--report-from", type=Path, metavar="BENCH_JSON",
                    help="measure nothing: render README.md (and the plot) again from a run's bench.json, into --out "
                         "(default: that file's folder)")
    return ap.parse_args(argv)


def write_report(run: bench_report.Run, out: Path) -> Path | None:
    """README.md (with the plot, and a link to a hand-written analysis.md if the folder has one)."""
    png = plot(run, out / "bench.png")
    extra = ["![GB/s by pattern and size](bench.png)" if png else "(no plot: install the `bench` extra for matplotlib)", ""]
    if (out / "analysis.md").exists():
        extra += ["Why targets are missed, with the generated code and what the pipeline should change: "
                  "[analysis.md](analysis.md) (written by hand about one run; re-check it against the numbers above).", ""]
    (out / "README.md").write_text(bench_report.markdown(run, extra))
    return png


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report_from is not None:
        try:
            run = bench_report.from_json(args.report_from.read_text())
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"loop-bench: error: cannot read a run from {args.report_from}: {e}", file=sys.stderr)
            return 1
        out = args.out or args.report_from.parent
        out.mkdir(parents=True, exist_ok=True)
        write_report(run, out)
        print(f"wrote {out / 'README.md'}", file=sys.stderr)
        return 0
    patterns = [PATTERNS[p] for p in (_list(args.patterns, list(PATTERNS), "pattern") or PATTERNS)]
    dtypes = _list(args.dtypes, list(DTYPES), "dtype") or list(DTYPES)
    host = runtime.host_isas()
    isas = _list(args.isa, list(host), "ISA (this CPU runs)") or ([host[-1]] if args.quick else list(host))
    isas = [i for i in host if i in isas]  # weakest first; the last is "best"
    if args.sizes:
        sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list((QUICK_SIZES if args.quick else SIZES).values())
    config = QUICK if args.quick else TimingConfig()
    if args.trials is not None:
        config = replace(config, trials=args.trials)
    if args.far_trials is not None:
        config = replace(config, far_trials=args.far_trials)
    if args.min_sample_ms is not None:
        config = replace(config, min_sample=args.min_sample_ms * 1e-3)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    started = time.perf_counter()
    env = bench_env.environment(tuple(isas))
    env["blas"] = bench_blas.single_thread()
    llc = None if args.no_rotate else llc_bytes()
    env["rotation_llc_bytes"] = llc
    env["placement"] = "fixed" if args.fixed_placement else "per-trial"
    log(f"loop-bench: {env['cpu']}; ISAs {', '.join(isas)}; sizes {', '.join(map(str, sizes))}; building ...")
    built = build_all(patterns, dtypes, isas)
    pipelines = {isa: b.pipeline for isa, b in built.loopopt.items()}
    build_errors = {k: v for k, v in {**{f"kernels/{i}": l for i, l in built.kernels.items()}, **built.gcc,
                                       "STREAM": built.stream}.items() if isinstance(v, str)}
    log(f"built in {time.perf_counter() - started:.1f} s; measuring ...")
    streams, cells = measure_all(built, patterns, dtypes, sizes, config, log=log, llc=llc or NO_ROTATION,
                                 placement=not args.fixed_placement)
    overheads = None
    if not args.no_compile_time:
        overheads = measure_overheads(isas[-1], config, full=not args.quick, log=log)
    env["load_average_end"] = bench_env.load_average()
    env["wall_time_s"] = round(time.perf_counter() - started, 1)
    run = bench_report.Run(env, tuple(isas), pipelines, config, streams, cells, overheads, build_errors)

    out: Path = args.out or default_out()
    out.mkdir(parents=True, exist_ok=True)
    generated = out / "generated"
    generated.mkdir(exist_ok=True)
    for isa, b in built.loopopt.items():
        sources = list(dict.fromkeys(b.c_sources.values()))
        if sources:
            (generated / f"{isa}.c").write_text("\n".join(sources))
    png = write_report(run, out)
    (out / "bench.json").write_text(bench_report.to_json(run))
    log(f"wrote {out / 'README.md'}" + (f", {png}" if png else "") + f" in {env['wall_time_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
