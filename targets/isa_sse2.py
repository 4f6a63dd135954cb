"""SSE2 intrinsic table (`-msse2`, the x86-64 baseline): 128-bit vectors, nothing newer.

No SSE3/SSSE3/SSE4 intrinsic may appear here (`_mm_blendv_*`, `_mm_mullo_epi32`,
`_mm_min_epi32`, `_mm_cmpeq_epi64`, `_mm_abs_epi32` are all SSE4.1/SSSE3): blends are
and/andnot/or, and the missing integer operations are `lo_*` emulations (c_emulate). There is no
FMA unit, so `fma` is a correctly rounded per-lane `fmaf`/`fma` call, never mul+add. There is no
masked load/store or lane permute: masked accesses go lane by lane and compaction is a LUT-driven
shift network (c_leftpack). SSE2 has no per-lane variable shifts: shl/shr/shru shift by each
lane's count (`_mm_sll/srl/sra_epi*` read one count as unsigned and give 0 or the sign fill for
>= width, the defined semantics) and pick lane k of the k-th result (c_emulate).
Integer add/sub/mul intrinsics wrap; unsigned compares flip the sign bit and compare signed.
"""

from __future__ import annotations

from loopopt.targets.isa_x86 import SSE2_X86, Rows, lane_int_cmp_rows, lane_mask_rows, x86_rows

_FLOAT_CMP = {
    "oeq": "cmpeq", "ogt": "cmpgt", "oge": "cmpge", "olt": "cmplt", "ole": "cmple",
    "une": "cmpneq", "ugt": "cmpnle", "uge": "cmpnlt", "ult": "cmpnge", "ule": "cmpngt",
    "ord": "cmpord", "uno": "cmpunord",
}  # fmt: skip


def _float_cmp(suffix: str, cast: str) -> Rows:
    """SSE2 has one compare intrinsic per predicate (no immediate before AVX): `_mm_cmplt_ps`;
    ordered-not-equal and unordered-or-equal are two compares."""
    elt = "f32" if suffix == "ps" else "f64"
    rows = {
        ("cmp." + p, elt): f"{{dst}} = {cast}(_mm_{c}_{suffix}({{a}}, {{b}}));" for p, c in _FLOAT_CMP.items()
    }
    rows[("cmp.one", elt)] = (
        f"{{dst}} = {cast}(_mm_and_{suffix}(_mm_cmpneq_{suffix}({{a}}, {{b}}), _mm_cmpord_{suffix}({{a}}, {{b}})));"
    )
    rows[("cmp.ueq", elt)] = (
        f"{{dst}} = {cast}(_mm_or_{suffix}(_mm_cmpeq_{suffix}({{a}}, {{b}}), _mm_cmpunord_{suffix}({{a}}, {{b}})));"
    )
    return rows


_N = {e: SSE2_X86.lanes(e) for e in ("f32", "f64", "i32", "i64")}  # 4, 2, 4, 2

ROWS: Rows = {
    # the row families spelled alike on every x86 ISA / on those with all-ones-lane masks (isa_x86)
    **x86_rows(SSE2_X86),
    **lane_mask_rows(SSE2_X86),
    # no masked load/store before AVX: lane by lane (c_mask)
    **{("masked_load", e): f"{{dst}} = lo_masked_load_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});" for e, n in _N.items()},
    **{("masked_store", e): f"lo_masked_store_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});" for e, n in _N.items()},
    # emulations (c_emulate): no mullo_epi32 (SSE4.1), no FMA, no integer abs/min/max, no per-lane shifts
    ("mul", "i32"): "{dst} = lo_mullo_i32x4({a}, {b});",
    ("mul", "i64"): "{dst} = lo_mullo_i64x2({a}, {b});",
    ("fma", "f32"): "{dst} = lo_fma_f32x4({a}, {b}, {c});",
    ("fma", "f64"): "{dst} = lo_fma_f64x2({a}, {b}, {c});",
    ("abs", "i32"): "{dst} = lo_abs_i32x4({a});",
    ("abs", "i64"): "{dst} = lo_abs_i64x2({a});",
    **{(op, e): f"{{dst}} = lo_{op}_{e}x{_N[e]}({{a}}, {{b}});"
       for op in ("min", "max", "minnum", "maxnum") for e in ("f32", "f64")},
    ("min", "i32"): "{dst} = lo_min_i32x4({a}, {b});",
    ("max", "i32"): "{dst} = lo_max_i32x4({a}, {b});",
    ("min", "i64"): "{dst} = lo_min_i64x2({a}, {b});",
    ("max", "i64"): "{dst} = lo_max_i64x2({a}, {b});",
    **{(op, e): f"{{dst}} = lo_{fn}_{e}x{_N[e]}({{a}}, {{b}});"
       for op, fn in (("shl", "shl"), ("shr", "shrs"), ("shru", "shru")) for e in ("i32", "i64")},
    # comparisons -> masks of all-ones lanes; no 64-bit integer compare before SSE4.1/4.2
    **_float_cmp("ps", "_mm_castps_si128"),
    **_float_cmp("pd", "_mm_castpd_si128"),
    **lane_int_cmp_rows(SSE2_X86, "i32", "_mm_cmpeq_epi32", "_mm_cmpgt_epi32", lt="_mm_cmplt_epi32"),
    **lane_int_cmp_rows(SSE2_X86, "i64", "lo_cmpeq_i64x2", "lo_cmpgt_i64x2"),
    # select = (mask & a) | (~mask & b): no blendv before SSE4.1
    ("select", "f32"): "{dst} = _mm_or_ps(_mm_and_ps(_mm_castsi128_ps({mask}), {a}), _mm_andnot_ps(_mm_castsi128_ps({mask}), {b}));",
    ("select", "f64"): "{dst} = _mm_or_pd(_mm_and_pd(_mm_castsi128_pd({mask}), {a}), _mm_andnot_pd(_mm_castsi128_pd({mask}), {b}));",
    **{("select", e): "{dst} = _mm_or_si128(_mm_and_si128({mask}, {a}), _mm_andnot_si128({mask}, {b}));"
       for e in ("i32", "i64", "i1x4", "i1x2")},
    ("convert.f64", "i64"): "{dst} = lo_cvt_i64_f64x2({a});",
    # lane construction
    ("iota", "i64"): "{dst} = _mm_set_epi64x(1, 0);",
    ("prefix_mask", "i1x2"): "{dst} = _mm_set_epi64x(-(int64_t)({a} > 1), -(int64_t)({a} > 0));",
    # no popcnt instruction in SSE2 (__builtin_popcount is a libgcc call): nibble k of the constant is popcount(k)
    ("popcount", "i1x4"): "{dst} = (int64_t)((0x4332322132212110ull >> (4 * _mm_movemask_ps(_mm_castsi128_ps({a})))) & 15u);",
    ("popcount", "i1x2"): "{dst} = (int64_t)((0x4332322132212110ull >> (4 * _mm_movemask_pd(_mm_castsi128_pd({a})))) & 15u);",
}  # fmt: skip

# scans (lowering/loop_to_simd/scan.py): lanes slid up by a power of two with the low lanes
# from the top of {b}, the last lane on every lane, lane 0 as a scalar
_AS_INT = {"f32": ("_mm_castps_si128", "_mm_castsi128_ps"), "f64": ("_mm_castpd_si128", "_mm_castsi128_pd"),
           "i32": ("", ""), "i64": ("", ""), "i8": ("", ""), "i16": ("", "")}  # fmt: skip
ROWS |= {
    **{
        (f"slide_up.{by}", e): f"{{dst}} = {out}(_mm_or_si128(_mm_slli_si128({to}({{a}}), {by * 16 // n}), "
        f"_mm_srli_si128({to}({{b}}), {16 - by * 16 // n})));"
        for e, n in {**_N, "i8": 16, "i16": 8}.items()
        for to, out in [_AS_INT[e]]
        for by in (1, 2, 4, 8)
        if by < n
    },
    # slide_up_dup (idempotent scans): lanes 0,0,1,2 / 0,1,0,1 / 0,0 by one lane shuffle
    ("slide_up_dup.1", "i32"): "{dst} = _mm_shuffle_epi32({a}, 0x90);",
    ("slide_up_dup.2", "i32"): "{dst} = _mm_shuffle_epi32({a}, 0x44);",
    ("slide_up_dup.1", "f32"): "{dst} = _mm_shuffle_ps({a}, {a}, 0x90);",
    ("slide_up_dup.2", "f32"): "{dst} = _mm_shuffle_ps({a}, {a}, 0x44);",
    ("slide_up_dup.1", "i64"): "{dst} = _mm_shuffle_epi32({a}, 0x44);",
    ("slide_up_dup.1", "f64"): "{dst} = _mm_unpacklo_pd({a}, {a});",
    ("splat_last", "f32"): "{dst} = _mm_shuffle_ps({a}, {a}, 0xFF);",
    ("splat_last", "f64"): "{dst} = _mm_unpackhi_pd({a}, {a});",
    ("splat_last", "i32"): "{dst} = _mm_shuffle_epi32({a}, 0xFF);",
    ("splat_last", "i64"): "{dst} = _mm_shuffle_epi32({a}, 0xEE);",
    ("first_lane", "f32"): "{dst} = _mm_cvtss_f32({a});",
    ("first_lane", "f64"): "{dst} = _mm_cvtsd_f64({a});",
    ("first_lane", "i32"): "{dst} = _mm_cvtsi128_si32({a});",
    ("first_lane", "i64"): "{dst} = _mm_cvtsi128_si64({a});",
    # the top word to the high half's words (pshufhw), then its dword everywhere; bytes first pair up
    ("splat_last", "i16"): "{dst} = _mm_shuffle_epi32(_mm_shufflehi_epi16({a}, 0xFF), 0xFF);",
    ("splat_last", "i8"): "{dst} = _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_unpackhi_epi8({a}, {a}), 0xFF), 0xFF);",
    ("first_lane", "i16"): "{dst} = (int16_t)_mm_cvtsi128_si32({a});",
    ("first_lane", "i8"): "{dst} = (int8_t)_mm_cvtsi128_si32({a});",
}
# i8/i16 slid by whole 32-bit lanes: the i32 pshufd (by less: slide_up, loop_to_simd/scan.dup_slide)
ROWS |= {(f"slide_up_dup.{by * 32 // w}", e): ROWS[(f"slide_up_dup.{by}", "i32")]
         for e, w in (("i8", 8), ("i16", 16)) for by in (1, 2)}  # fmt: skip

SSE2 = SSE2_X86.table(ROWS)
