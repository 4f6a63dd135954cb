/* AVX-512 kernels (F + BW + VL + DQ, 512-bit vectors, with FMA).
 *
 * Float a*x + b is one fused multiply-add (vector body and masked tail).
 * Tails are masked (no scalar epilogue): masked loads fill the missing lanes
 * with the fold's neutral element, masked stores write only the valid lanes.
 * i64 multiply is vpmullq (DQ). Horizontal add/mul are shuffle trees
 * (_mm512_reduce_*). Filters compress the selected lanes in a register
 * (vcompressps zmm{k}{z}) and store the full vector; the tail stores the same
 * register compress through a mask of the first popcount lanes, so it writes
 * exactly the selected lanes. The memory form (vcompressps [mem]{k}) is
 * never used: ~80 cycles on AMD Zen 4 against ~3 on Intel (docs/targets.md),
 * and an oracle must not be slow on any CPU.
 */
#include <immintrin.h>

#include "lo_common.h"

#define LO_ISA avx512
#define V_IN_REGISTER LO_OPAQUE /* the fold accumulators after their loops (lo_template.h) */

#define LO_DEF_PACK(DT, T, V, MASK, CMPGT0, COMPRESS, STORE, MASK_STORE)                           \
    static inline int64_t lo_pack_##DT##_avx512(T *out, V v, V x) {                                \
        MASK m = CMPGT0(x);                                                                        \
        STORE(out, COMPRESS(v, m, v)); /* merging, not zeroing: no wait on the old destination */ \
        return __builtin_popcount((unsigned)m);                                                    \
    }                                                                                              \
    static inline int64_t lo_pack_tail_##DT##_avx512(T *out, MASK valid, V v, V x) {               \
        MASK m = valid & CMPGT0(x);                                                                \
        int64_t count = __builtin_popcount((unsigned)m);                                           \
        MASK_STORE(out, (MASK)((1u << count) - 1u), COMPRESS(v, m, v));                            \
        return count;                                                                              \
    }

#define LO_GT0_PS(x) _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ)
#define LO_GT0_PD(x) _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GT_OQ)
#define LO_GT0_EPI32(x) _mm512_cmpgt_epi32_mask(x, _mm512_setzero_si512())
#define LO_GT0_EPI64(x) _mm512_cmpgt_epi64_mask(x, _mm512_setzero_si512())
#define LO_STORE_SI512(p, v) _mm512_storeu_si512((void *)(p), v)
LO_DEF_PACK(f32, float, __m512, __mmask16, LO_GT0_PS, _mm512_mask_compress_ps, _mm512_storeu_ps,
            _mm512_mask_storeu_ps)
LO_DEF_PACK(f64, double, __m512d, __mmask8, LO_GT0_PD, _mm512_mask_compress_pd, _mm512_storeu_pd,
            _mm512_mask_storeu_pd)
LO_DEF_PACK(i32, int32_t, __m512i, __mmask16, LO_GT0_EPI32, _mm512_mask_compress_epi32, LO_STORE_SI512,
            _mm512_mask_storeu_epi32)
LO_DEF_PACK(i64, int64_t, __m512i, __mmask8, LO_GT0_EPI64, _mm512_mask_compress_epi64, LO_STORE_SI512,
            _mm512_mask_storeu_epi64)


/* Inclusive prefix sums inside one register: log2(W) steps of v + (v moved up k lanes), the
 * move a valignd/valignq against zero; and the last lane broadcast (the carry into the next
 * block). */
#define LO_SCAN 1
#define LO_UP32(v, k) _mm512_alignr_epi32(v, _mm512_setzero_si512(), 16 - (k))
#define LO_UP64(v, k) _mm512_alignr_epi64(v, _mm512_setzero_si512(), 8 - (k))
#define LO_UPPS(v, k) _mm512_castsi512_ps(LO_UP32(_mm512_castps_si512(v), k))
#define LO_UPPD(v, k) _mm512_castsi512_pd(LO_UP64(_mm512_castpd_si512(v), k))
#define LO_SCAN_STEP(ADD, UP, v, k) ((v) = ADD(v, UP(v, k)))
static inline __m512i lo_pscan_i32_avx512(__m512i v) {
    LO_SCAN_STEP(_mm512_add_epi32, LO_UP32, v, 1), LO_SCAN_STEP(_mm512_add_epi32, LO_UP32, v, 2);
    return LO_SCAN_STEP(_mm512_add_epi32, LO_UP32, v, 4), LO_SCAN_STEP(_mm512_add_epi32, LO_UP32, v, 8);
}
static inline __m512 lo_pscan_f32_avx512(__m512 v) {
    LO_SCAN_STEP(_mm512_add_ps, LO_UPPS, v, 1), LO_SCAN_STEP(_mm512_add_ps, LO_UPPS, v, 2);
    return LO_SCAN_STEP(_mm512_add_ps, LO_UPPS, v, 4), LO_SCAN_STEP(_mm512_add_ps, LO_UPPS, v, 8);
}
static inline __m512i lo_pscan_i64_avx512(__m512i v) {
    LO_SCAN_STEP(_mm512_add_epi64, LO_UP64, v, 1), LO_SCAN_STEP(_mm512_add_epi64, LO_UP64, v, 2);
    return LO_SCAN_STEP(_mm512_add_epi64, LO_UP64, v, 4);
}
static inline __m512d lo_pscan_f64_avx512(__m512d v) {
    LO_SCAN_STEP(_mm512_add_pd, LO_UPPD, v, 1), LO_SCAN_STEP(_mm512_add_pd, LO_UPPD, v, 2);
    return LO_SCAN_STEP(_mm512_add_pd, LO_UPPD, v, 4);
}
#undef LO_UP32
#undef LO_UP64
#undef LO_UPPS
#undef LO_UPPD
#undef LO_SCAN_STEP
static inline __m512 lo_blast_f32_avx512(__m512 v) { return _mm512_permutexvar_ps(_mm512_set1_epi32(15), v); }
static inline __m512d lo_blast_f64_avx512(__m512d v) { return _mm512_permutexvar_pd(_mm512_set1_epi64(7), v); }
static inline __m512i lo_blast_i32_avx512(__m512i v) { return _mm512_permutexvar_epi32(_mm512_set1_epi32(15), v); }
static inline __m512i lo_blast_i64_avx512(__m512i v) { return _mm512_permutexvar_epi64(_mm512_set1_epi64(7), v); }

/* ---- f32 ---- */
#define T float
#define V __m512
#define W 16
#define V_MASK __mmask16
#define V_TAILMASK(r) ((__mmask16)((1u << (r)) - 1u))
#define V_PACK(out, v, x) LO_CAT2(LO_CAT2(lo_pack_, LO_DT), _avx512)(out, v, x)
#define V_PACK_TAIL(out, m, v, x) LO_CAT2(LO_CAT2(lo_pack_tail_, LO_DT), _avx512)(out, m, v, x)
#define LO_DT f32
#define LO_FLOAT 1
#define V_LD _mm512_loadu_ps
#define V_ST _mm512_storeu_ps
#define V_LDM _mm512_mask_loadu_ps
#define V_STM _mm512_mask_storeu_ps
#define V_SET1(s) _mm512_set1_ps((float)(s))
#define V_ADD _mm512_add_ps
#define V_MUL _mm512_mul_ps
#define V_HADD _mm512_reduce_add_ps
#define V_HMUL _mm512_reduce_mul_ps
#define V_MIN _mm512_min_ps
#define V_MAX _mm512_max_ps
#define V_MADD _mm512_fmadd_ps
#define V_MACC(acc, x, y) _mm512_fmadd_ps(x, y, acc)
#define V_GT0_KEEP(v) _mm512_maskz_mov_ps(LO_GT0_PS(v), v)
#define V_SQRT_ABS(v) _mm512_sqrt_ps(_mm512_abs_ps(v))
#define NT __mmask16
#define NT_INIT 0
#define NT_UPD(nt, v) ((nt) |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q))
#define NT_ANY(nt) ((nt) != 0)
#define S_MADD lo_s_madd_f32_fused
#define LO_SQRT sqrtf
#define LO_FABS fabsf
#include "lo_template.h"
#include "lo_undef.h"

/* ---- f64 ---- */
#define LO_FLOAT 1
#define T double
#define V __m512d
#define W 8
#define V_MASK __mmask8
#define V_TAILMASK(r) ((__mmask8)((1u << (r)) - 1u))
#define V_PACK(out, v, x) LO_CAT2(LO_CAT2(lo_pack_, LO_DT), _avx512)(out, v, x)
#define V_PACK_TAIL(out, m, v, x) LO_CAT2(LO_CAT2(lo_pack_tail_, LO_DT), _avx512)(out, m, v, x)
#define LO_DT f64
#define V_LD _mm512_loadu_pd
#define V_ST _mm512_storeu_pd
#define V_LDM _mm512_mask_loadu_pd
#define V_STM _mm512_mask_storeu_pd
#define V_SET1(s) _mm512_set1_pd((double)(s))
#define V_ADD _mm512_add_pd
#define V_MUL _mm512_mul_pd
#define V_HADD _mm512_reduce_add_pd
#define V_HMUL _mm512_reduce_mul_pd
#define V_MIN _mm512_min_pd
#define V_MAX _mm512_max_pd
#define V_MADD _mm512_fmadd_pd
#define V_MACC(acc, x, y) _mm512_fmadd_pd(x, y, acc)
#define V_GT0_KEEP(v) _mm512_maskz_mov_pd(LO_GT0_PD(v), v)
#define V_SQRT_ABS(v) _mm512_sqrt_pd(_mm512_abs_pd(v))
#define NT __mmask8
#define NT_INIT 0
#define NT_UPD(nt, v) ((nt) |= _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q))
#define NT_ANY(nt) ((nt) != 0)
#define S_MADD lo_s_madd_f64_fused
#define LO_SQRT sqrt
#define LO_FABS fabs
#include "lo_template.h"
#include "lo_undef.h"


/* ---- i32 ---- */
#define LO_FLOAT 0
#define V __m512i
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, v) _mm512_storeu_si512((void *)(p), v)
#define T int32_t
#define W 16
#define V_MASK __mmask16
#define V_TAILMASK(r) ((__mmask16)((1u << (r)) - 1u))
#define V_PACK(out, v, x) LO_CAT2(LO_CAT2(lo_pack_, LO_DT), _avx512)(out, v, x)
#define V_PACK_TAIL(out, m, v, x) LO_CAT2(LO_CAT2(lo_pack_tail_, LO_DT), _avx512)(out, m, v, x)
#define LO_DT i32
#define LO_TMIN INT32_MIN
#define LO_TMAX INT32_MAX
#define V_LDM(fill, m, p) _mm512_mask_loadu_epi32(fill, m, p)
#define V_STM(p, m, v) _mm512_mask_storeu_epi32(p, m, v)
#define V_SET1(s) _mm512_set1_epi32((int32_t)(s))
#define V_ADD _mm512_add_epi32
#define V_MUL _mm512_mullo_epi32
#define V_HADD _mm512_reduce_add_epi32
#define V_HMUL _mm512_reduce_mul_epi32
#define V_MIN _mm512_min_epi32
#define V_MAX _mm512_max_epi32
#define V_MADD(a, x, b) _mm512_add_epi32(_mm512_mullo_epi32(a, x), b)
#define V_MACC(acc, x, y) _mm512_add_epi32(acc, _mm512_mullo_epi32(x, y))
#define V_GT0_KEEP(v) _mm512_maskz_mov_epi32(LO_GT0_EPI32(v), v)
#define S_MADD lo_s_madd_i32
#include "lo_template.h"
#include "lo_undef.h"

/* ---- i64 ---- */
#define LO_FLOAT 0
#define V __m512i
#define V_LD(p) _mm512_loadu_si512((const void *)(p))
#define V_ST(p, v) _mm512_storeu_si512((void *)(p), v)
#define T int64_t
#define W 8
#define V_MASK __mmask8
#define V_TAILMASK(r) ((__mmask8)((1u << (r)) - 1u))
#define V_PACK(out, v, x) LO_CAT2(LO_CAT2(lo_pack_, LO_DT), _avx512)(out, v, x)
#define V_PACK_TAIL(out, m, v, x) LO_CAT2(LO_CAT2(lo_pack_tail_, LO_DT), _avx512)(out, m, v, x)
#define LO_DT i64
#define LO_TMIN INT64_MIN
#define LO_TMAX INT64_MAX
#define V_LDM(fill, m, p) _mm512_mask_loadu_epi64(fill, m, p)
#define V_STM(p, m, v) _mm512_mask_storeu_epi64(p, m, v)
#define V_SET1(s) _mm512_set1_epi64((int64_t)(s))
#define V_ADD _mm512_add_epi64
#define V_MUL _mm512_mullo_epi64
#define V_HADD _mm512_reduce_add_epi64
#define V_HMUL _mm512_reduce_mul_epi64
#define V_MIN _mm512_min_epi64
#define V_MAX _mm512_max_epi64
#define V_MADD(a, x, b) _mm512_add_epi64(_mm512_mullo_epi64(a, x), b)
#define V_MACC(acc, x, y) _mm512_add_epi64(acc, _mm512_mullo_epi64(x, y))
#define V_GT0_KEEP(v) _mm512_maskz_mov_epi64(LO_GT0_EPI64(v), v)
#define S_MADD lo_s_madd_i64
#include "lo_template.h"
#include "lo_undef.h"
#undef LO_ISA
#undef V_IN_REGISTER
#undef LO_DEF_PACK
#undef LO_GT0_PS
#undef LO_GT0_PD
#undef LO_GT0_EPI32
#undef LO_GT0_EPI64
#undef LO_STORE_SI512
#undef LO_SCAN
