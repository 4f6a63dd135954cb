/* filter->map (out = a*x[x>0], 16 Mi f32, half selected) on 1 and 2 threads: loopopt's kernel and
   driver against hand-written OpenMP strategies, in one process, the variants in a fresh random
   order every round (docs/threads.md, "Zen 4 (session 20)"). Timing probe, not part of the build
   or the tests.

     python -c 'from loopopt.tools.bench.threads import SOURCE; print(SOURCE)' > fs.mlir   # its @filter_scale
     loop-opt fs.mlir -p 'loop-pipeline{target=avx512 cpu=zen4 parallel=-1}' -t c -o fs_par.c
     gcc -O3 -march=native -fopenmp -o threads_filter_hand threads_filter_hand.c -lm && ./threads_filter_hand 201
     ./threads_filter_hand 201 "loopopt 1T,pf piece,ceiling"   # only variants whose names contain a word

   Session 22 added the traffic ceilings, the unit costs and the prefetch-piece sweep of the
   super-blocks ("Zen 4 (session 22)" in docs/threads.md); session 23 the per-piece copy's
   ablations (sfence, plain partial lines, lo_par_drain) and up to 4 generated drivers side by
   side (rows "gen <name>", built by threads_filter_gen.sh).

   Prints best / first quartile / median ms per variant and the min / median CPU time of the
   process per call (all threads: the work, nearly independent of the load; OMP_WAIT_POLICY=passive). Every filter variant is checked against a
   scalar reference once. The hand map's 2-thread / 1-thread ratio in the same run tells whether
   the VM's second vCPU adds bandwidth at the time (docs/threads.md: bimodal). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <sched.h>
#include <math.h>

int loopopt_num_threads = 1;
int loopopt_parallel_calls = 0;
#include "fs_par.c" /* loopopt's kernel: filter_scale (driver) and its static filter_scale__chunk */

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* CPU time of all the process's threads: the work a variant does, nearly independent of the load
   (run with OMP_WAIT_POLICY=passive, else idle OpenMP threads spin between calls and count) */
static double cpu_now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

static int64_t count_pos(const float *restrict x, int64_t n)
{
    int64_t c = 0, i = 0;
    const __m512 z = _mm512_setzero_ps();
    for (; i + 64 <= n; i += 64)
        c += __builtin_popcount(_mm512_cmp_ps_mask(_mm512_loadu_ps(x + i), z, _CMP_GT_OQ))
           + __builtin_popcount(_mm512_cmp_ps_mask(_mm512_loadu_ps(x + i + 16), z, _CMP_GT_OQ))
           + __builtin_popcount(_mm512_cmp_ps_mask(_mm512_loadu_ps(x + i + 32), z, _CMP_GT_OQ))
           + __builtin_popcount(_mm512_cmp_ps_mask(_mm512_loadu_ps(x + i + 48), z, _CMP_GT_OQ));
    for (; i < n; i++) c += x[i] > 0;
    return c;
}

/* in place, like the serial kernel; masked: stores only the selected lanes (no write past the count) */
static int64_t compact_plain(const float *restrict x, int64_t n, float a, float *restrict out, int masked)
{
    int64_t k = 0, i = 0;
    const __m512 z = _mm512_setzero_ps(), va = _mm512_set1_ps(a);
    for (; i + 16 <= n; i += 16) {
        __m512 e = _mm512_loadu_ps(x + i);
        __mmask16 m = _mm512_cmp_ps_mask(e, z, _CMP_GT_OQ);
        __m512 v = _mm512_mul_ps(va, e);
        int p = __builtin_popcount(m);
        if (masked) _mm512_mask_storeu_ps(out + k, (__mmask16)((1u << p) - 1u), _mm512_maskz_compress_ps(m, v));
        else _mm512_storeu_ps(out + k, _mm512_maskz_compress_ps(m, v));
        k += p;
    }
    for (; i < n; i++) if (x[i] > 0) out[k++] = a * x[i];
    return k;
}

/* compaction into a small staging buffer (L1/L2), whole output lines written non-temporally;
   the partial lines at both ends with plain stores (neighbouring ranges share them) */
typedef struct { float *d; int aligned; } Sink;
static void flush(Sink *s, float *stage, int64_t *k, int last)
{
    int64_t j = 0;
    if (!s->aligned) {
        int64_t h = (int64_t)(((0u - (uintptr_t)s->d) & 63u) / 4u);
        if (h > *k) h = *k;
        memcpy(s->d, stage, 4 * h);
        s->d += h; j = h;
        s->aligned = ((uintptr_t)s->d & 63u) == 0;
        if (!s->aligned) { *k = 0; return; } /* everything written (only when *k < h) */
    }
    int64_t lines = (*k - j) / 16;
    for (int64_t l = 0; l < lines; l++)
        _mm512_stream_ps(s->d + 16 * l, _mm512_loadu_ps(stage + j + 16 * l));
    s->d += 16 * lines; j += 16 * lines;
    int64_t r = *k - j;
    if (last) { memcpy(s->d, stage + j, 4 * r); s->d += r; *k = 0; return; }
    _mm512_storeu_ps(stage, _mm512_loadu_ps(stage + j)); /* r < 16 */
    *k = r;
}
typedef struct { Sink s; float *stage; int64_t k, stg, total; } CState;
static void cs_begin(CState *c, float *out, float *stage, int64_t stg) { c->s.d = out; c->s.aligned = ((uintptr_t)out & 63u) == 0; c->stage = stage; c->k = 0; c->stg = stg; c->total = 0; }
/* n: a multiple of 16; pf: prefetch the line at the same place of another range (NULL: none) */
static inline void cs_feed(CState *c, const float *restrict x, int64_t n, float a, const float *pf)
{
    const __m512 z = _mm512_setzero_ps(), va = _mm512_set1_ps(a);
    int64_t k = c->k, total = c->total;
    float *stage = c->stage;
    for (int64_t i = 0; i < n; i += 16) {
        if (pf) _mm_prefetch((const char *)(pf + i), _MM_HINT_T1);
        __m512 e = _mm512_loadu_ps(x + i);
        __mmask16 m = _mm512_cmp_ps_mask(e, z, _CMP_GT_OQ);
        _mm512_storeu_ps(stage + k, _mm512_maskz_compress_ps(m, _mm512_mul_ps(va, e)));
        int p = __builtin_popcount(m);
        k += p; total += p;
        if (k >= c->stg) flush(&c->s, stage, &k, 0);
    }
    c->k = k; c->total = total;
}
static int64_t cs_end(CState *c) { flush(&c->s, c->stage, &c->k, 1); _mm_sfence(); return c->total; }
static int64_t compact_stream(const float *restrict x, int64_t n, float a, float *restrict out, float *stage, int64_t stg)
{
    CState c;
    cs_begin(&c, out, stage, stg);
    int64_t whole = n / 16 * 16;
    cs_feed(&c, x, whole, a, NULL);
    for (int64_t i = whole; i < n; i++) if (x[i] > 0) { c.stage[c.k++] = a * x[i]; c.total++; }
    return cs_end(&c);
}

static void map_nt(const float *restrict x, float *restrict y, int64_t n)
{
    const __m512 two = _mm512_set1_ps(2.0f), one = _mm512_set1_ps(1.0f);
    for (int64_t i = 0; i < n; i += 16)
        _mm512_stream_ps(y + i, _mm512_fmadd_ps(two, _mm512_loadu_ps(x + i), one));
    _mm_sfence();
}

#define N (1 << 24)
#define CS 32768
static float *X, *OUT, *Y;
static float A = 2.0f;
static int64_t CNT[N / CS + 1];
static int64_t OFF[N / CS + 2];
static float *STAGE[2];

/* Up to 4 more generated drivers, each compiled on its own with its filter_scale renamed
   fs_gen<i> and GEN_NAME<i> defined (tools/bench/threads_filter_gen.sh): rows "gen <name>". */
#define GEN_ROW(i) extern int64_t fs_gen##i(const float *, int64_t, float, float *, int64_t); \
    static int64_t v_gen##i(void) { loopopt_num_threads = 2; return fs_gen##i(X, N, A, OUT, N); }
#ifdef GEN_NAME0
GEN_ROW(0)
#endif
#ifdef GEN_NAME1
GEN_ROW(1)
#endif
#ifdef GEN_NAME2
GEN_ROW(2)
#endif
#ifdef GEN_NAME3
GEN_ROW(3)
#endif
static int64_t v_lo1(void) { loopopt_num_threads = 1; return filter_scale(X, N, A, OUT, N); }
static int64_t v_lo2(void) { loopopt_num_threads = 2; return filter_scale(X, N, A, OUT, N); }
static int64_t v_s_nt(void) { return compact_stream(X, N, A, OUT, STAGE[0], 1024); }
static int64_t v_map1(void) { map_nt(X, Y, N); return 0; }
static int64_t v_map2(void)
{
#pragma omp parallel num_threads(2)
    { int t = omp_get_thread_num(); map_nt(X + t * (N / 2), Y + t * (N / 2), N / 2); }
    return 0;
}
/* count pass over each half, then each half compacted at its offset */
static int64_t halves(int nt)
{
    int64_t c0 = 0, cq[2];
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        cq[t] = count_pos(X + t * (N / 4), N / 4); /* the first half's count, split */
#pragma omp barrier
        c0 = cq[0] + cq[1];
        if (t == 0) (nt ? compact_stream(X, N / 2, A, OUT, STAGE[0], 1024) : compact_plain(X, N / 2, A, OUT, 1));
        else CNT[0] = (nt ? compact_stream(X + N / 2, N / 2, A, OUT + c0, STAGE[1], 1024) : compact_plain(X + N / 2, N / 2, A, OUT + c0, 1));
    }
    return c0 + CNT[0];
}
static int64_t v_half_plain(void) { return halves(0); }
static int64_t v_half_nt(void) { return halves(1); }
/* chunks claimed in order: count (brings the chunk into the L2), wait for the place, publish the next, compact */
static int64_t chain(int nt)
{
    const int64_t nch = N / CS;
    int64_t next = 0;
    OFF[0] = 0;
    for (int64_t c = 1; c <= nch; c++) OFF[c] = -1;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        for (;;) {
            int64_t c = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
            if (c >= nch) break;
            const float *x = X + c * CS;
            int64_t cnt = count_pos(x, CS), at;
            while ((at = __atomic_load_n(&OFF[c], __ATOMIC_ACQUIRE)) < 0) _mm_pause();
            __atomic_store_n(&OFF[c + 1], at + cnt, __ATOMIC_RELEASE);
            if (nt) compact_stream(x, CS, A, OUT + at, STAGE[t], 1024);
            else compact_plain(x, CS, A, OUT + at, 1);
        }
    }
    return OFF[nch];
}
static int64_t v_chain_nt(void) { return chain(1); }

/* super-blocks of SB elements: each thread compacts its half of block b (counted in the previous
   phase) at its place while prefetching its half of block b+1, then counts that from the caches;
   one barrier per block (the places of block b need both counts) */
static int64_t SB = 1 << 20;
#define PIECE 4096
static int64_t SCNT[2][N / 1024 + 1];
/* staged 0: loopopt's own (fast, unrolled) compaction kernel, piecewise, prefetching the next
   block's piece first, into the output (capacity = the exact count left: no spill into the
   neighbour's range); 1: the same into a 64 KiB stage flushed with non-temporal whole lines;
   2: the hand staged compaction (4 KiB stage) */
static int64_t super_lo(int staged)
{
    const int64_t nsb = N / SB, half = SB / 2;
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num();
        int64_t base = 0;
        SCNT[t][0] = count_pos(X + t * half, half);
        for (int64_t b = 0; b < nsb; b++) {
#pragma omp barrier
            const float *cur = X + b * SB + t * half;
            const int last = b + 1 >= nsb;
            float *at = OUT + base + (t ? SCNT[0][b] : 0);
            int64_t left = SCNT[t][b];
            if (staged == 2) { /* the hand staged compaction, prefetching the whole next half */
                CState c;
                cs_begin(&c, at, STAGE[t], 1024);
                cs_feed(&c, cur, half, A, last ? NULL : cur + SB);
                cs_end(&c);
            } else {
                Sink sk = {at, ((uintptr_t)at & 63u) == 0};
                int64_t k = 0;
                for (int64_t j = 0; j < half; j += PIECE) {
                    if (!last)
                        for (int64_t l = 0; l < PIECE; l += 16) _mm_prefetch((const char *)(cur + SB + j + l), _MM_HINT_T1);
                    if (staged) {
                        k += filter_scale__chunk(cur + j, PIECE, A, STAGE[t] + k, PIECE);
                        if (k >= 8192) flush(&sk, STAGE[t], &k, 0);
                    } else {
                        int64_t c = filter_scale__chunk(cur + j, PIECE, A, at, left);
                        at += c; left -= c;
                    }
                }
                if (staged) { flush(&sk, STAGE[t], &k, 1); _mm_sfence(); }
            }
            if (!last) SCNT[t][b + 1] = count_pos(cur + SB, half);
            base += SCNT[0][b] + SCNT[1][b];
        }
    }
    int64_t total = 0;
    for (int64_t b = 0; b < N / SB; b++) total += SCNT[0][b] + SCNT[1][b];
    return total;
}
/* the same in place, with a published count per half block instead of the barrier: a thread
   waits only for the counts its place needs (thread 0 for thread 1's count of the previous
   block, thread 1 for thread 0's of this one), so the two may drift apart by a block */
static int64_t FCNT[2][N / 1024 + 1];
static int64_t fwait(const int64_t *at)
{
    int64_t v;
    for (int spins = 0; (v = __atomic_load_n(at, __ATOMIC_ACQUIRE)) < 0; spins++)
        if (spins > 2000) sched_yield(); else _mm_pause();
    return v;
}
static int64_t super_flags(void)
{
    const int64_t nsb = N / SB, half = SB / 2;
    for (int64_t b = 0; b < nsb; b++) FCNT[0][b] = FCNT[1][b] = -1;
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num();
        int64_t base = 0; /* the count of blocks before b */
        __atomic_store_n(&FCNT[t][0], count_pos(X + t * half, half), __ATOMIC_RELEASE);
        for (int64_t b = 0; b < nsb; b++) {
            const float *cur = X + b * SB + t * half;
            const int last = b + 1 >= nsb;
            const int64_t mine = fwait(&FCNT[t][b]);
            float *at = OUT + base + (t ? fwait(&FCNT[0][b]) : 0);
            int64_t left = mine;
            for (int64_t j = 0; j < half; j += PIECE) {
                if (!last)
                    for (int64_t l = 0; l < PIECE; l += 16) _mm_prefetch((const char *)(cur + SB + j + l), _MM_HINT_T1);
                int64_t c = filter_scale__chunk(cur + j, PIECE, A, at, left);
                at += c; left -= c;
            }
            if (!last) __atomic_store_n(&FCNT[t][b + 1], count_pos(cur + SB, half), __ATOMIC_RELEASE);
            base += fwait(&FCNT[0][b]) + fwait(&FCNT[1][b]);
        }
    }
    int64_t total = 0;
    for (int64_t b = 0; b < N / SB; b++) total += FCNT[0][b] + FCNT[1][b];
    return total;
}
static int64_t v_super_flags(void) { return super_flags(); }

/* session 22: the same published-count super-blocks, generalized. nt: compact with loopopt's kernel
   piecewise into a small per-thread stage (L1) and write whole output lines non-temporally (no
   read for ownership; the partial lines at a half block's two ends plainly); pf: prefetch the
   next block's half during this one's compaction and count it from the caches (else count the
   block's half at its start, from memory, and compact it back from the L2: sb must then keep a
   half in the L2) */
#define NT_PIECE 2048
/* lo_par_copy without its sfence (session 23's ablation) */
static void copy_nofence(void *dst, const void *src, size_t bytes)
{
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)((0u - (uintptr_t)d) & 63u);
    if (bytes < head + 64) { memcpy(d, s, bytes); return; }
    memcpy(d, s, head);
    d += head, s += head, bytes -= head;
    size_t lines = bytes & ~(size_t)63;
    for (size_t i = 0; i < lines; i += 16)
        _mm_stream_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
    memcpy(d + lines, s + lines, bytes - lines);
}
static int GCOPY = 0; /* super_gen: stage each piece and copy it with the driver's lo_par_copy */
static int64_t GPIECE = NT_PIECE; /* super_gen's piece (elements): the prefetches for one piece are issued together */
static int64_t super_gen(int nt, int pf, int64_t sb)
{
    const int64_t nsb = N / sb, half = sb / 2;
    for (int64_t b = 0; b < nsb; b++) FCNT[0][b] = FCNT[1][b] = -1;
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num();
        int64_t base = 0;
        if (pf) __atomic_store_n(&FCNT[t][0], count_pos(X + t * half, half), __ATOMIC_RELEASE);
        for (int64_t b = 0; b < nsb; b++) {
            const float *cur = X + b * sb + t * half;
            const int more = pf && b + 1 < nsb;
            if (!pf) __atomic_store_n(&FCNT[t][b], count_pos(cur, half), __ATOMIC_RELEASE);
            const int64_t mine = fwait(&FCNT[t][b]);
            float *at = OUT + base + (t ? fwait(&FCNT[0][b]) : 0);
            int64_t left = mine, k = 0;
            Sink sk = {at, ((uintptr_t)at & 63u) == 0};
            const int64_t pc = GPIECE;
            for (int64_t j = 0; j < half; j += pc) {
                if (more)
                    for (int64_t l = 0; l < pc; l += 16) _mm_prefetch((const char *)(cur + sb + j + l), _MM_HINT_T1);
                if (nt && GCOPY == 1) { /* the generated driver's old way: each piece copied by lo_par_copy */
                    int64_t c = filter_scale__chunk(cur + j, pc, A, STAGE[t], pc);
                    lo_par_copy(at, STAGE[t], sizeof(float) * (size_t)c, 1);
                    at += c;
                } else if (nt && GCOPY == 2) { /* the same without lo_par_copy's sfence: plain partial lines only */
                    int64_t c = filter_scale__chunk(cur + j, pc, A, STAGE[t], pc);
                    copy_nofence(at, STAGE[t], sizeof(float) * (size_t)c);
                    at += c;
                } else if (nt && GCOPY == 3) { /* the carry flush with an sfence after every piece: the sfence only */
                    k += filter_scale__chunk(cur + j, pc, A, STAGE[t] + k, 2 * NT_PIECE);
                    flush(&sk, STAGE[t], &k, j + pc >= half);
                    _mm_sfence();
                } else if (nt && GCOPY == 4) { /* the generated driver's way since session 23: lo_par_drain's carry */
                    k += filter_scale__chunk(cur + j, pc, A, STAGE[t] + k, pc);
                    size_t w = lo_par_drain(at, STAGE[t], sizeof(float) * (size_t)k, j + pc >= half);
                    at += w / sizeof(float);
                    k -= (int64_t)(w / sizeof(float));
                } else if (nt) {
                    k += filter_scale__chunk(cur + j, pc, A, STAGE[t] + k, 2 * NT_PIECE);
                    flush(&sk, STAGE[t], &k, j + pc >= half);
                } else {
                    int64_t c = filter_scale__chunk(cur + j, pc, A, at, left);
                    at += c; left -= c;
                }
            }
            if (more) __atomic_store_n(&FCNT[t][b + 1], count_pos(cur + sb, half), __ATOMIC_RELEASE);
            base += fwait(&FCNT[0][b]) + fwait(&FCNT[1][b]);
        }
        _mm_sfence();
    }
    int64_t total = 0;
    for (int64_t b = 0; b < nsb; b++) total += FCNT[0][b] + FCNT[1][b];
    return total;
}
/* count-ahead, fused: thread t owns half t of every block; while it compacts its half of block b
   (from the L2: read from memory when it was counted) it counts, piece by piece in the same
   loop, its half of block b + ahead (reading it from memory into the L2), and publishes that
   count at the end. So every input byte comes from memory once, the count needs no pass of its
   own, and a place needs counts published `ahead` - 1 blocks earlier (slack: ahead >= 2). The
   L2 holds ahead + 1 halves. */
static int64_t super_fused(int nt, int64_t sb, int ahead)
{
    const int64_t nsb = N / sb, half = sb / 2;
    for (int64_t b = 0; b < nsb; b++) FCNT[0][b] = FCNT[1][b] = -1;
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num();
        int64_t base = 0;
        for (int64_t b = 0; b < ahead && b < nsb; b++)
            __atomic_store_n(&FCNT[t][b], count_pos(X + b * sb + t * half, half), __ATOMIC_RELEASE);
        for (int64_t b = 0; b < nsb; b++) {
            const float *cur = X + b * sb + t * half, *nxt = b + ahead < nsb ? cur + ahead * sb : NULL;
            const int64_t mine = fwait(&FCNT[t][b]);
            float *at = OUT + base + (t ? fwait(&FCNT[0][b]) : 0);
            int64_t left = mine, k = 0, cn = 0;
            Sink sk = {at, ((uintptr_t)at & 63u) == 0};
            for (int64_t j = 0; j < half; j += NT_PIECE) {
                if (nxt) cn += count_pos(nxt + j, NT_PIECE);
                if (nt) {
                    k += filter_scale__chunk(cur + j, NT_PIECE, A, STAGE[t] + k, 2 * NT_PIECE);
                    flush(&sk, STAGE[t], &k, j + NT_PIECE >= half);
                } else {
                    int64_t c = filter_scale__chunk(cur + j, NT_PIECE, A, at, left);
                    at += c; left -= c;
                }
            }
            if (nxt) __atomic_store_n(&FCNT[t][b + ahead], cn, __ATOMIC_RELEASE);
            base += fwait(&FCNT[0][b]) + fwait(&FCNT[1][b]);
        }
        _mm_sfence();
    }
    int64_t total = 0;
    for (int64_t b = 0; b < nsb; b++) total += FCNT[0][b] + FCNT[1][b];
    return total;
}
static int64_t v_fu_nt_256_1(void) { return super_fused(1, 1 << 18, 1); }
static int64_t v_fu_nt_128_2(void) { return super_fused(1, 1 << 17, 2); }
static int64_t v_fu_in_128_2(void) { return super_fused(0, 1 << 17, 2); }
static int64_t v_fu_nt_64_2(void) { return super_fused(1, 1 << 16, 2); }
static int64_t v_fu_nt_64_3(void) { return super_fused(1, 1 << 16, 3); }
static int64_t v_fu_nt_512_1(void) { return super_fused(1, 1 << 19, 1); }
static int64_t piece_run(int nt, int64_t sb, int64_t pc);
/* super-blocks, the next block's half prefetched `dist` pieces ahead of its count, which runs
   piece by piece inside the compaction loop (from the L1/L2: no count pass over the L3) */
static int64_t super_pff(int nt, int64_t sb, int64_t pc, int64_t dist)
{
    const int64_t nsb = N / sb, half = sb / 2;
    for (int64_t b = 0; b < nsb; b++) FCNT[0][b] = FCNT[1][b] = -1;
#pragma omp parallel num_threads(2)
    {
        const int t = omp_get_thread_num();
        int64_t base = 0;
        __atomic_store_n(&FCNT[t][0], count_pos(X + t * half, half), __ATOMIC_RELEASE);
        for (int64_t b = 0; b < nsb; b++) {
            const float *cur = X + b * sb + t * half, *nxt = b + 1 < nsb ? cur + sb : NULL;
            const int64_t mine = fwait(&FCNT[t][b]);
            float *at = OUT + base + (t ? fwait(&FCNT[0][b]) : 0);
            int64_t left = mine, k = 0, cn = 0;
            Sink sk = {at, ((uintptr_t)at & 63u) == 0};
            if (nxt)
                for (int64_t l = 0; l < dist * pc && l < half; l += 16) _mm_prefetch((const char *)(nxt + l), _MM_HINT_T1);
            for (int64_t j = 0; j < half; j += pc) {
                if (nxt) {
                    if (j + dist * pc < half)
                        for (int64_t l = 0; l < pc; l += 16) _mm_prefetch((const char *)(nxt + j + dist * pc + l), _MM_HINT_T1);
                    cn += count_pos(nxt + j, pc);
                }
                if (nt) {
                    k += filter_scale__chunk(cur + j, pc, A, STAGE[t] + k, 2 * NT_PIECE);
                    flush(&sk, STAGE[t], &k, j + pc >= half);
                } else {
                    int64_t c = filter_scale__chunk(cur + j, pc, A, at, left);
                    at += c; left -= c;
                }
            }
            if (nxt) __atomic_store_n(&FCNT[t][b + 1], cn, __ATOMIC_RELEASE);
            base += fwait(&FCNT[0][b]) + fwait(&FCNT[1][b]);
        }
        _mm_sfence();
    }
    int64_t total = 0;
    for (int64_t b = 0; b < nsb; b++) total += FCNT[0][b] + FCNT[1][b];
    return total;
}
static int64_t v_pff_nt_1m_512_8(void) { return super_pff(1, 1 << 20, 512, 8); }
static int64_t v_pff_nt_1m_512_32(void) { return super_pff(1, 1 << 20, 512, 32); }
static int64_t v_pff_in_1m_512_8(void) { return super_pff(0, 1 << 20, 512, 8); }
static int64_t v_pff_nt_256_512_8(void) { return super_pff(1, 1 << 18, 512, 8); }
static int64_t v_pff_nt_1m_256_16(void) { return super_pff(1, 1 << 20, 256, 16); }
static int64_t v_sg_nt_pf512_p512(void) { return piece_run(1, 1 << 19, 512); }
static int64_t v_sg_nt_pf2m_p512(void) { return piece_run(1, 1 << 21, 512); }
/* one thread: loopopt's kernel piecewise into the stage, whole lines non-temporal */
static int64_t compact_lo_nt(const float *x, int64_t n, float a, float *out, float *stage)
{
    Sink sk = {out, ((uintptr_t)out & 63u) == 0};
    int64_t k = 0;
    for (int64_t j = 0; j < n; j += NT_PIECE) {
        int64_t len = n - j < NT_PIECE ? n - j : NT_PIECE;
        k += filter_scale__chunk(x + j, len, a, stage + k, 2 * NT_PIECE);
        flush(&sk, stage, &k, j + NT_PIECE >= n);
    }
    _mm_sfence();
    return sk.d - out;
}
static int64_t v_lo_nt1(void) { return compact_lo_nt(X, N, A, OUT, STAGE[0]); }
static int64_t v_sg_nt_pf1m(void) { return super_gen(1, 1, 1 << 20); }
static int64_t v_sg_nt_pf512(void) { return super_gen(1, 1, 1 << 19); }
static int64_t v_sg_in_pf1m(void) { return super_gen(0, 1, 1 << 20); }
static int64_t v_sg_nt_l2_256(void) { return super_gen(1, 0, 1 << 18); }
static int64_t v_sg_nt_l2_128(void) { return super_gen(1, 0, 1 << 17); }
static int64_t v_sg_in_l2_256(void) { return super_gen(0, 0, 1 << 18); }
static int64_t piece_run(int nt, int64_t sb, int64_t pc) { GPIECE = pc; int64_t c = super_gen(nt, 1, sb); GPIECE = NT_PIECE; return c; }
static int64_t v_sg_nt_pf1m_p256(void) { return piece_run(1, 1 << 20, 256); }
static int64_t v_sg_in_pf1m_p256(void) { return piece_run(0, 1 << 20, 256); }
static int64_t v_sg_nt_pf1m_p512(void) { return piece_run(1, 1 << 20, 512); }
static int64_t v_sg_in_pf512_p256(void) { return piece_run(0, 1 << 19, 256); }
static int64_t copy_run(int64_t pc) { GCOPY = 1; int64_t c = piece_run(1, 1 << 20, pc); GCOPY = 0; return c; }
static int64_t copy_mode(int mode, int64_t pc) { GCOPY = mode; int64_t c = piece_run(1, 1 << 20, pc); GCOPY = 0; return c; }
static int64_t v_sg_nofence_p512(void) { return copy_mode(2, 512); }
static int64_t v_sg_fence_p512(void) { return copy_mode(3, 512); }
static int64_t v_sg_drain_p512(void) { return copy_mode(4, 512); }
static int64_t v_sg_copy_p512(void) { return copy_run(512); }
static int64_t v_sg_copy_p4096(void) { return copy_run(4096); }
static int64_t v_count_l3(void)
{
    int64_t c = 0;
    for (int r = 0; r < 32; r++) c += count_pos(X, N / 32);
    return c;
}
static int64_t v_sg_nt_pf256(void) { return super_gen(1, 1, 1 << 18); }
static int64_t v_sg_nt_pf128(void) { return super_gen(1, 1, 1 << 17); }
static int64_t v_sg_nt_pf64(void) { return super_gen(1, 1, 1 << 16); }
/* the traffic ceilings: a fixed "half selected" (even lanes of two vectors) at half the rate,
   the output stored plainly (read for ownership: 128 B per 16 inputs) or non-temporally (96 B) */
static int64_t pseudo_half(const float *restrict x, int64_t n, float *restrict out, int nt)
{
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512 va = _mm512_set1_ps(A);
    for (int64_t i = 0; i < n; i += 32) {
        __m512 v = _mm512_mul_ps(va, _mm512_permutex2var_ps(_mm512_loadu_ps(x + i), even, _mm512_loadu_ps(x + i + 16)));
        if (nt) _mm512_stream_ps(out + i / 2, v); else _mm512_store_ps(out + i / 2, v);
    }
    _mm_sfence();
    return n / 2;
}
static int64_t v_ceil_plain1(void) { return pseudo_half(X, N, OUT, 0); }
static int64_t v_ceil_nt1(void) { return pseudo_half(X, N, OUT, 1); }
static int64_t ceil2(int nt)
{
#pragma omp parallel num_threads(2)
    { int t = omp_get_thread_num(); pseudo_half(X + t * (N / 2), N / 2, OUT + t * (N / 4), nt); }
    return N / 2;
}
static int64_t v_ceil_plain2(void) { return ceil2(0); }
static int64_t v_ceil_nt2(void) { return ceil2(1); }
static int64_t v_lo_nt_l3(void)
{
    int64_t c = 0;
    for (int r = 0; r < 32; r++) c = compact_lo_nt(X, N / 32, A, OUT, STAGE[0]);
    return c;
}
/* the non-temporal store rate alone: 32 MiB (the filter's output) from a register */
static void nt_fill(float *out, int64_t n)
{
    const __m512 v = _mm512_set1_ps(1.0f);
    for (int64_t i = 0; i < n; i += 16) _mm512_stream_ps(out + i, v);
    _mm_sfence();
}
/* no places: each thread compacts its half to its own output quarter (wrong output, the same
   traffic): what a driver's count and waits cost above this */
static int64_t free_halves(int nt, int l3)
{
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        const int64_t h = l3 ? N / 64 : N / 2;
        for (int r = 0; r < (l3 ? 32 : 1); r++) {
            if (nt) compact_lo_nt(X + t * h, h, A, OUT + t * (N / 4), STAGE[t]);
            else filter_scale__chunk(X + t * h, h, A, OUT + t * (N / 4), h);
        }
    }
    return 0;
}
static int64_t v_free_nt(void) { return free_halves(1, 0); }
static int64_t v_free_in(void) { return free_halves(0, 0); }
static int64_t v_free_nt_l3(void) { return free_halves(1, 1); }
static int64_t v_free_in_l3(void) { return free_halves(0, 1); }
static int64_t v_ntw1(void) { nt_fill(OUT, N / 2); return 0; }
static int64_t v_ntw2(void)
{
#pragma omp parallel num_threads(2)
    { int t = omp_get_thread_num(); nt_fill(OUT + t * (N / 4), N / 4); }
    return 0;
}
static int64_t v_super_lo_in(void) { return super_lo(0); }
static int64_t v_super_lo_st(void) { return super_lo(1); }
static int64_t v_super_lo_in2m(void) { SB = 1 << 21; int64_t c = super_lo(0); SB = 1 << 20; return c; }
static int64_t v_super_lo_in512(void) { SB = 1 << 19; int64_t c = super_lo(0); SB = 1 << 20; return c; }
static int64_t v_super_pf(void) { SB = 1 << 20; return super_lo(2); }
static int64_t v_super_pf512(void) { SB = 1 << 19; int64_t c = super_lo(2); SB = 1 << 20; return c; }
static int64_t v_lo_l3(void)
{
    int64_t c = 0;
    loopopt_num_threads = 1;
    for (int r = 0; r < 32; r++) c = filter_scale(X, N / 32, A, OUT, N / 32);
    return c;
}
static int64_t v_count1(void) { return count_pos(X, N); }
static int64_t v_count2(void)
{
    int64_t c[2];
#pragma omp parallel num_threads(2)
    { int t = omp_get_thread_num(); c[t] = count_pos(X + t * (N / 2), N / 2); }
    return c[0] + c[1];
}
/* the compaction's compute rate: 16 passes over a 2 MiB piece (in the L2/L3), same work as 16 Mi */
static int64_t v_l3compact1(void)
{
    int64_t c = 0;
    for (int r = 0; r < 32; r++) c = compact_stream(X, N / 32, A, OUT, STAGE[0], 1024);
    return c;
}

typedef struct { const char *name; int64_t (*f)(void); int filter; } Var;
static Var VARS[] = {
#ifdef GEN_NAME0
    {GEN_NAME0, v_gen0, 1},
#endif
#ifdef GEN_NAME1
    {GEN_NAME1, v_gen1, 1},
#endif
#ifdef GEN_NAME2
    {GEN_NAME2, v_gen2, 1},
#endif
#ifdef GEN_NAME3
    {GEN_NAME3, v_gen3, 1},
#endif
    {"loopopt 1T (serial kernel)", v_lo1, 1},
    {"loopopt 2T (scratch+NT copy)", v_lo2, 1},
    {"hand 1T stage4K+NT", v_s_nt, 1},
    {"hand map NT 1T", v_map1, 0},
    {"hand map NT 2T", v_map2, 0},
    {"2T count halves, in place", v_half_plain, 1},
    {"2T count halves, stage+NT", v_half_nt, 1},
    {"2T chunk count-first chain, stage+NT", v_chain_nt, 1},
    {"2T super 1Mi prefetch next", v_super_pf, 1},
    {"2T super 1Mi loopopt kernel in place", v_super_lo_in, 1},
    {"2T super 1Mi loopopt kernel in place, counts published", v_super_flags, 1},
    {"2T super 1Mi loopopt kernel stage64K+NT", v_super_lo_st, 1},
    {"2T super 2Mi loopopt kernel in place", v_super_lo_in2m, 1},
    {"2T super 512Ki loopopt kernel in place", v_super_lo_in512, 1},
    {"2T super 512Ki prefetch next", v_super_pf512, 1},
    {"1T loopopt kernel, stage 8K + NT", v_lo_nt1, 1},
    {"2T super 1Mi pf, loopopt kernel stage+NT", v_sg_nt_pf1m, 1},
    {"2T super 512Ki pf, loopopt kernel stage+NT", v_sg_nt_pf512, 1},
    {"2T super 1Mi pf, in place (gen)", v_sg_in_pf1m, 1},
    {"2T fused count-ahead 256Ki blocks ahead 1, stage+NT", v_fu_nt_256_1, 1},
    {"2T fused count-ahead 128Ki blocks ahead 2, stage+NT", v_fu_nt_128_2, 1},
    {"2T fused count-ahead 128Ki blocks ahead 2, in place", v_fu_in_128_2, 1},
    {"2T fused count-ahead 64Ki blocks ahead 2, stage+NT", v_fu_nt_64_2, 1},
    {"2T fused count-ahead 64Ki blocks ahead 3, stage+NT", v_fu_nt_64_3, 1},
    {"2T fused count-ahead 512Ki blocks ahead 1, stage+NT", v_fu_nt_512_1, 1},
    {"2T super 256Ki pf, loopopt kernel stage+NT", v_sg_nt_pf256, 1},
    {"2T super 1Mi pf piece 256, stage+NT", v_sg_nt_pf1m_p256, 1},
    {"2T super 1Mi pf piece 512, stage+NT", v_sg_nt_pf1m_p512, 1},
    {"2T super 1Mi pf piece 512, lo_par_copy per piece", v_sg_copy_p512, 1},
    {"2T super 1Mi pf piece 4096, lo_par_copy per piece", v_sg_copy_p4096, 1},
    {"2T super 1Mi pf piece 512, lo_par_copy no sfence", v_sg_nofence_p512, 1},
    {"2T super 1Mi pf piece 512, carry + sfence per piece", v_sg_fence_p512, 1},
    {"2T super 1Mi pf piece 512, lo_par_drain", v_sg_drain_p512, 1},
    {"2T super 1Mi pf piece 256, in place", v_sg_in_pf1m_p256, 1},
    {"2T super 512Ki pf piece 256, in place", v_sg_in_pf512_p256, 1},
    {"1T count from L3 (x32 of 2MiB)", v_count_l3, 0},
    {"2T pff 1Mi piece 512 dist 8, stage+NT", v_pff_nt_1m_512_8, 1},
    {"2T pff 1Mi piece 512 dist 32, stage+NT", v_pff_nt_1m_512_32, 1},
    {"2T pff 1Mi piece 512 dist 8, in place", v_pff_in_1m_512_8, 1},
    {"2T pff 256Ki piece 512 dist 8, stage+NT", v_pff_nt_256_512_8, 1},
    {"2T pff 1Mi piece 256 dist 16, stage+NT", v_pff_nt_1m_256_16, 1},
    {"2T super 512Ki pf piece 512, stage+NT", v_sg_nt_pf512_p512, 1},
    {"2T super 2Mi pf piece 512, stage+NT", v_sg_nt_pf2m_p512, 1},
    {"2T super 128Ki pf, loopopt kernel stage+NT", v_sg_nt_pf128, 1},
    {"2T super 64Ki pf, loopopt kernel stage+NT", v_sg_nt_pf64, 1},
    {"2T L2 parts 128Ki/thread count-then-compact stage+NT", v_sg_nt_l2_256, 1},
    {"2T L2 parts 64Ki/thread count-then-compact stage+NT", v_sg_nt_l2_128, 1},
    {"2T L2 parts 128Ki/thread count-then-compact in place", v_sg_in_l2_256, 1},
    {"ceiling 1T half, plain stores (128 B/16)", v_ceil_plain1, 0},
    {"ceiling 1T half, NT stores (96 B/16)", v_ceil_nt1, 0},
    {"ceiling 2T half, plain stores (128 B/16)", v_ceil_plain2, 0},
    {"ceiling 2T half, NT stores (96 B/16)", v_ceil_nt2, 0},
    {"1T count only (read rate)", v_count1, 0},
    {"2T count only (read rate)", v_count2, 0},
    {"1T compact stage+NT from L3 (x32 of 2MiB)", v_l3compact1, 0},
    {"1T loopopt serial from L3 (x32 of 2MiB)", v_lo_l3, 0},
    {"1T loopopt stage+NT from L3 (x32 of 2MiB)", v_lo_nt_l3, 0},
    {"1T NT write only 32 MiB", v_ntw1, 0},
    {"2T free halves (no places) stage+NT", v_free_nt, 0},
    {"2T free halves (no places) in place", v_free_in, 0},
    {"2T free halves (no places) stage+NT from L3 (x32 of 1MiB each)", v_free_nt_l3, 0},
    {"2T free halves (no places) in place from L3 (x32 of 1MiB each)", v_free_in_l3, 0},
    {"2T NT write only 32 MiB", v_ntw2, 0},
};
#define NV (int)(sizeof VARS / sizeof VARS[0])

static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 31;
    size_t bytes = (size_t)N * 4;
    /* HAND_OFFSET=16: the input 16 bytes past a page, where numpy's large arrays start (glibc's
       mmap chunk header): every 64-byte vector load then spans two lines */
    const char *off_s = getenv("HAND_OFFSET");
    size_t off = off_s ? (size_t)atoi(off_s) % 4096 / 4 * 4 : 0, room = bytes + 4096;
    X = aligned_alloc(2 << 20, room); OUT = aligned_alloc(2 << 20, room + 64); Y = aligned_alloc(2 << 20, room);
    madvise(X, room, MADV_HUGEPAGE); madvise(OUT, room, MADV_HUGEPAGE); madvise(Y, room, MADV_HUGEPAGE);
    X += off / 4;
    STAGE[0] = aligned_alloc(64, 64 * 1024); STAGE[1] = aligned_alloc(64, 64 * 1024);
    uint64_t s = 1;
    int64_t want = 0;
    for (int64_t i = 0; i < N; i++) { s = s * 6364136223846793005ull + 1442695040888963407ull; X[i] = (float)((int64_t)(s >> 33) - (1ll << 30)) / (float)(1 << 30); want += X[i] > 0; }
    memset(OUT, 0, bytes); memset(Y, 0, bytes);
    float *ref = malloc(bytes);
    int64_t k = 0;
    for (int64_t i = 0; i < N; i++) if (X[i] > 0) ref[k++] = A * X[i];
    /* check every filter variant once (also warms pools and pages) */
    for (int v = 0; v < NV; v++) {
        memset(OUT, 0, bytes);
        int64_t c = VARS[v].f();
        if (VARS[v].filter && (c != want || memcmp(OUT, ref, 4 * want))) { printf("WRONG %s: %lld vs %lld\n", VARS[v].name, (long long)c, (long long)want); return 1; }
    }
    /* argv[2] (optional): only the variants whose names contain one of these comma-separated words */
    int sel[NV], ns = 0;
    for (int v = 0; v < NV; v++) {
        int keep = argc <= 2;
        for (const char *w = argc > 2 ? argv[2] : ""; !keep && *w;) {
            const char *e = strchr(w, ',');
            size_t len = e ? (size_t)(e - w) : strlen(w);
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)len, w);
            keep = len && strstr(VARS[v].name, word) != NULL;
            w += len + (e != NULL);
        }
        if (keep) sel[ns++] = v;
    }
    double *t = malloc(sizeof(double) * NV * rounds), *tc = malloc(sizeof(double) * NV * rounds);
    uint64_t rng = 12345;
    int perm[NV];
    for (int r = 0; r < rounds; r++) {
        /* a fresh random order every round: no variant stays in phase with a periodic neighbour */
        for (int j = 0; j < ns; j++) perm[j] = sel[j];
        for (int j = ns - 1; j > 0; j--) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            int q = (int)((rng >> 33) % (uint64_t)(j + 1)), tmp = perm[j];
            perm[j] = perm[q], perm[q] = tmp;
        }
        for (int j = 0; j < ns; j++) {
            int v = perm[j];
            double c0 = cpu_now(), t0 = now(); VARS[v].f(); t[v * rounds + r] = now() - t0; tc[v * rounds + r] = cpu_now() - c0;
        }
    }
    double l[3];
    getloadavg(l, 3);
    printf("%d rounds, load after %.2f %.2f %.2f\n", rounds, l[0], l[1], l[2]);
    for (int s2 = 0; s2 < ns; s2++) {
        int v = sel[s2];
        double *tv = t + v * rounds;
        double *cv = tc + v * rounds;
        qsort(tv, rounds, sizeof(double), cmpd);
        qsort(cv, rounds, sizeof(double), cmpd);
        printf("%-52s best %.3f ms  q1 %.3f  median %.3f  cpu min %.3f median %.3f\n", VARS[v].name, 1e3 * tv[0], 1e3 * tv[rounds / 4],
               1e3 * tv[rounds / 2], 1e3 * cv[0], 1e3 * cv[rounds / 2]);
    }
    return 0;
}
