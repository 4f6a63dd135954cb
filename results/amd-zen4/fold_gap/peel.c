#include <immintrin.h>
#include <stdint.h>
// hand split loop (8 ymm) after a scalar head that aligns x to 64 bytes
float h_sumsq_f32_split_peel(const float *x, int64_t n) {
    float s = 0; int64_t i = 0;
    while (i < n && ((uintptr_t)(x + i) & 63)) { s += x[i] * x[i]; i++; }
    __m256 a[8]; for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_ps();
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) { __m256 v = _mm256_load_ps(x + i + 8 * j); a[j] = _mm256_fmadd_ps(v, v, a[j]); }
    __m256 s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_ps(s8, a[j]);
    float t[8]; _mm256_storeu_ps(t, s8); for (int j = 0; j < 8; j++) s += t[j];
    for (; i < n; i++) s += x[i] * x[i]; return s;
}
int32_t h_gt0_i32_split_peel(const int32_t *x, int64_t n) {
    uint32_t s = 0; int64_t i = 0;
    while (i < n && ((uintptr_t)(x + i) & 63)) { if (x[i] > 0) s += (uint32_t)x[i]; i++; }
    __m256i a[8], z = _mm256_setzero_si256(); for (int j = 0; j < 8; j++) a[j] = z;
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) a[j] = _mm256_add_epi32(a[j], _mm256_max_epi32(_mm256_load_si256((const __m256i *)(x + i + 8 * j)), z));
    __m256i s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_epi32(s8, a[j]);
    int32_t t[8]; _mm256_storeu_si256((__m256i *)t, s8); for (int j = 0; j < 8; j++) s += (uint32_t)t[j];
    for (; i < n; i++) if (x[i] > 0) s += (uint32_t)x[i]; return (int32_t)s;
}
int32_t h_sumsq_i32_split_peel(const int32_t *x, int64_t n) {
    uint32_t s = 0; int64_t i = 0;
    while (i < n && ((uintptr_t)(x + i) & 63)) { s += (uint32_t)x[i] * (uint32_t)x[i]; i++; }
    __m256i a[8]; for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_si256();
    for (; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) { __m256i v = _mm256_load_si256((const __m256i *)(x + i + 8 * j)); a[j] = _mm256_add_epi32(a[j], _mm256_mullo_epi32(v, v)); }
    __m256i s8 = a[0]; for (int j = 1; j < 8; j++) s8 = _mm256_add_epi32(s8, a[j]);
    int32_t t[8]; _mm256_storeu_si256((__m256i *)t, s8); for (int j = 0; j < 8; j++) s += (uint32_t)t[j];
    for (; i < n; i++) s += (uint32_t)x[i] * (uint32_t)x[i]; return (int32_t)s;
}
