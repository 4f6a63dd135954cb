"""A scalar head that aligns a vector loop's loads to their size (`Costs.align_loads_from_bytes`).

numpy's arrays start 16 or 32 bytes past a 64-byte boundary (malloc's header; mmap'd ones 16 past
a page), so without a peel each 512-bit load (and at offset 16 every other 256-bit one) spans two
cache lines. On Zen 4 a scalar head of at most 64 / sizeof(T) - 1 iterations up to the first
input's 64-byte boundary (32 for 256-bit vectors) ran folds 1.3-1.5x faster in the L1d,
1.02-1.09x in the L2 and
L3, maps 1.01-1.08x; beyond the LLC nothing (results/amd-zen4/align_s25). Like the streamed-store
peel (vecloop.emit_streaming) no branch decides: the count is 0 outside the size window.
```
%peel = arith.select %aligned, min(simd.align_offset %x[lo + c], 64, trips), 0
%head = loop.for %i in [lo, lo + peel) accs(inits) { the source body }      // scalar
... the vector loops from lo + peel, their horizontal epilogue combining with %head's results
```
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import TailKind
from loopopt.lowering.loop_to_simd.accum import is_float_sum_or_product
from loopopt.lowering.loop_to_simd.lanes import LoopLowering, is_data_type
from loopopt.lowering.loop_to_simd.plan import binary
from loopopt.lowering.loop_to_simd.range import BlockRange
from loopopt.lowering.loop_to_simd.tail import scalar_tail

LINE_BYTES = 64
"""A cache line, which a load should not span."""


def aligned_load(op: loop.VecLoopOp, tail: TailKind, widening: bool) -> loop.LoadOp | None:
    """The load the head aligns: the first one of a rank-1 buffer at `i + c`, or None
    when the loop may not be peeled: `tail(none)` promises whole blocks, a scan or a strict
    float fold must run in element order, a widened accumulator's lanes hold another type."""
    if tail == TailKind.NONE or widening:
        return None
    for a in op.accumulators:
        if a.next is not None and any(isinstance(u.operation, loop.StoreOp | loop.AppendOp) for u in a.next.uses):
            return None
        if is_float_sum_or_product(a) and not a.reassoc:
            return None
    for o in op.body.walk():
        if isinstance(o, loop.LoadOp) and o.buf_type.rank.data == 1 and is_data_type(o.buf_type.element_type):
            coeffs, _ = o.affine_indices[0].normalized()
            if coeffs == {op.var: 1}:
                return o
    return None


def head_count(lowering: LoopLowering, br: BlockRange, load: loop.LoadOp, when: bool | SSAValue) -> SSAValue:
    """The head's trips: to `load`'s next boundary of the vector's size (at most the trips) when `when`
    holds (an i1 on the trip count, or True), else 0. A streamed map's peel takes it as its count
    when its output is too small to stream (vecloop.emit_streaming)."""
    pre = lowering.emit_pre
    _, offset = load.affine_indices[0].normalized()
    first = br.lo if not offset else pre(binary(arith.AddiOp, br.lo, lowering.index_const(offset))).results[0]
    # to the vector's size: an aligned 32-byte load never spans a line (numpy's 32-byte offset needs no head)
    ahead = pre(simd.AlignOffsetOp(load.buf, first, min(LINE_BYTES, lowering.target.vector_bits // 8))).results[0]
    peel = pre(binary(arith.MinSIOp, ahead, br.trips)).results[0]
    if when is not True:
        peel = pre(arith.SelectOp(when, peel, lowering.index_const(0))).results[0]
    peel.name_hint = "head"
    return peel


def align_peel(lowering: LoopLowering, br: BlockRange, load: loop.LoadOp, when: bool | SSAValue,
               inits: Sequence[SSAValue]) -> tuple[BlockRange, list[SSAValue]]:  # fmt: skip
    """Emit the scalar head (`head_count`); returns the range left to the vector loops and the
    accumulators' values after the head (the inits the horizontal epilogue combines with)."""
    rest = br.after(head_count(lowering, br, load, when))
    head = scalar_tail(br, br.lo, list(inits), stop=rest.lo)
    return rest, list(head.res)
