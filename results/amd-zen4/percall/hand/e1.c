#include "h_common.h"
void axpy_f32(const float *restrict x, int64_t x_len, const float *restrict y, int64_t y_len, float a, float *restrict out, int64_t out_len)
{
    (void)y_len;
    (void)out_len;
    int64_t trips = x_len > 0 ? x_len : 0;
    __m256 v_9 = _mm256_set1_ps(a);
    int64_t v_7 = 0, v_8 = trips;
    int64_t v_11 = v_8 % 32;
    int64_t v_12 = v_8 - v_11;
    int64_t v_13 = v_7 + v_12;
    for (int64_t i = v_7, i_left = (v_13) > i ? (int64_t)(((uint64_t)(v_13) - (uint64_t)i - 1u) / 32ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 32ull)) {
        __m256 x_e = _mm256_loadu_ps(&x[i]);
        __m256 y_e = _mm256_loadu_ps(&y[i]);
        __m256 s = _mm256_fmadd_ps(v_9, x_e, y_e);
        int64_t v_14 = i + 8;
        __m256 x_e_1 = _mm256_loadu_ps(&x[v_14]);
        __m256 y_e_1 = _mm256_loadu_ps(&y[v_14]);
        __m256 s_1 = _mm256_fmadd_ps(v_9, x_e_1, y_e_1);
        int64_t v_15 = i + 16;
        __m256 x_e_2 = _mm256_loadu_ps(&x[v_15]);
        __m256 y_e_2 = _mm256_loadu_ps(&y[v_15]);
        __m256 s_2 = _mm256_fmadd_ps(v_9, x_e_2, y_e_2);
        int64_t v_16 = i + 24;
        __m256 x_e_3 = _mm256_loadu_ps(&x[v_16]);
        __m256 y_e_3 = _mm256_loadu_ps(&y[v_16]);
        __m256 s_3 = _mm256_fmadd_ps(v_9, x_e_3, y_e_3);
        _mm256_storeu_ps(&out[i], s);
        _mm256_storeu_ps(&out[v_14], s_1);
        _mm256_storeu_ps(&out[v_15], s_2);
        _mm256_storeu_ps(&out[v_16], s_3);
    }
    int64_t v_14 = v_8 % 8;
    int64_t v_15 = v_8 - v_14;
    int64_t v_16 = v_7 + v_15;
    for (int64_t i = v_13, i_left = (v_16) > i ? (int64_t)(((uint64_t)(v_16) - (uint64_t)i - 1u) / 8ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 8ull)) {
        __m256 x_e = _mm256_loadu_ps(&x[i]);
        __m256 y_e = _mm256_loadu_ps(&y[i]);
        __m256 s = _mm256_fmadd_ps(v_9, x_e, y_e);
        _mm256_storeu_ps(&out[i], s);
    }
    for (int64_t i = v_16; i < x_len; i++) {
        float x_e = x[i];
        float y_e = y[i];
        float s = fmaf(a, x_e, y_e);
        out[i] = s;
    }
}
