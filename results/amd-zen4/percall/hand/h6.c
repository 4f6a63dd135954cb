#include "h_common.h"
void axpy_f32(const float *restrict x, int64_t x_len, const float *restrict y, int64_t y_len, float a, float *restrict out, int64_t out_len)
{
    (void)y_len; (void)out_len;
    int64_t n = x_len;
    __m256 va = _mm256_set1_ps(a);
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256 s0 = _mm256_fmadd_ps(va, _mm256_loadu_ps(&x[i]), _mm256_loadu_ps(&y[i]));
        __m256 s1 = _mm256_fmadd_ps(va, _mm256_loadu_ps(&x[i + 8]), _mm256_loadu_ps(&y[i + 8]));
        __m256 s2 = _mm256_fmadd_ps(va, _mm256_loadu_ps(&x[i + 16]), _mm256_loadu_ps(&y[i + 16]));
        __m256 s3 = _mm256_fmadd_ps(va, _mm256_loadu_ps(&x[i + 24]), _mm256_loadu_ps(&y[i + 24]));
        _mm256_storeu_ps(&out[i], s0);
        _mm256_storeu_ps(&out[i + 8], s1);
        _mm256_storeu_ps(&out[i + 16], s2);
        _mm256_storeu_ps(&out[i + 24], s3);
    }
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(&out[i], _mm256_fmadd_ps(va, _mm256_loadu_ps(&x[i]), _mm256_loadu_ps(&y[i])));
    if (i < n) {
        __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        __m256 s = _mm256_fmadd_ps(va, _mm256_maskz_loadu_ps(m, &x[i]), _mm256_maskz_loadu_ps(m, &y[i]));
        _mm256_mask_storeu_ps(&out[i], m, s);
    }
}
