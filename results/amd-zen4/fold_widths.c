// Session 20 (issue 11, helper foldwide): which change makes sum f32 from DRAM faster on Zen 4?
// One variant changed at a time against loopopt's AVX-512 K-block shape (z512k4), called
// interleaved (rotating order), medians of thread CPU time, samples >= 2 ms.
//   z512h4: 512-bit adds, loads in 256-bit halves (simd.load ... halves)
//   z512k8: 8 zmm accumulators; *_pf1k/_pf4k: software prefetch 1/4 KiB ahead
//   y256kK: AVX2 loop, K ymm accumulators (y256k8: z512k4's 64 lanes); u2: unrolled twice
//   z512split: z512k4's 4 zmm accumulators split into 8 ymm before a 256-bit loop and joined
//              after (z512k4's summation order, bit for bit)
// Build: gcc -O3 -fno-tree-vectorize -ffp-contract=off -mavx512f -mavx512dq -mavx512vl -mavx2 -mfma
//        -o fold_widths fold_widths.c && ./fold_widths $((16<<20)) 41  (sum i32: add i32 after 41)
// Results: analysis.md, "Session 20", 16 Mi folds.
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef float (*fn)(const float *, int64_t);

// loopopt's AVX-512 shape: K = 4 zmm accumulators, 64 floats an iteration
static float z512k4(const float *x, int64_t n) {
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t i = 0; i + 64 <= n; i += 64) {
        a0 = _mm512_add_ps(a0, _mm512_loadu_ps(x + i));
        a1 = _mm512_add_ps(a1, _mm512_loadu_ps(x + i + 16));
        a2 = _mm512_add_ps(a2, _mm512_loadu_ps(x + i + 32));
        a3 = _mm512_add_ps(a3, _mm512_loadu_ps(x + i + 48));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}
#define HL(p) _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(p)), _mm256_loadu_ps((p) + 8), 1)
static float z512h4(const float *x, int64_t n) {
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t i = 0; i + 64 <= n; i += 64) {
        a0 = _mm512_add_ps(a0, HL(x + i));
        a1 = _mm512_add_ps(a1, HL(x + i + 16));
        a2 = _mm512_add_ps(a2, HL(x + i + 32));
        a3 = _mm512_add_ps(a3, HL(x + i + 48));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}
static float z512k8(const float *x, int64_t n) {
    __m512 a[8];
    for (int j = 0; j < 8; j++) a[j] = _mm512_setzero_ps();
    for (int64_t i = 0; i + 128 <= n; i += 128)
        for (int j = 0; j < 8; j++) a[j] = _mm512_add_ps(a[j], _mm512_loadu_ps(x + i + 16 * j));
    for (int j = 1; j < 8; j++) a[0] = _mm512_add_ps(a[0], a[j]);
    return _mm512_reduce_add_ps(a[0]);
}
#define ZPF(name, D) \
static float name(const float *x, int64_t n) { \
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0; \
    for (int64_t i = 0; i + 64 <= n; i += 64) { \
        _mm_prefetch((const char *)(x + i) + (D), _MM_HINT_T0); \
        _mm_prefetch((const char *)(x + i) + (D) + 64, _MM_HINT_T0); \
        _mm_prefetch((const char *)(x + i) + (D) + 128, _MM_HINT_T0); \
        _mm_prefetch((const char *)(x + i) + (D) + 192, _MM_HINT_T0); \
        a0 = _mm512_add_ps(a0, _mm512_loadu_ps(x + i)); \
        a1 = _mm512_add_ps(a1, _mm512_loadu_ps(x + i + 16)); \
        a2 = _mm512_add_ps(a2, _mm512_loadu_ps(x + i + 32)); \
        a3 = _mm512_add_ps(a3, _mm512_loadu_ps(x + i + 48)); \
    } \
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3))); \
}
ZPF(z512k4_pf1k, 1024)
ZPF(z512k4_pf4k, 4096)
// AVX2 loops with K ymm accumulators; K = 8 has z512k4's lanes (acc 2j, 2j+1 = zmm acc j's halves)
#define YK(name, K, U, D) \
static float name(const float *x, int64_t n) { \
    __m256 a[K]; \
    for (int j = 0; j < K; j++) a[j] = _mm256_setzero_ps(); \
    for (int64_t i = 0; i + 8 * K * U <= n; i += 8 * K * U) { \
        _Pragma("GCC unroll 4") for (int u = 0; u < U; u++) { \
            if (D) for (int p = 0; p < K / 2; p++) \
                _mm_prefetch((const char *)(x + i + 8 * K * u) + (D) + 64 * p, _MM_HINT_T0); \
            for (int j = 0; j < K; j++) \
                a[j] = _mm256_add_ps(a[j], _mm256_loadu_ps(x + i + 8 * K * u + 8 * j)); \
        } \
    } \
    for (int s = K / 2; s; s /= 2) for (int j = 0; j < s; j++) a[j] = _mm256_add_ps(a[j], a[j + s]); \
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(a[0]), _mm256_extractf128_ps(a[0], 1)); \
    h = _mm_add_ps(h, _mm_movehl_ps(h, h)); h = _mm_add_ss(h, _mm_movehdup_ps(h)); \
    return _mm_cvtss_f32(h); \
}
YK(y256k2, 2, 1, 0)
YK(y256k4, 4, 1, 0)
YK(y256k8, 8, 1, 0)
YK(y256k8u2, 8, 2, 0)
YK(y256k16, 16, 1, 0)
YK(y256k8_pf1k, 8, 1, 1024)
YK(y256k8_pf4k, 8, 1, 4096)
// 512-bit accumulators, the 256-bit halves added separately (vaddps ymm into zmm halves? no:
// split the 4 zmm accumulators into 8 ymm at entry, join at exit) = y256k8 with z512k4's order
static float z512split(const float *x, int64_t n) {
    __m512 z[4];
    for (int j = 0; j < 4; j++) z[j] = _mm512_setzero_ps();
    __m256 a[8];
    for (int j = 0; j < 4; j++) { a[2*j] = _mm512_castps512_ps256(z[j]); a[2*j+1] = _mm512_extractf32x8_ps(z[j], 1); }
    for (int64_t i = 0; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) a[j] = _mm256_add_ps(a[j], _mm256_loadu_ps(x + i + 8 * j));
    for (int j = 0; j < 4; j++) z[j] = _mm512_insertf32x8(_mm512_castps256_ps512(a[2*j]), a[2*j+1], 1);
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(z[0], z[1]), _mm512_add_ps(z[2], z[3])));
}


// sum i32 (wrapping), the same shapes: ./fold_widths N TRIALS i32
typedef int32_t (*ifn)(const int32_t *, int64_t);
static int32_t i512k4(const int32_t *x, int64_t n) {
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t i = 0; i + 64 <= n; i += 64) {
        a0 = _mm512_add_epi32(a0, _mm512_loadu_si512(x + i));
        a1 = _mm512_add_epi32(a1, _mm512_loadu_si512(x + i + 16));
        a2 = _mm512_add_epi32(a2, _mm512_loadu_si512(x + i + 32));
        a3 = _mm512_add_epi32(a3, _mm512_loadu_si512(x + i + 48));
    }
    return _mm512_reduce_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)));
}
#define IHL(p) _mm512_inserti32x8(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(p))), _mm256_loadu_si256((const __m256i *)((p) + 8)), 1)
static int32_t i512h4(const int32_t *x, int64_t n) {
    __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t i = 0; i + 64 <= n; i += 64) {
        a0 = _mm512_add_epi32(a0, IHL(x + i));
        a1 = _mm512_add_epi32(a1, IHL(x + i + 16));
        a2 = _mm512_add_epi32(a2, IHL(x + i + 32));
        a3 = _mm512_add_epi32(a3, IHL(x + i + 48));
    }
    return _mm512_reduce_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)));
}
static int32_t i256k8(const int32_t *x, int64_t n) {
    __m256i a[8];
    for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_si256();
    for (int64_t i = 0; i + 64 <= n; i += 64)
        for (int j = 0; j < 8; j++) a[j] = _mm256_add_epi32(a[j], _mm256_loadu_si256((const __m256i *)(x + i + 8 * j)));
    for (int s = 4; s; s /= 2) for (int j = 0; j < s; j++) a[j] = _mm256_add_epi32(a[j], a[j + s]);
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(a[0]), _mm256_extracti128_si256(a[0], 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0x4e)); h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 0xb1));
    return _mm_cvtsi128_si32(h);
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv) {
    int64_t n = argc > 1 ? atoll(argv[1]) : (16 << 20);
    int trials = argc > 2 ? atoi(argv[2]) : 41;
    if (argc > 3 && !strcmp(argv[3], "i32")) {
        struct { const char *name; ifn f; } w[] = {{"i512k4", i512k4}, {"i512h4", i512h4}, {"i256k8", i256k8}};
        int nw = 3;
        size_t ib = ((n * 4 + (2 << 20) - 1) / (2 << 20)) * (2 << 20);
        int32_t *y = aligned_alloc(2 << 20, ib);
        madvise(y, ib, MADV_HUGEPAGE);
        for (int64_t i = 0; i < n; i++) y[i] = (int32_t)((i * 7919) % 2001) - 1000;
        double *u = calloc((size_t)nw * trials, sizeof *u);
        volatile int32_t isink; (void)isink;
        for (int r = 0; r < trials; r++)
            for (int k = 0; k < nw; k++) {
                int j = (k + r) % nw;
                double s = now();
                isink = w[j].f(y, n);
                u[j * trials + r] = now() - s;
            }
        printf("i32 n=%lld trials=%d\n", (long long)n, trials);
        double b0 = 0;
        for (int j = 0; j < nw; j++) {
            qsort(u + j * trials, trials, sizeof *u, cmpd);
            double m = u[j * trials + trials / 2];
            if (j == 0) b0 = m;
            printf("%-12s %10.1f ns  %.3f x  sum=%d\n", w[j].name, m, b0 / m, w[j].f(y, n));
        }
        return 0;
    }
    struct { const char *name; fn f; } v[] = {
        {"z512k4", z512k4}, {"z512h4", z512h4}, {"z512k8", z512k8}, {"z512k4_pf1k", z512k4_pf1k},
        {"z512k4_pf4k", z512k4_pf4k}, {"y256k2", y256k2}, {"y256k4", y256k4}, {"y256k8", y256k8},
        {"y256k8u2", y256k8u2}, {"y256k16", y256k16}, {"y256k8_pf1k", y256k8_pf1k},
        {"y256k8_pf4k", y256k8_pf4k}, {"z512split", z512split},
    };
    int nv = sizeof v / sizeof v[0];
    size_t bytes = ((n * 4 + (2 << 20) - 1) / (2 << 20)) * (2 << 20);
    float *x = aligned_alloc(2 << 20, bytes);
    madvise(x, bytes, MADV_HUGEPAGE);
    for (int64_t i = 0; i < n; i++) x[i] = (float)rand() / RAND_MAX * 2.0f - 0.7f; // sums differ by order
    int reps = 1; // >= 2 ms a sample
    volatile float warm; double t0 = now(); warm = z512k4(x, n); double one = now() - t0; (void)warm;
    while (reps * one < 2e6) reps *= 2;
    double *t = calloc((size_t)nv * trials, sizeof *t);
    volatile float sink; (void)sink;
    for (int r = 0; r < trials; r++)
        for (int k = 0; k < nv; k++) {
            int j = (k + r) % nv;
            double s = now();
            for (int q = 0; q < reps; q++) sink = v[j].f(x, n);
            t[j * trials + r] = (now() - s) / reps;
        }
    printf("n=%lld reps=%d trials=%d\n", (long long)n, reps, trials);
    double base;
    for (int j = 0; j < nv; j++) {
        qsort(t + j * trials, trials, sizeof *t, cmpd);
        double m = t[j * trials + trials / 2];
        if (j == 0) base = m;
        printf("%-12s %10.1f ns  q1 %10.1f q3 %10.1f  %.3f x  sum=%a\n", v[j].name, m, t[j * trials + trials / 4],
               t[j * trials + 3 * trials / 4], base / m, v[j].f(x, n));
    }
    return 0;
}
