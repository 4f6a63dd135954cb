"""Narrow part vectors: i8/i16 lanes in part of a register, next to wider 16/32-bit lanes.

A loop mixing i8/i16 with i16/i32/f32 runs at the widest type's lane count W
(loop_to_simd/width.py), as f32 next to f64 does (targets/c_part.py): the wide vectors fill a
register and an i8 vector holds its W lanes in the low W bytes of a register of its own type
(`vector<8xi8>` on AVX2: the low 8 bytes of an `__m256i`, key `i8x8`). Lane-wise rows are the
whole register's i8 rows (targets/c_narrow.py) unchanged; the rows here are those that see the
part as a whole, built from per-ISA helpers:

    part      load/store          sign-extend to wide             truncate from wide
    SSE2      movd / movq         punpckl + psra                  shift pair + packs (in range)
    AVX2      movd / movq / 128   vpmovsx (cvtepi8_epi32 ...)     pshufb + punpckl / and + packus
    AVX-512   128 / 256           vpmovsx                         vpmovdb / vpmovdw / vpmovwb
    NEON      lane / vld1 64      vmovl                           vmovn

Truncation keeps the low bits (arith.trunci): the saturating packs see only values already
in range (SSE2 sign-extends the low bits first; AVX2 masks before `packus`). A W-lane mask has
the wide compares' layout (all-ones wide lanes; `__mmaskW` on AVX-512): a compare of narrow
parts sign-extends its byte mask, and a select or masked access of narrow parts truncates the
mask (its upper lanes off, so a masked access touches only the W lanes). Conversions between a
narrow part and floats or another narrow type go through the wide integer in the lowering
(loop_to_simd/narrow_convert.py); reductions of narrow parts stay scalar (width.py).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper

NARROW = ("i8", "i16")
_BITS = {"sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}


def parts(isa: str) -> list[tuple[str, str, int]]:
    """(narrow element, wide integer, W) of every narrow part vector of ISA `isa`."""
    bits = _BITS[isa]
    return [(e, w, bits // int(w[1:])) for e in NARROW for w in ("i16", "i32") if int(w[1:]) > int(e[1:])]


def _key(e: str, n: int) -> str:
    return f"{e}x{n}"


def _mask_through(isa: str, helper: str, src_bits: str, dst_bits: str, mmask_lanes: int, m: str) -> str:
    """Mask `m` moved between layouts by the integer `helper` (lanes of `src_bits` to `dst_bits`
    bits; NEON masks are unsigned vectors, reinterpreted around it); on AVX-512 a bit mask of
    `mmask_lanes` lanes, lane k being bit k in either layout."""
    if isa == "avx512":
        return f"(__mmask{mmask_lanes})({m})"
    if isa == "neon":
        return f"vreinterpretq_u{dst_bits}_s{dst_bits}({helper}(vreinterpretq_s{src_bits}_u{src_bits}({m})))"
    return f"{helper}({m})"


def widen_mask(isa: str, e: str, w: str, n: int, m: str) -> str:
    """The W-lane mask from the mask `m` of a narrow compare (lanes of `e`)."""
    return _mask_through(isa, f"lo_sext_{_key(e, n)}_{w}", e[1:], w[1:], n, m)


def narrow_mask(isa: str, e: str, w: str, n: int, m: str) -> str:
    """The mask of `e` lanes whose low W lanes are those of the W-lane mask `m`, the rest off."""
    return _mask_through(isa, f"lo_trunc_{w}_{_key(e, n)}", w[1:], e[1:], 512 // int(e[1:]), m)


def _expression(template: str) -> str | None:
    from loopopt.targets.c_part import _expression as expression

    return expression(template)


def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """The narrow part rows of ISA `isa_name` (a `c_isa.ROW_HOOKS` module)."""
    if isa_name not in _BITS:
        return {}
    from loopopt.targets import c_narrow

    narrow_rows = c_narrow.rows(isa_name)
    out: dict[tuple[str, str], str] = {}
    for e, w, n in parts(isa_name):
        key = _key(e, n)
        out[("load", key)] = out[("load_aligned", key)] = f"{{dst}} = lo_load_{key}(&{{buf}}[{{idx}}]);"
        for k in ("store", "store_aligned", "store_nt"):
            out[(k, key)] = f"lo_store_{key}(&{{buf}}[{{idx}}], {{value}});"
        out[(f"convert.{w}", key)] = f"{{dst}} = lo_sext_{key}_{w}({{a}});"
        out[(f"convert.{key}", w)] = f"{{dst}} = lo_trunc_{w}_{key}({{a}});"
        narrow = narrow_mask(isa_name, e, w, n, "{mask}")
        for (op_key, elt), template in narrow_rows.items():
            if elt != e:
                continue
            if op_key.startswith("cmp."):
                expr = _expression(template)
                if expr is not None:
                    out[(op_key, key)] = "{dst} = " + widen_mask(isa_name, e, w, n, expr) + ";"
            elif op_key in ("select", "select_zero", "masked_load", "masked_store"):
                out[(op_key, key)] = template.replace("{mask}", narrow)
    return out


# ---------------------------------------------------------------------------- helpers

_SSE2_SEXT = {
    # (narrow, wide): an expression of the register `v` (no pmovsx before SSE4.1: unpack with itself, shift)
    ("i8", "i32"): "_mm_srai_epi32(_mm_unpacklo_epi16(_mm_unpacklo_epi8(v, v), _mm_unpacklo_epi8(v, v)), 24)",
    ("i16", "i32"): "_mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16)",
    ("i8", "i16"): "_mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8)",
}


def _x86_sext(isa: str, e: str, w: str) -> str:
    """Sign extension of the low lanes of a narrow part to the wide lanes: `vpmovsx` of the
    part's low 128 (or 256) bits on AVX2/AVX-512."""
    if isa == "sse2":
        return _SSE2_SEXT[(e, w)]
    bits = _BITS[isa]
    low = 256 if bits // int(w[1:]) * int(e[1:]) > 128 else 128
    return f"_mm{bits}_cvtepi{e[1:]}_epi{w[1:]}(_mm{bits}_castsi{bits}_si{low}(v))"


_X86_TRUNC = {
    # the low bits of each wide lane of `v`, in the low lanes of the result, the rest zero
    ("sse2", "i8", "i32"): "_mm_packs_epi16(_mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(v, 24), 24), _mm_setzero_si128()), _mm_setzero_si128())",
    ("sse2", "i16", "i32"): "_mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(v, 16), 16), _mm_setzero_si128())",
    ("sse2", "i8", "i16"): "_mm_packs_epi16(_mm_srai_epi16(_mm_slli_epi16(v, 8), 8), _mm_setzero_si128())",
    ("avx2", "i8", "i32"): "_mm256_zextsi128_si256(_mm_unpacklo_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1)))",
    ("avx2", "i16", "i32"): "_mm256_zextsi128_si256(_mm_packus_epi32(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1)))",
    ("avx2", "i8", "i16"): "_mm256_zextsi128_si256(_mm_packus_epi16(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1)))",
    ("avx512", "i8", "i32"): "_mm512_zextsi128_si512(_mm512_cvtepi32_epi8(v))",
    ("avx512", "i16", "i32"): "_mm512_zextsi256_si512(_mm512_cvtepi32_epi16(v))",
    ("avx512", "i8", "i16"): "_mm512_zextsi256_si512(_mm512_cvtepi16_epi8(v))",
}  # fmt: skip

_AVX2_TRUNC_PREP = {
    # `t`: the low bits placed so that a 128-bit pack/unpack of the halves finishes the job
    "i8i32": "_mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, "
             "0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1))",
    "i16i32": "_mm256_and_si256(v, _mm256_set1_epi32(0xFFFF))",  # masked first: packus saturates
    "i8i16": "_mm256_and_si256(v, _mm256_set1_epi16(0xFF))",
}  # fmt: skip

_X86_PART = {
    # zero-extend a 128-bit value to the register / take its low 128 bits
    "sse2": ("{x}", "{x}"),
    "avx2": ("_mm256_zextsi128_si256({x})", "_mm256_castsi256_si128({x})"),
    "avx512": ("_mm512_zextsi128_si512({x})", "_mm512_castsi512_si128({x})"),
}


def _x86_memory(isa: str, e: str, n: int, v: str) -> tuple[str, str]:
    """(load body, store body) of the `n * bits(e) / 8` bytes of a narrow part."""
    nbytes = n * int(e[1:]) // 8
    zext, low = _X86_PART[isa]
    if nbytes == 32:  # AVX-512 only
        return ("return _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)p));",
                "_mm256_storeu_si256((__m256i *)p, _mm512_castsi512_si256(v));")  # fmt: skip
    if nbytes == 16:
        return (f"return {zext.format(x='_mm_loadu_si128((const __m128i *)p)')};",
                f"_mm_storeu_si128((__m128i *)p, {low.format(x='v')});")  # fmt: skip
    if nbytes == 8:
        return (f"return {zext.format(x='_mm_loadl_epi64((const __m128i *)p)')};",
                f"_mm_storel_epi64((__m128i *)p, {low.format(x='v')});")  # fmt: skip
    assert nbytes == 4
    return (f"int32_t t;\n    __builtin_memcpy(&t, p, 4);\n    return {zext.format(x='_mm_cvtsi32_si128(t)')};",
            f"int32_t t = _mm_cvtsi128_si32({low.format(x='v')});\n    __builtin_memcpy(p, &t, 4);")  # fmt: skip


def _neon_spellings(e: str, w: str, n: int) -> dict[str, str]:
    eb, wb = e[1:], w[1:]
    nbytes = n * int(eb) // 8
    if nbytes == 8:
        load = f"return vcombine_s{eb}(vld1_s{eb}(p), vdup_n_s{eb}(0));"
        store = f"vst1_s{eb}(p, vget_low_s{eb}(v));"
    else:
        load = (f"uint32_t t;\n    __builtin_memcpy(&t, p, 4);\n"
                f"    return vreinterpretq_s{eb}_u32(vsetq_lane_u32(t, vdupq_n_u32(0), 0));")  # fmt: skip
        store = f"uint32_t t = vgetq_lane_u32(vreinterpretq_u32_s{eb}(v), 0);\n    __builtin_memcpy(p, &t, 4);"
    if (e, w) == ("i8", "i32"):
        sext = "vmovl_s16(vget_low_s16(vmovl_s8(vget_low_s8(v))))"
        trunc = "vcombine_s8(vmovn_s16(vcombine_s16(vmovn_s32(v), vdup_n_s16(0))), vdup_n_s8(0))"
    else:
        sext = f"vmovl_s{eb}(vget_low_s{eb}(v))"
        trunc = f"vcombine_s{eb}(vmovn_s{wb}(v), vdup_n_s{eb}(0))"
    return {"load": load, "store": store, "sext": sext, "trunc": trunc}


def helpers(isa) -> list[Helper]:  # noqa: ANN001 - an IsaTable (c_helpers.HelperSource)
    """`lo_load_<part>` / `lo_store_<part>` (the part's bytes only), `lo_sext_<part>_<wide>` and
    `lo_trunc_<wide>_<part>` of every narrow part of the ISA."""
    if isa.name not in _BITS:
        return []
    out = []
    for e, w, n in parts(isa.name):
        key = _key(e, n)
        ve, vw = isa.vector_types[e], isa.vector_types[w]
        t = f"int{e[1:]}_t"
        if isa.name == "neon":
            s = _neon_spellings(e, w, n)
            load, store, sext, trunc = s["load"], s["store"], f"return {s['sext']};", f"return {s['trunc']};"
        else:
            load, store = _x86_memory(isa.name, e, n, "v")
            sext = f"return {_x86_sext(isa.name, e, w)};"
            prep = _AVX2_TRUNC_PREP.get(f"{e}{w}") if isa.name == "avx2" else None
            trunc = (f"{vw} t = {prep};\n    " if prep else "") + f"return {_X86_TRUNC[(isa.name, e, w)]};"
        out += [
            Helper(f"lo_load_{key}", f"static inline {ve} lo_load_{key}(const {t} *p)\n{{\n    {load}\n}}\n"),
            Helper(f"lo_store_{key}", f"static inline void lo_store_{key}({t} *p, {ve} v)\n{{\n    {store}\n}}\n"),
            Helper(f"lo_sext_{key}_{w}", f"static inline {vw} lo_sext_{key}_{w}({ve} v)\n{{\n    {sext}\n}}\n"),
            Helper(f"lo_trunc_{w}_{key}", f"static inline {ve} lo_trunc_{w}_{key}({vw} v)\n{{\n    {trunc}\n}}\n"),
        ]
    return out
