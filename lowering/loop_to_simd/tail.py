"""The n mod W iterations after a vector loop's full blocks: scalar epilogue or one masked block.

* scalar (seed 000 §1.3): the source body, unchanged, in a `loop.for` from the end of the
  full blocks to the end of the range, continuing the (now scalar) accumulators;
* masked: one more block whose lanes past the end are off. It is a `loop.for` stepping by
  a whole block from the end of the full blocks, so it runs once when iterations are left
  and not at all otherwise (no branch op needed, and nothing in it runs on an empty tail);
  its lane mask is `simd.prefix_mask(trips - done)`.

`tail=auto` picks one per loop from the CPU model (`choose_tail`): the scalar epilogue runs
trips mod W elements when the bounds are constants, (W-1)/2 on average otherwise, one
dependent chain for a float sum or product; the masked block costs its masked loads and
stores, which are cheap on AVX-512 everywhere and for AVX2 loads, but microcoded for AVX2
stores on AMD (dialects/cpu_models.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import VectorType, i1
from xdsl.ir import SSAValue

from loopopt.dialects import loop, simd
from loopopt.dialects.cpu_models import CpuModel
from loopopt.dialects.loop_attrs import TailKind
from loopopt.dialects.simd_targets import TargetInfo
from loopopt.lowering.df_to_loop.trips import constant_of
from loopopt.lowering.loop_to_simd.accum import is_float_sum_or_product
from loopopt.lowering.loop_to_simd.range import BlockRange, new_for

AUTO = "auto"
"""The `tail=` value that lets the CPU model choose."""


def choose_tail(op: loop.VecLoopOp | loop.PredLoopOp, target: TargetInfo, cpu: CpuModel, width: int) -> TailKind:
    """Masked when the target has masked memory ops and one masked block costs less on `cpu`
    than the scalar epilogue at `width` (over `tail_elements`); scalar otherwise."""
    if not target.has_masked_load_store or width <= 1:
        return TailKind.SCALAR
    body = list(op.body.walk())
    loads = sum(isinstance(o, loop.LoadOp) for o in body)
    stores = sum(isinstance(o, loop.StoreOp) for o in body)
    masked = cpu.masked_tail_cost(target.name, loads, stores)
    scalar = cpu.scalar_tail_cost(tail_elements(op, width), has_float_chain(op))
    if masked is None or masked >= scalar:
        return TailKind.SCALAR
    return TailKind.MASKED


def tail_elements(op: loop.VecLoopOp | loop.PredLoopOp, width: int) -> float:
    """Iterations the tail runs: trips mod W when the bounds are constants, else (W-1)/2,
    the average over trip counts."""
    lo, hi = constant_of(op.lower), constant_of(op.upper)
    step = 1 if op.step is None else constant_of(op.step)
    if lo is None or hi is None or not step:
        return (width - 1) / 2
    return len(range(lo, hi, step)) % width


def has_float_chain(op: loop.VecLoopOp | loop.PredLoopOp) -> bool:
    """A float add/mul accumulator: its scalar steps wait on each other's fp latency."""
    return any(is_float_sum_or_product(a) for a in op.accumulators)


def scalar_tail(br: BlockRange, start: SSAValue, inits: Sequence[SSAValue], stop: SSAValue | None = None,
                take: bool = False) -> loop.ForOp:  # fmt: skip
    """The source body as a scalar `loop.for` from `start` to the end (or to `stop`: a peel
    loop); inserted before the source. With `take` the source's body region moves into it
    instead of being cloned: the lowering's last read of the body, just before the source is
    replaced (cloning ~5 % of the lowering, and erasing the source walked the body again)."""
    op = br.lowering.source
    assert isinstance(op, loop.VecLoopOp)
    bounds = br.tail_bounds(start)
    if stop is not None:
        bounds[1] = stop
    body = op.detach_region(op.body) if take else op.body.clone()
    tail = new_for(bounds, inits, list(op.accs.data), body)
    tail.location = op.location
    br.lowering.emit_pre(tail)
    return tail


def tail_mask(br: BlockRange, done: SSAValue) -> simd.PrefixMaskOp:
    """`simd.prefix_mask(trips - done)`: the lanes of the last, partial block (to be inserted)."""
    rest = br.remaining(done)
    return simd.PrefixMaskOp(rest, VectorType(i1, [br.lowering.width]))
