// zen4cells harness: loopopt generated C vs kernel library, interleaved, thread CPU time medians.
// usage: harness PATTERN N TRIALS OFFY OFFO   (OFFY/OFFO: byte offsets of y/out from x's 4 KiB slot, multiples of 64)
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
typedef void (*mapf)(const float*, int64_t, float, float, float*, int64_t);
typedef void (*mapi)(const int32_t*, int64_t, int32_t, int32_t, int32_t*, int64_t);
typedef void (*zipf)(const float*, int64_t, const float*, int64_t, float, float*, int64_t);
typedef void (*zipi)(const int32_t*, int64_t, const int32_t*, int64_t, int32_t, int32_t*, int64_t);
typedef float (*foldf)(const float*, int64_t);
typedef int32_t (*foldi)(const int32_t*, int64_t);
#define PATS(X) X(axpb,f32,mapf) X(axpb,i32,mapi) X(axpy,f32,zipf) X(axpy,i32,zipi) X(sqrt_abs_axpb,f32,mapf) X(sumsq,f32,foldf) X(sumsq,i32,foldi)
#define VARS(X, p, t, ty) VARIANTS_##p##_##t(X, p, t, ty)
#include "variants.h"
struct v { const char *name; void *f; };
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return (x > y) - (x < y); }
static int kind; // 0 mapf 1 mapi 2 zipf 3 zipi 4 foldf 5 foldi
static void *X_, *Y_, *O_; static int64_t N;
static volatile double sink;
static void call(void *f, int64_t reps) {
  for (int64_t r = 0; r < reps; r++) {
    switch (kind) {
      case 0: ((mapf)f)(X_, N, 1.5f, 0.25f, O_, N); break;
      case 1: ((mapi)f)(X_, N, 3, 7, O_, N); break;
      case 2: ((zipf)f)(X_, N, Y_, N, 1.5f, O_, N); break;
      case 3: ((zipi)f)(X_, N, Y_, N, 3, O_, N); break;
      case 4: sink = ((foldf)f)(X_, N); break;
      case 5: sink = ((foldi)f)(X_, N); break;
    }
    __asm__ volatile("" ::: "memory");
  }
}
int main(int argc, char **argv) {
  const char *pat = argv[1]; N = atoll(argv[2]); int trials = atoi(argv[3]);
  int offy = argc > 4 ? atoi(argv[4]) : 0, offo = argc > 5 ? atoi(argv[5]) : 0;
  struct v vs[16]; int nv = 0;
#define ADD(name, f) vs[nv++] = (struct v){name, (void *)f};
#define P(p, t, ty) if (!strcmp(pat, #p "_" #t)) { kind = !strcmp(#ty,"mapf")?0:!strcmp(#ty,"mapi")?1:!strcmp(#ty,"zipf")?2:!strcmp(#ty,"zipi")?3:!strcmp(#ty,"foldf")?4:5; VARS(ADD, p, t, ty) }
  PATS(P)
  if (!nv) { fprintf(stderr, "unknown pattern\n"); return 1; }
  size_t slot = ((N * 4 + 8192) / 4096 + 1) * 4096;
  char *mem = aligned_alloc(4096, 3 * slot + 8192);
  memset(mem, 0, 3 * slot + 8192);
  X_ = mem; Y_ = mem + slot + offy; O_ = mem + 2 * slot + offo;
  srand(7);
  for (int64_t i = 0; i < N; i++) {
    if (kind % 2 == 0) { ((float *)X_)[i] = (float)rand() / RAND_MAX * 4 - 2; ((float *)Y_)[i] = (float)rand() / RAND_MAX; }
    else { ((int32_t *)X_)[i] = rand() % 2001 - 1000; ((int32_t *)Y_)[i] = rand() % 2001 - 1000; }
  }
  // calibrate on variant 0: sample >= 1 ms
  int64_t reps = 1; for (;;) { double s = now(); call(vs[0].f, reps); if (now() - s > 1e6) break; reps *= 2; }
  for (int j = 0; j < nv; j++) call(vs[j].f, reps / 4 + 1);
  double *t = calloc((size_t)nv * trials, sizeof *t);
  for (int r = 0; r < trials; r++)
    for (int k = 0; k < nv; k++) {
      int j = (k + r) % nv;
      double s = now(); call(vs[j].f, reps); t[j * trials + r] = (now() - s) / reps;
    }
  printf("%s n=%lld offy=%d offo=%d reps=%lld trials=%d\n", pat, (long long)N, offy, offo, (long long)reps, trials);
  double base = 0;
  for (int j = 0; j < nv; j++) {
    qsort(t + j * trials, trials, sizeof *t, cmpd);
    double m = t[j * trials + trials / 2];
    if (!j) base = m;
    printf("  %-14s %10.1f ns  q1 %10.1f q3 %10.1f min %10.1f  %.3fx\n", vs[j].name, m, t[j*trials+trials/4], t[j*trials+3*trials/4], t[j*trials], base / m);
  }
  return 0;
}
