"""Part-register vectors: the 32-bit lanes of a loop that mixes 32- and 64-bit element types.

(i8/i16 lanes next to 16/32-bit ones are part vectors too, keyed alike (`i8x8`); their rows
are targets/c_narrow_part.py's.)

A loop mixing widths runs at one lane count W, the 64-bit types' lanes per register
(loop_to_simd/width.py): its f64/i64 vectors fill a register and its f32/i32 vectors hold W
lanes in a register of 2W, the low half. `vector<4xf32>` on AVX2 is an `__m256` whose lanes 0-3
are the value; lanes 4-7 are zero after a load or a conversion and unspecified after
arithmetic (no lane-wise op traps: MXCSR masks the float exceptions).

So a lane-wise row (add, mul, exp, fma, broadcast, iota, a same-width conversion) prints a part
vector through the whole register's row unchanged, and only the rows that see the vector as a
whole, or whose mask has the other width's layout, have part rows of their own, keyed by the
part key `f32x4` (element and lane count). They are built here from one line per ISA:

    ISA     part keys     zero-extend a half / take the low half     32-bit mask -> W-lane mask
    sse2    f32x2 i32x2   movq load / movq store                     unpacklo_epi32(m, m)
    avx2    f32x4 i32x4   _mm256_zext*128 / _mm256_cast*256_*128     cvtepi32_epi64(low half)
    avx512  f32x8 i32x8   _mm512_zext*256 / _mm512_cast*512_*256     (__mmask8)m
    neon    f32x2 i32x2   vcombine(x, 0) / vget_low                  vmovl_s32(vget_low)

A W-lane mask (`vector<Wxi1>`) always has the layout of the 64-bit compares (AVX2: 64-bit
all-ones lanes; AVX-512: `__mmask8`), whatever compare made it: a compare of part vectors
widens its 32-bit-lane result, and a select or masked access of part vectors narrows the mask
back (inactive upper lanes). Horizontal reductions fill the upper lanes with the kind's
neutral element and reduce the whole register: the halving tree then combines the W lanes in
the same order as a native W-lane reduction. The conversions between the halves and the
64-bit types (`convert.f64` of `f32x4`, ...) are rows here too (`CONVERSIONS`).

f16 is a storage type: its buffers hold IEEE half bits (`uint16_t` in C), and a loop computes
on them as f32 (`arith.extf` / `arith.truncf`). Its vectors have the f32 lane count, 16-bit
lanes in half a register of their own type (`F16`: `__m128i` on AVX2 with F16C's
`_mm256_cvtph_ps` / `_mm256_cvtps_ph`, `__m256i` on AVX-512, `uint16x4_t` on NEON with
`vcvt_f32_f16`); SSE2 has no such conversion and keeps f16 loops scalar
(loop_to_simd/width.py). Scalar code converts with portable helpers (`lo_f16_to_f32`,
`lo_f32_to_f16`, `lo_f64_to_f16`: round to nearest even, once; NaN stays NaN; overflow to inf).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loopopt.targets.c_helpers import Helper, LaneIO

PART_ELEMENTS = ("f32", "i32")
"""Element types that can fill part of a register (next to the 64-bit f64/i64)."""

WHOLE_VECTOR_KEYS = ("load", "load_aligned", "store", "store_aligned", "store_nt", "masked_load", "masked_store",
                     "compress_store", "compress_store_full", "compress_store_reg", "compress_store_full_reg",
                     "select", "select_zero", "popcount")  # fmt: skip
"""Row keys whose meaning depends on the lanes past the part, or on a mask's layout (plus every
`hreduce.*`, `cmp.*` and `convert.*` key): a part vector needs its own row for them."""

_PART_KEY = re.compile(r"^(f16|f32|i32|i8|i16)x(\d+)$")


def part_key(elt: str, lanes: int) -> str:
    """The row element key of a `vector<lanes x elt>` that fills part of a register: `f32x4`."""
    return f"{elt}x{lanes}"


def split_part_key(key: str) -> tuple[str, int] | None:
    """(`f32`, 4) for `f32x4`; None for an element key of a whole register."""
    m = _PART_KEY.match(key)
    return (m.group(1), int(m.group(2))) if m else None


def part_lanes(isa_lanes: Mapping[str, int], elt: str) -> int | None:
    """W for a part vector of `elt` on an ISA with these native lane counts (half the 32-bit
    lanes: the 64-bit lane count; f16: the f32 lane count), or None when `elt` never fills
    part of a register. i8/i16 parts have several: `is_part_lanes`."""
    if elt == "f16":
        return isa_lanes.get("f32") if isa_lanes.get("f32", 0) >= 2 else None
    n = isa_lanes.get(elt, 0) if elt in PART_ELEMENTS else 0
    return n // 2 if n >= 2 else None


def narrow_part_lanes(isa_lanes: Mapping[str, int], elt: str) -> tuple[int, ...]:
    """The lane counts of i8/i16 part vectors: the lanes of each wider 16/32-bit integer
    (targets/c_narrow_part.py): (16, 8) for i8 on AVX2, (8,) for i16."""
    if elt not in ("i8", "i16") or isa_lanes.get(elt, 1) < 2:
        return ()
    return tuple(isa_lanes[w] for w in ("i16", "i32") if int(w[1:]) > int(elt[1:]) and w in isa_lanes)


def is_part_lanes(isa_lanes: Mapping[str, int], elt: str, lanes: int) -> bool:
    """Whether `vector<lanes x elt>` is a part vector on an ISA with these native lane counts."""
    return isa_lanes.get(elt) != lanes and (part_lanes(isa_lanes, elt) == lanes or lanes in narrow_part_lanes(isa_lanes, elt))


def part_vector_type(isa_name: str, elt: str) -> str | None:
    """The C type of a part vector of `elt` when it is not the whole register's (f16), else None."""
    f16 = F16.get(isa_name)
    return f16.c_type if elt == "f16" and f16 is not None else None


def whole_register_row(key: str, elt: str) -> tuple[str, str] | None:
    """The (key, element) of the whole-register row that prints `key` on part element `elt`,
    when the op is lane-wise; None when the part needs its own row."""
    part = split_part_key(elt)
    if part is None:
        return None
    base, lanes = part
    if key.startswith("convert."):
        to = split_part_key(key[len("convert."):])
        # a conversion between two part vectors of one lane count is lane-wise (i32x4 -> f32x4)
        return (f"convert.{to[0]}", base) if to is not None and to[1] == lanes else None
    if base == "f16" or key in WHOLE_VECTOR_KEYS or key.startswith(("hreduce.", "cmp.")):
        return None
    return key, base


# ---------------------------------------------------------------------------- the rows


@dataclass(frozen=True)
class PartSpelling:
    """How one ISA moves the low half of a register: the per-ISA line of the module table."""

    load: dict[str, str]
    """Part element -> `{dst} = ...` loading W elements into the low half, zeroing the rest."""
    store: dict[str, str]
    """Part element -> a statement storing the low half's W elements."""
    fill: dict[str, str]
    """Part element -> an expression: `{a}`'s low half, its upper half `{n}` (a scalar C value)."""
    widen_mask: str
    """A 32-bit-lane mask `{m}` (low W lanes) -> the W-lane mask."""
    narrow_mask: str
    """A W-lane mask `{m}` -> the 32-bit-lane mask whose low W lanes are its lanes, the rest off."""


SPELLINGS: dict[str, PartSpelling] = {
    "sse2": PartSpelling(
        load={"f32": "{dst} = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)&{buf}[{idx}]));",
              "i32": "{dst} = _mm_loadl_epi64((const __m128i *)&{buf}[{idx}]);"},
        store={"f32": "_mm_storel_epi64((__m128i *)&{buf}[{idx}], _mm_castps_si128({value}));",
               "i32": "_mm_storel_epi64((__m128i *)&{buf}[{idx}], {value});"},
        fill={"f32": "_mm_castpd_ps(_mm_unpacklo_pd(_mm_castps_pd({a}), _mm_castps_pd(_mm_set1_ps({n}))))",
              "i32": "_mm_unpacklo_epi64({a}, _mm_set1_epi32({n}))"},
        widen_mask="_mm_unpacklo_epi32({m}, {m})",
        narrow_mask="_mm_move_epi64(_mm_shuffle_epi32({m}, _MM_SHUFFLE(2, 0, 2, 0)))",
    ),
    "avx2": PartSpelling(
        load={"f32": "{dst} = _mm256_zextps128_ps256(_mm_loadu_ps(&{buf}[{idx}]));",
              "i32": "{dst} = _mm256_zextsi128_si256(_mm_loadu_si128((const __m128i *)&{buf}[{idx}]));"},
        store={"f32": "_mm_storeu_ps(&{buf}[{idx}], _mm256_castps256_ps128({value}));",
               "i32": "_mm_storeu_si128((__m128i *)&{buf}[{idx}], _mm256_castsi256_si128({value}));"},
        fill={"f32": "_mm256_insertf128_ps({a}, _mm_set1_ps({n}), 1)",
              "i32": "_mm256_inserti128_si256({a}, _mm_set1_epi32({n}), 1)"},
        widen_mask="_mm256_cvtepi32_epi64(_mm256_castsi256_si128({m}))",
        narrow_mask="_mm256_zextsi128_si256(_mm256_castsi256_si128("
                    "_mm256_permutevar8x32_epi32({m}, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))))",
    ),
    "avx512": PartSpelling(
        load={"f32": "{dst} = _mm512_zextps256_ps512(_mm256_loadu_ps(&{buf}[{idx}]));",
              "i32": "{dst} = _mm512_zextsi256_si512(_mm256_loadu_si256((const __m256i *)&{buf}[{idx}]));"},
        store={"f32": "_mm256_storeu_ps(&{buf}[{idx}], _mm512_castps512_ps256({value}));",
               "i32": "_mm256_storeu_si256((__m256i *)&{buf}[{idx}], _mm512_castsi512_si256({value}));"},
        fill={"f32": "_mm512_mask_mov_ps(_mm512_set1_ps({n}), 0xFF, {a})",
              "i32": "_mm512_mask_mov_epi32(_mm512_set1_epi32({n}), 0xFF, {a})"},
        widen_mask="(__mmask8)({m})",
        narrow_mask="(__mmask16)({m})",
    ),
    "neon": PartSpelling(
        load={"f32": "{dst} = vcombine_f32(vld1_f32(&{buf}[{idx}]), vdup_n_f32(0.0f));",
              "i32": "{dst} = vcombine_s32(vld1_s32(&{buf}[{idx}]), vdup_n_s32(0));"},
        store={"f32": "vst1_f32(&{buf}[{idx}], vget_low_f32({value}));",
               "i32": "vst1_s32(&{buf}[{idx}], vget_low_s32({value}));"},
        fill={"f32": "vcombine_f32(vget_low_f32({a}), vdup_n_f32({n}))",
              "i32": "vcombine_s32(vget_low_s32({a}), vdup_n_s32({n}))"},
        widen_mask="vreinterpretq_u64_s64(vmovl_s32(vreinterpret_s32_u32(vget_low_u32({m}))))",
        narrow_mask="vcombine_u32(vmovn_u64({m}), vdup_n_u32(0))",
    ),
}  # fmt: skip
"""Per ISA, how its part vectors are loaded, stored, filled and how masks change layout."""

_F64_TO_I32_SAT = "{p}min_pd({p}max_pd({{a}}, {p}set1_pd(-2147483648.0)), {p}set1_pd(2147483647.0))"
"""f64 lanes clamped to the i32 range (a NaN lane becomes the lower bound: max returns its second operand)."""

CONVERSIONS: dict[str, dict[tuple[str, str], str]] = {
    "sse2": {
        ("convert.f64", "f32x2"): "{dst} = _mm_cvtps_pd({a});",
        ("convert.f32x2", "f64"): "{dst} = _mm_cvtpd_ps({a});",
        ("convert.f64", "i32x2"): "{dst} = _mm_cvtepi32_pd({a});",
        ("convert.i32x2", "f64"): "{dst} = _mm_cvttpd_epi32(_mm_and_pd(" + _F64_TO_I32_SAT.format(p="_mm_") + ", _mm_cmpord_pd({a}, {a})));",
        ("convert.i64", "i32x2"): "{dst} = _mm_unpacklo_epi32({a}, _mm_srai_epi32({a}, 31));",
        ("convert.i32x2", "i64"): "{dst} = _mm_move_epi64(_mm_shuffle_epi32({a}, _MM_SHUFFLE(3, 1, 2, 0)));",
        ("convert.i64", "f32x2"): "{dst} = lo_cvt_f64_i64x2(_mm_cvtps_pd({a}));",
        ("convert.f32x2", "i64"): "{dst} = lo_cvt_i64_f32x2p({a});",
    },
    "avx2": {
        ("convert.f64", "f32x4"): "{dst} = _mm256_cvtps_pd(_mm256_castps256_ps128({a}));",
        ("convert.f32x4", "f64"): "{dst} = _mm256_zextps128_ps256(_mm256_cvtpd_ps({a}));",
        ("convert.f64", "i32x4"): "{dst} = _mm256_cvtepi32_pd(_mm256_castsi256_si128({a}));",
        ("convert.i32x4", "f64"): "{dst} = _mm256_zextsi128_si256(_mm256_cvttpd_epi32(_mm256_and_pd("
                                  + _F64_TO_I32_SAT.format(p="_mm256_") + ", _mm256_cmp_pd({a}, {a}, _CMP_ORD_Q))));",
        ("convert.i64", "i32x4"): "{dst} = _mm256_cvtepi32_epi64(_mm256_castsi256_si128({a}));",
        ("convert.i32x4", "i64"): "{dst} = _mm256_zextsi128_si256(_mm256_castsi256_si128("
                                  "_mm256_permutevar8x32_epi32({a}, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))));",
        ("convert.i64", "f32x4"): "{dst} = lo_cvt_f64_i64x4(_mm256_cvtps_pd(_mm256_castps256_ps128({a})));",
        ("convert.f32x4", "i64"): "{dst} = lo_cvt_i64_f32x4p({a});",
    },
    "avx512": {
        ("convert.f64", "f32x8"): "{dst} = _mm512_cvtps_pd(_mm512_castps512_ps256({a}));",
        ("convert.f32x8", "f64"): "{dst} = _mm512_zextps256_ps512(_mm512_cvtpd_ps({a}));",
        ("convert.f64", "i32x8"): "{dst} = _mm512_cvtepi32_pd(_mm512_castsi512_si256({a}));",
        ("convert.i32x8", "f64"): "{dst} = _mm512_zextsi256_si512(_mm512_cvttpd_epi32(_mm512_maskz_mov_pd("
                                  "_mm512_cmp_pd_mask({a}, {a}, _CMP_ORD_Q), " + _F64_TO_I32_SAT.format(p="_mm512_") + ")));",
        ("convert.i64", "i32x8"): "{dst} = _mm512_cvtepi32_epi64(_mm512_castsi512_si256({a}));",
        ("convert.i32x8", "i64"): "{dst} = _mm512_zextsi256_si512(_mm512_cvtepi64_epi32({a}));",
        ("convert.i64", "f32x8"): "{dst} = lo_cvt_f64_i64x8(_mm512_cvtps_pd(_mm512_castps512_ps256({a})));",
        ("convert.f32x8", "i64"): "{dst} = _mm512_zextps256_ps512(_mm512_cvtepi64_ps({a}));",  # DQ: rounds once
    },
    "neon": {
        ("convert.f64", "f32x2"): "{dst} = vcvt_f64_f32(vget_low_f32({a}));",
        ("convert.f32x2", "f64"): "{dst} = vcombine_f32(vcvt_f32_f64({a}), vdup_n_f32(0.0f));",
        ("convert.f64", "i32x2"): "{dst} = vcvtq_f64_s64(vmovl_s32(vget_low_s32({a})));",
        # FCVTZS saturates and gives 0 for NaN; SQXTN saturates to i32: the defined semantics
        ("convert.i32x2", "f64"): "{dst} = vcombine_s32(vqmovn_s64(vcvtq_s64_f64({a})), vdup_n_s32(0));",
        ("convert.i64", "i32x2"): "{dst} = vmovl_s32(vget_low_s32({a}));",
        ("convert.i32x2", "i64"): "{dst} = vcombine_s32(vmovn_s64({a}), vdup_n_s32(0));",
        ("convert.i64", "f32x2"): "{dst} = vcvtq_s64_f64(vcvt_f64_f32(vget_low_f32({a})));",
        ("convert.f32x2", "i64"): "{dst} = lo_cvt_i64_f32x2p({a});",
    },
}  # fmt: skip
"""Conversions between a part vector and the 64-bit lanes: float -> int truncates, saturates and
gives 0 for NaN (docs/integer_semantics.md; f32 -> i64 goes through f64, exactly); int -> float
rounds once (i64 -> f32 lane by lane where the ISA has no instruction); i64 -> i32 keeps the low
bits. Lane counts are those of the ISA's 64-bit lanes."""


@dataclass(frozen=True)
class F16Spelling:
    """How one ISA holds, moves and converts f16 storage lanes (W of them, W the f32 lanes)."""

    c_type: str
    load: str
    """An expression loading W halves from `{p}`."""
    store: str
    """A statement storing `{v}` to `{p}`."""
    to_f32: str
    from_f32: str
    broadcast: str
    """An expression splatting the bits `{a}` (a `uint16_t`)."""
    masked_load: str | None = None
    masked_store: str | None = None
    """Rows with a mask instruction (AVX-512); None: lane by lane (`lo_masked_*_f16xW`)."""


F16: dict[str, F16Spelling] = {
    "avx2": F16Spelling(
        c_type="__m128i", load="_mm_loadu_si128((const __m128i *){p})", store="_mm_storeu_si128((__m128i *){p}, {v});",
        to_f32="_mm256_cvtph_ps({a})", from_f32="_mm256_cvtps_ph({a}, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)",
        broadcast="_mm_set1_epi16((short){a})",
    ),
    "avx512": F16Spelling(
        c_type="__m256i", load="_mm256_loadu_si256((const __m256i *){p})", store="_mm256_storeu_si256((__m256i *){p}, {v});",
        to_f32="_mm512_cvtph_ps({a})", from_f32="_mm512_cvtps_ph({a}, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)",
        broadcast="_mm256_set1_epi16((short){a})",
        masked_load="{dst} = _mm256_mask_loadu_epi16({passthru}, {mask}, &{buf}[{idx}]);",
        masked_store="_mm256_mask_storeu_epi16(&{buf}[{idx}], {mask}, {value});",
    ),
    "neon": F16Spelling(
        c_type="uint16x4_t", load="vld1_u16({p})", store="vst1_u16({p}, {v});",
        to_f32="vcvt_f32_f16(vreinterpret_f16_u16({a}))", from_f32="vreinterpret_u16_f16(vcvt_f16_f32({a}))",
        broadcast="vdup_n_u16({a})",
    ),
}  # fmt: skip
"""Per ISA with vector f16 conversions (x86 F16C and AVX-512F, AArch64 FCVTL/FCVTN): f16 lanes.
The conversions round to nearest even (the immediate on x86, the default FPCR on AArch64)."""

F16_SCALAR_ROWS: dict[tuple[str, str], str] = {
    ("convert.f32", "f16"): "{dst} = lo_f16_to_f32({a});",
    ("convert.f64", "f16"): "{dst} = (double)lo_f16_to_f32({a});",  # exact, both steps
    ("convert.f16", "f32"): "{dst} = lo_f32_to_f16({a});",
    ("convert.f16", "f64"): "{dst} = lo_f64_to_f16({a});",  # rounds once (through f32 it could round twice)
}
"""Scalar f16 conversions (every target's scalar code): `uint16_t` bits to and from floats."""

F16_SCALAR_MEMORY = ("load", "store", "align_offset")
"""Scalar f16 accesses: the f32 rows, spelled alike on `uint16_t` bits."""

NEUTRAL: dict[str, dict[str, str]] = {
    "f32": {"add": "-0.0f", "mul": "1.0f", "min": "INFINITY", "max": "(-INFINITY)"},
    "i32": {"add": "0", "mul": "1", "min": "INT32_MAX", "max": "INT32_MIN", "umin": "-1", "umax": "0", "and": "-1", "or": "0"},
}
"""The element that leaves a reduction unchanged, per part element and kind (upper-lane fill)."""


def _expression(template: str) -> str | None:
    """The expression of a one-statement row `{dst} = EXPR;`, or None."""
    m = re.fullmatch(r"\{dst\} = (.*);", template)
    return m.group(1) if m and "; " not in m.group(1) else None


@functools.cache
def rows(isa_name: str) -> dict[tuple[str, str], str]:
    """The part rows of ISA `isa_name` (an `IsaTable` row hook: c_isa.ROW_HOOKS)."""
    if isa_name == "scalar":
        from loopopt.targets.isa_scalar import SCALAR

        memory = {(k, "f16"): t for (k, e), t in SCALAR.rows.items() if e == "f32" and k in F16_SCALAR_MEMORY}
        return {**F16_SCALAR_ROWS, **memory}
    spelling = SPELLINGS.get(isa_name)
    if spelling is None:
        return {}
    from loopopt.targets.c import isa_table  # the ISA's own rows: imported when first asked

    table = isa_table(isa_name)
    out: dict[tuple[str, str], str] = dict(CONVERSIONS[isa_name])
    for elt in PART_ELEMENTS:
        n = part_lanes(table.lanes, elt)
        assert n is not None
        key = part_key(elt, n)
        narrow = spelling.narrow_mask.format(m="{mask}")
        out[("load", key)] = out[("load_aligned", key)] = spelling.load[elt]
        out[("store", key)] = out[("store_aligned", key)] = out[("store_nt", key)] = spelling.store[elt]
        for (op_key, e), template in table.rows.items():
            if e != elt:
                continue
            if op_key.startswith("cmp."):
                expr = _expression(template)
                if expr is not None:
                    out[(op_key, key)] = "{dst} = " + spelling.widen_mask.format(m=expr) + ";"
            elif op_key in ("select", "select_zero", "masked_load", "masked_store"):
                out[(op_key, key)] = template.replace("{mask}", narrow)
            elif op_key.startswith("hreduce."):
                neutral = NEUTRAL[elt].get(op_key[len("hreduce."):])
                if neutral is not None:
                    out[(op_key, key)] = template.replace("{a}", spelling.fill[elt].format(a="{a}", n=neutral))
    f16 = F16.get(isa_name)
    if f16 is not None:
        key = part_key("f16", table.lanes["f32"])
        out[("load", key)] = out[("load_aligned", key)] = "{dst} = " + f16.load.format(p="&{buf}[{idx}]") + ";"
        out[("store", key)] = out[("store_aligned", key)] = out[("store_nt", key)] = f16.store.format(p="&{buf}[{idx}]", v="{value}")
        out[("broadcast", key)] = "{dst} = " + f16.broadcast + ";"
        out[("convert.f32", key)] = "{dst} = " + f16.to_f32 + ";"
        out[(f"convert.{key}", "f32")] = "{dst} = " + f16.from_f32 + ";"
        n = table.lanes["f32"]
        out[("masked_load", key)] = f16.masked_load or f"{{dst}} = lo_masked_load_f16x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});"
        out[("masked_store", key)] = f16.masked_store or f"lo_masked_store_f16x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});"
    return out


# ---------------------------------------------------------------------------- helpers


def lane_conversion_helper(io: LaneIO, name: str, src: str, dst: str, expr: str) -> Helper:
    """`name(v)`: the part vector of `dst` whose lane k is C `expr` of lane k of the whole
    `src` vector `v` (written with `x`): a conversion with no instruction, lane by lane."""
    from loopopt.targets.c_helpers import Helper, c_type

    n = io.n(src)
    code = (
        f"static inline {io.vtype(dst)} {name}({io.vtype(src)} v)\n{{\n"
        f"    {c_type(src)} x[{n}];\n"
        f"    {io.store(src, 'x', 'v')}\n"
        f"    {c_type(dst)} r[{io.n(dst)}] = {{0}};\n"
        f"    for (int k = 0; k < {n}; k++) r[k] = {expr};\n"
        f"    return {io.load(dst, 'r')};\n}}\n"
    )
    return Helper(name, code)


def helpers(isa) -> list[Helper]:  # noqa: ANN001 - an IsaTable (c_helpers.HelperSource)
    """The scalar f16 conversions (every target), `lo_cvt_i64_f32x<W>p` (i64 -> f32 rounded once:
    no ISA but AVX-512 DQ has it; through f64 it would round twice) and the lane-by-lane masked
    f16 accesses of ISAs without 16-bit masked loads."""
    from loopopt.targets.c_helpers import Helper, LaneIO

    out = [Helper(name, code) for name, code in F16_SCALAR_HELPERS.items()]
    if isa.name not in SPELLINGS:
        return out
    io = LaneIO(isa)
    w = io.n("i64")
    out.append(lane_conversion_helper(io, f"lo_cvt_i64_f32x{w}p", "i64", "f32", "(float)x[k]"))
    f16 = F16.get(isa.name)
    if f16 is not None and f16.masked_load is None:
        out += _f16_masked_helpers(io, f16)
    return out


def _f16_masked_helpers(io: LaneIO, f16: F16Spelling) -> list[Helper]:
    """`lo_masked_load_f16xW` / `lo_masked_store_f16xW`: the active lanes only, one at a time
    (a tail runs them once per call)."""
    from loopopt.targets.c_helpers import Helper

    n = io.n("f32")
    bools = io.mask_to_bools(n, "mask", "on")
    load = (
        f"static inline {f16.c_type} lo_masked_load_f16x{n}(const uint16_t *p, {io.mtype(n)} mask, {f16.c_type} passthru)\n{{\n"
        f"    {bools}\n    uint16_t r[{n}];\n    {f16.store.format(p='r', v='passthru')}\n"
        f"    for (int k = 0; k < {n}; k++) if (on[k]) r[k] = p[k];\n    return {f16.load.format(p='r')};\n}}\n"
    )
    store = (
        f"static inline void lo_masked_store_f16x{n}(uint16_t *p, {io.mtype(n)} mask, {f16.c_type} v)\n{{\n"
        f"    {bools}\n    uint16_t r[{n}];\n    {f16.store.format(p='r', v='v')}\n"
        f"    for (int k = 0; k < {n}; k++) if (on[k]) p[k] = r[k];\n}}\n"
    )
    return [Helper(f"lo_masked_load_f16x{n}", load), Helper(f"lo_masked_store_f16x{n}", store)]


F16_SCALAR_HELPERS: dict[str, str] = {
    "lo_f16_to_f32": """static inline float lo_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, bits;
    if (e == 0x1Fu)
        bits = sign | 0x7F800000u | (m << 13); /* inf, NaN */
    else if (e != 0)
        bits = sign | ((e + 112u) << 23) | (m << 13); /* normal: exponent bias 15 -> 127 */
    else if (m == 0)
        bits = sign; /* +-0 */
    else { /* subnormal m * 2^-24: normalize (exact in f32) */
        int s = 0;
        while (!(m & 0x400u)) { m <<= 1; s++; }
        bits = sign | ((uint32_t)(113 - s) << 23) | ((m & 0x3FFu) << 13);
    }
    union { uint32_t u; float f; } c = { bits };
    return c.f;
}
""",
    "lo_f32_to_f16": """static inline uint16_t lo_f32_to_f16(float f)
{
    union { float f; uint32_t u; } c = { f };
    uint32_t x = c.u;
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u)
        return (uint16_t)(sign | 0x7E00u | ((ax >> 13) & 0x3FFu)); /* NaN stays a (quiet) NaN */
    if (ax >= 0x477FF000u)
        return (uint16_t)(sign | 0x7C00u); /* >= 65520 rounds to inf */
    if (ax >= 0x38800000u) { /* a normal half (>= 2^-14): rebias, round to nearest even at bit 13 */
        uint32_t r = ax - 0x38000000u;
        r += 0x0FFFu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    if (ax <= 0x33000000u)
        return (uint16_t)sign; /* <= 2^-25: rounds to +-0 (the tie too) */
    uint32_t e = ax >> 23, man = (ax & 0x7FFFFFu) | 0x800000u, shift = 126u - e; /* units of 2^-24 */
    uint32_t q = man >> shift, rem = man & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    q += rem > half || (rem == half && (q & 1u));
    return (uint16_t)(sign | q);
}
""",
    "lo_f64_to_f16": """static inline uint16_t lo_f64_to_f16(double f)
{
    union { double f; uint64_t u; } c = { f };
    uint64_t x = c.u;
    uint16_t sign = (uint16_t)((x >> 48) & 0x8000u);
    uint64_t ax = x & 0x7FFFFFFFFFFFFFFFull;
    if (ax > 0x7FF0000000000000ull)
        return (uint16_t)(sign | 0x7E00u | ((ax >> 42) & 0x3FFu));
    if (ax >= 0x40EFFE0000000000ull)
        return (uint16_t)(sign | 0x7C00u); /* >= 65520 */
    if (ax >= 0x3F10000000000000ull) { /* >= 2^-14: rebias 1023 -> 15, round at bit 42 */
        uint64_t r = ax - 0x3F00000000000000ull;
        r += 0x1FFFFFFFFFFull + ((r >> 42) & 1u);
        return (uint16_t)(sign | (uint16_t)(r >> 42));
    }
    if (ax <= 0x3E60000000000000ull)
        return sign; /* <= 2^-25 */
    uint64_t e = ax >> 52, man = (ax & 0xFFFFFFFFFFFFFull) | 0x10000000000000ull, shift = 1051u - e;
    uint64_t q = man >> shift, rem = man & ((1ull << shift) - 1u), half = 1ull << (shift - 1u);
    q += rem > half || (rem == half && (q & 1u));
    return (uint16_t)(sign | (uint16_t)q);
}
""",
}
"""Portable scalar f16 conversions: round to nearest even once, like numpy's float16."""
