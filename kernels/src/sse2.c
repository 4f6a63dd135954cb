/* SSE2 kernels (the x86-64 baseline: 128-bit vectors, no FMA).
 *
 * Float a*x + b is unfused: the product is rounded before the add, exactly like
 * scalar.c. SSE2 lacks several integer operations, emulated here:
 *   - i32 multiply (pmulld is SSE4.1): two pmuludq on even/odd lanes + shuffles;
 *   - i64 multiply: three pmuludq (lo*lo + (hi*lo + lo*hi) << 32);
 *   - i32 min/max (pminsd is SSE4.1): compare, then a ^ ((a ^ b) & mask);
 *   - i64 signed compare (pcmpgtq is SSE4.2): subtract with an overflow fix-up.
 * Filters left-pack with a shift network whose select masks come from a LUT
 * indexed by the movemask (SSE2 has no variable permute; pshufb is SSSE3).
 */
#include <emmintrin.h>

#include "lo_common.h"

#define LO_ISA sse2
#define V_IN_REGISTER LO_OPAQUE /* the fold accumulators after their loops (lo_template.h) */

static inline __m128 lo_madd_ps_sse2(__m128 a, __m128 x, __m128 b) {
    __m128 p = _mm_mul_ps(a, x);
    LO_OPAQUE(p); /* never contracted into an FMA, whatever the flags */
    return _mm_add_ps(p, b);
}

static inline __m128d lo_madd_pd_sse2(__m128d a, __m128d x, __m128d b) {
    __m128d p = _mm_mul_pd(a, x);
    LO_OPAQUE(p);
    return _mm_add_pd(p, b);
}

static inline __m128i lo_select_si128(__m128i mask, __m128i if_set, __m128i if_clear) {
    return _mm_or_si128(_mm_and_si128(mask, if_set), _mm_andnot_si128(mask, if_clear));
}

static inline __m128i lo_mullo_epi32_sse2(__m128i a, __m128i b) {
    __m128i even = _mm_mul_epu32(a, b);                                     /* lanes 0, 2 (64-bit) */
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32)); /* lanes 1, 3 */
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

static inline __m128i lo_mullo_epi64_sse2(__m128i a, __m128i b) {
    __m128i lo = _mm_mul_epu32(a, b);
    __m128i cross = _mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(a, 32), b), _mm_mul_epu32(a, _mm_srli_epi64(b, 32)));
    return _mm_add_epi64(lo, _mm_slli_epi64(cross, 32));
}

/* a ^ ((a ^ b) & take_b): 4 operations on a copy of b, the result in a's register (the fold's
 * accumulator); the and/andnot/or select of lo_select_si128 needed a and b after the compare and
 * gcc copied and reloaded them (11 copies per 4 vectors in max_i32's main loop). */
static inline __m128i lo_keep_or_take_si128(__m128i a, __m128i b, __m128i take_b) {
    return _mm_xor_si128(a, _mm_and_si128(_mm_xor_si128(a, b), take_b));
}
static inline __m128i lo_min_epi32_sse2(__m128i a, __m128i b) { return lo_keep_or_take_si128(a, b, _mm_cmpgt_epi32(a, b)); }
static inline __m128i lo_max_epi32_sse2(__m128i a, __m128i b) { return lo_keep_or_take_si128(a, b, _mm_cmpgt_epi32(b, a)); }

/* a > b on signed 64-bit lanes: the sign of b - a, corrected when the subtraction overflows. */
static inline __m128i lo_cmpgt_epi64_sse2(__m128i a, __m128i b) {
    __m128i d = _mm_sub_epi64(b, a);
    __m128i lt = _mm_xor_si128(d, _mm_and_si128(_mm_xor_si128(b, a), _mm_xor_si128(b, d)));
    return _mm_shuffle_epi32(_mm_srai_epi32(lt, 31), _MM_SHUFFLE(3, 3, 1, 1));
}
static inline __m128i lo_min_epi64_sse2(__m128i a, __m128i b) { return lo_keep_or_take_si128(a, b, lo_cmpgt_epi64_sse2(a, b)); }
static inline __m128i lo_max_epi64_sse2(__m128i a, __m128i b) { return lo_keep_or_take_si128(a, b, lo_cmpgt_epi64_sse2(b, a)); }

/* Left-pack 4 x 32-bit lanes of v selected by the 4-bit mask m: two shift stages. */
static inline int64_t lo_pack4x32_sse2(void *out, __m128i v, int m) {
    const __m128i s0 = _mm_loadu_si128((const __m128i *)lo_sse2_net4x32[m][0]);
    const __m128i s1 = _mm_loadu_si128((const __m128i *)lo_sse2_net4x32[m][1]);
    v = lo_select_si128(s0, _mm_srli_si128(v, 4), v);
    v = lo_select_si128(s1, _mm_srli_si128(v, 8), v);
    _mm_storeu_si128((__m128i *)out, v);
    return lo_popcount8[m];
}

/* Left-pack 2 x 64-bit lanes: only mask 0b10 moves anything (lane 1 to lane 0). */
static inline int64_t lo_pack2x64_sse2(void *out, __m128i v, int m) {
    const __m128i move = _mm_set1_epi64x(-(int64_t)(m == 2));
    _mm_storeu_si128((__m128i *)out, lo_select_si128(move, _mm_srli_si128(v, 8), v));
    return lo_popcount8[m];
}

/* Inclusive prefix sums inside one register (log2(W) shift-and-add steps; _mm_slli_si128
 * shifts zeros in) and the last lane broadcast (the carry into the next block). */
#define LO_SCAN 1
static inline __m128 lo_pscan_f32_sse2(__m128 v) {
    v = _mm_add_ps(v, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v), 4)));
    return _mm_add_ps(v, _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(v), 8)));
}
static inline __m128d lo_pscan_f64_sse2(__m128d v) {
    return _mm_add_pd(v, _mm_castsi128_pd(_mm_slli_si128(_mm_castpd_si128(v), 8)));
}
static inline __m128i lo_pscan_i32_sse2(__m128i v) {
    v = _mm_add_epi32(v, _mm_slli_si128(v, 4));
    return _mm_add_epi32(v, _mm_slli_si128(v, 8));
}
static inline __m128i lo_pscan_i64_sse2(__m128i v) { return _mm_add_epi64(v, _mm_slli_si128(v, 8)); }
static inline __m128 lo_blast_f32_sse2(__m128 v) { return _mm_shuffle_ps(v, v, 0xFF); }
static inline __m128d lo_blast_f64_sse2(__m128d v) { return _mm_unpackhi_pd(v, v); }
static inline __m128i lo_blast_i32_sse2(__m128i v) { return _mm_shuffle_epi32(v, 0xFF); }
static inline __m128i lo_blast_i64_sse2(__m128i v) { return _mm_shuffle_epi32(v, 0xEE); }

/* ---- f32 ---- */
#define T float
#define V __m128
#define W 4
#define LO_DT f32
#define LO_FLOAT 1
#define V_LD _mm_loadu_ps
#define V_ST _mm_storeu_ps
#define V_SET1(s) _mm_set1_ps((float)(s))
#define V_ADD _mm_add_ps
#define V_MUL _mm_mul_ps
#define V_MIN _mm_min_ps
#define V_MAX _mm_max_ps
#define V_MADD lo_madd_ps_sse2
#define V_MACC(acc, x, y) _mm_add_ps(acc, _mm_mul_ps(x, y))
#define V_GT0_KEEP(v) _mm_and_ps(v, _mm_cmpgt_ps(v, _mm_setzero_ps()))
#define V_SQRT_ABS(v) _mm_sqrt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0f), v))
#define V_PACK(out, v, x) lo_pack4x32_sse2(out, _mm_castps_si128(v), _mm_movemask_ps(_mm_cmpgt_ps(x, _mm_setzero_ps())))
#define NT __m128
#define NT_INIT _mm_setzero_ps()
#define NT_UPD(nt, v) ((nt) = _mm_or_ps(nt, _mm_cmpunord_ps(v, v)))
#define NT_ANY(nt) (_mm_movemask_ps(nt) != 0)
#define S_MADD lo_s_madd_f32_unfused
#define LO_SQRT sqrtf
#define LO_FABS fabsf
#include "lo_template.h"
#include "lo_undef.h"

/* ---- f64 ---- */
#define LO_FLOAT 1
#define T double
#define V __m128d
#define W 2
#define LO_DT f64
#define V_LD _mm_loadu_pd
#define V_ST _mm_storeu_pd
#define V_SET1(s) _mm_set1_pd((double)(s))
#define V_ADD _mm_add_pd
#define V_MUL _mm_mul_pd
#define V_MIN _mm_min_pd
#define V_MAX _mm_max_pd
#define V_MADD lo_madd_pd_sse2
#define V_MACC(acc, x, y) _mm_add_pd(acc, _mm_mul_pd(x, y))
#define V_GT0_KEEP(v) _mm_and_pd(v, _mm_cmpgt_pd(v, _mm_setzero_pd()))
#define V_SQRT_ABS(v) _mm_sqrt_pd(_mm_andnot_pd(_mm_set1_pd(-0.0), v))
#define V_PACK(out, v, x) lo_pack2x64_sse2(out, _mm_castpd_si128(v), _mm_movemask_pd(_mm_cmpgt_pd(x, _mm_setzero_pd())))
#define NT __m128d
#define NT_INIT _mm_setzero_pd()
#define NT_UPD(nt, v) ((nt) = _mm_or_pd(nt, _mm_cmpunord_pd(v, v)))
#define NT_ANY(nt) (_mm_movemask_pd(nt) != 0)
#define S_MADD lo_s_madd_f64_unfused
#define LO_SQRT sqrt
#define LO_FABS fabs
#include "lo_template.h"
#include "lo_undef.h"


/* ---- i32 ---- */
#define LO_FLOAT 0
#define V __m128i
#define V_LD(p) _mm_loadu_si128((const __m128i *)(p))
#define V_ST(p, v) _mm_storeu_si128((__m128i *)(p), v)
#define T int32_t
#define W 4
#define LO_DT i32
#define LO_TMIN INT32_MIN
#define LO_TMAX INT32_MAX
#define V_SET1(s) _mm_set1_epi32((int32_t)(s))
#define V_ADD _mm_add_epi32
#define V_MUL lo_mullo_epi32_sse2
#define V_MIN lo_min_epi32_sse2
#define V_MAX lo_max_epi32_sse2
#define V_MADD(a, x, b) _mm_add_epi32(lo_mullo_epi32_sse2(a, x), b)
#define V_MACC(acc, x, y) _mm_add_epi32(acc, lo_mullo_epi32_sse2(x, y))
#define V_GT0_KEEP(v) _mm_and_si128(v, _mm_cmpgt_epi32(v, _mm_setzero_si128()))
#define V_PACK(out, v, x) lo_pack4x32_sse2(out, v, _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(x, _mm_setzero_si128()))))
#define S_MADD lo_s_madd_i32
#include "lo_template.h"
#include "lo_undef.h"

/* ---- i64 ---- */
#define LO_FLOAT 0
#define V __m128i
#define V_LD(p) _mm_loadu_si128((const __m128i *)(p))
#define V_ST(p, v) _mm_storeu_si128((__m128i *)(p), v)
#define T int64_t
#define W 2
#define LO_DT i64
#define LO_TMIN INT64_MIN
#define LO_TMAX INT64_MAX
#define V_SET1(s) _mm_set1_epi64x((int64_t)(s))
#define V_ADD _mm_add_epi64
#define V_MUL lo_mullo_epi64_sse2
#define V_MIN lo_min_epi64_sse2
#define V_MAX lo_max_epi64_sse2
#define V_MADD(a, x, b) _mm_add_epi64(lo_mullo_epi64_sse2(a, x), b)
#define V_MACC(acc, x, y) _mm_add_epi64(acc, lo_mullo_epi64_sse2(x, y))
#define V_GT0_KEEP(v) _mm_and_si128(v, lo_cmpgt_epi64_sse2(v, _mm_setzero_si128()))
#define V_PACK(out, v, x) lo_pack2x64_sse2(out, v, _mm_movemask_pd(_mm_castsi128_pd(lo_cmpgt_epi64_sse2(x, _mm_setzero_si128()))))
#define S_MADD lo_s_madd_i64
#include "lo_template.h"
#include "lo_undef.h"
#undef LO_ISA
#undef V_IN_REGISTER
#undef LO_SCAN
