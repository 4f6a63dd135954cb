"""i8 and i16 lanes on SSE2, AVX2, AVX-512 (BW) and NEON: full registers of narrow integers.

A loop whose data is all i8 (or all i16) runs at the register's byte (16-bit) lane count:
32 i8 lanes on AVX2, 64 on AVX-512, 16 on SSE2/NEON (loop_to_simd/width.py). Its rows are
built here from one line per ISA (a `c_isa.ROW_HOOKS` module, like the division rows):

    op            SSE2                     AVX2                 AVX-512 BW             NEON
    add/sub/neg   add_epi8/16              add_epi8/16          add_epi8/16            vaddq_s8/16
    mul i16       mullo_epi16              mullo_epi16          mullo_epi16            vmulq_s16
    mul i8        two mullo_epi16 (even/odd bytes), recombined                         vmulq_s8
    min/max       i16 native, i8 biased    native               native                 vminq/vmaxq
    minu/maxu     i8 native, i16 biased    native               native                 vminq_u8/16
    cmp signed    cmpeq/cmpgt (+ xor ~0)   cmpeq/cmpgt          cmp_epi8_mask          vceqq/vcgtq/...
    cmp unsigned  xor 0x80.. then signed   (the same)           cmp_epu8_mask          vcgtq_u8/16 ...
    select        and/andnot/or            blendv_epi8          mask_blend_epi8/16     vbslq
    shift by k    i16 slli/srli/srai; i8: the 16-bit shift masked to bytes              lane by lane
    shift by v    lane by lane             i16: 32-bit sllv x2  i16: sllv_epi16        lane by lane
    masked mem    lane by lane (c_mask)    lane by lane         mask_loadu_epi8/16     lane by lane
    i16 div/rem   through f32 (divps: exact for 16-bit operands)                          lane by lane

Wrapping is the instructions' own (add/sub/mullo keep the low bits). A mask of N narrow lanes
is all-ones lanes of that width (SSE2/AVX2 `__m128i`/`__m256i`, NEON `uint8x16_t` /
`uint16x8_t`) or an `__mmask32`/`__mmask64` (AVX-512); since every lane count of an ISA
belongs to one element width, the mask key `i1x32` names its layout. What no ISA has (i8
division and remainder, i16 ones on NEON, popcount, |x| on SSE2, per-lane shifts of bytes, and
of words on SSE2 and NEON) goes lane by lane through the scalar table's own row
(`lo_lane_<op>_<T>xN`), so its semantics are the scalar code's exactly. Horizontal reductions are the generic halving trees (c_hreduce).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, c_type
from loopopt.targets.c_isa import IsaTable, mask_key
from loopopt.targets.isa_x86 import AVX2_X86, AVX512_X86, SSE2_X86, X86, lane_int_cmp_rows, memory_rows

NARROW = ("i8", "i16")
_BITS = {"sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}
_X86: dict[str, X86] = {x.name: x for x in (SSE2_X86, AVX2_X86, AVX512_X86)}
LANE_BY_LANE = ("div", "rem", "divu", "remu", "floordiv", "ceildiv", "ceildivu", "ctpop",
                "div_const", "rem_const", "divu_const", "remu_const", "shl", "shr", "shru")  # fmt: skip
"""Operation keys with no narrow instruction on any ISA: lane by lane, the scalar row per lane."""

_HREDUCE = ("add", "mul", "min", "max", "umin", "umax", "and", "or")


def _lanes(isa: str, e: str) -> int:
    return _BITS[isa] // int(e[1:])


def _lane_rows(isa: str, e: str, keys: tuple[str, ...]) -> dict[tuple[str, str], str]:
    n = _lanes(isa, e)
    return {(k, e): f"{{dst}} = lo_lane_{k}_{e}x{n}({{a}}{'' if k == 'ctpop' else ', {b}'});" for k in keys}


def _mask_cmp_rows(m: str, not_: str, and_: str, or_: str, xor: str) -> dict[tuple[str, str], str]:
    """Integer compares of masks (i1 lanes): as a signed integer true is -1 (true < false), as
    an unsigned one it is 1; spelled with the ISA's mask `not_`/`and_`/`or_`/`xor` formats."""
    na, nb = not_.format("{a}"), not_.format("{b}")
    exprs = {
        "eq": not_.format(xor.format("{a}", "{b}")), "ne": xor.format("{a}", "{b}"),
        "slt": and_.format("{a}", nb), "ugt": and_.format("{a}", nb),
        "sgt": and_.format(na, "{b}"), "ult": and_.format(na, "{b}"),
        "sge": or_.format(na, "{b}"), "ule": or_.format(na, "{b}"),
        "sle": or_.format("{a}", nb), "uge": or_.format("{a}", nb),
    }  # fmt: skip
    return {(f"cmp.{pr}", m): f"{{dst}} = {e};" for pr, e in exprs.items()}


# ---------------------------------------------------------------------------- x86


def _x86_rows(isa: str, e: str) -> dict[tuple[str, str], str]:
    bits, n = _BITS[isa], _lanes(isa, e)
    w = int(e[1:])
    p = "_mm_" if bits == 128 else f"_mm{bits}_"
    si, s, m = f"si{bits}", f"epi{w}", mask_key(n)
    t = "char" if w == 8 else "short"
    bias = f"{p}set1_{s}(({t}){'0x80' if w == 8 else '0x8000'})"
    zero = f"{p}setzero_{si}()"
    x = _X86[isa]
    memory = memory_rows(x)  # whole-register integer accesses: the i32 rows, element-agnostic
    rows = {
        **{(k, e): memory[(k, "i32")] for k in ("load", "load_aligned", "store", "store_aligned", "store_nt")},
        ("broadcast", e): f"{{dst}} = {p}set1_{s}(({t}){{a}});",
        ("add", e): f"{{dst}} = {p}add_{s}({{a}}, {{b}});",
        ("sub", e): f"{{dst}} = {p}sub_{s}({{a}}, {{b}});",
        ("neg", e): f"{{dst}} = {p}sub_{s}({zero}, {{a}});",
        ("mul", e): f"{{dst}} = {p}mullo_epi16({{a}}, {{b}});" if w == 16 else f"{{dst}} = lo_mul_i8x{n}({{a}}, {{b}});",
        **{(op, e): f"{{dst}} = {p}{op}_{si}({{a}}, {{b}});" for op in ("and", "or", "xor")},
        # a constant amount {k} (clamped to 255 by the printer): >= the width gives 0 / the sign fill
        ("shl_const", e): f"{{dst}} = {p}slli_epi16({{a}}, {{k}});" if w == 16
        else f"{{dst}} = {p}and_{si}({p}slli_epi16({{a}}, {{k}}), {p}set1_epi8((char)(({{k}}) < 8 ? 0xFFu << (({{k}}) & 7) : 0u)));",
        ("shru_const", e): f"{{dst}} = {p}srli_epi16({{a}}, {{k}});" if w == 16
        else f"{{dst}} = {p}and_{si}({p}srli_epi16({{a}}, {{k}}), {p}set1_epi8((char)(({{k}}) < 8 ? 0xFFu >> (({{k}}) & 7) : 0u)));",
        # i8 arithmetic shift: the logical one, sign-extended from bit 7 - k ((x ^ s) - s, s = 0x80 >> k)
        ("shr_const", e): f"{{dst}} = {p}srai_epi16({{a}}, {{k}});" if w == 16
        else (f"{{dst}} = {p}sub_epi8({p}xor_{si}({p}and_{si}({p}srli_epi16({{a}}, ({{k}}) < 7 ? ({{k}}) : 7), "
              f"{p}set1_epi8((char)(0xFFu >> (({{k}}) < 7 ? ({{k}}) : 7)))), {p}set1_epi8((char)(0x80u >> (({{k}}) < 7 ? ({{k}}) : 7)))), "
              f"{p}set1_epi8((char)(0x80u >> (({{k}}) < 7 ? ({{k}}) : 7))));"),
        **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});" for k in _HREDUCE},
        **_lane_rows(isa, e, LANE_BY_LANE),
    }  # fmt: skip
    # min/max: SSE2 has signed 16-bit and unsigned 8-bit ones; the others through the bias
    # (x ^ 0x80.. maps unsigned order onto signed order and back)
    native_min = {("min", 16), ("minu", 8)} if isa == "sse2" else {("min", 16), ("minu", 8), ("min", 8), ("minu", 16)}
    for op, fn in (("min", "min"), ("max", "max"), ("minu", "min"), ("maxu", "max")):
        signed = op in ("min", "max")
        native = (("min" if signed else "minu"), w) in native_min
        suffix = f"ep{'i' if signed else 'u'}{w}"
        if native:
            rows[(op, e)] = f"{{dst}} = {p}{fn}_{suffix}({{a}}, {{b}});"
        else:
            other = f"ep{'u' if signed else 'i'}{w}"
            rows[(op, e)] = f"{{dst}} = {p}xor_{si}({p}{fn}_{other}({p}xor_{si}({{a}}, {bias}), {p}xor_{si}({{b}}, {bias})), {bias});"
    if w == 16:  # division by a variable (or a constant) through f32: exact (_f32_division_i16)
        for op in ("div", "rem", "divu", "remu"):
            rows[(op, e)] = rows[(f"{op}_const", e)] = f"{{dst}} = lo_{op}_f32_i16x{n}({{a}}, {{b}});"
    if isa == "avx512":
        mt = f"__mmask{n}"
        cmps = {"eq": "EQ", "ne": "NE", "slt": "LT", "sle": "LE", "sgt": "NLE", "sge": "NLT"}
        rows.update({(f"cmp.{pr}", e): f"{{dst}} = _mm512_cmp_{s}_mask({{a}}, {{b}}, _MM_CMPINT_{c});" for pr, c in cmps.items()})
        ucmps = {"ult": "LT", "ule": "LE", "ugt": "NLE", "uge": "NLT"}
        rows.update({(f"cmp.{pr}", e): f"{{dst}} = _mm512_cmp_epu{w}_mask({{a}}, {{b}}, _MM_CMPINT_{c});" for pr, c in ucmps.items()})
        rows.update({
            ("select", e): f"{{dst}} = _mm512_mask_blend_{s}({{mask}}, {{b}}, {{a}});",
            ("select_zero", e): f"{{dst}} = _mm512_maskz_mov_{s}({{mask}}, {{a}});",
            ("masked_load", e): f"{{dst}} = _mm512_mask_loadu_{s}({{passthru}}, {{mask}}, &{{buf}}[{{idx}}]);",
            ("masked_store", e): f"_mm512_mask_storeu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}});",
            ("abs", e): f"{{dst}} = _mm512_abs_{s}({{a}});",
            # BW's per-lane 16-bit shifts read the amount as unsigned: >= 16 gives 0 / the sign fill
            **({(op, e): f"{{dst}} = _mm512_{fn}_epi16({{a}}, {{b}});" for op, fn in (("shl", "sllv"), ("shr", "srav"), ("shru", "srlv"))}
               if w == 16 else {}),
            ("prefix_mask", m): f"{{dst}} = ({mt})({{a}} <= 0 ? 0ull : {{a}} >= {n} ? ~0ull : (1ull << {{a}}) - 1ull);",
            **{(op, m): f"{{dst}} = ({mt})({{a}} {c} {{b}});" for op, c in (("and", "&"), ("or", "|"), ("xor", "^"))},
            ("not", m): f"{{dst}} = ({mt})~{{a}};",
            ("select", m): f"{{dst}} = ({mt})(({{mask}} & {{a}}) | (~{{mask}} & {{b}}));",
            ("broadcast", m): f"{{dst}} = ({mt})({{a}} ? ~0ull : 0ull);",
            ("popcount", m): f"{{dst}} = (int64_t)__builtin_popcountll((unsigned long long){{a}});",
            **_mask_cmp_rows(m, f"({mt})~({{}})", f"({mt})(({{}}) & ({{}}))", f"({mt})(({{}}) | ({{}}))", f"({mt})(({{}}) ^ ({{}}))"),
        })  # fmt: skip
        return rows
    ones = x.ones
    rows.update({
        # signed: cmpeq/cmpgt (+ xor with all ones); unsigned: the sign bits flipped first (isa_x86)
        **lane_int_cmp_rows(x, e, f"{p}cmpeq_{s}", f"{p}cmpgt_{s}"),
        ("select_zero", e): f"{{dst}} = {p}and_{si}({{mask}}, {{a}});",
        ("masked_load", e): f"{{dst}} = lo_masked_load_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});",
        ("masked_store", e): f"lo_masked_store_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});",
        **{(op, m): f"{{dst}} = {p}{op}_{si}({{a}}, {{b}});" for op in ("and", "or", "xor")},
        ("not", m): f"{{dst}} = {p}xor_{si}({{a}}, {ones});",
        **_mask_cmp_rows(m, f"{p}xor_{si}({{}}, {ones})", f"{p}and_{si}({{}}, {{}})", f"{p}or_{si}({{}}, {{}})",
                         f"{p}xor_{si}({{}}, {{}})"),
        ("broadcast", m): f"{{dst}} = {p}set1_{s}(({t})-({t})({{a}}));",
        # lane k < clamp(a, 0, n): the iota compared with the count (both fit the signed lanes)
        ("prefix_mask", m): f"{{dst}} = {p}cmpgt_{s}({p}set1_{s}(({t})({{a}} < 0 ? 0 : {{a}} > {n} ? {n} : {{a}})), lo_iota_{e}x{n}());",
        # movemask has one bit per byte: a 16-bit lane sets two
        ("popcount", m): f"{{dst}} = (int64_t)__builtin_popcount((unsigned){p}movemask_epi8({{a}})){' / 2' if w == 16 else ''};",
    })  # fmt: skip
    blend = f"{p}blendv_epi8({{b}}, {{a}}, {{mask}})" if isa == "avx2" else f"{p}or_{si}({p}and_{si}({{mask}}, {{a}}), {p}andnot_{si}({{mask}}, {{b}}))"
    rows[("select", e)] = rows[("select", m)] = f"{{dst}} = {blend};"
    rows[("abs", e)] = f"{{dst}} = {p}abs_{s}({{a}});" if isa == "avx2" else f"{{dst}} = lo_lane_abs_{e}x{n}({{a}});"
    if isa == "avx2" and w == 16:  # per-lane 16-bit shifts through the 32-bit ones (lo_shl_i16x16, ...)
        rows.update({(op, e): f"{{dst}} = lo_{op}_i16x16({{a}}, {{b}});" for op in ("shl", "shr", "shru")})
    return rows


def _x86_widen_rows(isa: str) -> dict[tuple[str, str], str]:
    """`widen_addu.<A>` / `widen_adds.<A>` of i8/i16 lanes into i32/i64 lanes (simd.widen_add).

    Unsigned group sums: bytes with `psadbw` against zero (each 64-bit lane gets the sum of its
    8 bytes; as i32 lanes the even ones hold the sums), words by adding each 32-bit lane's
    halves (then each 64-bit lane's). Signed lanes go through the unsigned ones with the sign
    bit flipped, x ^ 2^(w-1) = x + 2^(w-1), minus the bias of the lanes each accumulator lane
    received; signed words into i32 use `pmaddwd` by ones directly."""
    bits = _BITS[isa]
    p, si = ("_mm_" if bits == 128 else f"_mm{bits}_"), f"si{bits}"
    e64 = "epi64" if bits == 512 else "epi64x"
    zero = f"{p}setzero_{si}()"
    words = f"{p}add_epi32({p}and_{si}({{x}}, {p}set1_epi32(0xFFFF)), {p}srli_epi32({{x}}, 16))"
    group = {
        ("i8", "i64"): (f"{p}sad_epu8({{x}}, {zero})", f"{p}set1_{e64}(8 * 128)"),
        ("i8", "i32"): (f"{p}sad_epu8({{x}}, {zero})", f"{p}set1_{e64}(8 * 128)"),  # (sum, 0) pairs of i32 lanes
        ("i16", "i32"): (words, f"{p}set1_epi32(2 * 32768)"),
        ("i16", "i64"): (f"lo_widen_u16_i64x{bits // 64}({{x}})", f"{p}set1_{e64}(4 * 32768)"),
    }
    rows = {}
    for (e, acc), (u, bias_sum) in group.items():
        w, a = int(e[1:]), acc[1:]
        flip = f"{p}xor_{si}({{b}}, {p}set1_epi{w}({'(char)0x80' if w == 8 else '(short)0x8000'}))"
        rows[(f"widen_addu.{acc}", e)] = f"{{dst}} = {p}add_epi{a}({{a}}, {u.format(x='{b}')});"
        rows[(f"widen_adds.{acc}", e)] = f"{{dst}} = {p}add_epi{a}({{a}}, {p}sub_epi{a}({u.format(x=flip)}, {bias_sum}));"
    rows[("widen_adds.i32", "i16")] = f"{{dst}} = {p}add_epi32({{a}}, {p}madd_epi16({{b}}, {p}set1_epi16(1)));"
    return rows


def _neon_widen_rows() -> dict[tuple[str, str], str]:
    """NEON's pairwise widening adds (`vpaddlq`, accumulating `vpadalq`), signed or unsigned."""
    rows = {}
    for sign, key in (("u", "widen_addu"), ("s", "widen_adds")):
        for e, acc, chain in (("i8", "i32", ("8",)), ("i8", "i64", ("8", "16")), ("i16", "i32", ()), ("i16", "i64", ("16",))):
            w, a = int(e[1:]), int(acc[1:])
            x = f"vreinterpretq_{sign}{w}_s{w}({{b}})" if sign == "u" else "{b}"
            for k in chain:
                x = f"vpaddlq_{sign}{k}({x})"
            acc_v = f"vreinterpretq_{sign}{a}_s{a}({{a}})" if sign == "u" else "{a}"
            step = f"vpadalq_{sign}{a // 2}({acc_v}, {x})"
            rows[(f"{key}.{acc}", e)] = f"{{dst}} = {f'vreinterpretq_s{a}_u{a}({step})' if sign == 'u' else step};"
    return rows


_AVX2_SHIFTS_I16 = """static inline __m256i lo_shl_i16x16(__m256i a, __m256i b)
{
    /* the low and high word of each 32-bit lane shifted apart; amounts >= 16 shift all out */
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    __m256i lo = _mm256_sllv_epi32(a, _mm256_and_si256(b, low));
    __m256i hi = _mm256_sllv_epi32(_mm256_andnot_si256(low, a), _mm256_srli_epi32(b, 16));
    return _mm256_blend_epi16(lo, hi, 0xAA);
}
static inline __m256i lo_shru_i16x16(__m256i a, __m256i b)
{
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    __m256i lo = _mm256_srlv_epi32(_mm256_and_si256(a, low), _mm256_and_si256(b, low));
    __m256i hi = _mm256_srlv_epi32(_mm256_andnot_si256(low, a), _mm256_srli_epi32(b, 16));
    return _mm256_blend_epi16(lo, hi, 0xAA);
}
static inline __m256i lo_shr_i16x16(__m256i a, __m256i b)
{
    /* the low word sign-extended to 32 bits first; srav gives the sign fill for amounts >= 32 */
    const __m256i low = _mm256_set1_epi32(0xFFFF);
    __m256i lo = _mm256_srav_epi32(_mm256_srai_epi32(_mm256_slli_epi32(a, 16), 16), _mm256_and_si256(b, low));
    __m256i hi = _mm256_srav_epi32(a, _mm256_srli_epi32(b, 16));
    return _mm256_blend_epi16(lo, hi, 0xAA);
}
"""
"""AVX2's per-lane shifts of i16 lanes: two 32-bit variable shifts (`vpsllvd`) per register."""


_F32_DIV_I16 = {
    # (signed, unsigned) widening of the low / high half of `{v}` to i32 lanes, the f32 quotient
    # truncated, and the i32 quotients back to i16 keeping their low 16 bits
    "sse2": dict(
        v="__m128i", p="_mm_", n=8, half="__m128i",
        lo=("_mm_srai_epi32(_mm_unpacklo_epi16({v}, {v}), 16)", "_mm_unpacklo_epi16({v}, _mm_setzero_si128())"),
        hi=("_mm_srai_epi32(_mm_unpackhi_epi16({v}, {v}), 16)", "_mm_unpackhi_epi16({v}, _mm_setzero_si128())"),
        join="_mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(ql, 16), 16), _mm_srai_epi32(_mm_slli_epi32(qh, 16), 16))",
        keep="_mm_andnot_si128(_mm_cmpeq_epi16(b, _mm_setzero_si128()), {q})",
    ),
    "avx2": dict(
        v="__m256i", p="_mm256_", n=16, half="__m256i",
        lo=("_mm256_cvtepi16_epi32(_mm256_castsi256_si128({v}))", "_mm256_cvtepu16_epi32(_mm256_castsi256_si128({v}))"),
        hi=("_mm256_cvtepi16_epi32(_mm256_extracti128_si256({v}, 1))", "_mm256_cvtepu16_epi32(_mm256_extracti128_si256({v}, 1))"),
        join="_mm256_permute4x64_epi64(_mm256_packus_epi32(_mm256_and_si256(ql, _mm256_set1_epi32(0xFFFF)), "
             "_mm256_and_si256(qh, _mm256_set1_epi32(0xFFFF))), 0xD8)",
        keep="_mm256_andnot_si256(_mm256_cmpeq_epi16(b, _mm256_setzero_si256()), {q})",
    ),
    "avx512": dict(
        v="__m512i", p="_mm512_", n=32, half="__m512i",
        lo=("_mm512_cvtepi16_epi32(_mm512_castsi512_si256({v}))", "_mm512_cvtepu16_epi32(_mm512_castsi512_si256({v}))"),
        hi=("_mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64({v}, 1))", "_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64({v}, 1))"),
        join="_mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(ql)), _mm512_cvtepi32_epi16(qh), 1)",
        keep="_mm512_maskz_mov_epi16(_mm512_test_epi16_mask(b, b), {q})",
    ),
}  # fmt: skip
"""Per x86 ISA, the pieces of `lo_div[u]_f32_i16xN`: i16 division by a variable through f32."""


def _f32_division_i16(isa: str) -> list[Helper]:
    """i16 division by a variable through f32 (`divps`), exact: with |a|, |b| < 2^16 a quotient
    that is not an integer lies at least 1/|b| from the nearest integer, and rounding it to f32
    moves it by at most 2^-24 |a/b| < 2^-8/|b|, so truncating the rounded quotient gives the
    truncated one. b == 0 lanes give 0 (the rule); MIN / -1 = 32768 keeps its low 16 bits, MIN
    (the rule); the remainder a - q*b wraps (MIN % -1 = 0, x % 0 = 0)."""
    d = _F32_DIV_I16[isa]
    v, p, n = d["v"], d["p"], d["n"]
    out = []
    for signed, name in ((0, "div"), (1, "divu")):
        lo, hi = d["lo"][signed], d["hi"][signed]
        q = {h: f"{p}cvttps_epi32({p}div_ps({p}cvtepi32_ps({x.format(v='a')}), {p}cvtepi32_ps({x.format(v='b')})))"
             for h, x in (("ql", lo), ("qh", hi))}  # fmt: skip
        out.append(Helper(f"lo_{name}_f32_i16x{n}", (
            f"static inline {v} lo_{name}_f32_i16x{n}({v} a, {v} b)\n{{\n"
            f"    /* exact through f32 (c_narrow._f32_division_i16); b == 0 lanes give 0 */\n"
            f"    {d['half']} ql = {q['ql']};\n    {d['half']} qh = {q['qh']};\n"
            f"    return {d['keep'].format(q=d['join'])};\n}}\n")))  # fmt: skip
        rem = "rem" if name == "div" else "remu"
        out.append(Helper(f"lo_{rem}_f32_i16x{n}", (
            f"static inline {v} lo_{rem}_f32_i16x{n}({v} a, {v} b)\n{{\n"
            f"    {v} r = {p}sub_epi16(a, {p}mullo_epi16(lo_{name}_f32_i16x{n}(a, b), b));  /* wraps: MIN % -1 = 0 */\n"
            f"    return {d['keep'].format(q='r')};  /* x % 0 = 0 */\n}}\n")))
    return out


def _x86_helpers(isa: IsaTable) -> list[Helper]:
    bits = _BITS[isa.name]
    p, v = ("_mm_" if bits == 128 else f"_mm{bits}_"), f"__m{bits}i"
    si = f"si{bits}"
    out = []
    n8 = bits // 8
    # 8-bit multiply: even bytes from the 16-bit product's low byte, odd bytes from the product of
    # the high bytes shifted back up (the low 8 bits of a product depend on the low 8 bits only)
    out.append(Helper(f"lo_mul_i8x{n8}", (
        f"static inline {v} lo_mul_i8x{n8}({v} a, {v} b)\n{{\n"
        f"    {v} even = {p}and_{si}({p}mullo_epi16(a, b), {p}set1_epi16(0x00FF));\n"
        f"    {v} odd = {p}slli_epi16({p}mullo_epi16({p}srli_epi16(a, 8), {p}srli_epi16(b, 8)), 8);\n"
        f"    return {p}or_{si}(even, odd);\n}}\n")))  # fmt: skip
    n64 = bits // 64
    out.append(Helper(f"lo_widen_u16_i64x{n64}", (
        f"static inline {v} lo_widen_u16_i64x{n64}({v} x)\n{{\n"
        f"    {v} s = {p}add_epi32({p}and_{si}(x, {p}set1_epi32(0xFFFF)), {p}srli_epi32(x, 16));\n"
        f"    return {p}add_epi64({p}and_{si}(s, {p}set1_{'epi64' if bits == 512 else 'epi64x'}(0xFFFFFFFFll)), {p}srli_epi64(s, 32));\n}}\n")))  # fmt: skip
    if isa.name != "avx512":
        for e in NARROW:
            n = bits // int(e[1:])
            lanes = ", ".join(str(k) for k in reversed(range(n)))
            out.append(Helper(f"lo_iota_{e}x{n}", (
                f"static inline {v} lo_iota_{e}x{n}(void)\n{{\n    return {p}set_epi{e[1:]}({lanes});\n}}\n")))
    return out


# ---------------------------------------------------------------------------- NEON


def _neon_rows(e: str) -> dict[tuple[str, str], str]:
    w = int(e[1:])
    n = 128 // w
    s, u, m = f"s{w}", f"u{w}", mask_key(n)
    to_u, from_u = f"vreinterpretq_u{w}_s{w}", f"vreinterpretq_s{w}_u{w}"
    umax = "UINT8_MAX" if w == 8 else "UINT16_MAX"
    return {
        ("load", e): f"{{dst}} = vld1q_{s}(&{{buf}}[{{idx}}]);",
        ("load_aligned", e): f"{{dst}} = vld1q_{s}(&{{buf}}[{{idx}}]);",
        **{(k, e): f"vst1q_{s}(&{{buf}}[{{idx}}], {{value}});" for k in ("store", "store_aligned", "store_nt")},
        ("broadcast", e): f"{{dst}} = vdupq_n_{s}({{a}});",
        ("add", e): f"{{dst}} = vaddq_{s}({{a}}, {{b}});",
        ("sub", e): f"{{dst}} = vsubq_{s}({{a}}, {{b}});",
        ("mul", e): f"{{dst}} = vmulq_{s}({{a}}, {{b}});",
        # NEG and ABS saturate nothing (vqneg would): MIN stays MIN, as in the scalar code
        ("neg", e): f"{{dst}} = vnegq_{s}({{a}});",
        ("abs", e): f"{{dst}} = vabsq_{s}({{a}});",
        ("and", e): f"{{dst}} = vandq_{s}({{a}}, {{b}});",
        ("or", e): f"{{dst}} = vorrq_{s}({{a}}, {{b}});",
        ("xor", e): f"{{dst}} = veorq_{s}({{a}}, {{b}});",
        ("min", e): f"{{dst}} = vminq_{s}({{a}}, {{b}});",
        ("max", e): f"{{dst}} = vmaxq_{s}({{a}}, {{b}});",
        ("minu", e): f"{{dst}} = {from_u}(vminq_{u}({to_u}({{a}}), {to_u}({{b}})));",
        ("maxu", e): f"{{dst}} = {from_u}(vmaxq_{u}({to_u}({{a}}), {to_u}({{b}})));",
        ("cmp.eq", e): f"{{dst}} = vceqq_{s}({{a}}, {{b}});",
        ("cmp.ne", e): f"{{dst}} = vmvnq_{u}(vceqq_{s}({{a}}, {{b}}));",
        **{(f"cmp.s{pr}", e): f"{{dst}} = vc{pr}q_{s}({{a}}, {{b}});" for pr in ("lt", "le", "gt", "ge")},
        **{(f"cmp.u{pr}", e): f"{{dst}} = vc{pr}q_{u}({to_u}({{a}}), {to_u}({{b}}));" for pr in ("lt", "le", "gt", "ge")},
        ("select", e): f"{{dst}} = vbslq_{s}({{mask}}, {{a}}, {{b}});",
        ("select_zero", e): f"{{dst}} = vandq_{s}({from_u}({{mask}}), {{a}});",
        ("masked_load", e): f"{{dst}} = lo_masked_load_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});",
        ("masked_store", e): f"lo_masked_store_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});",
        **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});" for k in _HREDUCE},
        # unsigned across-lane min/max (vmaxvq_u8 ...), read back as the signless lane type
        **{(f"hreduce.u{k}", e): f"{{dst}} = (int{w}_t)v{k}vq_{u}({to_u}({{a}}));" for k in ("min", "max")},
        **_lane_rows("neon", e, LANE_BY_LANE),  # shifts by a constant too: the `shl` rows (no `_const` ones)
        ("and", m): f"{{dst}} = vandq_{u}({{a}}, {{b}});",
        ("or", m): f"{{dst}} = vorrq_{u}({{a}}, {{b}});",
        ("xor", m): f"{{dst}} = veorq_{u}({{a}}, {{b}});",
        ("not", m): f"{{dst}} = vmvnq_{u}({{a}});",
        **_mask_cmp_rows(m, f"vmvnq_{u}({{}})", f"vandq_{u}({{}}, {{}})", f"vorrq_{u}({{}}, {{}})", f"veorq_{u}({{}}, {{}})"),
        ("select", m): f"{{dst}} = vbslq_{u}({{mask}}, {{a}}, {{b}});",
        ("broadcast", m): f"{{dst}} = vdupq_n_{u}(({{a}}) ? {umax} : 0u);",
        ("prefix_mask", m): f"{{dst}} = vcltq_{u}(lo_iota_{e}x{n}(), vdupq_n_{u}(({{a}}) < 0 ? 0 : ({{a}}) > {n} ? {n} : ({{a}})));",
        ("popcount", m): f"{{dst}} = (int64_t)vaddlvq_{u}(vshrq_n_{u}({{a}}, {w - 1}));",
    }  # fmt: skip


def _neon_helpers() -> list[Helper]:
    out = []
    for e in NARROW:
        w = int(e[1:])
        n = 128 // w
        lanes = ", ".join(str(k) for k in range(n))
        out.append(Helper(f"lo_iota_{e}x{n}", (
            f"static inline uint{w}x{n}_t lo_iota_{e}x{n}(void)\n{{\n"
            f"    static const uint{w}_t k[{n}] = {{{lanes}}};\n    return vld1q_u{w}(k);\n}}\n")))  # fmt: skip
    return out


# ---------------------------------------------------------------------------- every ISA


def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """The i8/i16 rows of ISA `isa_name` (none on the scalar target, whose table has them)."""
    if isa_name not in _BITS:
        return {}
    out: dict[tuple[str, str], str] = _neon_widen_rows() if isa_name == "neon" else _x86_widen_rows(isa_name)
    for e in NARROW:
        out.update(_neon_rows(e) if isa_name == "neon" else _x86_rows(isa_name, e))
    return out


def _lane_helper(io: LaneIO, key: str, e: str) -> Helper:
    """`lo_lane_<key>_<e>xN`: the scalar table's row for `key`, applied lane by lane."""
    from loopopt.targets.isa_scalar import SCALAR

    n = io.n(e)
    t, vt = c_type(e), io.vtype(e)
    unary = key in ("ctpop", "abs")
    body = SCALAR.rows[(key, e)].format(dst="r[k]", a="a[k]", b="b[k]", T=t)
    name = f"lo_lane_{key}_{e}x{n}"
    params = f"{vt} av" if unary else f"{vt} av, {vt} bv"
    spill = f"{t} a[{n}]; {io.store(e, 'a', 'av')}"
    if not unary:
        spill += f" {t} b[{n}]; {io.store(e, 'b', 'bv')}"
    code = (
        f"static inline {vt} {name}({params})\n{{\n    {spill}\n    {t} r[{n}];\n"
        f"    for (int k = 0; k < {n}; k++) {body}\n    return {io.load(e, 'r')};\n}}\n"
    )
    return Helper(name, code)


def helpers(isa: IsaTable) -> list[Helper]:
    """The lane-by-lane rows, the 8-bit multiply (x86), the lane indices of prefix masks and
    the lane-by-lane masked accesses of AVX2 (which has no byte / word maskload)."""
    if isa.name not in _BITS:
        return []
    io = LaneIO(isa)
    out = [_lane_helper(io, k, e) for e in NARROW for k in (*LANE_BY_LANE, "abs")]
    if isa.name == "neon":
        out += _neon_helpers()
    else:
        out += _x86_helpers(isa) + _f32_division_i16(isa.name)
    if isa.name == "avx2":
        from loopopt.targets.c_intvec import _split
        from loopopt.targets.c_mask import masked_helpers

        out += _split(_AVX2_SHIFTS_I16)

        for e in NARROW:
            out += masked_helpers(io, e)
    return out
