"""Session 23 (issue 11, helper pages4k): the K-stream fold (Costs.fold_streams_beyond_llc) on the
fold kinds and types the C harness (harness.c) does not cover: min/max, f64/i64 sums, a dot (two
inputs: not streamed, as a control), loopopt's own kernels through loopopt.compile.

cpu=zen4 (streams beyond the LLC) against the same model with fold_streams_beyond_llc=0
(adjacent blocks, main's lowering), 64 MiB per input, 3 rotated copies on 4 KiB pages
(mmap + MADV_NOHUGEPAGE) and 3 on 2 MiB pages (numpy's THP), every (variant, pages) call in a
shuffled order per trial, this thread's CPU time. Prints GB/s medians and the paired per-trial
ratio adjacent/streams with its ~95% interval (tools/bench/paired.py).

    .venv/bin/python results/amd-zen4/fold_gap/pages4k/kinds.py [trials]
"""

from __future__ import annotations

import dataclasses
import mmap
import os
import random
import statistics
import sys
import time

import numpy as np

import loopopt
from loopopt.dialects import cpu_models
from loopopt.tools.bench.paired import paired_ratio

TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 21
BYTES = 64 << 20
Z = cpu_models.CPUS["zen4"]
cpu_models.CPUS["zen4-adjacent"] = dataclasses.replace(
    Z, name="zen4-adjacent", costs=dataclasses.replace(Z.costs, fold_streams_beyond_llc=0))

PROGRAMS = {
    "max_i32": ("i32", "df.reduce max(%x, %z) over [i]", "arith.constant -2147483648 : i32"),
    "min_f32": ("f32", "df.reduce min(%x, %z) over [i]", "arith.constant 0x7F800000 : f32"),
    "sum_f64": ("f64", "df.reduce add(%x, %z) over [i] reassoc", "arith.constant 0.0 : f64"),
    "max_f64": ("f64", "df.reduce max(%x, %z) over [i]", "arith.constant 0xFFF0000000000000 : f64"),
    "sum_i64": ("i64", "df.reduce add(%x, %z) over [i]", "arith.constant 0 : i64"),
}
SOURCE = "".join(f"""
func.func @{name}(%x: !df.array<{t}, [i]>) -> {t} {{
  %z = {zero}
  %s = {red} : !df.array<{t}, [i]> -> {t}
  func.return %s : {t}
}}
""" for name, (t, red, zero) in PROGRAMS.items()) + """
func.func @dot_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%p, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""


def small_pages(a: np.ndarray) -> np.ndarray:
    m = mmap.mmap(-1, a.nbytes + 4096)
    m.madvise(mmap.MADV_NOHUGEPAGE)
    b = np.frombuffer(m, np.uint8)[64: 64 + a.nbytes].view(a.dtype)
    b[:] = a
    return b


def main() -> None:
    print(f"load {os.getloadavg()}; trials {TRIALS}", flush=True)
    libs = {v: loopopt.compile(SOURCE, target="avx512", pipeline=f"loop-pipeline{{target=avx512 cpu={v}}}")
            for v in ("zen4", "zen4-adjacent")}
    assert "per_stream" not in libs["zen4-adjacent"].c_source if hasattr(libs["zen4-adjacent"], "c_source") else True
    rng = np.random.default_rng(5)
    for name in [*PROGRAMS, "dot_f32"]:
        t = PROGRAMS[name][0] if name in PROGRAMS else "f32"
        dt = {"i32": np.int32, "f32": np.float32, "f64": np.float64, "i64": np.int64}[t]
        n = BYTES // np.dtype(dt).itemsize
        x0 = (rng.integers(-1000, 1000, n).astype(dt) if t[0] == "i" else rng.standard_normal(n).astype(dt))
        ins = 2 if name == "dot_f32" else 1
        sets = {"4K": [[small_pages(x0) for _ in range(ins)] for _ in range(3)],
                "2M": [[x0.copy() for _ in range(ins)] for _ in range(3)]}
        want = libs["zen4-adjacent"][name](*sets["2M"][0])
        for v in libs:
            for p in sets:
                for args in sets[p]:
                    got = libs[v][name](*args)
                    assert np.isclose(got, want, rtol=1e-6), (name, v, p, got, want)
        keys = [(v, p) for v in libs for p in sets]
        samples = {k: [] for k in keys}
        turn = {p: 0 for p in sets}
        for trial in range(TRIALS):
            order = keys[:]
            random.Random(trial).shuffle(order)
            for v, p in order:
                args = sets[p][turn[p] % 3]
                turn[p] += 1
                c0 = time.thread_time_ns()
                libs[v][name](*args)
                samples[v, p].append((time.thread_time_ns() - c0) * 1e-9)
        moved = BYTES * ins
        row = f"{name:8} load {os.getloadavg()[0]:5.1f}"
        for p in sets:
            new, old = samples["zen4", p], samples["zen4-adjacent", p]
            r = paired_ratio(new, old)
            row += (f" | {p}: adjacent {moved / statistics.median(old) / 1e9:5.1f} streams {moved / statistics.median(new) / 1e9:5.1f} GB/s"
                    f" streams/adjacent {r.median:.2f}x [{r.low:.2f}-{r.high:.2f}]")
        print(row, flush=True)


if __name__ == "__main__":
    main()
