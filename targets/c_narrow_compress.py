"""Compaction of i8 lanes (a filter keeping bytes): eight bytes at a time through a byte shuffle.

No ISA of loopopt's baselines compresses bytes in one instruction (AVX-512 VBMI2's
`vpcompressb` is not in the AVX-512 baseline: a CPU with it, `cpu=zen4`, uses `VBMI2_ROWS`), so `lo_compress_full_i8xN(p, v, mask)` cuts the
register into 8-byte groups: a group's 8 mask bits index the left-pack table of 8 lanes
(`lo_leftpack_idx8`, the one AVX2's 32-bit compaction uses, targets/c_leftpack.py), whose row
is the group's shuffle (`pshufb` on AVX2/AVX-512, `vtbl1_u8` on NEON); the packed 8 bytes are
stored at the running count and the count advances by the group's popcount. Each store writes
8 bytes, past the count by up to 7: `lo_compress_full_i8xN` (room for N bytes at `p`, the
main loop) stores in place, since a group starting at count c <= 8g ends by 8g + 8 <= N; a
limited (or exact) compress packs into a local spill of N bytes and copies what fits
(c_print_simd._spilled_compress_store).
SSE2 has no byte shuffle (pshufb is SSSE3): each 8-lane half packs through the shift network of
its mask (c_leftpack.shift_network, one table row per mask, no branch), i8 as a 64-bit integer,
i16 (`lo_compress_full_i16x8`) as both halves of the register at once, `_mm_srli_epi64` by 16 and 32.

i16 lanes compact as the bytes of the same register: a word's mask lane sets both its bytes
(AVX-512: the word mask widened to a byte mask, `vpmovm2w` then `vpmovb2m`), so a group of 8
bytes packs its active words whole, and the byte count is twice the word count. The full form's
room is the same (W words = N bytes). An i16 filter `x > 3` at 1 Mi (half kept), Zen 4: AVX2
145 µs, AVX-512 161, against 3508 µs for the loop these targets kept before (a branch per
element) and 417 µs for the scalar target's branchless loop. SSE2 (session 24, Zen 4, load ~17,
interleaved, 1 Mi, half or 10% kept): i16 222 µs and u8/i8 210, against the scalar target's
415 and the byte-by-byte groups SSE2 had before (i16 2264 µs, i8 ~1200).
"""

from __future__ import annotations

from loopopt.targets.c_helpers import Helper
from loopopt.targets.c_leftpack import SSE2_POPCOUNT4, _table, c_table, pack_table, shift_network

_LANES = {"sse2": 16, "avx2": 32, "avx512": 64, "neon": 16}
_COUNT64 = "(int64_t)__builtin_popcountll((unsigned long long)({mask}))"
_COUNT32 = "(int64_t)__builtin_popcount((unsigned)({mask}))"

_BITS = {
    # the mask of N byte lanes as an N-bit integer
    "sse2": "(uint64_t)(unsigned)_mm_movemask_epi8(m)",
    "avx2": "(uint64_t)(unsigned)_mm256_movemask_epi8(m)",
    "avx512": "(uint64_t)m",
    "neon": "lo_bits_u8x16(m)",
}

_SPILL = {
    "sse2": "_mm_storeu_si128((__m128i *)x, v);",
    "avx2": "_mm256_storeu_si256((__m256i *)x, v);",
    "avx512": "_mm512_storeu_si512(x, v);",
    "neon": "vst1q_s8(x, v);",
}

_GROUP = {
    # pack the 8 bytes at `x + 8 * g` by mask byte `b` and store them (8 bytes) at `q`
    "avx2": "_mm_storel_epi64((__m128i *)q, _mm_shuffle_epi8(_mm_loadl_epi64((const __m128i *)(x + 8 * g)), "
            "_mm_loadl_epi64((const __m128i *)lo_leftpack_idx8[b])));",
    "neon": "vst1_u8((uint8_t *)q, vtbl1_u8(vld1_u8((const uint8_t *)(x + 8 * g)), vld1_u8(lo_leftpack_idx8[b])));",
}  # fmt: skip
_GROUP["avx512"] = _GROUP["avx2"]

_NEON_BITS = """static inline uint64_t lo_bits_u8x16(uint8x16_t m)
{
    /* lane k's bit weight within its group of 8, summed across each half */
    static const uint8_t w[8] = {1, 2, 4, 8, 16, 32, 64, 128};
    uint8x8_t wv = vld1_u8(w);
    return (uint64_t)vaddv_u8(vand_u8(vget_low_u8(m), wv)) | (uint64_t)vaddv_u8(vand_u8(vget_high_u8(m), wv)) << 8;
}
"""


def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """`compress_store_full` of i8 and i16 lanes (a `c_isa.ROW_HOOKS` module)."""
    n = _LANES.get(isa_name)
    if n is None:
        return {}
    value, mask = _WORDS_AS_BYTES.get(isa_name, ("{value}", "{mask}"))
    if isa_name == "sse2":  # words compact in the register (lo_compress_*_i16x8), not as bytes
        return {
            ("compress_store_full", elt): f"{{dst}} = lo_compress_full_{elt}x{w}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
            for elt, w in (("i8", 16), ("i16", 8))
        }
    return {
        ("compress_store_full", "i8"): f"{{dst}} = lo_compress_full_i8x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});",
        ("compress_store_full", "i16"): f"{{dst}} = lo_compress_full_i8x{n}((int8_t *)&{{buf}}[{{idx}}], {value}, {mask}) / 2;",
    }


VBMI2_ROWS = {
    # AVX512_VBMI2 (`loop.cpu_features`, c_part.with_cpu_features): bytes and words compress in one
    # instruction. As the 32/64-bit rows of isa_avx512: to memory (`vpcompressw [mem]{k}`) or, where
    # the CPU compresses faster in a register (Zen 4: 0.19-0.32x the time of the 8-byte groups,
    # cpu_models zen4), into the value itself (merged, not `maskz`: see isa_avx512) and one 64-byte store.
    **{("compress_store_full", e): f"_mm512_mask_compressstoreu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}}); {{dst}} = {c};"
       for e, s, c in (("i8", "epi8", _COUNT64), ("i16", "epi16", _COUNT32))},
    **{("compress_store_full_reg", e): f"_mm512_storeu_si512(&{{buf}}[{{idx}}], _mm512_mask_compress_{s}({{value}}, {{mask}}, {{value}})); {{dst}} = {c};"
       for e, s, c in (("i8", "epi8", _COUNT64), ("i16", "epi16", _COUNT32))},
}  # fmt: skip
"""The rows AVX512_VBMI2 replaces on avx512 (c_part.with_cpu_features): same bits as the groups."""

_WORDS_AS_BYTES = {
    # an i16 value and mask as the i8 helper's: the same register, a byte mask with both bytes of a word set
    "avx512": ("{value}", "_mm512_movepi8_mask(_mm512_movm_epi16({mask}))"),
    "neon": ("vreinterpretq_s8_s16({value})", "vreinterpretq_u8_u16({mask})"),
}


def helpers(isa) -> list[Helper]:  # noqa: ANN001 - an IsaTable (c_helpers.HelperSource)
    """`lo_compress_full_i8xN` of the ISA (and the table it indexes)."""
    n = _LANES.get(isa.name)
    if n is None:
        return []
    vt, mt = isa.vector_types["i8"], isa.mask_types[n]
    if isa.name == "sse2":
        return _sse2_helpers(vt, mt)
    group = _GROUP[isa.name]
    loop = (
        f"    int8_t x[{n}];\n    {_SPILL[isa.name]}\n    uint64_t bits = {_BITS[isa.name]};\n    int64_t c = 0;\n"
        f"    for (int g = 0; g < {n // 8}; g++) {{\n"
        f"        unsigned b = (unsigned)(bits >> (8 * g)) & 0xFFu;\n"
        f"        int8_t *q = out + c;\n        {group}\n"
        f"        c += __builtin_popcount(b);\n    }}\n"
    )
    full = f"static inline int64_t lo_compress_full_i8x{n}(int8_t *p, {vt} v, {mt} m)\n{{\n    int8_t *out = p;\n{loop}    return c;\n}}\n"
    out = [Helper(f"lo_compress_full_i8x{n}", full)]
    out.append(_table("lo_leftpack_idx8", "uint8_t", pack_table(8)))
    if isa.name == "neon":
        out.append(Helper("lo_bits_u8x16", _NEON_BITS))
    return out


def _lane_masks(bits: int, lanes: int, width: int) -> list[int]:
    """`shift_network(bits, lanes)`'s stages as 64-bit masks of `width`-bit lanes (all ones where
    a lane takes the value `2**s` lanes above it)."""
    ones = (1 << width) - 1
    return [sum(ones << width * p for p in range(lanes) if sel[p]) for sel in shift_network(bits, lanes)]


def _u64_table(name: str, rows: list) -> Helper:
    return Helper(name, c_table(name, "uint64_t", [[f"{x:#x}ull" for x in r] for r in rows]))


def _sse2_helpers(vt: str, mt: str) -> list[Helper]:
    """SSE2 (no byte shuffle): each 8-lane half packs through the shift network of its mask
    (targets/c_leftpack.py's, a table row per mask) as 64-bit integer moves for bytes
    (`y ^ ((y ^ y >> 8s) & sel)`, branch-free) and as `_mm_srli_epi64` in the register for words,
    then stores its 8 bytes at the running count (full: room for 16 bytes, a half at count
    c <= 8h ends by 8h + 8; an exact or limited store goes through a spill, c_print_simd)."""
    bytes8 = [[*_lane_masks(b, 8, 8), bin(b).count("1")] for b in range(256)]
    words = [[[_lane_masks(b & 15, 4, 16)[s], _lane_masks(b >> 4, 4, 16)[s]] for s in range(2)] for b in range(256)]
    full_i8 = (
        "static inline int64_t lo_compress_full_i8x16(int8_t *p, __m128i v, __m128i m)\n{\n"
        "    uint64_t x[2] = {(uint64_t)_mm_cvtsi128_si64(v), (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v))};\n"
        "    unsigned bits = (unsigned)_mm_movemask_epi8(m);\n    int64_t c = 0;\n"
        "    for (int h = 0; h < 2; h++) {\n"
        "        const uint64_t *t = lo_compress_net8[(bits >> (8 * h)) & 0xFFu];\n"
        "        uint64_t y = x[h];\n"
        "        y ^= (y ^ y >> 8) & t[0];\n        y ^= (y ^ y >> 16) & t[1];\n        y ^= (y ^ y >> 32) & t[2];\n"
        "        _mm_storel_epi64((__m128i *)(p + c), _mm_cvtsi64_si128((long long)y));\n        c += (int64_t)t[3];\n    }\n    return c;\n}\n"
    )
    full_i16 = (
        "static inline int64_t lo_compress_full_i16x8(int16_t *p, __m128i v, __m128i m)\n{\n"
        "    unsigned bits = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(m, m)) & 0xFFu;\n"
        "    __m128i s0 = _mm_loadu_si128((const __m128i *)lo_compress_net4x2[bits][0]);\n"
        "    __m128i s1 = _mm_loadu_si128((const __m128i *)lo_compress_net4x2[bits][1]);\n"
        "    v = _mm_xor_si128(v, _mm_and_si128(s0, _mm_xor_si128(v, _mm_srli_epi64(v, 16))));\n"
        "    v = _mm_xor_si128(v, _mm_and_si128(s1, _mm_xor_si128(v, _mm_srli_epi64(v, 32))));\n"
        "    unsigned lo = bits & 15u, hi = bits >> 4;\n"
        f"    int64_t c0 = {_popcount4('lo')};\n"
        "    _mm_storel_epi64((__m128i *)p, v);\n"
        "    _mm_storel_epi64((__m128i *)(p + c0), _mm_unpackhi_epi64(v, v));\n"
        f"    return c0 + {_popcount4('hi')};\n}}\n"
    )
    return [
        _u64_table("lo_compress_net8", bytes8), _table("lo_compress_net4x2", "uint64_t", [[[f"{x:#x}ull" for x in h] for h in r] for r in words]),
        Helper("lo_compress_full_i8x16", full_i8), Helper("lo_compress_full_i16x8", full_i16),
    ]  # fmt: skip


def _popcount4(var: str) -> str:
    return SSE2_POPCOUNT4.replace("bits", var)
