"""AArch64 NEON (Advanced SIMD) intrinsic table: 128-bit vectors, masks as `uint32x4_t`/`uint64x2_t`.

Unlike x86, `vminq_f32`/`vmaxq_f32` (FMIN/FMAX) and the across-lane `vminvq`/`vmaxvq` already
propagate NaN like numpy; `vminnmq` gives minnum. NEON has no 64-bit lane multiply, no
`vmvnq_u64`, no masked load/store and no non-temporal store intrinsic (a nontemporal store falls
back to `vst1q`); compaction is a LUT byte permute (`vqtbl1q_u8`, c_leftpack).

Integer arithmetic wraps by construction: GCC's arm_neon.h spells `vaddq_s32`, `vsubq_s32`,
`vmulq_s32`, `vnegq_s32` as signed C vector arithmetic, which the optimizer may assume never
overflows (it folds `(x + 1) < x` to false), so integer add/sub/mul/neg/abs and the sum
reduction run on the `u32`/`u64` intrinsics with the bits reinterpreted. `vshlq` reads the low
byte of the amount as a signed count: shifts check the amount as unsigned first (c_emulate).
"""

from __future__ import annotations

from loopopt.targets.c_isa import IsaTable

_NOT64 = "veorq_u64({x}, vdupq_n_u64(UINT64_MAX))"

# (element, lanes, intrinsic suffix, mask suffix)
_TYPES = (("f32", 4, "f32", "u32"), ("f64", 2, "f64", "u64"), ("i32", 4, "s32", "u32"), ("i64", 2, "s64", "u64"))


def _wrapping(op: str, s: str) -> str:
    """`op` on the unsigned lanes of two signed vectors (s32/s64), reinterpreted back."""
    u = "u" + s[1:]
    return f"{{dst}} = vreinterpretq_{s}_{u}(v{op}q_{u}(vreinterpretq_{u}_{s}({{a}}), vreinterpretq_{u}_{s}({{b}})));"


def _not(mask_suffix: str, x: str) -> str:
    return f"vmvnq_u32({x})" if mask_suffix == "u32" else _NOT64.format(x=x)


def _cmp_rows() -> dict[tuple[str, str], str]:
    rows: dict[tuple[str, str], str] = {}
    for elt, _, s, m in _TYPES:
        base = {"eq": "vceqq", "gt": "vcgtq", "ge": "vcgeq", "lt": "vcltq", "le": "vcleq"}
        c = {k: f"{v}_{s}({{a}}, {{b}})" for k, v in base.items()}
        if elt.startswith("f"):
            ordered = f"vandq_{m}(vceqq_{s}({{a}}, {{a}}), vceqq_{s}({{b}}, {{b}}))"
            one = f"vorrq_{m}({c['lt']}, {c['gt']})"
            preds = {
                "oeq": c["eq"], "ogt": c["gt"], "oge": c["ge"], "olt": c["lt"], "ole": c["le"],
                "one": one, "ord": ordered, "ueq": _not(m, one), "une": _not(m, c["eq"]),
                "ugt": _not(m, c["le"]), "uge": _not(m, c["lt"]), "ult": _not(m, c["ge"]),
                "ule": _not(m, c["gt"]), "uno": _not(m, ordered),
            }  # fmt: skip
        else:
            uc = {k: f"{v}_{m}(vreinterpretq_{m}_{s}({{a}}), vreinterpretq_{m}_{s}({{b}}))" for k, v in base.items()}
            preds = {
                "eq": c["eq"], "ne": _not(m, c["eq"]), "sgt": c["gt"], "sge": c["ge"],
                "slt": c["lt"], "sle": c["le"],
                "ugt": uc["gt"], "uge": uc["ge"], "ult": uc["lt"], "ule": uc["le"],
            }  # fmt: skip
        rows.update({("cmp." + p, elt): f"{{dst}} = {expr};" for p, expr in preds.items()})
    # masks (all-ones lanes): as a signed integer true is -1 (true < false), as unsigned 1
    for n, m in ((4, "u32"), (2, "u64")):
        a_not_b, b_not_a = f"vbicq_{m}({{a}}, {{b}})", f"vbicq_{m}({{b}}, {{a}})"  # vbic(x, y) = x & ~y
        a_or_not_b, b_or_not_a = f"vornq_{m}({{a}}, {{b}})", f"vornq_{m}({{b}}, {{a}})"  # vorn(x, y) = x | ~y
        exprs = {
            "eq": _not(m, f"veorq_{m}({{a}}, {{b}})"), "ne": f"veorq_{m}({{a}}, {{b}})",
            "slt": a_not_b, "ugt": a_not_b, "sgt": b_not_a, "ult": b_not_a,
            "sge": b_or_not_a, "ule": b_or_not_a, "sle": a_or_not_b, "uge": a_or_not_b,
        }  # fmt: skip
        rows.update({(f"cmp.{p}", f"i1x{n}"): f"{{dst}} = {e};" for p, e in exprs.items()})
    return rows


ROWS: dict[tuple[str, str], str] = {
    # memory (NEON loads and stores have no alignment requirement beyond the element's)
    **{("load", e): f"{{dst}} = vld1q_{s}(&{{buf}}[{{idx}}]);" for e, _, s, _ in _TYPES},
    **{("load_aligned", e): f"{{dst}} = vld1q_{s}(&{{buf}}[{{idx}}]);" for e, _, s, _ in _TYPES},
    **{("store", e): f"vst1q_{s}(&{{buf}}[{{idx}}], {{value}});" for e, _, s, _ in _TYPES},
    **{("store_aligned", e): f"vst1q_{s}(&{{buf}}[{{idx}}], {{value}});" for e, _, s, _ in _TYPES},
    **{("store_nt", e): f"vst1q_{s}(&{{buf}}[{{idx}}], {{value}});" for e, _, s, _ in _TYPES},
    **{("masked_load", e): f"{{dst}} = lo_masked_load_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});" for e, n, _, _ in _TYPES},
    **{("masked_store", e): f"lo_masked_store_{e}x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});" for e, n, _, _ in _TYPES},
    **{("compress_store_full", e): f"{{dst}} = lo_compress_full_{e}x{n}(&{{buf}}[{{idx}}], {{value}}, {{mask}});"
       for e, n, _, _ in _TYPES},
    ("store_fence", "none"): "",  # no streaming stores on NEON: nothing to order
    **{("broadcast", e): f"{{dst}} = vdupq_n_{s}({{a}});" for e, _, s, _ in _TYPES},
    # arithmetic
    **{("add", e): f"{{dst}} = vaddq_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[:2]},
    **{("sub", e): f"{{dst}} = vsubq_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[:2]},
    **{("add", e): _wrapping("add", s) for e, _, s, _ in _TYPES[2:]},
    **{("sub", e): _wrapping("sub", s) for e, _, s, _ in _TYPES[2:]},
    ("mul", "f32"): "{dst} = vmulq_f32({a}, {b});",
    ("mul", "f64"): "{dst} = vmulq_f64({a}, {b});",
    ("mul", "i32"): _wrapping("mul", "s32"),
    ("mul", "i64"): "{dst} = lo_mullo_i64x2({a}, {b});",
    ("div", "f32"): "{dst} = vdivq_f32({a}, {b});",
    ("div", "f64"): "{dst} = vdivq_f64({a}, {b});",
    ("fma", "f32"): "{dst} = vfmaq_f32({c}, {a}, {b});",
    ("fma", "f64"): "{dst} = vfmaq_f64({c}, {a}, {b});",
    ("sqrt", "f32"): "{dst} = vsqrtq_f32({a});",
    ("sqrt", "f64"): "{dst} = vsqrtq_f64({a});",
    **{("neg", e): f"{{dst}} = vnegq_{s}({{a}});" for e, _, s, _ in _TYPES[:2]},
    **{("abs", e): f"{{dst}} = vabsq_{s}({{a}});" for e, _, s, _ in _TYPES[:2]},
    **{("neg", e): f"{{dst}} = lo_neg_{e}x{n}({{a}});" for e, n, _, _ in _TYPES[2:]},
    **{("abs", e): f"{{dst}} = lo_abs_{e}x{n}({{a}});" for e, n, _, _ in _TYPES[2:]},
    # FMIN/FMAX propagate NaN (numpy minimum/maximum); FMINNM/FMAXNM are minnum/maxnum
    ("min", "f32"): "{dst} = vminq_f32({a}, {b});",
    ("min", "f64"): "{dst} = vminq_f64({a}, {b});",
    ("max", "f32"): "{dst} = vmaxq_f32({a}, {b});",
    ("max", "f64"): "{dst} = vmaxq_f64({a}, {b});",
    ("minnum", "f32"): "{dst} = vminnmq_f32({a}, {b});",
    ("minnum", "f64"): "{dst} = vminnmq_f64({a}, {b});",
    ("maxnum", "f32"): "{dst} = vmaxnmq_f32({a}, {b});",
    ("maxnum", "f64"): "{dst} = vmaxnmq_f64({a}, {b});",
    ("min", "i32"): "{dst} = vminq_s32({a}, {b});",
    ("max", "i32"): "{dst} = vmaxq_s32({a}, {b});",
    ("min", "i64"): "{dst} = vbslq_s64(vcgtq_s64({a}, {b}), {b}, {a});",
    ("max", "i64"): "{dst} = vbslq_s64(vcgtq_s64({b}, {a}), {b}, {a});",
    # bitwise and shifts (integers); shifts check the amount as unsigned (c_emulate)
    **{("and", e): f"{{dst}} = vandq_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    **{("or", e): f"{{dst}} = vorrq_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    **{("xor", e): f"{{dst}} = veorq_{s}({{a}}, {{b}});" for e, _, s, _ in _TYPES[2:]},
    **{(op, e): f"{{dst}} = lo_{fn}_{e}x{n}({{a}}, {{b}});"
       for op, fn in (("shl", "shl"), ("shr", "shrs"), ("shru", "shru")) for e, n, _, _ in _TYPES[2:]},
    # comparisons -> all-ones lanes
    **_cmp_rows(),
    **{("select", e): f"{{dst}} = vbslq_{s}({{mask}}, {{a}}, {{b}});" for e, _, s, _ in _TYPES},
    # horizontal reductions: across-lane instructions where they exist
    # f32: the halving tree (a0+a2)+(a1+a3) every ISA uses; vaddvq_f32 pairs (a0+a1)+(a2+a3)
    ("hreduce.add", "f32"): "{dst} = vaddv_f32(vadd_f32(vget_low_f32({a}), vget_high_f32({a})));",
    ("hreduce.add", "f64"): "{dst} = vaddvq_f64({a});",
    # integer sums across lanes on the unsigned lanes (wrapping), converted back (modulo)
    ("hreduce.add", "i32"): "{dst} = (int32_t)vaddvq_u32(vreinterpretq_u32_s32({a}));",
    ("hreduce.add", "i64"): "{dst} = (int64_t)vaddvq_u64(vreinterpretq_u64_s64({a}));",
    ("hreduce.min", "f32"): "{dst} = vminvq_f32({a});",
    ("hreduce.min", "f64"): "{dst} = vminvq_f64({a});",
    ("hreduce.max", "f32"): "{dst} = vmaxvq_f32({a});",
    ("hreduce.max", "f64"): "{dst} = vmaxvq_f64({a});",
    ("hreduce.min", "i32"): "{dst} = vminvq_s32({a});",
    ("hreduce.max", "i32"): "{dst} = vmaxvq_s32({a});",
    ("hreduce.min", "i64"): "{dst} = lo_hreduce_min_i64x2({a});",
    ("hreduce.max", "i64"): "{dst} = lo_hreduce_max_i64x2({a});",
    # unsigned: across-lane vminvq_u32 / vmaxvq_u32 on the reinterpreted lanes; no u64 form
    **{(f"hreduce.u{k}", "i32"): f"{{dst}} = (int32_t)v{k}vq_u32(vreinterpretq_u32_s32({{a}}));" for k in ("min", "max")},
    **{(f"hreduce.u{k}", "i64"): f"{{dst}} = lo_hreduce_u{k}_i64x2({{a}});" for k in ("min", "max")},
    **{("hreduce.mul", e): f"{{dst}} = lo_hreduce_mul_{e}x{n}({{a}});" for e, n, _, _ in _TYPES},
    **{(f"hreduce.{k}", e): f"{{dst}} = lo_hreduce_{k}_{e}x{n}({{a}});"
       for e, n, _, _ in _TYPES[2:] for k in ("and", "or")},
    # conversions (same lane count); float -> int saturates and maps NaN to 0 (FCVTZS does;
    # the helpers make it explicit)
    ("convert.f32", "i32"): "{dst} = vcvtq_f32_s32({a});",
    ("convert.i32", "f32"): "{dst} = lo_cvt_f32_i32x4({a});",
    ("convert.f64", "i64"): "{dst} = vcvtq_f64_s64({a});",
    ("convert.i64", "f64"): "{dst} = lo_cvt_f64_i64x2({a});",
    # lane construction
    ("iota", "i32"): "{dst} = vld1q_s32(lo_iota_i32x4);",
    ("iota", "i64"): "{dst} = vld1q_s64(lo_iota_i64x2);",
    ("prefix_mask", "i1x4"): "{dst} = vcltq_s32(vld1q_s32(lo_iota_i32x4), vdupq_n_s32((int32_t)({a} < 0 ? 0 : {a} > 4 ? 4 : {a})));",
    ("prefix_mask", "i1x2"): "{dst} = vcltq_s64(vld1q_s64(lo_iota_i64x2), vdupq_n_s64({a}));",
    # masks
    ("and", "i1x4"): "{dst} = vandq_u32({a}, {b});",
    ("and", "i1x2"): "{dst} = vandq_u64({a}, {b});",
    ("or", "i1x4"): "{dst} = vorrq_u32({a}, {b});",
    ("or", "i1x2"): "{dst} = vorrq_u64({a}, {b});",
    ("xor", "i1x4"): "{dst} = veorq_u32({a}, {b});",
    ("xor", "i1x2"): "{dst} = veorq_u64({a}, {b});",
    ("not", "i1x4"): "{dst} = vmvnq_u32({a});",
    ("not", "i1x2"): "{dst} = " + _NOT64.format(x="{a}") + ";",
    ("select", "i1x4"): "{dst} = vbslq_u32({mask}, {a}, {b});",
    ("select", "i1x2"): "{dst} = vbslq_u64({mask}, {a}, {b});",
    ("broadcast", "i1x4"): "{dst} = vdupq_n_u32(({a}) ? UINT32_MAX : 0u);",
    ("broadcast", "i1x2"): "{dst} = vdupq_n_u64(({a}) ? UINT64_MAX : 0u);",
    ("popcount", "i1x4"): "{dst} = (int64_t)vaddvq_u32(vshrq_n_u32({a}, 31));",
    ("popcount", "i1x2"): "{dst} = (int64_t)vaddvq_u64(vshrq_n_u64({a}, 63));",
}  # fmt: skip

# scans (lowering/loop_to_simd/scan.py): lanes slid up with the low lanes from the top of {b}
# (vext of b, a), the last lane on every lane, lane 0 as a scalar
_SCAN_TYPES = (*_TYPES, ("i8", 16, "s8", "u8"), ("i16", 8, "s16", "u16"))
ROWS |= {
    **{(f"slide_up.{by}", e): f"{{dst}} = vextq_{s}({{b}}, {{a}}, {n - by});" for e, n, s, _ in _SCAN_TYPES for by in (1, 2, 4, 8) if by < n},
    **{("splat_last", e): f"{{dst}} = vdupq_laneq_{s}({{a}}, {n - 1});" for e, n, s, _ in _SCAN_TYPES},
    **{("first_lane", e): f"{{dst}} = vgetq_lane_{s}({{a}}, 0);" for e, n, s, _ in _SCAN_TYPES},
}

NEON = IsaTable(
    name="neon",
    includes=("arm_neon.h",),
    lanes={"f32": 4, "f64": 2, "i32": 4, "i64": 2, "i8": 16, "i16": 8},  # i8/i16 rows: targets/c_narrow.py
    vector_types={"f32": "float32x4_t", "f64": "float64x2_t", "i32": "int32x4_t", "i64": "int64x2_t",
                  "i8": "int8x16_t", "i16": "int16x8_t"},
    mask_types={4: "uint32x4_t", 2: "uint64x2_t", 16: "uint8x16_t", 8: "uint16x8_t"},
    rows=ROWS,
    cflags=(),
)
