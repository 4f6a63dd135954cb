"""Speed of the vector exp f32 cores alone, elements per ns: accurate (`exp`), fastmath<afn> (`exp_afn`),
and glibc's libmvec `_ZGVdN8v_expf` (what gcc -O3 -march=native -ffast-math calls) on AVX2.

    .venv/bin/python results/amd-zen3/softmax_afn/exp_core_bench.py [--isa avx2] [--rounds 101]

One C program (test/python/vmath/vmath_build.c_source, the printer's own helpers), the variants interleaved
A B C A B C ... in one process and timed in thread CPU time (a preempted sample is not slower); each sample
is 64 calls over 4096 inputs uniform in [-20, 0] (softmax's x - max), in L1/L2. Prints the median and
the best per variant.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "test" / "python" / "vmath"))

from vmath_build import c_source  # noqa: E402

from loopopt.runtime.isa import compile_flags  # noqa: E402

_MAIN = r"""

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 4096
#define REPS 64
__m256 _ZGVdN8v_expf(__m256);
static void libmvec_expf(const float *x, float *r, long n)
{
    for (long i = 0; i + 8 <= n; i += 8) _mm256_storeu_ps(r + i, _ZGVdN8v_expf(_mm256_loadu_ps(x + i)));
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmp(const void *a, const void *b) { double u = *(const double *)a, v = *(const double *)b; return (u > v) - (u < v); }
int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 101;
    static float x[N], r[N];
    for (int i = 0; i < N; i++) x[i] = -20.0f * (float)((i * 2654435761u) % 1000003u) / 1000003.0f;
    void (*fns[3])(const float *, float *, long) = {vm_exp_f32, vm_exp_afn_f32, libmvec_expf};
    const char *names[3] = {"exp (accurate)", "exp_afn", "libmvec _ZGVdN8v_expf"};
    double *ns = malloc(sizeof(double) * 3 * rounds);
    for (int k = 0; k < rounds; k++)
        for (int v = 0; v < 3; v++) {
            double t0 = now();
            for (int j = 0; j < REPS; j++) { fns[v](x, r, N); __asm__ volatile("" ::: "memory"); }
            ns[v * rounds + k] = (now() - t0) / ((double)N * REPS);
        }
    for (int v = 0; v < 3; v++) {
        qsort(ns + v * rounds, rounds, sizeof(double), cmp);
        printf("%-24s median %.3f elements/ns (%.3f ns/element), best %.3f elements/ns\n", names[v],
               1 / ns[v * rounds + rounds / 2], ns[v * rounds + rounds / 2], 1 / ns[v * rounds]);
    }
    return 0;
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--isa", default="avx2")
    ap.add_argument("--rounds", type=int, default=101)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="loopopt-expbench-"))
    src = work / "bench.c"
    src.write_text("#define _POSIX_C_SOURCE 199309L\n" + c_source(args.isa) + _MAIN)
    exe = work / "bench"
    subprocess.run(["gcc", *compile_flags(args.isa), str(src), "-o", str(exe), "-lmvec", "-lm"], check=True)
    subprocess.run([str(exe), str(args.rounds)], check=True)


if __name__ == "__main__":
    main()
