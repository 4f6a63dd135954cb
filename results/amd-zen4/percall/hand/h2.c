#include "h_common.h"
void axpy_f32(const float *restrict x, int64_t x_len, const float *restrict y, int64_t y_len, float a, float *restrict out, int64_t out_len)
{
    (void)y_len; (void)out_len;
    int64_t n = x_len;
    __m512 va = _mm512_set1_ps(a);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(&out[i], _mm512_fmadd_ps(va, _mm512_loadu_ps(&x[i]), _mm512_loadu_ps(&y[i])));
    if (i < n) {
        __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        __m512 s = _mm512_fmadd_ps(va, _mm512_maskz_loadu_ps(m, &x[i]), _mm512_maskz_loadu_ps(m, &y[i]));
        _mm512_mask_storeu_ps(&out[i], m, s);
    }
}
