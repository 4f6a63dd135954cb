"""Scans at a concrete width: the log-step in-register prefix and the carried last lane.

loop-vectorize writes a scan (docs/df.md, df.scan) as a vecloop with a `scan` accumulator
whose step is `acc ⊕ loop.lane_scan(x)`. Per block of W lanes:

```
%x  = simd.load %in[%i] : ... -> vector<8xi32>
%s1 = simd.slide_up %x, %zero by 1 : vector<8xi32>     // log2(W) steps: slide by 1, 2, 4
%p1 = arith.addi %s1, %x : vector<8xi32>                // (the kind's neutral fills the low lanes)
%s2 = simd.slide_up %p1, %zero by 2 : vector<8xi32>
%p2 = arith.addi %s2, %p1 : vector<8xi32>
%s4 = simd.slide_up %p2, %zero by 4 : vector<8xi32>
%p  = arith.addi %s4, %p2 : vector<8xi32>               // lane k: x0 + ... + xk
%t  = arith.addi %carry, %p : vector<8xi32>             // the running value on every lane
simd.store %t, %out[%i]
%carry' = simd.splat_last %t : vector<8xi32>            // carried into the next block
```
The carry starts as the init on every lane; K blocks per main-loop iteration chain their
carries (the prefixes of the K blocks are independent, only `carry ⊕ p` and the splat are
serial), a remainder loop of single blocks follows, then `simd.first_lane` hands the
running value to the scalar tail, which continues it with the source body (there
`loop.lane_scan` is one lane: the value itself). The tail is always scalar: a masked block
would carry a lane past the end.

A predloop (filter → scan) lowers its `scan` accumulators in loop_to_simd/predloop.py with
the same pieces: `loop.lane_scan` sees the dropped lanes as the neutral element
(BlockEmitter), the running value is compress-stored at the kept lanes, and its last
lane, which includes every kept one, is the carry; one block per iteration.

Float add/mul scans only come here with `reassoc` (loop-vectorize's float_reduction_order):
the log-step order adds x0..xk as a tree, so a float prefix differs from the sequential
one by reassociation (bounded like a pairwise sum); integer and min/max scans are exact.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import AccKind, AccumAttr
from loopopt.lowering.loop_to_simd.accum import carried_kind, combine, neutral_vector
from loopopt.lowering.loop_to_simd.table import FLOAT_COMBINE, INT_COMBINE
from loopopt.lowering.loop_to_simd.lanes import LoopLowering, located
from loopopt.lowering.loop_to_simd.range import BlockRange
from loopopt.lowering.loop_to_simd.tail import scalar_tail
from loopopt.lowering.loop_to_simd.vecloop import VecOptions, emit_block, lower_transactionally

Emit = Callable[[Operation], Operation]

DEFAULT_SCAN_UNROLL = 2
"""Blocks per main-loop iteration when `interleave` is not given: their prefixes overlap
(the chain per block is one combine and one lane permute), more only adds code."""


def has_scan(op: loop.VecLoopOp) -> bool:
    """The vecloop carries a scan's running value (loop-vectorize's `scan` accumulators)."""
    return any(acc.is_scan for acc in op.accs.data)


def scan_costs_more(op: loop.VecLoopOp, options: VecOptions) -> str | None:
    """Why the scalar loop is faster than this scan's vector form on the CPU (its
    `Costs.scalar_scans`: a combine with no instruction on the target), or None."""
    for acc in op.accumulators:
        key = (options.target.name, acc.kind.value, str(acc.arg.type))
        if acc.scan and key in options.cpu.costs.scalar_scans:
            return (f"a {key[1]} scan of {key[2]} costs more than the scalar loop on {options.cpu.name} "
                    f"with {key[0]} (no vector {key[1]} instruction for {key[2]}: Costs.scalar_scans)")
    return None


def lane_prefix(kind: AccKind, value: SSAValue, neutral: SSAValue, emit: Emit) -> SSAValue:
    """Lane k = v0 ⊕ ... ⊕ vk in log2(W) slide-and-combine steps (the Hillis-Steele scan);
    `neutral` (the kind's neutral element on every lane) fills the lanes slid in."""
    vt = value.type
    assert isinstance(vt, VectorType)
    width = vt.get_shape()[0]
    by = 1
    while by < width:
        slid = emit(simd.SlideUpOp(value, neutral, by)).results[0]
        value = combine(kind, vt.element_type, slid, value, emit)  # earlier lanes on the left
        by *= 2
    return value


def lower_scan_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions) -> None:
    """Lower a vecloop with `scan` accumulators (every accumulator is one: loop-vectorize's `scan`)."""
    lower_transactionally(op, rewriter, options, _lower_scan_vecloop)


def _lower_scan_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions,
                        lowering: LoopLowering, width: int) -> None:  # fmt: skip
    br = BlockRange.of(lowering)
    lowering.hoist_invariants()
    k = options.interleave or DEFAULT_SCAN_UNROLL
    accs = op.accumulators
    vtypes = [lowering.vector_type(a.arg.type, op) for a in accs]
    kinds = [carried_kind(AccumAttr(a.kind, a.reassoc, scan=True), vt) for a, vt in zip(accs, vtypes, strict=True)]
    carries = [lowering.broadcast_outside(a.init, vt) for a, vt in zip(accs, vtypes, strict=True)]
    pre = lowering.emit_pre
    steps = [scan_step_operand(op, j) for j in range(len(accs))]

    def chained_blocks(start: SSAValue, stop: SSAValue, blocks: int, inits: list[SSAValue]) -> list[SSAValue]:
        """A loop of `blocks` chained W-lane blocks per iteration over [start, stop)."""
        for_op, body = br.block_loop(start, stop, width * blocks, inits, vtypes, kinds)
        carry = list(body.args[1:])
        for copy in range(blocks):
            var = body.args[0]
            if copy:
                var = _emit_in(body, arith.AddiOp(var, lowering.index_const(copy * width * br.step)), op).results[0]
            nexts = emit_block(lowering, body, var, carry)
            carry = [next_carry(accs[j], steps[j], t, c, lambda o: _emit_in(body, o, op))
                     for j, (t, c) in enumerate(zip(nexts, carry, strict=True))]
        body.add_op(located(loop.YieldOp(*carry), op))
        pre(for_op)
        return list(for_op.res)

    _, main_end = br.full_blocks(width * k)
    carries = chained_blocks(br.lo, main_end, k, carries)
    stop = main_end
    if k > 1:
        _, stop = br.full_blocks(width)
        carries = chained_blocks(main_end, stop, 1, carries)
    running = [pre(simd.FirstLaneOp(c)).results[0] for c in carries]
    rewriter.replace(op, [], list(scalar_tail(br, stop, running).res))


def scan_step_operand(op: loop.VecLoopOp | loop.PredLoopOp, j: int) -> int | None:
    """Which operand of accumulator j's step is the block's prefix, when the step is
    `acc ⊕ loop.lane_scan(x)` (in either order) with ⊕ the accumulator's kind; else None."""
    acc = op.accumulators[j]
    step = acc.next.owner if acc.next is not None else None
    if not isinstance(step, Operation) or len(step.operands) != 2 or acc.kind == AccKind.CUSTOM:
        return None
    table = FLOAT_COMBINE if isinstance(acc.arg.type, Float32Type | Float64Type) else INT_COMBINE
    if type(step) is not table.get(acc.kind) or list(step.operands).count(acc.arg) != 1:
        return None
    k = 1 - list(step.operands).index(acc.arg)
    return k if isinstance(step.operands[k].owner, loop.LaneScanOp) else None


def next_carry(acc: loop.Accumulator, prefix_at: int | None, running: SSAValue, carry: SSAValue, emit: Emit) -> SSAValue:
    """The carry into the next block: the running value's last lane on every lane.

    For a step `carry ⊕ p` it is computed as `carry ⊕ splat_last(p)` — lane for lane the same
    operation on the same operands, so the same bits, floats included — which takes the lane
    permute off the loop-carried chain (one combine per block instead of combine + permute)."""
    step = running.owner
    if prefix_at is None or not isinstance(step, Operation) or len(step.operands) != 2:
        return emit(simd.SplatLastOp(running)).results[0]
    last = emit(simd.SplatLastOp(step.operands[prefix_at])).results[0]
    operands = [carry, last] if prefix_at == 1 else [last, carry]
    return emit(step.clone(value_mapper=dict(zip(step.operands, operands, strict=True)))).results[0]


def _emit_in(block: Block, new: Operation, like: Operation) -> Operation:
    block.add_op(located(new, like))
    return new


def emit_lane_scan(kind: AccKind, value: SSAValue, lowering: LoopLowering, emit: Emit, at: Operation) -> SSAValue:
    """`loop.lane_scan` of a W-lane vector (BlockEmitter): its log-step prefix; the neutral
    vector is built once per loop, in the preheader."""
    key = (("scan neutral", kind), value.type)
    if key not in lowering.broadcasts:
        lowering.broadcasts[key] = neutral_vector(lowering, kind, value.type.element_type, at)  # type: ignore[index, union-attr]
    return lane_prefix(kind, value, lowering.broadcasts[key], emit)  # type: ignore[index]
