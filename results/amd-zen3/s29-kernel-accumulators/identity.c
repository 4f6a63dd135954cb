/* Prints the bits of every fold result of one ISA's kernels (sum, prod, sumsq, filter_gt0_sum, min,
 * max, dot, row_sum; f32 f64 i32 i64) over sizes 0..300 and some large ones, at every start offset
 * 0..3, on data with mixed magnitudes, signs, ±0 and (in a second pass) NaN. Built once against the
 * old kernels/src and once against the new one, the two outputs must be identical:
 *   gcc $(flags of ISA) -DLO_TEST_ISA=avx2 -I<kernels>/src -I<kernels>/include identity.c <kernels>/src/avx2.c -lm
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "loopopt_kernels.h"

#define CAT_(a, b, c) a##b##c
#define CAT(a, b, c) CAT_(a, b, c)
#define K(P, DT) CAT(lo_##P##_, DT, CAT(_, LO_TEST_ISA, ))

#define N 70000
static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }

static float xf[N], yf[N], of[N];
static double xd[N], yd[N], od[N];
static int32_t xi[N], yi[N], oi[N];
static int64_t xl[N], yl[N], ol[N];

static void fill(int nan) {
    for (int i = 0; i < N; i++) {
        uint64_t r = rnd();
        double mag = (double)(r % 2001) - 1000.0;
        double scale = (r >> 12) % 7 == 0 ? 1e-3 : ((r >> 12) % 11 == 0 ? 1e4 : 1.0);
        double v = mag * scale / 7.0;
        if ((r >> 20) % 97 == 0) v = ((r >> 30) & 1) ? 0.0 : -0.0;
        if (nan && (r >> 40) % 5003 == 0) v = __builtin_nan("");
        xf[i] = (float)v; xd[i] = v;
        yf[i] = (float)(1.0 + v / 3000.0); yd[i] = 1.0 + v / 3000.0;
        xi[i] = (int32_t)(uint32_t)(r >> 3); yi[i] = (int32_t)(uint32_t)(r >> 29);
        xl[i] = (int64_t)rnd(); yl[i] = (int64_t)rnd();
        if ((r >> 50) % 3 == 0) { xi[i] %= 1000; xl[i] %= 100000; }
    }
}

#define PRINT_BITS(tag, v)                                                                         \
    do {                                                                                           \
        __typeof__(v) v_ = (v);                                                                    \
        uint64_t b_ = 0;                                                                           \
        memcpy(&b_, &v_, sizeof v_);                                                               \
        printf("%s %" PRIx64 "\n", tag, b_);                                                       \
    } while (0)

#define FOLDS(DT, x, y, o)                                                                         \
    do {                                                                                           \
        PRINT_BITS(#DT " sum", K(sum, DT)(x + off, n));                                            \
        PRINT_BITS(#DT " prod", K(prod, DT)(y + off, n));                                          \
        PRINT_BITS(#DT " sumsq", K(sumsq, DT)(x + off, n));                                        \
        PRINT_BITS(#DT " filter_gt0_sum", K(filter_gt0_sum, DT)(x + off, n));                      \
        PRINT_BITS(#DT " min", K(min, DT)(x + off, n));                                            \
        PRINT_BITS(#DT " max", K(max, DT)(x + off, n));                                            \
        PRINT_BITS(#DT " dot", K(dot, DT)(x + off, n, y + off, n));                                \
        if (n >= 3) {                                                                              \
            K(row_sum, DT)(x + off, 3, n / 3, o, 3);                                               \
            for (int r = 0; r < 3; r++) PRINT_BITS(#DT " row_sum", o[r]);                          \
        }                                                                                          \
    } while (0)

int main(void) {
    static const int64_t large[] = {1000, 1021, 4096, 4099, 65536, 65537, 69997};
    for (int nan = 0; nan < 2; nan++) {
        fill(nan);
        for (int k = 0; k < 301 + 7; k++) {
            int64_t n = k < 301 ? k : large[k - 301];
            for (int off = 0; off < 4; off++) {
                if (n + off > N) continue;
                printf("n=%" PRId64 " off=%d nan=%d\n", n, off, nan);
                FOLDS(f32, xf, yf, of);
                FOLDS(f64, xd, yd, od);
                FOLDS(i32, xi, yi, oi);
                FOLDS(i64, xl, yl, ol);
            }
        }
    }
    return 0;
}
