/* Scalar kernels: portable C, no intrinsics, one element at a time.
 *
 * The template's vocabulary over W = 1 "vectors": the same loop shape (four
 * independent accumulators for folds, unroll by 4 for maps) on plain scalars.
 * Float a*x + b is unfused (multiply, round, add) whatever the build flags.
 */
#include "lo_common.h"

#define LO_ISA scalar
#define W 1
#define V_LD(p) (*(p))
#define V_ST(p, v) (*(p) = (v))
#define V_SET1(s) ((T)(s))
#define V_ADD S_ADD
#define V_MUL S_MUL
#define V_MIN S_MIN
#define V_MAX S_MAX
#define V_MACC(acc, x, y) S_ADD(acc, S_MUL(x, y))
#define V_GT0_KEEP(v) ((v) > 0 ? (v) : (T)0)

/* Branch-free compaction: always store, advance only when x > 0. */
#define LO_DEF_PACK(DT, T)                                                                         \
    static inline int64_t lo_pack_##DT##_scalar(T *out, T v, T x) {                                \
        *out = v;                                                                                  \
        return x > 0;                                                                              \
    }
LO_DEF_PACK(f32, float)
LO_DEF_PACK(f64, double)
LO_DEF_PACK(i32, int32_t)
LO_DEF_PACK(i64, int64_t)
#define V_PACK(out, v, x) LO_CAT2(LO_CAT2(lo_pack_, LO_DT), _scalar)(out, v, x)

/* NaN tracker for float min/max. */
#define NT int
#define NT_INIT 0
#define NT_UPD(nt, v) ((nt) |= (v) != (v))
#define NT_ANY(nt) (nt)
#define V_SQRT_ABS(v) LO_SQRT(LO_FABS(v))

#define T float
#define V float
#define LO_DT f32
#define LO_FLOAT 1
#define LO_SQRT sqrtf
#define LO_FABS fabsf
#define V_MADD(a, x, b) lo_s_madd_f32_unfused(a, x, b)
#define S_MADD lo_s_madd_f32_unfused
#include "lo_template.h"
#undef T
#undef V
#undef LO_DT
#undef LO_SQRT
#undef LO_FABS
#undef V_MADD
#undef S_MADD

#define T double
#define V double
#define LO_DT f64
#define LO_SQRT sqrt
#define LO_FABS fabs
#define V_MADD(a, x, b) lo_s_madd_f64_unfused(a, x, b)
#define S_MADD lo_s_madd_f64_unfused
#include "lo_template.h"
#undef T
#undef V
#undef LO_DT
#undef LO_FLOAT
#undef V_MADD
#undef S_MADD

#define LO_FLOAT 0
/* The integer fold accumulators pass through an empty asm after their loops (lo_template.h): the
 * wrapping adds compute in the unsigned type ((int32_t)((uint32_t)a + (uint32_t)b)), gcc sees
 * through the conversion as through the x86 vector types', and the main loop of sum_i32 copied
 * its 4 accumulators every iteration (0.55-0.83x of the old array version, Zen 3). */
#ifdef __GNUC__
#define V_IN_REGISTER(v) __asm__("" : "+r"(v))
#endif
#define T int32_t
#define V int32_t
#define LO_DT i32
#define LO_TMIN INT32_MIN
#define LO_TMAX INT32_MAX
#define V_MADD lo_s_madd_i32
#define S_MADD lo_s_madd_i32
#include "lo_template.h"
#undef T
#undef V
#undef LO_DT
#undef LO_TMIN
#undef LO_TMAX
#undef V_MADD
#undef S_MADD

#define T int64_t
#define V int64_t
#define LO_DT i64
#define LO_TMIN INT64_MIN
#define LO_TMAX INT64_MAX
#define V_MADD lo_s_madd_i64
#define S_MADD lo_s_madd_i64
#include "lo_template.h"
#include "lo_undef.h"
#undef LO_ISA
#undef LO_DEF_PACK
#undef V_IN_REGISTER
