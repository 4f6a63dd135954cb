"""Benchmark parallel kernels (by hand, not CI): 1 vs 2 threads at large sizes, the hand
OpenMP ceiling, and the small-size cost.

    .venv/bin/python -m loopopt.tools.bench.threads [--n 16777216,6291456] [--small 1024]
        [--repeat 31] [--cpu native] [--ceiling-only] [--rt]

For a map (a*x+b), a fold (sum, f32 reassoc) and a filter→map (a*x for x > 0, compacted) it
compiles the module twice for the best ISA and `--cpu` — serial (`loop-pipeline`) and
parallel (`loop-pipeline{parallel=-1}`) — and prints a markdown table per size of the best
wall time over `--repeat` interleaved rounds (each round calls serial, parallel with 1 thread,
parallel with 2 threads, and the hand-written OpenMP loops with 1 and 2 threads once; same
buffers, warmed, outputs preallocated), the speed-up 2 threads / 1 thread and the hand
loops' (the ceiling: `gcc -O3 -march=native -fopenmp`, non-temporal stores for the map);
then the same at `--small` elements (below the threshold, where the driver calls the serial
kernel), per call, over many calls; with the load average before and after each table (the
machine may be shared: a 2-thread wall time at a load above ~1 measures the scheduler).
Before each large size's table it prints **the machine's ceiling** at that size: STREAM-style
hand loops (copy, triad with plain and with non-temporal stores, a read-only sum) on 1 and 2
threads, interleaved, with GB/s; the kernel table's last column is the 2 / 1 ratio of the
ceiling row that moves the kernel's bytes (`ceiling_of`), run in the same rounds as the kernel. `--ceiling-only` prints just those.
`--rt` (root): the timed rounds run under SCHED_FIFO, as in bench.threads_filter.
The default sizes: 16 Mi (the goal's) and 6 Mi (a 24 MiB output, between Zen 4's 16 MiB
streaming threshold and twice it). docs/threads.md holds the latest run.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import random
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.passes.loop_parallelize import cpu_model as cpu_model_of
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


HAND = r"""
#include <stdint.h>
#include <immintrin.h>
/* One vector of f32 (V lanes): AVX-512 where the CPU has it, else AVX2 + FMA. Every vector
   loop below steps by V; its bound stays a multiple of 16, so the scalar tails are the same. */
#if defined(__AVX512F__)
#define V 16
typedef __m512 vf;
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_store_ps
#define VSTREAM _mm512_stream_ps
#define VFMA _mm512_fmadd_ps
#define VSET1 _mm512_set1_ps
#define VADD _mm512_add_ps
#define VZERO _mm512_setzero_ps
static float vsum(vf v) { return _mm512_reduce_add_ps(v); }
#else
#define V 8
typedef __m256 vf;
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_store_ps
#define VSTREAM _mm256_stream_ps
#define VFMA _mm256_fmadd_ps
#define VSET1 _mm256_set1_ps
#define VADD _mm256_add_ps
#define VZERO _mm256_setzero_ps
static float vsum(vf v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
}
#endif
/* The ceiling: the obvious OpenMP loops, y = a*x + b with non-temporal stores (aligned by a
   scalar peel) and a sum with 4 vector accumulators per thread. */
void hand_axpb(const float *x, int64_t n, float a, float b, float *y, int t)
{
    int64_t peel = (int64_t)((64 - (uintptr_t)y % 64) % 64 / 4);
    peel = peel < n ? peel : n;
    for (int64_t i = 0; i < peel; i++)
        y[i] = a * x[i] + b;
    int64_t m = peel + (n - peel) / 16 * 16;
    #pragma omp parallel for num_threads(t) schedule(static)
    for (int64_t i = peel; i < m; i += V)
        VSTREAM(y + i, VFMA(VSET1(a), VLOAD(x + i), VSET1(b)));
    _mm_sfence();
    for (int64_t i = m; i < n; i++)
        y[i] = a * x[i] + b;
}
/* The machine's ceiling, STREAM-style (McCalpin's copy y = x and triad y = b + s*c, and a
   read-only sum, hand_sum): what the memory gives one and two threads. nt = 0: plain stores
   (every written line is first read for ownership: copy moves 12 B per element, not 8);
   nt = 1: non-temporal stores (no read for ownership). Stores aligned by a scalar peel. */
static int64_t peel64(const float *y, int64_t n)
{
    int64_t p = (int64_t)((64 - (uintptr_t)y % 64) % 64 / 4);
    return p < n ? p : n;
}
void stream_copy(const float *x, float *y, int64_t n, int nt, int t)
{
    int64_t p = peel64(y, n), m = p + (n - p) / 16 * 16;
    for (int64_t i = 0; i < p; i++)
        y[i] = x[i];
    #pragma omp parallel num_threads(t)
    {
        if (nt) {
            #pragma omp for schedule(static)
            for (int64_t i = p; i < m; i += V)
                VSTREAM(y + i, VLOAD(x + i));
            _mm_sfence();
        } else {
            #pragma omp for schedule(static)
            for (int64_t i = p; i < m; i += V)
                VSTORE(y + i, VLOAD(x + i));
        }
    }
    for (int64_t i = m; i < n; i++)
        y[i] = x[i];
}
void stream_triad(const float *b, const float *c, float s, float *y, int64_t n, int nt, int t)
{
    int64_t p = peel64(y, n), m = p + (n - p) / 16 * 16;
    for (int64_t i = 0; i < p; i++)
        y[i] = b[i] + s * c[i];
    #pragma omp parallel num_threads(t)
    {
        const vf vs = VSET1(s);
        if (nt) {
            #pragma omp for schedule(static)
            for (int64_t i = p; i < m; i += V)
                VSTREAM(y + i, VFMA(vs, VLOAD(c + i), VLOAD(b + i)));
            _mm_sfence();
        } else {
            #pragma omp for schedule(static)
            for (int64_t i = p; i < m; i += V)
                VSTORE(y + i, VFMA(vs, VLOAD(c + i), VLOAD(b + i)));
        }
    }
    for (int64_t i = m; i < n; i++)
        y[i] = b[i] + s * c[i];
}
float hand_sum(const float *x, int64_t n, int t)
{
    float r = 0;
    int64_t m = n / 64 * 64;
    #pragma omp parallel num_threads(t) reduction(+ : r)
    {
        vf a0 = VZERO(), a1 = a0, a2 = a0, a3 = a0;
        #pragma omp for schedule(static)
        for (int64_t i = 0; i < m; i += 4 * V) {
            a0 = VADD(a0, VLOAD(x + i));
            a1 = VADD(a1, VLOAD(x + i + V));
            a2 = VADD(a2, VLOAD(x + i + 2 * V));
            a3 = VADD(a3, VLOAD(x + i + 3 * V));
        }
        r += vsum(VADD(VADD(a0, a1), VADD(a2, a3)));
    }
    for (int64_t i = m; i < n; i++)
        r += x[i];
    return r;
}
"""


def hand_loops() -> ctypes.CDLL | None:
    """The hand-written OpenMP loops (AVX-512, else AVX2 + FMA; None on other CPUs or without gcc)."""
    flags = Path("/proc/cpuinfo").read_text()
    if "avx512f" not in flags and not ("avx2" in flags and "fma" in flags):
        return None
    tmp = Path(tempfile.mkdtemp(prefix="lo_threads_"))
    (tmp / "hand.c").write_text(HAND)
    try:
        subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", "-o", str(tmp / "hand.so"), str(tmp / "hand.c")],
                       check=True)  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    lib = ctypes.CDLL(str(tmp / "hand.so"))
    lib.hand_axpb.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_float, ctypes.c_float, ctypes.c_void_p, ctypes.c_int]
    lib.hand_sum.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int]
    lib.hand_sum.restype = ctypes.c_float
    lib.stream_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_int]
    lib.stream_triad.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_float, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int,
                                 ctypes.c_int]  # fmt: skip
    return lib


CEILING = {"copy, plain stores": 8, "copy, non-temporal": 8, "triad, plain stores": 12, "triad, non-temporal": 12, "sum (read only)": 4}
"""The STREAM-style loops and the bytes per element STREAM counts (f32; a plain store's read for
ownership not counted, so the plain rows' GB/s understate the traffic by 4 B per element)."""


def ceiling_of(name: str, n: int, stream_bytes: int) -> str:
    """The ceiling row kernel `name`'s 2 / 1 ratio compares with at n elements: a fold moves
    what the read-only sum does; a map (and filter→map, at most the same bytes) what the copy
    does, with non-temporal stores from the CPU's streaming threshold on (as the kernel decides)."""
    if name == "sum":
        return "sum (read only)"
    return "copy, non-temporal" if 4 * n >= stream_bytes else "copy, plain stores"


def ceiling_calls(lib: ctypes.CDLL, x: np.ndarray, c: np.ndarray, out: np.ndarray, threads: int) -> dict[str, Callable[[], object]]:
    """The CEILING loops on `threads` threads over x (and c for the triad) into out."""
    px, pc, po, n = x.ctypes.data, c.ctypes.data, out.ctypes.data, len(x)
    return {
        "copy, plain stores": lambda: lib.stream_copy(px, po, n, 0, threads),
        "copy, non-temporal": lambda: lib.stream_copy(px, po, n, 1, threads),
        "triad, plain stores": lambda: lib.stream_triad(px, pc, 3.0, po, n, 0, threads),
        "triad, non-temporal": lambda: lib.stream_triad(px, pc, 3.0, po, n, 1, threads),
        "sum (read only)": lambda: lib.hand_sum(px, n, threads),
    }


def ceiling_table(lib: ctypes.CDLL, x: np.ndarray, c: np.ndarray, out: np.ndarray, repeat: int, rt: bool = False) -> None:
    """Print the STREAM-style table at len(x) (1 and 2 threads, all rows interleaved in one run,
    best of `repeat`; c: the triad's second input)."""
    variants: dict[str, tuple[int, Callable[[], object]]] = {}
    for t in (1, 2):
        for row, fn in ceiling_calls(lib, x, c, out, t).items():
            variants[f"{row}|{t}"] = (1, fn)
    before = loadavg()
    best = interleaved(variants, repeat, 1, time.perf_counter, rt)
    print(f"The machine's ceiling at n = {len(x)} (hand OpenMP, STREAM-style, f32, best of {repeat} interleaved rounds; "
          "GB/s as STREAM counts, without a plain store's read for ownership)\n")  # fmt: skip
    print("| loop | B / element | 1 thread ms | GB/s | 2 threads ms | GB/s | 2 threads / 1 thread |")
    print("|---|---|---|---|---|---|---|")
    for row, per in CEILING.items():
        t1, t2 = best[f"{row}|1"], best[f"{row}|2"]
        gb = per * len(x) / 1e9
        print(f"| {row} | {per} | {t1 * 1e3:.3f} | {gb / t1:.1f} | {t2 * 1e3:.3f} | {gb / t2:.1f} | {t1 / t2:.2f}× |")
    print(f"\nload average (1, 5, 15 min) before {before}, after {loadavg()}\n")


def calls(name: str, x: np.ndarray, out: np.ndarray):
    return {
        "axpb": lambda f: f(x, np.float32(2.0), np.float32(1.0), out),
        "sum": lambda f: f(x),
        "filter_scale": lambda f: f(x, np.float32(2.0), out),
    }[name]


def hand_call(lib: ctypes.CDLL | None, name: str, x: np.ndarray, out: np.ndarray, threads: int):
    """The hand loop of kernel `name` on `threads` threads, or None (no hand filter)."""
    if lib is None or name == "filter_scale":
        return None
    px, po, n = x.ctypes.data, out.ctypes.data, len(x)
    if name == "axpb":
        return lambda: lib.hand_axpb(px, n, 2.0, 1.0, po, threads)
    return lambda: lib.hand_sum(px, n, threads)


def realtime(on: bool) -> None:
    """Every thread of this process (the OpenMP workers too) under SCHED_FIFO, or back: on a
    machine shared with other work the threads then get both cores whenever they run."""
    policy, param = (os.SCHED_FIFO, os.sched_param(10)) if on else (os.SCHED_OTHER, os.sched_param(0))
    for tid in os.listdir("/proc/self/task"):
        try:
            os.sched_setscheduler(int(tid), policy, param)
        except (PermissionError, ProcessLookupError):
            if on:
                raise SystemExit("--rt needs root (sched_setscheduler SCHED_FIFO)") from None


def interleaved(variants: dict[str, tuple[int, Callable[[], None]]], repeat: int, inner: int, clock, rt: bool = False) -> dict[str, float]:
    """Best time per call of each variant (threads, call) over `repeat` rounds; every round
    runs each variant once (`inner` calls) in turn, so a load change hits all of them alike,
    in a fresh random order each round, and each timed call follows an untimed call of the same
    variant: what ran before a call matters (a 2-thread call leaves OpenMP's worker spinning; a
    1-thread call leaves the other vCPU idle and the data in one core's caches). With a fixed
    rotation the variant always timed right after the 1-thread call paid 15-40 % at 2 Mi
    (bench.threads_filter, Zen 3: the penalty moved with the position). `rt`: the rounds
    run under SCHED_FIFO (`realtime`; after the warm-up calls, which start OpenMP's workers)."""
    times: dict[str, list[float]] = {k: [] for k in variants}
    for threads, fn in variants.values():
        loopopt.set_num_threads(threads)
        fn()  # warm: page faults, the OpenMP pool
    order = list(variants.items())
    shuffle = random.Random(0).shuffle
    if rt:
        realtime(True)
    try:
        for _ in range(repeat):
            shuffle(order)
            for name, (threads, fn) in order:
                loopopt.set_num_threads(threads)
                fn()  # untimed: the caches as this variant leaves them, not as its predecessor did
                t = clock()
                for _ in range(inner):
                    fn()
                times[name].append((clock() - t) / inner)
    finally:
        if rt:
            realtime(False)
    return {k: min(v) for k, v in times.items()}


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "/".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", default=f"{16 << 20},{6 << 20}", help="sizes, comma-separated")
    ap.add_argument("--small", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument("--cpu", default="native", help="loop-pipeline's cpu (the threshold, chunk, streaming)")
    ap.add_argument("--ceiling-only", action="store_true", help="only the STREAM-style ceiling table per size")
    ap.add_argument("--rt", action="store_true", help="time under SCHED_FIFO (root; robust to other processes' load)")
    args = ap.parse_args()
    if args.ceiling_only:
        lib = hand_loops()
        if lib is None:
            raise SystemExit("the ceiling loops need AVX-512 or AVX2 + FMA, and gcc -fopenmp")
        print(f"CPU: {cpu_model()}; {os.cpu_count()} cores\n")
        for n in (int(v) for v in args.n.split(",") if v):
            x, c = np.random.default_rng(0).standard_normal((2, n)).astype(np.float32)
            ceiling_table(lib, x, c, np.empty_like(x), args.repeat, args.rt)
        return
    isa = best_isa()
    base = f"loop-pipeline{{target={isa} cpu={args.cpu}"
    serial = loopopt_compile(SOURCE, target=isa, pipeline=base + "}")
    par = loopopt_compile(SOURCE, target=isa, pipeline=base + " parallel=-1}")
    lib = hand_loops()
    stream_bytes = cpu_model_of(args.cpu).stream_threshold_bytes
    rng = np.random.default_rng(0)
    print(f"CPU: {cpu_model()}; loopopt cpu {loopopt_cpu()}; ISA {isa}; {os.cpu_count()} cores")
    print(f"pipeline: {base} parallel=-1}}; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '')}; "
          f"OMP_PROC_BIND={os.environ.get('OMP_PROC_BIND', '')}{'; SCHED_FIFO' if args.rt else ''}\n")  # fmt: skip
    # Large: wall time (the work spans threads). Small: below the threshold everything runs on
    # this thread, so its CPU time (immune to preemption on a loaded machine) is the measure.
    sizes = [(int(v), 1, "ms", 1e3, time.perf_counter) for v in args.n.split(",") if v]
    for n, inner, unit, scale, clock in (*sizes, (args.small, 20000, "µs", 1e6, time.thread_time)):
        x = rng.standard_normal(n).astype(np.float32)
        out = np.empty_like(x)
        what = "wall" if clock is time.perf_counter else "CPU time of this thread"
        before = loadavg()
        big = clock is time.perf_counter
        other = rng.standard_normal(n).astype(np.float32)  # the triad's second input
        if big and lib is not None:
            ceiling_table(lib, x, other, out, args.repeat, args.rt)
        print(f"n = {n}: best of {args.repeat} interleaved rounds ({unit} per call, {what})\n")
        hand_cols = " hand 1 thread | hand 2 threads | hand 2 / 1 | ceiling 2 / 1 |" if big else ""
        print(f"| kernel | serial | parallel, 1 thread | parallel, 2 threads | 2 threads / 1 thread | parallel 1 thread / serial |{hand_cols}")
        print("|---|---|---|---|---|---|" + ("---|---|---|---|" if big else ""))
        for name in ("axpb", "sum", "filter_scale"):
            run = calls(name, x, out)
            variants = {
                "serial": (1, lambda: run(serial[name])),
                "1": (1, lambda: run(par[name])),
                "2": (2, lambda: run(par[name])),
            }
            hands = [hand_call(lib, name, x, out, t) for t in (1, 2)] if big else []
            for t, h in zip((1, 2), hands, strict=False):
                if h is not None:
                    variants[f"hand{t}"] = (1, h)
            if big and lib is not None:  # the ceiling row in the same rounds as the kernel
                for t in (1, 2):
                    variants[f"ceiling{t}"] = (1, ceiling_calls(lib, x, other, out, t)[ceiling_of(name, n, stream_bytes)])
            best = interleaved(variants, args.repeat, inner, clock, args.rt)
            t_serial, t1, t2 = best["serial"], best["1"], best["2"]
            row = f"| {name} | {t_serial * scale:.3f} | {t1 * scale:.3f} | {t2 * scale:.3f} | {t1 / t2:.2f}× | {t1 / t_serial:.3f} |"
            if big:
                if "hand1" in best:
                    h1, h2 = best["hand1"], best["hand2"]
                    row += f" {h1 * scale:.3f} | {h2 * scale:.3f} | {h1 / h2:.2f}× |"
                else:
                    row += " — | — | — |"
                limit = best["ceiling1"] / best["ceiling2"] if "ceiling1" in best else None
                row += f" {limit:.2f}× ({ceiling_of(name, n, stream_bytes)}) |" if limit else " — |"
            print(row)
        print(f"\nload average (1, 5, 15 min) before {before}, after {loadavg()}\n")
    loopopt.set_num_threads(0)

if __name__ == "__main__":
    main()
