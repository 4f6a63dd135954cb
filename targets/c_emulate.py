"""Emulations of operations an ISA lacks (SSE2 has no SSE4.1, AVX2 no 64-bit multiply, ...).

Bit tricks where a short exact one exists (SSE2 32-bit multiply from `_mm_mul_epu32`, integer
abs by sign mask, 64-bit equality from 32-bit), and lane-by-lane scalar C otherwise (64-bit
compare/multiply/convert, and the correctly rounded SSE2 fma: per-lane `fmaf`, never mul+add).
Float min/max keep numpy's NaN propagation: a NaN first operand is blended back in, since
x86 `min` returns its second operand when either is NaN.

Integer helpers realize docs/integer_semantics.md where a C operator or an intrinsic is not
total: scalar division/remainder that never trap, shifts with the amount read as unsigned,
saturating float -> int (NaN -> 0) and its x86 vector fix-ups, NEON arithmetic on unsigned
lanes and NEON shifts with checked amounts, SSE2 per-lane shifts, the AVX2 i64 arithmetic
shift. None of them contains signed overflow or another undefined operation (a UBSan test
runs every row on edge values: test/python/c_printer/test_int_semantics.py).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type, lanewise_helper
from loopopt.targets.c_isa import IsaTable

_SSE2_CODE: dict[str, str] = {
    "lo_mullo_i32x4": """static inline __m128i lo_mullo_i32x4(__m128i a, __m128i b)
{
    __m128i even = _mm_mul_epu32(a, b);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}
""",
    "lo_min_i32x4": """static inline __m128i lo_min_i32x4(__m128i a, __m128i b)
{
    __m128i gt = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(gt, b), _mm_andnot_si128(gt, a));
}
""",
    "lo_max_i32x4": """static inline __m128i lo_max_i32x4(__m128i a, __m128i b)
{
    __m128i gt = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
}
""",
    "lo_min_i64x2": """static inline __m128i lo_min_i64x2(__m128i a, __m128i b)
{
    __m128i gt = lo_cmpgt_i64x2(a, b);
    return _mm_or_si128(_mm_and_si128(gt, b), _mm_andnot_si128(gt, a));
}
""",
    "lo_max_i64x2": """static inline __m128i lo_max_i64x2(__m128i a, __m128i b)
{
    __m128i gt = lo_cmpgt_i64x2(a, b);
    return _mm_or_si128(_mm_and_si128(gt, a), _mm_andnot_si128(gt, b));
}
""",
    "lo_abs_i32x4": """static inline __m128i lo_abs_i32x4(__m128i a)
{
    __m128i sign = _mm_srai_epi32(a, 31);
    return _mm_sub_epi32(_mm_xor_si128(a, sign), sign);
}
""",
    "lo_abs_i64x2": """static inline __m128i lo_abs_i64x2(__m128i a)
{
    __m128i sign = _mm_shuffle_epi32(_mm_srai_epi32(a, 31), _MM_SHUFFLE(3, 3, 1, 1));
    return _mm_sub_epi64(_mm_xor_si128(a, sign), sign);
}
""",
    "lo_cmpeq_i64x2": """static inline __m128i lo_cmpeq_i64x2(__m128i a, __m128i b)
{
    __m128i eq32 = _mm_cmpeq_epi32(a, b);
    return _mm_and_si128(eq32, _mm_shuffle_epi32(eq32, _MM_SHUFFLE(2, 3, 0, 1)));
}
""",
}


def _sse2_float_minmax() -> list[Helper]:
    out = []
    for elt, s, n in (("f32", "ps", 4), ("f64", "pd", 2)):
        t = "__m128" if s == "ps" else "__m128d"
        for op in ("min", "max"):
            for nan_from, kind in (("a", op), ("b", op + "num")):
                # minimum/maximum: NaN in a -> a (a NaN in b already comes out of min/max);
                # minnum/maxnum: NaN in b -> a (x86 would return the NaN b)
                name = f"lo_{kind}_{elt}x{n}"
                out.append(Helper(name, (
                    f"static inline {t} {name}({t} a, {t} b)\n{{\n"
                    f"    {t} nan = _mm_cmpunord_{s}({nan_from}, {nan_from});\n"
                    f"    return _mm_or_{s}(_mm_and_{s}(nan, a), _mm_andnot_{s}(nan, _mm_{op}_{s}(a, b)));\n}}\n"
                )))  # fmt: skip
    return out


def _sse2_shifts() -> list[Helper]:
    """SSE2 has no per-lane variable shift, but `_mm_sll/srl/sra_epi*` shift every lane by one
    64-bit count read as unsigned, giving 0 (or the sign fill) for counts >= the width: the
    defined semantics. So: one shift per lane's zero-extended count, then pick lane k of the
    k-th result. The i64 arithmetic shift flips negative lanes around a logical shift."""
    out = []
    for op, intr in (("shl", "sll"), ("shru", "srl"), ("shrs", "sra")):
        out.append(Helper(f"lo_{op}_i32x4", (
            f"static inline __m128i lo_{op}_i32x4(__m128i a, __m128i b)\n{{\n"
            "    const __m128i low = _mm_set_epi32(0, 0, 0, -1);\n"
            f"    __m128i r0 = _mm_{intr}_epi32(a, _mm_and_si128(b, low));\n"
            f"    __m128i r1 = _mm_{intr}_epi32(a, _mm_and_si128(_mm_srli_si128(b, 4), low));\n"
            f"    __m128i r2 = _mm_{intr}_epi32(a, _mm_and_si128(_mm_srli_si128(b, 8), low));\n"
            f"    __m128i r3 = _mm_{intr}_epi32(a, _mm_srli_si128(b, 12));\n"
            "    __m128i r01 = _mm_unpacklo_epi32(r0, r1);  /* r0[0] r1[0] r0[1] r1[1] */\n"
            "    __m128i r23 = _mm_unpackhi_epi32(r2, r3);  /* r2[2] r3[2] r2[3] r3[3] */\n"
            "    return _mm_unpacklo_epi64(_mm_shuffle_epi32(r01, _MM_SHUFFLE(3, 0, 3, 0)),\n"
            "                              _mm_shuffle_epi32(r23, _MM_SHUFFLE(3, 0, 3, 0)));\n}\n"
        )))  # fmt: skip
    pick = "_mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(r1), _mm_castsi128_pd(r0)))"  # lane 0 of r0, lane 1 of r1
    for op, intr in (("shl", "sll"), ("shru", "srl")):
        out.append(Helper(f"lo_{op}_i64x2", (
            f"static inline __m128i lo_{op}_i64x2(__m128i a, __m128i b)\n{{\n"
            f"    __m128i r0 = _mm_{intr}_epi64(a, b);\n"
            f"    __m128i r1 = _mm_{intr}_epi64(a, _mm_srli_si128(b, 8));\n"
            f"    return {pick};\n}}\n"
        )))  # fmt: skip
    out.append(Helper("lo_shrs_i64x2", (
        "static inline __m128i lo_shrs_i64x2(__m128i a, __m128i b)\n{\n"
        "    __m128i sign = _mm_shuffle_epi32(_mm_srai_epi32(a, 31), _MM_SHUFFLE(3, 3, 1, 1));\n"
        "    return _mm_xor_si128(lo_shru_i64x2(_mm_xor_si128(a, sign), b), sign);\n}\n"
    )))  # fmt: skip
    return out


def _fptosi() -> list[Helper]:
    """`lo_fptosi_<int>_<float>`: float -> int truncating toward zero, saturating, NaN -> 0.

    A plain C cast is undefined behaviour on NaN and out of range; these never cast there.
    Vector rows agree (x86's cvtt* "integer indefinite" is fixed up, see `_cvt_fixups`)."""
    out = []
    for it, bits in (("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64)):
        for ft, suffix in (("f32", "f"), ("f64", "")):
            name = f"lo_fptosi_{it}_{ft}"
            ct, cf = c_type(it), c_type(ft)
            out.append(Helper(name, (
                f"static inline {ct} {name}({cf} x)\n{{\n"
                f"    return x != x ? 0 : x >= 0x1p{bits - 1}{suffix} ? INT{bits}_MAX\n"
                f"         : x < -0x1p{bits - 1}{suffix} ? INT{bits}_MIN : ({ct})x;\n}}\n"
            )))  # fmt: skip
    return out


def _fptoui() -> list[Helper]:
    """`lo_fptoui_<int>_<float>`: float -> unsigned int truncating toward zero, saturating to
    [0, 2^w - 1], NaN -> 0; the result is the unsigned value's bits in the signed C type.

    The cast to the unsigned type only happens for x in (-1, 2^w), where C defines it."""
    out = []
    for it, bits in (("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64)):
        for ft, suffix in (("f32", "f"), ("f64", "")):
            name = f"lo_fptoui_{it}_{ft}"
            ct, cf = c_type(it), c_type(ft)
            out.append(Helper(name, (
                f"static inline {ct} {name}({cf} x)\n{{\n"
                f"    return x != x || x <= -1.0{suffix} ? 0 : x >= 0x1p{bits}{suffix} ? -1\n"
                f"         : ({ct})(uint{bits}_t)x;\n}}\n"
            )))  # fmt: skip
    return out


def _int_scalar() -> list[Helper]:
    """Scalar integer operations with the defined semantics (docs/integer_semantics.md).

    Shifts read the amount as unsigned: shl/shru by >= the width give 0, shrs gives the sign
    fill. Division and remainder by zero give 0; divsi(MIN, -1) = MIN (wraps), remsi(x, -1) = 0.
    No C operator here can overflow or trap (no SIGFPE, no UB)."""
    out = []
    for e, bits in (("i8", 8), ("i16", 16), ("i32", 32), ("i64", 64)):
        t, u = f"int{bits}_t", f"uint{bits}_t"
        neg = f"({t})(({u})0 - ({u})a)"
        bodies = {
            "shl": f"return ({u})b >= {bits}u ? 0 : ({t})(({u})a << ({u})b);",
            "shrs": f"return ({u})b >= {bits}u ? (a < 0 ? -1 : 0) : ({t})(a >> ({u})b);",
            "shru": f"return ({u})b >= {bits}u ? 0 : ({t})(({u})a >> ({u})b);",
            "div": f"return b == 0 ? 0 : b == -1 ? {neg} : a / b;",
            "rem": "return (b == 0 || b == -1) ? 0 : a % b;",
            "divu": f"return b == 0 ? 0 : ({t})(({u})a / ({u})b);",
            "remu": f"return b == 0 ? 0 : ({t})(({u})a % ({u})b);",
            "floordiv": (f"if (b == 0) return 0;\n    if (b == -1) return {neg};\n"
                         "    return a / b - ((a % b != 0) & ((a < 0) != (b < 0)));"),
            "ceildiv": (f"if (b == 0) return 0;\n    if (b == -1) return {neg};\n"
                        "    return a / b + ((a % b != 0) & ((a < 0) == (b < 0)));"),
            "ceildivu": (f"return b == 0 ? 0 : ({t})(({u})a / ({u})b + (({u})a % ({u})b != 0));"),
        }  # fmt: skip
        for op, body in bodies.items():
            name = f"lo_{op}_{e}"
            out.append(Helper(name, f"static inline {t} {name}({t} a, {t} b)\n{{\n    {body}\n}}\n"))
    return out


_NEON_CODE: dict[str, str] = {
    # FCVTZS saturates and maps NaN to 0; the selects make that explicit, so the result does
    # not depend on how the compiler models the conversion builtin out of range
    "lo_cvt_f32_i32x4": """static inline int32x4_t lo_cvt_f32_i32x4(float32x4_t v)
{
    int32x4_t c = vcvtq_s32_f32(v);
    c = vbslq_s32(vcgeq_f32(v, vdupq_n_f32(0x1p31f)), vdupq_n_s32(INT32_MAX), c);
    c = vbslq_s32(vcltq_f32(v, vdupq_n_f32(-0x1p31f)), vdupq_n_s32(INT32_MIN), c);
    return vbslq_s32(vceqq_f32(v, v), c, vdupq_n_s32(0));
}
""",
    "lo_cvt_f64_i64x2": """static inline int64x2_t lo_cvt_f64_i64x2(float64x2_t v)
{
    int64x2_t c = vcvtq_s64_f64(v);
    c = vbslq_s64(vcgeq_f64(v, vdupq_n_f64(0x1p63)), vdupq_n_s64(INT64_MAX), c);
    c = vbslq_s64(vcltq_f64(v, vdupq_n_f64(-0x1p63)), vdupq_n_s64(INT64_MIN), c);
    return vbslq_s64(vceqq_f64(v, v), c, vdupq_n_s64(0));
}
""",
    "lo_iota_i32x4": "static const int32_t lo_iota_i32x4[4] = {0, 1, 2, 3};\n",
    "lo_iota_i64x2": "static const int64_t lo_iota_i64x2[2] = {0, 1};\n",
}


def _neon_int() -> list[Helper]:
    """NEON integer arithmetic on the u-typed intrinsics: GCC's arm_neon.h spells `vaddq_s32`,
    `vmulq_s32`, `vnegq_s32` as signed C vector arithmetic, which it may assume never overflows
    (it folds `(x + 1) < x` to false). Unsigned lanes wrap; only the bits are reinterpreted.
    Shifts follow the defined semantics: `vshlq` reads the low byte of the amount as a signed
    count, so amounts are checked as unsigned first."""
    out = []
    for e, n, bits in (("i32", 4, 32), ("i64", 2, 64)):
        s, u = f"s{bits}", f"u{bits}"
        vt, ut = f"int{bits}x{n}_t", f"uint{bits}x{n}_t"
        U = f"vreinterpretq_{u}_{s}"
        S = f"vreinterpretq_{s}_{u}"
        zero = f"vdupq_n_{u}(0)"
        limit = f"vdupq_n_{u}({bits})"
        codes = {
            f"lo_neg_{e}x{n}": f"return {S}(vsubq_{u}({zero}, {U}(a)));",
            f"lo_abs_{e}x{n}": (f"{ut} sign = vcltzq_{s}(a);\n"
                                f"    return {S}(vsubq_{u}(veorq_{u}({U}(a), sign), sign));"),
            # amount < width: shift left; otherwise 0
            f"lo_shl_{e}x{n}": (f"{ut} ok = vcltq_{u}({U}(b), {limit});\n"
                                f"    return {S}(vandq_{u}(vshlq_{u}({U}(a), vbslq_{s}(ok, b, vdupq_n_{s}(0))), ok));"),
            # right shift = left shift by the negated amount (negated as unsigned: no overflow)
            f"lo_shru_{e}x{n}": (f"{ut} ok = vcltq_{u}({U}(b), {limit});\n"
                                 f"    {vt} count = {S}(vsubq_{u}({zero}, vandq_{u}({U}(b), ok)));\n"
                                 f"    return {S}(vandq_{u}(vshlq_{u}({U}(a), count), ok));"),
            # arithmetic: amounts >= width act as width - 1 (the sign fill)
            f"lo_shrs_{e}x{n}": (f"{ut} ok = vcltq_{u}({U}(b), {limit});\n"
                                 f"    {ut} amount = vbslq_{u}(ok, {U}(b), vdupq_n_{u}({bits - 1}));\n"
                                 f"    return vshlq_{s}(a, {S}(vsubq_{u}({zero}, amount)));"),
        }  # fmt: skip
        for name, body in codes.items():
            params = f"{vt} a" if name.startswith(("lo_neg", "lo_abs")) else f"{vt} a, {vt} b"
            out.append(Helper(name, f"static inline {vt} {name}({params})\n{{\n    {body}\n}}\n"))
    return out


def _x86_cvt_fixups(isa: str) -> list[Helper]:
    """f32 -> i32 on SSE2/AVX2/AVX-512 and f64 -> i64 on AVX-512: cvtt* gives the minimum integer
    ("integer indefinite") for NaN and out-of-range lanes; fix those up to saturation, NaN -> 0."""
    if isa == "avx512":
        return [Helper("lo_cvt_f32_i32x16", """static inline __m512i lo_cvt_f32_i32x16(__m512 v)
{
    __m512i c = _mm512_cvttps_epi32(v);
    c = _mm512_mask_mov_epi32(c, _mm512_cmp_ps_mask(v, _mm512_set1_ps(0x1p31f), _CMP_GE_OQ), _mm512_set1_epi32(INT32_MAX));
    return _mm512_maskz_mov_epi32(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), c);
}
"""), Helper("lo_cvt_f64_i64x8", """static inline __m512i lo_cvt_f64_i64x8(__m512d v)
{
    __m512i c = _mm512_cvttpd_epi64(v);
    c = _mm512_mask_mov_epi64(c, _mm512_cmp_pd_mask(v, _mm512_set1_pd(0x1p63), _CMP_GE_OQ), _mm512_set1_epi64(INT64_MAX));
    return _mm512_maskz_mov_epi64(_mm512_cmp_pd_mask(v, v, _CMP_ORD_Q), c);
}
""")]  # fmt: skip
    if isa == "avx2":
        ge = "_mm256_castps_si256(_mm256_cmp_ps(v, _mm256_set1_ps(0x1p31f), _CMP_GE_OQ))"
        ordered = "_mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_ORD_Q))"
        return [Helper("lo_cvt_f32_i32x8", (
            "static inline __m256i lo_cvt_f32_i32x8(__m256 v)\n{\n"
            "    /* INT32_MIN ^ all-ones = INT32_MAX on positive overflow; NaN lanes cleared */\n"
            f"    return _mm256_and_si256(_mm256_xor_si256(_mm256_cvttps_epi32(v), {ge}), {ordered});\n}}\n"
        ))]  # fmt: skip
    ge = "_mm_castps_si128(_mm_cmpge_ps(v, _mm_set1_ps(0x1p31f)))"
    ordered = "_mm_castps_si128(_mm_cmpord_ps(v, v))"
    return [Helper("lo_cvt_f32_i32x4", (
        "static inline __m128i lo_cvt_f32_i32x4(__m128 v)\n{\n"
        "    /* INT32_MIN ^ all-ones = INT32_MAX on positive overflow; NaN lanes cleared */\n"
        f"    return _mm_and_si128(_mm_xor_si128(_mm_cvttps_epi32(v), {ge}), {ordered});\n}}\n"
    ))]  # fmt: skip


_AVX2_CODE: dict[str, str] = {
    # no vpsraq before AVX-512: flip negative lanes, shift logically (>= 64 gives 0), flip back
    "lo_shrs_i64x4": """static inline __m256i lo_shrs_i64x4(__m256i a, __m256i b)
{
    __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), a);
    return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(a, sign), b), sign);
}
""",
}


def helpers(isa: IsaTable) -> list[Helper]:
    from loopopt.targets import c_intvec  # it builds on the scalar division helpers here

    out: list[Helper] = _fptosi() + _fptoui() + _int_scalar()
    if isa.name == "scalar":
        return out
    out += c_intvec.helpers(isa)
    io = LaneIO(isa)
    wrap_mul64 = "r[k] = (int64_t)((uint64_t)a[k] * (uint64_t)b[k]);"
    n64 = isa.lanes["i64"]
    if isa.name in ("sse2", "avx2", "neon"):
        out.append(lanewise_helper(io, f"lo_mullo_i64x{n64}", "i64", "i64", 2, wrap_mul64))
    if isa.name in ("sse2", "avx2"):
        nd = isa.lanes["f64"]
        out.append(lanewise_helper(io, f"lo_cvt_i64_f64x{nd}", "i64", "f64", 1, "r[k] = (double)a[k];"))
        out.append(lanewise_helper(io, f"lo_cvt_f64_i64x{nd}", "f64", "i64", 1, "r[k] = lo_fptosi_i64_f64(a[k]);"))
    if isa.name in ("sse2", "avx2", "avx512"):
        out += _x86_cvt_fixups(isa.name)
    if isa.name == "avx2":
        out += [Helper(name, code) for name, code in _AVX2_CODE.items()]
    if isa.name == "neon":
        out += [Helper(name, code) for name, code in _NEON_CODE.items()]
        out += _neon_int()
    if isa.name == "sse2":
        out += [Helper(name, code) for name, code in _SSE2_CODE.items()]
        out += _sse2_float_minmax()
        out.append(lanewise_helper(io, "lo_cmpgt_i64x2", "i64", "i64", 2, "r[k] = a[k] > b[k] ? -1 : 0;"))
        out.append(lanewise_helper(io, "lo_fma_f32x4", "f32", "f32", 3, "r[k] = fmaf(a[k], b[k], c[k]);"))
        out.append(lanewise_helper(io, "lo_fma_f64x2", "f64", "f64", 3, "r[k] = fma(a[k], b[k], c[k]);"))
        out += _sse2_shifts()
    return out
