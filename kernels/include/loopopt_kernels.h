/* loopopt hand-written kernel library: prototypes of every kernel.
 *
 * Conventions: docs/calling_convention.md (inputs, then caller-allocated
 * outputs with their capacity; one scalar result is returned). Semantics and the
 * floating-point contract of each ISA: kernels/README.md.
 *
 *   lo_<pattern>_<dtype>_<isa>   one ISA (x86: scalar, sse2, avx2, avx512; aarch64: scalar, neon)
 *   lo_<pattern>_<dtype>         dispatcher: the best ISA this CPU runs (dispatch.c)
 *
 * The kernel list is an X-macro so that the prototypes, the dispatchers and any
 * binding generator share one definition. X(DT, T, PATTERN, RET, RETURN, PARAMS, ARGS):
 * RETURN is `return` for kernels with a result and empty for void ones.
 */
#ifndef LOOPOPT_KERNELS_H
#define LOOPOPT_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
#define LO_RESTRICT __restrict
extern "C" {
#else
#define LO_RESTRICT restrict
#endif

#define LO_KERNELS_ANY_DTYPE(X, DT, T)                                                             \
    X(DT, T, axpb, void, ,                                                                         \
      (const T *LO_RESTRICT x, int64_t x_len, T a, T b, T *LO_RESTRICT out, int64_t out_len),       \
      (x, x_len, a, b, out, out_len))                                                              \
    X(DT, T, axpy, void, ,                                                                         \
      (const T *LO_RESTRICT x, int64_t x_len, const T *LO_RESTRICT y, int64_t y_len, T a,           \
       T *LO_RESTRICT out, int64_t out_len),                                                       \
      (x, x_len, y, y_len, a, out, out_len))                                                       \
    X(DT, T, sum, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))                   \
    X(DT, T, prod, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))                  \
    X(DT, T, min, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))                   \
    X(DT, T, max, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))                   \
    X(DT, T, sumsq, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))                 \
    X(DT, T, dot, T, return, (const T *LO_RESTRICT x, int64_t x_len, const T *LO_RESTRICT y, int64_t y_len), \
      (x, x_len, y, y_len))                                                                        \
    X(DT, T, filter_gt0_sum, T, return, (const T *LO_RESTRICT x, int64_t x_len), (x, x_len))        \
    X(DT, T, filter_gt0_scale, int64_t, return,                                                    \
      (const T *LO_RESTRICT x, int64_t x_len, T a, T *LO_RESTRICT out, int64_t out_len),            \
      (x, x_len, a, out, out_len))                                                                 \
    X(DT, T, cumsum, void, , (const T *LO_RESTRICT x, int64_t x_len, T *LO_RESTRICT out, int64_t out_len), \
      (x, x_len, out, out_len))                                                                    \
    X(DT, T, row_sum, void, ,                                                                      \
      (const T *LO_RESTRICT x, int64_t x_rows, int64_t x_cols, T *LO_RESTRICT out, int64_t out_len), \
      (x, x_rows, x_cols, out, out_len))

#define LO_KERNELS_FLOAT_ONLY(X, DT, T)                                                            \
    X(DT, T, sqrt_abs_axpb, void, ,                                                                \
      (const T *LO_RESTRICT x, int64_t x_len, T a, T b, T *LO_RESTRICT out, int64_t out_len),       \
      (x, x_len, a, b, out, out_len))

/* Every (dtype, pattern) of the library. */
#define LO_KERNELS(X)                                                                              \
    LO_KERNELS_ANY_DTYPE(X, f32, float)                                                            \
    LO_KERNELS_ANY_DTYPE(X, f64, double)                                                           \
    LO_KERNELS_ANY_DTYPE(X, i32, int32_t)                                                          \
    LO_KERNELS_ANY_DTYPE(X, i64, int64_t)                                                          \
    LO_KERNELS_FLOAT_ONLY(X, f32, float)                                                           \
    LO_KERNELS_FLOAT_ONLY(X, f64, double)

#define LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, ISA) RET lo_##P##_##DT##_##ISA PARAMS;
#if defined(__aarch64__)
#define LO_DECLARE_(DT, T, P, RET, RETURN, PARAMS, ARGS)                                           \
    RET lo_##P##_##DT PARAMS;                                                                      \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, scalar)                                   \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, neon)
#elif defined(__x86_64__)
#define LO_DECLARE_(DT, T, P, RET, RETURN, PARAMS, ARGS)                                           \
    RET lo_##P##_##DT PARAMS;                                                                      \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, scalar)                                   \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, sse2)                                     \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, avx2)                                     \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, avx512)
#else
#define LO_DECLARE_(DT, T, P, RET, RETURN, PARAMS, ARGS)                                           \
    RET lo_##P##_##DT PARAMS;                                                                      \
    LO_DECLARE_ISA_(DT, T, P, RET, RETURN, PARAMS, ARGS, scalar)
#endif

LO_KERNELS(LO_DECLARE_)

/* The ISA the dispatchers use on this CPU: "avx512", "avx2", "sse2", "neon" or "scalar". */
const char *lo_kernels_isa(void);

#ifdef __cplusplus
}
#endif

#endif
