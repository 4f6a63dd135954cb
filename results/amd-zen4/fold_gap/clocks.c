// Session 22 (issue 11, helper benchrotate): one fold at 16 Mi i32 timed by both clocks at once,
// over buffer regimes and page sizes, interleaved. Which of (thread CPU time vs wall time),
// (2 MiB vs 4 KiB pages), (same buffer vs rotated copies vs flushed) moves the GB/s?
//   gcc -O3 -march=native results/amd-zen4/fold_gap/clocks.c -o /tmp/clocks && /tmp/clocks [trials] [n]
// Prints per variant: median and best GB/s by CPU time, best by wall time (a loaded machine
// preempts: its wall median is other jobs), and mean wall/CPU of the calls.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

__attribute__((noinline)) int32_t sumsq(const int32_t *x, int64_t n) {
    int32_t s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i] * x[i];
    return s;
}
static double clk(clockid_t c) { struct timespec t; clock_gettime(c, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return (x > y) - (x < y); }
static int32_t *alloc(size_t bytes, int huge) {
    size_t b = (bytes + (2 << 20) - 1) & ~(size_t)((2 << 20) - 1);
    void *p = mmap(0, b + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p = (void *)(((uintptr_t)p + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
    madvise(p, b, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    return p;
}
#define K 3
int main(int argc, char **argv) {
    int trials = argc > 1 ? atoi(argv[1]) : 31;
    int64_t n = argc > 2 ? atoll(argv[2]) : (16 << 20);
    size_t bytes = n * 4;
    int32_t *buf[2][K];
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < K; k++) {
            buf[h][k] = alloc(bytes, h);
            for (int64_t i = 0; i < n; i++) buf[h][k][i] = (int32_t)((i * 2654435761u) % 2001) - 1000;
        }
    size_t sbytes = 64 << 20;  // 2 x the 32 MiB L3
    char *scratch = (char *)alloc(sbytes, 1);
    memset(scratch, 1, sbytes);
    const char *regime[] = {"same", "rot3", "flushR"};
    enum { NV = 6 };
    double *cpu = calloc(NV * trials, sizeof(double)), *wall = calloc(NV * trials, sizeof(double));
    volatile int32_t sink; volatile int64_t ssink = 0;
    int rot[2] = {0, 0};
    for (int r = 0; r < trials; r++)
        for (int q = 0; q < NV; q++) {
            int v = (q + r) % NV, h = v / 3, g = v % 3;
            const int32_t *x = buf[h][0];
            if (g == 1) x = buf[h][rot[h]++ % K];
            if (g == 2) { int64_t s = 0; for (size_t i = 0; i < sbytes; i += 64) s += scratch[i]; ssink += s; }
            double c0 = clk(CLOCK_THREAD_CPUTIME_ID), w0 = clk(CLOCK_MONOTONIC);
            sink = sumsq(x, n);
            double w1 = clk(CLOCK_MONOTONIC), c1 = clk(CLOCK_THREAD_CPUTIME_ID);
            cpu[v * trials + r] = c1 - c0; wall[v * trials + r] = w1 - w0;
        }
    (void)sink;
    printf("n=%lld (%zu MiB) trials=%d   GB/s: CPU median, CPU best, wall best; mean wall/CPU\n", (long long)n, bytes >> 20, trials);
    for (int v = 0; v < NV; v++) {
        double *c = cpu + v * trials, *w = wall + v * trials, ratio = 0;
        for (int r = 0; r < trials; r++) ratio += w[r] / c[r];
        qsort(c, trials, sizeof *c, cmpd); qsort(w, trials, sizeof *w, cmpd);
        printf("%-4s pages %-7s  cpu med %5.1f  cpu best %5.1f  wall best %5.1f  wall/cpu %.2f\n", v / 3 ? "2M" : "4K",
               regime[v % 3], bytes / c[trials / 2], bytes / c[0], bytes / w[0], ratio / trials);
    }
    return 0;
}
