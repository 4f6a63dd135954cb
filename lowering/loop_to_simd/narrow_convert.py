"""Conversions of i8/i16 lanes in a loop of wider lanes: through the loop's wide integer type.

A loop mixing i8/i16 with 16/32-bit lanes runs at the wide type's lane count W
(loop_to_simd/width.py), its narrow vectors in part of a register (targets/c_narrow_part.py).
The C printer converts a narrow part only to and from the wide integer (`i8x8 <-> i32` on
AVX2: `vpmovsxbd`, a byte shuffle back), so every other conversion with a narrow side is
built here from those and the ordinary 32-bit ones, keeping docs/integer_semantics.md:

    uitofp i8 -> f32     sext to i32, and 0xFF, sitofp          (exact: 0..255)
    sitofp i8 -> f32     sext to i32, sitofp
    fptosi f32 -> i8     fptosi to i32 (saturating, NaN -> 0), clamp to [-128, 127], trunci
    fptoui f32 -> i8     fptosi to i32, clamp to [0, 255], trunci (negative and NaN give 0)
    ext/trunc i8 <-> i16 (next to i32)   through i32

The clamps give the narrow saturation exactly because the 32-bit conversion already
saturates: every f32 >= 2^31 gives MAX, then 127. `uitofp` / `fptoui` on the scalar target
(one lane, no wide type) decompose the same way through i32 (i64 for f64).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float64Type, IntegerType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from loopopt.dialects import simd

NARROW_CONVERSIONS = (arith.UIToFPOp, arith.SIToFPOp, arith.FPToUIOp, arith.FPToSIOp, arith.ExtSIOp,
                      arith.ExtUIOp, arith.TruncIOp)  # fmt: skip


_CONVERSION_CLASSES: dict[type, bool] = {}


def _narrow_bits(t: Attribute) -> int | None:
    return t.width.data if isinstance(t, IntegerType) and t.width.data in (8, 16) else None


def middle_type(op: Operation, wide_bits: int | None) -> IntegerType | None:
    """The integer type `op` converts through, or None when it needs no decomposition.

    `wide_bits`: the loop's wide lane width (16 or 32) on a SIMD target, None on the scalar
    target (where only uitofp / fptoui, which simd.convert cannot express, decompose)."""
    cls = type(op)
    narrowing = _CONVERSION_CLASSES.get(cls)
    if narrowing is None:
        narrowing = _CONVERSION_CLASSES[cls] = issubclass(cls, NARROW_CONVERSIONS)
    if not narrowing:
        return None  # asked of every lowered op: answered per class (isinstance through ABCMeta)
    src, dst = op.operands[0].type, op.results[0].type
    narrow = _narrow_bits(src) or _narrow_bits(dst)
    if narrow is None:
        return None
    floating = dst if isinstance(op, arith.UIToFPOp | arith.SIToFPOp) else src
    if isinstance(op, arith.UIToFPOp | arith.SIToFPOp | arith.FPToUIOp | arith.FPToSIOp):
        if wide_bits is None and not isinstance(op, arith.UIToFPOp | arith.FPToUIOp):
            return None
        return IntegerType(64 if isinstance(floating, Float64Type) else 32)
    if wide_bits is None or wide_bits in (_bits(src), _bits(dst)):
        return None  # an extension to / truncation from the wide type itself: one simd.convert
    return IntegerType(wide_bits)


def _bits(t: Attribute) -> int | None:
    return t.width.data if isinstance(t, IntegerType) else None


def emit_narrow_conversion(
    op: Operation,
    x: SSAValue,
    mid: IntegerType,
    width: int,
    emit: Callable[[Operation], Operation],
    splat: Callable[[int, VectorType], SSAValue],
) -> SSAValue:
    """Emit `op` (one of `NARROW_CONVERSIONS`) on the vector `x` through `mid` lanes; the result."""
    src, dst = op.operands[0].type, op.results[0].type
    vmid = VectorType(mid, [width])

    def convert(v: SSAValue, t: Attribute) -> SSAValue:
        return emit(simd.ConvertOp(v, VectorType(t, [width]))).results[0]

    if isinstance(op, arith.FPToUIOp | arith.FPToSIOp):
        bits = dst.width.data  # type: ignore[attr-defined]
        lo, hi = (0, (1 << bits) - 1) if isinstance(op, arith.FPToUIOp) else (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        y = convert(x, mid)
        y = emit(simd.MaxOp(y, splat(lo, vmid))).results[0]
        y = emit(simd.MinOp(y, splat(hi, vmid))).results[0]
        return convert(y, dst)
    y = convert(x, mid)  # sign extension (simd.convert extends signed)
    if isinstance(op, arith.UIToFPOp | arith.ExtUIOp):
        y = emit(arith.AndIOp(y, splat((1 << src.width.data) - 1, vmid))).results[0]  # type: ignore[attr-defined]
    return convert(y, dst)
