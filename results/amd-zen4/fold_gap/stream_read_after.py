"""Session 22 (benchrotate): does STREAM read of x depend on what ran before it (triad-nt, a dirtying copy, a read of
another 64 MiB, a read of x)? Under load 15.7: no (30.1-30.9 GB/s median). .venv/bin/python results/amd-zen4/fold_gap/stream_read_after.py"""
import os, statistics, time, numpy as np
from loopopt import runtime
from loopopt.tools.bench import baselines
from loopopt.tools.bench.harness import with_wrappers
from loopopt.tools.bench.patterns import aligned_empty
src, sigs = with_wrappers(baselines.STREAM_SOURCE, baselines.STREAM_SIGNATURES)
lib = runtime.compile_library(src, sigs, isa="native")
read, triad_nt, copy = lib["bench_stream_read"], lib["bench_stream_triad_nt"], lib["bench_stream_copy"]
n = 1 << 24
def buf(v):
    a = aligned_empty(n, "f32"); a.fill(v); return a
x, y, out, z, x2 = buf(1), buf(2), buf(0), buf(3), buf(4)
pre = {"after triad-nt": lambda: triad_nt(x, y, np.float32(3), 1, out),
       "after copy (dirty)": lambda: copy(z, 1, out),
       "after read other": lambda: read(z, 1),
       "after read same": lambda: read(x, 1)}
t = {k: [] for k in pre}
for r in range(25):
    for k in (list(pre)[r % 4:] + list(pre)[: r % 4]):
        pre[k]()
        c = time.thread_time_ns(); read(x, 1); t[k].append(time.thread_time_ns() - c)
print("load", os.getloadavg())
for k, v in t.items():
    print(f"{k:22} read x: median {x.nbytes / statistics.median(v):.1f} GB/s, best {x.nbytes / min(v):.1f}")
