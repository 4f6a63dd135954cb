"""Session 22 (issue 11, helper benchrotate): why loop-bench's 16 Mi fold cells read 34-44 GB/s.

Builds loop-bench's own libraries (repeat wrappers included) for the 16 Mi fold cells and times
every C implementation one call per sample (at 16 Mi one call is > 1 ms, so loop-bench's
calibration picks reps = 1 too), under three buffer regimes, interleaved trial by trial:

* same   -- every call reads the same x (loop-bench before this session);
* rot<k> -- call i reads copy i mod k (k copies of x, k-1 of them between two reads of one copy);
* flushW -- same x, but a write of 2 x LLC scratch bytes before each call, outside the timing
  (leaves dirty lines the timed call then has to write back);
* flushR -- same x, a read of 2 x LLC scratch bytes before each call (clean lines);
* 4K     -- x copied into an mmap with MADV_NOHUGEPAGE (4 KiB pages; numpy's own big arrays are
  madvised for 2 MiB pages, a plain C malloc under THP=madvise is not).

Each sample records this thread's CPU time and wall time (perf_counter) of the one call.
Prints per cell and implementation GB/s by the median and best CPU time and the best wall time
(the median wall time of a loaded machine is preemption), and the ratio of
loopopt (best ISA) to the fastest other C implementation, per regime and clock.

    .venv/bin/python results/amd-zen4/fold_gap/rotate_experiment.py [trials] [cells] [n] [regimes]
    (regimes: a comma-separated subset of same,rot,flushW,flushR,4K; default all)
"""

from __future__ import annotations

import mmap
import os
import statistics
import sys
import time

import numpy as np

from loopopt.lowering.target import native_cpu
from loopopt.tools.bench.impls import build_all, candidates
from loopopt.tools.bench.patterns import PATTERNS, make_data

TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
CELLS = (sys.argv[2] if len(sys.argv) > 2 else "sum:f32,sumsq:f32,sumsq:i32,filter_gt0_sum:i32,sum:i32").split(",")
N = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 24
REGIMES = (sys.argv[4] if len(sys.argv) > 4 else "same,rot,flushW,flushR,4K").split(",")
ISAS = ["avx2", "avx512"]
LLC = native_cpu().caches.llc


def cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs (/proc/stat): the machine's load over a cell, not averaged over minutes."""
    v = [int(t) for t in open("/proc/stat").readline().split()[1:]]
    return sum(v) - v[3] - v[4], sum(v)


def huge_kib(a: np.ndarray) -> int:
    """AnonHugePages (KiB) of the mappings overlapping `a` (/proc/self/smaps)."""
    start, end, found, inside = a.ctypes.data, a.ctypes.data + a.nbytes, 0, False
    for line in open("/proc/self/smaps"):
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(v, 16) for v in head.split("-"))
            inside = lo < end and start < hi
        elif inside and head == "AnonHugePages:":
            found += int(line.split()[1])
    return found


def small_pages(a: np.ndarray) -> np.ndarray:
    """A copy of `a` in 4 KiB pages."""
    m = mmap.mmap(-1, a.nbytes + 4096)
    m.madvise(mmap.MADV_NOHUGEPAGE)
    b = np.frombuffer(m, np.uint8)[64 : 64 + a.nbytes].view(a.dtype)
    b[:] = a
    return b


def main() -> None:
    cells = [(PATTERNS[c.split(":")[0]], c.split(":")[1]) for c in CELLS]
    pats = list(dict.fromkeys(p for p, _ in cells))
    dtypes = sorted({d for _, d in cells})
    print(f"load {os.getloadavg()}; LLC {LLC >> 20} MiB; n {N}; trials {TRIALS}", flush=True)
    built = build_all(pats, dtypes, ISAS)
    scratch = np.zeros(2 * LLC // 8, np.float64)
    for p, d in cells:
        x0, y0 = make_data(N, d)
        ws = x0.nbytes
        k = max(2, -(-2 * LLC // ws) + 1)
        copies = [x0] + [make_data(N, d)[0].copy() for _ in range(k - 1)]
        # same data in every copy (results comparable); distinct memory
        for c in copies[1:]:
            c[:] = x0
        copies.append(small_pages(x0))
        print(f"AnonHugePages of x's mapping: {huge_kib(x0) >> 10} MiB; of the 4K copy: {huge_kib(copies[-1]) >> 10} MiB")
        runs = {}  # label -> list of runner per copy (the last: the 4 KiB-page copy)
        for i, xc in enumerate(copies):
            for c in candidates(built, p, d, xc, y0):
                if c.run is None or c.label.startswith("numpy"):
                    continue
                runs.setdefault(c.label, []).append(c.run)
        regimes = [f"rot{k}" if r == "rot" else r for r in REGIMES]
        cpu = {(l, r): [] for l in runs for r in regimes}
        wall = {(l, r): [] for l in runs for r in regimes}
        counter = 0
        labels = list(runs)
        busy0, total0 = cpu_ticks()
        for t in range(TRIALS):
            order = [(l, r) for r in regimes for l in labels]
            order = order[t % len(order):] + order[: t % len(order)]
            for l, r in order:
                if r == "flushW":
                    scratch += 1.0
                    fn = runs[l][0]
                elif r == "flushR":
                    float(scratch.sum())
                    fn = runs[l][0]
                elif r == "same":
                    fn = runs[l][0]
                elif r == "4K":
                    fn = runs[l][-1]
                else:
                    fn = runs[l][counter % k]
                    counter += 1
                c0, w0 = time.thread_time_ns(), time.perf_counter_ns()
                fn(1)
                w1, c1 = time.perf_counter_ns(), time.thread_time_ns()
                cpu[l, r].append((c1 - c0) * 1e-9)
                wall[l, r].append((w1 - w0) * 1e-9)
        busy1, total1 = cpu_ticks()
        busy = (busy1 - busy0) / max(total1 - total0, 1) * (os.cpu_count() or 1)
        print(f"\n{p.name} {d} n={N} ({ws >> 20} MiB, k={k}) load {os.getloadavg()[0]:.1f}; CPUs busy during the cell {busy:.2f} (this one: ~1)")
        print(f"{'impl':18}" + "".join(f"{r:>24}" for r in regimes) + "   (GB/s: CPU median / CPU best / wall best)")
        med = {}
        for l in labels:
            row = f"{l:18}"
            for r in regimes:
                med[l, r] = (statistics.median(cpu[l, r]), min(cpu[l, r]), min(wall[l, r]))
                row += "".join(f"{ws / v / 1e9:8.1f}" for v in med[l, r])
            print(row)
        lo = "loopopt/avx512"
        others = [l for l in labels if not l.startswith("loopopt")]
        row = f"{'loopopt÷best':18}"
        for r in regimes:
            for i in range(3):
                best = min(med[l, r][i] for l in others)
                row += f"{best / med[lo, r][i]:7.2f}x"
        print(row, flush=True)


if __name__ == "__main__":
    main()
