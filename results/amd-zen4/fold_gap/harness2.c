// Session 21: fold_gap harness plus the alignment-peel variants of peel.c (build: harness.c line of build.sh with peel.o added).
// Session 21 fold-gap harness (results/amd-zen4/fold_gap/build.sh builds it; analysis.md "Session 21").
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
typedef float (*ffn)(const float *, int64_t);
typedef int32_t (*ifn)(const int32_t *, int64_t);
#define DECLF(n) float n(const float *, int64_t);
#define DECLI(n) int32_t n(const int32_t *, int64_t);
DECLF(lo512_sumsq_f32) DECLF(lo256_sumsq_f32) DECLF(lo_sumsq_f32_avx2) DECLF(lo_sumsq_f32_avx512) DECLF(gcc_sumsq_f32)
DECLF(h_sumsq_f32_z512k1) DECLF(h_sumsq_f32_z512k2) DECLF(h_sumsq_f32_split) DECLF(h_sumsq_f32_muladd)
DECLF(lo512_sum_f32) DECLF(lo_sum_f32_avx2) DECLF(gcc_sum_f32) DECLF(h_sum_f32_z512k1)
DECLI(lo512_sumsq_i32) DECLI(lo256_sumsq_i32) DECLI(lo_sumsq_i32_avx2) DECLI(lo_sumsq_i32_avx512) DECLI(gcc_sumsq_i32)
DECLI(h_sumsq_i32_z512k1) DECLI(h_sumsq_i32_z512k2) DECLI(h_sumsq_i32_split)
DECLI(lo512_filter_gt0_sum_i32) DECLI(lo256_filter_gt0_sum_i32) DECLI(lo_filter_gt0_sum_i32_avx2) DECLI(lo_filter_gt0_sum_i32_avx512)
DECLI(gcc_filter_gt0_sum_i32) DECLI(h_gt0_i32_z512k1) DECLI(h_gt0_i32_z512k2) DECLI(h_gt0_i32_split)
DECLI(lo512_sum_i32) DECLF(sp512_sumsq_f32) DECLI(sp512_sumsq_i32) DECLI(sp512_filter_gt0_sum_i32) DECLF(h_sumsq_f32_split_peel) DECLI(h_gt0_i32_split_peel) DECLI(h_sumsq_i32_split_peel)
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return (x > y) - (x < y); }
struct v { const char *name; ffn f; ifn g; };
#define F(n) {#n, n, 0}
#define I(n) {#n, 0, n}
static struct v SUMSQ_F[] = {F(lo512_sumsq_f32), F(sp512_sumsq_f32), F(lo256_sumsq_f32), F(lo_sumsq_f32_avx2), F(lo_sumsq_f32_avx512), F(gcc_sumsq_f32),
    F(h_sumsq_f32_z512k1), F(h_sumsq_f32_z512k2), F(h_sumsq_f32_split), F(h_sumsq_f32_split_peel)};
static struct v SUMSQ_I[] = {I(lo512_sumsq_i32), I(sp512_sumsq_i32), I(lo256_sumsq_i32), I(lo_sumsq_i32_avx2), I(lo_sumsq_i32_avx512), I(gcc_sumsq_i32),
    I(h_sumsq_i32_z512k1), I(h_sumsq_i32_z512k2), I(h_sumsq_i32_split), I(h_sumsq_i32_split_peel)};
static struct v GT0_I[] = {I(lo512_filter_gt0_sum_i32), I(sp512_filter_gt0_sum_i32), I(lo256_filter_gt0_sum_i32), I(lo_filter_gt0_sum_i32_avx2),
    I(lo_filter_gt0_sum_i32_avx512), I(gcc_filter_gt0_sum_i32), I(h_gt0_i32_z512k1), I(h_gt0_i32_z512k2), I(h_gt0_i32_split), I(h_gt0_i32_split_peel)};
static struct v SUM_F[] = {F(lo512_sum_f32), F(lo_sum_f32_avx2), F(gcc_sum_f32), F(h_sum_f32_z512k1)};
int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "sumsq_f32";
    int64_t n = argc > 2 ? atoll(argv[2]) : (16 << 20);
    int trials = argc > 3 ? atoi(argv[3]) : 31;
    int off = argc > 4 ? atoi(argv[4]) : 0;
    struct v *v; int nv;
    if (!strcmp(which, "sumsq_f32")) v = SUMSQ_F, nv = sizeof SUMSQ_F / sizeof *v;
    else if (!strcmp(which, "sumsq_i32")) v = SUMSQ_I, nv = sizeof SUMSQ_I / sizeof *v;
    else if (!strcmp(which, "gt0_i32")) v = GT0_I, nv = sizeof GT0_I / sizeof *v;
    else v = SUM_F, nv = sizeof SUM_F / sizeof *v;
    size_t bytes = (((n + 16) * 4 + (2 << 20) - 1) / (2 << 20)) * (2 << 20);
    void *mem = aligned_alloc(2 << 20, bytes);
    madvise(mem, bytes, MADV_HUGEPAGE);
    float *xf = (float *)mem + off; int32_t *xi = (int32_t *)mem + off;
    srand(7);
    for (int64_t i = 0; i < n; i++) {
        if (v[0].f) xf[i] = (float)rand() / RAND_MAX * 2.0f - 0.7f;
        else xi[i] = rand() % 2001 - 1000;
    }
    int reps = 1; double t0 = now(); volatile double sink = v[0].f ? v[0].f(xf, n) : v[0].g(xi, n); double one = now() - t0;
    while (reps * one < 2e6) reps *= 2;
    double *t = calloc((size_t)nv * trials, sizeof *t);
    for (int r = 0; r < trials; r++)
        for (int k = 0; k < nv; k++) {
            int j = (k + r) % nv;
            double s = now();
            for (int q = 0; q < reps; q++) sink = v[j].f ? v[j].f(xf, n) : v[j].g(xi, n);
            t[j * trials + r] = (now() - s) / reps;
        }
    (void)sink;
    printf("%s n=%lld off=%d reps=%d trials=%d\n", which, (long long)n, off, reps, trials);
    double base = 0;
    for (int j = 0; j < nv; j++) {
        qsort(t + j * trials, trials, sizeof *t, cmpd);
        double m = t[j * trials + trials / 2];
        if (j == 0) base = m;
        if (v[j].f) printf("%-30s %10.1f us q1 %9.1f q3 %9.1f  %.3fx vs first  %5.1f GB/s  r=%a\n", v[j].name, m / 1e3, t[j * trials + trials / 4] / 1e3,
               t[j * trials + 3 * trials / 4] / 1e3, base / m, n * 4 / m, v[j].f(xf, n));
        else printf("%-30s %10.1f us q1 %9.1f q3 %9.1f  %.3fx vs first  %5.1f GB/s  r=%d\n", v[j].name, m / 1e3, t[j * trials + trials / 4] / 1e3,
               t[j * trials + 3 * trials / 4] / 1e3, base / m, n * 4 / m, v[j].g(xi, n));
    }
    return 0;
}
