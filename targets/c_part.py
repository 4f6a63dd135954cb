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
the same order as a native W-lane reduction. A scan's carry (`splat_last`) is lane W - 1, not the
register's top lane. The conversions between the halves and the
64-bit types (`convert.f64` of `f32x4`, ...) are rows here too (`CONVERSIONS`).

f16 is a storage type: its buffers hold IEEE half bits (`uint16_t` in C), and a loop computes
on them as f32 (`arith.extf` / `arith.truncf`). Its vectors have the f32 lane count, 16-bit
lanes in half a register of their own type (`F16`: `__m128i` on AVX2 with F16C's
`_mm256_cvtph_ps` / `_mm256_cvtps_ph`, `__m256i` on AVX-512, `uint16x4_t` on NEON with
`vcvt_f32_f16`); SSE2 has no such conversion and keeps f16 loops scalar
(loop_to_simd/width.py). Scalar code converts with portable helpers (`lo_f16_to_f32`,
`lo_f32_to_f16`, `lo_f64_to_f16`: round to nearest even, once; NaN stays NaN; overflow to inf).

bf16 (bfloat16 bits, ml_dtypes.bfloat16 at the boundary) is held and moved the same way
(`STORAGE16`, shared with f16) on every vector ISA, SSE2 included, and converted with integer
SIMD (`BF16`): widening shifts the bits up 16, narrowing rounds to nearest even with an
integer add and makes a NaN the quiet NaN of its sign (`lo_f32_to_bf16xW`), bit for bit as
ml_dtypes. With AVX512_BF16 on the CPU (`with_cpu_features`) AVX-512 narrows with
`vcvtneps2bf16` and redoes the lanes where that instruction differs (subnormals, NaN).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loopopt.targets.c_helpers import Helper, LaneIO
    from loopopt.targets.c_isa import IsaTable

PART_ELEMENTS = ("f32", "i32")
"""Element types that can fill part of a register (next to the 64-bit f64/i64)."""

WHOLE_VECTOR_KEYS = ("load", "load_aligned", "store", "store_aligned", "store_nt", "masked_load", "masked_store",
                     "compress_store", "compress_store_full", "compress_store_full_reg",
                     "compress_store_limit",
                     "select", "select_zero", "popcount", "splat_last")  # fmt: skip
"""Row keys whose meaning depends on the lanes past the part, or on a mask's layout (plus every
`hreduce.*`, `cmp.*` and `convert.*` key): a part vector needs its own row for them."""

_PART_KEY = re.compile(r"^(f16|bf16|f32|i32|i8|i16)x(\d+)$")

STORAGE_ELEMENTS = ("f16", "bf16")
"""16-bit float storage types: W lanes of bits in a type of their own (`STORAGE16`), converted to
and from f32 (`F16`, `BF16`)."""


def part_key(elt: str, lanes: int) -> str:
    """The row element key of a `vector<lanes x elt>` that fills part of a register: `f32x4`."""
    return f"{elt}x{lanes}"


def split_part_key(key: str) -> tuple[str, int] | None:
    """(`f32`, 4) for `f32x4`; None for an element key of a whole register."""
    m = _PART_KEY.match(key)
    return (m.group(1), int(m.group(2))) if m else None


def part_lanes(isa_lanes: Mapping[str, int], elt: str) -> int | None:
    """W for a part vector of `elt` on an ISA with these native lane counts (half the 32-bit
    lanes: the 64-bit lane count; f16, bf16: the f32 lane count), or None when `elt` never fills
    part of a register. i8/i16 parts have several: `is_part_lanes`."""
    if elt in STORAGE_ELEMENTS:
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
    """The C type of a part vector of `elt` when it is not the whole register's (f16, bf16), else None."""
    converts = elt in STORAGE_ELEMENTS and isa_name in STORAGE_CONVERSIONS[elt]
    return STORAGE16[isa_name].c_type if converts else None


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
    if base in STORAGE_ELEMENTS or key in WHOLE_VECTOR_KEYS or key.startswith(("hreduce.", "cmp.")):
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
    splat_last: dict[str, str]
    """Part element -> an expression: lane W - 1 of `{a}` on every lane (a scan's carry; the
    whole register's row would take its top lane, past the part)."""


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
        splat_last={"f32": "_mm_shuffle_ps({a}, {a}, 0x55)", "i32": "_mm_shuffle_epi32({a}, 0x55)"},
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
        splat_last={"f32": "_mm256_permutevar8x32_ps({a}, _mm256_set1_epi32(3))",
                    "i32": "_mm256_permutevar8x32_epi32({a}, _mm256_set1_epi32(3))"},
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
        splat_last={"f32": "_mm512_permutexvar_ps(_mm512_set1_epi32(7), {a})",
                    "i32": "_mm512_permutexvar_epi32(_mm512_set1_epi32(7), {a})"},
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
        splat_last={"f32": "vdupq_laneq_f32({a}, 1)", "i32": "vdupq_laneq_s32({a}, 1)"},
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
class Storage16:
    """How one ISA holds and moves W 16-bit storage lanes (f16 or bf16 bits; W the f32 lanes)."""

    c_type: str
    load: str
    """An expression loading W lanes from `{p}`."""
    store: str
    """A statement storing `{v}` to `{p}`."""
    broadcast: str
    """An expression splatting the bits `{a}` (a `uint16_t`)."""
    masked_load: str | None = None
    masked_store: str | None = None
    """Rows with a mask instruction (AVX-512BW); None: lane by lane (`lo_masked_*_u16xW`)."""


STORAGE16: dict[str, Storage16] = {
    "sse2": Storage16(
        c_type="__m128i", load="_mm_loadl_epi64((const __m128i *){p})", store="_mm_storel_epi64((__m128i *){p}, {v});",
        broadcast="_mm_set1_epi16((short){a})",
    ),
    "avx2": Storage16(
        c_type="__m128i", load="_mm_loadu_si128((const __m128i *){p})", store="_mm_storeu_si128((__m128i *){p}, {v});",
        broadcast="_mm_set1_epi16((short){a})",
    ),
    "avx512": Storage16(
        c_type="__m256i", load="_mm256_loadu_si256((const __m256i *){p})", store="_mm256_storeu_si256((__m256i *){p}, {v});",
        broadcast="_mm256_set1_epi16((short){a})",
        masked_load="{dst} = _mm256_mask_loadu_epi16({passthru}, {mask}, &{buf}[{idx}]);",
        masked_store="_mm256_mask_storeu_epi16(&{buf}[{idx}], {mask}, {value});",
    ),
    "neon": Storage16(c_type="uint16x4_t", load="vld1_u16({p})", store="vst1_u16({p}, {v});", broadcast="vdup_n_u16({a})"),
}  # fmt: skip
"""Per ISA, the type and moves of 16-bit storage lanes (half a register; SSE2: a quarter)."""


@dataclass(frozen=True)
class Conversion16:
    """An ISA's vector conversions between a storage type's W lanes (`{a}`) and W f32 lanes."""

    to_f32: str
    from_f32: str


F16: dict[str, Conversion16] = {
    "avx2": Conversion16("_mm256_cvtph_ps({a})", "_mm256_cvtps_ph({a}, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)"),
    "avx512": Conversion16("_mm512_cvtph_ps({a})", "_mm512_cvtps_ph({a}, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)"),
    "neon": Conversion16("vcvt_f32_f16(vreinterpret_f16_u16({a}))", "vreinterpret_u16_f16(vcvt_f16_f32({a}))"),
}  # fmt: skip
"""Per ISA with vector f16 conversions (x86 F16C and AVX-512F, AArch64 FCVTL/FCVTN): f16 lanes.
The conversions round to nearest even (the immediate on x86, the default FPCR on AArch64)."""

BF16: dict[str, Conversion16] = {
    "sse2": Conversion16("_mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), {a}))", "lo_f32_to_bf16x4({a})"),
    "avx2": Conversion16("_mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32({a}), 16))", "lo_f32_to_bf16x8({a})"),
    "avx512": Conversion16("_mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32({a}), 16))", "lo_f32_to_bf16x16({a})"),
    "neon": Conversion16("vreinterpretq_f32_u32(vshll_n_u16({a}, 16))", "lo_f32_to_bf16x4({a})"),
}  # fmt: skip
"""Per ISA, bf16 lanes with integer SIMD (every vector ISA): bf16 -> f32 is exact (the bits
shifted up 16), f32 -> bf16 rounds to nearest even as ml_dtypes does (`BF16_VECTOR_HELPERS`)."""

STORAGE_CONVERSIONS: dict[str, dict[str, Conversion16]] = {"f16": F16, "bf16": BF16}
"""Storage element -> the ISAs that convert its vectors (an ISA missing keeps such loops scalar)."""

F16_SCALAR_ROWS: dict[tuple[str, str], str] = {
    ("convert.f32", "f16"): "{dst} = lo_f16_to_f32({a});",
    ("convert.f64", "f16"): "{dst} = (double)lo_f16_to_f32({a});",  # exact, both steps
    ("convert.f16", "f32"): "{dst} = lo_f32_to_f16({a});",
    ("convert.f16", "f64"): "{dst} = lo_f64_to_f16({a});",  # rounds once (through f32 it could round twice)
}
"""Scalar f16 conversions (every target's scalar code): `uint16_t` bits to and from floats."""

BF16_SCALAR_ROWS: dict[tuple[str, str], str] = {
    ("convert.f32", "bf16"): "{dst} = lo_bf16_to_f32({a});",
    ("convert.f64", "bf16"): "{dst} = (double)lo_bf16_to_f32({a});",  # exact, both steps
    ("convert.bf16", "f32"): "{dst} = lo_f32_to_bf16({a});",
    ("convert.bf16", "f64"): "{dst} = lo_f32_to_bf16((float){a});",  # through f32, as ml_dtypes casts f64
}
"""Scalar bf16 conversions (every target's scalar code). f64 -> bf16 rounds twice, through f32:
that is what ml_dtypes (numpy's bfloat16) does, so results match it bit for bit."""

STORAGE_SCALAR_MEMORY = ("load", "store", "align_offset", "select")
"""Scalar f16 / bf16 accesses and selects (bit moves): the f32 rows, spelled alike on `uint16_t` bits."""

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

        memory = {(k, s): t for (k, e), t in SCALAR.rows.items() if e == "f32" and k in STORAGE_SCALAR_MEMORY
                  for s in STORAGE_ELEMENTS}  # fmt: skip
        return {**F16_SCALAR_ROWS, **BF16_SCALAR_ROWS, **memory}
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
        out[("splat_last", key)] = "{dst} = " + spelling.splat_last[elt] + ";"
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
    for elt in STORAGE_ELEMENTS:
        conv = STORAGE_CONVERSIONS[elt].get(isa_name)
        if conv is not None:
            out.update(_storage_rows(STORAGE16[isa_name], conv, part_key(elt, table.lanes["f32"]), table.lanes["f32"]))
    return out


def _storage_rows(s: Storage16, conv: Conversion16, key: str, n: int) -> dict[tuple[str, str], str]:
    """The rows of one storage type's W-lane vectors (`key`: `f16x8`, `bf16x8`)."""
    out = {("convert.f32", key): "{dst} = " + conv.to_f32 + ";", (f"convert.{key}", "f32"): "{dst} = " + conv.from_f32 + ";"}
    out[("load", key)] = out[("load_aligned", key)] = "{dst} = " + s.load.format(p="&{buf}[{idx}]") + ";"
    out[("store", key)] = out[("store_aligned", key)] = out[("store_nt", key)] = s.store.format(p="&{buf}[{idx}]", v="{value}")
    out[("broadcast", key)] = "{dst} = " + s.broadcast + ";"
    out[("masked_load", key)] = s.masked_load or f"{{dst}} = lo_masked_load_u16x{n}(&{{buf}}[{{idx}}], {{mask}}, {{passthru}});"
    out[("masked_store", key)] = s.masked_store or f"lo_masked_store_u16x{n}(&{{buf}}[{{idx}}], {{mask}}, {{value}});"
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

    out = [Helper(name, code) for name, code in {**F16_SCALAR_HELPERS, **BF16_SCALAR_HELPERS}.items()]
    if isa.name not in SPELLINGS:
        return out
    io = LaneIO(isa)
    w = io.n("i64")
    out.append(lane_conversion_helper(io, f"lo_cvt_i64_f32x{w}p", "i64", "f32", "(float)x[k]"))
    storage = STORAGE16[isa.name]
    if storage.masked_load is None:
        out += _u16_masked_helpers(io, storage)
    if isa.name in BF16_VECTOR_HELPERS:
        out.append(Helper(f"lo_f32_to_bf16x{io.n('f32')}", BF16_VECTOR_HELPERS[isa.name]))
    if isa.name == "avx512":
        out.append(Helper("lo_f32_to_bf16x16_ne", BF16_AVX512_BF16_HELPER))
    return out


def _u16_masked_helpers(io: LaneIO, s: Storage16) -> list[Helper]:
    """`lo_masked_load_u16xW` / `lo_masked_store_u16xW` (f16 and bf16 lanes): the active lanes
    only, one at a time (a tail runs them once per call)."""
    from loopopt.targets.c_helpers import Helper

    n = io.n("f32")
    bools = io.mask_to_bools(n, "mask", "on")
    load = (
        f"static inline {s.c_type} lo_masked_load_u16x{n}(const uint16_t *p, {io.mtype(n)} mask, {s.c_type} passthru)\n{{\n"
        f"    {bools}\n    uint16_t r[{n}];\n    {s.store.format(p='r', v='passthru')}\n"
        f"    for (int k = 0; k < {n}; k++) if (on[k]) r[k] = p[k];\n    return {s.load.format(p='r')};\n}}\n"
    )
    store = (
        f"static inline void lo_masked_store_u16x{n}(uint16_t *p, {io.mtype(n)} mask, {s.c_type} v)\n{{\n"
        f"    {bools}\n    uint16_t r[{n}];\n    {s.store.format(p='r', v='v')}\n"
        f"    for (int k = 0; k < {n}; k++) if (on[k]) p[k] = r[k];\n}}\n"
    )
    return [Helper(f"lo_masked_load_u16x{n}", load), Helper(f"lo_masked_store_u16x{n}", store)]


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

CPU_FEATURE_ROWS: dict[tuple[str, str], dict[tuple[str, str], str]] = {
    ("avx512", "avx512_bf16"): {("convert.bf16x16", "f32"): "{dst} = lo_f32_to_bf16x16_ne({a});"},
}
"""(ISA, CPU feature) -> the rows it replaces: only where the result has the same bits."""

CPU_FEATURE_FLAGS: dict[str, tuple[str, str]] = {
    "avx512_bf16": ("avx512bf16", "-mavx512bf16"), "avx512_vbmi2": ("avx512vbmi2", "-mavx512vbmi2"),
}
"""CPU feature -> (its `#pragma GCC target` name, its gcc flag)."""


def _feature_rows(isa: str, feature: str) -> dict[tuple[str, str], str] | None:
    """CPU_FEATURE_ROWS, and AVX512_VBMI2's narrow compaction (its own module, imported late:
    c_narrow_compress -> c_helpers -> c_isa -> this module)."""
    if (isa, feature) == ("avx512", "avx512_vbmi2"):
        from loopopt.targets.c_narrow_compress import VBMI2_ROWS

        return VBMI2_ROWS
    return CPU_FEATURE_ROWS.get((isa, feature))


def with_cpu_features(table: IsaTable, features: list[str]) -> IsaTable:
    """`table` with the rows of the CPU `features` it can use and the pragma enabling them (the C
    file then compiles with the ISA's usual flags); ValueError for a feature it cannot use."""
    from dataclasses import replace

    rows, pragmas, end, flags = dict(table.rows), list(table.pragmas), list(table.pragmas_end), list(table.cflags)
    for f in features:
        extra = _feature_rows(table.name, f)
        if extra is None:
            raise ValueError(f"cpu feature {f!r} has no use on target {table.name!r}")
        rows.update(extra)
        name = CPU_FEATURE_FLAGS[f][0]
        # gcc: every function after the pragma; clang has no `GCC target`: an attribute on each function
        pragmas += ["#if defined(__clang__)",
                    f'#pragma clang attribute push (__attribute__((target("{name}"))), apply_to = function)',
                    "#else", f'#pragma GCC target("{name}")', "#endif"]  # fmt: skip
        end += ["#if defined(__clang__)", "#pragma clang attribute pop", "#endif"]
        flags.append(CPU_FEATURE_FLAGS[f][1])
    return replace(table, rows=rows, pragmas=tuple(pragmas), pragmas_end=tuple(end), cflags=tuple(flags))


def bf16_bits(value: float) -> int:
    """The bits of `value` as a bfloat16, rounded as `lo_f32_to_bf16` (through f32, like ml_dtypes)."""
    import numpy as np

    with np.errstate(all="ignore"):
        x = int(np.array(value, np.float32).view(np.uint32))
    if x & 0x7FFFFFFF > 0x7F800000:
        return (x >> 16) & 0x8000 | 0x7FC0
    return (x + 0x7FFF + ((x >> 16) & 1)) >> 16


BF16_SCALAR_HELPERS: dict[str, str] = {
    "lo_bf16_to_f32": """static inline float lo_bf16_to_f32(uint16_t h)
{
    union { uint32_t u; float f; } c = { (uint32_t)h << 16 }; /* exact: bf16 is f32's upper half */
    return c.f;
}
""",
    "lo_f32_to_bf16": """static inline uint16_t lo_f32_to_bf16(float f)
{
    union { float f; uint32_t u; } c = { f };
    uint32_t x = c.u;
    if ((x & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)(((x >> 16) & 0x8000u) | 0x7FC0u); /* NaN: the quiet NaN of its sign (ml_dtypes) */
    /* round to nearest even at bit 16 (subnormals too; the largest finite values round to inf):
       no NaN is left, so |x| <= 0x7F800000 and the sum cannot wrap */
    return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
""",
}
"""Portable scalar bf16 conversions, bit for bit as ml_dtypes.bfloat16 (checked on every upper
half and the rounding-relevant lower halves: test/python/loop_to_simd/test_bf16.py)."""

_BF16_ROUND = """    /* round to nearest even at bit 16 (an integer add: it carries into the exponent, and the
       largest finite values round to inf); NaN lanes become the quiet NaN of their sign */
"""

BF16_VECTOR_HELPERS: dict[str, str] = {
    "sse2": """static inline __m128i lo_f32_to_bf16x4(__m128 a)
{
    __m128i x = _mm_castps_si128(a);
""" + _BF16_ROUND + """    __m128i r = _mm_add_epi32(x, _mm_add_epi32(_mm_set1_epi32(0x7FFF), _mm_and_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(1))));
    __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(a, a));
    __m128i q = _mm_or_si128(_mm_and_si128(x, _mm_set1_epi32((int)0x80000000u)), _mm_set1_epi32(0x7FC00000));
    r = _mm_srai_epi32(_mm_or_si128(_mm_andnot_si128(nan, r), _mm_and_si128(nan, q)), 16); /* packs keeps the bits */
    return _mm_packs_epi32(r, _mm_setzero_si128());
}
""",
    "avx2": """static inline __m128i lo_f32_to_bf16x8(__m256 a)
{
    __m256i x = _mm256_castps_si256(a);
""" + _BF16_ROUND + """    __m256i r = _mm256_add_epi32(x, _mm256_add_epi32(_mm256_set1_epi32(0x7FFF), _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1))));
    __m256i q = _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi32((int)0x80000000u)), _mm256_set1_epi32(0x7FC00000));
    r = _mm256_srli_epi32(_mm256_blendv_epi8(r, q, _mm256_castps_si256(_mm256_cmp_ps(a, a, _CMP_UNORD_Q))), 16);
    return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
}
""",
    "avx512": """static inline __m256i lo_f32_to_bf16x16(__m512 a)
{
    __m512i x = _mm512_castps_si512(a);
""" + _BF16_ROUND + """    __m512i r = _mm512_add_epi32(x, _mm512_add_epi32(_mm512_set1_epi32(0x7FFF), _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1))));
    __m512i q = _mm512_or_si512(_mm512_and_si512(x, _mm512_set1_epi32((int)0x80000000u)), _mm512_set1_epi32(0x7FC00000));
    r = _mm512_mask_mov_epi32(r, _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), q);
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(r, 16));
}
""",
    "neon": """static inline uint16x4_t lo_f32_to_bf16x4(float32x4_t a)
{
    uint32x4_t x = vreinterpretq_u32_f32(a);
""" + _BF16_ROUND + """    uint32x4_t r = vaddq_u32(x, vaddq_u32(vdupq_n_u32(0x7FFF), vandq_u32(vshrq_n_u32(x, 16), vdupq_n_u32(1))));
    uint32x4_t q = vorrq_u32(vandq_u32(x, vdupq_n_u32(0x80000000u)), vdupq_n_u32(0x7FC00000u));
    return vshrn_n_u32(vbslq_u32(vceqq_f32(a, a), r, q), 16);
}
""",
}
"""Per ISA, `lo_f32_to_bf16xW`: W f32 lanes to bf16 bits, bit for bit as `lo_f32_to_bf16`."""

BF16_AVX512_BF16_HELPER = """static inline __m256i lo_f32_to_bf16x16_ne(__m512 a)
{
    /* AVX512_BF16's vcvtneps2bf16 rounds to nearest even, but it flushes subnormal inputs to +-0
       and keeps a NaN's payload where ml_dtypes rounds subnormals and gives the quiet NaN of the
       sign: those lanes (vfpclassps: QNaN 0x01 | denormal 0x20 | SNaN 0x80) take the integer
       rounding, so the bits are lo_f32_to_bf16x16's (checked on all 2^32 floats) */
    __m256i r = (__m256i)_mm512_cvtneps_pbh(a);
    __mmask16 odd = _mm512_fpclass_ps_mask(a, 0xA1);
    return odd ? _mm256_mask_mov_epi16(r, odd, lo_f32_to_bf16x16(a)) : r;
}
"""
"""`loop.cpu_features = "avx512_bf16"` (a CPU with it, `cpu=zen4`): 16 f32 lanes to bf16 in one
instruction on ordinary values, bit for bit as the portable helper."""
