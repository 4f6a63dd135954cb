// Session 23 (issue 11, helper pages4k): one-input folds at 16 Mi elements on 4 KiB vs 2 MiB pages.
// build.sh builds it. Usage: harness CELL [n] [trials] [variant,variant,...|all] [calls per sample]
//   CELL: sumsq_i32 filter_gt0_sum_i32 sum_i32 sumsq_f32 sum_f32 filter_gt0_sum_f32
// The same data in two buffers: one mmap'd with MADV_NOHUGEPAGE (4 KiB pages: a C malloc under
// THP=madvise), one 2 MiB-aligned with MADV_HUGEPAGE (numpy's big arrays). Every (variant, pages)
// pair is called once per trial, in an order shuffled per trial, each call on the next of COPIES
// copies of x of its page size (no L3 reuse between calls); each call is timed by this
// thread's CPU time and by wall time. Prints GB/s by the median and the best CPU time, and each
// variant's ratio to the best baseline (kernel library avx2/avx512, gcc) per page size: by medians,
// by bests, and the median with the quartiles of the per-trial paired ratio t(best baseline)/t(variant).
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef COPIES
#define COPIES 3
#endif

#define HV(c, T) X(c, T, h_##c##_z4) X(c, T, h_##c##_y8) X(c, T, h_##c##_y4) X(c, T, h_##c##_z1) X(c, T, h_##c##_z4q) \
    X(c, T, h_##c##_z4p512) X(c, T, h_##c##_z4p1024) X(c, T, h_##c##_z4p2048) X(c, T, h_##c##_z4p4096)                  \
    X(c, T, h_##c##_y8p1024) X(c, T, h_##c##_y8p2048) X(c, T, h_##c##_z4s2) X(c, T, h_##c##_z4s4) X(c, T, h_##c##_z4pg) \
    X(c, T, h_##c##_z4s4q) X(c, T, h_##c##_z8s8) X(c, T, h_##c##_y8s4)
#ifdef OLD  /* loopopt's avx512 C from another tree (build.sh OLD_C=...): before/after in one run */
#define OLDV(c, T) X(c, T, old512_##c)
#else
#define OLDV(c, T)
#endif
#define CELL(c, T) OLDV(c, T) X(c, T, lo512_##c) X(c, T, lo256_##c) X(c, T, lo_##c##_avx2) X(c, T, lo_##c##_avx512) X(c, T, gcc_##c) HV(c, T)
#define CELLS CELL(sumsq_i32, int32_t) CELL(filter_gt0_sum_i32, int32_t) CELL(sum_i32, int32_t) \
    CELL(sumsq_f32, float) CELL(sum_f32, float) CELL(filter_gt0_sum_f32, float)
#define X(c, T, f) T f(const T *, int64_t);
CELLS
#undef X
struct v { const char *cell, *name; void *fn; int isf; };
#define X(c, T, f) {#c, #f, (void *)f, sizeof(T) == 4 && (T)0.5 != 0},
static struct v ALL[] = {CELLS};
#undef X

static double cpu_ns(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static double wall_ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double med(double *a, int n) { qsort(a, n, sizeof *a, cmpd); return n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]); }
static double quant(double *a, int n, double q) { qsort(a, n, sizeof *a, cmpd); return a[(int)(q * (n - 1) + 0.5)]; }
static double call(struct v *v, void *x, int64_t n) {
    return v->isf ? (double)((float (*)(const float *, int64_t))v->fn)(x, n) : (double)((int32_t (*)(const int32_t *, int64_t))v->fn)(x, n); }

static long huge_kib(void *p, size_t bytes) {  /* AnonHugePages of the mappings overlapping [p, p+bytes) */
    FILE *f = fopen("/proc/self/smaps", "r"); char line[512]; long kib = 0; int in = 0;
    uintptr_t s = (uintptr_t)p, e = s + bytes;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) in = lo < e && s < hi;
        else if (in && !strncmp(line, "AnonHugePages:", 14)) kib += atol(line + 14);
    }
    if (f) fclose(f);
    return kib;
}

int main(int argc, char **argv) {
    const char *cell = argc > 1 ? argv[1] : "sumsq_i32";
    int64_t n = argc > 2 ? atoll(argv[2]) : (16 << 20);
    int trials = argc > 3 ? atoi(argv[3]) : 21;
    const char *only = argc > 4 && strcmp(argv[4], "all") ? argv[4] : NULL;
    int reps = argc > 5 ? atoi(argv[5]) : 1;  /* calls per sample (small n: the timer's resolution) */
    struct v *v[64]; int nv = 0;
    for (size_t k = 0; k < sizeof ALL / sizeof *ALL; k++) {
        if (strcmp(ALL[k].cell, cell)) continue;
        if (only) { const char *nm = ALL[k].name, *p = strstr(only, nm); size_t l = strlen(nm);
            int base = !strncmp(nm, "lo_", 3) || !strncmp(nm, "gcc_", 4);
            if (!base && !(p && (p == only || p[-1] == ',') && (p[l] == 0 || p[l] == ','))) continue; }
        v[nv++] = &ALL[k];
    }
    if (!nv) { fprintf(stderr, "unknown cell %s\n", cell); return 2; }
    /* COPIES copies of x per page size, called in turn: between two reads of one copy at least
       (COPIES - 1) x 64 MiB of other data (>= 4x the 32 MiB L3 at 16 Mi), so no call finds
       its data left in the L3 by the one before (session 22's rotation) */
    size_t bytes = (size_t)n * 4, mapped = ((bytes + (4 << 20)) >> 21) << 21;
    void *buf[2][COPIES];
    for (int c = 0; c < COPIES; c++) {
        char *m4 = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        madvise(m4, mapped, MADV_NOHUGEPAGE);
        char *m2 = mmap(NULL, mapped + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char *a2 = (char *)(((uintptr_t)m2 + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
        madvise(a2, mapped, MADV_HUGEPAGE);
        /* 64-byte aligned, as loop-bench's buffers; LO_OFFSET=16 puts x where numpy's malloc does (session 25) */
        int off = getenv("LO_OFFSET") ? atoi(getenv("LO_OFFSET")) : 64;
        buf[0][c] = m4 + off; buf[1][c] = a2 + off;
    }
    srand(7);
    for (int64_t i = 0; i < n; i++) {
        int r = rand();
        if (v[0]->isf) ((float *)buf[0][0])[i] = (float)r / RAND_MAX * 2.0f - 1.0f;
        else ((int32_t *)buf[0][0])[i] = r % 2001 - 1000;
    }
    for (int c = 0; c < COPIES; c++) for (int p = 0; p < 2; p++) if (c || p) memcpy(buf[p][c], buf[0][0], bytes);
    printf("%s n=%lld trials=%d  AnonHugePages: 4K buffer %ld MiB, 2M buffer %ld MiB of %zu MiB\n", cell, (long long)n, trials,
           huge_kib(buf[0][0], bytes) >> 10, huge_kib(buf[1][0], bytes) >> 10, bytes >> 20);
    double ref = call(v[0], buf[0][0], n);
    for (int j = 0; j < nv; j++)
        for (int p = 0; p < 2 * COPIES; p++) {
            double r = call(v[j], buf[p % 2][p / 2], n);
            int ok = v[j]->isf ? (r - ref) * (r - ref) <= 1e-6 * ref * ref + 1e-6 : r == ref;
            if (!ok) { fprintf(stderr, "%s pages %d: %.9g != %.9g\n", v[j]->name, p, r, ref); return 1; }
        }
    int np = 2 * nv;
    double *tc = calloc((size_t)np * trials, sizeof *tc), *tw = calloc((size_t)np * trials, sizeof *tw);
    volatile double sink;
    int *order = malloc(np * sizeof *order), turn[2] = {0, 0};
    for (int k = 0; k < np; k++) order[k] = k;
    for (int r = 0; r < trials; r++) {
        for (int k = np - 1; k > 0; k--) { int o = rand() % (k + 1), t = order[k]; order[k] = order[o]; order[o] = t; }
        for (int k = 0; k < np; k++) {
            int q = order[k], j = q % nv, p = q / nv;
            void *x = buf[p][turn[p]++ % COPIES];
            double c0 = cpu_ns(), w0 = wall_ns();
            for (int k2 = 0; k2 < reps; k2++) sink = call(v[j], x, n);
            double w1 = wall_ns(), c1 = cpu_ns();
            tc[q * trials + r] = (c1 - c0) / reps; tw[q * trials + r] = (w1 - w0) / reps;
        }
    }
    (void)sink;
    double loadavg[3]; getloadavg(loadavg, 3);
    printf("load %.2f %.2f %.2f at end\n", loadavg[0], loadavg[1], loadavg[2]);
    for (int p = 0; p < 2; p++) {
        /* best baseline: the fastest by median CPU time among the kernel library and gcc */
        int b = -1; double bm = 1e30, tmp[4096];
        for (int j = 0; j < nv; j++) {
            const char *nm = v[j]->name;
            if (strncmp(nm, "lo_", 3) && strncmp(nm, "gcc_", 4)) continue;
            memcpy(tmp, tc + (p * nv + j) * trials, trials * sizeof *tmp);
            double mm = med(tmp, trials);
            if (mm < bm) bm = mm, b = j;
        }
        double bbest = 1e30;
        for (int r = 0; r < trials; r++) if (tc[(p * nv + b) * trials + r] < bbest) bbest = tc[(p * nv + b) * trials + r];
        printf("\n%s pages (best baseline %s)\n%-28s %8s %8s %8s %8s %8s %8s %17s\n", p ? "2 MiB" : "4 KiB", v[b]->name,
               "variant", "GB/s med", "best", "wallbest", "÷b med", "÷b best", "pair med", "pair q1..q3");
        for (int j = 0; j < nv; j++) {
            double *c = tc + (p * nv + j) * trials, *w = tw + (p * nv + j) * trials, *cb = tc + (p * nv + b) * trials;
            double pr[4096];
            for (int r = 0; r < trials; r++) pr[r] = cb[r] / c[r];
            memcpy(tmp, c, trials * sizeof *tmp); double cm = med(tmp, trials), cbest = tmp[0];
            memcpy(tmp, w, trials * sizeof *tmp); qsort(tmp, trials, sizeof *tmp, cmpd); double wbest = tmp[0];
            double pm = med(pr, trials), q1 = quant(pr, trials, 0.25), q3 = quant(pr, trials, 0.75);
            printf("%-28s %8.1f %8.1f %8.1f %8.3f %8.3f %8.3f %8.3f..%.3f\n", v[j]->name, bytes / cm, bytes / cbest, bytes / wbest,
                   bm / cm, bbest / cbest, pm, q1, q3);
        }
    }
    return 0;
}
