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

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import AccKind, AccumAttr, MaskForm, MaskFormAttr, TailKind
from loopopt.lowering.loop_to_simd_accum import carried_kind, check_vectorizable, finish, neutral_vector
from loopopt.lowering.loop_to_simd_lanes import BlockEmitter, Lanes, LoopLowering, Strided, Varying, const_op, located
from loopopt.lowering.loop_to_simd_range import BlockRange
from loopopt.lowering.loop_to_simd_tail import tail_mask
from loopopt.lowering.loop_to_simd_vecloop import VecOptions, _step, tail_kind
from loopopt.lowering.loop_to_simd_width import choose_width

MASK_FORM_ATTR = "loop.mask_form"
"""Discardable attribute on the lowered loops: the MaskForm they were lowered with."""


def emit_pred_block(lowering: LoopLowering, block: Block, var: SSAValue, accs: list[SSAValue],
                    cursor: SSAValue, load_mask: SSAValue | None) -> tuple[list[SSAValue], SSAValue]:  # fmt: skip
    """One W-lane block of the predloop; returns (next accumulator vectors, next cursor)."""
    op = lowering.source
    assert isinstance(op, loop.PredLoopOp)
    lanes = Strided(var, _step(op))
    env: dict[SSAValue, Lanes] = {op.pred_var: lanes, op.var: lanes}
    env |= {old: Varying(new) for old, new in zip(op.acc_args, accs, strict=True)}
    em = BlockEmitter(lowering, block, env, load_mask=load_mask, cursor=cursor)
    em.run(op.pred.block.ops)
    pred_yield = op.pred_yield
    assert pred_yield is not None
    mask = em.vector(pred_yield.values[0], pred_yield)
    if load_mask is not None:
        mask = em.emit(arith.AndIOp(mask, load_mask), op).results[0]
    mask.name_hint = "mask"
    em.store_mask = mask
    em.run(op.body.block.ops)
    yielded = op.yield_op.values if op.yield_op else ()
    nexts = [
        em.blend(mask, em.vector(v, op), cur, op) for v, cur in zip(yielded, accs, strict=True)
    ]
    count = em.append_counts[0] if em.append_counts else em.emit(simd.MaskPopcountOp(mask), op).results[0]
    return nexts, em.emit(arith.AddiOp(cursor, count), op).results[0]


def lower_predloop(op: loop.PredLoopOp, rewriter: PatternRewriter, options: VecOptions) -> None:
    target = options.target
    width = choose_width(op, target, options.partial)
    for acc in op.accumulators:
        check_vectorizable(acc, op)
    lowering = LoopLowering(op, target, width, lambda o: rewriter.insert(o, InsertPoint.before(op)))
    try:
        _lower_predloop(op, rewriter, options, lowering, width)
    except LoopoptDiagnostic:
        lowering.abandon(lambda o: rewriter.erase(o, safe_erase=False))
        raise


def _lower_predloop(op: loop.PredLoopOp, rewriter: PatternRewriter, options: VecOptions, lowering: LoopLowering, width: int) -> None:
    target = options.target
    br = BlockRange.of(lowering)
    lowering.hoist_invariants()
    tail = tail_kind(op, options)
    accs = op.accumulators
    types = [a.arg.type for a in accs]
    vtypes = [lowering.vector_type(t, op) for t in types]
    kinds = [*(carried_kind(a, vt) for a, vt in zip(op.accs.data, vtypes, strict=True)), AccumAttr(AccKind.ADD)]
    inits = [neutral_vector(lowering, a.kind, t, op) for a, t in zip(accs, types, strict=True)]
    pre = lowering.emit_pre
    zero = pre(const_op(0, IndexType())).results[0]
    form = MaskFormAttr(target.mask_form)

    done, stop = br.full_blocks(width)
    main, body = br.block_loop(br.lo, stop, width, [*inits, zero], [*vtypes, IndexType()], kinds)
    nexts, cursor = emit_pred_block(lowering, body, body.args[0], list(body.args[1:-1]), body.args[-1], None)
    body.add_op(located(loop.YieldOp(*nexts, cursor), op))
    main.attributes[MASK_FORM_ATTR] = form
    pre(main)
    state = list(main.res)

    if tail != TailKind.NONE:
        masked, body = br.block_loop(stop, br.end, width, state, [*vtypes, IndexType()], kinds)
        mask = pre(tail_mask(br, done)).results[0]
        nexts, cursor = emit_pred_block(lowering, body, body.args[0], list(body.args[1:-1]), body.args[-1], mask)
        body.add_op(located(loop.YieldOp(*nexts, cursor), op))
        masked.attributes[MASK_FORM_ATTR] = form
        pre(masked)
        state = list(masked.res)

    results = [finish(a.kind, t, a.init, v, width, pre) for a, t, v in zip(accs, types, state[:-1], strict=True)]
    state[-1].name_hint = op.count.name_hint
    rewriter.replace(op, [], [state[-1], *results])


def lower_predloop_scalar(op: loop.PredLoopOp, rewriter: PatternRewriter) -> None:
    """On the scalar target a predloop stays a width-1 predloop, branching per lane (the C printer's `if`)."""
    op.width = loop.WidthAttr(1)
    op.mask_form = MaskFormAttr(MaskForm.BRANCH_PER_LANE)
    rewriter.handle_operation_modification(op)
