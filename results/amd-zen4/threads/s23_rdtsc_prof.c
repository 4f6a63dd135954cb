/* Four rdtsc-instrumented generated filter->map drivers interleaved (results/amd-zen4/threads/README.md):
     python s23_rdtsc_instrument.py gen.c prof<i>.c   (for four generated drivers, i = 0..3)
     gcc -O3 -march=native -fopenmp -c -Dfilter_scale=fs_s<i> -DPROF=PROF_s<i> -Daxpb=axpb_p<i> -Dsum=sum_p<i> prof<i>.c -o p<i>.o
     gcc -O3 -march=native -fopenmp s23_rdtsc_prof.c p0.o p1.o p2.o p3.o -o prof && ./prof 81
   Phases per thread: the first count, waits for counts, prefetch issue, __chunk, drain/copy, loop, the next part's count. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <x86intrin.h>
int loopopt_num_threads = 2;
int loopopt_parallel_calls = 0;
typedef int64_t (*F)(const float *, int64_t, float, float *, int64_t);
#define DECL(i) extern int64_t fs_s##i(const float *, int64_t, float, float *, int64_t); extern uint64_t PROF_s##i[8][16];
DECL(0) DECL(1) DECL(2) DECL(3)
static F FS[4] = {fs_s0, fs_s1, fs_s2, fs_s3};
static uint64_t (*PR[4])[16] = {PROF_s0, PROF_s1, PROF_s2, PROF_s3};
static const char *NAMES[4] = {"new 2K", "new 16K", "old 2K", "old 16K"};
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define N (1 << 24)
int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 51;
    size_t bytes = (size_t)N * 4;
    float *X = aligned_alloc(2 << 20, bytes), *OUT = aligned_alloc(2 << 20, bytes + 64);
    madvise(X, bytes, MADV_HUGEPAGE); madvise(OUT, bytes, MADV_HUGEPAGE);
    uint64_t s = 1;
    for (int64_t i = 0; i < N; i++) { s = s * 6364136223846793005ull + 1442695040888963407ull; X[i] = (float)((int64_t)(s >> 33) - (1ll << 30)) / (float)(1 << 30); }
    memset(OUT, 0, bytes);
    double c0 = now(); uint64_t r0 = __rdtsc(); while (now() - c0 < 0.05) ; double ghz = (__rdtsc() - r0) / (now() - c0) / 1e9;
    double best[4] = {1e9, 1e9, 1e9, 1e9}, med[4][1000];
    uint64_t bp[4][2][10], tot[4];
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < 4; j++) {
            int v = (j + r) % 4;
            double t0 = now(); FS[v](X, N, 2.0f, OUT, N); double t = now() - t0;
            med[v][r] = t;
            if (t < best[v]) { best[v] = t; for (int th = 0; th < 2; th++) for (int q = 0; q < 10; q++) bp[v][th][q] = PR[v][th][q]; tot[v] = PR[v][7][0]; }
        }
    double l[3]; getloadavg(l, 3);
    printf("%d rounds, TSC %.2f GHz, load after %.2f; best call's phases per thread (ms): first count, waits, prefetch, chunk, drain, loop, count next\n", rounds, ghz, l[0]);
    for (int v = 0; v < 4; v++) {
        printf("%-7s best %.3f ms\n", NAMES[v], 1e3 * best[v]);
        for (int th = 0; th < 2; th++) {
            printf("   t%d:", th);
            for (int q = 0; q < 7; q++) printf(" %7.3f", bp[v][th][q] / ghz / 1e6);
            printf("  | starts %.3f, last part done %.3f, region ends %.3f", bp[v][th][8] / ghz / 1e6, bp[v][th][9] / ghz / 1e6, tot[v] / ghz / 1e6);
            printf("\n");
        }
    }
    return 0;
}
