/* Shared scalar helpers of the hand-written kernels (internal; not for C users).
 *
 * Integer arithmetic wraps in the element type (like numpy), so it is done on
 * the unsigned type: signed overflow would be undefined behaviour in C.
 * Float `a*x + b` has one contract per ISA (see kernels/README.md): fused on
 * FMA ISAs (lo_madd_*_fused), unfused on scalar/sse2 (lo_madd_*_unfused). The
 * unfused one hides the product from the compiler so it cannot contract it
 * into an FMA even when built with -ffp-contract=fast and an FMA target.
 */
#ifndef LO_COMMON_H
#define LO_COMMON_H

#include <math.h>
#include <stdint.h>

#include "loopopt_kernels.h"
#include "lo_luts.h"

#define LO_CAT2_(a, b) a##b
#define LO_CAT2(a, b) LO_CAT2_(a, b)
#define LO_CAT6_(a, b, c, d, e, f) a##b##c##d##e##f
#define LO_CAT6(a, b, c, d, e, f) LO_CAT6_(a, b, c, d, e, f)

/* Keep a value opaque to the optimizer (it must be materialized as is). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define LO_OPAQUE(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__) && defined(__aarch64__)
#define LO_OPAQUE(v) __asm__("" : "+w"(v))
#else
#define LO_OPAQUE(v) ((void)0) /* build with -ffp-contract=off */
#endif

#define LO_DEF_INT_OPS(DT, T, U)                                                                   \
    static inline T lo_s_add_##DT(T a, T b) { return (T)((U)a + (U)b); }                              \
    static inline T lo_s_mul_##DT(T a, T b) { return (T)((U)a * (U)b); }                              \
    static inline T lo_s_madd_##DT(T a, T x, T b) { return (T)((U)a * (U)x + (U)b); }                 \
    static inline T lo_s_min_##DT(T a, T b) { return b < a ? b : a; }                                 \
    static inline T lo_s_max_##DT(T a, T b) { return b > a ? b : a; }
LO_DEF_INT_OPS(i32, int32_t, uint32_t)
LO_DEF_INT_OPS(i64, int64_t, uint64_t)

/* Float min/max: NaN is tracked separately by the kernels (see the template). */
#define LO_DEF_FLOAT_OPS(DT, T, FMA)                                                               \
    static inline T lo_s_add_##DT(T a, T b) { return a + b; }                                         \
    static inline T lo_s_mul_##DT(T a, T b) { return a * b; }                                         \
    static inline T lo_s_madd_##DT##_fused(T a, T x, T b) { return FMA(a, x, b); }                    \
    static inline T lo_s_madd_##DT##_unfused(T a, T x, T b) {                                         \
        T p = a * x;                                                                                \
        LO_OPAQUE(p);                                                                               \
        return p + b;                                                                               \
    }                                                                                               \
    static inline T lo_s_min_##DT(T a, T b) { return b < a ? b : a; }                                 \
    static inline T lo_s_max_##DT(T a, T b) { return b > a ? b : a; }
LO_DEF_FLOAT_OPS(f32, float, fmaf)
LO_DEF_FLOAT_OPS(f64, double, fma)

#endif
