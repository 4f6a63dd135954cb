/* AVX2 + FMA kernels (256-bit vectors).
 *
 * Float a*x + b is one fused multiply-add, in the vector body and in the scalar
 * tail (fmaf/fma, a single vfmadd with -mfma). Sum-of-squares and dot
 * accumulate with FMA too. i64 multiply (vpmullq is AVX-512DQ) is emulated with
 * three vpmuludq; i64 min/max use vpcmpgtq + blend. Filters left-pack with
 * vpermd, its indices read from a LUT indexed by the 8-bit (or 4-bit) movemask.
 */
#include <immintrin.h>

#include "lo_common.h"

#define LO_ISA avx2
#define V_IN_REGISTER LO_OPAQUE /* the fold accumulators after their loops (lo_template.h) */

static inline __m256i lo_mullo_epi64_avx2(__m256i a, __m256i b) {
    __m256i lo = _mm256_mul_epu32(a, b);
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
                                     _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)));
    return _mm256_add_epi64(lo, _mm256_slli_epi64(cross, 32));
}

static inline __m256i lo_min_epi64_avx2(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

static inline __m256i lo_max_epi64_avx2(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(b, a, _mm256_cmpgt_epi64(a, b));
}

/* Left-pack the lanes of v selected by movemask m; idx is lo_pack8x32 or lo_pack4x64. */
static inline int64_t lo_pack_avx2(void *out, __m256i v, const uint8_t idx[8], int m) {
    const __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)idx));
    _mm256_storeu_si256((__m256i *)out, _mm256_permutevar8x32_epi32(v, perm));
    return __builtin_popcount((unsigned)m);
}

static inline int64_t lo_pack_f32_avx2(float *out, __m256 v, __m256 x) {
    int m = _mm256_movemask_ps(_mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
    return lo_pack_avx2(out, _mm256_castps_si256(v), lo_pack8x32[m], m);
}

static inline int64_t lo_pack_f64_avx2(double *out, __m256d v, __m256d x) {
    int m = _mm256_movemask_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GT_OQ));
    return lo_pack_avx2(out, _mm256_castpd_si256(v), lo_pack4x64[m], m);
}

static inline int64_t lo_pack_i32_avx2(int32_t *out, __m256i v, __m256i x) {
    int m = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(x, _mm256_setzero_si256())));
    return lo_pack_avx2(out, v, lo_pack8x32[m], m);
}

static inline int64_t lo_pack_i64_avx2(int64_t *out, __m256i v, __m256i x) {
    int m = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(x, _mm256_setzero_si256())));
    return lo_pack_avx2(out, v, lo_pack4x64[m], m);
}

/* Inclusive prefix sums inside one register: the scan of each 128-bit half (byte shifts stay
 * within a half), then the low half's last lane added to the high half; and the last lane
 * broadcast (the carry into the next block). */
#define LO_SCAN 1
static inline __m256 lo_pscan_f32_avx2(__m256 v) {
    v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 4)));
    v = _mm256_add_ps(v, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(v), 8)));
    __m256 t = _mm256_permute_ps(v, 0xFF);
    return _mm256_add_ps(v, _mm256_permute2f128_ps(t, t, 0x08));
}
static inline __m256d lo_pscan_f64_avx2(__m256d v) {
    v = _mm256_add_pd(v, _mm256_castsi256_pd(_mm256_slli_si256(_mm256_castpd_si256(v), 8)));
    __m256d t = _mm256_unpackhi_pd(v, v);
    return _mm256_add_pd(v, _mm256_permute2f128_pd(t, t, 0x08));
}
static inline __m256i lo_pscan_i32_avx2(__m256i v) {
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 8));
    __m256i t = _mm256_shuffle_epi32(v, 0xFF);
    return _mm256_add_epi32(v, _mm256_permute2x128_si256(t, t, 0x08));
}
static inline __m256i lo_pscan_i64_avx2(__m256i v) {
    v = _mm256_add_epi64(v, _mm256_slli_si256(v, 8));
    __m256i t = _mm256_unpackhi_epi64(v, v);
    return _mm256_add_epi64(v, _mm256_permute2x128_si256(t, t, 0x08));
}
static inline __m256 lo_blast_f32_avx2(__m256 v) { return _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(7)); }
static inline __m256d lo_blast_f64_avx2(__m256d v) { return _mm256_permute4x64_pd(v, 0xFF); }
static inline __m256i lo_blast_i32_avx2(__m256i v) { return _mm256_permutevar8x32_epi32(v, _mm256_set1_epi32(7)); }
static inline __m256i lo_blast_i64_avx2(__m256i v) { return _mm256_permute4x64_epi64(v, 0xFF); }

/* ---- f32 ---- */
#define T float
#define V __m256
#define W 8
#define LO_DT f32
#define LO_FLOAT 1
#define V_LD _mm256_loadu_ps
#define V_ST _mm256_storeu_ps
#define V_SET1(s) _mm256_set1_ps((float)(s))
#define V_ADD _mm256_add_ps
#define V_MUL _mm256_mul_ps
#define V_MIN _mm256_min_ps
#define V_MAX _mm256_max_ps
#define V_MADD _mm256_fmadd_ps
#define V_MACC(acc, x, y) _mm256_fmadd_ps(x, y, acc)
#define V_GT0_KEEP(v) _mm256_and_ps(v, _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ))
#define V_SQRT_ABS(v) _mm256_sqrt_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), v))
#define V_PACK lo_pack_f32_avx2
#define NT __m256
#define NT_INIT _mm256_setzero_ps()
#define NT_UPD(nt, v) ((nt) = _mm256_or_ps(nt, _mm256_cmp_ps(v, v, _CMP_UNORD_Q)))
#define NT_ANY(nt) (_mm256_movemask_ps(nt) != 0)
#define S_MADD lo_s_madd_f32_fused
#define LO_SQRT sqrtf
#define LO_FABS fabsf
#include "lo_template.h"
#include "lo_undef.h"

/* ---- f64 ---- */
#define LO_FLOAT 1
#define T double
#define V __m256d
#define W 4
#define LO_DT f64
#define V_LD _mm256_loadu_pd
#define V_ST _mm256_storeu_pd
#define V_SET1(s) _mm256_set1_pd((double)(s))
#define V_ADD _mm256_add_pd
#define V_MUL _mm256_mul_pd
#define V_MIN _mm256_min_pd
#define V_MAX _mm256_max_pd
#define V_MADD _mm256_fmadd_pd
#define V_MACC(acc, x, y) _mm256_fmadd_pd(x, y, acc)
#define V_GT0_KEEP(v) _mm256_and_pd(v, _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_GT_OQ))
#define V_SQRT_ABS(v) _mm256_sqrt_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), v))
#define V_PACK lo_pack_f64_avx2
#define NT __m256d
#define NT_INIT _mm256_setzero_pd()
#define NT_UPD(nt, v) ((nt) = _mm256_or_pd(nt, _mm256_cmp_pd(v, v, _CMP_UNORD_Q)))
#define NT_ANY(nt) (_mm256_movemask_pd(nt) != 0)
#define S_MADD lo_s_madd_f64_fused
#define LO_SQRT sqrt
#define LO_FABS fabs
#include "lo_template.h"
#include "lo_undef.h"


/* ---- i32 ---- */
#define LO_FLOAT 0
#define V __m256i
#define V_LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_ST(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define T int32_t
#define W 8
#define LO_DT i32
#define LO_TMIN INT32_MIN
#define LO_TMAX INT32_MAX
#define V_SET1(s) _mm256_set1_epi32((int32_t)(s))
#define V_ADD _mm256_add_epi32
#define V_MUL _mm256_mullo_epi32
#define V_MIN _mm256_min_epi32
#define V_MAX _mm256_max_epi32
#define V_MADD(a, x, b) _mm256_add_epi32(_mm256_mullo_epi32(a, x), b)
#define V_MACC(acc, x, y) _mm256_add_epi32(acc, _mm256_mullo_epi32(x, y))
#define V_GT0_KEEP(v) _mm256_max_epi32(v, _mm256_setzero_si256()) /* = v & (v > 0), one instruction */
#define V_PACK lo_pack_i32_avx2
#define S_MADD lo_s_madd_i32
#include "lo_template.h"
#include "lo_undef.h"

/* ---- i64 ---- */
#define LO_FLOAT 0
#define V __m256i
#define V_LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_ST(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define T int64_t
#define W 4
#define LO_DT i64
#define LO_TMIN INT64_MIN
#define LO_TMAX INT64_MAX
#define V_SET1(s) _mm256_set1_epi64x((int64_t)(s))
#define V_ADD _mm256_add_epi64
#define V_MUL lo_mullo_epi64_avx2
#define V_MIN lo_min_epi64_avx2
#define V_MAX lo_max_epi64_avx2
#define V_MADD(a, x, b) _mm256_add_epi64(lo_mullo_epi64_avx2(a, x), b)
#define V_MACC(acc, x, y) _mm256_add_epi64(acc, lo_mullo_epi64_avx2(x, y))
#define V_GT0_KEEP(v) _mm256_and_si256(v, _mm256_cmpgt_epi64(v, _mm256_setzero_si256()))
#define V_PACK lo_pack_i64_avx2
#define S_MADD lo_s_madd_i64
#include "lo_template.h"
#include "lo_undef.h"
#undef LO_ISA
#undef V_IN_REGISTER
#undef LO_SCAN
