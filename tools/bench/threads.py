"""Benchmark parallel kernels (by hand, not CI): 1 vs 2 threads at 16 Mi, and the small-size cost.

    .venv/bin/python -m loopopt.tools.bench.threads [--n 16777216] [--small 1024] [--repeat 15]

For a map (a*x+b), a fold (sum, f32 reassoc) and a filter→map (a*x for x > 0, compacted) it
compiles the module twice for the best ISA — serial (`loop-pipeline`) and parallel
(`loop-pipeline{parallel=-1}`) — and prints a markdown table of the best wall time over
`--repeat` interleaved rounds (each round calls serial, parallel with 1 thread and parallel
with 2 threads once, outputs preallocated, C parameter order) and the speed-up 2 threads /
1 thread; then the same at `--small` elements (below the threshold, where the driver calls
the serial kernel), per call, over many calls; with the load average before and after each
table (the machine may be shared). docs/threads.md holds the latest run.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import best_isa
from loopopt.tools.bench.env import cpu_model, loopopt_cpu

SOURCE = r"""
func.func @axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @filter_scale(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [k]>
}
"""


def calls(name: str, x: np.ndarray):
    out = np.empty_like(x)
    return {
        "axpb": lambda f: f(x, np.float32(2.0), np.float32(1.0), out),
        "sum": lambda f: f(x),
        "filter_scale": lambda f: f(x, np.float32(2.0), out),
    }[name]


def interleaved(variants: dict[str, tuple[int, Callable[[], None]]], repeat: int, inner: int, clock) -> dict[str, float]:
    """Best time per call of each variant (threads, call) over `repeat` rounds; every round
    runs each variant once (`inner` calls) in turn, so a load change hits all of them alike."""
    times: dict[str, list[float]] = {k: [] for k in variants}
    for threads, fn in variants.values():
        loopopt.set_num_threads(threads)
        fn()  # warm: page faults, the OpenMP pool
    for _ in range(repeat):
        for name, (threads, fn) in variants.items():
            loopopt.set_num_threads(threads)
            t = clock()
            for _ in range(inner):
                fn()
            times[name].append((clock() - t) / inner)
    return {k: min(v) for k, v in times.items()}


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "/".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--small", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    isa = best_isa()
    serial = loopopt_compile(SOURCE, target=isa, pipeline=f"loop-pipeline{{target={isa}}}")
    par = loopopt_compile(SOURCE, target=isa, pipeline=f"loop-pipeline{{target={isa} parallel=-1}}")
    rng = np.random.default_rng(0)
    print(f"CPU: {cpu_model()}; loopopt cpu {loopopt_cpu()}; ISA {isa}; {os.cpu_count()} cores\n")
    # Large: wall time (the work spans threads). Small: below the threshold everything runs on
    # this thread, so its CPU time (immune to preemption on a loaded machine) is the measure.
    for n, inner, unit, scale, clock in (
        (args.n, 1, "ms", 1e3, time.perf_counter),
        (args.small, 20000, "µs", 1e6, time.thread_time),
    ):
        x = rng.standard_normal(n).astype(np.float32)
        what = "wall" if clock is time.perf_counter else "CPU time of this thread"
        before = loadavg()
        print(f"n = {n}: best of {args.repeat} interleaved rounds ({unit} per call, {what})\n")
        print("| kernel | serial | parallel, 1 thread | parallel, 2 threads | 2 threads / 1 thread | parallel 1 thread / serial |")
        print("|---|---|---|---|---|---|")
        for name in ("axpb", "sum", "filter_scale"):
            run = calls(name, x)
            best = interleaved(
                {
                    "serial": (1, lambda: run(serial[name])),
                    "1": (1, lambda: run(par[name])),
                    "2": (2, lambda: run(par[name])),
                },
                args.repeat, inner, clock,
            )  # fmt: skip
            t_serial, t1, t2 = best["serial"], best["1"], best["2"]
            print(
                f"| {name} | {t_serial * scale:.3f} | {t1 * scale:.3f} | {t2 * scale:.3f} | "
                f"{t1 / t2:.2f}× | {t1 / t_serial:.3f} |"
            )
        print(f"\nload average (1, 5, 15 min) before {before}, after {loadavg()}\n")
    loopopt.set_num_threads(0)


if __name__ == "__main__":
    main()
