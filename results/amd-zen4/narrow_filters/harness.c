/* Narrow filters `x > 3` (i8/u8/i16/u16), session 25 (issue 11): loopopt avx2, avx512 (the 8-byte
   pshufb groups, cpu=generic), avx512 with VBMI2 (cpu=zen4), the hand VBMI2 variant and gcc -O3 -march=native on a branch-free scalar loop,
   interleaved in one process. Per cell (type, n, kept fraction): R rounds, each calling every
   variant in turn (rotated start) for >= ~100 us of thread CPU time; median ns per call.
   usage: harness R [variants bitmask] */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define DECL(p) \
  int64_t p##_keep_i8(const int8_t *restrict, int64_t, int8_t *restrict, int64_t); \
  int64_t p##_keep_u8(const int8_t *restrict, int64_t, int8_t *restrict, int64_t); \
  int64_t p##_keep_i16(const int16_t *restrict, int64_t, int16_t *restrict, int64_t); \
  int64_t p##_keep_u16(const int16_t *restrict, int64_t, int16_t *restrict, int64_t);
DECL(avx2) DECL(avx512) DECL(vbmi2) DECL(hand) DECL(gcc)
typedef int64_t (*f8)(const int8_t *restrict, int64_t, int8_t *restrict, int64_t);
typedef int64_t (*f16)(const int16_t *restrict, int64_t, int16_t *restrict, int64_t);
static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
#define NV 5
static const char *names[NV] = {"avx2", "avx512", "vbmi2", "hand", "gcc"};
int main(int argc, char **argv) {
  int R = argc > 1 ? atoi(argv[1]) : 21;
  int64_t sizes[3] = {1 << 10, 1 << 16, 1 << 20};
  double kept[2] = {0.5, 0.1};
  const char *tn[4] = {"i8", "u8", "i16", "u16"};
  f8 v8[2][NV] = {{avx2_keep_i8, avx512_keep_i8, vbmi2_keep_i8, hand_keep_i8, gcc_keep_i8}, {avx2_keep_u8, avx512_keep_u8, vbmi2_keep_u8, hand_keep_u8, gcc_keep_u8}};
  f16 v16[2][NV] = {{avx2_keep_i16, avx512_keep_i16, vbmi2_keep_i16, hand_keep_i16, gcc_keep_i16}, {avx2_keep_u16, avx512_keep_u16, vbmi2_keep_u16, hand_keep_u16, gcc_keep_u16}};
  int64_t N = 1 << 20;
  void *xin = aligned_alloc(64, 2 * N + 64), *out = aligned_alloc(64, 2 * N + 64);
  double *t = malloc(sizeof(double) * NV * R);
  srand(7);
  printf("%-4s %8s %5s", "type", "n", "kept");
  for (int v = 0; v < NV; v++) printf(" %12s", names[v]);
  printf("   avx512/avx2 vbmi2/avx2 vbmi2/avx512 (time ratios: < 1 = faster)\n");
  for (int ty = 0; ty < 4; ty++)
    for (int k = 0; k < 2; k++)
      for (int s = 0; s < 3; s++) {
        int64_t n = sizes[s];
        for (int64_t i = 0; i < n; i++) {
          int keep = rand() < kept[k] * RAND_MAX;
          int r = rand();
          /* kept: a value > 3 (signed and unsigned alike: 4..100); dropped: 0..3 or, for the signed types, negative */
          int val = keep ? 4 + r % 97 : (ty == 0 || ty == 2) && (r & 1) ? -1 - (r >> 1) % 100 : (r >> 1) % 4;
          if (ty < 2) ((int8_t *)xin)[i] = (int8_t)val; else ((int16_t *)xin)[i] = (int16_t)val;
        }
        int64_t want = -1;
        for (int v = 0; v < NV; v++) {
          int64_t c = ty < 2 ? v8[ty][v](xin, n, out, n) : v16[ty - 2][v](xin, n, out, n);
          if (want < 0) want = c; else if (c != want) { printf("count mismatch %s %s\n", tn[ty], names[v]); return 2; }
        }
        int reps = (int)(100000 / (n * 0.3 + 50)) + 1;
        for (int r = 0; r < R; r++)
          for (int j = 0; j < NV; j++) {
            int v = (j + r) % NV;
            double s0 = now();
            for (int q = 0; q < reps; q++)
              if (ty < 2) v8[ty][v](xin, n, out, n); else v16[ty - 2][v](xin, n, out, n);
            t[v * R + r] = (now() - s0) / reps;
          }
        double med[NV];
        for (int v = 0; v < NV; v++) { qsort(t + v * R, R, sizeof(double), cmpd); med[v] = t[v * R + R / 2]; }
        printf("%-4s %8lld %4.0f%%", tn[ty], (long long)n, kept[k] * 100);
        for (int v = 0; v < NV; v++) printf(" %12.0f", med[v]);
        printf("   %5.2f %5.2f %5.2f\n", med[1] / med[0], med[2] / med[0], med[2] / med[1]);
        fflush(stdout);
      }
  return 0;
}
