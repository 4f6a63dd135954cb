"""What each SIMD target offers: natural vector widths and capability flags.

`convert-loop-to-simd{target=...}` reads this table to turn a symbolic width W into a
concrete lane count and to pick a MaskForm; the C printer reads it for headers, compiler
flags and which emulations it needs. Widths follow seed 000 §3: one register's worth of
lanes (128-bit SSE2/NEON, 256-bit AVX2, 512-bit AVX-512; the scalar target has one lane).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    BFloat16Type,    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

from loopopt.dialects.loop_attrs import MaskForm

def element_bits(element_type: Attribute) -> int:
    """Bit width of a simd element type (f16 bf16 f32 f64 i32 i64; index counts as i64)."""
    if isinstance(element_type, Float16Type | BFloat16Type):
        return 16
    if isinstance(element_type, Float32Type):
        return 32
    if isinstance(element_type, Float64Type | IndexType):
        return 64
    if isinstance(element_type, IntegerType) and element_type.width.data in (8, 16, 32, 64):
        return element_type.width.data
    raise ValueError(f"{element_type} is not a simd element type (f32, f64, i8, i16, i32, i64)")


@dataclass(frozen=True)
class TargetInfo:
    """One ISA as the lowering and the printer see it."""

    name: str
    """The `target=` option value."""
    vector_bits: int
    """Width of one vector register in bits; 0 for the scalar target."""
    has_fma: bool
    """Fused multiply-add in hardware (`simd.fma` maps to one instruction)."""
    has_masked_load_store: bool
    """Masked loads and stores that leave inactive lanes untouched and do not fault on them."""
    has_compress: bool
    """A compress-store instruction (active lanes written contiguously)."""
    has_mask_registers: bool
    """Predicates live in dedicated mask registers (`__mmask16`), not in vector lanes."""
    mask_form: MaskForm
    """The MaskForm a predicated loop lowers to on this target."""
    minmax_propagates_nan: bool
    """Whether the native vector min/max already propagates NaN (NEON FMIN/FMAX do; x86's
    MINPS returns its second operand when either is NaN, so the printer adds a NaN fix-up)."""
    header: str | None
    """The intrinsics header the printer includes."""
    cflags: tuple[str, ...]
    """Compiler flags that enable the ISA (empty where it is the baseline)."""
    has_streaming_stores: bool = False
    """Aligned non-temporal stores that bypass the caches (x86 `movntps`) and a fence that
    orders them (`sfence`): worth it for outputs too large to stay in cache."""
    has_f16_conversion: bool = False
    """Vector f16 <-> f32 conversions (x86 F16C / AVX-512F `vcvtph2ps`, AArch64 `fcvtl`/`fcvtn`):
    f16 storage lanes vectorize (targets/c_part.py)."""
    dup_slides: bool = False
    """`simd.slide_up_dup` is one lane permute for 32- and 64-bit lanes (SSE2 `pshufd`, AVX2
    `vpermd`/`vpermq`) where the neutral-filled `simd.slide_up` takes two: min/max and/or scans
    use it (lowering/loop_to_simd/scan.py; AVX-512 `valignd` and NEON `vext` slide in one);
    i8/i16 lanes use it for slides by whole 32-bit lanes (scan.dup_slides_from)."""
    flipped_unsigned_minmax: tuple[int, ...] = ()
    """Integer lane widths with no unsigned vector min/max but a signed one (SSE2 16 and 32 bits,
    AVX2 64): a umin/umax scan runs on x ^ MIN, where unsigned order is signed order, and flips back
    at the store (loop_to_simd/scan.py). Not SSE2's 64 bits: its i64 compare goes through
    memory either way, and the flipped scan measured slower there (Zen 4, in L1: 34 vs 29 µs)."""
    flipped_signed_minmax: tuple[int, ...] = ()
    """Integer lane widths with no signed vector min/max but an unsigned one (SSE2 8 bits:
    pminub/pmaxub): a min/max scan runs as umin/umax on x ^ MIN, the same way round."""
    serial_minmax_carry: tuple[str, ...] = ()
    """Element types whose min/max scans carry the running value's last lane (a lane permute on
    the loop-carried chain) rather than `carry ⊕ splat_last(prefix)` (one more combine a
    block, off the chain): their vector min/max is several instructions, so throughput, not
    the chain, bounds the scan (SSE2 i32/f32/i64, AVX2 f32 with its NaN blend; measured on
    Zen 4, docs/df.md#dfscan). A umin/umax that runs as the signed kind (`flipped_unsigned_minmax`)
    counts as its element type's min/max."""

    def width(self, element_type: Attribute) -> int:
        """Natural lane count for `element_type`: one register's worth, 1 for scalar."""
        if self.vector_bits == 0:
            return 1
        return self.vector_bits // element_bits(element_type)


TARGETS: dict[str, TargetInfo] = {
    "sse2": TargetInfo(
        name="sse2", vector_bits=128, has_fma=False, has_masked_load_store=False,
        has_compress=False, has_mask_registers=False, mask_form=MaskForm.SELECT_BLEND,
        minmax_propagates_nan=False, header="emmintrin.h", cflags=("-msse2",),
        has_streaming_stores=True, dup_slides=True, flipped_unsigned_minmax=(16, 32), flipped_signed_minmax=(8,),
        serial_minmax_carry=("i32", "i64", "f32"),
    ),
    "avx2": TargetInfo(
        name="avx2", vector_bits=256, has_fma=True, has_masked_load_store=True,
        has_compress=False, has_mask_registers=False, mask_form=MaskForm.SELECT_BLEND,
        minmax_propagates_nan=False, header="immintrin.h", cflags=("-mavx2", "-mfma", "-mf16c"),
        has_streaming_stores=True, has_f16_conversion=True, dup_slides=True, flipped_unsigned_minmax=(64,),
        serial_minmax_carry=("f32",),
    ),
    "avx512": TargetInfo(
        name="avx512", vector_bits=512, has_fma=True, has_masked_load_store=True,
        has_compress=True, has_mask_registers=True, mask_form=MaskForm.AVX512_MASK,
        minmax_propagates_nan=False, header="immintrin.h",
        cflags=("-mavx512f", "-mavx512dq", "-mavx512vl", "-mavx2", "-mfma"),
        has_streaming_stores=True, has_f16_conversion=True,
    ),
    "neon": TargetInfo(
        name="neon", vector_bits=128, has_fma=True, has_masked_load_store=False,
        has_compress=False, has_mask_registers=False, mask_form=MaskForm.SELECT_BLEND,
        minmax_propagates_nan=True, header="arm_neon.h", cflags=(), has_f16_conversion=True,
    ),
    "scalar": TargetInfo(
        name="scalar", vector_bits=0, has_fma=False, has_masked_load_store=False,
        has_compress=False, has_mask_registers=False, mask_form=MaskForm.BRANCH_PER_LANE,
        minmax_propagates_nan=False, header=None, cflags=(),
    ),
}
"""Every target `convert-loop-to-simd` and the C printer know, by option name."""


def get_target(name: str) -> TargetInfo:
    """The TargetInfo for `name`, or a ValueError listing the known targets."""
    try:
        return TARGETS[name]
    except KeyError:
        raise ValueError(f"unknown simd target '{name}', expected one of {', '.join(TARGETS)}") from None
