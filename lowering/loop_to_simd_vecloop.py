"""`loop.vecloop` -> simd: interleaved main loop, remainder blocks, horizontal epilogue, tail.

```
%s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 add reassoc) {
  %x = loop.load %b[%i] : !loop.buf<f32>
  %t = arith.addf %acc, %x : f32
  loop.yield %t : f32
}
```
on avx2 (W = 8, interleave K = 2) becomes
```
%v0 = simd.broadcast %zero : f32 -> vector<8xf32>
%a:2 = loop.for %i in range(%c0, %end16, %c16) accs(%a0 = %v0 : vector<8xf32> add reassoc,
                                                  %a1 = %v0 : vector<8xf32> add reassoc) {
  %x0 = simd.load %b[%i] : !loop.buf<f32> -> vector<8xf32>
  %t0 = arith.addf %a0, %x0 : vector<8xf32>
  %i8 = arith.addi %i, %c8 : index
  %x1 = simd.load %b[%i8] : !loop.buf<f32> -> vector<8xf32>
  %t1 = arith.addf %a1, %x1 : vector<8xf32>
  loop.yield %t0, %t1 : vector<8xf32>, vector<8xf32>
}
%c = arith.addf %a#0, %a#1 : vector<8xf32>
%r = loop.for %i in range(%end16, %end8, %c8) accs(%v = %c : vector<8xf32> add reassoc) {...}
%h = simd.hreduce <add> %r : vector<8xf32> -> f32
%s0 = arith.addf %z, %h : f32
%s = loop.for %i in [%end8, %n) accs(%acc = %s0 : f32 add reassoc) { ...the source body... }
```
With `tail(masked)` the scalar loop is replaced by one masked block (masked loads/stores,
`simd.select` keeping inactive lanes' accumulators) before the horizontal epilogue.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.ir import Block, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import TailKind
from loopopt.dialects.simd_targets import TargetInfo
from loopopt.lowering.loop_to_simd_accum import carried_kind, check_vectorizable, combine_tree, finish, neutral_vector
from loopopt.lowering.loop_to_simd_lanes import BlockEmitter, Lanes, LoopLowering, Strided, Varying, located
from loopopt.lowering.loop_to_simd_range import BlockRange
from loopopt.lowering.loop_to_simd_tail import scalar_tail, tail_mask
from loopopt.lowering.loop_to_simd_width import choose_width

DEFAULT_INTERLEAVE: dict[str, int] = {"avx512": 4, "avx2": 4, "sse2": 2, "neon": 2, "scalar": 1}
"""Independent vector accumulators per reduction when `interleave` is not given: enough to
cover a float add's latency (4 cycles) at two adds per cycle on AVX2/AVX-512 cores."""


@dataclass(frozen=True)
class VecOptions:
    """The pass options a vector loop lowering reads."""

    target: TargetInfo
    tail: str
    """"" (as each loop says), "scalar" or "masked"."""
    interleave: int
    """K >= 1, or 0 for the per-target default (reductions only)."""
    partial: bool = True
    """Allow vectors that fill part of a register (loops mixing element widths)."""


def interleave_factor(op: loop.VecLoopOp, options: VecOptions) -> int:
    if options.interleave > 0:
        return options.interleave
    return DEFAULT_INTERLEAVE.get(options.target.name, 1) if op.inits else 1


def tail_kind(op: loop.VecLoopOp | loop.PredLoopOp, options: VecOptions) -> TailKind:
    """The loop's tail, overridden by the option (never overriding `none`, a promise about n).

    A masked tail needs masked loads/stores; on targets without them a vecloop falls back
    to the scalar epilogue.
    """
    kind = op.tail.data
    if kind != TailKind.NONE and options.tail:
        kind = TailKind(options.tail)
    if kind == TailKind.MASKED and not options.target.has_masked_load_store and isinstance(op, loop.VecLoopOp):
        kind = TailKind.SCALAR
    return kind


def emit_block(lowering: LoopLowering, block: Block, var: SSAValue, accs: list[SSAValue],
               load_mask: SSAValue | None = None) -> list[SSAValue]:  # fmt: skip
    """One W-lane copy of the vecloop body into `block`; returns the accumulators' next vectors."""
    op = lowering.source
    env: dict[SSAValue, Lanes] = {op.var: Strided(var, _step(op))}
    env |= {old: Varying(new) for old, new in zip(op.acc_args, accs, strict=True)}
    em = BlockEmitter(lowering, block, env, load_mask=load_mask, store_mask=load_mask)
    em.run(op.body.block.ops)
    out = [em.vector(v, op) for v in (op.yield_op.values if op.yield_op else ())]
    if load_mask is not None:
        out = [em.blend(load_mask, new, cur, op) for new, cur in zip(out, accs, strict=True)]
    return out


def _step(op: loop.LoopLike) -> int:
    if op.step is None:
        return 1
    owner = op.step.owner
    assert isinstance(owner, arith.ConstantOp)
    return owner.value.value.data  # type: ignore[union-attr]


def lower_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions) -> None:
    target = options.target
    width = choose_width(op, target, options.partial)
    for acc in op.accumulators:
        check_vectorizable(acc, op)
    lowering = LoopLowering(op, target, width, lambda o: rewriter.insert(o, InsertPoint.before(op)))
    try:
        _lower_vecloop(op, rewriter, options, lowering, width)
    except LoopoptDiagnostic:
        lowering.abandon(lambda o: rewriter.erase(o, safe_erase=False))
        raise


def _lower_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions, lowering: LoopLowering, width: int) -> None:
    target = options.target
    br = BlockRange.of(lowering)  # validates the range first
    lowering.hoist_invariants()
    k = interleave_factor(op, options)
    tail = tail_kind(op, options)
    accs = op.accumulators
    types = [a.arg.type for a in accs]
    vtypes = [lowering.vector_type(t, op) for t in types]
    kinds = [carried_kind(a, vt) for a, vt in zip(op.accs.data, vtypes, strict=True)]
    neutral = [neutral_vector(lowering, a.kind, t, op) for a, t in zip(accs, types, strict=True)]
    pre = lowering.emit_pre

    # main loop: K interleaved copies of the body per iteration, K vector accumulators each
    main_done, main_end = br.full_blocks(width * k)
    main, body = br.block_loop(br.lo, main_end, width * k, neutral * k, vtypes * k, kinds * k)
    n = len(accs)
    nexts: list[SSAValue] = []
    for copy in range(k):
        var = body.args[0]
        if copy:
            off = lowering.index_const(copy * width * br.step)
            var = located(arith.AddiOp(body.args[0], off), op)
            body.add_op(var)
            var = var.results[0]
        nexts += emit_block(lowering, body, var, list(body.args[1 + copy * n : 1 + (copy + 1) * n]))
    body.add_op(located(loop.YieldOp(*nexts), op))
    pre(main)
    vaccs = [
        combine_tree(accs[j].kind, types[j], [main.res[copy * n + j] for copy in range(k)], pre)
        for j in range(n)
    ]
    done, stop = main_done, main_end

    # remainder blocks of W after the K-interleaved ones
    if k > 1:
        done, stop = br.full_blocks(width)
        rem, body = br.block_loop(main_end, stop, width, vaccs, vtypes, kinds)
        body.add_op(located(loop.YieldOp(*emit_block(lowering, body, body.args[0], list(body.args[1:]))), op))
        pre(rem)
        vaccs = list(rem.res)

    if tail == TailKind.MASKED:
        # one block stepping past the end: runs once iff iterations are left
        masked, body = br.block_loop(stop, br.end, width, vaccs, vtypes, kinds)
        mask = pre(tail_mask(br, done)).results[0]
        body.add_op(located(loop.YieldOp(*emit_block(lowering, body, body.args[0], list(body.args[1:]), mask)), op))
        pre(masked)
        vaccs = list(masked.res)

    results = [
        finish(accs[j].kind, types[j], accs[j].init, vaccs[j], width, pre) for j in range(n)
    ]
    if tail == TailKind.SCALAR:
        results = list(scalar_tail(br, stop, results).res)
    rewriter.replace(op, [], results)


def lower_vecloop_scalar(op: loop.VecLoopOp, rewriter: PatternRewriter) -> None:
    """On the scalar target a vecloop is the `loop.for` it means at width 1."""
    new = loop.ForOp(list(op.bounds), list(op.inits), list(op.accs.data), op.body.clone())
    new.location = op.location
    rewriter.replace(op, new)
