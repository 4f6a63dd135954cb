"""Parallel filter drivers side by side (by hand, not CI): the super-block driver against the
scratch-and-copy one and one thread, interleaved in one process (docs/threads.md).
    .venv/bin/python -m loopopt.tools.bench.threads_filter [--n 16777216,6291456,2097152]
        [--repeat 41] [--cpu native] [--kernels filter_scale,filter_i32] [--rt]
Compiles bench.threads' filter→map (`a*x` for x > 0, f32, half selected) and a plain i32
filter four times for the best ISA and `--cpu`: `loop-pipeline{parallel=-1}` with
`filter_block=-1` (super-blocks at every size; an output at the streaming threshold or more
compacted through an L1 stage and written with non-temporal stores, in place below), with
`filter_block_stream=false` too (super-blocks in place at every size), with `filter_block=0`
(chunks into scratch + non-temporal copies) and with the default (the CPU model's choice per
call size, `Costs.filter_blocks`). Each round calls 1 thread
(the serial kernel) and the drivers on 2 threads once, and the hand non-temporal copy
(bench.threads' ceiling: what the memory gives two threads at that moment; this VM's is
bimodal, 1.2x or 1.9x) on 1 and 2 threads; prints best and median ms per
call and the median CPU time of the process per call (all threads: the work, spins included;
run with OMP_WAIT_POLICY=passive so idle threads do not spin), the 2 / 1 ratios, the CPU and
the load average before and after; checks every variant's output once against numpy.

`--rt` (root): the timed rounds run under SCHED_FIFO (every thread of the process), so on a
machine shared with other work the threads get both cores whenever they run: best, first
quartile and median then agree within a few % at load 10-14 (docs/threads.md, "Zen 4 (session
25)"), where without it medians were 10-50 ms. The other processes stop for those seconds.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import time

import numpy as np

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes
from loopopt.runtime import best_isa
from loopopt.tools.bench.env import cpu_model, loopopt_cpu
from loopopt.tools.bench.threads import SOURCE, ceiling_calls, hand_loops, realtime

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
                            "blocks in place": {"filter_block": -1, "filter_block_stream": False},
                            "scratch+copy": {"filter_block": 0}, "default": {}}
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
    ap.add_argument("--rt", action="store_true", help="time under SCHED_FIFO (root)")
    a = ap.parse_args()
    isa = best_isa()
    built = {v: loopopt_compile(SOURCE + FILTER_I32, target=isa, pipeline=pipeline(isa, a.cpu, extra)) for v, extra in DRIVERS.items()}
    for v, extra in DRIVERS.items():  # each variant is the driver it names (the default: the CPU's choice per size)
        assert "filter_block" not in extra or ("filter_scale__count" in built[v].c_source) == (extra["filter_block"] != 0), v
    print(f"CPU: {cpu_model()}; loopopt cpu {loopopt_cpu()}; isa {isa}, cpu={a.cpu}; {os.cpu_count()} cores; "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '(unset)')}{'; SCHED_FIFO' if a.rt else ''}")
    lib = hand_loops()
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
            calls = {name: (t, functools.partial(k.functions[kernel], *args, out)) for name, (t, k) in variants.items()}
            if lib is not None:
                copy = ceiling_calls(lib, x.view(np.float32), x.view(np.float32), out.view(np.float32), 1)
                calls["hand copy NT 1T"] = (1, copy["copy, non-temporal"])
                calls["hand copy NT 2T"] = (1, ceiling_calls(lib, x.view(np.float32), x.view(np.float32), out.view(np.float32), 2)["copy, non-temporal"])
            load0 = os.getloadavg()
            times: dict[str, list[float]] = {v: [] for v in calls}
            cpu: dict[str, list[float]] = {v: [] for v in calls}
            order = list(calls.items())
            shuffle = random.Random(0).shuffle
            if a.rt:
                realtime(True)
            try:
                for _ in range(a.repeat):
                    shuffle(order)
                    for name, (t, fn) in order:
                        loopopt.set_num_threads(t)
                        fn()  # untimed: the caches as this variant leaves them (bench.threads.interleaved)
                        c0, t0 = time.process_time(), time.perf_counter()
                        fn()
                        times[name].append(time.perf_counter() - t0)
                        cpu[name].append(time.process_time() - c0)
            finally:
                if a.rt:
                    realtime(False)
            load1 = os.getloadavg()
            one = min(times["1 thread"])
            print(f"\n{kernel}, n = {n}, best / median of {a.repeat} rounds, load {load0[0]:.1f} -> {load1[0]:.1f}")
            print("| variant | best ms | q1 ms | median ms | CPU ms (median) | best vs 1 thread |")
            print("|---|---|---|---|---|---|")
            for name, v in times.items():
                v.sort()
                ratio = f"{one / v[0]:.2f}x" if not name.startswith("hand") else f"{min(times['hand copy NT 1T']) / v[0]:.2f}x (vs its 1T)"
                print(f"| {name} | {v[0] * 1e3:.3f} | {v[len(v) // 4] * 1e3:.3f} | {statistics.median(v) * 1e3:.3f} | "
                      f"{statistics.median(cpu[name]) * 1e3:.3f} | {ratio} |")


if __name__ == "__main__":
    main()
