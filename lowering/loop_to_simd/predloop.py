"""`loop.predloop` -> simd: a lane mask from the `pred` region, compaction at a running cursor.

```
%cnt = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) pred {
  %x = loop.load %in[%i] : !loop.buf<f32>
  %p = arith.cmpf ogt, %x, %zero : f32
  loop.yield %p : i1
} body {
  %x = loop.load %in[%i] : !loop.buf<f32>
  loop.append %x, %out : !loop.buf<f32>
}
```
on avx512 (W = 16, MaskForm avx512_mask) becomes
```
%cur = loop.for %i in range(%c0, %end, %c16) accs(%c = %c0 : index add) attributes {loop.mask_form = ...} {
  %x = simd.load %in[%i] : !loop.buf<f32> -> vector<16xf32>
  %m = simd.cmp <ogt> %x, %zeros : vector<16xf32> -> vector<16xi1>
  %k = simd.compress_store %x, %m, %out[%c] : vector<16xf32>, vector<16xi1>, !loop.buf<f32>
  %c2 = arith.addi %c, %k : index
  loop.yield %c2 : index
}
%cnt = loop.for %i in range(%end, %n, %c16) accs(%c = %cur : index add) { ...one block, loads masked by
                                           simd.prefix_mask(%n - %end), mask = pred & prefix... }
```
Every lane computes the body (it is pure, loads are in bounds); the mask decides what is
kept: `simd.compress_store` for `loop.append` (its count advances the cursor, which is the
count result), `simd.masked_store` for stores, `simd.select(mask, new, old)` for
accumulators. The MaskForm is the target's (avx512_mask: the printer keeps the mask in a
`__mmask`; select_blend: all-ones lanes and blends) and is recorded on the lowered loops as
`loop.mask_form`. The leftover iterations always run as one masked block, whatever the
tail kind says (except `none`): a width-1 predloop cannot continue the running cursor,
since its appends restart at 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, UnitAttr, VectorType, i1
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker
from xdsl.rewriter import Rewriter

from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import AccKind, AccumAttr, MaskForm, MaskFormAttr, TailKind
from loopopt.lowering.loop_to_simd.accum import accumulator_start, carried_kind, combine_tree, finish, lane_start, reduce_lanes
from loopopt.lowering.loop_to_simd.lanes import (
    BlockEmitter,
    Lanes,
    LoopLowering,
    Strided,
    Varying,
    is_mask_type,
    located,
)
from loopopt.lowering.loop_to_simd.copies import Copies, Trace
from loopopt.lowering.loop_to_simd.plan import binary, yield_op
from loopopt.lowering.loop_to_simd.range import BlockRange
from loopopt.lowering.loop_to_simd.table import FLOAT_COMBINE, INT_COMBINE
from loopopt.lowering.loop_to_simd.tail import tail_mask
from loopopt.lowering.loop_to_simd.vecloop import VecOptions, _adds_to_itself, _step, after_far_blocks, beyond_l2, fold_streams, interleave_factor, lower_transactionally, mark_split, mark_split_or_erase, stream_blocks, tail_kind
from loopopt.lowering.loop_to_simd.scan import next_carry, scan_step_operand, serial_carry
from loopopt.passes.select_minmax import SelectOfCompareToMinMax

MASK_FORM_ATTR = "loop.mask_form"
"""Discardable attribute on the lowered loops: the MaskForm they were lowered with."""

IN_REGISTER_ATTR = "simd.compress_in_register"
"""Discardable unit attribute on a `simd.compress_store`: print it as a compress in a
register and a store (AVX-512 `_mm512_mask_compress_*` + `storeu`, or a masked store of the
count's prefix when not `full`) instead of a compress to memory. Set where the CPU model says
that is faster (CpuModel.compress_in_register: ~80 cycles for the memory form on Zen 4);
the two forms write the same elements, so a pass that drops the attribute changes speed only."""


def mark_compress_form(loops: list[Operation], options: VecOptions) -> None:
    """Tag the compress stores of lowered loops with IN_REGISTER_ATTR where the target has a
    compress instruction and the CPU compresses faster in a register."""
    if not (options.target.has_compress and options.cpu.compress_in_register()):
        return
    for lowered in loops:
        for inner in lowered.walk():
            if isinstance(inner, simd.CompressStoreOp):
                inner.attributes[IN_REGISTER_ATTR] = UnitAttr()


def emit_pred_block(lowering: LoopLowering, block: Block, var: SSAValue, accs: list[SSAValue],
                    cursor: SSAValue | None, load_mask: SSAValue | None, plan: PredPlan,
                    full: bool = False, trace: Trace | None = None) -> tuple[list[SSAValue], SSAValue | None]:  # fmt: skip
    """One W-lane block of the predloop; returns (next accumulator vectors, next cursor).

    `full`: appends may write a whole vector at the cursor. Without a cursor (no append and
    an unused count) nothing counts the active lanes. `trace` records the block for the next
    copies (copies.py): its inputs are the variable, `accs` and the cursor, its outputs the
    next vectors and cursor."""
    op = lowering.source
    assert isinstance(op, loop.PredLoopOp)
    lanes = Strided(var, _step(op))
    env: dict[SSAValue, Lanes] = {op.pred_var: lanes, op.var: lanes}
    env |= {old: Varying(new) for old, new in zip(op.acc_args, accs, strict=True)}
    em = BlockEmitter(lowering, block, env, load_mask=load_mask, cursor=cursor, full_compress=full,
                      masked_steps=dict(plan.masked_steps), trace=trace)  # fmt: skip
    em.run(op.pred.block)
    pred_yield = op.pred_yield
    assert pred_yield is not None
    mask = em.vector(pred_yield.values[0], pred_yield)
    if load_mask is not None:
        mask = em.emit(binary(arith.AndIOp, mask, load_mask), op).results[0]
    mask.name_hint = "mask"
    em.store_mask = mask
    em.run(op.body.block)
    yielded = op.yield_op.values if op.yield_op else ()
    nexts = [
        # a scan carries its running value's last lane (lane_scan saw the inactive lanes as the
        # neutral element, so it includes every active one)
        next_carry(op.accumulators[j], scan_step_operand(op, j), em.vector(v, op), cur, lambda o: em.emit(o, op),
                   serial_carry(op.accumulators[j].kind, op.accumulators[j].arg.type, lowering.target))
        if scan
        else em.vector(v, op) if v.owner in plan.masked_steps else em.blend(mask, em.vector(v, op), cur, op)
        for j, (v, cur, scan) in enumerate(zip(yielded, accs, scan_flags(op), strict=True))
    ]
    if cursor is None:
        if trace is not None:
            trace.outputs = nexts
        return nexts, None
    count = em.append_counts[0] if em.append_counts else em.emit(simd.MaskPopcountOp(mask), op).results[0]
    cursor = em.emit(binary(arith.AddiOp, cursor, count), op).results[0]
    if trace is not None:
        trace.outputs = [*nexts, cursor]
    return nexts, cursor


@dataclass
class PredPlan:
    """What a predloop's lowering decides once, before emitting any block."""

    masked_steps: dict[Operation, SSAValue]
    """Accumulation steps lowered as `acc <op> select(mask, x, neutral)` -> the neutral vector."""
    appends: list[loop.AppendOp]
    cursor: bool
    """Whether the running count is needed: for appends, or because the count result is used."""


def scan_flags(op: loop.PredLoopOp) -> list[bool]:
    """Per accumulator: a scan's running value (filter → scan), carried as its last lane."""
    return [acc.is_scan for acc in op.accs.data]


def masked_accumulation_steps(op: loop.PredLoopOp) -> dict[Operation, int]:
    """The body ops `acc <kind> x` that are an accumulator's whole step -> its index.

    Such a step is exactly `acc <kind> select(mask, x, neutral)` (the neutral element leaves
    acc unchanged, bit for bit), which keeps only the combine on the loop-carried chain; any
    other step keeps `select(mask, step, acc)`. Masks (i1) combine
    with and/or/xor and stay blends."""
    out: dict[Operation, int] = {}
    if op.yield_op is None:
        return out
    for j, (acc, value) in enumerate(zip(op.accumulators, op.yield_op.values, strict=True)):
        step = value.owner
        t = acc.arg.type
        if not isinstance(step, Operation) or step.parent_block() is not op.body.block or is_mask_type(t):
            continue
        table = FLOAT_COMBINE if isinstance(t, Float32Type | Float64Type) else INT_COMBINE
        if type(step) is not table.get(acc.kind) or len(step.operands) != 2:
            continue
        if list(step.operands).count(acc.arg) != 1 or acc.arg.uses.get_length() != 1:
            continue
        out[step] = j
    return out


def _plan(op: loop.PredLoopOp, lowering: LoopLowering, in_order: frozenset[int] = frozenset()) -> PredPlan:
    """`in_order`: accumulators that start at their init and step under `select(mask, step, acc)`."""
    steps: dict[Operation, SSAValue] = {}
    for step, j in masked_accumulation_steps(op).items():
        if j in in_order:
            continue
        acc = op.accumulators[j]
        vt = lowering.vector_type(acc.arg.type, op)
        # where the lanes started leaves every lane as it is (accum.lane_start): the neutral
        # element, or for a float sum from +0.0 that +0.0, since a round-to-nearest sum is -0.0
        # only when both terms are (no lane is ever -0.0); +0.0 makes the select an AND
        steps[step] = lowering.splat_constant(lane_start(acc.kind, acc.arg.type, acc.init), vt)
    appends = [o for o in op.body.block.ops if isinstance(o, loop.AppendOp)]
    return PredPlan(steps, appends, bool(appends) or bool(op.count.uses))


def lower_predloop(op: loop.PredLoopOp, rewriter: PatternRewriter, options: VecOptions) -> None:
    lower_transactionally(op, rewriter, options, _lower_predloop)


def _capacity(plan: PredPlan, lowering: LoopLowering) -> SSAValue:
    """The smallest length of the appended-to buffers, at least 0 (a full store at cursor c is in
    bounds when c + W <= it; the cursor never exceeds the iterations done). A C caller's negative
    capacity holds nothing: unclamped, the loops split at it would start the exact tail at a
    negative index and read x[-k]."""
    pre = lowering.emit_pre
    cap: SSAValue | None = None
    for buf in dict.fromkeys(a.out for a in plan.appends):
        length = pre(loop.DimOp(buf, 0)).results[0]
        cap = length if cap is None else pre(binary(arith.MinSIOp, cap, length)).results[0]
    assert cap is not None
    return pre(binary(arith.MaxSIOp, cap, lowering.index_const(0))).results[0]


def _lower_predloop(op: loop.PredLoopOp, rewriter: PatternRewriter, options: VecOptions, lowering: LoopLowering, width: int) -> None:
    target = options.target
    br = BlockRange.of(lowering)
    lowering.hoist_invariants()
    tail = tail_kind(op, options, width)
    scans = frozenset(j for j, scan in enumerate(scan_flags(op)) if scan)
    k = 1 if scans else interleave_factor(op, options)  # a scan is one chain of blocks
    accs = op.accumulators
    n = len(accs)
    types = [a.arg.type for a in accs]
    vtypes = [lowering.vector_type(t, op) for t in types]
    kinds = [carried_kind(a, vt) for a, vt in zip(op.accs.data, vtypes, strict=True)]
    pre = lowering.emit_pre
    # One lane and one block per iteration: a single chain in element order. Each accumulator
    # then starts at its init and steps as `select(mask, step, acc)`, exactly the sequential
    # fold (a float sum without reassoc adds the init first, and a -0.0 init stays -0.0);
    # otherwise lanes start at the neutral element and the init is added after the lanes.
    # A scan's accumulator holds the running value on every lane, from its init.
    in_order = frozenset(j for j, t in enumerate(types) if width == 1 and k == 1 and not is_mask_type(t))
    inits = [
        pre(simd.BroadcastOp(a.init, vt)).results[0] if j in in_order | scans else accumulator_start(lowering, a.kind, t, a.init, op)
        for j, (a, t, vt) in enumerate(zip(accs, types, vtypes, strict=True))
    ]
    plan = _plan(op, lowering, in_order | scans)
    zero = lowering.index_const(0)
    form = MaskFormAttr(target.mask_form)
    cur_types: list[Attribute] = [IndexType()] if plan.cursor else []
    cur_kinds = [AccumAttr(AccKind.ADD)] if plan.cursor else []
    full = bool(plan.appends)
    cap = _capacity(plan, lowering) if full else None

    main_trace: list[Trace] = []
    """The main loop's first block (the remainder loop's one block is a clone of it)."""

    def loop_of(start: SSAValue, stop: SSAValue, copies: int, state: list[SSAValue],
                mask: SSAValue | None = None, exact_tail: bool = False, stride: SSAValue | None = None,
                traces: list[Trace] | None = None, like: Trace | None = None) -> list[SSAValue]:  # fmt: skip
        """A loop of `copies` blocks per iteration from `state` (accumulator vectors x k, cursor).

        With fewer copies than k (one block per iteration after the main loop) each block steps
        the first copy and rotates it to the back, as vecloop's remainder does: the k copies
        stay independent chains until they are merged once, after the last block. With `stride`
        block c is c*stride iterations on and the loop steps one block (K streams, vecloop.stream_fold_loop).
        Blocks after the first are cloned from it (copies.py); `traces` receives the first one's
        trace, and with `like` (a trace of the same blocks) the one block is cloned from it."""
        m, body = br.block_loop(start, stop, width * (1 if stride else copies), state, [*vtypes * k, *cur_types], kinds * k + cur_kinds)
        cursor = body.args[-1] if plan.cursor else None
        nexts: list[SSAValue] = []

        def emit(inputs: list[SSAValue], trace: Trace | None) -> list[SSAValue]:
            cursor_in = inputs[1 + n] if len(inputs) > 1 + n else None
            out, cursor_out = emit_pred_block(lowering, body, inputs[0], inputs[1 : 1 + n], cursor_in, block_mask, plan,
                                              full and not exact_tail, trace)  # fmt: skip
            return [*out, *([cursor_out] if cursor_out is not None else [])]

        blocks = Copies(lowering, body, copies, emit, traces, like)
        var = body.args[0]
        for c in range(copies):
            if c and stride:
                var = _emit(body, binary(arith.AddiOp, var, stride), op)
            elif c:
                var = _emit(body, binary(arith.AddiOp, body.args[0], lowering.index_const(c * width * br.step)), op)
            else:
                var = body.args[0]
            block_mask = mask
            if exact_tail:  # lanes left from this block on: the partial last block's prefix
                block_mask = _emit(body, simd.PrefixMaskOp(_left(br, body, var, op), VectorType(i1, [width])), op)
            accs_in = list(body.args[1 + c * n : 1 + (c + 1) * n])
            # (an exact tail's mask is per block: its blocks are translated each)
            outputs = blocks.next([var, *accs_in, *([cursor] if cursor is not None else [])], traceable=not exact_tail)
            out, cursor = outputs[:n], (outputs[n] if cursor is not None else None)
            nexts += out
        nexts = [*body.args[1 + copies * n : 1 + k * n], *nexts]  # the copies not stepped, then the stepped
        body.add_op(located(yield_op([*nexts, *([cursor] if cursor is not None else [])]), op))
        m.attributes[MASK_FORM_ATTR] = form
        mark_compress_form([m], options)
        pre(m)
        return list(m.res)

    state = [*inits * k, *([zero] if plan.cursor else [])]
    if not (plan.cursor or full or scans or in_order):
        br, state = split_pred_loop(lowering, br, options, width, k, state, loop_of, streams=True)
        br, state = split_pred_loop(lowering, br, options, width, k, state, loop_of)

    # main loop: K blocks per iteration, K accumulator copies, one cursor; with appends only the
    # blocks whose full stores stay in bounds (all of them when the capacity is >= the trip count)
    done, main_end = br.full_blocks(width * k, cap)
    state = loop_of(br.lo, main_end, k, state, traces=main_trace)
    stop = main_end
    if k > 1:  # the remaining whole blocks, one per iteration
        done, stop = br.full_blocks(width, cap)
        state = loop_of(main_end, stop, 1, state, like=main_trace[0] if main_trace else None)
    if full:
        # exact compress-stores from here to the end, one block per iteration, the lanes past the
        # end masked off: the partial last block, and any blocks the capacity kept from above
        state = loop_of(stop, br.end, 1, state, exact_tail=True)
    elif tail != TailKind.NONE and width > 1:
        state = loop_of(stop, br.end, 1, state, pre(tail_mask(br, done)).results[0])

    # the k copies merged once, pairwise, after the last block
    vaccs = [combine_tree(accs[j].kind, types[j], state[j : k * n : n], pre) for j in range(n)]
    state = [*vaccs, *state[k * n :]]
    results = [
        pre(simd.FirstLaneOp(v)).results[0] if j in scans
        else reduce_lanes(a.kind, t, v, width, pre) if j in in_order
        else finish(a.kind, t, a.init, v, width, pre, _adds_to_itself(op, j))
        for j, (a, t, v) in enumerate(zip(accs, types, state[:n], strict=True))
    ]
    count = state[n] if plan.cursor else zero
    if plan.cursor:  # else the count is unused, and zero a constant other loops read (not to rename)
        count.name_hint = op.count.name_hint
    rewriter.replace(op, [], [count, *results])


def split_pred_loop(lowering: LoopLowering, br: BlockRange, options: VecOptions, width: int, k: int,
                    state: list[SSAValue], loop_of, streams: bool = False) -> tuple[BlockRange, list[SSAValue]]:  # fmt: skip
    """A filtered fold beyond the L2 on Zen 4: its whole K-block iterations first as a loop marked
    `loop.split_halves` (vecloop.split_fold_loop) when, with its integer `select(x > 0, x, 0)`
    as `max(x, 0)` (select_minmax, exact for integers), dialects/split_halves.py accepts the body;
    else nothing is emitted. With `streams`, beyond the LLC and as K streams
    (vecloop.stream_fold_loop), kept whole where it cannot split (a float filter's select: on Zen 4
    the whole 4-stream f32 filtered sum ran 1.15x from 4 KiB pages, 0.99x from 2 MiB pages).
    Returns the range left and the accumulators to continue."""
    if not options.cpu.half_load_bytes(options.target.vector_bits):
        return br, state
    limit = fold_streams(lowering, options, k) if streams else None
    if limit == 0:
        return br, state
    far = beyond_l2(lowering, br, options.cpu, limit, "beyond_llc" if streams else "beyond_l2")
    if far is False:
        return br, state
    if streams:
        after, per = stream_blocks(lowering, br, width, k, far)
        results = loop_of(br.lo, br.point(per), k, state, stride=per)
    else:
        after = after_far_blocks(lowering, br, width, k, far)
        results = loop_of(br.lo, after.lo, k, state)
    split = results[0].owner
    assert isinstance(split, loop.ForOp)
    minmax = SelectOfCompareToMinMax(options.target.name)
    PatternRewriteWalker(minmax, apply_recursively=False, walk_regions_first=True).rewrite_region(split.body)
    for o in reversed(list(split.body.block.ops)):  # the compares the max replaced
        if isinstance(o, simd.CmpOp) and not o.results[0].uses:
            Rewriter.erase_op(o)
    if streams:
        mark_split(split)
        return after, results
    if not mark_split_or_erase(split):
        return br, state
    return after, results


def _emit(block: Block, new: Operation, like: Operation) -> SSAValue:
    block.add_op(located(new, like))
    return new.results[0]


def _left(br: BlockRange, block: Block, var: SSAValue, at: Operation) -> SSAValue:
    """Iterations left from `var` on: trips - (var - lo) / step, emitted into `block`."""
    done = _emit(block, binary(arith.SubiOp, var, br.lo), at)
    if br.step != 1:
        done = _emit(block, binary(arith.DivSIOp, done, br.lowering.index_const(br.step)), at)
    return _emit(block, binary(arith.SubiOp, br.trips, done), at)


def lower_predloop_scalar(op: loop.PredLoopOp, rewriter: PatternRewriter) -> None:
    """The predloop stays the width-1 predloop it means (MaskForm branch_per_lane), which the C
    printer prints branch-free when its body may run on every element, else with an `if`."""
    op.width = loop.WidthAttr(1)
    op.mask_form = MaskFormAttr(MaskForm.BRANCH_PER_LANE)
    rewriter.handle_operation_modification(op)
