"""The concrete width W of a vector loop on a target: one lane count per loop.

Every lane-varying value of a loop body shares one lane count, so the widest element type
decides: W = min over the body's data types (f32 f64 i32 i64) of the target's lanes for it
(256-bit AVX2: 8 for f32, 4 when an f64 appears). Every vector then fits one register;
narrower types use part of one. A width already concrete on the loop is kept when it fits.
"""

from __future__ import annotations

from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Attribute

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.dialects.simd_targets import TargetInfo, element_bits
from loopopt.lowering.loop_to_simd.lanes import is_data_type


def data_types(op: loop.VecLoopOp | loop.PredLoopOp) -> set[Attribute]:
    """The f32 f64 i32 i64 types a loop's body touches (values, buffers, accumulators)."""
    found: set[Attribute] = {v.type for v in op.inits if is_data_type(v.type)}
    for region in op.regions:
        for inner in region.walk():
            for value in (*inner.operands, *inner.results):
                t = value.type
                if isinstance(t, loop.BufType):
                    t = t.element_type
                if is_data_type(t):
                    found.add(t)
    return found


def choose_width(op: loop.VecLoopOp | loop.PredLoopOp, target: TargetInfo, partial: bool = True) -> int:
    """W for `op` on `target` (1 on the scalar target).

    With `partial=False` a loop mixing element widths (whose narrower vectors would fill
    part of a register) is a located error instead: the C printer prints full registers only.
    """
    if target.vector_bits == 0:
        return 1
    types = data_types(op) or {Float32Type()}
    natural = min(target.width(t) for t in types)
    if not partial and len({target.width(t) for t in types}) > 1:
        widths = ", ".join(f"{t} x{target.width(t)}" for t in sorted(types, key=str))
        raise LoopoptDiagnostic(
            f"{op.name} mixes element widths ({widths} lanes per {target.name} register): at "
            f"{natural} lanes the narrower vectors fill part of a register (partial=false)",
            op,
        )
    given = op.width.concrete
    if given is None:
        return natural
    widest = max(element_bits(t) for t in types)
    if given * widest > target.vector_bits or given not in (1, 2, 4, 8, 16):
        raise LoopoptDiagnostic(
            f"{op.name} width {given} does not fit {target.name}: {given} x {widest}-bit lanes > "
            f"{target.vector_bits}-bit registers (expected at most {natural})",
            op,
        )
    return given
