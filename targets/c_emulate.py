"""Emulations of operations an ISA lacks (SSE2 has no SSE4.1, AVX2 no 64-bit multiply, ...).

Bit tricks where a short exact one exists (SSE2 32-bit multiply from `_mm_mul_epu32`, integer
abs by sign mask, 64-bit equality from 32-bit), and lane-by-lane scalar C otherwise (64-bit
compare/multiply/convert, and the correctly rounded SSE2 fma: per-lane `fmaf`, never mul+add).
Float min/max keep numpy's NaN propagation: a NaN first operand is blended back in, since
x86 `min` returns its second operand when either is NaN.
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


def _fptosi() -> list[Helper]:
    """`lo_fptosi_<int>_<float>`: C's cast, except NaN and out-of-range give the minimum integer.

    A plain cast is undefined behaviour there; x86's cvtt* give the minimum integer, and every
    target prints float -> int through these (or the matching vector fix-up) to agree."""
    out = []
    for it, bits in (("i32", 32), ("i64", 64)):
        for ft, suffix in (("f32", "f"), ("f64", "")):
            name = f"lo_fptosi_{it}_{ft}"
            ct, cf = c_type(it), c_type(ft)
            out.append(Helper(name, (
                f"static inline {ct} {name}({cf} x)\n{{\n"
                f"    return (x >= -0x1p{bits - 1}{suffix} && x < 0x1p{bits - 1}{suffix}) ? ({ct})x : INT{bits}_MIN;\n}}\n"
            )))  # fmt: skip
    return out


_NEON_CODE: dict[str, str] = {
    "lo_cvt_f32_i32x4": """static inline int32x4_t lo_cvt_f32_i32x4(float32x4_t v)
{
    uint32x4_t ok = vandq_u32(vcgeq_f32(v, vdupq_n_f32(-0x1p31f)), vcltq_f32(v, vdupq_n_f32(0x1p31f)));
    return vbslq_s32(ok, vcvtq_s32_f32(v), vdupq_n_s32(INT32_MIN));
}
""",
    "lo_cvt_f64_i64x2": """static inline int64x2_t lo_cvt_f64_i64x2(float64x2_t v)
{
    uint64x2_t ok = vandq_u64(vcgeq_f64(v, vdupq_n_f64(-0x1p63)), vcltq_f64(v, vdupq_n_f64(0x1p63)));
    return vbslq_s64(ok, vcvtq_s64_f64(v), vdupq_n_s64(INT64_MIN));
}
""",
    "lo_iota_i32x4": "static const int32_t lo_iota_i32x4[4] = {0, 1, 2, 3};\n",
    "lo_iota_i64x2": "static const int64_t lo_iota_i64x2[2] = {0, 1};\n",
}


def helpers(isa: IsaTable) -> list[Helper]:
    out: list[Helper] = _fptosi()
    if isa.name == "scalar":
        return out
    io = LaneIO(isa)
    wrap_mul64 = "r[k] = (int64_t)((uint64_t)a[k] * (uint64_t)b[k]);"
    n64 = isa.lanes["i64"]
    if isa.name in ("sse2", "avx2", "neon"):
        out.append(lanewise_helper(io, f"lo_mullo_i64x{n64}", "i64", "i64", 2, wrap_mul64))
    if isa.name in ("sse2", "avx2"):
        nd = isa.lanes["f64"]
        out.append(lanewise_helper(io, f"lo_cvt_i64_f64x{nd}", "i64", "f64", 1, "r[k] = (double)a[k];"))
        out.append(lanewise_helper(io, f"lo_cvt_f64_i64x{nd}", "f64", "i64", 1, "r[k] = lo_fptosi_i64_f64(a[k]);"))
    if isa.name == "neon":
        out += [Helper(name, code) for name, code in _NEON_CODE.items()]
    if isa.name == "sse2":
        out += [Helper(name, code) for name, code in _SSE2_CODE.items()]
        out += _sse2_float_minmax()
        out.append(lanewise_helper(io, "lo_cmpgt_i64x2", "i64", "i64", 2, "r[k] = a[k] > b[k] ? -1 : 0;"))
        out.append(lanewise_helper(io, "lo_fma_f32x4", "f32", "f32", 3, "r[k] = fmaf(a[k], b[k], c[k]);"))
        out.append(lanewise_helper(io, "lo_fma_f64x2", "f64", "f64", 3, "r[k] = fma(a[k], b[k], c[k]);"))
    return out
