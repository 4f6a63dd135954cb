#include "h_common.h"
void axpy_f32(const float *restrict x, int64_t x_len, const float *restrict y, int64_t y_len, float a, float *restrict out, int64_t out_len)
{
    if (x_len <= 2730) {
        (void)y_len;
        (void)out_len;
        int64_t trips = x_len > 0 ? x_len : 0;
        int64_t v = trips * 4;
        _Bool stream = 0;
        int64_t v_1 = (int64_t)(((0u - (uintptr_t)&out[0]) & (64u - 1u)) / sizeof(out[0]));
        int64_t v_2 = v_1 < trips ? v_1 : trips;
        int64_t peel = (stream) ? v_2 : 0;
        int64_t v_3 = trips - peel;
        for (int64_t i = 0; i < peel; i++) {
            float x_e = x[i];
            float y_e = y[i];
            float s = fmaf(a, x_e, y_e);
            out[i] = s;
        }
        int64_t v_4 = v_3 % 64;
        int64_t v_5 = v_3 - v_4;
        int64_t v_6 = (stream) ? v_5 : 0;
        int64_t v_7 = peel + v_6;
        int64_t v_8 = v_3 - v_6;
        __m512 v_9 = _mm512_set1_ps(a);
        for (int64_t i = peel, i_left = (v_7) > i ? (int64_t)(((uint64_t)(v_7) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[i])), _mm256_loadu_ps(&x[(i) + 8]), 1);
            __m512 y_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[i])), _mm256_loadu_ps(&y[(i) + 8]), 1);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_10 = i + 16;
            __m512 x_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_10])), _mm256_loadu_ps(&x[(v_10) + 8]), 1);
            __m512 y_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_10])), _mm256_loadu_ps(&y[(v_10) + 8]), 1);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_11 = i + 32;
            __m512 x_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_11])), _mm256_loadu_ps(&x[(v_11) + 8]), 1);
            __m512 y_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_11])), _mm256_loadu_ps(&y[(v_11) + 8]), 1);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_12 = i + 48;
            __m512 x_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_12])), _mm256_loadu_ps(&x[(v_12) + 8]), 1);
            __m512 y_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_12])), _mm256_loadu_ps(&y[(v_12) + 8]), 1);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_stream_ps(&out[i], s);
            _mm512_stream_ps(&out[v_10], s_1);
            _mm512_stream_ps(&out[v_11], s_2);
            _mm512_stream_ps(&out[v_12], s_3);
        }
        int64_t v_10 = (stream) ? 1 : 0;
        for (int64_t i = 0; i < v_10; i++) {
            _mm_sfence();
        }
        _Bool beyond_l2 = 0;
        int64_t v_11 = v_8 % 64;
        int64_t v_12 = v_8 - v_11;
        int64_t v_13 = (beyond_l2) ? v_12 : 0;
        int64_t v_14 = v_7 + v_13;
        int64_t v_15 = v_8 - v_13;
        for (int64_t i = v_7, i_left = (v_14) > i ? (int64_t)(((uint64_t)(v_14) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[i])), _mm256_loadu_ps(&x[(i) + 8]), 1);
            __m512 y_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[i])), _mm256_loadu_ps(&y[(i) + 8]), 1);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_16 = i + 16;
            __m512 x_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_16])), _mm256_loadu_ps(&x[(v_16) + 8]), 1);
            __m512 y_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_16])), _mm256_loadu_ps(&y[(v_16) + 8]), 1);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_17 = i + 32;
            __m512 x_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_17])), _mm256_loadu_ps(&x[(v_17) + 8]), 1);
            __m512 y_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_17])), _mm256_loadu_ps(&y[(v_17) + 8]), 1);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_18 = i + 48;
            __m512 x_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_18])), _mm256_loadu_ps(&x[(v_18) + 8]), 1);
            __m512 y_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_18])), _mm256_loadu_ps(&y[(v_18) + 8]), 1);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_storeu_ps(&out[i], s);
            _mm512_storeu_ps(&out[v_16], s_1);
            _mm512_storeu_ps(&out[v_17], s_2);
            _mm512_storeu_ps(&out[v_18], s_3);
        }
        _Bool in_l1 = 1;
        int64_t v_16 = v_15 % 64;
        int64_t v_17 = v_15 - v_16;
        int64_t v_18 = (in_l1) ? 0 : v_17;
        int64_t v_19 = v_14 + v_18;
        for (int64_t i = v_14, i_left = (v_19) > i ? (int64_t)(((uint64_t)(v_19) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_loadu_ps(&x[i]);
            __m512 y_e = _mm512_loadu_ps(&y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_20 = i + 16;
            __m512 x_e_1 = _mm512_loadu_ps(&x[v_20]);
            __m512 y_e_1 = _mm512_loadu_ps(&y[v_20]);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_21 = i + 32;
            __m512 x_e_2 = _mm512_loadu_ps(&x[v_21]);
            __m512 y_e_2 = _mm512_loadu_ps(&y[v_21]);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_22 = i + 48;
            __m512 x_e_3 = _mm512_loadu_ps(&x[v_22]);
            __m512 y_e_3 = _mm512_loadu_ps(&y[v_22]);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_storeu_ps(&out[i], s);
            _mm512_storeu_ps(&out[v_20], s_1);
            _mm512_storeu_ps(&out[v_21], s_2);
            _mm512_storeu_ps(&out[v_22], s_3);
        }
        int64_t v_20 = v_15 % 16;
        int64_t v_21 = v_15 - v_20;
        int64_t v_22 = v_14 + v_21;
        for (int64_t i = v_19, i_left = (v_22) > i ? (int64_t)(((uint64_t)(v_22) - (uint64_t)i - 1u) / 16ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
            __m512 x_e = _mm512_loadu_ps(&x[i]);
            __m512 y_e = _mm512_loadu_ps(&y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            _mm512_storeu_ps(&out[i], s);
        }
        int64_t v_23 = v_15 - v_21;
        __mmask16 v_24 = (__mmask16)(v_23 <= 0 ? 0u : v_23 >= 16 ? 0xFFFFu : (1u << v_23) - 1u);
        __m512 v_25 = _mm512_set1_ps(0.0f);
        for (int64_t i = v_22, i_left = (x_len) > i ? (int64_t)(((uint64_t)(x_len) - (uint64_t)i - 1u) / 16ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
            __m512 x_e = _mm512_mask_loadu_ps(v_25, v_24, &x[i]);
            __m512 y_e = _mm512_mask_loadu_ps(v_25, v_24, &y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            _mm512_mask_storeu_ps(&out[i], v_24, s);
        }
    } else {
        (void)y_len;
        (void)out_len;
        int64_t trips = x_len > 0 ? x_len : 0;
        int64_t v = trips * 4;
        _Bool stream = v >= 16777216;
        int64_t v_1 = (int64_t)(((0u - (uintptr_t)&out[0]) & (64u - 1u)) / sizeof(out[0]));
        int64_t v_2 = v_1 < trips ? v_1 : trips;
        int64_t peel = (stream) ? v_2 : 0;
        int64_t v_3 = trips - peel;
        for (int64_t i = 0; i < peel; i++) {
            float x_e = x[i];
            float y_e = y[i];
            float s = fmaf(a, x_e, y_e);
            out[i] = s;
        }
        int64_t v_4 = v_3 % 64;
        int64_t v_5 = v_3 - v_4;
        int64_t v_6 = (stream) ? v_5 : 0;
        int64_t v_7 = peel + v_6;
        int64_t v_8 = v_3 - v_6;
        __m512 v_9 = _mm512_set1_ps(a);
        for (int64_t i = peel, i_left = (v_7) > i ? (int64_t)(((uint64_t)(v_7) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[i])), _mm256_loadu_ps(&x[(i) + 8]), 1);
            __m512 y_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[i])), _mm256_loadu_ps(&y[(i) + 8]), 1);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_10 = i + 16;
            __m512 x_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_10])), _mm256_loadu_ps(&x[(v_10) + 8]), 1);
            __m512 y_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_10])), _mm256_loadu_ps(&y[(v_10) + 8]), 1);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_11 = i + 32;
            __m512 x_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_11])), _mm256_loadu_ps(&x[(v_11) + 8]), 1);
            __m512 y_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_11])), _mm256_loadu_ps(&y[(v_11) + 8]), 1);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_12 = i + 48;
            __m512 x_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_12])), _mm256_loadu_ps(&x[(v_12) + 8]), 1);
            __m512 y_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_12])), _mm256_loadu_ps(&y[(v_12) + 8]), 1);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_stream_ps(&out[i], s);
            _mm512_stream_ps(&out[v_10], s_1);
            _mm512_stream_ps(&out[v_11], s_2);
            _mm512_stream_ps(&out[v_12], s_3);
        }
        int64_t v_10 = (stream) ? 1 : 0;
        for (int64_t i = 0; i < v_10; i++) {
            _mm_sfence();
        }
        _Bool beyond_l2 = v_8 > 87381;
        int64_t v_11 = v_8 % 64;
        int64_t v_12 = v_8 - v_11;
        int64_t v_13 = (beyond_l2) ? v_12 : 0;
        int64_t v_14 = v_7 + v_13;
        int64_t v_15 = v_8 - v_13;
        for (int64_t i = v_7, i_left = (v_14) > i ? (int64_t)(((uint64_t)(v_14) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[i])), _mm256_loadu_ps(&x[(i) + 8]), 1);
            __m512 y_e = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[i])), _mm256_loadu_ps(&y[(i) + 8]), 1);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_16 = i + 16;
            __m512 x_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_16])), _mm256_loadu_ps(&x[(v_16) + 8]), 1);
            __m512 y_e_1 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_16])), _mm256_loadu_ps(&y[(v_16) + 8]), 1);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_17 = i + 32;
            __m512 x_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_17])), _mm256_loadu_ps(&x[(v_17) + 8]), 1);
            __m512 y_e_2 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_17])), _mm256_loadu_ps(&y[(v_17) + 8]), 1);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_18 = i + 48;
            __m512 x_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[v_18])), _mm256_loadu_ps(&x[(v_18) + 8]), 1);
            __m512 y_e_3 = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&y[v_18])), _mm256_loadu_ps(&y[(v_18) + 8]), 1);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_storeu_ps(&out[i], s);
            _mm512_storeu_ps(&out[v_16], s_1);
            _mm512_storeu_ps(&out[v_17], s_2);
            _mm512_storeu_ps(&out[v_18], s_3);
        }
        _Bool in_l1 = v_8 <= 2730;
        int64_t v_16 = v_15 % 64;
        int64_t v_17 = v_15 - v_16;
        int64_t v_18 = (in_l1) ? 0 : v_17;
        int64_t v_19 = v_14 + v_18;
        for (int64_t i = v_14, i_left = (v_19) > i ? (int64_t)(((uint64_t)(v_19) - (uint64_t)i - 1u) / 64ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 64ull)) {
            __m512 x_e = _mm512_loadu_ps(&x[i]);
            __m512 y_e = _mm512_loadu_ps(&y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            int64_t v_20 = i + 16;
            __m512 x_e_1 = _mm512_loadu_ps(&x[v_20]);
            __m512 y_e_1 = _mm512_loadu_ps(&y[v_20]);
            __m512 s_1 = _mm512_fmadd_ps(v_9, x_e_1, y_e_1);
            int64_t v_21 = i + 32;
            __m512 x_e_2 = _mm512_loadu_ps(&x[v_21]);
            __m512 y_e_2 = _mm512_loadu_ps(&y[v_21]);
            __m512 s_2 = _mm512_fmadd_ps(v_9, x_e_2, y_e_2);
            int64_t v_22 = i + 48;
            __m512 x_e_3 = _mm512_loadu_ps(&x[v_22]);
            __m512 y_e_3 = _mm512_loadu_ps(&y[v_22]);
            __m512 s_3 = _mm512_fmadd_ps(v_9, x_e_3, y_e_3);
            _mm512_storeu_ps(&out[i], s);
            _mm512_storeu_ps(&out[v_20], s_1);
            _mm512_storeu_ps(&out[v_21], s_2);
            _mm512_storeu_ps(&out[v_22], s_3);
        }
        int64_t v_20 = v_15 % 16;
        int64_t v_21 = v_15 - v_20;
        int64_t v_22 = v_14 + v_21;
        for (int64_t i = v_19, i_left = (v_22) > i ? (int64_t)(((uint64_t)(v_22) - (uint64_t)i - 1u) / 16ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
            __m512 x_e = _mm512_loadu_ps(&x[i]);
            __m512 y_e = _mm512_loadu_ps(&y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            _mm512_storeu_ps(&out[i], s);
        }
        int64_t v_23 = v_15 - v_21;
        __mmask16 v_24 = (__mmask16)(v_23 <= 0 ? 0u : v_23 >= 16 ? 0xFFFFu : (1u << v_23) - 1u);
        __m512 v_25 = _mm512_set1_ps(0.0f);
        for (int64_t i = v_22, i_left = (x_len) > i ? (int64_t)(((uint64_t)(x_len) - (uint64_t)i - 1u) / 16ull) : -1; i_left >= 0; i_left--, i = (int64_t)((uint64_t)i + 16ull)) {
            __m512 x_e = _mm512_mask_loadu_ps(v_25, v_24, &x[i]);
            __m512 y_e = _mm512_mask_loadu_ps(v_25, v_24, &y[i]);
            __m512 s = _mm512_fmadd_ps(v_9, x_e, y_e);
            _mm512_mask_storeu_ps(&out[i], v_24, s);
        }
    }
}
