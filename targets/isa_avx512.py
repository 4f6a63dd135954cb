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
(`_mm512_mask_compress_*` into the value itself, ~2 cycles) and storing it is far faster.
`compress_store_full_reg` stores the whole register (the caller guarantees W lanes of room) and
sets `{dst}` to the count. (A `compress_store_reg` row for the exact form was dropped in session
23: every compress the lowering emits is `full` or `limit`ed, so nothing selected it.)
"""

from __future__ import annotations

from loopopt.dialects.split_halves import SPLIT_ELEMENTS
from loopopt.targets.isa_x86 import AVX512_X86, SUFFIX, Rows, float_cmp_rows, fma_rows, helper_hreduce_rows
from loopopt.targets.isa_x86 import variable_shift_rows, x86_rows

_INT_CMP = {
    "eq": "_MM_CMPINT_EQ", "ne": "_MM_CMPINT_NE", "slt": "_MM_CMPINT_LT",
    "sle": "_MM_CMPINT_LE", "sgt": "_MM_CMPINT_NLE", "sge": "_MM_CMPINT_NLT",
}  # fmt: skip
_UINT_CMP = {"ult": "_MM_CMPINT_LT", "ule": "_MM_CMPINT_LE", "ugt": "_MM_CMPINT_NLE", "uge": "_MM_CMPINT_NLT"}


def _mask_cmp_rows() -> Rows:
    """Integer compares of `__mmaskN` masks: as a signed integer true is -1 (true < false), as
    an unsigned one it is 1."""
    rows: Rows = {}
    for n, t in ((16, "__mmask16"), (8, "__mmask8")):
        exprs = {
            "eq": "~({a} ^ {b})", "ne": "{a} ^ {b}",
            "slt": "{a} & ~{b}", "ugt": "{a} & ~{b}", "sgt": "~{a} & {b}", "ult": "~{a} & {b}",
            "sge": "~{a} | {b}", "ule": "~{a} | {b}", "sle": "{a} | ~{b}", "uge": "{a} | ~{b}",
        }  # fmt: skip
        rows.update({(f"cmp.{p}", f"i1x{n}"): f"{{dst}} = ({t})({e});" for p, e in exprs.items()})
    return rows


def _half_load_rows() -> Rows:
    """`load_halves`: _mm512_insertf32x8 _mm512_insertf64x4 _mm512_inserti32x8 _mm512_inserti64x4
    of two _mm256_loadu_* halves."""
    half = {"f32": ("ps", "f32x8", "8"), "f64": ("pd", "f64x4", "4"), "i32": ("si256", "i32x8", "8"), "i64": ("si256", "i64x4", "4")}
    rows: Rows = {}
    for e, (s, ins, n) in half.items():
        cast = "_mm512_castsi256_si512" if e[0] == "i" else f"_mm512_cast{s}256_{s}512"
        ptr = "(const __m256i *)" if e[0] == "i" else ""
        lo, hi = f"_mm256_loadu_{s}({ptr}&{{buf}}[{{idx}}])", f"_mm256_loadu_{s}({ptr}&{{buf}}[({{idx}}) + {n}])"
        kind = "i" if e[0] == "i" else "f"
        rows[("load_halves", e)] = f"{{dst}} = _mm512_insert{kind}{ins[1:]}({cast}({lo}), {hi}, 1);"
    return rows


def _quarter_load_rows() -> Rows:
    """`load_quarters`: three _mm512_insert{f32x4,f64x2,i32x4,i64x2} of four _mm_loadu_* quarters
    (f64x2 / i64x2 are AVX-512DQ, in this target's flags)."""
    quarter = {"f32": ("ps", "f32x4", 4), "f64": ("pd", "f64x2", 2), "i32": ("si128", "i32x4", 4), "i64": ("si128", "i64x2", 2)}
    rows: Rows = {}
    for e, (s, ins, n) in quarter.items():
        cast = "_mm512_castsi128_si512" if e[0] == "i" else f"_mm512_cast{s}128_{s}512"
        ptr = "(const __m128i *)" if e[0] == "i" else ""
        q = [f"_mm_loadu_{s}({ptr}&{{buf}}[{'{idx}' if not k else f'({{idx}}) + {k * n}'}])" for k in range(4)]
        kind = "i" if e[0] == "i" else "f"
        v = f"{cast}({q[0]})"
        for k in (1, 2, 3):
            v = f"_mm512_insert{kind}{ins[1:]}({v}, {q[k]}, {k})"
        rows[("load_quarters", e)] = f"{{dst}} = {v};"
    return rows


def _split_rows() -> Rows:
    """`half_lo` / `half_hi` / `join_halves`: a 512-bit vector's 256-bit halves and back (the
    accumulators of a `loop.split_halves` loop, c_print_loops; AVX-512F/DQ)."""
    half = {"f32": ("ps", "f32x8"), "f64": ("pd", "f64x4"), "i32": ("si", "i32x8"), "i64": ("si", "i64x4")}
    rows: Rows = {}
    for e in SPLIT_ELEMENTS:  # the verifier's list (dialects/split_halves.py)
        s, ins = half[e]
        kind = "i" if e[0] == "i" else "f"
        ext = f"_mm512_extract{kind}{ins[1:]}_" + (f"epi{e[1:]}" if kind == "i" else s)
        rows[("half_lo", e)] = f"{{dst}} = _mm512_cast{s}512_{s}256({{a}});"
        rows[("half_hi", e)] = f"{{dst}} = {ext}({{a}}, 1);"
        rows[("join_halves", e)] = f"{{dst}} = _mm512_insert{kind}{ins[1:]}(_mm512_cast{s}256_{s}512({{a}}), {{b}}, 1);"
    return rows


# element -> (suffix of its intrinsics, its mask type): _mm512_mask_loadu_ps takes a __mmask16
_TYPES = {e: (SUFFIX[e], AVX512_X86.mask_type(AVX512_X86.lanes(e))) for e in ("f32", "f64", "i32", "i64")}
_COUNT = "{dst} = (int64_t)__builtin_popcount((unsigned)({mask}));"

ROWS: Rows = {
    # isa_x86: loads/stores, broadcast, add/sub/neg, float mul/div/sqrt, conversions; fma; shifts.
    # _mm512_stream_* require 64-byte alignment: only aligned non-temporal stores map to store_nt.
    **x86_rows(AVX512_X86),
    **fma_rows(AVX512_X86),
    **variable_shift_rows(AVX512_X86),
    **{("masked_load", e): f"{{dst}} = _mm512_mask_loadu_{s}({{passthru}}, {{mask}}, &{{buf}}[{{idx}}]);" for e, (s, _) in _TYPES.items()},
    # simd.load `halves`: two 256-bit loads, the high one inserted (AVX-512F/DQ, a load+shuffle
    # uop); Zen 4 runs maps from beyond the L2 faster so (CpuModel.half_load_bytes)
    **_half_load_rows(),
    **_quarter_load_rows(),
    # a fold's accumulators split into 256-bit halves before its loop beyond the L2, joined after
    **_split_rows(),
    **{("masked_store", e): f"_mm512_mask_storeu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}});" for e, (s, _) in _TYPES.items()},
    # gathers (simd.gather; lane-wise form: c_gather): inactive lanes keep {passthru} and are not read
    ("gather.i32", "f32"): "{dst} = _mm512_mask_i32gather_ps({passthru}, {mask}, {idx}, {buf}, 4);",
    ("gather.i64", "f64"): "{dst} = _mm512_mask_i64gather_pd({passthru}, {mask}, {idx}, {buf}, 8);",
    ("gather.i32", "i32"): "{dst} = _mm512_mask_i32gather_epi32({passthru}, {mask}, {idx}, {buf}, 4);",
    ("gather.i64", "i64"): "{dst} = _mm512_mask_i64gather_epi64({passthru}, {mask}, {idx}, {buf}, 8);",
    **{("compress_store", e): f"_mm512_mask_compressstoreu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}}); {_COUNT}"
       for e, (s, _) in _TYPES.items()},
    # vcompress to memory writes only the active lanes; measured faster on Intel than a register
    # compress + full 64-byte store, so `full` changes nothing here (Zen 4: the *_reg rows below)
    **{("compress_store_full", e): f"_mm512_mask_compressstoreu_{s}(&{{buf}}[{{idx}}], {{mask}}, {{value}}); {_COUNT}"
       for e, (s, _) in _TYPES.items()},
    # compress in a register, then one full-width store (the caller guarantees W lanes of room;
    # chosen per CPU, see the docstring). The compress merges into {value} itself (lanes past the
    # count are never read): with `maskz` gcc gives every compress of a loop one destination
    # register and Zen 4 chained them through it (filter f32 at 1 Ki 237 -> 145 cycles, issue 11).
    # An exact store never uses a register form: the lowering's exact compresses carry a `limit`
    # and are printed through this row into a spill (c_print_simd._spilled_compress_store).
    **{("compress_store_full_reg", e): (f"_mm512_storeu_{'si512' if e[0] == 'i' else s}(&{{buf}}[{{idx}}], "
                                        f"_mm512_mask_compress_{s}({{value}}, {{mask}}, {{value}})); {_COUNT}") for e, (s, _) in _TYPES.items()},
    # DQ: 64-bit multiply and i64 -> f64; F: integer abs/min/max of both widths
    ("mul", "i32"): "{dst} = _mm512_mullo_epi32({a}, {b});",
    ("mul", "i64"): "{dst} = _mm512_mullo_epi64({a}, {b});",
    ("convert.f64", "i64"): "{dst} = _mm512_cvtepi64_pd({a});",
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
    # integer bitwise: per element width (_mm512_and_epi32, _mm512_or_epi64, _mm512_xor_epi32)
    **{(op, e): f"{{dst}} = _mm512_{op}_{SUFFIX[e]}({{a}}, {{b}});" for op in ("and", "or", "xor") for e in ("i32", "i64")},
    # comparisons -> mask registers
    **float_cmp_rows(AVX512_X86),
    **{("cmp." + p, "i32"): f"{{dst}} = _mm512_cmp_epi32_mask({{a}}, {{b}}, {c});" for p, c in _INT_CMP.items()},
    **{("cmp." + p, "i64"): f"{{dst}} = _mm512_cmp_epi64_mask({{a}}, {{b}}, {c});" for p, c in _INT_CMP.items()},
    **{("cmp." + p, "i32"): f"{{dst}} = _mm512_cmp_epu32_mask({{a}}, {{b}}, {c});" for p, c in _UINT_CMP.items()},
    **{("cmp." + p, "i64"): f"{{dst}} = _mm512_cmp_epu64_mask({{a}}, {{b}}, {c});" for p, c in _UINT_CMP.items()},
    **_mask_cmp_rows(),
    # select: mask lanes pick {a} (blend takes the second source where the mask is set)
    **{("select", e): f"{{dst}} = _mm512_mask_blend_{s}({{mask}}, {{b}}, {{a}});" for e, (s, _) in _TYPES.items()},
    # select(mask, a, +0): a zero-masking move
    **{("select_zero", e): f"{{dst}} = _mm512_maskz_mov_{s}({{mask}}, {{a}});" for e, (s, _) in _TYPES.items()},
    # horizontal reductions: the compiler's _mm512_reduce_* where they are exact and defined;
    # NaN-aware float min/max and the wrapping integer sum/product go through helpers
    ("hreduce.add", "f32"): "{dst} = _mm512_reduce_add_ps({a});",
    ("hreduce.add", "f64"): "{dst} = _mm512_reduce_add_pd({a});",
    ("hreduce.mul", "f32"): "{dst} = _mm512_reduce_mul_ps({a});",
    ("hreduce.mul", "f64"): "{dst} = _mm512_reduce_mul_pd({a});",
    **{(f"hreduce.{k}", e): f"{{dst}} = _mm512_reduce_{k}_{SUFFIX[e]}({{a}});" for k in ("min", "max", "and", "or") for e in ("i32", "i64")},
    # unsigned: the epu forms, their unsigned result read back as the signless lane type
    **{(f"hreduce.u{k}", e): f"{{dst}} = ({t})_mm512_reduce_{k}_epu{e[1:]}({{a}});"
       for k in ("min", "max") for e, t in (("i32", "int32_t"), ("i64", "int64_t"))},
    **helper_hreduce_rows(AVX512_X86, ("min", "max"), ("add", "mul")),
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

# scans (lowering/loop_to_simd/scan.py): lanes slid up by a power of two with the low lanes
# from the top of {b} (valignd/valignq over b ++ a), the last lane on every lane (vperm by a
# constant index), lane 0 as a scalar
_AS_INT = {"f32": ("_mm512_castps_si512", "_mm512_castsi512_ps"), "f64": ("_mm512_castpd_si512", "_mm512_castsi512_pd"),
           "i32": ("", ""), "i64": ("", "")}  # fmt: skip


def _narrow_slide_up(shift: int) -> str:
    """i8/i16 lanes slid up by `shift` bytes: by whole dwords one valignd; else valignd by one
    128-bit lane ([b.top, a.lo..]), then vpalignr per lane takes the `shift` top bytes of the lane below."""
    if shift % 4 == 0:
        return f"{{dst}} = _mm512_alignr_epi32({{a}}, {{b}}, {16 - shift // 4});"
    return f"{{dst}} = _mm512_alignr_epi8({{a}}, _mm512_alignr_epi32({{a}}, {{b}}, 12), {16 - shift});"

ROWS |= {
    **{
        (f"slide_up.{by}", e): f"{{dst}} = {out}(_mm512_alignr_epi{bits}({to}({{a}}), {to}({{b}}), {n - by}));"
        for e, n, bits in (("f32", 16, 32), ("i32", 16, 32), ("f64", 8, 64), ("i64", 8, 64))
        for to, out in [_AS_INT[e]]
        for by in (1, 2, 4, 8)
        if by < n
    },
    ("splat_last", "f32"): "{dst} = _mm512_permutexvar_ps(_mm512_set1_epi32(15), {a});",
    ("splat_last", "i32"): "{dst} = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), {a});",
    ("splat_last", "f64"): "{dst} = _mm512_permutexvar_pd(_mm512_set1_epi64(7), {a});",
    ("splat_last", "i64"): "{dst} = _mm512_permutexvar_epi64(_mm512_set1_epi64(7), {a});",
    ("first_lane", "f32"): "{dst} = _mm512_cvtss_f32({a});",
    ("first_lane", "f64"): "{dst} = _mm512_cvtsd_f64({a});",
    ("first_lane", "i32"): "{dst} = _mm512_cvtsi512_si32({a});",
    ("first_lane", "i64"): "{dst} = _mm_cvtsi128_si64(_mm512_castsi512_si128({a}));",
    **{(f"slide_up.{by}", e): _narrow_slide_up(by * int(e[1:]) // 8) for e, n in (("i8", 64), ("i16", 32))
       for by in (1, 2, 4, 8, 16, 32) if by < n},
    # the top word by vpermw (BW); bytes: each 128-bit lane's top byte everywhere in it (vpshufb), then dword 15
    ("splat_last", "i16"): "{dst} = _mm512_permutexvar_epi16(_mm512_set1_epi16(31), {a});",
    ("splat_last", "i8"): "{dst} = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), _mm512_shuffle_epi8({a}, _mm512_set1_epi8(15)));",
    ("first_lane", "i16"): "{dst} = (int16_t)_mm512_cvtsi512_si32({a});",
    ("first_lane", "i8"): "{dst} = (int8_t)_mm512_cvtsi512_si32({a});",
}

AVX512 = AVX512_X86.table(ROWS)
