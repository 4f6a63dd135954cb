/* Dispatchers lo_<pattern>_<dtype>: call the best variant this CPU runs.
 *
 * x86-64: AVX-512 (F/BW/VL/DQ) > AVX2+FMA > SSE2 (the baseline), decided once
 * with __builtin_cpu_supports and cached. aarch64: NEON is the baseline.
 * Elsewhere: the scalar variants. Compile without ISA flags (it must run on
 * any CPU of the architecture).
 */
#include "loopopt_kernels.h"

#if defined(__x86_64__)

enum { LO_LEVEL_UNKNOWN = 0, LO_LEVEL_SSE2, LO_LEVEL_AVX2, LO_LEVEL_AVX512 };

static int lo_detect_level(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
        return LO_LEVEL_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return LO_LEVEL_AVX2;
    return LO_LEVEL_SSE2;
}

/* Racing first calls all compute and store the same value. */
static int lo_level(void) {
    static int level = LO_LEVEL_UNKNOWN;
    int l = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (l == LO_LEVEL_UNKNOWN) {
        l = lo_detect_level();
        __atomic_store_n(&level, l, __ATOMIC_RELAXED);
    }
    return l;
}

const char *lo_kernels_isa(void) {
    switch (lo_level()) {
    case LO_LEVEL_AVX512: return "avx512";
    case LO_LEVEL_AVX2: return "avx2";
    default: return "sse2";
    }
}

#define LO_DISPATCH_(DT, T, P, RET, RETURN, PARAMS, ARGS)                                          \
    RET lo_##P##_##DT PARAMS {                                                                     \
        int l = lo_level();                                                                        \
        if (l == LO_LEVEL_AVX512) {                                                                \
            RETURN lo_##P##_##DT##_avx512 ARGS;                                                    \
        } else if (l == LO_LEVEL_AVX2) {                                                           \
            RETURN lo_##P##_##DT##_avx2 ARGS;                                                      \
        } else {                                                                                   \
            RETURN lo_##P##_##DT##_sse2 ARGS;                                                      \
        }                                                                                          \
    }

#elif defined(__aarch64__)

const char *lo_kernels_isa(void) { return "neon"; }
#define LO_DISPATCH_(DT, T, P, RET, RETURN, PARAMS, ARGS) RET lo_##P##_##DT PARAMS { RETURN lo_##P##_##DT##_neon ARGS; }

#else

const char *lo_kernels_isa(void) { return "scalar"; }
#define LO_DISPATCH_(DT, T, P, RET, RETURN, PARAMS, ARGS) RET lo_##P##_##DT PARAMS { RETURN lo_##P##_##DT##_scalar ARGS; }

#endif

LO_KERNELS(LO_DISPATCH_)
#undef LO_DISPATCH_
