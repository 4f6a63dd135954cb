"""The concrete width W of a vector loop on a target: one lane count per loop.

Every lane-varying value of a loop body shares one lane count, so the widest element type
decides: W = min over the body's data types (f32 f64 i32 i64) of the target's lanes for it
(256-bit AVX2: 8 for f32, 4 when an f64 or i64 appears). The widest types then fill a
register and a narrower 32-bit type fills its low half (a *part vector*, targets/c_part.py):
`vector<4xf32>` next to `vector<4xf64>` on AVX2. Why not the other way round (8 lanes, the
f64 values split over two registers): one value is then one register, so the simd dialect,
the lowering, accumulators, tails, masks and the interpreter are unchanged at any width, and
only the C printer knows that an f32 vector may fill half its register; the cost is that the
32-bit work of a mixed loop runs at half the register width (docs/design.md).

f16 is a storage type (loaded, stored, converted to f32): its vectors have the f32 lane count,
half a register of 16-bit lanes, on targets with vector f16 conversions (F16C / AVX-512F /
NEON); elsewhere (SSE2) a loop touching f16 is a located error. bf16 is the same kind of
storage type, converted with integer SIMD (a 16-bit shift; rounding by an integer add) on
every vector ISA, SSE2 included.

i8/i16 data alone fills whole registers of its own lanes (targets/c_narrow.py), and so does a
loop whose only wider values are widening sums (loop_to_simd/widen.py: an i32/i64 sum of
extended i8/i16 values or 0/1 counts), whose accumulator is left out of the choice. Next to
16/32-bit lanes (u8 -> f32, i32 -> i16) i8/i16 vectors fill part of a register like the f32
halves (targets/c_narrow_part.py, conversions through the wide integer:
loop_to_simd/narrow_convert.py); next to 64-bit lanes they would fill an eighth or a quarter.

A width already concrete on the loop is kept when it fits. A mix the C printer has no part
vectors for (a 32-bit type next to 64-bit lanes filling less than half, i8/i16 next to 64-bit
lanes), a reduction of narrow part vectors (convert-loop-to-simd first carries the ones of
kind shape in the wide integer: loop_to_simd/narrow_acc.py), or a compaction (`loop.append`) of a part vector is
a located error: `fallback` keeps such a loop scalar (SIMD_FALLBACK_SCALAR).
"""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType
from xdsl.ir import Attribute, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.simd_targets import TargetInfo, element_bits
from loopopt.lowering.loop_to_simd.lanes import is_data_type
from loopopt.lowering.loop_to_simd.widen import NARROW_BITS, WideningSum, widened_values, widening_sums


def data_types(op: loop.VecLoopOp | loop.PredLoopOp, ignore: set[SSAValue] = frozenset()) -> set[Attribute]:  # type: ignore[assignment]
    """The f32 f64 i8 i16 i32 i64 types a loop's body touches (values, buffers, accumulators),
    except those of the values in `ignore`."""
    found: set[Attribute] = {v.type for v in op.inits if is_data_type(v.type) and v not in ignore}
    for region in op.regions:
        for inner in region.walk():
            for value in (*inner.operands, *inner.results):
                if ignore and value in ignore:
                    continue
                t = value.type
                if type(t) is loop.BufType:  # an exact class: an isinstance goes through ABCMeta
                    t = t.element_type
                if is_data_type(t):
                    found.add(t)
    return found


def _check_part_vectors(op: loop.VecLoopOp | loop.PredLoopOp, target: TargetInfo, types: set[Attribute]) -> None:
    """Raise unless every type narrower than the widest fills exactly half a register at W."""
    widest = max(element_bits(t) for t in types)
    for t in types:
        if element_bits(t) < 32 and widest == 64:
            raise LoopoptDiagnostic(
                f"{op.name} mixes {t} with 64-bit lanes: i8/i16 part vectors fill part of a register "
                f"next to 16- and 32-bit lanes only (an i8 vector would fill {element_bits(t)}/64 of it)",
                op,
            )
        if element_bits(t) < 32:
            continue  # a narrow part vector next to 16/32-bit lanes (targets/c_narrow_part.py)
        if element_bits(t) not in (widest, widest // 2):
            raise LoopoptDiagnostic(
                f"{op.name} mixes {t} with {widest}-bit lanes: a {t} vector would fill "
                f"{element_bits(t)}/{widest} of a {target.name} register (part vectors fill half)",
                op,
            )
    for init in op.inits:
        if is_data_type(init.type) and element_bits(init.type) < min(widest, 32):
            raise LoopoptDiagnostic(
                f"{op.name} carries a {init.type} accumulator in a loop of {widest}-bit lanes: a reduction or "
                "scan of narrow lanes has no form for a vector that fills part of a register",
                op,
            )
    for inner in op.walk():
        if isinstance(inner, loop.AppendOp) and element_bits(inner.value.type) != widest:
            raise LoopoptDiagnostic(
                f"{inner.name} of {inner.value.type} in a loop of {widest}-bit lanes: compaction has no "
                "form for a vector that fills part of a register",
                inner,
            )


def widening(op: loop.VecLoopOp | loop.PredLoopOp, target: TargetInfo) -> tuple[int, list[WideningSum]] | None:
    """(W, the sums) when `op`'s data is all of one narrow width apart from widening sums
    (loop_to_simd/widen.py): W is that width's lane count. None otherwise."""
    sums = widening_sums(op)
    if not sums or target.vector_bits == 0:
        return None
    rest = data_types(op, widened_values(sums, op))
    bits = {t.width.data if isinstance(t, IntegerType) else 0 for t in rest}
    if len(bits) != 1 or not bits <= set(NARROW_BITS):
        return None
    return target.vector_bits // bits.pop(), sums


def choose_width(op: loop.VecLoopOp | loop.PredLoopOp, target: TargetInfo, partial: bool = True) -> int:
    """W for `op` on `target` (1 on the scalar target).

    With `partial=False` a loop mixing element widths (whose narrower vectors would fill
    part of a register) is a located error instead.
    """
    if target.vector_bits == 0:
        storage = sorted({str(t) for t in data_types(op) if isinstance(t, Float16Type | BFloat16Type)})
        if storage:  # the scalar ISA has no 1-lane f16 / bf16 vectors (a filter's compaction would need them)
            raise LoopoptDiagnostic(f"{op.name} has {storage[0]} lanes: {target.name} has no {storage[0]} vectors", op)
        return 1
    found = widening(op, target)
    if found is not None:
        natural = found[0]
        if op.width.concrete not in (None, natural):
            raise LoopoptDiagnostic(
                f"{op.name} width {op.width.concrete}: a widening sum of narrow lanes runs at {natural} lanes on {target.name}",
                op,
            )
        return natural
    types = data_types(op) or {Float32Type()}
    storage = sorted({str(t) for t in types if isinstance(t, Float16Type | BFloat16Type)})
    if "f16" in storage and not target.has_f16_conversion:
        raise LoopoptDiagnostic(f"{op.name} has f16 lanes: {target.name} has no vector f16 <-> f32 conversion (F16C)", op)
    if storage and any(element_bits(t) == 64 for t in types):
        raise LoopoptDiagnostic(
            f"{op.name} mixes {storage[0]} with 64-bit lanes: {'an' if storage[0] == 'f16' else 'a'} {storage[0]} "
            f"vector would fill a quarter of a {target.name} register",
            op,
        )
    if storage and any(element_bits(t) == 8 or isinstance(t, IntegerType) and element_bits(t) == 16 for t in types):
        raise LoopoptDiagnostic(f"{op.name} mixes {storage[0]} with i8/i16 lanes: no part vector form", op)
    # f16 / bf16 lanes: f32's count (bf16 converts with integer SIMD, on every vector ISA)
    types = {Float32Type() if isinstance(t, Float16Type | BFloat16Type) else t for t in types}
    natural = min(target.width(t) for t in types)
    if len({target.width(t) for t in types}) > 1:
        if not partial:
            widths = ", ".join(f"{t} x{target.width(t)}" for t in sorted(types, key=str))
            raise LoopoptDiagnostic(
                f"{op.name} mixes element widths ({widths} lanes per {target.name} register): at "
                f"{natural} lanes the narrower vectors fill part of a register (partial=false)",
                op,
            )
        _check_part_vectors(op, target, types)
    given = op.width.concrete
    if given is None:
        return natural
    if given != natural and all(element_bits(t) < 32 for t in types):
        raise LoopoptDiagnostic(
            f"{op.name} width {given}: i8/i16 lanes fill whole {target.name} registers ({natural} lanes)", op
        )
    widest = max(element_bits(t) for t in types)
    if given != natural and min(element_bits(t) for t in types) < 32:
        raise LoopoptDiagnostic(
            f"{op.name} width {given}: a loop mixing i8/i16 with {widest}-bit lanes runs at {natural} lanes on {target.name}",
            op,
        )
    if given * widest > target.vector_bits or given not in (1, 2, 4, 8, 16, 32, 64):
        raise LoopoptDiagnostic(
            f"{op.name} width {given} does not fit {target.name}: {given} x {widest}-bit lanes > "
            f"{target.vector_bits}-bit registers (expected at most {natural})",
            op,
        )
    return given
