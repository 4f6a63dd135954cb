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

from loopopt.targets.c_isa import IsaTable

_ONES = "_mm_set1_epi32(-1)"
_ZERO_I = "_mm_setzero_si128()"
_BIAS = {"i32": "_mm_set1_epi32(INT32_MIN)", "i64": "_mm_set1_epi64x(INT64_MIN)"}
_GT = {"i32": "_mm_cmpgt_epi32", "i64": "lo_cmpgt_i64x2"}


def _unsigned_cmp(e: str) -> dict[tuple[str, str], str]:
    """a <u b  ==  (a ^ MIN) <s (b ^ MIN)."""
    a, b, gt = f"_mm_xor_si128({{a}}, {_BIAS[e]})", f"_mm_xor_si128({{b}}, {_BIAS[e]})", _GT[e]
    return {
        ("cmp.ugt", e): f"{{dst}} = {gt}({a}, {b});",
        ("cmp.ult", e): f"{{dst}} = {gt}({b}, {a});",
        ("cmp.ule", e): f"{{dst}} = _mm_xor_si128({gt}({a}, {b}), {_ONES});",
        ("cmp.uge", e): f"{{dst}} = _mm_xor_si128({gt}({b}, {a}), {_ONES});",
    }


def mask_cmp_rows(masks: tuple[str, ...], andnot: str, xor: str, ones: str) -> dict[tuple[str, str], str]:
    """Integer compares of masks (`vector<Nxi1>`) held as all-ones lanes: as a signed integer
    true is -1 (true < false), as an unsigned one it is 1. `andnot(x, y)` is `~x & y`."""
    rows: dict[tuple[str, str], str] = {}
    for m in masks:
        not_ = lambda x: f"{xor}({x}, {ones})"  # noqa: E731
        a_not_b, b_not_a = andnot.format(x="{b}", y="{a}"), andnot.format(x="{a}", y="{b}")
        rows.update({
            ("cmp.eq", m): f"{{dst}} = {not_(xor + '({a}, {b})')};",
            ("cmp.ne", m): f"{{dst}} = {xor}({{a}}, {{b}});",
            ("cmp.slt", m): f"{{dst}} = {a_not_b};", ("cmp.ugt", m): f"{{dst}} = {a_not_b};",
            ("cmp.sgt", m): f"{{dst}} = {b_not_a};", ("cmp.ult", m): f"{{dst}} = {b_not_a};",
            ("cmp.sge", m): f"{{dst}} = {not_(a_not_b)};", ("cmp.ule", m): f"{{dst}} = {not_(a_not_b)};",
            ("cmp.sle", m): f"{{dst}} = {not_(b_not_a)};", ("cmp.uge", m): f"{{dst}} = {not_(b_not_a)};",
        })  # fmt: skip
    return rows

_FLOAT_CMP = {
    "oeq": "cmpeq", "ogt": "cmpgt", "oge": "cmpge", "olt": "cmplt", "ole": "cmple",
    "une": "cmpneq", "ugt": "cmpnle", "uge": "cmpnlt", "ult": "cmpnge", "ule": "cmpngt",
    "ord": "cmpord", "uno": "cmpunord",
}  # fmt: skip


def _float_cmp(suffix: str, cast: str) -> dict[tuple[str, str], str]:
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


ROWS: dict[tuple[str, str], str] = {
    # memory
    ("load", "f32"): "{dst} = _mm_loadu_ps(&{buf}[{idx}]);",
    ("load", "f64"): "{dst} = _mm_loadu_pd(&{buf}[{idx}]);",
    ("load", "i32"): "{dst} = _mm_loadu_si128((const __m128i *)&{buf}[{idx}]);",
    ("load", "i64"): "{dst} = _mm_loadu_si128((const __m128i *)&{buf}[{idx}]);",
    ("load_aligned", "f32"): "{dst} = _mm_load_ps(&{buf}[{idx}]);",
    ("load_aligned", "f64"): "{dst} = _mm_load_pd(&{buf}[{idx}]);",
    ("load_aligned", "i32"): "{dst} = _mm_load_si128((const __m128i *)&{buf}[{idx}]);",
    ("load_aligned", "i64"): "{dst} = _mm_load_si128((const __m128i *)&{buf}[{idx}]);",
    ("store", "f32"): "_mm_storeu_ps(&{buf}[{idx}], {value});",
    ("store", "f64"): "_mm_storeu_pd(&{buf}[{idx}], {value});",
    ("store", "i32"): "_mm_storeu_si128((__m128i *)&{buf}[{idx}], {value});",
    ("store", "i64"): "_mm_storeu_si128((__m128i *)&{buf}[{idx}], {value});",
    ("store_aligned", "f32"): "_mm_store_ps(&{buf}[{idx}], {value});",
    ("store_aligned", "f64"): "_mm_store_pd(&{buf}[{idx}], {value});",
    ("store_aligned", "i32"): "_mm_store_si128((__m128i *)&{buf}[{idx}], {value});",
    ("store_aligned", "i64"): "_mm_store_si128((__m128i *)&{buf}[{idx}], {value});",
    ("store_nt", "f32"): "_mm_stream_ps(&{buf}[{idx}], {value});",
    ("store_nt", "f64"): "_mm_stream_pd(&{buf}[{idx}], {value});",
    ("store_nt", "i32"): "_mm_stream_si128((__m128i *)&{buf}[{idx}], {value});",
    ("store_nt", "i64"): "_mm_stream_si128((__m128i *)&{buf}[{idx}], {value});",
    **{("masked_load", e): f"{{dst}} = lo_masked_load_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});"
       for e, n in (("f32", 4), ("f64", 2), ("i32", 4), ("i64", 2))},
    **{("masked_store", e): f"lo_masked_store_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});"
       for e, n in (("f32", 4), ("f64", 2), ("i32", 4), ("i64", 2))},
    **{("compress_store", e): f"{{dst}} = lo_compress_store_{e}x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
       for e, n in (("f32", 4), ("f64", 2), ("i32", 4), ("i64", 2))},
    **{("compress_store_full", e): f"{{dst}} = lo_compress_full_{e}x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
       for e, n in (("f32", 4), ("f64", 2), ("i32", 4), ("i64", 2))},
    ("store_fence", "none"): "_mm_sfence();",
    ("broadcast", "f32"): "{dst} = _mm_set1_ps({a});",
    ("broadcast", "f64"): "{dst} = _mm_set1_pd({a});",
    ("broadcast", "i32"): "{dst} = _mm_set1_epi32({a});",
    ("broadcast", "i64"): "{dst} = _mm_set1_epi64x({a});",
    # arithmetic
    ("add", "f32"): "{dst} = _mm_add_ps({a}, {b});",
    ("add", "f64"): "{dst} = _mm_add_pd({a}, {b});",
    ("add", "i32"): "{dst} = _mm_add_epi32({a}, {b});",
    ("add", "i64"): "{dst} = _mm_add_epi64({a}, {b});",
    ("sub", "f32"): "{dst} = _mm_sub_ps({a}, {b});",
    ("sub", "f64"): "{dst} = _mm_sub_pd({a}, {b});",
    ("sub", "i32"): "{dst} = _mm_sub_epi32({a}, {b});",
    ("sub", "i64"): "{dst} = _mm_sub_epi64({a}, {b});",
    ("mul", "f32"): "{dst} = _mm_mul_ps({a}, {b});",
    ("mul", "f64"): "{dst} = _mm_mul_pd({a}, {b});",
    ("mul", "i32"): "{dst} = lo_mullo_i32x4({a}, {b});",
    ("mul", "i64"): "{dst} = lo_mullo_i64x2({a}, {b});",
    ("div", "f32"): "{dst} = _mm_div_ps({a}, {b});",
    ("div", "f64"): "{dst} = _mm_div_pd({a}, {b});",
    ("fma", "f32"): "{dst} = lo_fma_f32x4({a}, {b}, {c});",
    ("fma", "f64"): "{dst} = lo_fma_f64x2({a}, {b}, {c});",
    ("sqrt", "f32"): "{dst} = _mm_sqrt_ps({a});",
    ("sqrt", "f64"): "{dst} = _mm_sqrt_pd({a});",
    ("neg", "f32"): "{dst} = _mm_xor_ps({a}, _mm_set1_ps(-0.0f));",
    ("neg", "f64"): "{dst} = _mm_xor_pd({a}, _mm_set1_pd(-0.0));",
    ("neg", "i32"): f"{{dst}} = _mm_sub_epi32({_ZERO_I}, {{a}});",
    ("neg", "i64"): f"{{dst}} = _mm_sub_epi64({_ZERO_I}, {{a}});",
    ("abs", "f32"): "{dst} = _mm_andnot_ps(_mm_set1_ps(-0.0f), {a});",
    ("abs", "f64"): "{dst} = _mm_andnot_pd(_mm_set1_pd(-0.0), {a});",
    ("abs", "i32"): "{dst} = lo_abs_i32x4({a});",
    ("abs", "i64"): "{dst} = lo_abs_i64x2({a});",
    ("min", "f32"): "{dst} = lo_min_f32x4({a}, {b});",
    ("min", "f64"): "{dst} = lo_min_f64x2({a}, {b});",
    ("max", "f32"): "{dst} = lo_max_f32x4({a}, {b});",
    ("max", "f64"): "{dst} = lo_max_f64x2({a}, {b});",
    ("minnum", "f32"): "{dst} = lo_minnum_f32x4({a}, {b});",
    ("minnum", "f64"): "{dst} = lo_minnum_f64x2({a}, {b});",
    ("maxnum", "f32"): "{dst} = lo_maxnum_f32x4({a}, {b});",
    ("maxnum", "f64"): "{dst} = lo_maxnum_f64x2({a}, {b});",
    ("min", "i32"): "{dst} = lo_min_i32x4({a}, {b});",
    ("max", "i32"): "{dst} = lo_max_i32x4({a}, {b});",
    ("min", "i64"): "{dst} = lo_min_i64x2({a}, {b});",
    ("max", "i64"): "{dst} = lo_max_i64x2({a}, {b});",
    # bitwise
    ("and", "i32"): "{dst} = _mm_and_si128({a}, {b});",
    ("and", "i64"): "{dst} = _mm_and_si128({a}, {b});",
    ("or", "i32"): "{dst} = _mm_or_si128({a}, {b});",
    ("or", "i64"): "{dst} = _mm_or_si128({a}, {b});",
    ("xor", "i32"): "{dst} = _mm_xor_si128({a}, {b});",
    ("xor", "i64"): "{dst} = _mm_xor_si128({a}, {b});",
    **{(op, e): f"{{dst}} = lo_{fn}_{e}x{n}({{a}}, {{b}});"
       for op, fn in (("shl", "shl"), ("shr", "shrs"), ("shru", "shru")) for e, n in (("i32", 4), ("i64", 2))},
    # comparisons -> masks of all-ones lanes
    **_float_cmp("ps", "_mm_castps_si128"),
    **_float_cmp("pd", "_mm_castpd_si128"),
    ("cmp.eq", "i32"): "{dst} = _mm_cmpeq_epi32({a}, {b});",
    ("cmp.ne", "i32"): f"{{dst}} = _mm_xor_si128(_mm_cmpeq_epi32({{a}}, {{b}}), {_ONES});",
    ("cmp.sgt", "i32"): "{dst} = _mm_cmpgt_epi32({a}, {b});",
    ("cmp.slt", "i32"): "{dst} = _mm_cmplt_epi32({a}, {b});",
    ("cmp.sle", "i32"): f"{{dst}} = _mm_xor_si128(_mm_cmpgt_epi32({{a}}, {{b}}), {_ONES});",
    ("cmp.sge", "i32"): f"{{dst}} = _mm_xor_si128(_mm_cmplt_epi32({{a}}, {{b}}), {_ONES});",
    ("cmp.eq", "i64"): "{dst} = lo_cmpeq_i64x2({a}, {b});",
    ("cmp.ne", "i64"): f"{{dst}} = _mm_xor_si128(lo_cmpeq_i64x2({{a}}, {{b}}), {_ONES});",
    ("cmp.sgt", "i64"): "{dst} = lo_cmpgt_i64x2({a}, {b});",
    ("cmp.slt", "i64"): "{dst} = lo_cmpgt_i64x2({b}, {a});",
    ("cmp.sle", "i64"): f"{{dst}} = _mm_xor_si128(lo_cmpgt_i64x2({{a}}, {{b}}), {_ONES});",
    ("cmp.sge", "i64"): f"{{dst}} = _mm_xor_si128(lo_cmpgt_i64x2({{b}}, {{a}}), {_ONES});",
    **_unsigned_cmp("i32"),
    **_unsigned_cmp("i64"),
    **mask_cmp_rows(("i1x4", "i1x2"), "_mm_andnot_si128({x}, {y})", "_mm_xor_si128", _ONES),
    # select = (mask & a) | (~mask & b): no blendv before SSE4.1
    ("select", "f32"): "{dst} = _mm_or_ps(_mm_and_ps(_mm_castsi128_ps({mask}), {a}), _mm_andnot_ps(_mm_castsi128_ps({mask}), {b}));",
    ("select", "f64"): "{dst} = _mm_or_pd(_mm_and_pd(_mm_castsi128_pd({mask}), {a}), _mm_andnot_pd(_mm_castsi128_pd({mask}), {b}));",
    ("select", "i32"): "{dst} = _mm_or_si128(_mm_and_si128({mask}, {a}), _mm_andnot_si128({mask}, {b}));",
    ("select", "i64"): "{dst} = _mm_or_si128(_mm_and_si128({mask}, {a}), _mm_andnot_si128({mask}, {b}));",
    # select(mask, a, +0): the AND alone
    ("select_zero", "f32"): "{dst} = _mm_and_ps(_mm_castsi128_ps({mask}), {a});",
    ("select_zero", "f64"): "{dst} = _mm_and_pd(_mm_castsi128_pd({mask}), {a});",
    ("select_zero", "i32"): "{dst} = _mm_and_si128({mask}, {a});",
    ("select_zero", "i64"): "{dst} = _mm_and_si128({mask}, {a});",
    # horizontal reductions (c_hreduce)
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});"
       for e, n in (("f32", 4), ("f64", 2)) for k in ("add", "mul", "min", "max")},
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});"
       for e, n in (("i32", 4), ("i64", 2)) for k in ("add", "mul", "min", "max", "and", "or")},
    # conversions (same lane count)
    ("convert.f32", "i32"): "{dst} = _mm_cvtepi32_ps({a});",
    ("convert.i32", "f32"): "{dst} = lo_cvt_f32_i32x4({a});",  # saturating, NaN -> 0
    ("convert.f64", "i64"): "{dst} = lo_cvt_i64_f64x2({a});",
    ("convert.i64", "f64"): "{dst} = lo_cvt_f64_i64x2({a});",
    # lane construction
    ("iota", "i32"): "{dst} = _mm_setr_epi32(0, 1, 2, 3);",
    ("iota", "i64"): "{dst} = _mm_set_epi64x(1, 0);",
    ("prefix_mask", "i1x4"): "{dst} = _mm_cmpgt_epi32(_mm_set1_epi32((int32_t)({a} < 0 ? 0 : {a} > 4 ? 4 : {a})), _mm_setr_epi32(0, 1, 2, 3));",
    ("prefix_mask", "i1x2"): "{dst} = _mm_set_epi64x(-(int64_t)({a} > 1), -(int64_t)({a} > 0));",
    # masks: all-ones lanes of 32 bits (4 lanes) or 64 bits (2 lanes)
    ("and", "i1x4"): "{dst} = _mm_and_si128({a}, {b});",
    ("and", "i1x2"): "{dst} = _mm_and_si128({a}, {b});",
    ("or", "i1x4"): "{dst} = _mm_or_si128({a}, {b});",
    ("or", "i1x2"): "{dst} = _mm_or_si128({a}, {b});",
    ("xor", "i1x4"): "{dst} = _mm_xor_si128({a}, {b});",
    ("xor", "i1x2"): "{dst} = _mm_xor_si128({a}, {b});",
    ("not", "i1x4"): f"{{dst}} = _mm_xor_si128({{a}}, {_ONES});",
    ("not", "i1x2"): f"{{dst}} = _mm_xor_si128({{a}}, {_ONES});",
    ("select", "i1x4"): "{dst} = _mm_or_si128(_mm_and_si128({mask}, {a}), _mm_andnot_si128({mask}, {b}));",
    ("select", "i1x2"): "{dst} = _mm_or_si128(_mm_and_si128({mask}, {a}), _mm_andnot_si128({mask}, {b}));",
    ("broadcast", "i1x4"): "{dst} = _mm_set1_epi32(-(int32_t)({a}));",
    ("broadcast", "i1x2"): "{dst} = _mm_set1_epi64x(-(int64_t)({a}));",
    # no popcnt instruction in SSE2 (__builtin_popcount is a libgcc call): nibble k of the constant is popcount(k)
    ("popcount", "i1x4"): "{dst} = (int64_t)((0x4332322132212110ull >> (4 * _mm_movemask_ps(_mm_castsi128_ps({a})))) & 15u);",
    ("popcount", "i1x2"): "{dst} = (int64_t)((0x4332322132212110ull >> (4 * _mm_movemask_pd(_mm_castsi128_pd({a})))) & 15u);",
}  # fmt: skip

SSE2 = IsaTable(
    name="sse2",
    includes=("emmintrin.h",),
    lanes={"f32": 4, "f64": 2, "i32": 4, "i64": 2},
    vector_types={"f32": "__m128", "f64": "__m128d", "i32": "__m128i", "i64": "__m128i"},
    mask_types={4: "__m128i", 2: "__m128i"},
    rows=ROWS,
    cflags=("-msse2",),
)
