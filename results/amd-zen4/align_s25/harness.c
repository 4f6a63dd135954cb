// Session 25 (issue 11, helper alignpeel): does aligning the vector loop's loads to 64 bytes pay on Zen 4?
// build.sh builds it from loopopt's C (avx512 and avx2, cpu=zen4). Usage:
//   harness n trials off [reps]     off = byte offset of every array from a 64-byte boundary (numpy: 16 or 32)
// For each cell and ISA two variants in one process, interleaved in a per-trial shuffled order:
//   cur  = loopopt's kernel on the arrays as given (x, y, out all at `off` mod 64)
//   (with -DNEWC, build.sh NEW=1: peel = this tree's kernel, cur = OLD_TREE's, both on the same arrays)
//   peel = a scalar head of h = ((64 - off) % 64) / 4 elements, then the same kernel on x+h, y+h, out+h:
//          its main loop's loads (and stores) are 64-byte aligned -- what an aligning peel would emit.
// Each array exists once on 4 KiB pages (MADV_NOHUGEPAGE) and once on 2 MiB pages (MADV_HUGEPAGE); at sizes
// beyond the L3 each call takes the next of COPIES copies (no call finds its data in the 32 MiB L3).
// Prints per cell/ISA/pages the median GB/s (thread CPU time) of each, and the per-trial paired ratio
// t(cur)/t(peel) (>1: the peel is faster) as median [q1..q3].
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#define COPIES 3
#define DECL(p) \
  void p##_axpb_f32(const float *, int64_t, float, float, float *, int64_t); \
  void p##_axpy_f32(const float *, int64_t, const float *, int64_t, float, float *, int64_t); \
  float p##_sum_f32(const float *, int64_t); float p##_sumsq_f32(const float *, int64_t); \
  float p##_dot_f32(const float *, int64_t, const float *, int64_t); \
  int64_t p##_filter_gt0_scale_f32(const float *, int64_t, float, float *, int64_t);
DECL(lo512) DECL(lo256)
#ifdef NEWC  /* build.sh NEW=1: the peel variant is this tree's C (ne512/ne256), the cur one main's */
DECL(ne512) DECL(ne256)
#define PICK(isa, peel, f) ((peel) ? ((isa) ? ne512_##f : ne256_##f) : ((isa) ? lo512_##f : lo256_##f))
#else
#define PICK(isa, peel, f) ((isa) ? lo512_##f : lo256_##f)
#endif
static volatile float sinkf; static volatile int64_t sinki;
enum { AXPB, AXPY, SUM, SUMSQ, DOT, FILT, NCELL };
static const char *CN[] = {"axpb_f32", "axpy_f32", "sum_f32", "sumsq_f32", "dot_f32", "filter_gt0_scale_f32"};
static const int NARR[] = {2, 3, 1, 1, 2, 2};  /* arrays touched: bytes moved = NARR * 4n */
static void run(int cell, int isa, int peel, float *x, float *y, float *o, int64_t n, int64_t h) {
  if (!peel || h > n) h = 0;
#ifdef NEWC
  h = 0;
#endif
  float a = 1.5f, b = 0.25f;
  switch (cell) {
  case AXPB: for (int64_t i = 0; i < h; i++) o[i] = a * x[i] + b;
    PICK(isa, peel, axpb_f32)(x + h, n - h, a, b, o + h, n - h); break;
  case AXPY: for (int64_t i = 0; i < h; i++) o[i] = a * x[i] + y[i];
    PICK(isa, peel, axpy_f32)(x + h, n - h, y + h, n - h, a, o + h, n - h); break;
  case SUM: { float s = 0; for (int64_t i = 0; i < h; i++) s += x[i];
    sinkf = s + PICK(isa, peel, sum_f32)(x + h, n - h); break; }
  case SUMSQ: { float s = 0; for (int64_t i = 0; i < h; i++) s += x[i] * x[i];
    sinkf = s + PICK(isa, peel, sumsq_f32)(x + h, n - h); break; }
  case DOT: { float s = 0; for (int64_t i = 0; i < h; i++) s += x[i] * y[i];
    sinkf = s + PICK(isa, peel, dot_f32)(x + h, n - h, y + h, n - h); break; }
  case FILT: { int64_t k = 0; for (int64_t i = 0; i < h; i++) if (x[i] > 0) o[k++] = a * x[i];
    sinki = k + PICK(isa, peel, filter_gt0_scale_f32)(x + h, n - h, a, o + k, n - k); break; }
  }
}
static double cpu_ns(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double quant(const double *a0, int n, double q) { double a[4096]; memcpy(a, a0, n * sizeof *a); qsort(a, n, sizeof *a, cmpd); return a[(int)(q * (n - 1) + 0.5)]; }
static float *arr(size_t bytes, int huge, int off) {
  size_t m = ((bytes + (4 << 20)) >> 21) << 21;
  char *p = mmap(NULL, m + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *a = (char *)(((uintptr_t)p + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
  madvise(a, m, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return (float *)(a + 4096 + off);  /* 4096: not at a 2 MiB (set-conflicting) boundary */
}
int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 1 << 20;
  int trials = argc > 2 ? atoi(argv[2]) : 21, off = argc > 3 ? atoi(argv[3]) : 16;
  int reps = argc > 4 ? atoi(argv[4]) : 1;
  const char *only = getenv("CELLS");
  int copies = (int64_t)n * 4 > (8 << 20) ? COPIES : 1;
  int64_t h = ((64 - off) % 64) / 4;
  size_t bytes = (size_t)n * 4;
  float *X[2][COPIES], *Y[2][COPIES], *O[2][COPIES];
  srand(11);
  for (int p = 0; p < 2; p++) for (int c = 0; c < copies; c++) {
    X[p][c] = arr(bytes, p, off); Y[p][c] = arr(bytes, p, off); O[p][c] = arr(bytes, p, off);
    for (int64_t i = 0; i < n; i++) { X[p][c][i] = (float)rand() / RAND_MAX * 2 - 1; Y[p][c][i] = (float)rand() / RAND_MAX; O[p][c][i] = 0; }
  }
  double la[3]; getloadavg(la, 3);
  printf("n=%lld trials=%d off=%d head=%lld reps=%d copies=%d load %.2f %.2f %.2f\n", (long long)n, trials, off, (long long)h, reps, copies, la[0], la[1], la[2]);
  /* slots: cell x isa x pages x variant */
  int ns = NCELL * 2 * 2 * 2, *ord = malloc(ns * sizeof *ord), turn[2] = {0, 0};
  double *t = calloc((size_t)ns * trials, sizeof *t);
  for (int k = 0; k < ns; k++) ord[k] = k;
  for (int r = 0; r < trials; r++) {
    for (int k = ns - 1; k > 0; k--) { int o = rand() % (k + 1), q = ord[k]; ord[k] = ord[o]; ord[o] = q; }
    for (int k = 0; k < ns; k++) {
      int q = ord[k], cell = q / 8, isa = q / 4 % 2, p = q / 2 % 2, v = q % 2;
      if (only && !strstr(only, CN[cell])) continue;
      int c = turn[p]++ % copies;
      double c0 = cpu_ns();
      for (int j = 0; j < reps; j++) run(cell, isa, v, X[p][c], Y[p][c], O[p][c], n, h);
      t[q * trials + r] = (cpu_ns() - c0) / reps;
    }
  }
  getloadavg(la, 3);
  printf("load at end %.2f %.2f %.2f\n%-22s %-6s %-5s %9s %9s %7s %15s\n", la[0], la[1], la[2], "cell", "isa", "pages", "cur GB/s", "peel GB/s", "pair", "q1..q3");
  for (int cell = 0; cell < NCELL; cell++) for (int isa = 1; isa >= 0; isa--) for (int p = 0; p < 2; p++) {
    if (only && !strstr(only, CN[cell])) continue;
    int q0 = cell * 8 + isa * 4 + p * 2;
    double *a = t + q0 * trials, *b = t + (q0 + 1) * trials, pr[4096];
    for (int r = 0; r < trials; r++) pr[r] = a[r] / b[r];
    double B = (double)NARR[cell] * bytes;
    printf("%-22s %-6s %-5s %9.1f %9.1f %7.3f %7.3f..%.3f\n", CN[cell], isa ? "avx512" : "avx2", p ? "2M" : "4K",
           B / quant(a, trials, 0.5), B / quant(b, trials, 0.5), quant(pr, trials, 0.5), quant(pr, trials, 0.25), quant(pr, trials, 0.75));
  }
  return 0;
}
