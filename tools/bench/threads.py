"""Benchmark parallel kernels (by hand, not CI): 1 vs 2 threads at 16 Mi, and the small-size cost.

    .venv/bin/python -m loopopt.tools.bench.threads [--n 16777216] [--small 1024] [--repeat 7]

For a map (a*x+b), a fold (sum, f32 reassoc) and a filter→map (a*x for x > 0, compacted) it
compiles the module twice for the best ISA — serial (`loop-pipeline`) and parallel
(`loop-pipeline{parallel=-1}`) — and prints a markdown table of the best wall time of
`--repeat` calls (outputs preallocated, C parameter order): serial, parallel with 1 thread,
parallel with 2 threads, and the speed-up 2 threads / 1 thread; then the same at `--small`
elements (below the threshold, where the driver calls the serial kernel), per call, over
many calls. docs/threads.md holds the latest run.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import best_isa
from loopopt.tools.bench.env import cpu_model

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


def best(fn, repeat: int, inner: int = 1, clock=time.perf_counter) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = clock()
        for _ in range(inner):
            fn()
        times.append((clock() - t) / inner)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--small", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    isa = best_isa()
    serial = loopopt_compile(SOURCE, target=isa, pipeline=f"loop-pipeline{{target={isa}}}")
    par = loopopt_compile(SOURCE, target=isa, pipeline=f"loop-pipeline{{target={isa} parallel=-1}}")
    rng = np.random.default_rng(0)
    print(f"CPU: {cpu_model()}, ISA {isa}\n")
    # Large: wall time (the work spans threads). Small: below the threshold everything runs on
    # this thread, so its CPU time (immune to preemption on a loaded machine) is the measure.
    for n, inner, unit, scale, clock in (
        (args.n, 1, "ms", 1e3, time.perf_counter),
        (args.small, 20000, "µs", 1e6, time.thread_time),
    ):
        x = rng.standard_normal(n).astype(np.float32)
        what = "wall" if clock is time.perf_counter else "CPU time of this thread"
        print(f"n = {n}: best of {args.repeat} ({unit} per call, {what}; load average {os.getloadavg()[0]:.1f})\n")
        print("| kernel | serial | parallel, 1 thread | parallel, 2 threads | 2 threads / 1 thread | parallel 1 thread / serial |")
        print("|---|---|---|---|---|---|")
        for name in ("axpb", "sum", "filter_scale"):
            run = calls(name, x)
            loopopt.set_num_threads(1)
            t_serial = best(lambda: run(serial[name]), args.repeat, inner, clock)
            t1 = best(lambda: run(par[name]), args.repeat, inner, clock)
            loopopt.set_num_threads(2)
            t2 = best(lambda: run(par[name]), args.repeat, inner, clock)
            print(
                f"| {name} | {t_serial * scale:.3f} | {t1 * scale:.3f} | {t2 * scale:.3f} | "
                f"{t1 / t2:.2f}× | {t1 / t_serial:.3f} |"
            )
        print()
    loopopt.set_num_threads(0)


if __name__ == "__main__":
    main()
