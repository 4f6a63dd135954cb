// hand variants (compiled with the runtime's flags + AVX-512 flags, -ffp-contract=off)
#include <immintrin.h>
#include <stdint.h>
// z512k1: gcc's shape, one zmm accumulator, 16 lanes an iteration
float h_sumsq_f32_z512k1(const float *x, int64_t n) {
    __m512 a = _mm512_setzero_ps(); int64_t i = 0;
    for (; i + 16 <= n; i += 16) { __m512 v = _mm512_loadu_ps(x + i); a = _mm512_fmadd_ps(v, v, a); }
    float s = _mm512_reduce_add_ps(a); for (; i < n; i++) s += x[i] * x[i]; return s;
}
// z512k2: two zmm accumulators
float h_sumsq_f32_z512k2(const float *x, int64_t n) {
    __m512 a = _mm512_setzero_ps(), b = a; int64_t i = 0;
    for (; i + 32 <= n; i += 32) { __m512 v = _mm512_loadu_ps(x + i), w = _mm512_loadu_ps(x + i + 16); a = _mm512_fmadd_ps(v, v, a); b = _mm512_fmadd_ps(w, w, b); }
    float s = _mm512_reduce_add_ps(_mm512_add_ps(a, b)); for (; i < n; i++) s += x[i] * x[i]; return s;
}
// split: loopopt's 4 zmm accumulators as 8 ymm halves, fma per half (its summation order)
float h_sumsq_f32_split(const float *x, int64_t n) {
    __m256 a[8]; for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_ps(); int64_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) { __m256 v = _mm256_loadu_ps(x + i + 8 * j); a[j] = _mm256_fmadd_ps(v, v, a[j]); }
    __m256 s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_ps(s8, a[j]);
    float t[8]; _mm256_storeu_ps(t, s8); float s = 0; for (int j = 0; j < 8; j++) s += t[j];
    for (; i < n; i++) s += x[i] * x[i]; return s;
}
// mul+add instead of fma, 4 zmm
float h_sumsq_f32_muladd(const float *x, int64_t n) {
    __m512 a[4]; for (int j = 0; j < 4; j++) a[j] = _mm512_setzero_ps(); int64_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 4; j++) { __m512 v = _mm512_loadu_ps(x + i + 16 * j); a[j] = _mm512_add_ps(a[j], _mm512_mul_ps(v, v)); }
    float s = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a[0], a[1]), _mm512_add_ps(a[2], a[3])));
    for (; i < n; i++) s += x[i] * x[i]; return s;
}
int32_t h_sumsq_i32_z512k1(const int32_t *x, int64_t n) {
    __m512i a = _mm512_setzero_si512(); int64_t i = 0;
    for (; i + 16 <= n; i += 16) { __m512i v = _mm512_loadu_si512(x + i); a = _mm512_add_epi32(a, _mm512_mullo_epi32(v, v)); }
    uint32_t s = (uint32_t)_mm512_reduce_add_epi32(a); for (; i < n; i++) s += (uint32_t)x[i] * (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_sumsq_i32_z512k2(const int32_t *x, int64_t n) {
    __m512i a = _mm512_setzero_si512(), b = a; int64_t i = 0;
    for (; i + 32 <= n; i += 32) { __m512i v = _mm512_loadu_si512(x + i), w = _mm512_loadu_si512(x + i + 16); a = _mm512_add_epi32(a, _mm512_mullo_epi32(v, v)); b = _mm512_add_epi32(b, _mm512_mullo_epi32(w, w)); }
    uint32_t s = (uint32_t)_mm512_reduce_add_epi32(_mm512_add_epi32(a, b)); for (; i < n; i++) s += (uint32_t)x[i] * (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_sumsq_i32_split(const int32_t *x, int64_t n) {
    __m256i a[8]; for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_si256(); int64_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) { __m256i v = _mm256_loadu_si256((const __m256i *)(x + i + 8 * j)); a[j] = _mm256_add_epi32(a[j], _mm256_mullo_epi32(v, v)); }
    __m256i s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_epi32(s8, a[j]);
    int32_t t[8]; _mm256_storeu_si256((__m256i *)t, s8); uint32_t s = 0; for (int j = 0; j < 8; j++) s += (uint32_t)t[j];
    for (; i < n; i++) s += (uint32_t)x[i] * (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_gt0_i32_z512k1(const int32_t *x, int64_t n) {
    __m512i a = _mm512_setzero_si512(), z = a; int64_t i = 0;
    for (; i + 16 <= n; i += 16) { __m512i v = _mm512_loadu_si512(x + i); a = _mm512_add_epi32(a, _mm512_max_epi32(v, z)); }
    uint32_t s = (uint32_t)_mm512_reduce_add_epi32(a); for (; i < n; i++) if (x[i] > 0) s += (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_gt0_i32_z512k2(const int32_t *x, int64_t n) {
    __m512i a = _mm512_setzero_si512(), b = a, z = a; int64_t i = 0;
    for (; i + 32 <= n; i += 32) { a = _mm512_add_epi32(a, _mm512_max_epi32(_mm512_loadu_si512(x + i), z)); b = _mm512_add_epi32(b, _mm512_max_epi32(_mm512_loadu_si512(x + i + 16), z)); }
    uint32_t s = (uint32_t)_mm512_reduce_add_epi32(_mm512_add_epi32(a, b)); for (; i < n; i++) if (x[i] > 0) s += (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_gt0_i32_split(const int32_t *x, int64_t n) {
    __m256i a[8], z = _mm256_setzero_si256(); for (int j = 0; j < 8; j++) a[j] = z; int64_t i = 0;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) a[j] = _mm256_add_epi32(a[j], _mm256_max_epi32(_mm256_loadu_si256((const __m256i *)(x + i + 8 * j)), z));
    __m256i s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_epi32(s8, a[j]);
    int32_t t[8]; _mm256_storeu_si256((__m256i *)t, s8); uint32_t s = 0; for (int j = 0; j < 8; j++) s += (uint32_t)t[j];
    for (; i < n; i++) if (x[i] > 0) s += (uint32_t)x[i]; return (int32_t)s;
}
// sum f32 references
float h_sum_f32_z512k1(const float *x, int64_t n) {
    __m512 a = _mm512_setzero_ps(); int64_t i = 0;
    for (; i + 16 <= n; i += 16) a = _mm512_add_ps(a, _mm512_loadu_ps(x + i));
    float s = _mm512_reduce_add_ps(a); for (; i < n; i++) s += x[i]; return s;
}
