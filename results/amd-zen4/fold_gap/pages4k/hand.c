// Session 23 (issue 11, helper pages4k): hand variants of the one-input folds for 4 KiB vs 2 MiB pages.
// Compiled with loop-bench's avx512 flags (-O3 -fwrapv -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma).
// Every variant: the main loop over whole 256-byte blocks (64 elements), a scalar tail.
//   z4     : 4 zmm accumulators, 512-bit loads (loopopt's avx512 fold, unsplit)
//   y8     : 8 ymm accumulators, 256-bit loads (loopopt's split halves)
//   y4     : 4 ymm accumulators, 128-byte blocks (the kernel library's avx2 fold)
//   z1     : 1 zmm accumulator (gcc -O3 -march=native's loop)
//   z4q    : 4 zmm accumulators from four 128-bit loads each (quarter loads)
//   z4p<D> : z4 plus one prefetcht0 per 64-byte line, D bytes ahead
//   y8p<D> : y8 plus the same prefetches
//   z4s2 / z4s4 : z4's work split in 2 / 4 equal streams walked side by side (x[0..n/2), x[n/2..n))
//   z4s4q  : z4s4 with quarter loads;  z8s8: 8 streams, one zmm accumulator each;  y8s4: 4 streams, 2 ymm each
//   z4pg   : z4 plus a prefetcht0 of the next 4 KiB page's first line when a block starts a page
#include <immintrin.h>
#include <stdint.h>

#define PF(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)

#define DEFS(OP, T, Z, ZLD, QLD, ZZERO, ZSTEP, ZRED, Y, YLD, YZERO, YSTEP, YRED, HY, SSTEP)                                   \
static inline T OP##_tail(const T *x, int64_t i, int64_t n, T s) { for (; i < n; i++) s = SSTEP(s, x[i]); return s; } \
T h_##OP##_z4(const T *x, int64_t n) {                                                                                \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t i = 0;                                                 \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        a0 = ZSTEP(a0, ZLD(x + i)); a1 = ZSTEP(a1, ZLD(x + i + 16));                                                 \
        a2 = ZSTEP(a2, ZLD(x + i + 32)); a3 = ZSTEP(a3, ZLD(x + i + 48)); }                                           \
    return OP##_tail(x, i, n, ZRED(a0, a1, a2, a3)); }                                                                \
T h_##OP##_z1(const T *x, int64_t n) {                                                                                \
    Z a0 = ZZERO; int64_t i = 0;                                                                                     \
    for (; i + 16 <= n; i += 16) a0 = ZSTEP(a0, ZLD(x + i));                                                         \
    return OP##_tail(x, i, n, ZRED(a0, ZZERO, ZZERO, ZZERO)); }                                                      \
T h_##OP##_y8(const T *x, int64_t n) {                                                                                \
    Y a0 = YZERO, a1 = YZERO, a2 = YZERO, a3 = YZERO, a4 = YZERO, a5 = YZERO, a6 = YZERO, a7 = YZERO; int64_t i = 0; \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        a0 = YSTEP(a0, YLD(x + i)); a1 = YSTEP(a1, YLD(x + i + 8)); a2 = YSTEP(a2, YLD(x + i + 16));                 \
        a3 = YSTEP(a3, YLD(x + i + 24)); a4 = YSTEP(a4, YLD(x + i + 32)); a5 = YSTEP(a5, YLD(x + i + 40));           \
        a6 = YSTEP(a6, YLD(x + i + 48)); a7 = YSTEP(a7, YLD(x + i + 56)); }                                           \
    return OP##_tail(x, i, n, HY(YRED(YRED(a0, a1, a2, a3), YRED(a4, a5, a6, a7), YZERO, YZERO))); }                       \
T h_##OP##_y4(const T *x, int64_t n) {                                                                                \
    Y a0 = YZERO, a1 = YZERO, a2 = YZERO, a3 = YZERO; int64_t i = 0;                                                 \
    for (; i + 32 <= n; i += 32) {                                                                                   \
        a0 = YSTEP(a0, YLD(x + i)); a1 = YSTEP(a1, YLD(x + i + 8));                                                  \
        a2 = YSTEP(a2, YLD(x + i + 16)); a3 = YSTEP(a3, YLD(x + i + 24)); }                                           \
    return OP##_tail(x, i, n, HY(YRED(a0, a1, a2, a3))); }                                                                \
T h_##OP##_z4q(const T *x, int64_t n) {                                                                               \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t i = 0;                                                 \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        a0 = ZSTEP(a0, QLD(x + i)); a1 = ZSTEP(a1, QLD(x + i + 16));                                                 \
        a2 = ZSTEP(a2, QLD(x + i + 32)); a3 = ZSTEP(a3, QLD(x + i + 48)); }                                           \
    return OP##_tail(x, i, n, ZRED(a0, a1, a2, a3)); }                                                                \
T h_##OP##_z4pg(const T *x, int64_t n) {                                                                              \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t i = 0;                                                 \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        if (!(((uintptr_t)(x + i)) & 4095)) PF((const char *)(x + i) + 4096);                                        \
        a0 = ZSTEP(a0, ZLD(x + i)); a1 = ZSTEP(a1, ZLD(x + i + 16));                                                 \
        a2 = ZSTEP(a2, ZLD(x + i + 32)); a3 = ZSTEP(a3, ZLD(x + i + 48)); }                                           \
    return OP##_tail(x, i, n, ZRED(a0, a1, a2, a3)); }                                                                \
T h_##OP##_z4s2(const T *x, int64_t n) {                                                                              \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t h = (n / 128) * 64, i = 0;                             \
    const T *y = x + h;                                                                                              \
    for (; i + 32 <= h; i += 32) {                                                                                   \
        a0 = ZSTEP(a0, ZLD(x + i)); a1 = ZSTEP(a1, ZLD(x + i + 16));                                                 \
        a2 = ZSTEP(a2, ZLD(y + i)); a3 = ZSTEP(a3, ZLD(y + i + 16)); }                                               \
    return OP##_tail(x, 2 * h, n, ZRED(a0, a1, a2, a3)); }                                                            \
T h_##OP##_z4s4(const T *x, int64_t n) {                                                                              \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t h = (n / 256) * 64, i = 0;                             \
    const T *y = x + h, *z = y + h, *w = z + h;                                                                      \
    for (; i + 16 <= h; i += 16) {                                                                                   \
        a0 = ZSTEP(a0, ZLD(x + i)); a1 = ZSTEP(a1, ZLD(y + i));                                                      \
        a2 = ZSTEP(a2, ZLD(z + i)); a3 = ZSTEP(a3, ZLD(w + i)); }                                                    \
    return OP##_tail(x, 4 * h, n, ZRED(a0, a1, a2, a3)); }                                                            \
T h_##OP##_z4s4q(const T *x, int64_t n) {                                                                             \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t h = (n / 256) * 64, i = 0;                             \
    const T *y = x + h, *z = y + h, *w = z + h;                                                                      \
    for (; i + 16 <= h; i += 16) {                                                                                   \
        a0 = ZSTEP(a0, QLD(x + i)); a1 = ZSTEP(a1, QLD(y + i));                                                      \
        a2 = ZSTEP(a2, QLD(z + i)); a3 = ZSTEP(a3, QLD(w + i)); }                                                    \
    return OP##_tail(x, 4 * h, n, ZRED(a0, a1, a2, a3)); }                                                            \
T h_##OP##_z8s8(const T *x, int64_t n) {                                                                              \
    Z a[8]; for (int j = 0; j < 8; j++) a[j] = ZZERO; int64_t h = (n / 512) * 64, i = 0;                             \
    for (; i + 16 <= h; i += 16) for (int j = 0; j < 8; j++) a[j] = ZSTEP(a[j], ZLD(x + j * h + i));                 \
    return OP##_tail(x, 8 * h, n, (T)(ZRED(a[0], a[1], a[2], a[3]) + ZRED(a[4], a[5], a[6], a[7]))); } \
T h_##OP##_y8s4(const T *x, int64_t n) {                                                                              \
    Y a0 = YZERO, a1 = YZERO, a2 = YZERO, a3 = YZERO, a4 = YZERO, a5 = YZERO, a6 = YZERO, a7 = YZERO;                \
    int64_t h = (n / 256) * 64, i = 0; const T *y = x + h, *z = y + h, *w = z + h;                                   \
    for (; i + 16 <= h; i += 16) {                                                                                   \
        a0 = YSTEP(a0, YLD(x + i)); a1 = YSTEP(a1, YLD(x + i + 8)); a2 = YSTEP(a2, YLD(y + i));                      \
        a3 = YSTEP(a3, YLD(y + i + 8)); a4 = YSTEP(a4, YLD(z + i)); a5 = YSTEP(a5, YLD(z + i + 8));                  \
        a6 = YSTEP(a6, YLD(w + i)); a7 = YSTEP(a7, YLD(w + i + 8)); }                                                \
    return OP##_tail(x, 4 * h, n, HY(YRED(YRED(a0, a1, a2, a3), YRED(a4, a5, a6, a7), YZERO, YZERO))); }               \
ZPF(OP, T, Z, ZLD, ZZERO, ZSTEP, ZRED, 512) ZPF(OP, T, Z, ZLD, ZZERO, ZSTEP, ZRED, 1024)                               \
ZPF(OP, T, Z, ZLD, ZZERO, ZSTEP, ZRED, 2048) ZPF(OP, T, Z, ZLD, ZZERO, ZSTEP, ZRED, 4096)                              \
YPF(OP, T, Y, YLD, YZERO, YSTEP, YRED, HY, 1024) YPF(OP, T, Y, YLD, YZERO, YSTEP, YRED, HY, 2048)

#define ZPF(OP, T, Z, ZLD, ZZERO, ZSTEP, ZRED, D)                                                                     \
T h_##OP##_z4p##D(const T *x, int64_t n) {                                                                            \
    Z a0 = ZZERO, a1 = ZZERO, a2 = ZZERO, a3 = ZZERO; int64_t i = 0; const char *c = (const char *)x;                \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        const char *p = c + 4 * i + D; PF(p); PF(p + 64); PF(p + 128); PF(p + 192);                                  \
        a0 = ZSTEP(a0, ZLD(x + i)); a1 = ZSTEP(a1, ZLD(x + i + 16));                                                 \
        a2 = ZSTEP(a2, ZLD(x + i + 32)); a3 = ZSTEP(a3, ZLD(x + i + 48)); }                                           \
    return OP##_tail(x, i, n, ZRED(a0, a1, a2, a3)); }
#define YPF(OP, T, Y, YLD, YZERO, YSTEP, YRED, HY, D)                                                                     \
T h_##OP##_y8p##D(const T *x, int64_t n) {                                                                            \
    Y a0 = YZERO, a1 = YZERO, a2 = YZERO, a3 = YZERO, a4 = YZERO, a5 = YZERO, a6 = YZERO, a7 = YZERO; int64_t i = 0; \
    const char *c = (const char *)x;                                                                                 \
    for (; i + 64 <= n; i += 64) {                                                                                   \
        const char *p = c + 4 * i + D; PF(p); PF(p + 64); PF(p + 128); PF(p + 192);                                  \
        a0 = YSTEP(a0, YLD(x + i)); a1 = YSTEP(a1, YLD(x + i + 8)); a2 = YSTEP(a2, YLD(x + i + 16));                 \
        a3 = YSTEP(a3, YLD(x + i + 24)); a4 = YSTEP(a4, YLD(x + i + 32)); a5 = YSTEP(a5, YLD(x + i + 40));           \
        a6 = YSTEP(a6, YLD(x + i + 48)); a7 = YSTEP(a7, YLD(x + i + 56)); }                                           \
    return OP##_tail(x, i, n, HY(YRED(YRED(a0, a1, a2, a3), YRED(a4, a5, a6, a7), YZERO, YZERO))); }

/* i32: wrapping lanes, reduced through a lane store */
static inline int32_t zred_i(__m512i a, __m512i b, __m512i c, __m512i d) {
    return _mm512_reduce_add_epi32(_mm512_add_epi32(_mm512_add_epi32(a, b), _mm512_add_epi32(c, d))); }
static inline __m256i yred_iv(__m256i a, __m256i b, __m256i c, __m256i d) { return _mm256_add_epi32(_mm256_add_epi32(a, b), _mm256_add_epi32(c, d)); }
static inline float zred_f(__m512 a, __m512 b, __m512 c, __m512 d) { return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a, b), _mm512_add_ps(c, d))); }
static inline __m256 yred_fv(__m256 a, __m256 b, __m256 c, __m256 d) { return _mm256_add_ps(_mm256_add_ps(a, b), _mm256_add_ps(c, d)); }
#define ZLDI(p) _mm512_loadu_si512((const void *)(p))
#define YLDI(p) _mm256_loadu_si256((const __m256i *)(p))
#define ZLDF(p) _mm512_loadu_ps(p)
#define YLDF(p) _mm256_loadu_ps(p)
#define QLDI(p) _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(p))), \
    _mm_loadu_si128((const __m128i *)((p) + 4)), 1), _mm_loadu_si128((const __m128i *)((p) + 8)), 2), _mm_loadu_si128((const __m128i *)((p) + 12)), 3)
#define QLDF(p) _mm512_insertf32x4(_mm512_insertf32x4(_mm512_insertf32x4(_mm512_castps128_ps512(_mm_loadu_ps(p)), \
    _mm_loadu_ps((p) + 4), 1), _mm_loadu_ps((p) + 8), 2), _mm_loadu_ps((p) + 12), 3)
/* the y reductions return a vector; the outer YRED of the 8-accumulator form too, then hsum'd by the tail helper */
static inline int32_t hy_i(__m256i v) { __m128i q = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    q = _mm_add_epi32(q, _mm_unpackhi_epi64(q, q)); q = _mm_add_epi32(q, _mm_shuffle_epi32(q, 1)); return _mm_cvtsi128_si32(q); }
static inline float hy_f(__m256 v) { __m128 q = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q)); q = _mm_add_ss(q, _mm_movehdup_ps(q)); return _mm_cvtss_f32(q); }

#define SQ_I(a, v) _mm512_add_epi32(a, _mm512_mullo_epi32(v, v))
#define SQ_IY(a, v) _mm256_add_epi32(a, _mm256_mullo_epi32(v, v))
#define GT_I(a, v) _mm512_add_epi32(a, _mm512_max_epi32(v, _mm512_setzero_si512()))
#define GT_IY(a, v) _mm256_add_epi32(a, _mm256_max_epi32(v, _mm256_setzero_si256()))
#define SU_I(a, v) _mm512_add_epi32(a, v)
#define SU_IY(a, v) _mm256_add_epi32(a, v)
#define SQ_F(a, v) _mm512_fmadd_ps(v, v, a)
#define SQ_FY(a, v) _mm256_fmadd_ps(v, v, a)
#define SU_F(a, v) _mm512_add_ps(a, v)
#define SU_FY(a, v) _mm256_add_ps(a, v)
#define GT_F(a, v) _mm512_add_ps(a, _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GT_OQ), v))
#define GT_FY(a, v) _mm256_add_ps(a, _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ), v))
#define S_SQ_I(s, e) (int32_t)((uint32_t)(s) + (uint32_t)(e) * (uint32_t)(e))
#define S_GT_I(s, e) ((e) > 0 ? (int32_t)((uint32_t)(s) + (uint32_t)(e)) : (s))
#define S_SU_I(s, e) (int32_t)((uint32_t)(s) + (uint32_t)(e))
#define S_SQ_F(s, e) ((s) + (e) * (e))
#define S_SU_F(s, e) ((s) + (e))
#define S_GT_F(s, e) ((e) > 0 ? (s) + (e) : (s))

DEFS(sumsq_i32, int32_t, __m512i, ZLDI, QLDI, _mm512_setzero_si512(), SQ_I, zred_i, __m256i, YLDI, _mm256_setzero_si256(), SQ_IY, yred_iv, hy_i, S_SQ_I)
DEFS(filter_gt0_sum_i32, int32_t, __m512i, ZLDI, QLDI, _mm512_setzero_si512(), GT_I, zred_i, __m256i, YLDI, _mm256_setzero_si256(), GT_IY, yred_iv, hy_i, S_GT_I)
DEFS(sum_i32, int32_t, __m512i, ZLDI, QLDI, _mm512_setzero_si512(), SU_I, zred_i, __m256i, YLDI, _mm256_setzero_si256(), SU_IY, yred_iv, hy_i, S_SU_I)
DEFS(sumsq_f32, float, __m512, ZLDF, QLDF, _mm512_setzero_ps(), SQ_F, zred_f, __m256, YLDF, _mm256_setzero_ps(), SQ_FY, yred_fv, hy_f, S_SQ_F)
DEFS(sum_f32, float, __m512, ZLDF, QLDF, _mm512_setzero_ps(), SU_F, zred_f, __m256, YLDF, _mm256_setzero_ps(), SU_FY, yred_fv, hy_f, S_SU_F)
DEFS(filter_gt0_sum_f32, float, __m512, ZLDF, QLDF, _mm512_setzero_ps(), GT_F, zred_f, __m256, YLDF, _mm256_setzero_ps(), GT_FY, yred_fv, hy_f, S_GT_F)
