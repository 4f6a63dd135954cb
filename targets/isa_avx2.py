"""AVX2 + FMA intrinsic table (`-mavx2 -mfma`): 256-bit vectors, masks as all-ones lanes.

A `vector<Nxi1>` mask is an `__m256i` whose lanes are 256/N bits wide (the width of the
compared elements), so blends use `_mm256_blendv_*` and counts use `movemask`. AVX2 lacks
64-bit integer multiply, min/max and arithmetic shift, and i64<->f64 conversion: those rows
use emulations (`lo_*` helpers) or are absent (a located error). Integer add/sub/mul wrap;
variable shifts read the amount as unsigned (>= width: 0, or the sign fill for shrsi);
unsigned compares flip the sign bit and compare signed; f32 -> i32 saturates, NaN -> 0.
"""

from __future__ import annotations

from loopopt.targets.c_isa import IsaTable
from loopopt.targets.isa_sse2 import mask_cmp_rows

_ONES = "_mm256_set1_epi32(-1)"
_ZERO_I = "_mm256_setzero_si256()"
_BIAS = {"i32": "_mm256_set1_epi32(INT32_MIN)", "i64": "_mm256_set1_epi64x(INT64_MIN)"}


def _unsigned_cmp(e: str) -> dict[tuple[str, str], str]:
    """a <u b  ==  (a ^ MIN) <s (b ^ MIN)."""
    gt = f"_mm256_cmpgt_epi{e[1:]}"
    a, b = f"_mm256_xor_si256({{a}}, {_BIAS[e]})", f"_mm256_xor_si256({{b}}, {_BIAS[e]})"
    return {
        ("cmp.ugt", e): f"{{dst}} = {gt}({a}, {b});",
        ("cmp.ult", e): f"{{dst}} = {gt}({b}, {a});",
        ("cmp.ule", e): f"{{dst}} = _mm256_xor_si256({gt}({a}, {b}), {_ONES});",
        ("cmp.uge", e): f"{{dst}} = _mm256_xor_si256({gt}({b}, {a}), {_ONES});",
    }

_FLOAT_CMP = {
    "oeq": "_CMP_EQ_OQ", "ogt": "_CMP_GT_OQ", "oge": "_CMP_GE_OQ", "olt": "_CMP_LT_OQ",
    "ole": "_CMP_LE_OQ", "one": "_CMP_NEQ_OQ", "ord": "_CMP_ORD_Q", "ueq": "_CMP_EQ_UQ",
    "ugt": "_CMP_NLE_UQ", "uge": "_CMP_NLT_UQ", "ult": "_CMP_NGE_UQ", "ule": "_CMP_NGT_UQ",
    "une": "_CMP_NEQ_UQ", "uno": "_CMP_UNORD_Q",
}  # fmt: skip

ROWS: dict[tuple[str, str], str] = {
    # memory
    ("load", "f32"): "{dst} = _mm256_loadu_ps(&{buf}[{idx}]);",
    ("load", "f64"): "{dst} = _mm256_loadu_pd(&{buf}[{idx}]);",
    ("load", "i32"): "{dst} = _mm256_loadu_si256((const __m256i *)&{buf}[{idx}]);",
    ("load", "i64"): "{dst} = _mm256_loadu_si256((const __m256i *)&{buf}[{idx}]);",
    ("load_aligned", "f32"): "{dst} = _mm256_load_ps(&{buf}[{idx}]);",
    ("load_aligned", "f64"): "{dst} = _mm256_load_pd(&{buf}[{idx}]);",
    ("load_aligned", "i32"): "{dst} = _mm256_load_si256((const __m256i *)&{buf}[{idx}]);",
    ("load_aligned", "i64"): "{dst} = _mm256_load_si256((const __m256i *)&{buf}[{idx}]);",
    ("store", "f32"): "_mm256_storeu_ps(&{buf}[{idx}], {value});",
    ("store", "f64"): "_mm256_storeu_pd(&{buf}[{idx}], {value});",
    ("store", "i32"): "_mm256_storeu_si256((__m256i *)&{buf}[{idx}], {value});",
    ("store", "i64"): "_mm256_storeu_si256((__m256i *)&{buf}[{idx}], {value});",
    ("store_aligned", "f32"): "_mm256_store_ps(&{buf}[{idx}], {value});",
    ("store_aligned", "f64"): "_mm256_store_pd(&{buf}[{idx}], {value});",
    ("store_aligned", "i32"): "_mm256_store_si256((__m256i *)&{buf}[{idx}], {value});",
    ("store_aligned", "i64"): "_mm256_store_si256((__m256i *)&{buf}[{idx}], {value});",
    ("store_nt", "f32"): "_mm256_stream_ps(&{buf}[{idx}], {value});",
    ("store_nt", "f64"): "_mm256_stream_pd(&{buf}[{idx}], {value});",
    ("store_nt", "i32"): "_mm256_stream_si256((__m256i *)&{buf}[{idx}], {value});",
    ("store_nt", "i64"): "_mm256_stream_si256((__m256i *)&{buf}[{idx}], {value});",
    ("masked_load", "f32"): "{dst} = _mm256_blendv_ps({passthru}, _mm256_maskload_ps(&{buf}[{idx}], {mask}), _mm256_castsi256_ps({mask}));",
    ("masked_load", "f64"): "{dst} = _mm256_blendv_pd({passthru}, _mm256_maskload_pd(&{buf}[{idx}], {mask}), _mm256_castsi256_pd({mask}));",
    ("masked_load", "i32"): "{dst} = _mm256_blendv_epi8({passthru}, _mm256_maskload_epi32((const int *)&{buf}[{idx}], {mask}), {mask});",
    ("masked_load", "i64"): "{dst} = _mm256_blendv_epi8({passthru}, _mm256_maskload_epi64((const long long *)&{buf}[{idx}], {mask}), {mask});",
    ("masked_store", "f32"): "_mm256_maskstore_ps(&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "f64"): "_mm256_maskstore_pd(&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "i32"): "_mm256_maskstore_epi32((int *)&{buf}[{idx}], {mask}, {value});",
    ("masked_store", "i64"): "_mm256_maskstore_epi64((long long *)&{buf}[{idx}], {mask}, {value});",
    ("compress_store", "f32"): "{dst} = lo_compress_store_f32x8(&{buf}[{idx}], {value}, {mask});",
    ("compress_store", "f64"): "{dst} = lo_compress_store_f64x4(&{buf}[{idx}], {value}, {mask});",
    ("compress_store", "i32"): "{dst} = lo_compress_store_i32x8(&{buf}[{idx}], {value}, {mask});",
    ("compress_store", "i64"): "{dst} = lo_compress_store_i64x4(&{buf}[{idx}], {value}, {mask});",
    **{("compress_store_full", e): f"{{dst}} = lo_compress_full_{e}x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
       for e, n in (("f32", 8), ("f64", 4), ("i32", 8), ("i64", 4))},
    ("store_fence", "none"): "_mm_sfence();",
    ("broadcast", "f32"): "{dst} = _mm256_set1_ps({a});",
    ("broadcast", "f64"): "{dst} = _mm256_set1_pd({a});",
    ("broadcast", "i32"): "{dst} = _mm256_set1_epi32({a});",
    ("broadcast", "i64"): "{dst} = _mm256_set1_epi64x({a});",
    # arithmetic
    ("add", "f32"): "{dst} = _mm256_add_ps({a}, {b});",
    ("add", "f64"): "{dst} = _mm256_add_pd({a}, {b});",
    ("add", "i32"): "{dst} = _mm256_add_epi32({a}, {b});",
    ("add", "i64"): "{dst} = _mm256_add_epi64({a}, {b});",
    ("sub", "f32"): "{dst} = _mm256_sub_ps({a}, {b});",
    ("sub", "f64"): "{dst} = _mm256_sub_pd({a}, {b});",
    ("sub", "i32"): "{dst} = _mm256_sub_epi32({a}, {b});",
    ("sub", "i64"): "{dst} = _mm256_sub_epi64({a}, {b});",
    ("mul", "f32"): "{dst} = _mm256_mul_ps({a}, {b});",
    ("mul", "f64"): "{dst} = _mm256_mul_pd({a}, {b});",
    ("mul", "i32"): "{dst} = _mm256_mullo_epi32({a}, {b});",
    ("mul", "i64"): "{dst} = lo_mullo_i64x4({a}, {b});",
    ("div", "f32"): "{dst} = _mm256_div_ps({a}, {b});",
    ("div", "f64"): "{dst} = _mm256_div_pd({a}, {b});",
    ("fma", "f32"): "{dst} = _mm256_fmadd_ps({a}, {b}, {c});",
    ("fma", "f64"): "{dst} = _mm256_fmadd_pd({a}, {b}, {c});",
    ("sqrt", "f32"): "{dst} = _mm256_sqrt_ps({a});",
    ("sqrt", "f64"): "{dst} = _mm256_sqrt_pd({a});",
    ("neg", "f32"): "{dst} = _mm256_xor_ps({a}, _mm256_set1_ps(-0.0f));",
    ("neg", "f64"): "{dst} = _mm256_xor_pd({a}, _mm256_set1_pd(-0.0));",
    ("neg", "i32"): f"{{dst}} = _mm256_sub_epi32({_ZERO_I}, {{a}});",
    ("neg", "i64"): f"{{dst}} = _mm256_sub_epi64({_ZERO_I}, {{a}});",
    ("abs", "f32"): "{dst} = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), {a});",
    ("abs", "f64"): "{dst} = _mm256_andnot_pd(_mm256_set1_pd(-0.0), {a});",
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
    # bitwise and shifts (integers)
    ("and", "i32"): "{dst} = _mm256_and_si256({a}, {b});",
    ("and", "i64"): "{dst} = _mm256_and_si256({a}, {b});",
    ("or", "i32"): "{dst} = _mm256_or_si256({a}, {b});",
    ("or", "i64"): "{dst} = _mm256_or_si256({a}, {b});",
    ("xor", "i32"): "{dst} = _mm256_xor_si256({a}, {b});",
    ("xor", "i64"): "{dst} = _mm256_xor_si256({a}, {b});",
    ("shl", "i32"): "{dst} = _mm256_sllv_epi32({a}, {b});",
    ("shl", "i64"): "{dst} = _mm256_sllv_epi64({a}, {b});",
    ("shr", "i32"): "{dst} = _mm256_srav_epi32({a}, {b});",
    ("shr", "i64"): "{dst} = lo_shrs_i64x4({a}, {b});",
    ("shru", "i32"): "{dst} = _mm256_srlv_epi32({a}, {b});",
    ("shru", "i64"): "{dst} = _mm256_srlv_epi64({a}, {b});",
    # comparisons -> masks of all-ones lanes
    **{("cmp." + p, "f32"): f"{{dst}} = _mm256_castps_si256(_mm256_cmp_ps({{a}}, {{b}}, {c}));" for p, c in _FLOAT_CMP.items()},
    **{("cmp." + p, "f64"): f"{{dst}} = _mm256_castpd_si256(_mm256_cmp_pd({{a}}, {{b}}, {c}));" for p, c in _FLOAT_CMP.items()},
    ("cmp.eq", "i32"): "{dst} = _mm256_cmpeq_epi32({a}, {b});",
    ("cmp.ne", "i32"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpeq_epi32({{a}}, {{b}}), {_ONES});",
    ("cmp.sgt", "i32"): "{dst} = _mm256_cmpgt_epi32({a}, {b});",
    ("cmp.slt", "i32"): "{dst} = _mm256_cmpgt_epi32({b}, {a});",
    ("cmp.sle", "i32"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpgt_epi32({{a}}, {{b}}), {_ONES});",
    ("cmp.sge", "i32"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpgt_epi32({{b}}, {{a}}), {_ONES});",
    ("cmp.eq", "i64"): "{dst} = _mm256_cmpeq_epi64({a}, {b});",
    ("cmp.ne", "i64"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpeq_epi64({{a}}, {{b}}), {_ONES});",
    ("cmp.sgt", "i64"): "{dst} = _mm256_cmpgt_epi64({a}, {b});",
    ("cmp.slt", "i64"): "{dst} = _mm256_cmpgt_epi64({b}, {a});",
    ("cmp.sle", "i64"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpgt_epi64({{a}}, {{b}}), {_ONES});",
    ("cmp.sge", "i64"): f"{{dst}} = _mm256_xor_si256(_mm256_cmpgt_epi64({{b}}, {{a}}), {_ONES});",
    **_unsigned_cmp("i32"),
    **_unsigned_cmp("i64"),
    **mask_cmp_rows(("i1x8", "i1x4"), "_mm256_andnot_si256({x}, {y})", "_mm256_xor_si256", _ONES),
    # select: mask lanes pick {a}, others {b}
    ("select", "f32"): "{dst} = _mm256_blendv_ps({b}, {a}, _mm256_castsi256_ps({mask}));",
    ("select", "f64"): "{dst} = _mm256_blendv_pd({b}, {a}, _mm256_castsi256_pd({mask}));",
    ("select", "i32"): "{dst} = _mm256_blendv_epi8({b}, {a}, {mask});",
    ("select", "i64"): "{dst} = _mm256_blendv_epi8({b}, {a}, {mask});",
    # select(mask, a, +0): an AND with the all-ones lanes (one uop, where blendv takes two)
    ("select_zero", "f32"): "{dst} = _mm256_and_ps(_mm256_castsi256_ps({mask}), {a});",
    ("select_zero", "f64"): "{dst} = _mm256_and_pd(_mm256_castsi256_pd({mask}), {a});",
    ("select_zero", "i32"): "{dst} = _mm256_and_si256({mask}, {a});",
    ("select_zero", "i64"): "{dst} = _mm256_and_si256({mask}, {a});",
    # horizontal reductions (c_hreduce)
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});"
       for e, n in (("f32", 8), ("f64", 4)) for k in ("add", "mul", "min", "max")},
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});"
       for e, n in (("i32", 8), ("i64", 4)) for k in ("add", "mul", "min", "max", "and", "or")},
    # conversions (same lane count)
    ("convert.f32", "i32"): "{dst} = _mm256_cvtepi32_ps({a});",
    ("convert.i32", "f32"): "{dst} = lo_cvt_f32_i32x8({a});",  # saturating, NaN -> 0
    ("convert.f64", "i64"): "{dst} = lo_cvt_i64_f64x4({a});",
    ("convert.i64", "f64"): "{dst} = lo_cvt_f64_i64x4({a});",
    # lane construction
    ("iota", "i32"): "{dst} = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);",
    ("iota", "i64"): "{dst} = _mm256_setr_epi64x(0, 1, 2, 3);",
    ("prefix_mask", "i1x8"): "{dst} = _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)({a} < 0 ? 0 : {a} > 8 ? 8 : {a})), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));",
    ("prefix_mask", "i1x4"): "{dst} = _mm256_cmpgt_epi64(_mm256_set1_epi64x({a}), _mm256_setr_epi64x(0, 1, 2, 3));",
    # masks: all-ones lanes of 32 bits (8 lanes) or 64 bits (4 lanes)
    ("and", "i1x8"): "{dst} = _mm256_and_si256({a}, {b});",
    ("and", "i1x4"): "{dst} = _mm256_and_si256({a}, {b});",
    ("or", "i1x8"): "{dst} = _mm256_or_si256({a}, {b});",
    ("or", "i1x4"): "{dst} = _mm256_or_si256({a}, {b});",
    ("xor", "i1x8"): "{dst} = _mm256_xor_si256({a}, {b});",
    ("xor", "i1x4"): "{dst} = _mm256_xor_si256({a}, {b});",
    ("not", "i1x8"): f"{{dst}} = _mm256_xor_si256({{a}}, {_ONES});",
    ("not", "i1x4"): f"{{dst}} = _mm256_xor_si256({{a}}, {_ONES});",
    ("select", "i1x8"): "{dst} = _mm256_blendv_epi8({b}, {a}, {mask});",
    ("select", "i1x4"): "{dst} = _mm256_blendv_epi8({b}, {a}, {mask});",
    ("broadcast", "i1x8"): "{dst} = _mm256_set1_epi32(-(int32_t)({a}));",
    ("broadcast", "i1x4"): "{dst} = _mm256_set1_epi64x(-(int64_t)({a}));",
    ("popcount", "i1x8"): "{dst} = (int64_t)__builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps({a})));",
    ("popcount", "i1x4"): "{dst} = (int64_t)__builtin_popcount((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd({a})));",
}  # fmt: skip

AVX2 = IsaTable(
    name="avx2",
    includes=("immintrin.h",),
    lanes={"f32": 8, "f64": 4, "i32": 8, "i64": 4},
    vector_types={"f32": "__m256", "f64": "__m256d", "i32": "__m256i", "i64": "__m256i"},
    mask_types={8: "__m256i", 4: "__m256i"},
    rows=ROWS,
    cflags=("-mavx2", "-mfma"),
)
