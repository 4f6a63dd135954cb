// Session 26 (issue 11, helper zen3knobs): paired A/B of two builds of the same loopopt kernels on Zen 3.
// build.sh generates A_*.c and B_*.c from one .mlir with two pipeline option sets and links them here.
// Usage: harness n trials off reps pages   (pages: 0 = 4 KiB (MADV_NOHUGEPAGE), 1 = 2 MiB, 2 = both)
// PROXY=1: B = a scalar head to x's 32-byte boundary + A's kernel (the same code: no layout change).
//   off = byte offset of every array past a 64-byte line (numpy: 16 or 32); CELLS=sum_f32,... restricts.
// Every trial runs each (cell, pages, variant) slot once in a freshly shuffled order; a slot is `reps`
// calls timed by thread CPU time. Arrays beyond 8 MiB rotate over 3 copies (no call finds its data in
// the 32 MiB L3; NCOPIES=1..3 overrides). Prints median ns a call of A and B and the paired ratio t(A)/t(B) (> 1: B faster) as
// its median and the ~95% order-statistic interval of that median (tools/bench/paired.py's rule).
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#define COPIES 3
#define DECL(p) \
  void p##_axpb_f32(const float *, int64_t, float, float, float *, int64_t); \
  void p##_axpb_i32(const int32_t *, int64_t, int32_t, int32_t, int32_t *, int64_t); \
  void p##_axpy_f32(const float *, int64_t, const float *, int64_t, float, float *, int64_t); \
  void p##_axpy_i32(const int32_t *, int64_t, const int32_t *, int64_t, int32_t, int32_t *, int64_t); \
  float p##_sum_f32(const float *, int64_t); int32_t p##_sum_i32(const int32_t *, int64_t); \
  float p##_sumsq_f32(const float *, int64_t); int32_t p##_sumsq_i32(const int32_t *, int64_t); \
  float p##_dot_f32(const float *, int64_t, const float *, int64_t); \
  int32_t p##_dot_i32(const int32_t *, int64_t, const int32_t *, int64_t);
DECL(A) DECL(B)
static volatile float sinkf; static volatile int32_t sinki;
enum { AXPB_F, AXPB_I, AXPY_F, AXPY_I, SUM_F, SUM_I, SUMSQ_F, SUMSQ_I, DOT_F, DOT_I, NCELL };
static const char *CN[] = {"axpb_f32", "axpb_i32", "axpy_f32", "axpy_i32", "sum_f32", "sum_i32", "sumsq_f32", "sumsq_i32", "dot_f32", "dot_i32"};
static const int NARR[] = {2, 2, 3, 3, 1, 1, 1, 1, 2, 2};  /* arrays touched: bytes moved = NARR * 4n */
#define CALL(v, f) ((v) && !proxy ? B_##f : A_##f)
static int proxy; static int64_t head;
/* PROXY=1: B is A's kernel after a scalar head of `head` elements (x + head on a 32-byte boundary). */
static void run(int cell, int v, void *x, void *y, void *o, int64_t n) {
  float *xf = x, *yf = y, *of = o; int32_t *xi = x, *yi = y, *oi = o;
  int64_t h = v && proxy && head <= n ? head : 0;
  float sf = 0; int32_t si = 0;
  switch (cell) {
  case AXPB_F: for (int64_t i = 0; i < h; i++) of[i] = 1.5f * xf[i] + 0.25f;
    CALL(v, axpb_f32)(xf + h, n - h, 1.5f, 0.25f, of + h, n - h); break;
  case AXPB_I: for (int64_t i = 0; i < h; i++) oi[i] = (int32_t)(3u * (uint32_t)xi[i] + 7u);
    CALL(v, axpb_i32)(xi + h, n - h, 3, 7, oi + h, n - h); break;
  case AXPY_F: for (int64_t i = 0; i < h; i++) of[i] = 1.5f * xf[i] + yf[i];
    CALL(v, axpy_f32)(xf + h, n - h, yf + h, n - h, 1.5f, of + h, n - h); break;
  case AXPY_I: for (int64_t i = 0; i < h; i++) oi[i] = (int32_t)(3u * (uint32_t)xi[i] + (uint32_t)yi[i]);
    CALL(v, axpy_i32)(xi + h, n - h, yi + h, n - h, 3, oi + h, n - h); break;
  case SUM_F: for (int64_t i = 0; i < h; i++) sf += xf[i];
    sinkf = sf + CALL(v, sum_f32)(xf + h, n - h); break;
  case SUM_I: for (int64_t i = 0; i < h; i++) si = (int32_t)((uint32_t)si + (uint32_t)xi[i]);
    sinki = si + CALL(v, sum_i32)(xi + h, n - h); break;
  case SUMSQ_F: for (int64_t i = 0; i < h; i++) sf += xf[i] * xf[i];
    sinkf = sf + CALL(v, sumsq_f32)(xf + h, n - h); break;
  case SUMSQ_I: for (int64_t i = 0; i < h; i++) si = (int32_t)((uint32_t)si + (uint32_t)xi[i] * (uint32_t)xi[i]);
    sinki = si + CALL(v, sumsq_i32)(xi + h, n - h); break;
  case DOT_F: for (int64_t i = 0; i < h; i++) sf += xf[i] * yf[i];
    sinkf = sf + CALL(v, dot_f32)(xf + h, n - h, yf + h, n - h); break;
  case DOT_I: for (int64_t i = 0; i < h; i++) si = (int32_t)((uint32_t)si + (uint32_t)xi[i] * (uint32_t)yi[i]);
    sinki = si + CALL(v, dot_i32)(xi + h, n - h, yi + h, n - h); break;
  }
}
static double cpu_ns(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static double *sorted(const double *a0, int n) { static double a[8192]; memcpy(a, a0, n * sizeof *a); qsort(a, n, sizeof *a, cmpd); return a; }
static double med(const double *a, int n) { double *s = sorted(a, n); return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; }
static char *arr(size_t bytes, int huge, int off) {
  size_t m = ((bytes + (4 << 20)) >> 21) << 21;
  char *p = mmap(NULL, m + (2 << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char *a = (char *)(((uintptr_t)p + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
  madvise(a, m, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return a + 4096 + off;  /* 4096: not at a 2 MiB (set-conflicting) boundary */
}
int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 1 << 20;
  int trials = argc > 2 ? atoi(argv[2]) : 21, off = argc > 3 ? atoi(argv[3]) : 16;
  int reps = argc > 4 ? atoi(argv[4]) : 1, pages = argc > 5 ? atoi(argv[5]) : 0;
  const char *only = getenv("CELLS");
  proxy = getenv("PROXY") && atoi(getenv("PROXY")); head = ((32 - off % 32) % 32) / 4;
  int copies = n * 4 > (8 << 20) ? COPIES : 1, p0 = pages == 1, p1 = pages >= 1;
  if (getenv("NCOPIES")) copies = atoi(getenv("NCOPIES")) < 1 ? 1 : atoi(getenv("NCOPIES")) > COPIES ? COPIES : atoi(getenv("NCOPIES"));
  size_t bytes = (size_t)(n > 0 ? n : 1) * 4;
  char *X[2][COPIES], *Y[2][COPIES], *O[2][COPIES];
  srand(11);
  for (int p = p0; p <= p1; p++) for (int c = 0; c < copies; c++) {
    X[p][c] = arr(bytes, p, off); Y[p][c] = arr(bytes, p, off); O[p][c] = arr(bytes, p, off);
    for (int64_t i = 0; i < n; i++) {
      ((float *)X[p][c])[i] = (float)rand() / RAND_MAX * 2 - 1; ((float *)Y[p][c])[i] = (float)rand() / RAND_MAX;
      ((float *)O[p][c])[i] = 0;
    }
  }
  double la[3]; getloadavg(la, 3);
  printf("%sn=%lld trials=%d off=%d reps=%d copies=%d load %.2f %.2f %.2f\n", proxy ? "PROXY (B = head + A) " : "", (long long)n, trials, off, reps, copies, la[0], la[1], la[2]);
  int ns = NCELL * 2 * 2, *ord = malloc(ns * sizeof *ord), turn[2] = {0, 0};
  double *t = calloc((size_t)ns * trials, sizeof *t);
  for (int k = 0; k < ns; k++) ord[k] = k;
  for (int r = 0; r < trials; r++) {
    for (int k = ns - 1; k > 0; k--) { int o = rand() % (k + 1), q = ord[k]; ord[k] = ord[o]; ord[o] = q; }
    for (int k = 0; k < ns; k++) {
      int q = ord[k], cell = q / 4, p = q / 2 % 2, v = q % 2;
      if ((only && !strstr(only, CN[cell])) || p < p0 || p > p1) continue;
      int c = turn[p]++ % copies;
      double c0 = cpu_ns();
      for (int j = 0; j < reps; j++) run(cell, v, X[p][c], Y[p][c], O[p][c], n);
      t[q * trials + r] = (cpu_ns() - c0) / reps;
    }
  }
  getloadavg(la, 3);
  int k95 = (int)floor((trials - 1.96 * sqrt(trials)) / 2); if (k95 < 0) k95 = 0;
  printf("load at end %.2f %.2f %.2f\n%-10s %-5s %11s %11s %7s %8s %13s\n", la[0], la[1], la[2], "cell", "pages", "A ns", "B ns", "B GB/s", "A/B", "~95% interval");
  for (int cell = 0; cell < NCELL; cell++) for (int p = p0; p <= p1; p++) {
    if (only && !strstr(only, CN[cell])) continue;
    int q0 = cell * 4 + p * 2;
    double *a = t + q0 * trials, *b = t + (q0 + 1) * trials, pr[8192];
    for (int r = 0; r < trials; r++) pr[r] = a[r] / b[r];
    double ma = med(a, trials), mb = med(b, trials), mr = med(pr, trials), *s = sorted(pr, trials);
    printf("%-10s %-5s %11.1f %11.1f %7.2f %8.3f %6.3f..%.3f\n", CN[cell], p ? "2M" : "4K", ma, mb,
           NARR[cell] * (double)bytes / mb, mr, s[k95], s[trials - 1 - k95]);
  }
  return 0;
}
