"""AVX2 + FMA intrinsic table (`-mavx2 -mfma`): 256-bit vectors, masks as all-ones lanes.

A `vector<Nxi1>` mask is an `__m256i` whose lanes are 256/N bits wide (the width of the
compared elements), so blends use `_mm256_blendv_*` and counts use `movemask`. AVX2 lacks
64-bit integer multiply, min/max and arithmetic shift, and i64<->f64 conversion: those rows
use emulations (`lo_*` helpers) or are absent (a located error). Integer add/sub/mul wrap;
variable shifts read the amount as unsigned (>= width: 0, or the sign fill for shrsi);
unsigned compares flip the sign bit and compare signed; f32 -> i32 saturates, NaN -> 0.
"""

from __future__ import annotations

from loopopt.targets.isa_x86 import AVX2_X86, Rows, float_cmp_rows, fma_rows, lane_int_cmp_rows, lane_mask_rows
from loopopt.targets.isa_x86 import variable_shift_rows, without, x86_rows

_ZERO_I = "_mm256_setzero_si256()"

ROWS: Rows = {
    # the row families spelled alike on every x86 ISA / on those with all-ones-lane masks (isa_x86)
    **x86_rows(AVX2_X86),
    **fma_rows(AVX2_X86),
    **lane_mask_rows(AVX2_X86),
    # masked accesses: maskload zeroes the inactive lanes, the blend puts {passthru} there
    ("masked_load", "f32"): "{dst} = _mm256_blendv_ps({passthru}, _mm256_maskload_ps(&{buf}[{idx}], {mask}), _mm256_castsi256_ps({mask}));",
    ("masked_load", "f64"): "{dst} = _mm256_blendv_pd({passthru}, _mm256_maskload_pd(&{buf}[{idx}], {mask}), _mm256_castsi256_pd({mask}));",
    ("masked_load", "i32"): "{dst} = _mm256_blendv_epi8({passthru}, _mm256_maskload_epi32((const int *)&{buf}[{idx}], {mask}), {mask});",
    ("masked_load", "i64"): "{dst} = _mm256_blendv_epi8({passthru}, _mm256_maskload_epi64((const long long *)&{buf}[{idx}], {mask}), {mask});",
    ("masked_store", "f32"): "_mm256_maskstore_ps(&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "f64"): "_mm256_maskstore_pd(&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "i32"): "_mm256_maskstore_epi32((int *)&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "i64"): "_mm256_maskstore_epi64((long long *)&{buf}[{idx}], {mask}, {value});",
    # gathers (simd.gather; lane-wise form: c_gather): inactive lanes keep {passthru} and are not read
    ("gather.i32", "f32"): "{dst} = _mm256_mask_i32gather_ps({passthru}, {buf}, {idx}, _mm256_castsi256_ps({mask}), 4);",
    ("gather.i64", "f64"): "{dst} = _mm256_mask_i64gather_pd({passthru}, {buf}, {idx}, _mm256_castsi256_pd({mask}), 8);",
    ("gather.i32", "i32"): "{dst} = _mm256_mask_i32gather_epi32({passthru}, (const int *){buf}, {idx}, {mask}, 4);",
    ("gather.i64", "i64"): "{dst} = _mm256_mask_i64gather_epi64({passthru}, (const long long *){buf}, {idx}, {mask}, 8);",
    # integer mul and abs: no 64-bit multiply or abs before AVX-512
    ("mul", "i32"): "{dst} = _mm256_mullo_epi32({a}, {b});",
    ("mul", "i64"): "{dst} = lo_mullo_i64x4({a}, {b});",
    ("abs", "i32"): "{dst} = _mm256_abs_epi32({a});",
    ("abs", "i64"): f"{{dst}} = _mm256_blendv_epi8({{a}}, _mm256_sub_epi64({_ZERO_I}, {{a}}), _mm256_cmpgt_epi64({_ZERO_I}, {{a}}));",
    # min/max: x86 min returns the second operand when either is NaN; numpy propagates NaN,
    # so a NaN in {a} is blended back in.
    ("min", "f32"): "{dst} = _mm256_blendv_ps(_mm256_min_ps({a}, {b}), {a}, _mm256_cmp_ps({a}, {a}, _CMP_UNORD_Q));",
    ("min", "f64"): "{dst} = _mm256_blendv_pd(_mm256_min_pd({a}, {b}), {a}, _mm256_cmp_pd({a}, {a}, _CMP_UNORD_Q));",
    ("max", "f32"): "{dst} = _mm256_blendv_ps(_mm256_max_ps({a}, {b}), {a}, _mm256_cmp_ps({a}, {a}, _CMP_UNORD_Q));",
    ("max", "f64"): "{dst} = _mm256_blendv_pd(_mm256_max_pd({a}, {b}), {a}, _mm256_cmp_pd({a}, {a}, _CMP_UNORD_Q));",
    ("minnum", "f32"): "{dst} = _mm256_blendv_ps(_mm256_min_ps({a}, {b}), {a}, _mm256_cmp_ps({b}, {b}, _CMP_UNORD_Q));",
    ("minnum", "f64"): "{dst} = _mm256_blendv_pd(_mm256_min_pd({a}, {b}), {a}, _mm256_cmp_pd({b}, {b}, _CMP_UNORD_Q));",
    ("maxnum", "f32"): "{dst} = _mm256_blendv_ps(_mm256_max_ps({a}, {b}), {a}, _mm256_cmp_ps({b}, {b}, _CMP_UNORD_Q));",
    ("maxnum", "f64"): "{dst} = _mm256_blendv_pd(_mm256_max_pd({a}, {b}), {a}, _mm256_cmp_pd({b}, {b}, _CMP_UNORD_Q));",
    ("min", "i32"): "{dst} = _mm256_min_epi32({a}, {b});",
    ("max", "i32"): "{dst} = _mm256_max_epi32({a}, {b});",
    ("min", "i64"): "{dst} = _mm256_blendv_epi8({a}, {b}, _mm256_cmpgt_epi64({a}, {b}));",
    ("max", "i64"): "{dst} = _mm256_blendv_epi8({a}, {b}, _mm256_cmpgt_epi64({b}, {a}));",
    # shifts: no 64-bit arithmetic shift before AVX-512
    **without(variable_shift_rows(AVX2_X86), ("shr", "i64")),
    ("shr", "i64"): "{dst} = lo_shrs_i64x4({a}, {b});",
    # comparisons -> masks of all-ones lanes
    **float_cmp_rows(AVX2_X86),
    **lane_int_cmp_rows(AVX2_X86, "i32", "_mm256_cmpeq_epi32", "_mm256_cmpgt_epi32"),
    **lane_int_cmp_rows(AVX2_X86, "i64", "_mm256_cmpeq_epi64", "_mm256_cmpgt_epi64"),
    # select: mask lanes pick {a}, others {b}
    ("select", "f32"): "{dst} = _mm256_blendv_ps({b}, {a}, _mm256_castsi256_ps({mask}));",
    ("select", "f64"): "{dst} = _mm256_blendv_pd({b}, {a}, _mm256_castsi256_pd({mask}));",
    **{("select", e): "{dst} = _mm256_blendv_epi8({b}, {a}, {mask});" for e in ("i32", "i64", "i1x8", "i1x4")},
    ("convert.f64", "i64"): "{dst} = lo_cvt_i64_f64x4({a});",
    # lane construction
    ("iota", "i64"): "{dst} = _mm256_setr_epi64x(0, 1, 2, 3);",
    ("prefix_mask", "i1x4"): "{dst} = _mm256_cmpgt_epi64(_mm256_set1_epi64x({a}), _mm256_setr_epi64x(0, 1, 2, 3));",
    ("popcount", "i1x8"): "{dst} = (int64_t)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps({a})));",
    ("popcount", "i1x4"): "{dst} = (int64_t)__builtin_popcount((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd({a})));",
}  # fmt: skip

# scans (lowering/loop_to_simd/scan.py): lanes slid up by a power of two with the low lanes
# from the top of {b} — across the 128-bit halves: [b.hi, a.lo] by vperm2i128, then vpalignr
# per half — the last lane on every lane, lane 0 as a scalar
_AS_INT = {"f32": ("_mm256_castps_si256", "_mm256_castsi256_ps"), "f64": ("_mm256_castpd_si256", "_mm256_castsi256_pd"),
           "i32": ("", ""), "i64": ("", ""), "i8": ("", ""), "i16": ("", "")}  # fmt: skip


def _slide_up(e: str, by: int) -> str:
    to, out = _AS_INT[e]
    shift = by * int(e[1:]) // 8  # bytes
    across = f"_mm256_permute2x128_si256({to}({{a}}), {to}({{b}}), 0x03)"
    if shift == 16:
        return f"{{dst}} = {out}({across});"
    return f"{{dst}} = {out}(_mm256_alignr_epi8({to}({{a}}), {across}, {16 - shift}));"


ROWS |= {
    **{(f"slide_up.{by}", e): _slide_up(e, by) for e in ("f32", "i32") for by in (1, 2, 4)},
    **{(f"slide_up.{by}", e): _slide_up(e, by) for e in ("f64", "i64") for by in (1, 2)},
    **{(f"slide_up.{by}", e): _slide_up(e, by) for e, n in (("i8", 32), ("i16", 16)) for by in (1, 2, 4, 8, 16) if by < n},
    # slide_up_dup (idempotent scans): one cross-lane permute (vpermd by 1 lane, vpermq above)
    ("slide_up_dup.1", "i32"): "{dst} = _mm256_permutevar8x32_epi32({a}, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));",
    ("slide_up_dup.1", "f32"): "{dst} = _mm256_permutevar8x32_ps({a}, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));",
    ("slide_up_dup.2", "i32"): "{dst} = _mm256_permute4x64_epi64({a}, 0x90);",
    ("slide_up_dup.2", "f32"): "{dst} = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd({a}), 0x90));",
    ("slide_up_dup.4", "i32"): "{dst} = _mm256_permute4x64_epi64({a}, 0x44);",
    ("slide_up_dup.4", "f32"): "{dst} = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd({a}), 0x44));",
    ("slide_up_dup.1", "i64"): "{dst} = _mm256_permute4x64_epi64({a}, 0x90);",
    ("slide_up_dup.1", "f64"): "{dst} = _mm256_permute4x64_pd({a}, 0x90);",
    ("slide_up_dup.2", "i64"): "{dst} = _mm256_permute4x64_epi64({a}, 0x44);",
    ("slide_up_dup.2", "f64"): "{dst} = _mm256_permute4x64_pd({a}, 0x44);",
    ("splat_last", "f32"): "{dst} = _mm256_permutevar8x32_ps({a}, _mm256_set1_epi32(7));",
    ("splat_last", "i32"): "{dst} = _mm256_permutevar8x32_epi32({a}, _mm256_set1_epi32(7));",
    ("splat_last", "f64"): "{dst} = _mm256_permute4x64_pd({a}, 0xFF);",
    ("splat_last", "i64"): "{dst} = _mm256_permute4x64_epi64({a}, 0xFF);",
    ("first_lane", "f32"): "{dst} = _mm256_cvtss_f32({a});",
    ("first_lane", "f64"): "{dst} = _mm256_cvtsd_f64({a});",
    ("first_lane", "i32"): "{dst} = _mm256_cvtsi256_si32({a});",
    ("first_lane", "i64"): "{dst} = _mm_cvtsi128_si64(_mm256_castsi256_si128({a}));",
    # the top byte/word of each half on that half's top dword (vpshufb / vpshufhw), then dword 7 everywhere
    ("splat_last", "i16"): "{dst} = _mm256_permutevar8x32_epi32(_mm256_shufflehi_epi16({a}, 0xFF), _mm256_set1_epi32(7));",
    ("splat_last", "i8"): "{dst} = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8({a}, _mm256_set1_epi8(15)), _mm256_set1_epi32(7));",
    ("first_lane", "i16"): "{dst} = (int16_t)_mm256_cvtsi256_si32({a});",
    ("first_lane", "i8"): "{dst} = (int8_t)_mm256_cvtsi256_si32({a});",
}
# i8/i16 slid by whole 32-bit lanes: the i32 permutes (by less: slide_up, loop_to_simd/scan.dup_slide)
ROWS |= {(f"slide_up_dup.{by * 32 // w}", e): ROWS[(f"slide_up_dup.{by}", "i32")]
         for e, w in (("i8", 8), ("i16", 16)) for by in (1, 2, 4)}  # fmt: skip

AVX2 = AVX2_X86.table(ROWS)
