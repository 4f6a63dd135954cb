// Session 22 (issue 11, helper scalarpaths): can an SSE2 running unsigned max/min over i32 beat
// the scalar loop on Zen 4 (Costs.scalar_scans keeps it scalar: loopopt's vector form 622 µs)?
// Variants, 1 Mi random i32, best/median of 31 interleaved rounds:
//   scalar                     the printed scalar loop (cmp + cmov chain)
//   current sse2               loopopt's form: slides shifting in the neutral, lo_maxu_i32x4
//                              (both operands' signs flipped in every combine)
//   flip+pshufd                the data xor 0x80000000 once (unsigned order = signed order), signed
//                              cmpgt + and/andnot/or, and the log-step slides as pshufd lane
//                              duplication (0,0,1,2 then 0,0,0,1: max is idempotent, so copies
//                              of lane 0 need no neutral); flipped back at the store
//   flip+slide                 the same flip with loopopt's slides (pslldq + por of the neutral)
//   flip in prefix only        flipped inside the in-register prefix, the carry combines still
//                              lo_maxu (what a change local to scan.lane_prefix would give)
//   pshufd, no flip            lo_maxu everywhere, only the slides replaced by pshufd
// Results (AMD EPYC family 25 model 17, gcc 12.2 -O3 -fno-tree-vectorize -msse2, load 11-12):
//   umax: scalar 571.6 µs, current sse2 622.2, flip+pshufd 374.7 (1.53x the scalar loop),
//         flip+pshufd with 1 max per 8 on the carry chain 423.8, flip+slide 572.6,
//         flip in prefix only 529.6, pshufd without flip 587.9 (a second run);
//   umin: scalar 570.8, flip+pshufd 373.6.  (p25-p75 spread of each: under 10%.)
// So the win needs the whole scan in the flipped domain (loads, carry, stores) AND pshufd
// duplication in place of the slides; the lowering emits neither yet (no lane-duplicating slide
// op in simd; scan.py lowers the body generically), so zen4's scalar_scans keeps the SSE2
// umin/umax i32 entries. i64 min/max on SSE2 (no 64-bit compare) was not retried.
// Build: gcc -O3 -std=c11 -ffp-contract=off -fno-tree-vectorize -fwrapv -fno-strict-aliasing
//        -msse2 -mno-mmx -o sse2_scans sse2_scans.c && ./sse2_scans
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <emmintrin.h>
#define NOINL __attribute__((noinline))
NOINL void scalar_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  int32_t acc = init;
  for (int64_t i = 0; i < n; i++) { int32_t v = x[i]; int32_t m = (uint32_t)acc > (uint32_t)v ? acc : v; out[i] = m; acc = m; }
}
static inline __m128i lo_maxu_i32x4(__m128i a, __m128i b) {
  __m128i gt = _mm_cmpgt_epi32(_mm_xor_si128(a, _mm_set1_epi32(INT32_MIN)), _mm_xor_si128(b, _mm_set1_epi32(INT32_MIN)));
  return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
}
NOINL void cur_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  __m128i acc = _mm_set1_epi32(init); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_loadu_si128((const __m128i *)&x[i]);
    __m128i a1 = lo_maxu_i32x4(_mm_slli_si128(a, 4), a);
    __m128i a2 = lo_maxu_i32x4(_mm_slli_si128(a1, 8), a1);
    _mm_storeu_si128((__m128i *)&out[i], lo_maxu_i32x4(acc, a2));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(a2, 0xFF));
    __m128i b = _mm_loadu_si128((const __m128i *)&x[i + 4]);
    __m128i b1 = lo_maxu_i32x4(_mm_slli_si128(b, 4), b);
    __m128i b2 = lo_maxu_i32x4(_mm_slli_si128(b1, 8), b1);
    _mm_storeu_si128((__m128i *)&out[i + 4], lo_maxu_i32x4(acc, b2));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(b2, 0xFF));
  }
  int32_t s = _mm_cvtsi128_si32(acc);
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
static inline __m128i smax(__m128i a, __m128i b) { __m128i gt = _mm_cmpgt_epi32(a, b); return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b)); }
/* flipped-sign domain, pshufd duplicates instead of shifts (max is idempotent) */
NOINL void flip_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  __m128i acc = _mm_xor_si128(_mm_set1_epi32(init), sign); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i]), sign);
    a = smax(a, _mm_shuffle_epi32(a, 0x90));   /* lanes 0,0,1,2 */
    a = smax(a, _mm_shuffle_epi32(a, 0x40));   /* lanes 0,0,0,1 */
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i + 4]), sign);
    b = smax(b, _mm_shuffle_epi32(b, 0x90));
    b = smax(b, _mm_shuffle_epi32(b, 0x40));
    __m128i ra = smax(acc, a);
    _mm_storeu_si128((__m128i *)&out[i], _mm_xor_si128(ra, sign));
    __m128i rb = smax(_mm_shuffle_epi32(ra, 0xFF), b);
    _mm_storeu_si128((__m128i *)&out[i + 4], _mm_xor_si128(rb, sign));
    acc = _mm_shuffle_epi32(rb, 0xFF);
  }
  int32_t s = _mm_cvtsi128_si32(acc) ^ INT32_MIN;
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
/* same, the carry chain one max per 8 elements: block b's local prefix combined with a's total off the chain */
NOINL void flip2_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  __m128i acc = _mm_xor_si128(_mm_set1_epi32(init), sign); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i]), sign);
    a = smax(a, _mm_shuffle_epi32(a, 0x90));
    a = smax(a, _mm_shuffle_epi32(a, 0x40));
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i + 4]), sign);
    b = smax(b, _mm_shuffle_epi32(b, 0x90));
    b = smax(b, _mm_shuffle_epi32(b, 0x40));
    b = smax(b, _mm_shuffle_epi32(a, 0xFF));
    _mm_storeu_si128((__m128i *)&out[i], _mm_xor_si128(smax(acc, a), sign));
    __m128i rb = smax(acc, b);
    _mm_storeu_si128((__m128i *)&out[i + 4], _mm_xor_si128(rb, sign));
    acc = _mm_shuffle_epi32(rb, 0xFF);
  }
  int32_t s = _mm_cvtsi128_si32(acc) ^ INT32_MIN;
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
/* flipped-sign domain, slides filling with the neutral (INT32_MIN after the flip): the lowering's IR shape */
NOINL void flipslide_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  __m128i acc = _mm_xor_si128(_mm_set1_epi32(init), sign); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i]), sign);
    a = smax(_mm_or_si128(_mm_slli_si128(a, 4), _mm_srli_si128(sign, 12)), a);
    a = smax(_mm_or_si128(_mm_slli_si128(a, 8), _mm_srli_si128(sign, 8)), a);
    _mm_storeu_si128((__m128i *)&out[i], _mm_xor_si128(smax(acc, a), sign));
    acc = smax(acc, _mm_shuffle_epi32(a, 0xFF));
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i + 4]), sign);
    b = smax(_mm_or_si128(_mm_slli_si128(b, 4), _mm_srli_si128(sign, 12)), b);
    b = smax(_mm_or_si128(_mm_slli_si128(b, 8), _mm_srli_si128(sign, 8)), b);
    _mm_storeu_si128((__m128i *)&out[i + 4], _mm_xor_si128(smax(acc, b), sign));
    acc = smax(acc, _mm_shuffle_epi32(b, 0xFF));
  }
  int32_t s = _mm_cvtsi128_si32(acc) ^ INT32_MIN;
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
/* flipped only inside the in-register prefix; the carry combines stay lo_maxu (what a local lowering change gives) */
NOINL void fliplocal_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  __m128i acc = _mm_set1_epi32(init); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i]), sign);
    a = smax(a, _mm_shuffle_epi32(a, 0x90));
    a = _mm_xor_si128(smax(a, _mm_shuffle_epi32(a, 0x40)), sign);
    _mm_storeu_si128((__m128i *)&out[i], lo_maxu_i32x4(acc, a));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(a, 0xFF));
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i + 4]), sign);
    b = smax(b, _mm_shuffle_epi32(b, 0x90));
    b = _mm_xor_si128(smax(b, _mm_shuffle_epi32(b, 0x40)), sign);
    _mm_storeu_si128((__m128i *)&out[i + 4], lo_maxu_i32x4(acc, b));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(b, 0xFF));
  }
  int32_t s = _mm_cvtsi128_si32(acc);
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
/* no flip at all: lo_maxu everywhere, only the slides become pshufd duplication */
NOINL void dup_umax(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  __m128i acc = _mm_set1_epi32(init); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_loadu_si128((const __m128i *)&x[i]);
    a = lo_maxu_i32x4(_mm_shuffle_epi32(a, 0x90), a);
    a = lo_maxu_i32x4(_mm_shuffle_epi32(a, 0x40), a);
    _mm_storeu_si128((__m128i *)&out[i], lo_maxu_i32x4(acc, a));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(a, 0xFF));
    __m128i b = _mm_loadu_si128((const __m128i *)&x[i + 4]);
    b = lo_maxu_i32x4(_mm_shuffle_epi32(b, 0x90), b);
    b = lo_maxu_i32x4(_mm_shuffle_epi32(b, 0x40), b);
    _mm_storeu_si128((__m128i *)&out[i + 4], lo_maxu_i32x4(acc, b));
    acc = lo_maxu_i32x4(acc, _mm_shuffle_epi32(b, 0xFF));
  }
  int32_t s = _mm_cvtsi128_si32(acc);
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s > (uint32_t)v ? s : v; out[i] = s; }
}
NOINL void scalar_umin(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  int32_t acc = init;
  for (int64_t i = 0; i < n; i++) { int32_t v = x[i]; int32_t m = (uint32_t)acc < (uint32_t)v ? acc : v; out[i] = m; acc = m; }
}
static inline __m128i smin(__m128i a, __m128i b) { __m128i gt = _mm_cmpgt_epi32(a, b); return _mm_or_si128(_mm_and_si128(gt, b), _mm_andnot_si128(gt, a)); }
NOINL void flip_umin(const int32_t *restrict x, int64_t n, int32_t init, int32_t *restrict out) {
  const __m128i sign = _mm_set1_epi32(INT32_MIN);
  __m128i acc = _mm_xor_si128(_mm_set1_epi32(init), sign); int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i]), sign);
    a = smin(a, _mm_shuffle_epi32(a, 0x90));
    a = smin(a, _mm_shuffle_epi32(a, 0x40));
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&x[i + 4]), sign);
    b = smin(b, _mm_shuffle_epi32(b, 0x90));
    b = smin(b, _mm_shuffle_epi32(b, 0x40));
    __m128i ra = smin(acc, a);
    _mm_storeu_si128((__m128i *)&out[i], _mm_xor_si128(ra, sign));
    __m128i rb = smin(_mm_shuffle_epi32(ra, 0xFF), b);
    _mm_storeu_si128((__m128i *)&out[i + 4], _mm_xor_si128(rb, sign));
    acc = _mm_shuffle_epi32(rb, 0xFF);
  }
  int32_t s = _mm_cvtsi128_si32(acc) ^ INT32_MIN;
  for (; i < n; i++) { int32_t v = x[i]; s = (uint32_t)s < (uint32_t)v ? s : v; out[i] = s; }
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmpd(const void *a, const void *b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
typedef void (*F)(const int32_t *restrict, int64_t, int32_t, int32_t *restrict);
#define N (1 << 20)
#define R 31
int main(void) {
  static int32_t x[N], o[9][N];
  srand(3); for (int i = 0; i < N; i++) x[i] = (int32_t)(((uint32_t)rand() << 16) ^ (uint32_t)rand());
  F fs[9] = {scalar_umax, cur_umax, flip_umax, flip2_umax, flipslide_umax, scalar_umin, flip_umin, fliplocal_umax, dup_umax}; const char *nm[9] = {"umax scalar", "umax current sse2", "umax flip+pshufd", "umax flip+pshufd, 1 max/8 on chain", "umax flip+slide (lowering shape)", "umin scalar", "umin flip+pshufd", "umax flip in prefix only+pshufd", "umax pshufd, no flip"};
  double t[9][R];
  for (int r = 0; r < R; r++) for (int f = 0; f < 9; f++) { double s = now(); fs[f](x, N, 5, o[f]); t[f][r] = now() - s; }
  for (int f = 1; f < 9; f++) for (int i = 0; i < N; i++) if (o[f][i] != o[f < 5 || f > 6 ? 0 : 5][i]) { printf("mismatch %d at %d\n", f, i); return 1; }
  for (int f = 0; f < 9; f++) { qsort(t[f], R, sizeof(double), cmpd); printf("%-32s median %7.1f us  min %7.1f  p25 %7.1f  p75 %7.1f\n", nm[f], t[f][R/2], t[f][0], t[f][R/4], t[f][3*R/4]); }
  return 0;
}
