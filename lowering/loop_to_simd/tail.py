"""The n mod W iterations after a vector loop's full blocks: scalar epilogue or one masked block.

* scalar (seed 000 §1.3): the source body, unchanged, in a `loop.for` from the end of the
  full blocks to the end of the range, continuing the (now scalar) accumulators;
* masked: one more block whose lanes past the end are off. It is a `loop.for` stepping by
  a whole block from the end of the full blocks, so it runs once when iterations are left
  and not at all otherwise (no branch op needed, and nothing in it runs on an empty tail);
  its lane mask is `simd.prefix_mask(trips - done)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import VectorType, i1
from xdsl.ir import SSAValue

from loopopt.dialects import loop, simd
from loopopt.lowering.loop_to_simd.range import BlockRange


def scalar_tail(br: BlockRange, start: SSAValue, inits: Sequence[SSAValue], stop: SSAValue | None = None) -> loop.ForOp:
    """The source body as a scalar `loop.for` from `start` to the end (or to `stop`: a peel
    loop); inserted before the source."""
    op = br.lowering.source
    assert isinstance(op, loop.VecLoopOp)
    bounds = br.tail_bounds(start)
    if stop is not None:
        bounds[1] = stop
    tail = loop.ForOp(bounds, inits, list(op.accs.data), op.body.clone())
    tail.location = op.location
    br.lowering.emit_pre(tail)
    return tail


def tail_mask(br: BlockRange, done: SSAValue) -> simd.PrefixMaskOp:
    """`simd.prefix_mask(trips - done)`: the lanes of the last, partial block (to be inserted)."""
    rest = br.remaining(done)
    return simd.PrefixMaskOp(rest, VectorType(i1, [br.lowering.width]))
