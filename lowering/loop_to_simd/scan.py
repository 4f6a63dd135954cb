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

Min/max (and and/or) are idempotent, so where a lane permute does it in one instruction
(TargetInfo.dup_slides: SSE2 `pshufd`, AVX2 `vpermq`) the slides keep the low lanes' own
values (`simd.slide_up_dup`) instead of sliding the neutral in (two instructions there). A
umin/umax whose width has no unsigned vector instruction (TargetInfo.flipped_unsigned_minmax:
SSE2 i32, AVX2 i64) runs wholly on x ^ MIN with the signed kind: the init and each loaded
block flipped, the running value flipped back for the store, the carry never (`flip_step`).
Where the vector min/max is several instructions (TargetInfo.serial_minmax_carry) the carry
is `splat_last(running)`: the extra combine of `next_carry` costs more than the permute on
the chain (docs/df.md#dfscan has the Zen 4 numbers).

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
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import AccKind, AccumAttr
from loopopt.dialects.simd_targets import TargetInfo, element_bits
from loopopt.lowering.loop_to_simd.accum import carried_kind, combine, neutral_vector
from loopopt.lowering.loop_to_simd.table import FLOAT_COMBINE, INT_COMBINE
from loopopt.lowering.loop_to_simd.lanes import LoopLowering, is_mask_type, located
from loopopt.lowering.loop_to_simd.plan import yield_op
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


def scan_costs_more(op: loop.VecLoopOp | loop.PredLoopOp, options: VecOptions) -> str | None:
    """Why the scalar loop is faster than this scan's vector form on the CPU (its
    `Costs.scalar_scans`: a combine with no instruction on the target; for a filter → scan
    (a predloop) the kind is `filtered <kind>`: a compaction with no instruction), or None."""
    filtered = isinstance(op, loop.PredLoopOp)
    for acc in op.accumulators:
        key = (options.target.name, ("filtered " if filtered else "") + acc.kind.value, str(acc.arg.type))
        if acc.scan and key in options.cpu.costs.scalar_scans:
            why = f"its {key[2]} compaction" if filtered else f"no vector {key[1]} instruction for {key[2]}"
            return (f"a {key[1]} scan of {key[2]} costs more than the scalar loop on {options.cpu.name} "
                    f"with {key[0]} ({why}: Costs.scalar_scans)")
    return None


IDEMPOTENT = frozenset({AccKind.MIN, AccKind.MAX, AccKind.UMIN, AccKind.UMAX, AccKind.AND, AccKind.OR})
"""Kinds with v ⊕ v = v: a prefix step may combine a lane with (part of) its own prefix again."""

SIGNED_OF = {AccKind.UMIN: AccKind.MIN, AccKind.UMAX: AccKind.MAX}


UNSIGNED_OF = {AccKind.MIN: AccKind.UMIN, AccKind.MAX: AccKind.UMAX}


def dup_slides_from(kind: AccKind, vt: VectorType, target: TargetInfo) -> int | None:
    """The smallest slide (in lanes) of the prefix that is a `simd.slide_up_dup` (no neutral
    slid in), or None: an idempotent kind on a target where a slide by whole 32-bit lanes is one
    lane permute (TargetInfo.dup_slides). Narrower slides (i8 by 1-2 lanes, i16 by 1) keep the
    neutral-filled `simd.slide_up`: a byte shift, whose zeros a duplicate would cost two more."""
    if kind not in IDEMPOTENT or not target.dup_slides:
        return None
    return max(1, 32 // element_bits(vt.element_type))


def flipped_kind(kind: AccKind, t: Attribute, target: TargetInfo) -> AccKind | None:
    """The kind a min/max of integer type `t` runs as on x ^ MIN, where the target has the
    other signedness's vector min/max of that width but not its own: the signed one for a
    umin/umax (TargetInfo.flipped_unsigned_minmax: SSE2 i16/i32, AVX2 i64), the unsigned one
    for a min/max (flipped_signed_minmax: SSE2 i8's pminub/pmaxub); else None."""
    if not isinstance(t, IntegerType) or is_mask_type(t):
        return None
    if kind in SIGNED_OF and t.width.data in target.flipped_unsigned_minmax:
        return SIGNED_OF[kind]
    if kind in UNSIGNED_OF and t.width.data in target.flipped_signed_minmax:
        return UNSIGNED_OF[kind]
    return None


def serial_carry(kind: AccKind, t: Attribute, target: TargetInfo) -> bool:
    """The carry is the running value's last lane, the permute on the loop-carried chain
    (next_carry): a min/max whose vector form is several instructions (TargetInfo.serial_minmax_carry),
    or a umin/umax that costs a flip more (`flipped_kind`) than such a one."""
    return (flipped_kind(kind, t, target) or kind) in (AccKind.MIN, AccKind.MAX) and str(t) in target.serial_minmax_carry


def sign_bits(lowering: LoopLowering, vt: VectorType) -> SSAValue:
    """MIN on every lane (built once per loop, in the preheader): x ^ MIN maps unsigned order
    to signed order and back."""
    assert isinstance(vt.element_type, IntegerType)
    key = (("sign bits",), vt)
    if key not in lowering.broadcasts:
        lowering.broadcasts[key] = lowering.splat_constant(-(1 << (vt.element_type.width.data - 1)), vt)  # type: ignore[index]
    return lowering.broadcasts[key]  # type: ignore[index]


def lane_prefix(kind: AccKind, value: SSAValue, neutral: SSAValue | None, emit: Emit, dup_from: int | None = None) -> SSAValue:
    """Lane k = v0 ⊕ ... ⊕ vk in log2(W) slide-and-combine steps (the Hillis-Steele scan);
    `neutral` (the kind's neutral element on every lane) fills the lanes slid in, or, when
    None or from a slide by `dup_from` lanes on (an idempotent kind), the low lanes keep their
    own value (`simd.slide_up_dup`): below `by` a lane already holds its whole prefix, and
    x ⊕ x = x (so the two kinds of step mix)."""
    vt = value.type
    assert isinstance(vt, VectorType)
    width = vt.get_shape()[0]
    by = 1
    while by < width:
        dup = neutral is None or (dup_from is not None and by >= dup_from)
        slide = simd.SlideUpDupOp(value, by) if dup else simd.SlideUpOp(value, neutral, by)
        slid = emit(slide).results[0]
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
    pre = lowering.emit_pre
    steps = [scan_step_operand(op, j) for j in range(len(accs))]
    # a flipped accumulator carries x ^ MIN and combines with the signed kind (`flip_step`)
    signed = [flipped_kind(a.kind, a.arg.type, options.target) if steps[j] is not None else None
              for j, a in enumerate(accs)]  # fmt: skip
    signs = [sign_bits(lowering, vt) if s is not None else None for s, vt in zip(signed, vtypes, strict=True)]
    serials = [serial_carry(a.kind, a.arg.type, options.target) for a in accs]
    kinds = [carried_kind(AccumAttr(s or a.kind, a.reassoc, scan=True), vt)
             for a, s, vt in zip(accs, signed, vtypes, strict=True)]  # fmt: skip
    carries = [lowering.broadcast_outside(a.init, vt) for a, vt in zip(accs, vtypes, strict=True)]
    carries = [c if m is None else pre(arith.XOrIOp(c, m)).results[0] for c, m in zip(carries, signs, strict=True)]

    def chained_blocks(start: SSAValue, stop: SSAValue, blocks: int, inits: list[SSAValue]) -> list[SSAValue]:
        """A loop of `blocks` chained W-lane blocks per iteration over [start, stop)."""
        for_op, body = br.block_loop(start, stop, width * blocks, inits, vtypes, kinds)
        carry = list(body.args[1:])
        emit = lambda o: _emit_in(body, o, op)  # noqa: E731
        for copy in range(blocks):
            var = body.args[0]
            if copy:
                var = emit(arith.AddiOp(var, lowering.index_const(copy * width * br.step))).results[0]
            ins = [c if m is None else emit(arith.XOrIOp(c, m)).results[0] for c, m in zip(carry, signs, strict=True)]
            nexts = emit_block(lowering, body, var, ins)
            carry = [next_carry(accs[j], steps[j], t, c, emit, serials[j]) if signs[j] is None
                     else flip_step(signed[j], steps[j], t, c, carry[j], signs[j], emit, serials[j])  # type: ignore[arg-type]
                     for j, (t, c) in enumerate(zip(nexts, ins, strict=True))]  # fmt: skip
            for c, m in zip(ins, signs, strict=True):
                if m is not None and not c.uses and isinstance(c.owner, Operation):
                    c.owner.detach()
                    c.owner.erase()
        body.add_op(located(yield_op(carry), op))
        pre(for_op)
        return list(for_op.res)

    _, main_end = br.full_blocks(width * k)
    carries = chained_blocks(br.lo, main_end, k, carries)
    stop = main_end
    if k > 1:
        _, stop = br.full_blocks(width)
        carries = chained_blocks(main_end, stop, 1, carries)
    carries = [c if m is None else pre(arith.XOrIOp(c, m)).results[0] for c, m in zip(carries, signs, strict=True)]
    running = [pre(simd.FirstLaneOp(c)).results[0] for c in carries]
    rewriter.replace(op, [], list(scalar_tail(br, stop, running, take=True).res))


def flip_step(signed: AccKind, prefix_at: int, running: SSAValue, carry: SSAValue, flipped: SSAValue,
              sign: SSAValue, emit: Emit, serial: bool) -> SSAValue:  # fmt: skip
    """The next flipped carry of a umin/umax scan kept on x ^ MIN (`flipped_kind`).

    emit_block built the step `u(carry, p)` with carry = flipped ^ MIN and p = p' ^ MIN (the
    flipped prefix, emit_lane_scan); it becomes `s(flipped, p') ^ MIN` (u the unsigned, s the
    signed kind: the same lanes), whose flipped running value is stored flipped back, and the
    carry `s(flipped, splat_last(p'))` never leaves the flipped domain: no flip on the
    loop-carried chain, one flip per block at the load and one at the store; `serial` as in
    next_carry."""
    step = running.owner
    if not (isinstance(step, Operation) and len(step.operands) == 2 and step.operands[1 - prefix_at] == carry
            and isinstance(unflipped := step.operands[prefix_at].owner, arith.XOrIOp) and unflipped.rhs == sign):
        return emit(arith.XOrIOp(emit(simd.SplatLastOp(running)).results[0], sign)).results[0]  # not the plain step
    assert isinstance(running.type, VectorType)
    t, inner = running.type.element_type, unflipped.lhs
    new_ops: list[Operation] = []
    value = combine(signed, t, *([flipped, inner] if prefix_at == 1 else [inner, flipped]),
                    lambda o: new_ops.append(located(o, step)) or o)  # type: ignore[func-returns-value]
    back = located(arith.XOrIOp(value, sign), step)
    Rewriter.insert_op([*new_ops, back], InsertPoint.before(step))
    running.replace_all_uses_with(back.results[0])
    for dead in (step, unflipped):
        if not any(r.uses for r in dead.results):
            dead.detach()
            dead.erase()
    if serial:
        return emit(simd.SplatLastOp(value)).results[0]
    last = emit(simd.SplatLastOp(inner)).results[0]
    return combine(signed, t, *([flipped, last] if prefix_at == 1 else [last, flipped]), emit)


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


def next_carry(acc: loop.Accumulator, prefix_at: int | None, running: SSAValue, carry: SSAValue, emit: Emit,
               serial: bool = False) -> SSAValue:  # fmt: skip
    """The carry into the next block: the running value's last lane on every lane.

    For a step `carry ⊕ p` it is computed as `carry ⊕ splat_last(p)` — lane for lane the same
    operation on the same operands, so the same bits, floats included — which takes the lane
    permute off the loop-carried chain (one combine per block instead of combine + permute),
    unless `serial` (`serial_carry`): a combine of several instructions costs more as the
    extra one per block than the permute costs on the chain."""
    step = running.owner
    if serial or prefix_at is None or not isinstance(step, Operation) or len(step.operands) != 2:
        return emit(simd.SplatLastOp(running)).results[0]
    last = emit(simd.SplatLastOp(step.operands[prefix_at])).results[0]
    operands = [carry, last] if prefix_at == 1 else [last, carry]
    return emit(step.clone(value_mapper=dict(zip(step.operands, operands, strict=True)))).results[0]


def _emit_in(block: Block, new: Operation, like: Operation) -> Operation:
    block.add_op(located(new, like))
    return new


def emit_lane_scan(kind: AccKind, value: SSAValue, lowering: LoopLowering, emit: Emit, at: Operation) -> SSAValue:
    """`loop.lane_scan` of a W-lane vector (BlockEmitter): its log-step prefix; the neutral
    vector is built once per loop, in the preheader. A umin/umax without a vector instruction
    (`flipped_kind`) is the signed prefix of x ^ MIN, flipped back."""
    vt = value.type
    assert isinstance(vt, VectorType)
    signed = flipped_kind(kind, vt.element_type, lowering.target)
    if signed is not None:
        sign = sign_bits(lowering, vt)
        flipped = emit(arith.XOrIOp(value, sign)).results[0]
        return emit(arith.XOrIOp(emit_lane_scan(signed, flipped, lowering, emit, at), sign)).results[0]
    dup_from = dup_slides_from(kind, vt, lowering.target)
    if dup_from == 1:
        return lane_prefix(kind, value, None, emit)
    key = (("scan neutral", kind), vt)
    if key not in lowering.broadcasts:
        lowering.broadcasts[key] = neutral_vector(lowering, kind, vt.element_type, at)  # type: ignore[index]
    return lane_prefix(kind, value, lowering.broadcasts[key], emit, dup_from)  # type: ignore[index]
