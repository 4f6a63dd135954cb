"""Benchmark loopopt.dask (by hand, not CI): per-chunk overhead and scaling with workers.

    .venv/bin/python tools/bench/dask_scaling.py [--n 8000000] [--repeat 5]

Prints two markdown tables (docs/dask.md holds the latest run):

1. Per-chunk overhead, threaded scheduler, one thread: a fused map→reduce (sum of squares, f32)
   over N elements split into C chunks, against one direct call of the compiled kernel and
   dask's own `(x * x).sum()`. Overhead per chunk = (t_dask − t_direct) / C.
2. Scaling with workers: distributed.LocalCluster(processes=True, threads_per_worker=1) with 1
   and 2 workers, the input generated and persisted on the workers first (no transfer in the timing), the
   same reduction and a filter (x > 0, compacted per chunk).
"""

from __future__ import annotations

import argparse
import os

import dask
import dask.array as da
import numpy as np

import loopopt
import loopopt.dask as ldask
from loopopt.tools.bench.env import cpu_model
from loopopt.tools.bench.timing import best_wall

SOURCE = r"""
func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @positive(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=8_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    n = args.n
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    sumsq, positive = ldask.kernel(SOURCE, "sumsq"), ldask.kernel(SOURCE, "positive")
    direct = loopopt.compile(SOURCE, target=sumsq.ref.target)
    t_direct = best_wall(lambda: direct.sumsq(x), args.repeat)
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; ISA {sumsq.ref.target}; N = {n:,} f32; best of {args.repeat}\n")
    print("| chunks | chunk size | loopopt.dask | per-chunk overhead | dask `(x*x).sum()` |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| direct call | {n:,} | {t_direct * 1e3:.2f} ms | | {best_wall(lambda: (x * x).sum(), args.repeat) * 1e3:.2f} ms (numpy) |")
    with dask.config.set(scheduler="threads", num_workers=1):
        for chunks in (1, 4, 16, 64, 256):
            dx = da.from_array(x, chunks=-(-n // chunks))
            t = best_wall(lambda: ldask.reduce(sumsq, dx).compute(), args.repeat)
            t_np = best_wall(lambda: (dx * dx).sum().compute(), args.repeat)
            print(f"| {chunks} | {-(-n // chunks):,} | {t * 1e3:.2f} ms | {(t - t_direct) / chunks * 1e6:.0f} µs "
                  f"| {t_np * 1e3:.2f} ms |")

    from distributed import Client, LocalCluster

    print("\n| workers | chunks | sumsq | speed-up | filter x>0 | speed-up | dask `(x*x).sum()` |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    base = {}
    for workers in (1, 2):
        with LocalCluster(processes=True, n_workers=workers, threads_per_worker=1, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers)
            # generated on the workers and kept there: no transfer from the client in the timing
            dx = client.persist(da.random.default_rng(0).standard_normal(n, chunks=-(-n // 16)).astype(np.float32))
            t_red = best_wall(lambda: client.compute(ldask.reduce(sumsq, dx), sync=True), args.repeat)
            t_fil = best_wall(lambda: client.compute(ldask.filter(positive, dx).sum(), sync=True), args.repeat)
            t_da = best_wall(lambda: client.compute((dx * dx).sum(), sync=True), args.repeat)
            base.setdefault("red", t_red)
            base.setdefault("fil", t_fil)
            print(f"| {workers} | 16 | {t_red * 1e3:.1f} ms | {base['red'] / t_red:.2f}× | {t_fil * 1e3:.1f} ms "
                  f"| {base['fil'] / t_fil:.2f}× | {t_da * 1e3:.1f} ms |")


if __name__ == "__main__":
    main()
