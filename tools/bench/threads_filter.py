"""Parallel filter drivers side by side (by hand, not CI): the super-block driver against the
scratch-and-copy one and one thread, interleaved in one process (docs/threads.md).
    .venv/bin/python -m loopopt.tools.bench.threads_filter [--n 16777216,6291456,2097152]
        [--repeat 41] [--cpu native] [--kernels filter_scale,filter_i32]
Compiles bench.threads' filter→map (`a*x` for x > 0, f32, half selected) and a plain i32
filter three times for the best ISA and `--cpu`: `loop-pipeline{parallel=-1}` with the
default plan (super-blocks; an output at the streaming threshold or more compacted through an
L1 stage and written with non-temporal stores, in place below), with
`filter_block_stream=false` (super-blocks in place at every size) and with `filter_block=0`
(chunks into scratch + non-temporal copies, the driver before session 21). Each round calls 1 thread (the serial kernel) and the three
on 2 threads once, rotating the order; prints best and median ms per call, the 2 / 1 ratios,
the CPU and the load average before and after; checks every variant's output once against
numpy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes
from loopopt.runtime import best_isa
from loopopt.tools.bench.env import cpu_model, loopopt_cpu
from loopopt.tools.bench.threads import SOURCE

FILTER_I32 = r"""
func.func @filter_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %pos : !df.array<i32, [k]>
}
"""
DRIVERS: dict[str, dict] = {"blocks": {"filter_block": -1},
                            "blocks in place": {"filter_block": -1, "filter_block_stream": False}, "scratch+copy": {}}
"""variant -> loop-pipeline options (through the pipeline, not loop-parallelize alone: super-blocks
also need its derive-filter-count; without `<k>__count` the scratch driver is printed)"""


def pipeline(isa: str, cpu: str, extra: dict) -> str:
    return LoopPipelinePass(target=isa, cpu=cpu, parallel=-1, **extra).spelling(set(_all_passes()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", default="16777216,6291456,2097152")
    ap.add_argument("--repeat", type=int, default=41)
    ap.add_argument("--cpu", default="native")
    ap.add_argument("--kernels", default="filter_scale,filter_i32")
    a = ap.parse_args()
    isa = best_isa()
    built = {v: loopopt_compile(SOURCE + FILTER_I32, target=isa, pipeline=pipeline(isa, a.cpu, extra)) for v, extra in DRIVERS.items()}
    for v, extra in DRIVERS.items():  # each variant is the driver it names
        assert ("filter_scale__count" in built[v].c_source) == bool(extra), v
    print(f"CPU: {cpu_model()}; loopopt cpu {loopopt_cpu()}; isa {isa}, cpu={a.cpu}; {os.cpu_count()} cores")
    rng = np.random.default_rng(21)
    for n in (int(s) for s in a.n.split(",")):
        for kernel in a.kernels.split(","):
            if kernel == "filter_scale":
                x = rng.standard_normal(n).astype(np.float32)
                args: tuple = (x, np.float32(2.0))
                want = np.float32(2.0) * x[x > 0]
            else:
                x = rng.integers(-1000, 1000, n).astype(np.int32)
                args = (x,)
                want = x[x > 0]
            out = np.empty(n, want.dtype)
            variants = {"1 thread": (1, built["scratch+copy"])} | {f"2T {v}": (2, k) for v, k in built.items()}
            for name, (t, k) in variants.items():
                loopopt.set_num_threads(t)
                got = k.functions[kernel](*args, out)
                got = got[0] if isinstance(got, tuple) else got
                assert int(got) == len(want) and out[: len(want)].tobytes() == want.tobytes(), (name, n)
            load0 = os.getloadavg()
            times: dict[str, list[float]] = {v: [] for v in variants}
            order = list(variants.items())
            for r in range(a.repeat):
                for name, (t, k) in order[r % len(order) :] + order[: r % len(order)]:
                    loopopt.set_num_threads(t)
                    fn = k.functions[kernel]
                    t0 = time.perf_counter()
                    fn(*args, out)
                    times[name].append(time.perf_counter() - t0)
            load1 = os.getloadavg()
            one = min(times["1 thread"])
            print(f"\n{kernel}, n = {n}, best / median of {a.repeat} rounds, load {load0[0]:.1f} -> {load1[0]:.1f}")
            print("| variant | best ms | median ms | best vs 1 thread |")
            print("|---|---|---|---|")
            for name, v in times.items():
                print(f"| {name} | {min(v) * 1e3:.3f} | {statistics.median(v) * 1e3:.3f} | {one / min(v):.2f}x |")


if __name__ == "__main__":
    main()
