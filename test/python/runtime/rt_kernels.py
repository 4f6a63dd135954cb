"""Small hand-written kernels (per the calling convention) shared by the runtime tests."""

from loopopt.runtime.signature import ArrayParam, KernelSignature, ScalarParam

DOT_SIG = KernelSignature("lo_dot", (ArrayParam("x", "f32", axes=("n",)), ArrayParam("y", "f32", axes=("n",))), ("f32",))

# One dot product per ISA, each written with that ISA's intrinsics so that
# compiling it proves the ISA's flags are in effect.
DOT_SOURCES = {
    "scalar": r"""
#include <stdint.h>
float lo_dot(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m;
    float s = 0.0f;
    for (int64_t i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
""",
    "sse2": r"""
#include <stdint.h>
#include <emmintrin.h>
float lo_dot(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m;
    __m128 acc = _mm_setzero_ps();
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) acc = _mm_add_ps(acc, _mm_mul_ps(_mm_loadu_ps(x + i), _mm_loadu_ps(y + i)));
    float lanes[4];
    _mm_storeu_ps(lanes, acc);
    float s = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
    for (; i < n; i++) s += x[i] * y[i];
    return s;
}
""",
    "avx2": r"""
#include <stdint.h>
#include <immintrin.h>
float lo_dot(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m;
    __m256 acc = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), acc);
    float lanes[8];
    _mm256_storeu_ps(lanes, acc);
    float s = 0.0f;
    for (int k = 0; k < 8; k++) s += lanes[k];
    for (; i < n; i++) s += x[i] * y[i];
    return s;
}
""",
    "avx512": r"""
#include <stdint.h>
#include <immintrin.h>
float lo_dot(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m;
    __m512 acc = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) acc = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), acc);
    __mmask16 tail = (__mmask16)((1u << (n - i)) - 1u);
    acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, x + i), _mm512_maskz_loadu_ps(tail, y + i), acc);
    return _mm512_reduce_add_ps(acc);
}
""",
    "neon": r"""
#include <stdint.h>
#include <arm_neon.h>
float lo_dot(const float *restrict x, int64_t n, const float *restrict y, int64_t m) {
    (void)m;
    float32x4_t acc = vdupq_n_f32(0.0f);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) acc = vfmaq_f32(acc, vld1q_f32(x + i), vld1q_f32(y + i));
    float s = vaddvq_f32(acc);
    for (; i < n; i++) s += x[i] * y[i];
    return s;
}
""",
}

# Kernels covering every parameter and result kind of the convention.
MIXED_SOURCE = r"""
#include <stdint.h>

void lo_scale(const float *restrict x, int64_t n, float a, float *restrict out, int64_t out_len) {
    (void)out_len;
    for (int64_t i = 0; i < n; i++) out[i] = a * x[i];
}

/* Filter plus reduction: keeps x > t, returns (count, sum of kept). */
void lo_keep_above(const double *restrict x, int64_t n, double t, double *restrict out, int64_t out_len,
                   int64_t *restrict ret0, double *restrict ret1) {
    (void)out_len;
    int64_t k = 0;
    double s = 0.0;
    for (int64_t i = 0; i < n; i++)
        if (x[i] > t) { out[k++] = x[i]; s += x[i]; }
    *ret0 = k;
    *ret1 = s;
}

int64_t lo_positive(const int32_t *restrict x, int64_t n, int32_t *restrict out, int64_t out_len) {
    (void)out_len;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++)
        if (x[i] > 0) out[k++] = x[i];
    return k;
}

/* Marks x == v; returns whether any matched, unless `invert`. */
uint8_t lo_mark(const int32_t *restrict x, int64_t n, int32_t v, uint8_t invert, uint8_t *restrict out,
                int64_t out_len) {
    (void)out_len;
    uint8_t any = 0;
    for (int64_t i = 0; i < n; i++) { out[i] = (uint8_t)((x[i] == v) ^ invert); any |= out[i]; }
    return any;
}

void lo_row_sums(const double *restrict m, int64_t rows, int64_t cols, const int64_t *restrict w,
                 int64_t w_len, double *restrict out, int64_t out_len) {
    (void)w_len; (void)out_len;
    for (int64_t r = 0; r < rows; r++) {
        double s = 0.0;
        for (int64_t c = 0; c < cols; c++) s += m[r * cols + c];
        out[r] = s * (double)w[r];
    }
}

/* Column sums of m (an output on the second axis of a rank-2 input) and m transposed. */
void lo_col_sums_t(const int32_t *restrict m, int64_t rows, int64_t cols, int32_t *restrict sums,
                   int64_t sums_len, int32_t *restrict t, int64_t t_rows, int64_t t_cols) {
    (void)sums_len; (void)t_rows; (void)t_cols;
    for (int64_t c = 0; c < cols; c++) sums[c] = 0;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            sums[c] += m[r * cols + c];
            t[c * rows + r] = m[r * cols + c];
        }
}
"""

MIXED_SIGS = (
    KernelSignature(
        "lo_scale",
        (ArrayParam("x", "f32", axes=("n",)), ScalarParam("a", "f32"), ArrayParam("out", "f32", output=True, axes=("n",))),
    ),
    KernelSignature(
        "lo_keep_above",
        (
            ArrayParam("x", "f64", axes=("n",)),
            ScalarParam("t", "f64"),
            ArrayParam("out", "f64", output=True, capacity="n", count_result=0),
        ),
        ("i64", "f64"),
    ),
    KernelSignature(
        "lo_positive",
        (ArrayParam("x", "i32", axes=("n",)), ArrayParam("out", "i32", output=True, capacity="n", count_result=0)),
        ("i64",),
    ),
    KernelSignature(
        "lo_mark",
        (
            ArrayParam("x", "i32", axes=("n",)),
            ScalarParam("v", "i32"),
            ScalarParam("invert", "bool"),
            ArrayParam("out", "bool", output=True, axes=("n",)),
        ),
        ("bool",),
    ),
    KernelSignature(
        "lo_row_sums",
        (
            ArrayParam("m", "f64", rank=2, axes=("r", "c")),
            ArrayParam("w", "i64", axes=("r",)),
            ArrayParam("out", "f64", output=True, axes=("r",)),
        ),
    ),
    KernelSignature(
        "lo_col_sums_t",
        (
            ArrayParam("m", "i32", rank=2, axes=("r", "c")),
            ArrayParam("sums", "i32", output=True, axes=("c",)),
            ArrayParam("t", "i32", rank=2, output=True, axes=("c", "r")),
        ),
    ),
)
