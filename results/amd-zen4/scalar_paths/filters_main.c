#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define DECL(p) \
int64_t p##keep_f16(const uint16_t *restrict x, int64_t x_len, float a, uint16_t *restrict out, int64_t out_len); \
void p##keep_pairs_bf16(const uint16_t *restrict x, int64_t x_len, const uint16_t *restrict y, int64_t y_len, float a, uint16_t *restrict out0, int64_t out0_len, uint16_t *restrict out1, int64_t out1_len, int64_t *restrict ret0, int64_t *restrict ret1); \
int64_t p##keep_big_squares(const float *restrict x, int64_t x_len, double t, float *restrict out, int64_t out_len); \
float p##sum_above(const float *restrict x, int64_t x_len, float a);
DECL(old_) DECL(new_)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmpd(const void *a, const void *b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
#define N (1 << 20)
#define R 41
int main(void) {
  static uint16_t h[N], b[N], b2[N], o16[N], o16b[N]; static float f[N], of[N];
  FILE *in = fopen("data.bin", "rb");
  if (fread(h, 2, N, in) != N || fread(b, 2, N, in) != N || fread(b2, 2, N, in) != N || fread(f, 4, N, in) != N) return 1;
  const char *names[8] = {"keep_f16 old", "keep_f16 new", "keep_pairs_bf16 old", "keep_pairs_bf16 new", "keep_big_squares old", "keep_big_squares new", "sum_above f32 old", "sum_above f32 new"};
  double t[8][R]; int64_t r0, r1; volatile float sink;
  for (int r = 0; r < R; r++) {
    double s;
    s = now(); int64_t k0 = old_keep_f16(h, N, 0.0f, o16, N); t[0][r] = now() - s;
    s = now(); int64_t k1 = new_keep_f16(h, N, 0.0f, o16, N); t[1][r] = now() - s;
    if (k0 != k1) return 2;
    s = now(); old_keep_pairs_bf16(b, N, b2, N, 0.0f, o16, N, o16b, N, &r0, &r1); t[2][r] = now() - s;
    s = now(); new_keep_pairs_bf16(b, N, b2, N, 0.0f, o16, N, o16b, N, &r0, &r1); t[3][r] = now() - s;
    s = now(); k0 = old_keep_big_squares(f, N, 0.4549, of, N); t[4][r] = now() - s;
    s = now(); k1 = new_keep_big_squares(f, N, 0.4549, of, N); t[5][r] = now() - s;
    if (k0 != k1) return 3;
    s = now(); sink = old_sum_above(f, N, 0.0f); t[6][r] = now() - s;
    s = now(); sink = new_sum_above(f, N, 0.0f); t[7][r] = now() - s;
  }
  (void)sink;
  for (int i = 0; i < 8; i++) { qsort(t[i], R, sizeof(double), cmpd); printf("%-22s median %8.1f us  min %8.1f  p25 %8.1f p75 %8.1f\n", names[i], t[i][R/2], t[i][0], t[i][R/4], t[i][3*R/4]); }
  return 0;
}
