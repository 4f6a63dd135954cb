"""AVX-512 F/BW/VL/DQ intrinsic table: 512-bit vectors, `vector<Nxi1>` masks as `__mmaskN`.

Comparisons produce mask registers, blends/masked accesses take them directly, compaction is
`_mm512_mask_compressstoreu_*`. 64-bit multiply and i64<->f64 conversion come from DQ. x86
min/max return the second operand on NaN, so float min/max blend a NaN first operand back in.
Integer arithmetic wraps: the intrinsics used are unsigned lane arithmetic, and integer sum and
product reductions are written as halving trees of `_mm*_add_epi*`/`_mm*_mullo_epi*` (c_hreduce),
never `_mm512_reduce_add_epi32/64`, whose header adds signed lanes (undefined on overflow).
Variable shifts read the amount as unsigned; float -> int saturates with NaN -> 0.

Compaction has two forms because its cost depends on the CPU, not the ISA: `vcompress` to
memory (`compress_store*`, `_mm512_mask_compressstoreu_*`) is a few cycles on Intel but
microcoded on AMD Zen 4 (~80 cycles each), where compressing in a register
(`_mm512_maskz_compress_*`, ~2 cycles) and storing it is far faster. `compress_store_reg`
stores the first popcount(mask) lanes with a masked store; `compress_store_full_reg` stores the
whole register (the caller guarantees W lanes of room). Both set `{dst}` to the count.
"""

from __future__ import annotations

from loopopt.targets.c_isa import IsaTable

_FLOAT_CMP = {
    "oeq": "_CMP_EQ_OQ", "ogt": "_CMP_GT_OQ", "oge": "_CMP_GE_OQ", "olt": "_CMP_LT_OQ",
    "ole": "_CMP_LE_OQ", "one": "_CMP_NEQ_OQ", "ord": "_CMP_ORD_Q", "ueq": "_CMP_EQ_UQ",
    "ugt": "_CMP_NLE_UQ", "uge": "_CMP_NLT_UQ", "ult": "_CMP_NGE_UQ", "ule": "_CMP_NGT_UQ",
    "une": "_CMP_NEQ_UQ", "uno": "_CMP_UNORD_Q",
}  # fmt: skip

_INT_CMP = {
    "eq": "_MM_CMPINT_EQ", "ne": "_MM_CMPINT_NE", "slt": "_MM_CMPINT_LT",
    "sle": "_MM_CMPINT_LE", "sgt": "_MM_CMPINT_NLE", "sge": "_MM_CMPINT_NLT",
}  # fmt: skip
_UINT_CMP = {"ult": "_MM_CMPINT_LT", "ule": "_MM_CMPINT_LE", "ugt": "_MM_CMPINT_NLE", "uge": "_MM_CMPINT_NLT"}


def _mask_cmp_rows() -> dict[tuple[str, str], str]:
    """Integer compares of `__mmaskN` masks: as a signed integer true is -1 (true < false), as
    an unsigned one it is 1."""
    rows: dict[tuple[str, str], str] = {}
    for n, t in ((16, "__mmask16"), (8, "__mmask8")):
        exprs = {
            "eq": "~({a} ^ {b})", "ne": "{a} ^ {b}",
            "slt": "{a} & ~{b}", "ugt": "{a} & ~{b}", "sgt": "~{a} & {b}", "ult": "~{a} & {b}",
            "sge": "~{a} | {b}", "ule": "~{a} | {b}", "sle": "{a} | ~{b}", "uge": "{a} | ~{b}",
        }  # fmt: skip
        rows.update({(f"cmp.{p}", f"i1x{n}"): f"{{dst}} = ({t})({e});" for p, e in exprs.items()})
    return rows

# (element, lanes, suffix of arithmetic intrinsics, mask type)
_TYPES = (("f32", 16, "ps", "__mmask16"), ("f64", 8, "pd", "__mmask8"),
          ("i32", 16, "epi32", "__mmask16"), ("i64", 8, "epi64", "__mmask8"))  # fmt: skip

ROWS: dict[tuple[str, str], str] = {
    # memory
    ("load", "f32"): "{dst} = _mm512_loadu_ps(&{buf}[{idx}]);",
    ("load", "f64"): "{dst} = _mm512_loadu_pd(&{buf}[{idx}]);",
    ("load", "i32"): "{dst} = _mm512_loadu_si512(&{buf}[{idx}]);",
    ("load", "i64"): "{dst} = _mm512_loadu_si512(&{buf}[{idx}]);",
    ("load_aligned", "f32"): "{dst} = _mm512_load_ps(&{buf}[{idx}]);",
    ("load_aligned", "f64"): "{dst} = _mm512_load_pd(&{buf}[{idx}]);",
    ("load_aligned", "i32"): "{dst} = _mm512_load_si512(&{buf}[{idx}]);",
    ("load_aligned", "i64"): "{dst} = _mm512_load_si512(&{buf}[{idx}]);",
    ("store", "f32"): "_mm512_storeu_ps(&{buf}[{idx}], {value});",
    ("store", "f64"): "_mm512_storeu_pd(&{buf}[{idx}], {value});",
    ("store", "i32"): "_mm512_storeu_si512(&{buf}[{idx}], {value});",
    ("store", "i64"): "_mm512_storeu_si512(&{buf}[{idx}], {value});",
    ("store_aligned", "f32"): "_mm512_store_ps(&{buf}[{idx}], {value});",
    ("store_aligned", "f64"): "_mm512_store_pd(&{buf}[{idx}], {value});",
    ("store_aligned", "i32"): "_mm512_store_si512(&{buf}[{idx}], {value});",
    ("store_aligned", "i64"): "_mm512_store_si512(&{buf}[{idx}], {value});",
    # _mm512_stream_* require 64-byte alignment: only aligned non-temporal stores map here.
    ("store_nt", "f32"): "_mm512_stream_ps(&{buf}[{idx}], {value});",
    ("store_nt", "f64"): "_mm512_stream_pd(&{buf}[{idx}], {value});",
    ("store_nt", "i32"): "_mm512_stream_si512((void *)&{buf}[{idx}], {value});",
    ("store_nt", "i64"): "_mm512_stream_si512((void *)&{buf}[{idx}], {value});",
    **{("masked_load", e): f"{{dst}} = _mm512_mask_loadu_{s}({{passthru}}, {{mask}}, &{{buf}}[{{idx}}]);" for e, _, s, _ in _TYPES},
    **{("masked_store", e): f"_mm512_mask_storeu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}});" for e, _, s, _ in _TYPES},
    **{("compress_store", e): (f"_mm512_mask_compressstoreu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}}); "
                               "{dst} = (int64_t)__builtin_popcount((unsigned)({mask}));") for e, _, s, _ in _TYPES},
    # vcompress to memory writes only the active lanes; measured faster here than a register
    # compress + full 64-byte store, so `full` changes nothing on AVX-512
    **{("compress_store_full", e): (f"_mm512_mask_compressstoreu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}}); "
                                    "{dst} = (int64_t)__builtin_popcount((unsigned)({mask}));") for e, _, s, _ in _TYPES},
    # compress in a register, then store (not selected yet: the choice is per CPU, see the docstring).
    # `full`: one full-width store (the caller guarantees W lanes of room); otherwise a masked
    # store of the first popcount(mask) lanes.
    **{("compress_store_reg", e): ("{dst} = (int64_t)__builtin_popcount((unsigned)({mask})); "
                                   f"_mm512_mask_storeu_{s}(&{{buf}}[{{idx}}], ({m})((1u << {{dst}}) - 1u), "
                                   f"_mm512_maskz_compress_{s}({{mask}}, {{value}}));") for e, _, s, m in _TYPES},
    **{("compress_store_full_reg", e): (f"_mm512_storeu_{'si512' if e[0] == 'i' else s}(&{{buf}}[{{idx}}], "
                                        f"_mm512_maskz_compress_{s}({{mask}}, {{value}})); "
                                        "{dst} = (int64_t)__builtin_popcount((unsigned)({mask}));") for e, _, s, _ in _TYPES},
    ("store_fence", "none"): "_mm_sfence();",
    ("broadcast", "f32"): "{dst} = _mm512_set1_ps({a});",
    ("broadcast", "f64"): "{dst} = _mm512_set1_pd({a});",
    ("broadcast", "i32"): "{dst} = _mm512_set1_epi32({a});",
    ("broadcast", "i64"): "{dst} = _mm512_set1_epi64({a});",
    # arithmetic
    **{("add", e): f"{{dst}} = _mm512_add_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES},
    **{("sub", e): f"{{dst}} = _mm512_sub_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES},
    ("mul", "f32"): "{dst} = _mm512_mul_ps({a}, {b});",
    ("mul", "f64"): "{dst} = _mm512_mul_pd({a}, {b});",
    ("mul", "i32"): "{dst} = _mm512_mullo_epi32({a}, {b});",
    ("mul", "i64"): "{dst} = _mm512_mullo_epi64({a}, {b});",
    ("div", "f32"): "{dst} = _mm512_div_ps({a}, {b});",
    ("div", "f64"): "{dst} = _mm512_div_pd({a}, {b});",
    ("fma", "f32"): "{dst} = _mm512_fmadd_ps({a}, {b}, {c});",
    ("fma", "f64"): "{dst} = _mm512_fmadd_pd({a}, {b}, {c});",
    ("sqrt", "f32"): "{dst} = _mm512_sqrt_ps({a});",
    ("sqrt", "f64"): "{dst} = _mm512_sqrt_pd({a});",
    ("neg", "f32"): "{dst} = _mm512_xor_ps({a}, _mm512_set1_ps(-0.0f));",
    ("neg", "f64"): "{dst} = _mm512_xor_pd({a}, _mm512_set1_pd(-0.0));",
    ("neg", "i32"): "{dst} = _mm512_sub_epi32(_mm512_setzero_si512(), {a});",
    ("neg", "i64"): "{dst} = _mm512_sub_epi64(_mm512_setzero_si512(), {a});",
    ("abs", "f32"): "{dst} = _mm512_abs_ps({a});",
    ("abs", "f64"): "{dst} = _mm512_abs_pd({a});",
    ("abs", "i32"): "{dst} = _mm512_abs_epi32({a});",
    ("abs", "i64"): "{dst} = _mm512_abs_epi64({a});",
    ("min", "f32"): "{dst} = _mm512_mask_blend_ps(_mm512_cmp_ps_mask({a}, {a}, _CMP_UNORD_Q), _mm512_min_ps({a}, {b}), {a});",
    ("min", "f64"): "{dst} = _mm512_mask_blend_pd(_mm512_cmp_pd_mask({a}, {a}, _CMP_UNORD_Q), _mm512_min_pd({a}, {b}), {a});",
    ("max", "f32"): "{dst} = _mm512_mask_blend_ps(_mm512_cmp_ps_mask({a}, {a}, _CMP_UNORD_Q), _mm512_max_ps({a}, {b}), {a});",
    ("max", "f64"): "{dst} = _mm512_mask_blend_pd(_mm512_cmp_pd_mask({a}, {a}, _CMP_UNORD_Q), _mm512_max_pd({a}, {b}), {a});",
    ("minnum", "f32"): "{dst} = _mm512_mask_blend_ps(_mm512_cmp_ps_mask({b}, {b}, _CMP_UNORD_Q), _mm512_min_ps({a}, {b}), {a});",
    ("minnum", "f64"): "{dst} = _mm512_mask_blend_pd(_mm512_cmp_pd_mask({b}, {b}, _CMP_UNORD_Q), _mm512_min_pd({a}, {b}), {a});",
    ("maxnum", "f32"): "{dst} = _mm512_mask_blend_ps(_mm512_cmp_ps_mask({b}, {b}, _CMP_UNORD_Q), _mm512_max_ps({a}, {b}), {a});",
    ("maxnum", "f64"): "{dst} = _mm512_mask_blend_pd(_mm512_cmp_pd_mask({b}, {b}, _CMP_UNORD_Q), _mm512_max_pd({a}, {b}), {a});",
    ("min", "i32"): "{dst} = _mm512_min_epi32({a}, {b});",
    ("max", "i32"): "{dst} = _mm512_max_epi32({a}, {b});",
    ("min", "i64"): "{dst} = _mm512_min_epi64({a}, {b});",
    ("max", "i64"): "{dst} = _mm512_max_epi64({a}, {b});",
    # bitwise and shifts (integers)
    **{("and", e): f"{{dst}} = _mm512_and_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    **{("or", e): f"{{dst}} = _mm512_or_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    **{("xor", e): f"{{dst}} = _mm512_xor_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    ("shl", "i32"): "{dst} = _mm512_sllv_epi32({a}, {b});",
    ("shl", "i64"): "{dst} = _mm512_sllv_epi64({a}, {b});",
    ("shr", "i32"): "{dst} = _mm512_srav_epi32({a}, {b});",
    ("shr", "i64"): "{dst} = _mm512_srav_epi64({a}, {b});",
    ("shru", "i32"): "{dst} = _mm512_srlv_epi32({a}, {b});",
    ("shru", "i64"): "{dst} = _mm512_srlv_epi64({a}, {b});",
    # comparisons -> mask registers
    **{("cmp." + p, "f32"): f"{{dst}} = _mm512_cmp_ps_mask({{a}}, {{b}}, {c});" for p, c in _FLOAT_CMP.items()},
    **{("cmp." + p, "f64"): f"{{dst}} = _mm512_cmp_pd_mask({{a}}, {{b}}, {c});" for p, c in _FLOAT_CMP.items()},
    **{("cmp." + p, "i32"): f"{{dst}} = _mm512_cmp_epi32_mask({{a}}, {{b}}, {c});" for p, c in _INT_CMP.items()},
    **{("cmp." + p, "i64"): f"{{dst}} = _mm512_cmp_epi64_mask({{a}}, {{b}}, {c});" for p, c in _INT_CMP.items()},
    **{("cmp." + p, "i32"): f"{{dst}} = _mm512_cmp_epu32_mask({{a}}, {{b}}, {c});" for p, c in _UINT_CMP.items()},
    **{("cmp." + p, "i64"): f"{{dst}} = _mm512_cmp_epu64_mask({{a}}, {{b}}, {c});" for p, c in _UINT_CMP.items()},
    **_mask_cmp_rows(),
    # select: mask lanes pick {a} (blend takes the second source where the mask is set)
    **{("select", e): f"{{dst}} = _mm512_mask_blend_{s}({{mask}}, {{b}}, {{a}});" for e, _, s, _ in _TYPES},
    # select(mask, a, +0): a zero-masking move
    **{("select_zero", e): f"{{dst}} = _mm512_maskz_mov_{s}({{mask}}, {{a}});" for e, _, s, _ in _TYPES},
    # horizontal reductions: the compiler's _mm512_reduce_* where they are exact and defined;
    # NaN-aware float min/max and the wrapping integer sum/product go through helpers
    ("hreduce.add", "f32"): "{dst} = _mm512_reduce_add_ps({a});",
    ("hreduce.add", "f64"): "{dst} = _mm512_reduce_add_pd({a});",
    ("hreduce.mul", "f32"): "{dst} = _mm512_reduce_mul_ps({a});",
    ("hreduce.mul", "f64"): "{dst} = _mm512_reduce_mul_pd({a});",
    ("hreduce.min", "f32"): "{dst} = lo_hreduce_min_f32x16({a});",
    ("hreduce.min", "f64"): "{dst} = lo_hreduce_min_f64x8({a});",
    ("hreduce.max", "f32"): "{dst} = lo_hreduce_max_f32x16({a});",
    ("hreduce.max", "f64"): "{dst} = lo_hreduce_max_f64x8({a});",
    **{(f"hreduce.{k}", "i32"): f"{{dst}} = _mm512_reduce_{k}_epi32({{a}});" for k in ("min", "max", "and", "or")},
    **{(f"hreduce.{k}", "i64"): f"{{dst}} = _mm512_reduce_{k}_epi64({{a}});" for k in ("min", "max", "and", "or")},
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});" for k in ("add", "mul") for e, n in (("i32", 16), ("i64", 8))},
    # conversions (same lane count)
    ("convert.f32", "i32"): "{dst} = _mm512_cvtepi32_ps({a});",
    ("convert.i32", "f32"): "{dst} = lo_cvt_f32_i32x16({a});",  # saturating, NaN -> 0
    ("convert.f64", "i64"): "{dst} = _mm512_cvtepi64_pd({a});",
    ("convert.i64", "f64"): "{dst} = lo_cvt_f64_i64x8({a});",
    # lane construction
    ("iota", "i32"): "{dst} = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);",
    ("iota", "i64"): "{dst} = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);",
    ("prefix_mask", "i1x16"): "{dst} = (__mmask16)({a} <= 0 ? 0u : {a} >= 16 ? 0xFFFFu : (1u << {a}) - 1u);",
    ("prefix_mask", "i1x8"): "{dst} = (__mmask8)({a} <= 0 ? 0u : {a} >= 8 ? 0xFFu : (1u << {a}) - 1u);",
    # masks are integers: C operators, cast back to the mask width
    **{(op, f"i1x{n}"): f"{{dst}} = ({t})({{a}} {c} {{b}});"
       for n, t in ((16, "__mmask16"), (8, "__mmask8")) for op, c in (("and", "&"), ("or", "|"), ("xor", "^"))},
    ("not", "i1x16"): "{dst} = (__mmask16)~{a};",
    ("not", "i1x8"): "{dst} = (__mmask8)~{a};",
    ("select", "i1x16"): "{dst} = (__mmask16)(({mask} & {a}) | (~{mask} & {b}));",
    ("select", "i1x8"): "{dst} = (__mmask8)(({mask} & {a}) | (~{mask} & {b}));",
    ("broadcast", "i1x16"): "{dst} = (__mmask16)({a} ? 0xFFFF : 0);",
    ("broadcast", "i1x8"): "{dst} = (__mmask8)({a} ? 0xFF : 0);",
    ("popcount", "i1x16"): "{dst} = (int64_t)__builtin_popcount((unsigned){a});",
    ("popcount", "i1x8"): "{dst} = (int64_t)__builtin_popcount((unsigned){a});",
}  # fmt: skip

AVX512 = IsaTable(
    name="avx512",
    includes=("immintrin.h",),
    lanes={"f32": 16, "f64": 8, "i32": 16, "i64": 8},
    vector_types={"f32": "__m512", "f64": "__m512d", "i32": "__m512i", "i64": "__m512i"},
    mask_types={16: "__mmask16", 8: "__mmask8"},
    rows=ROWS,
    cflags=("-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq"),
)
