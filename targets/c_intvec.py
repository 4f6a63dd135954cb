"""Vector integer rows no ISA table spells by itself: division and remainder, unsigned min/max, popcount.

Kept in one place for SSE2, AVX2, AVX-512 and NEON (a `c_isa.ROW_HOOKS` module, like vector
math): shifts by a constant amount use the x86 immediate forms (`_mm_slli_epi32`, ...: SSE2
has no per-lane variable shift, so this saves four shifts and the shuffles); `minu`/`maxu` use the native unsigned min/max where there is one (AVX2 and AVX-512 i32,
AVX-512 i64, NEON i32) and otherwise flip the sign bit and compare signed; `ctpop` counts bits
with the SWAR shift-and-add (Hacker's Delight 5-1) on x86 (VPOPCNTDQ is not in the AVX-512
baseline loopopt targets) and `vcntq_u8` + pairwise widening adds on NEON.

No SIMD ISA divides integers. Two ways a vector `divsi/divui/remsi/remui` (and floor/ceil
division) prints, with the semantics of docs/integer_semantics.md (by zero: 0; MIN / -1 = MIN):

* **A constant divisor** (a broadcast constant other than 0 and -1; the printer's `<key>_const`
  keys, c_print_arith) on i32 lanes: Granlund and Montgomery's multiply-high ("Division by
  invariant integers using multiplication", 1994, Figures 4.1 and 5.1; Hacker's Delight 10-1,
  10-8). Unsigned: t = mulhi(n, m); q = (t + ((n - t) >> s1)) >> s2. Signed: q0 = n + mulsh(n, m),
  q = ((q0 >> s) - (n >> 31)) negated when d < 0. The 32x32 -> 64 multiply is `_mm*_mul_epu32`
  on the even and odd lanes (SSE2, AVX2, AVX-512) and `vmull_u32` (NEON); the signed high half
  comes from the unsigned one (mulsh(n, m) = mulhu(n, m) - (n < 0 ? m : 0) - (m < 0 ? n : 0)).
  The remainder is n - q * d. `magic_unsigned` / `magic_signed` compute the constants;
  test/python/c_printer/test_intdiv.py checks them against exact division.
  i64 lanes have no 64x64 -> 128 multiply on any of the ISAs: they divide lane by lane, by a
  C constant, which the compiler turns into a scalar multiply-high.
* **A variable divisor**: i32/u32 on AVX2 and AVX-512 divide in f64 (`vdivpd`), which is exact
  (`_f64_division` has the argument) and 5x faster than the lanes; i64, floor/ceil division,
  and SSE2/NEON go lane by lane through the scalar helpers (`lo_div_i32`, ...), which never trap.
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper, LaneIO, lanewise_helper
from loopopt.targets.c_isa import IsaTable

DIVISIONS = ("div", "rem", "divu", "remu", "floordiv", "ceildiv", "ceildivu")
"""Operation keys of integer division (c_ops.BINARY): each has a lane-wise row per ISA."""

_SIMD_ISAS = ("sse2", "avx2", "avx512", "neon")
_LANES = {"sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}


def magic_unsigned(d: int, bits: int = 32) -> tuple[int, int, int]:
    """(m, s1, s2) with n / d = (t + ((n - t) >> s1)) >> s2, t = mulhi(n, m), for every
    unsigned `bits`-bit n and 1 <= d < 2^bits (Granlund-Montgomery Figure 4.1)."""
    assert 1 <= d < 1 << bits
    l = (d - 1).bit_length()  # ceil(log2 d)
    m = ((1 << bits) * ((1 << l) - d)) // d + 1
    return m & ((1 << bits) - 1), min(l, 1), max(l - 1, 0)


def magic_signed(d: int, bits: int = 32) -> tuple[int, int]:
    """(m, s) with q0 = n + mulsh(n, m), n / d = ((q0 >> s) - (n >> (bits-1))) negated for d < 0,
    truncated, for every signed n and |d| >= 2 (Granlund-Montgomery Figure 5.1); `m` is the
    unsigned pattern of the negative multiplier M - 2^bits."""
    a = abs(d)
    assert 2 <= a <= 1 << (bits - 1)
    l = max((a - 1).bit_length(), 1)
    big = (1 << (bits + l - 1)) // a + 1  # in (2^(bits-1), 2^bits)
    return (big - (1 << bits)) & ((1 << bits) - 1), l - 1


def divu_by_magic(n: int, m: int, s1: int, s2: int, bits: int = 32) -> int:
    """The unsigned quotient the C helper computes, in Python (for tests)."""
    mask = (1 << bits) - 1
    t = (n * m) >> bits
    return ((t + (((n - t) & mask) >> s1)) & mask) >> s2


def div_by_magic(n: int, m: int, s: int, negative: bool, bits: int = 32) -> int:
    """The signed quotient the C helper computes, in Python (for tests); `n` signed."""
    mask = (1 << bits) - 1
    nu = n & mask
    hi = ((nu * m) >> bits) - (m if n < 0 else 0)  # mulsh(n, m) + n: m < 0 cancels the + n
    q0 = hi & mask
    q0 = q0 - (1 << bits) if q0 >> (bits - 1) else q0
    q = (q0 >> s) - (-1 if n < 0 else 0)
    q = -q if negative else q
    q &= mask
    return q - (1 << bits) if q >> (bits - 1) else q


def _x86_magic(isa: IsaTable) -> list[Helper]:
    bits = _LANES[isa.name]
    p = "_mm_" if bits == 128 else f"_mm{bits}_"
    v, si, n = f"__m{bits}i", f"si{bits}", bits // 32
    high = f"{p}set1_epi64{'x' if bits < 512 else ''}((long long)0xFFFFFFFF00000000ull)"
    mullo = "lo_mullo_i32x4" if isa.name == "sse2" else f"{p}mullo_epi32"
    count = "_mm_cvtsi32_si128"
    return [
        # the high 32 bits of each unsigned 32x32 product: even lanes shifted down, odd lanes in place
        Helper(f"lo_mulhi_u32x{n}", (
            f"static inline {v} lo_mulhi_u32x{n}({v} a, {v} b)\n{{\n"
            f"    {v} even = {p}srli_epi64({p}mul_epu32(a, b), 32);\n"
            f"    {v} odd = {p}mul_epu32({p}srli_epi64(a, 32), {p}srli_epi64(b, 32));\n"
            f"    return {p}or_{si}(even, {p}and_{si}(odd, {high}));\n}}\n")),
        Helper(f"lo_divu_magic_i32x{n}", (
            f"static inline {v} lo_divu_magic_i32x{n}({v} x, uint32_t m, int s1, int s2)\n{{\n"
            f"    {v} t = lo_mulhi_u32x{n}(x, {p}set1_epi32((int32_t)m));\n"
            f"    {v} q = {p}add_epi32(t, {p}srl_epi32({p}sub_epi32(x, t), {count}(s1)));\n"
            f"    return {p}srl_epi32(q, {count}(s2));\n}}\n")),
        Helper(f"lo_div_magic_i32x{n}", (
            f"static inline {v} lo_div_magic_i32x{n}({v} x, uint32_t m, int s, int negative)\n{{\n"
            f"    {v} sign = {p}srai_epi32(x, 31);  /* -1 on negative lanes */\n"
            f"    {v} mv = {p}set1_epi32((int32_t)m);\n"
            f"    {v} q0 = {p}sub_epi32(lo_mulhi_u32x{n}(x, mv), {p}and_{si}(sign, mv));  /* n + mulsh(n, m) */\n"
            f"    {v} q = {p}sub_epi32({p}sra_epi32(q0, {count}(s)), sign);\n"
            f"    {v} neg = {p}set1_epi32(-negative);\n"
            f"    return {p}sub_epi32({p}xor_{si}(q, neg), neg);\n}}\n")),
        Helper(f"lo_remu_magic_i32x{n}", (
            f"static inline {v} lo_remu_magic_i32x{n}({v} x, uint32_t d, uint32_t m, int s1, int s2)\n{{\n"
            f"    return {p}sub_epi32(x, {mullo}(lo_divu_magic_i32x{n}(x, m, s1, s2), {p}set1_epi32((int32_t)d)));\n}}\n")),
        Helper(f"lo_rem_magic_i32x{n}", (
            f"static inline {v} lo_rem_magic_i32x{n}({v} x, int32_t d, uint32_t m, int s)\n{{\n"
            f"    return {p}sub_epi32(x, {mullo}(lo_div_magic_i32x{n}(x, m, s, d < 0), {p}set1_epi32(d)));\n}}\n")),
    ]  # fmt: skip


_NEON_MAGIC = """static inline uint32x4_t lo_mulhi_u32x4(uint32x4_t a, uint32x4_t b)
{
    uint64x2_t lo = vmull_u32(vget_low_u32(a), vget_low_u32(b));
    uint64x2_t hi = vmull_high_u32(a, b);
    return vuzp2q_u32(vreinterpretq_u32_u64(lo), vreinterpretq_u32_u64(hi));
}
static inline int32x4_t lo_divu_magic_i32x4(int32x4_t xs, uint32_t m, int s1, int s2)
{
    uint32x4_t x = vreinterpretq_u32_s32(xs);
    uint32x4_t t = lo_mulhi_u32x4(x, vdupq_n_u32(m));
    uint32x4_t q = vaddq_u32(t, vshlq_u32(vsubq_u32(x, t), vdupq_n_s32(-s1)));
    return vreinterpretq_s32_u32(vshlq_u32(q, vdupq_n_s32(-s2)));
}
static inline int32x4_t lo_div_magic_i32x4(int32x4_t xs, uint32_t m, int s, int negative)
{
    uint32x4_t x = vreinterpretq_u32_s32(xs);
    uint32x4_t sign = vreinterpretq_u32_s32(vshrq_n_s32(xs, 31));  /* all ones on negative lanes */
    uint32x4_t mv = vdupq_n_u32(m);
    uint32x4_t q0 = vsubq_u32(lo_mulhi_u32x4(x, mv), vandq_u32(sign, mv));  /* n + mulsh(n, m) */
    uint32x4_t q = vsubq_u32(vreinterpretq_u32_s32(vshlq_s32(vreinterpretq_s32_u32(q0), vdupq_n_s32(-s))), sign);
    uint32x4_t neg = vdupq_n_u32(0u - (uint32_t)negative);
    return vreinterpretq_s32_u32(vsubq_u32(veorq_u32(q, neg), neg));
}
static inline int32x4_t lo_remu_magic_i32x4(int32x4_t x, uint32_t d, uint32_t m, int s1, int s2)
{
    uint32x4_t q = vreinterpretq_u32_s32(lo_divu_magic_i32x4(x, m, s1, s2));
    return vreinterpretq_s32_u32(vsubq_u32(vreinterpretq_u32_s32(x), vmulq_u32(q, vdupq_n_u32(d))));
}
static inline int32x4_t lo_rem_magic_i32x4(int32x4_t x, int32_t d, uint32_t m, int s)
{
    uint32x4_t q = vreinterpretq_u32_s32(lo_div_magic_i32x4(x, m, s, d < 0));
    return vreinterpretq_s32_u32(vsubq_u32(vreinterpretq_u32_s32(x), vmulq_u32(q, vdupq_n_u32((uint32_t)d))));
}
"""


def _x86_minmax_popcount(isa: IsaTable) -> list[Helper]:
    bits = _LANES[isa.name]
    p = "_mm_" if bits == 128 else f"_mm{bits}_"
    v, si = f"__m{bits}i", f"si{bits}"
    e64 = "epi64x" if bits < 512 else "epi64"
    out = []
    for e, w in (("i32", 32), ("i64", 64)):
        n = bits // w
        c = lambda k: f"{p}set1_{'epi32' if w == 32 else e64}({k})"  # noqa: E731
        body = [f"    x = {p}sub_epi{w}(x, {p}and_{si}({p}srli_epi{w}(x, 1), {c('0x55555555' if w == 32 else '0x5555555555555555ll')}));",
                f"    x = {p}add_epi{w}({p}and_{si}(x, {c('0x33333333' if w == 32 else '0x3333333333333333ll')}), "
                f"{p}and_{si}({p}srli_epi{w}(x, 2), {c('0x33333333' if w == 32 else '0x3333333333333333ll')}));",
                f"    x = {p}and_{si}({p}add_epi{w}(x, {p}srli_epi{w}(x, 4)), {c('0x0F0F0F0F' if w == 32 else '0x0F0F0F0F0F0F0F0Fll')});",
                f"    x = {p}add_epi{w}(x, {p}srli_epi{w}(x, 8));",
                f"    x = {p}add_epi{w}(x, {p}srli_epi{w}(x, 16));"]  # fmt: skip
        if w == 64:
            body.append(f"    x = {p}add_epi64(x, {p}srli_epi64(x, 32));")
        body.append(f"    return {p}and_{si}(x, {c(str(2 * w - 1))});")
        out.append(Helper(f"lo_ctpop_{e}x{n}", f"static inline {v} lo_ctpop_{e}x{n}({v} x)\n{{\n" + "\n".join(body) + "\n}\n"))
    if isa.name == "avx512":
        return out  # native unsigned min/max of both widths
    for e, w in (("i32", 32), ("i64", 64)):
        n = bits // w
        if isa.name == "avx2" and e == "i32":
            continue  # _mm256_min_epu32
        bias = f"{p}set1_epi32(INT32_MIN)" if w == 32 else f"{p}set1_{e64}(INT64_MIN)"
        gt = {"i32": f"{p}cmpgt_epi32", "i64": "lo_cmpgt_i64x2" if isa.name == "sse2" else f"{p}cmpgt_epi64"}[e]
        for op, pick_b in (("minu", True), ("maxu", False)):
            a_, b_ = ("b", "a") if pick_b else ("a", "b")
            out.append(Helper(f"lo_{op}_{e}x{n}", (
                f"static inline {v} lo_{op}_{e}x{n}({v} a, {v} b)\n{{\n"
                f"    {v} gt = {gt}({p}xor_{si}(a, {bias}), {p}xor_{si}(b, {bias}));  /* a >u b */\n"
                f"    return {p}or_{si}({p}and_{si}(gt, {a_}), {p}andnot_{si}(gt, {b_}));\n}}\n")))  # fmt: skip
    return out


def _f64_division(isa: IsaTable) -> list[Helper]:
    """i32 division by a variable through f64 on SSE2 (signed only), AVX2 and AVX-512 (divpd).

    Exact: with |a|, |b| < 2^32, a quotient a/b that is not an integer lies at least 1/|b| from
    the nearest integer, while rounding it to f64 moves it by at most half an ulp of a number
    below 2^32/|b|, i.e. less than 2^-21/|b|: truncating the rounded quotient gives the exact
    truncated quotient. Fix-ups: b == 0 makes inf or NaN, cleared to 0 (the rule); MIN / -1 is
    2^31, which `cvttpd` turns into 0x80000000 = MIN (the rule). Unsigned lanes enter as
    (a ^ MIN) + 2^31 and leave as floor(q) - 2^31 converted and xor-ed with MIN (AVX2) or through
    the AVX-512 unsigned conversions."""
    if isa.name == "sse2":  # two f64 lanes per half: lanes 0-1, then 2-3 moved down
        lo, hi = "{}", "_mm_shuffle_epi32({}, _MM_SHUFFLE(1, 0, 3, 2))"
        join = "_mm_unpacklo_epi64({}, {})"
        v, p, half = "__m128i", "_mm_", 4
        keep = "_mm_andnot_si128(_mm_cmpeq_epi32(b, _mm_setzero_si128()), {})"
        u2d = d2u = ""
        s2d, d2s, mullo = "_mm_cvtepi32_pd({})", "_mm_cvttpd_epi32({})", "lo_mullo_i32x4"
    elif isa.name == "avx2":
        lo, hi = "_mm256_castsi256_si128({})", "_mm256_extracti128_si256({}, 1)"
        join = "_mm256_inserti128_si256(_mm256_castsi128_si256({}), {}, 1)"
        v, p, half = "__m256i", "_mm256_", 8
        keep = "_mm256_andnot_si256(_mm256_cmpeq_epi32(b, _mm256_setzero_si256()), {})"
        u2d = ("_mm256_add_pd(_mm256_cvtepi32_pd(_mm_xor_si128({}, _mm_set1_epi32(INT32_MIN))), "
               "_mm256_set1_pd(2147483648.0))")
        d2u = ("_mm_xor_si128(_mm256_cvttpd_epi32(_mm256_sub_pd(_mm256_floor_pd({}), _mm256_set1_pd(2147483648.0))), "
               "_mm_set1_epi32(INT32_MIN))")
        s2d, d2s, mullo = "_mm256_cvtepi32_pd({})", "_mm256_cvttpd_epi32({})", "_mm256_mullo_epi32"
    else:
        lo, hi = "_mm512_castsi512_si256({})", "_mm512_extracti64x4_epi64({}, 1)"
        join = "_mm512_inserti64x4(_mm512_castsi256_si512({}), {}, 1)"
        v, p, half = "__m512i", "_mm512_", 16
        keep = "_mm512_maskz_mov_epi32(_mm512_test_epi32_mask(b, b), {})"
        u2d, d2u = "_mm512_cvtepu32_pd({})", "_mm512_cvttpd_epu32({})"
        s2d, d2s, mullo = "_mm512_cvtepi32_pd({})", "_mm512_cvttpd_epi32({})", "_mm512_mullo_epi32"
    out = []
    for signed, name in ((True, "div"), (False, "divu")):
        to_d, from_d = (s2d, d2s) if signed else (u2d, d2u)
        if isa.name == "sse2" and not signed:
            continue  # no floor before SSE4.1: unsigned SSE2 lanes divide lane by lane
        q_lo = from_d.format(f"{p}div_pd({to_d.format(lo.format('a'))}, {to_d.format(lo.format('b'))})")
        q_hi = from_d.format(f"{p}div_pd({to_d.format(hi.format('a'))}, {to_d.format(hi.format('b'))})")
        out.append(Helper(f"lo_{name}_f64_i32x{half}", (
            f"static inline {v} lo_{name}_f64_i32x{half}({v} a, {v} b)\n{{\n"
            f"    /* exact through f64 (c_intvec._f64_division); b == 0 lanes give 0 */\n"
            f"    {v} q = {join.format(q_lo, q_hi)};\n"
            f"    return {keep.format('q')};\n}}\n")))  # fmt: skip
        rem = "rem" if signed else "remu"
        out.append(Helper(f"lo_{rem}_f64_i32x{half}", (
            f"static inline {v} lo_{rem}_f64_i32x{half}({v} a, {v} b)\n{{\n"
            f"    {v} r = {p}sub_epi32(a, {mullo}(lo_{name}_f64_i32x{half}(a, b), b));  /* wraps: MIN % -1 = 0 */\n"
            f"    return {keep.format('r')};  /* x % 0 = 0 */\n}}\n")))  # fmt: skip
    return out


_NEON_BITS = """static inline int32x4_t lo_ctpop_i32x4(int32x4_t x)
{
    return vreinterpretq_s32_u32(vpaddlq_u16(vpaddlq_u8(vcntq_u8(vreinterpretq_u8_s32(x)))));
}
static inline int64x2_t lo_ctpop_i64x2(int64x2_t x)
{
    return vreinterpretq_s64_u64(vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(vcntq_u8(vreinterpretq_u8_s64(x))))));
}
static inline int64x2_t lo_minu_i64x2(int64x2_t a, int64x2_t b)
{
    return vbslq_s64(vcgtq_u64(vreinterpretq_u64_s64(a), vreinterpretq_u64_s64(b)), b, a);
}
static inline int64x2_t lo_maxu_i64x2(int64x2_t a, int64x2_t b)
{
    return vbslq_s64(vcgtq_u64(vreinterpretq_u64_s64(a), vreinterpretq_u64_s64(b)), a, b);
}
"""


def _split(code: str) -> list[Helper]:
    out = []
    for chunk in code.split("static inline ")[1:]:
        name = chunk.split("(")[0].split()[-1]
        out.append(Helper(name, "static inline " + chunk))
    return out


def helpers(isa: IsaTable) -> list[Helper]:
    """Lane-wise division helpers (`lo_div_i32x8`, ...), the i32 multiply-high ones, unsigned
    min/max and popcount where the ISA lacks an instruction."""
    if isa.name not in _SIMD_ISAS:
        return []
    io = LaneIO(isa)
    out = [
        lanewise_helper(io, f"lo_{op}_{e}x{isa.lanes[e]}", e, e, 2, f"r[k] = lo_{op}_{e}(a[k], b[k]);")
        for op in DIVISIONS
        for e in ("i32", "i64")
    ]
    # i64 by a constant: lane by lane with C's operators (the divisor is neither 0 nor -1)
    for op, c in (("div", "/"), ("rem", "%")):
        out.append(lanewise_helper(io, f"lo_{op}_const_i64x{isa.lanes['i64']}", "i64", "i64", 2, f"r[k] = a[k] {c} b[k];"))
    for op, c in (("divu", "/"), ("remu", "%")):
        out.append(lanewise_helper(io, f"lo_{op}_const_i64x{isa.lanes['i64']}", "i64", "i64", 2,
                                   f"r[k] = (int64_t)((uint64_t)a[k] {c} (uint64_t)b[k]);"))  # fmt: skip
    out += _split(_NEON_MAGIC + _NEON_BITS) if isa.name == "neon" else _x86_magic(isa) + _x86_minmax_popcount(isa)
    if isa.name in ("sse2", "avx2", "avx512"):
        out += _f64_division(isa)
    return out


def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """Vector division rows of ISA `isa_name`: `{m}`, `{s1}`, `{s2}`, `{s}`, `{neg}`, `{d}` are the
    constants the printer computes with `magic_unsigned` / `magic_signed` (c_print_arith)."""
    if isa_name not in _SIMD_ISAS:
        return {}
    n32, n64 = _LANES[isa_name] // 32, _LANES[isa_name] // 64
    out = {(op, e): f"{{dst}} = lo_{op}_{e}x{n}({{a}}, {{b}});" for op in DIVISIONS for e, n in (("i32", n32), ("i64", n64))}
    out.update({
        ("divu_const", "i32"): f"{{dst}} = lo_divu_magic_i32x{n32}({{a}}, {{m}}u, {{s1}}, {{s2}});",
        ("remu_const", "i32"): f"{{dst}} = lo_remu_magic_i32x{n32}({{a}}, {{d}}u, {{m}}u, {{s1}}, {{s2}});",
        ("div_const", "i32"): f"{{dst}} = lo_div_magic_i32x{n32}({{a}}, {{m}}u, {{s}}, {{neg}});",
        ("rem_const", "i32"): f"{{dst}} = lo_rem_magic_i32x{n32}({{a}}, {{d}}, {{m}}u, {{s}});",
        **{(f"{op}_const", "i64"): f"{{dst}} = lo_{op}_const_i64x{n64}({{a}}, {{b}});" for op in ("div", "rem", "divu", "remu")},
        **{("ctpop", e): f"{{dst}} = lo_ctpop_{e}x{n}({{a}});" for e, n in (("i32", n32), ("i64", n64))},
        **{(op, e): f"{{dst}} = lo_{op}_{e}x{n}({{a}}, {{b}});" for op in ("minu", "maxu") for e, n in (("i32", n32), ("i64", n64))},
    })  # fmt: skip
    if isa_name in ("sse2", "avx2", "avx512"):  # a variable i32 divisor: exact through f64 (_f64_division)
        ops = ("div", "rem") if isa_name == "sse2" else ("div", "rem", "divu", "remu")
        out.update({(op, "i32"): f"{{dst}} = lo_{op}_f64_i32x{n32}({{a}}, {{b}});" for op in ops})
    if isa_name != "neon":
        # a constant amount `{k}` (clamped to 255 by the printer) as the immediate: x86's immediate
        # shifts give 0 / the sign fill for counts >= the width, the defined semantics
        p = "_mm_" if isa_name == "sse2" else f"_mm{_LANES[isa_name]}_"
        for e, s in (("i32", "epi32"), ("i64", "epi64")):
            out[("shl_const", e)] = f"{{dst}} = {p}slli_{s}({{a}}, {{k}});"
            out[("shru_const", e)] = f"{{dst}} = {p}srli_{s}({{a}}, {{k}});"
        out[("shr_const", "i32")] = f"{{dst}} = {p}srai_epi32({{a}}, {{k}});"
        if isa_name == "avx512":
            out[("shr_const", "i64")] = "{dst} = _mm512_srai_epi64({a}, {k});"
    native = {
        "avx2": {"i32": "_mm256_{}_epu32"},
        "avx512": {"i32": "_mm512_{}_epu32", "i64": "_mm512_{}_epu64"},
        "neon": {"i32": "vreinterpretq_s32_u32(v{}q_u32(vreinterpretq_u32_s32({{a}}), vreinterpretq_u32_s32({{b}})))"},
    }.get(isa_name, {})
    for e, spelling in native.items():
        for op, fn in (("minu", "min"), ("maxu", "max")):
            call = spelling.format(fn) if isa_name == "neon" else f"{spelling.format(fn)}({{a}}, {{b}})"
            out[(op, e)] = f"{{dst}} = {call};"
    return out
