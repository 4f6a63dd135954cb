/* NEON kernels (AArch64 Advanced SIMD, 128-bit vectors, with FMA).
 *
 * Float a*x + b is one fused multiply-add (vfmaq / fmaf in the tail).
 * vminq/vmaxq already propagate NaN, so min/max need no separate NaN tracker.
 * i64 multiply has no NEON instruction: lo*lo with vmull_u32 plus the cross
 * products shifted by 32. Filters left-pack with vqtbl1q_u8, its byte indices
 * read from a LUT indexed by the comparison bits (NEON has no movemask: the
 * compare mask is AND-ed with lane bits and summed across lanes).
 * Integer lanes wrap by construction: GCC's arm_neon.h spells vaddq_s32, vmulq_s32,
 * vmlaq_s32, vaddq_s64 as signed C vector arithmetic, which the optimizer may assume
 * never overflows, so the integer kernels add and multiply the unsigned lanes.
 */
#include <arm_neon.h>

#include "lo_common.h"

#define LO_ISA neon
#define V_IN_REGISTER LO_OPAQUE /* the fold accumulators after their loops (lo_template.h) */

static inline int64_t lo_pack4x32_neon(void *out, uint8x16_t v, uint32x4_t keep) {
    static const uint32_t lane_bits[4] = {1, 2, 4, 8};
    unsigned m = vaddvq_u32(vandq_u32(keep, vld1q_u32(lane_bits)));
    vst1q_u8((uint8_t *)out, vqtbl1q_u8(v, vld1q_u8(lo_neon_pack4x32[m])));
    return lo_popcount8[m];
}

static inline int64_t lo_pack2x64_neon(void *out, uint8x16_t v, uint64x2_t keep) {
    static const uint64_t lane_bits[2] = {1, 2};
    unsigned m = (unsigned)vaddvq_u64(vandq_u64(keep, vld1q_u64(lane_bits)));
    vst1q_u8((uint8_t *)out, vqtbl1q_u8(v, vld1q_u8(lo_neon_pack2x64[m])));
    return lo_popcount8[m];
}

static inline int32x4_t lo_add_s32_neon(int32x4_t a, int32x4_t b) {
    return vreinterpretq_s32_u32(vaddq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b)));
}

static inline int32x4_t lo_mul_s32_neon(int32x4_t a, int32x4_t b) {
    return vreinterpretq_s32_u32(vmulq_u32(vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b)));
}

/* acc + x*y, wrapping */
static inline int32x4_t lo_mla_s32_neon(int32x4_t acc, int32x4_t x, int32x4_t y) {
    return vreinterpretq_s32_u32(
        vmlaq_u32(vreinterpretq_u32_s32(acc), vreinterpretq_u32_s32(x), vreinterpretq_u32_s32(y)));
}

static inline int64x2_t lo_add_s64_neon(int64x2_t a, int64x2_t b) {
    return vreinterpretq_s64_u64(vaddq_u64(vreinterpretq_u64_s64(a), vreinterpretq_u64_s64(b)));
}

static inline int64x2_t lo_mul_s64_neon(int64x2_t a, int64x2_t b) {
    uint64x2_t ua = vreinterpretq_u64_s64(a), ub = vreinterpretq_u64_s64(b);
    uint32x2_t al = vmovn_u64(ua), bl = vmovn_u64(ub);
    uint32x2_t ah = vshrn_n_u64(ua, 32), bh = vshrn_n_u64(ub, 32);
    uint32x2_t cross = vmla_u32(vmul_u32(ah, bl), al, bh); /* mod 2^32: only its low half survives the shift */
    return vreinterpretq_s64_u64(vaddq_u64(vmull_u32(al, bl), vshll_n_u32(cross, 32)));
}

/* Inclusive prefix sums inside one register (vextq against zero moves the lanes up; integer
 * lanes add unsigned, wrapping) and the last lane broadcast (the carry into the next block). */
#define LO_SCAN 1
static inline float32x4_t lo_pscan_f32_neon(float32x4_t v) {
    const float32x4_t z = vdupq_n_f32(0.0f);
    v = vaddq_f32(v, vextq_f32(z, v, 3));
    return vaddq_f32(v, vextq_f32(z, v, 2));
}
static inline float64x2_t lo_pscan_f64_neon(float64x2_t v) { return vaddq_f64(v, vextq_f64(vdupq_n_f64(0.0), v, 1)); }
static inline int32x4_t lo_pscan_i32_neon(int32x4_t v) {
    const int32x4_t z = vdupq_n_s32(0);
    v = lo_add_s32_neon(v, vextq_s32(z, v, 3));
    return lo_add_s32_neon(v, vextq_s32(z, v, 2));
}
static inline int64x2_t lo_pscan_i64_neon(int64x2_t v) { return lo_add_s64_neon(v, vextq_s64(vdupq_n_s64(0), v, 1)); }
static inline float32x4_t lo_blast_f32_neon(float32x4_t v) { return vdupq_laneq_f32(v, 3); }
static inline float64x2_t lo_blast_f64_neon(float64x2_t v) { return vdupq_laneq_f64(v, 1); }
static inline int32x4_t lo_blast_i32_neon(int32x4_t v) { return vdupq_laneq_s32(v, 3); }
static inline int64x2_t lo_blast_i64_neon(int64x2_t v) { return vdupq_laneq_s64(v, 1); }

/* ---- f32 ---- */
#define T float
#define V float32x4_t
#define W 4
#define LO_DT f32
#define LO_FLOAT 1
#define V_LD vld1q_f32
#define V_ST vst1q_f32
#define V_SET1(s) vdupq_n_f32((float)(s))
#define V_ADD vaddq_f32
#define V_MUL vmulq_f32
#define V_MIN vminq_f32
#define V_MAX vmaxq_f32
#define V_MADD(a, x, b) vfmaq_f32(b, a, x)
#define V_MACC(acc, x, y) vfmaq_f32(acc, x, y)
#define V_GT0_KEEP(v) vreinterpretq_f32_u32(vandq_u32(vcgtzq_f32(v), vreinterpretq_u32_f32(v)))
#define V_SQRT_ABS(v) vsqrtq_f32(vabsq_f32(v))
#define V_PACK(out, v, x) lo_pack4x32_neon(out, vreinterpretq_u8_f32(v), vcgtzq_f32(x))
#define NT int /* vminq/vmaxq keep NaN in the lanes; the horizontal step sees it */
#define NT_INIT 0
#define NT_UPD(nt, v) ((void)(nt))
#define NT_ANY(nt) ((nt) != 0)
#define S_MADD lo_s_madd_f32_fused
#define LO_SQRT sqrtf
#define LO_FABS fabsf
#include "lo_template.h"
#include "lo_undef.h"

/* ---- f64 ---- */
#define T double
#define V float64x2_t
#define W 2
#define LO_DT f64
#define LO_FLOAT 1
#define V_LD vld1q_f64
#define V_ST vst1q_f64
#define V_SET1(s) vdupq_n_f64((double)(s))
#define V_ADD vaddq_f64
#define V_MUL vmulq_f64
#define V_MIN vminq_f64
#define V_MAX vmaxq_f64
#define V_MADD(a, x, b) vfmaq_f64(b, a, x)
#define V_MACC(acc, x, y) vfmaq_f64(acc, x, y)
#define V_GT0_KEEP(v) vreinterpretq_f64_u64(vandq_u64(vcgtzq_f64(v), vreinterpretq_u64_f64(v)))
#define V_SQRT_ABS(v) vsqrtq_f64(vabsq_f64(v))
#define V_PACK(out, v, x) lo_pack2x64_neon(out, vreinterpretq_u8_f64(v), vcgtzq_f64(x))
#define NT int
#define NT_INIT 0
#define NT_UPD(nt, v) ((void)(nt))
#define NT_ANY(nt) ((nt) != 0)
#define S_MADD lo_s_madd_f64_fused
#define LO_SQRT sqrt
#define LO_FABS fabs
#include "lo_template.h"
#include "lo_undef.h"

/* ---- i32 ---- */
#define T int32_t
#define V int32x4_t
#define W 4
#define LO_DT i32
#define LO_FLOAT 0
#define LO_TMIN INT32_MIN
#define LO_TMAX INT32_MAX
#define V_LD vld1q_s32
#define V_ST vst1q_s32
#define V_SET1(s) vdupq_n_s32((int32_t)(s))
#define V_ADD lo_add_s32_neon
#define V_MUL lo_mul_s32_neon
#define V_MIN vminq_s32
#define V_MAX vmaxq_s32
#define V_MADD(a, x, b) lo_mla_s32_neon(b, a, x)
#define V_MACC(acc, x, y) lo_mla_s32_neon(acc, x, y)
#define V_GT0_KEEP(v) vmaxq_s32(v, vdupq_n_s32(0)) /* = v & (v > 0), one instruction */
#define V_PACK(out, v, x) lo_pack4x32_neon(out, vreinterpretq_u8_s32(v), vcgtzq_s32(x))
#define S_MADD lo_s_madd_i32
#include "lo_template.h"
#include "lo_undef.h"

/* ---- i64 ---- */
#define T int64_t
#define V int64x2_t
#define W 2
#define LO_DT i64
#define LO_FLOAT 0
#define LO_TMIN INT64_MIN
#define LO_TMAX INT64_MAX
#define V_LD vld1q_s64
#define V_ST vst1q_s64
#define V_SET1(s) vdupq_n_s64((int64_t)(s))
#define V_ADD lo_add_s64_neon
#define V_MUL lo_mul_s64_neon
#define V_MIN(a, b) vbslq_s64(vcgtq_s64(a, b), b, a)
#define V_MAX(a, b) vbslq_s64(vcgtq_s64(a, b), a, b)
#define V_MADD(a, x, b) lo_add_s64_neon(lo_mul_s64_neon(a, x), b)
#define V_MACC(acc, x, y) lo_add_s64_neon(acc, lo_mul_s64_neon(x, y))
#define V_GT0_KEEP(v) vandq_s64(v, vreinterpretq_s64_u64(vcgtzq_s64(v)))
#define V_PACK(out, v, x) lo_pack2x64_neon(out, vreinterpretq_u8_s64(v), vcgtzq_s64(x))
#define S_MADD lo_s_madd_i64
#include "lo_template.h"
#include "lo_undef.h"
#undef LO_ISA
#undef V_IN_REGISTER
#undef LO_SCAN
