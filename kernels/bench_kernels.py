"""Quick timing of a few library kernels against the same plain C loop built with
`gcc -O3 -march=native -ffast-math` (the speed bar). Not a test; run:

    python -m loopopt.kernels.bench_kernels [--big]

Reports GB/s of input+output traffic (and time per element) per size.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from loopopt import kernels, runtime

PLAIN_C = r"""
#include <stdint.h>
#include <math.h>
float plain_sum_f32(const float *restrict x, int64_t n) { float s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s; }
float plain_dot_f32(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m; float s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * y[i]; return s; }
float plain_min_f32(const float *restrict x, int64_t n) { float s = INFINITY; for (int64_t i = 0; i < n; i++) s = x[i] < s ? x[i] : s; return s; }
double plain_sumsq_f64(const double *restrict x, int64_t n) { double s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * x[i]; return s; }
int32_t plain_max_i32(const int32_t *restrict x, int64_t n) { int32_t s = INT32_MIN; for (int64_t i = 0; i < n; i++) s = x[i] > s ? x[i] : s; return s; }
void plain_axpb_f32(const float *restrict x, int64_t n, float a, float b, float *restrict out, int64_t m) {
    (void)m; for (int64_t i = 0; i < n; i++) out[i] = a * x[i] + b; }
void plain_sqrt_abs_axpb_f32(const float *restrict x, int64_t n, float a, float b, float *restrict out, int64_t m) {
    (void)m; for (int64_t i = 0; i < n; i++) out[i] = sqrtf(fabsf(a * x[i])) + b; }
int64_t plain_filter_gt0_scale_f32(const float *restrict x, int64_t n, float a, float *restrict out, int64_t m) {
    (void)m; int64_t k = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) out[k++] = a * x[i]; return k; }
int64_t plain_prod_i64(const int64_t *restrict x, int64_t n) { uint64_t s = 1; for (int64_t i = 0; i < n; i++) s *= (uint64_t)x[i]; return (int64_t)s; }
"""

CASES = [("sum", "f32"), ("dot", "f32"), ("min", "f32"), ("sumsq", "f64"), ("max", "i32"), ("prod", "i64"),
         ("axpb", "f32"), ("sqrt_abs_axpb", "f32"), ("filter_gt0_scale", "f32")]


def plain_library() -> runtime.Library:
    sigs = [kernels.signature(p, d, "scalar") for p, d in CASES]
    sigs = [runtime.KernelSignature(f"plain_{p}_{d}", s.params, s.results) for (p, d), s in zip(CASES, sigs)]
    return runtime.compile_library(PLAIN_C, sigs, isa="native", extra_cflags=("-ffast-math",))


def timeit(fn, args, min_time=0.2) -> float:
    fn(*args)
    reps, best = 1, float("inf")
    while True:
        t0 = time.perf_counter()
        for _ in range(reps):
            fn(*args)
        dt = time.perf_counter() - t0
        if dt > min_time / 5:
            best = min(best, dt / reps)
            if dt * 5 > min_time:
                break
        reps *= 2
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn(*args)
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--big", action="store_true", help="add a size beyond the LLC (2^25 elements)")
    ap.add_argument("--isa", default=runtime.best_isa())
    args = ap.parse_args()
    plain = plain_library()
    lib = kernels.library(args.isa)
    sizes = [4096, 1 << 18] + ([1 << 25] if args.big else [])
    rng = np.random.default_rng(0)
    print(f"{'kernel':28s} {'n':>9s} {'ours ns':>10s} {'plain ns':>10s} {'speedup':>8s} {'ours GB/s':>10s}")
    for p, d in CASES:
        t = np.dtype({"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}[d])
        for n in sizes:
            x = (rng.standard_normal(n) if t.kind == "f" else rng.integers(-100, 100, n)).astype(t)
            y = x[::-1].copy()
            kind = kernels.PATTERNS[p].kind
            a, b = t.type(1.5), t.type(0.5)
            out = np.empty_like(x)
            call_args = {"fold": (x,), "zip_fold": (x, y), "map": (x, a, b, out), "filter_map": (x, a, out)}[kind]
            traffic = x.nbytes * {"fold": 1, "zip_fold": 2, "map": 2, "filter_map": 1.5}[kind]
            ours = timeit(lib[kernels.kernel_name(p, d, args.isa)], call_args)
            base = timeit(plain[f"plain_{p}_{d}"], call_args)
            print(f"{p + '_' + d + '_' + args.isa:28s} {n:9d} {ours * 1e9:10.0f} {base * 1e9:10.0f} {base / ours:7.2f}x {traffic / ours / 1e9:10.1f}")


if __name__ == "__main__":
    main()
