/* The loop structure of every kernel, written once over a small vector vocabulary.
 *
 * Each ISA file (scalar.c, sse2.c, avx2.c, avx512.c, neon.c) defines, per dtype,
 * the vocabulary below and includes this file, which emits the kernels
 * lo_<pattern>_<LO_DT>_<LO_ISA>. The intrinsics are chosen by hand in the ISA
 * files; this file only fixes the loop shape, which is the same everywhere:
 *
 *   - folds keep 4 independent vector accumulators a0..a3 and unroll by 4 (hides the
 *     add/mul/min latency), then a one-vector loop, then the tail;
 *   - maps unroll by 4 vectors, then a one-vector loop, then the tail;
 *   - the tail is masked when the ISA has masks (V_LDM/V_STM defined, AVX-512),
 *     otherwise scalar with the same arithmetic contract as the vector body.
 *
 * Vocabulary (T: element type, V: vector of W lanes):
 *   V_LD(p) V_ST(p, v) V_SET1(s)            unaligned load/store, broadcast
 *   V_ADD V_MUL V_MIN V_MAX                 lane-wise (integers wrap)
 *   V_MADD(a, x, b)                         a*x + b, fused on FMA ISAs for floats
 *   V_MACC(acc, x, y)                       acc + x*y (may be fused)
 *   V_GT0_KEEP(v)                           v where v > 0, else 0
 *   V_PACK(out, v, x)                       store lanes of v where x > 0 left-packed at out
 *                                           (writes W lanes), return how many
 *   S_MADD(a, x, b)                         scalar a*x + b with the vector contract
 *   floats only: V_SQRT_ABS(v); NaN tracker NT, NT_INIT, NT_UPD(nt, v), NT_ANY(nt)
 *   optional masks: V_MASK, V_TAILMASK(r) (first r < W lanes), V_LDM(fill, m, p), V_STM(p, m, v)
 *   optional V_IN_REGISTER(v): an empty asm that keeps a fold accumulator in its register (below)
 *   optional scan (LO_SCAN defined by the ISA file): functions lo_pscan_<dt>_<isa>(v), the inclusive
 *   prefix sum inside one register, and lo_blast_<dt>_<isa>(v), the last lane broadcast
 */

/* ---- fold accumulators ----
 * Four named variables a0..a3, not an array: gcc 12 kept an array `V acc[4]` in registers inside
 * the main loop only, stored it to an aligned stack frame after the loop and ran the remainder
 * blocks through memory. They are combined pairwise, (a0 + a2) + (a1 + a3).
 *
 * LO_KEEP_ACCS() after each fold loop passes the accumulators through V_IN_REGISTER (an empty
 * asm "+x" on x86, "+w" on aarch64, "+r" for scalar integers; scalar floats need none). x86
 * integer intrinsics compute in another GNU vector type (_mm256_add_epi32 is
 * (__m256i)((__v8su)a + (__v8su)b)); gcc's value numbering sees through the conversion, the code after the loop reads the loop's __v8su value while the
 * loop carries the __m256i one, and the register allocator copies every accumulator every
 * iteration (the scalar wrapping adds' unsigned casts do the same). Nothing after the asm can see
 * into the loop (docs/build_flags.md, lo_in_register). */
#ifdef V_IN_REGISTER
#define LO_KEEP_ACCS()                                                                             \
    do {                                                                                           \
        V_IN_REGISTER(a0);                                                                         \
        V_IN_REGISTER(a1);                                                                         \
        V_IN_REGISTER(a2);                                                                         \
        V_IN_REGISTER(a3);                                                                         \
    } while (0)
#else
#define LO_KEEP_ACCS() ((void)0)
#endif
#define LO_ACC_COMBINE(VCOMB) VCOMB(VCOMB(a0, a2), VCOMB(a1, a3))

#define LO_NAME(pattern) LO_CAT6(lo_, pattern, _, LO_DT, _, LO_ISA)
#define LO_HELPER(what) LO_CAT6(lo_h_, what, _, LO_DT, _, LO_ISA)
#define S_ADD LO_CAT2(lo_s_add_, LO_DT)
#define S_MUL LO_CAT2(lo_s_mul_, LO_DT)
#define S_MIN LO_CAT2(lo_s_min_, LO_DT)
#define S_MAX LO_CAT2(lo_s_max_, LO_DT)

#if LO_FLOAT
#define LO_ISNAN(v) (isnan(v) != 0)
#else
#define LO_ISNAN(v) 0
#endif

/* ---- horizontal reductions (once per call) ----
 * An ISA may define V_HADD / V_HMUL (a shuffle tree in registers, log2(W) dependent steps);
 * otherwise the lanes are stored and combined in order. */

static inline T LO_HELPER(hadd)(V v) {
#ifdef V_HADD
    return V_HADD(v);
#else
    T t[W];
    V_ST(t, v);
    T s = t[0];
    for (int j = 1; j < W; j++) s = S_ADD(s, t[j]);
    return s;
#endif
}

static inline T LO_HELPER(hmul)(V v) {
#ifdef V_HMUL
    return V_HMUL(v);
#else
    T t[W];
    V_ST(t, v);
    T s = t[0];
    for (int j = 1; j < W; j++) s = S_MUL(s, t[j]);
    return s;
#endif
}

/* min/max lanes; *nan is set if a lane is NaN (NEON's vminq keeps NaN in the lanes). */
static inline T LO_HELPER(hmin)(V v, int *nan) {
    T t[W];
    V_ST(t, v);
    T s = t[0];
    for (int j = 0; j < W; j++) {
        *nan |= LO_ISNAN(t[j]);
        s = S_MIN(s, t[j]);
    }
    return s;
}

static inline T LO_HELPER(hmax)(V v, int *nan) {
    T t[W];
    V_ST(t, v);
    T s = t[0];
    for (int j = 0; j < W; j++) {
        *nan |= LO_ISNAN(t[j]);
        s = S_MAX(s, t[j]);
    }
    return s;
}

/* ---- folds over one input ----
 * LO_FOLD1(name, neutral, vector step, combine, horizontal, scalar step)
 * The < 4 remainder blocks after the main loop step a0, a1, a2 (one each) and the masked tail
 * steps a3 (which no remainder block reaches), so none of them waits on another; the
 * accumulators are combined once, pairwise, at the end. */
#ifdef V_LDM
#define LO_FOLD_TAIL(NEUTRAL, VSTEP)                                                               \
    if (i < n) {                                                                                   \
        V xv = V_LDM(V_SET1(NEUTRAL), V_TAILMASK(n - i), x + i);                                   \
        a3 = VSTEP(a3, xv);                                                                        \
        i = n;                                                                                     \
    }
#else
#define LO_FOLD_TAIL(NEUTRAL, VSTEP)
#endif

#define LO_FOLD1(NAME, NEUTRAL, VSTEP, VCOMB, HRED, SSTEP)                                         \
    T LO_NAME(NAME)(const T *restrict x, int64_t x_len) {                                          \
        const int64_t n = x_len;                                                                   \
        int64_t i = 0;                                                                             \
        V a0 = V_SET1(NEUTRAL), a1 = a0, a2 = a0, a3 = a0;                                         \
        for (; i + 4 * W <= n; i += 4 * W) {                                                       \
            a0 = VSTEP(a0, V_LD(x + i));                                                           \
            a1 = VSTEP(a1, V_LD(x + i + W));                                                       \
            a2 = VSTEP(a2, V_LD(x + i + 2 * W));                                                   \
            a3 = VSTEP(a3, V_LD(x + i + 3 * W));                                                   \
        }                                                                                          \
        LO_KEEP_ACCS();                                                                            \
        if (i + W <= n) a0 = VSTEP(a0, V_LD(x + i)), i += W;                                       \
        if (i + W <= n) a1 = VSTEP(a1, V_LD(x + i)), i += W;                                       \
        if (i + W <= n) a2 = VSTEP(a2, V_LD(x + i)), i += W;                                       \
        LO_FOLD_TAIL(NEUTRAL, VSTEP)                                                               \
        T s = HRED(LO_ACC_COMBINE(VCOMB));                                                         \
        for (; i < n; i++) s = SSTEP(s, x[i]);                                                     \
        return s;                                                                                  \
    }

#define LO_STEP_SUMSQ(acc, v) V_MACC(acc, v, v)
#define LO_SSTEP_SUMSQ(s, xi) S_ADD(s, S_MUL(xi, xi))
#define LO_STEP_GT0SUM(acc, v) V_ADD(acc, V_GT0_KEEP(v))
#define LO_SSTEP_GT0SUM(s, xi) ((xi) > 0 ? S_ADD(s, xi) : (s))

LO_FOLD1(sum, 0, V_ADD, V_ADD, LO_HELPER(hadd), S_ADD)
LO_FOLD1(prod, 1, V_MUL, V_MUL, LO_HELPER(hmul), S_MUL)
LO_FOLD1(sumsq, 0, LO_STEP_SUMSQ, V_ADD, LO_HELPER(hadd), LO_SSTEP_SUMSQ)
LO_FOLD1(filter_gt0_sum, 0, LO_STEP_GT0SUM, V_ADD, LO_HELPER(hadd), LO_SSTEP_GT0SUM)

/* min/max: empty input gives the neutral element; a NaN anywhere gives NaN. */
#if LO_FLOAT
#define LO_MINMAX_NT(stmt) stmt
#define LO_MIN_NEUTRAL ((T)INFINITY)
#define LO_MAX_NEUTRAL ((T)-INFINITY)
#else
#define LO_MINMAX_NT(stmt)
#define LO_MIN_NEUTRAL LO_TMAX
#define LO_MAX_NEUTRAL LO_TMIN
#endif

#define LO_MINMAX_STEP(acc, VOP, p)                                                                \
    do {                                                                                           \
        V xv = V_LD(p);                                                                            \
        LO_MINMAX_NT(NT_UPD(nt, xv);)                                                              \
        acc = VOP(acc, xv);                                                                        \
    } while (0)

#define LO_MINMAX(NAME, NEUTRAL, VOP, HRED, SOP)                                                   \
    T LO_NAME(NAME)(const T *restrict x, int64_t x_len) {                                          \
        const int64_t n = x_len;                                                                   \
        int64_t i = 0;                                                                             \
        V a0 = V_SET1(NEUTRAL), a1 = a0, a2 = a0, a3 = a0;                                         \
        LO_MINMAX_NT(NT nt = NT_INIT;)                                                             \
        for (; i + 4 * W <= n; i += 4 * W) {                                                       \
            LO_MINMAX_STEP(a0, VOP, x + i);                                                        \
            LO_MINMAX_STEP(a1, VOP, x + i + W);                                                    \
            LO_MINMAX_STEP(a2, VOP, x + i + 2 * W);                                                \
            LO_MINMAX_STEP(a3, VOP, x + i + 3 * W);                                                \
        }                                                                                          \
        LO_KEEP_ACCS();                                                                            \
        for (; i + W <= n; i += W) LO_MINMAX_STEP(a0, VOP, x + i);                                 \
        LO_KEEP_ACCS();                                                                            \
        LO_MINMAX_TAIL(NEUTRAL, VOP)                                                               \
        int nan = 0;                                                                               \
        T s = HRED(LO_ACC_COMBINE(VOP), &nan);                                                     \
        for (; i < n; i++) {                                                                       \
            nan |= LO_ISNAN(x[i]);                                                                  \
            s = SOP(s, x[i]);                                                                      \
        }                                                                                          \
        LO_MINMAX_NT(nan |= NT_ANY(nt);)                                                           \
        LO_MINMAX_NT(if (nan) return (T)NAN;)                                                      \
        (void)nan;                                                                                 \
        return s;                                                                                  \
    }

#ifdef V_LDM
#define LO_MINMAX_TAIL(NEUTRAL, VOP)                                                               \
    if (i < n) {                                                                                   \
        V xv = V_LDM(V_SET1(NEUTRAL), V_TAILMASK(n - i), x + i);                                   \
        LO_MINMAX_NT(NT_UPD(nt, xv);)                                                              \
        a1 = VOP(a1, xv);                                                                          \
        i = n;                                                                                     \
    }
#else
#define LO_MINMAX_TAIL(NEUTRAL, VOP)
#endif

LO_MINMAX(min, LO_MIN_NEUTRAL, V_MIN, LO_HELPER(hmin), S_MIN)
LO_MINMAX(max, LO_MAX_NEUTRAL, V_MAX, LO_HELPER(hmax), S_MAX)

/* ---- zip -> fold: dot ---- */

T LO_NAME(dot)(const T *restrict x, int64_t x_len, const T *restrict y, int64_t y_len) {
    const int64_t n = x_len < y_len ? x_len : y_len; /* equal by contract; never read past either */
    int64_t i = 0;
    V a0 = V_SET1(0), a1 = a0, a2 = a0, a3 = a0;
    for (; i + 4 * W <= n; i += 4 * W) {
        a0 = V_MACC(a0, V_LD(x + i), V_LD(y + i));
        a1 = V_MACC(a1, V_LD(x + i + W), V_LD(y + i + W));
        a2 = V_MACC(a2, V_LD(x + i + 2 * W), V_LD(y + i + 2 * W));
        a3 = V_MACC(a3, V_LD(x + i + 3 * W), V_LD(y + i + 3 * W));
    }
    LO_KEEP_ACCS();
    if (i + W <= n) a0 = V_MACC(a0, V_LD(x + i), V_LD(y + i)), i += W;
    if (i + W <= n) a1 = V_MACC(a1, V_LD(x + i), V_LD(y + i)), i += W;
    if (i + W <= n) a2 = V_MACC(a2, V_LD(x + i), V_LD(y + i)), i += W;
#ifdef V_LDM
    if (i < n) {
        V_MASK m = V_TAILMASK(n - i);
        a3 = V_MACC(a3, V_LDM(V_SET1(0), m, x + i), V_LDM(V_SET1(0), m, y + i));
        i = n;
    }
#endif
    T s = LO_HELPER(hadd)(LO_ACC_COMBINE(V_ADD));
    for (; i < n; i++) s = S_ADD(s, S_MUL(x[i], y[i]));
    return s;
}

/* ---- maps ----
 * LO_MAP(name, extra params, body over vectors, body over scalars); x is the input, out the output. */
#ifdef V_LDM
#define LO_MAP_TAIL(VBODY)                                                                         \
    if (i < n) {                                                                                   \
        V_MASK m = V_TAILMASK(n - i);                                                              \
        V xv = V_LDM(V_SET1(0), m, x + i);                                                         \
        V_STM(out + i, m, VBODY(xv, i, m));                                                        \
        i = n;                                                                                     \
    }
#else
#define LO_MAP_TAIL(VBODY)
#endif

#define LO_MAP_LOOPS(VBODY, SBODY)                                                                 \
    int64_t i = 0;                                                                                 \
    for (; i + 4 * W <= n; i += 4 * W) {                                                           \
        V r0 = VBODY(V_LD(x + i), i, 0), r1 = VBODY(V_LD(x + i + W), i + W, 0);                    \
        V r2 = VBODY(V_LD(x + i + 2 * W), i + 2 * W, 0), r3 = VBODY(V_LD(x + i + 3 * W), i + 3 * W, 0); \
        V_ST(out + i, r0);                                                                         \
        V_ST(out + i + W, r1);                                                                     \
        V_ST(out + i + 2 * W, r2);                                                                 \
        V_ST(out + i + 3 * W, r3);                                                                 \
    }                                                                                              \
    for (; i + W <= n; i += W) V_ST(out + i, VBODY(V_LD(x + i), i, 0));                            \
    LO_MAP_TAIL(VBODY)                                                                             \
    for (; i < n; i++) out[i] = SBODY(x[i], i);

/* Body arguments: (loaded x vector, index, tail mask or 0). */
#define LO_VB_AXPB(xv, idx, m) V_MADD(va, xv, vb)
#define LO_SB_AXPB(xi, idx) S_MADD(a, xi, b)

void LO_NAME(axpb)(const T *restrict x, int64_t x_len, T a, T b, T *restrict out, int64_t out_len) {
    const int64_t n = x_len < out_len ? x_len : out_len;
    const V va = V_SET1(a), vb = V_SET1(b);
    LO_MAP_LOOPS(LO_VB_AXPB, LO_SB_AXPB)
}

#ifdef V_LDM
#define LO_LDY(idx, m) ((m) ? V_LDM(V_SET1(0), (m), y + (idx)) : V_LD(y + (idx)))
#else
#define LO_LDY(idx, m) V_LD(y + (idx))
#endif
#define LO_VB_AXPY(xv, idx, m) V_MADD(va, xv, LO_LDY(idx, m))
#define LO_SB_AXPY(xi, idx) S_MADD(a, xi, y[idx])

void LO_NAME(axpy)(const T *restrict x, int64_t x_len, const T *restrict y, int64_t y_len, T a, T *restrict out,
                   int64_t out_len) {
    int64_t n = x_len < y_len ? x_len : y_len;
    n = n < out_len ? n : out_len;
    const V va = V_SET1(a);
    LO_MAP_LOOPS(LO_VB_AXPY, LO_SB_AXPY)
}

#if LO_FLOAT
#define LO_VB_SQRTABS(xv, idx, m) V_ADD(V_SQRT_ABS(V_MUL(va, xv)), vb)
#define LO_SB_SQRTABS(xi, idx) (LO_SQRT(LO_FABS(a * (xi))) + b)

void LO_NAME(sqrt_abs_axpb)(const T *restrict x, int64_t x_len, T a, T b, T *restrict out, int64_t out_len) {
    const int64_t n = x_len < out_len ? x_len : out_len;
    const V va = V_SET1(a), vb = V_SET1(b);
    LO_MAP_LOOPS(LO_VB_SQRTABS, LO_SB_SQRTABS)
}
#endif

/* ---- scan: inclusive prefix sum ----
 * out[i] = x[0] + ... + x[i]. With LO_SCAN each block of W is scanned in a register and the
 * previous block's last lane (broadcast) added: the blocks' scans are independent, only the
 * add of the carry chains. Floats are therefore summed in another order than the sequential
 * loop (kernels/README.md's bound, per prefix); integers wrap and are exact. The tail (and
 * every element without LO_SCAN) is the sequential loop from the carry. */
void LO_NAME(cumsum)(const T *restrict x, int64_t x_len, T *restrict out, int64_t out_len) {
    const int64_t n = x_len < out_len ? x_len : out_len;
    int64_t i = 0;
    T carry = 0;
#ifdef LO_SCAN
    V vcarry = V_SET1(0);
    for (; i + W <= n; i += W) {
        V s = V_ADD(LO_CAT6(lo_pscan_, LO_DT, _, LO_ISA, , )(V_LD(x + i)), vcarry);
        V_ST(out + i, s);
        vcarry = LO_CAT6(lo_blast_, LO_DT, _, LO_ISA, , )(s);
    }
    if (i > 0) carry = out[i - 1];
#endif
    for (; i < n; i++) {
        carry = S_ADD(carry, x[i]);
        out[i] = carry;
    }
}

/* ---- row fold: the sum of each row of a row-major x_rows × x_cols matrix ----
 * One call of this ISA's sum per row (its accumulators, tail and float contract); rows past
 * out_len are not summed. */
void LO_NAME(row_sum)(const T *restrict x, int64_t x_rows, int64_t x_cols, T *restrict out, int64_t out_len) {
    const int64_t rows = x_rows < out_len ? x_rows : out_len;
    for (int64_t r = 0; r < rows; r++) out[r] = LO_NAME(sum)(x + r * x_cols, x_cols);
}

/* ---- filter -> map with compaction ----
 * Writes at most out_len elements and returns how many elements passed (so a count above
 * out_len means the output was truncated). With out_len >= x_len (the usual case) the
 * vector loop runs to the end: a full-width left-packed store at out + k never passes
 * out + i + W <= out + x_len. */
int64_t LO_NAME(filter_gt0_scale)(const T *restrict x, int64_t x_len, T a, T *restrict out, int64_t out_len) {
    const V va = V_SET1(a);
    int64_t i = 0, k = 0;
    for (; i + 2 * W <= x_len && k + 2 * W <= out_len; i += 2 * W) {
        V x0 = V_LD(x + i), x1 = V_LD(x + i + W);
        V r0 = V_MUL(va, x0), r1 = V_MUL(va, x1);
        k += V_PACK(out + k, r0, x0);
        k += V_PACK(out + k, r1, x1);
    }
    for (; i + W <= x_len && k + W <= out_len; i += W) {
        V x0 = V_LD(x + i);
        k += V_PACK(out + k, V_MUL(va, x0), x0);
    }
#ifdef V_PACK_TAIL
    if (i < x_len && k + (x_len - i) <= out_len) {
        V_MASK m = V_TAILMASK(x_len - i);
        V x0 = V_LDM(V_SET1(0), m, x + i);
        k += V_PACK_TAIL(out + k, m, V_MUL(va, x0), x0);
        i = x_len;
    }
#endif
    for (; i < x_len; i++) {
        T xi = x[i];
        if (xi > 0) {
            if (k < out_len) out[k] = S_MUL(a, xi);
            k++;
        }
    }
    return k;
}

#undef LO_NAME
#undef LO_ISNAN
#undef LO_HELPER
#undef S_ADD
#undef S_MUL
#undef S_MIN
#undef S_MAX
#undef LO_KEEP_ACCS
#undef LO_ACC_COMBINE
#undef LO_FOLD_TAIL
#undef LO_FOLD1
#undef LO_STEP_SUMSQ
#undef LO_SSTEP_SUMSQ
#undef LO_STEP_GT0SUM
#undef LO_SSTEP_GT0SUM
#undef LO_MINMAX_NT
#undef LO_MIN_NEUTRAL
#undef LO_MAX_NEUTRAL
#undef LO_MINMAX_STEP
#undef LO_MINMAX
#undef LO_MINMAX_TAIL
#undef LO_MAP_TAIL
#undef LO_MAP_LOOPS
#undef LO_VB_AXPB
#undef LO_SB_AXPB
#undef LO_LDY
#undef LO_VB_AXPY
#undef LO_SB_AXPY
#undef LO_VB_SQRTABS
#undef LO_SB_SQRTABS
