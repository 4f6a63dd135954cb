"""Loads at a lane-varying index -> `simd.gather`, and which form each gather takes on a CPU.

A vecloop body may load `%x = loop.load %b[%j]` where `%j` is computed in the body from a
loaded integer (`%j = arith.index_cast %k : i64 to index`): each lane reads its own element.
The index lanes are the integer vector `%k` was loaded as (i32 or i64, read signed), so
```
%k = loop.load %idx[%i] : !loop.buf<i32>
%j = arith.index_cast %k : i32 to index
%x = loop.load %b[%j] : !loop.buf<f32>
```
becomes, at W = 8,
```
%k = simd.load %idx[%i] : !loop.buf<i32> -> vector<8xi32>
%x = simd.gather %b[%k], %all, %zero : !loop.buf<f32>, vector<8xi32>, vector<8xi1> -> vector<8xf32>
```
The Loop IR load promises that every index is in bounds (convert-df-to-loop's `df.gather`
clamps out-of-bounds indices to 0 and zeroes their values: lowering/df_to_loop/gather.py),
so every lane is active except the lanes past the end in a masked tail. Index and element
widths may differ (f32 data by i64 indices): the loop then runs at the 64-bit lane count and
the 32-bit vector is a part vector (targets/c_part.py), which the C prints lane by lane; i32
indices in such a loop (32-bit data next to a 64-bit count) are sign-extended to i64 first.

Which form (`choose_gather_forms`, after the lowering): the ISA's gather instruction where
the CPU model's gather cost per lane is below `SCALAR_LOAD_LANE_COST`, else `lanewise`
(scalar loads lane by lane). With no cost in the table (an unknown CPU) the instruction is
kept: it is never wrong, and on every tabled x86 CPU it is the cheaper form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerType, ModuleOp, UnitAttr, VectorType, i1, i64

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.cpu_models import CpuModel
from loopopt.dialects.simd_targets import TargetInfo

if TYPE_CHECKING:
    from loopopt.lowering.loop_to_simd.lanes import BlockEmitter

SCALAR_LOAD_LANE_COST = 1.5
"""Cycles per lane of a gather done with scalar loads: one load (2 per cycle), moving the
index out of and the element into a vector (about one shuffle each, on port 5 / FP
shuffles), per lane; a round estimate, as the CPU table's costs are."""


def emit_gather_load(em: BlockEmitter, op: loop.LoadOp) -> None:
    """`loop.load %b[%j]` with `%j` lane-varying -> `simd.gather` of the lanes' elements."""
    from loopopt.lowering.loop_to_simd.lanes import Varying

    if op.buf_type.rank.data != 1:
        raise LoopoptDiagnostic(f"{op.name}: a gather from a rank-{op.buf_type.rank.data} buffer has no simd form", op)
    (a,) = op.affine_indices
    if len(a.terms) != 1 or a.terms[0][1] != 1 or a.offset:
        raise LoopoptDiagnostic(f"{op.name}: a gather's index must be one computed value (b[j], not an expression of it)", op)
    t = op.result.type
    if isinstance(t, IntegerType) and t.width.data in (8, 16) and em.lowering.target.vector_bits:
        raise LoopoptDiagnostic(f"{op.name}: a gather of {t} lanes has no simd form (gathers load 32- and 64-bit lanes)", op)
    lanes = em.lanes(a.terms[0][0])
    assert isinstance(lanes, Varying)
    indices = lanes.value
    vt = em.lowering.vector_type(op.result.type, op)
    assert isinstance(indices.type, VectorType)
    it = indices.type.element_type
    if isinstance(it, IntegerType) and it.width.data == 32 and em.lowering.target.width(it) > em.width \
            and em.lowering.target.width(vt.element_type) > em.width:
        # 32-bit data by i32 indices, both part vectors (the loop runs at a 64-bit lane count):
        # the C has no such gather row, so the indices are sign-extended to i64 lanes
        ext = em.emit(simd.ConvertOp(indices, VectorType(i64, [em.width])), op)
        indices = ext.results[0]
    mask = em.load_mask
    if mask is None:
        mask = em.lowering.splat_constant(True, VectorType(i1, [em.width]))
    zero = em.lowering.splat_constant(0, vt)
    new = em.emit(simd.GatherOp(op.buf, indices, mask, zero), op)
    new.results[0].name_hint = op.result.name_hint
    em.env[op.result] = Varying(new.results[0])


def gather_instruction_pays(target: TargetInfo, cpu: CpuModel) -> bool:
    """The gather instruction is cheaper per lane than scalar loads on `cpu` (or its cost is unknown)."""
    cost = cpu.costs.gather_512 if target.name == "avx512" else cpu.costs.gather_256 if target.name == "avx2" else None
    if cost is None:
        return True
    lanes = {"avx512": 16, "avx2": 8}[target.name]  # the table's costs are for f32 lanes
    return cost / lanes < SCALAR_LOAD_LANE_COST


def choose_gather_forms(module: ModuleOp, target: TargetInfo, cpu: CpuModel) -> None:
    """Mark every `simd.gather` `lanewise` where the instruction does not pay on `cpu`."""
    pays: bool | None = None  # asked once, at the first gather (its table knows only x86 widths)
    gathers = _GATHER_CLASSES
    for op in module.walk():
        cls = type(op)
        is_gather = gathers.get(cls)
        if is_gather is None:
            is_gather = gathers[cls] = issubclass(cls, simd.GatherOp)
        if not is_gather:
            continue
        if pays is None:
            pays = gather_instruction_pays(target, cpu)
        if not pays:
            op.properties["lanewise"] = UnitAttr()


_GATHER_CLASSES: dict[type, bool] = {}
"""Per op class: a `simd.gather` (the walk covers the whole lowered module; an isinstance
against an op class goes through ABCMeta)."""
