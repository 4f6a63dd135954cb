"""Per-region cost of a parallel kernel call, kernels linked with and without
-Wl,--wrap=GOMP_parallel (runtime/threads.py KERNEL_LINK_FLAGS), interleaved in one process.

Both variants run the runtime's fork check: the wrapped kernel through `__wrap_GOMP_parallel`,
the unwrapped one through the runtime's global `GOMP_parallel` (no libgomp loaded before).
A 2-thread call on 4096 f32 (chunk 64, min_elements 0: one region per call); per round each
variant is called CALLS times in turn and the mean per call kept; medians and minima over ROUNDS.

    .venv/bin/python results/amd-zen3/fork_wrap_overhead.py [ROUNDS] [CALLS]
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import loopopt
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes
from loopopt.runtime import best_isa, threads

SOURCE = """
func.func @sum_NAME(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    isa = best_isa()
    spelled = LoopPipelinePass(target=isa, parallel=-1).spelling(set(_all_passes()))
    pipeline = spelled.replace("loop-parallelize{threads=", "loop-parallelize{chunk=64 min_elements=0 threads=")
    kernels = {}
    for name, link in (("wrap", threads.KERNEL_LINK_FLAGS), ("global", ())):
        saved = threads.KERNEL_LINK_FLAGS
        threads.KERNEL_LINK_FLAGS = link
        try:
            k = loopopt.compile(SOURCE.replace("NAME", name), target=isa, pipeline=pipeline)
        finally:
            threads.KERNEL_LINK_FLAGS = saved
        kernels[name] = k[f"sum_{name}"]
    threads.set_num_threads(2)
    x = np.random.default_rng(1).standard_normal(4096).astype(np.float32)
    assert len({float(f(x)) for f in kernels.values()}) == 1
    per: dict[str, list[float]] = {n: [] for n in kernels}
    for _ in range(rounds):
        for name, f in kernels.items():
            t = time.perf_counter()
            for _ in range(calls):
                f(x)
            per[name].append((time.perf_counter() - t) / calls * 1e6)
    print(f"isa {isa}, 2 threads, {rounds} rounds x {calls} calls, us per call")
    for name, v in per.items():
        print(f"  {name:6s} median {statistics.median(v):.3f}  min {min(v):.3f}")
    print(f"  delegated {threads.fork_delegated_calls()}, fork_safe {threads.fork_safe()}")


if __name__ == "__main__":
    main()
