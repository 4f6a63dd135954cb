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
%r:2 = loop.for %i in range(%end16, %end8, %c8) accs(%r0 = %a#0 : ..., %r1 = %a#1 : ...) {
  ...one block stepping %r0...
  loop.yield %r1, %t : vector<8xf32>, vector<8xf32>     // rotated: the next block steps %r1
}
%c = arith.addf %r#0, %r#1 : vector<8xf32>
%h = simd.hreduce <add> %c : vector<8xf32> -> f32
%s0 = arith.addf %z, %h : f32
%s = loop.for %i in [%end8, %n) accs(%acc = %s0 : f32 add reassoc) { ...the source body... }
```
The K copies stay apart through the remainder blocks (fewer than K of them, each stepping a
copy no earlier remainder block stepped) and a masked tail, and are merged once, pairwise,
just before the horizontal epilogue: no block waits on the merge or on another block.
With `tail(masked)` the scalar loop is replaced by one masked block (masked loads/stores,
`simd.select` keeping inactive lanes' accumulators) stepping copy 0 before the merge.
A map in the L1d may run its K-block iterations as 256-bit blocks (`split_map_loop`), or a small
memory-bound one skip the K-block loop (`short_map`), on CPUs where that is faster;
a map whose data exceeds the L2 may run its K-block iterations with its loads in halves first
(`half_load_loop`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.loop import PARALLEL_ATTR
from loopopt.dialects.split_halves import SPLIT_HALVES_ATTR, split_problem
from loopopt.dialects.loop_attrs import TailKind
from loopopt.dialects.cpu_models import CPUS, GENERIC, CpuModel
from loopopt.dialects.simd_targets import TargetInfo, element_bits
from loopopt.lowering.df_to_loop.trips import constant_of
from loopopt.lowering.loop_to_simd.align_peel import align_peel, aligned_load, head_count
from loopopt.lowering.loop_to_simd.accum import (
    adds_to_itself,
    carried_kind,
    check_vectorizable,
    combine_tree,
    finish,
    is_float_sum_or_product,
    accumulator_start,
)
from loopopt.lowering.loop_to_simd.lanes import (
    BlockEmitter,
    Lanes,
    LoopLowering,
    Strided,
    Varying,
    const_op,
    is_data_type,
    located,
)
from loopopt.lowering.loop_to_simd.plan import binary, yield_op
from loopopt.lowering.loop_to_simd.range import BlockRange
from loopopt.lowering.loop_to_simd.tail import AUTO, choose_tail, scalar_tail, tail_mask
from loopopt.lowering.loop_to_simd.copies import Copies, Trace
from loopopt.lowering.loop_to_simd.widen import accumulator_type
from loopopt.lowering.loop_to_simd.width import choose_width, widening

DEFAULT_INTERLEAVE: dict[str, int] = {"avx512": 4, "avx2": 4, "sse2": 4, "neon": 4}
"""Independent vector accumulators of a reduction (blocks per main-loop iteration) when
`interleave` is not given: enough to cover a float add's latency (4 cycles) at one or two
adds per cycle; every target has the registers for 4 (the kernel library keeps 4 too)."""

DEFAULT_UNROLL: dict[str, int] = {"avx512": 4, "avx2": 4, "sse2": 2, "neon": 2}
"""Blocks per main-loop iteration of a loop without accumulators (a map, a compaction) when
`interleave` is not given: one loop-control overhead, and more independent work in flight
(the 10-cycle vpmulld), per K vectors; 2 on the 128-bit targets, whose loads and stores are
narrower anyway."""

SCALAR_INTERLEAVE = 4
"""Width-1 blocks per iteration of a predloop on the scalar target (4 accumulators, like the
kernel library's scalar folds), when reassociation is allowed."""


@dataclass(frozen=True)
class VecOptions:
    """The pass options a vector loop lowering reads."""

    target: TargetInfo
    tail: str
    """"" (as each loop says), "scalar", "masked" or "auto" (the CPU's cheaper one)."""
    interleave: int
    """K >= 1, or 0 for the per-target default (reductions only)."""
    partial: bool = True
    """Allow vectors that fill part of a register (loops mixing element widths)."""
    stream_bytes: int = 0
    """Maps whose output is at least this many bytes at run time use streaming stores (0: never)."""
    cpu: CpuModel = field(default_factory=lambda: CPUS[GENERIC])
    """The micro-architecture the speed-only decisions read (tail=auto, compaction form)."""
    preheaders: dict[Block, dict[Any, SSAValue]] = field(default_factory=dict, compare=False, hash=False, repr=False)
    """Per block, the pure preheader values the loops lowered in it so far built
    (`LoopLowering.broadcasts`): one pass run's, which lowers a block's loops first to last."""


def interleave_factor(op: loop.VecLoopOp | loop.PredLoopOp, options: VecOptions) -> int:
    """K: the option, else the target's default.

    On the scalar target (width 1, where only predloops come here) K lanes are K separate
    accumulators, a reassociation: 4 when every float add/mul accumulator allows it, else 1
    — whatever the option says, since a float sum without `reassoc` must add in element order."""
    if options.target.vector_bits == 0 and (has_strict_float_accumulator(op) or stores_running_value(op)):
        return 1
    if options.interleave > 0:
        return options.interleave
    if options.target.vector_bits == 0:
        return SCALAR_INTERLEAVE
    table = DEFAULT_INTERLEAVE if op.inits else DEFAULT_UNROLL
    return table.get(options.target.name, 1)


def stores_running_value(op: loop.VecLoopOp | loop.PredLoopOp) -> bool:
    """An accumulator whose next value is also stored or appended (a scan, filter → scan):
    each element needs the running value of all before it, so it is one chain."""
    return any(a.next is not None and any(isinstance(u.operation, loop.StoreOp | loop.AppendOp) for u in a.next.uses)
               for a in op.accumulators)  # fmt: skip


def has_strict_float_accumulator(op: loop.VecLoopOp | loop.PredLoopOp) -> bool:
    """A float add/mul accumulator without `reassoc`: its steps must run in element order."""
    return any(is_float_sum_or_product(a) and not a.reassoc for a in op.accumulators)


def tail_kind(op: loop.VecLoopOp | loop.PredLoopOp, options: VecOptions, width: int = 1) -> TailKind:
    """The loop's tail, overridden by the option (never overriding `none`, a promise about n);
    `auto` asks the CPU model which is cheaper at `width` (tail.choose_tail).

    A masked tail needs masked loads/stores; on targets without them a vecloop falls back
    to the scalar epilogue.
    """
    kind = op.tail.data
    if kind != TailKind.NONE and options.tail == AUTO:
        kind = choose_tail(op, options.target, options.cpu, width)
    elif kind != TailKind.NONE and options.tail:
        kind = TailKind(options.tail)
    if kind == TailKind.MASKED and not options.target.has_masked_load_store and isinstance(op, loop.VecLoopOp):
        kind = TailKind.SCALAR
    return kind


def emit_block(lowering: LoopLowering, block: Block, var: SSAValue, accs: list[SSAValue],
               load_mask: SSAValue | None = None, streaming: SSAValue | None = None,
               half_loads: bool = False, quarter_loads: bool = False, trace: Trace | None = None) -> list[SSAValue]:  # fmt: skip
    """One W-lane copy of the vecloop body into `block`; returns the accumulators' next vectors.

    Stores to `streaming` are aligned streaming stores (the caller has aligned them);
    `half_loads` / `quarter_loads` load each vector as two halves / four quarters (`half_load_loop`);
    `trace` records the copy for the next ones (copies.py)."""
    op = lowering.source
    env: dict[SSAValue, Lanes] = {op.var: lowering.variable_lanes(var, block, _step(op))}
    if trace is not None and lowering.runtime_step is not None:
        trace.valid = False  # variable_lanes emitted into the block
    env |= {old: Varying(new) for old, new in zip(op.acc_args, accs, strict=True)}
    em = BlockEmitter(lowering, block, env, load_mask=load_mask, store_mask=load_mask, streaming=streaming,
                      half_loads=half_loads, quarter_loads=quarter_loads, trace=trace)  # fmt: skip
    em.run(op.body.block)
    out = [em.vector(v, op) for v in (op.yield_op.values if op.yield_op else ())]
    if load_mask is not None:  # a widening sum added 0 on the inactive lanes already
        out = [new if j in lowering.widening else em.blend(load_mask, new, cur, op)
               for j, (new, cur) in enumerate(zip(out, accs, strict=True))]  # fmt: skip
    if trace is not None:
        trace.outputs = out
    return out


def block_copies(lowering: LoopLowering, block: Block, k: int, traces: list[Trace] | None = None,
                 like: Trace | None = None, **options: Any) -> Copies:
    """`Copies` of the vecloop body into `block` (inputs: the variable, then the accumulators);
    `options` are emit_block's, the same for every copy."""
    def emit(inputs: list[SSAValue], trace: Trace | None) -> list[SSAValue]:
        return emit_block(lowering, block, inputs[0], inputs[1:], trace=trace, **options)

    return Copies(lowering, block, k, emit, traces, like)


def sink_stores(body: Block) -> None:
    """Move the `simd.store`s of an unrolled block body after its last load, in order.

    The K copies are emitted one after another, so copy c+1's loads follow copy c's store;
    when the output sits a multiple of 4 KiB plus a block from an input (as separately
    allocated arrays often do) each such load looks like it reads the store before it
    (x86 "4K aliasing": the low 12 address bits match) and waits for it — on Zen 4 an
    AVX-512 axpy at 64 Ki elements ran at 0.82x of the same loop with its loads first.
    Done only when no other op in the body touches a stored buffer and no other op writes
    memory, so the reordering cannot change what any load reads."""
    ops = list(body.ops)
    kinds = [_store_kind(type(o)) for o in ops]
    stores = [o for o, kind in zip(ops, kinds) if kind == _STORE]
    if len(stores) < 2 or not isinstance(ops[-1], loop.YieldOp):
        return
    stored = {s.buf for s in stores}
    for o, kind in zip(ops, kinds):
        if kind == _WRITER or (kind != _STORE and any(v in stored for v in o.operands)):
            return
    for s in stores:
        s.detach()
        body.insert_op_before(s, ops[-1])


_OTHER, _STORE, _WRITER = range(3)
_STORE_KINDS: dict[type, int] = {}


def _store_kind(cls: type) -> int:
    """sink_stores' question per op class: a `simd.store`, another op that writes memory, or neither."""
    kind = _STORE_KINDS.get(cls)
    if kind is None:
        writers = (loop.StoreOp, simd.MaskedStoreOp, simd.CompressStoreOp)
        kind = _STORE_KINDS[cls] = _STORE if issubclass(cls, simd.StoreOp) else _WRITER if issubclass(cls, writers) else _OTHER
    return kind


def _step(op: loop.LoopLike) -> int | None:
    """The loop's constant step (1 for an interval); None for a runtime step."""
    if op.step is None:
        return 1
    owner = op.step.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    return owner.value.value.data  # type: ignore[union-attr]


def lower_transactionally(
    op: loop.VecLoopOp | loop.PredLoopOp,
    rewriter: PatternRewriter,
    options: VecOptions,
    lower: Callable[[Any, PatternRewriter, VecOptions, LoopLowering, int], None],
) -> None:
    """Run `lower` on `op` at the target's width; a diagnostic erases everything it emitted.

    So a loop the target cannot express is left exactly as it was (and `fallback` can keep
    it scalar) instead of half-lowered.
    """
    width = choose_width(op, options.target, options.partial)
    for acc in op.accumulators:
        check_vectorizable(acc, op)
    block = op.parent_block()
    shared = options.preheaders.setdefault(block, {}) if block is not None else {}
    lowering = LoopLowering(op, options.target, width, _inserter_before(op, rewriter), broadcasts=shared)
    if (found := widening(op, options.target)) is not None:
        lowering.widening = {w.index: w for w in found[1]}
        lowering.narrow_type = IntegerType(options.target.vector_bits // found[0])
    try:
        lower(op, rewriter, options, lowering, width)
    except LoopoptDiagnostic:
        lowering.abandon(lambda o: rewriter.erase(o, safe_erase=False))
        raise


def _inserter_before(op: Operation, rewriter: PatternRewriter) -> Callable[[Operation], None]:
    """`rewriter.insert(o, InsertPoint.before(op))` for one op `o`: the same insertion and the same
    listener call, without Builder.insert's per-call tests (an op or a list, an implicit builder,
    a name hint: none of which the lowering's preheader ops have). The source loop stays where it
    is until the lowering replaces it."""
    block = op.parent_block()
    assert block is not None
    insert_before, notify = block.insert_op_before, rewriter.handle_operation_insertion

    def insert(o: Operation) -> None:
        rewriter.has_done_action = True
        insert_before(o, op)
        notify(o)

    return insert


def lower_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions) -> None:
    """Lower at the target's width; a masked tail that `tail=auto` chose but the body cannot
    take (a load or store with no masked form) falls back to the loop's own tail."""
    try:
        lower_transactionally(op, rewriter, options, _lower_vecloop)
    except LoopoptDiagnostic:
        if options.tail != AUTO:
            raise
        lower_transactionally(op, rewriter, replace(options, tail=""), _lower_vecloop)


def streamed_store(op: loop.VecLoopOp, options: VecOptions, tail: TailKind) -> loop.StoreOp | None:
    """The store of a map that may stream its output, or None.

    A map (no accumulators) with unit step and a tail (the peel breaks any `tail(none)`
    promise) whose only store writes a rank-1 buffer at `i + c` that the loop does not read:
    one output, so one peel aligns every streamed store."""
    if not options.target.has_streaming_stores or options.stream_bytes <= 0:
        return None
    if op.inits or tail == TailKind.NONE or _step(op) != 1:
        return None
    stores = [o for o in op.body.walk() if isinstance(o, loop.StoreOp)]
    if len(stores) != 1:
        return None
    store = stores[0]
    if store.buf_type.rank.data != 1 or not is_data_type(store.buf_type.element_type):
        return None
    coeffs, _ = store.affine_indices[0].normalized()
    if coeffs != {op.var: 1}:
        return None
    if any(isinstance(o, loop.LoadOp) and o.buf == store.buf for o in op.body.walk()):
        return None
    return store


def _axis_dim(v: SSAValue) -> loop.DimOp | None:
    """The `loop.dim` under a bound loop-parallelize accepts: the axis guard `select(fits, len,
    0)`, a gather's `select(c, max(len, 0), 0)` (0 or the length, the same in every chunk)."""
    op = v.owner
    while isinstance(op, arith.SelectOp | arith.MaxSIOp):
        sides = [o for o in ((op.lhs, op.rhs) if isinstance(op, arith.SelectOp) else op.operands) if constant_of(o) != 0]
        if len(sides) != 1:
            return None
        op = sides[0].owner
    return op if isinstance(op, loop.DimOp) else None


def call_trips(lowering: LoopLowering, br: BlockRange, required: bool = True) -> SSAValue:
    """The trips a decision on where the data lives reads: the loop's, or in a kernel that
    loop-parallelize split (`loop.parallel`) the whole call's, `loop.call_dim` of the buffer
    whose length bounds the loop (such loops run over [0, loop.dim %b, 0)).

    A chunk of the call is the kernel on a range, so deciding from the range's trips would
    store an output between the threshold and t times it plainly on t threads (with
    read-for-ownership traffic) where the serial kernel streams it, and fold a 16 Mi-element
    call's 32 Ki-element chunks as data in the L2 (adjacent blocks) where the serial kernel
    walks streams from DRAM. Same stores either way; a fold's copies may hold other elements
    (a float sum rounds otherwise), but every chunk of a call decides alike, so every thread
    count gives the same bits. A loop of a parallel kernel not over [0, loop.dim %b) is an
    error when `required` (a streamed store), else decides from its own trips."""
    op = lowering.source
    f = op.parent_op()
    while f is not None and not isinstance(f, FuncOp):
        f = f.parent_op()
    if f is None or PARALLEL_ATTR not in f.attributes:
        return br.trips
    dim = _axis_dim(op.upper)
    if (constant_of(op.lower) != 0 and _axis_dim(op.lower) is None) or dim is None:
        if not required:
            return br.trips
        raise LoopoptDiagnostic("a loop of a parallel kernel not over [0, loop.dim %b, 0): its streaming decision needs the whole call's length", op)
    key = (("call_len", dim.buf), IndexType())
    if (found := lowering.broadcasts.get(key)) is not None:  # type: ignore[arg-type]
        return found
    whole = lowering.emit_pre(loop.CallDimOp(dim.buf)).results[0]
    whole.name_hint = "call_len"
    # a C caller's negative length is an empty call (as br.trips is clamped): unclamped,
    # `call_len * sizeof(T)` overflowed (UB) for a length near INT64_MIN
    found = lowering.emit_pre(binary(arith.MaxSIOp, whole, lowering.index_const(0))).results[0]
    lowering.broadcasts[key] = found  # type: ignore[index]
    return found


def map_block_loop(lowering: LoopLowering, rest: BlockRange, stop: SSAValue, width: int, k: int,
                   streaming: SSAValue | None = None, half_loads: bool = False, quarter_loads: bool = False,
                   sink: bool = True) -> loop.ForOp:  # fmt: skip
    """`loop.for` over the K-block iterations of a map from `rest.lo` to `stop`, its stores
    after its loads (sink_stores) when `sink`, emitted before the source loop."""
    op = lowering.source
    nt, body = rest.block_loop(rest.lo, stop, width * k, [], [], [])
    copies = block_copies(lowering, body, k, streaming=streaming, half_loads=half_loads, quarter_loads=quarter_loads)
    for copy in range(k):
        var = body.args[0]
        if copy:
            var = located(binary(arith.AddiOp, var, lowering.index_const(copy * width)), op)
            body.add_op(var)
            var = var.results[0]
        copies.next([var])
    body.add_op(located(yield_op([]), op))
    if sink:
        sink_stores(body)
    lowering.emit_pre(nt)
    return nt


def emit_streaming(lowering: LoopLowering, br: BlockRange, store: loop.StoreOp, width: int, k: int,
                   threshold: int, half_loads: bool = False,
                   aligning: tuple[loop.LoadOp, bool | SSAValue] | None = None) -> BlockRange:  # fmt: skip
    """Peel to the output's vector alignment, then K-block iterations with streaming stores and a
    fence, when the output is at least `threshold` bytes; returns the range left to the rest.
    Smaller, the peel is the `aligning` head to an input's alignment (align_peel.py) if any.

    No branch decides: when the output is small the peel count and the streamed iterations are
    0, so both loops have empty ranges and the ordinary loops that follow run everything.
    ```
    %big  = arith.cmpi sge, trips * sizeof(T), threshold      // the whole call's trips: call_trips
    %peel = arith.select %big, min(simd.align_offset %out[lo + c], trips), 0
    loop.for %i in [lo, lo + peel) { the source body }                 // scalar
    %nt   = arith.select %big, whole K*W blocks of (trips - peel), 0
    loop.for %i in range(lo + peel, lo + peel + nt, K*W) { ... simd.store ... aligned nontemporal }
    loop.for %f in [0, select(%big, 1, 0)) { simd.store_fence }          // fence only if streamed
    ```
    """
    op = lowering.source
    pre = lowering.emit_pre
    index = IndexType()
    elt = store.buf_type.element_type
    esize = element_bits(elt) // 8
    zero = lowering.index_const(0)
    # a temporary (loop.alloc) of a split kernel is the chunk's own, cache-sized: its own trips decide
    trips = br.trips if isinstance(store.buf.owner, loop.AllocOp) else call_trips(lowering, br)
    nbytes = pre(binary(arith.MuliOp, trips, lowering.index_const(esize))).results[0]
    big = pre(arith.CmpiOp(nbytes, lowering.index_const(threshold), "sge")).results[0]
    big.name_hint = "stream"
    _, offset = store.affine_indices[0].normalized()
    first = br.lo if not offset else pre(binary(arith.AddiOp, br.lo, lowering.index_const(offset))).results[0]
    ahead = pre(simd.AlignOffsetOp(store.buf, first, width * esize)).results[0]
    bounded = pre(binary(arith.MinSIOp, ahead, br.trips)).results[0]
    small = zero if aligning is None else head_count(lowering, br, *aligning)
    peel = pre(arith.SelectOp(big, bounded, small)).results[0]
    peel.name_hint = "peel"
    rest = br.after(peel)
    scalar_tail(br, br.lo, [], stop=rest.lo)
    whole = rest.round_down(rest.trips, width * k)
    streamed = pre(arith.SelectOp(big, whole, zero)).results[0]
    after = rest.after(streamed)
    map_block_loop(lowering, rest, after.lo, width, k, streaming=store.buf, half_loads=half_loads)
    # the fence only where something streamed: an sfence orders every store before it (the
    # previous call's too); a 1 Ki-element map on Zen 4 was 1-3% faster without it. A
    # loop.for that runs once when `big` (like the masked tail, no branch op needed)
    fences = pre(arith.SelectOp(big, lowering.index_const(1), zero)).results[0]
    fence_body = Block(arg_types=[index])
    fence_body.add_ops([located(simd.StoreFenceOp(), op), located(yield_op([]), op)])
    fence = loop.ForOp([zero, fences], [], [], fence_body)
    fence.location = op.location
    pre(fence)
    return after


def short_map(lowering: LoopLowering, br: BlockRange, cpu: CpuModel) -> bool | SSAValue:
    """Whether a memory-bound map whose data fits `cpu.short_map_bytes` runs one block an
    iteration: on such a CPU that is faster in L1 (Zen 4, 512-bit blocks: the K-unrolled body
    runs at ~0.8x there). True/False at compile time for constant bounds, else an i1 on the trip count:
    when it holds, the K-block main loop runs no iteration and the one-block remainder loop
    all whole blocks (a select, no branch). Not for a loop nested in another: its trips say
    nothing about the data the outer loop walks (the rows of a matrix beyond the L1d)."""
    if not memory_bound(lowering.source):
        return False
    short = _data_size(lowering, br, cpu.short_map_bytes(lowering.target.vector_bits), "sle", "in_l1")
    return False if short is None else short


def split_map_loop(lowering: LoopLowering, br: BlockRange, sized: BlockRange, width: int, cpu: CpuModel) -> BlockRange:
    """When a map's data fits `cpu.split_map_bytes` (Zen 4: the L1d, 512-bit blocks), its whole
    iterations of `half_blocks_in_l1` 256-bit blocks as a loop of half as many 512-bit blocks
    marked `loop.split_halves`, which the C printer prints in 256-bit halves (a select on the
    trip count, no branch, as half_load_loop); returns the range left to the ordinary loops,
    all of `br` when the data is larger or dialects/split_halves.py refuses the body (its
    arithmetic: the loop built for the test is erased, short_map may still apply). `sized` is
    the range whose data is measured (before a half-load loop took its part)."""
    limit = cpu.split_map_bytes(lowering.target.vector_bits)
    mark = len(lowering.inserted)
    fits = _data_size(lowering, sized, limit, "sle", "in_l1") if limit else None
    if fits is None or fits is False:
        return br
    k = max(cpu.costs.half_blocks_in_l1 // 2, 1)
    after = after_far_blocks(lowering, br, width, k, fits)
    # a one-input map keeps each block's stores next to its loads (Zen 4, a*x + b f32 in L1: 1.02-1.11x
    # the sunk order); with two inputs sunk stores (a*x + y f32 at 256 elements: 0.74x unsunk)
    sink = len({o.buf for o in lowering.source.body.walk() if isinstance(o, loop.LoadOp)}) > 1
    split = map_block_loop(lowering, br, after.lo, width, k, sink=sink)
    if mark_split(split):
        return after
    drop_unused_since(lowering, mark)
    return br


def drop_unused_since(lowering: LoopLowering, mark: int) -> None:
    """Erase what the lowering emitted before the loop since `lowering.inserted[mark]` that
    nothing reads (a refused split loop, its size test and bounds), last first, and forget the
    cached values among them: a later loop builds its own."""
    erased: set[Operation] = set()
    for o in reversed(lowering.inserted[mark:]):
        if o.parent is not None and not any(r.uses for r in o.results):
            Rewriter.erase_op(o)
            erased.add(o)
    for cache in (lowering.broadcasts, lowering.columns_of):
        for key in [k for k, v in cache.items() if v.owner in erased]:
            del cache[key]
    lowering.inserted[mark:] = [o for o in lowering.inserted[mark:] if o not in erased]


def beyond_l2(lowering: LoopLowering, br: BlockRange, cpu: CpuModel, limit: int | None = None,
              name: str = "beyond_l2") -> bool | SSAValue:  # fmt: skip
    """Whether a map's data exceeds `limit` (default `cpu.half_load_bytes`: the L2 on Zen 4 with
    512-bit vectors), so that its loads go in parts (`half_load_loop`): True/False for constant
    bounds, else an i1 on the trip count named `name`, the whole call's in a parallel kernel
    (`call_trips`: a chunk's data comes from where the call's lives). Unit step only; not
    nested (as short_map)."""
    if _step(lowering.source) != 1:
        return False
    if limit is None:
        limit = cpu.half_load_bytes(lowering.target.vector_bits)
    far = _data_size(lowering, br, limit, "sgt", name, whole_call=True)
    return False if far is None else far


def quarter_loads(op: loop.VecLoopOp, cpu: CpuModel, vector_bits: int) -> int:
    """The data size beyond which a map loads its vectors in quarters (`cpu.quarter_load_bytes`),
    or 0: only a map with one load in its body (out = f(x)) and at most two ops on it (a*x + b);
    with two inputs (a*x + y) quarters lost 2-4% from 64 Ki elements on Zen 4, and sqrt(|a*x|) + b
    2% at 1 Mi (cpu_models.py, zen4)."""
    if op.inits or sum(isinstance(o, loop.LoadOp) for o in op.body.walk()) != 1 or not memory_bound(op, 2):
        return 0
    return cpu.quarter_load_bytes(vector_bits)


def _data_size(lowering: LoopLowering, br: BlockRange, limit: int, predicate: str, name: str,
               whole_call: bool = False) -> bool | SSAValue | None:  # fmt: skip
    """`bytes the loop loads and stores <predicate> limit` ("sle" or "sgt"): a constant for
    constant bounds, else an i1 on the trip count named `name`, the whole call's (`call_trips`)
    when `whole_call` (where the data lives, not how much of it this chunk walks). None when
    there is no limit (0), the loop moves no data, or it is nested in another loop (its trips
    say nothing about the data the outer loop walks: the rows of a matrix)."""
    op = lowering.source
    per = bytes_per_iteration(op)
    if not limit or not per or in_a_loop(op):
        return None
    most = limit // per
    lo, hi = constant_of(op.lower), constant_of(op.upper)
    if op.step is None and lo is not None and hi is not None:
        return hi - lo <= most if predicate == "sle" else hi - lo > most
    pre = lowering.emit_pre
    trips = call_trips(lowering, br, required=False) if whole_call else br.trips
    test = pre(arith.CmpiOp(trips, pre(const_op(most, IndexType())).results[0], predicate)).results[0]
    test.name_hint = name
    return test


def half_load_loop(lowering: LoopLowering, br: BlockRange, width: int, k: int, far: bool | SSAValue,
                   quarters: bool = False) -> BlockRange:  # fmt: skip
    """When `far` (beyond_l2) holds, the whole K-block iterations of a map as a loop whose loads
    go in halves (or `quarters`); returns the range left to the ordinary loops (all of it otherwise:
    a select on the trip count, no branch, as emit_streaming)."""
    after = after_far_blocks(lowering, br, width, k, far)
    map_block_loop(lowering, br, after.lo, width, k, half_loads=not quarters, quarter_loads=quarters)
    return after


def after_far_blocks(lowering: LoopLowering, br: BlockRange, width: int, k: int, far: bool | SSAValue) -> BlockRange:
    """The range after the whole K-block iterations when `far` (beyond_l2) holds, else all of
    `br` (a select on the trip count, no branch, as emit_streaming)."""
    whole = br.round_down(br.trips, width * k)
    if not isinstance(far, bool):
        whole = lowering.emit_pre(arith.SelectOp(far, whole, lowering.index_const(0))).results[0]
    return br.after(whole)


def fold_block_loop(lowering: LoopLowering, br: BlockRange, stop: SSAValue, width: int, k: int,
                    inits: list[SSAValue], vtypes: list, kinds: list, stride: SSAValue | None = None,
                    quarter_loads: bool = False, streams: int = 0, traces: list[Trace] | None = None) -> loop.ForOp:  # fmt: skip
    """`loop.for` over the K-block iterations from `br.lo` to `stop`, K copies of the body each
    stepping its own accumulators (copy-major), emitted before the source loop. With `stride`
    (iterations, unit step) the K copies form `streams` (default K) groups of K/streams adjacent
    blocks, group g running g*stride iterations on, and the loop steps one group (`stream_fold_loop`)."""
    op = lowering.source
    n = len(op.accumulators)
    group = k // (streams or k) if stride else k
    main, body = br.block_loop(br.lo, stop, width * group, inits, vtypes, kinds)
    copies = block_copies(lowering, body, k, traces, quarter_loads=quarter_loads)
    nexts: list[SSAValue] = []
    var = start = body.args[0]
    for copy in range(k):
        if copy:
            next_stream = stride is not None and copy % group == 0
            off = stride if next_stream else lowering.index_const((copy % group) * width * br.step)
            new = located(binary(arith.AddiOp, start, off), op)
            body.add_op(new)
            var = new.results[0]
            if copy % group == 0:
                start = var
        nexts += copies.next([var, *body.args[1 + copy * n : 1 + (copy + 1) * n]])
    body.add_op(located(yield_op(nexts), op))
    sink_stores(body)
    lowering.emit_pre(main)
    return main


def may_split_halves(lowering: LoopLowering, options: VecOptions) -> bool:
    """Whether to try running a fold's K-block iterations beyond the L2 with half-width
    accumulators (`split_fold_loop`): a CPU that loads in halves (Zen 4, 512-bit vectors), a
    fold of its own element widths (no widened accumulators) and no integer multiply — split
    i32 sum of squares at 16 Mi ran 1.01-1.05x from 64-byte aligned data but 0.97x at offsets
    of 4 and 16 bytes (numpy's), 0.96-0.97x in session 20 (analysis.md). This is the policy;
    whether the built loop can be split at all is dialects/split_halves.py's one test, asked
    of the loop once built (`split_fold_loop`)."""
    op = lowering.source
    if not op.inits or lowering.widening or not options.cpu.half_load_bytes(options.target.vector_bits):
        return False
    return not any(isinstance(o, arith.MuliOp) for o in op.body.block.ops)


def mark_split_or_erase(split: loop.ForOp) -> bool:
    """Mark `split` (a just-built K-block fold loop whose results nothing reads yet) to run in
    halves when dialects/split_halves.py accepts it, else erase it (the ordinary loops then run
    its iterations; the index arithmetic built for it is dead). The `loop.for` verifier and the
    printer ask the same test, so the lowering cannot mark a loop they would refuse."""
    if not mark_split(split):
        Rewriter.erase_op(split)
        return False
    return True


def mark_split(split: loop.ForOp) -> bool:
    """Mark `split` `loop.split_halves` when dialects/split_halves.py accepts it; whether it did."""
    if split_problem(split) is not None:
        return False
    split.attributes[SPLIT_HALVES_ATTR] = UnitAttr()
    return True


def split_fold_loop(lowering: LoopLowering, br: BlockRange, width: int, k: int, far: bool | SSAValue,
                    inits: list[SSAValue], vtypes: list, kinds: list) -> tuple[BlockRange, list[SSAValue]]:  # fmt: skip
    """When `far` (beyond_l2) holds, a fold's whole K-block iterations as a loop marked
    `loop.split_halves`: the C printer keeps its accumulators as 2K half-width registers (lane j
    of accumulator c is lane j mod W/2 of half 2c + 2j/W), so every lane adds the same values
    in the same order, bit for bit as the whole loop. On Zen 4 a sum of 16 Mi f32 ran 4-8%
    faster so (results/amd-zen4/fold_widths.c; loopopt's own C 4-9%). Returns the range left and the accumulators
    the ordinary loops continue (a select on the trip count, no branch, as half_load_loop); the
    range and `inits` unchanged when the built loop cannot be split (`mark_split_or_erase`)."""
    after = after_far_blocks(lowering, br, width, k, far)
    split = fold_block_loop(lowering, br, after.lo, width, k, inits, vtypes, kinds)
    if not mark_split_or_erase(split):
        return br, inits
    return after, list(split.res)


def stream_blocks(lowering: LoopLowering, br: BlockRange, width: int, k: int, far: bool | SSAValue,
                  streams: int = 0) -> tuple[BlockRange, SSAValue]:  # fmt: skip
    """The range after the whole K-block iterations when `far` holds (else all of `br`), and
    1/streams of them (default K): each stream's iterations, a whole number of blocks."""
    whole = br.round_down(br.trips, width * k)
    if not isinstance(far, bool):
        whole = lowering.emit_pre(arith.SelectOp(far, whole, lowering.index_const(0))).results[0]
    per = lowering.emit_pre(binary(arith.DivSIOp, whole, lowering.index_const(streams or k))).results[0]
    per.name_hint = "per_stream"
    return br.after(whole), per


def fold_streams(lowering: LoopLowering, options: VecOptions, k: int, inputs: int = 1) -> int:
    """The data size beyond which a fold walks its K copies as streams (`stream_fold_loop`), or 0:
    a CPU with `fold_streams_beyond_llc` (Zen 3, Zen 4; every vector width), K > 1, unit step,
    loads of at most `inputs` buffers (vecloops: 2, dot; a predloop loads its one element in the
    predicate and the body) and no stores in the body, no widened accumulators, at least 2 streams
    (`fold_stream_count`)."""
    op = lowering.source
    limit = options.cpu.fold_stream_bytes()
    if not limit or k < 2 or not op.inits or lowering.widening or _step(op) != 1 or in_a_loop(op):
        return 0
    ops = list(op.body.walk())
    if not 1 <= _loaded_buffers(op) <= inputs or any(isinstance(o, loop.StoreOp | loop.AppendOp) for o in ops):
        return 0
    if inputs > 1 and not all(_contiguous(o, op) for o in ops if isinstance(o, loop.LoadOp)):
        return 0  # a gather (x[idx[i]]) reads one stream and random lines: not measured
    return limit if fold_stream_count(lowering, options, k) else 0


def _contiguous(load: loop.LoadOp, op: Operation) -> bool:
    """`load` reads `buf[i + c]` of the loop's variable i (a stream), not an index loaded in the loop."""
    return all(a.normalized()[0] == {op.body.block.args[0]: 1} for a in load.affine_indices)


def _loaded_buffers(op: Operation) -> int:
    return len({o.buf for o in op.walk() if isinstance(o, loop.LoadOp)})


def fold_stream_count(lowering: LoopLowering, options: VecOptions, k: int) -> int:
    """How many streams a fold beyond the LLC walks: a one-input fold K (session 23's measure);
    a two-input fold (dot) `fold_streams_beyond_llc` read streams in all, i.e. half as many
    streams, each K/streams adjacent blocks (Zen 4, 16 Mi dot f32/i32 vs adjacent blocks, load
    17-21, results/amd-zen4/dot_streams: K streams of one block 1.09-1.25x on 4 KiB pages but
    0.83-0.98x on 2 MiB; K/2 streams of two 1.15-1.23x, and f32 1.02-1.06x / i32 0.93-0.96x within
    noise on 2 MiB). 0 when fewer than 2 or not dividing K."""
    inputs = _loaded_buffers(lowering.source)
    streams = k if inputs <= 1 else min(k, options.cpu.costs.fold_streams_beyond_llc // inputs)
    return streams if streams >= 2 and k % streams == 0 else 0


def stream_fold_loop(lowering: LoopLowering, options: VecOptions, br: BlockRange, width: int, k: int,
                     far: bool | SSAValue, split: bool, inits: list[SSAValue], vtypes: list,
                     kinds: list) -> tuple[BlockRange, list[SSAValue]]:  # fmt: skip
    """When `far` (beyond the LLC) holds, a fold's whole K-block iterations as S streams
    (`fold_stream_count`: K for one input, K/2 for dot): stream g folds the g-th 1/S of them,
    K/S adjacent blocks an iteration (`Costs.fold_streams_beyond_llc`). The
    loop runs `loop.split_halves` when `split` and dialects/split_halves.py accepts it, else
    whole, with quarter loads where the vector is wider than the datapath (Zen 4: sumsq i32 from
    4 KiB pages 1.27x, 2 MiB 1.01x; AVX2 and SSE2 load whole vectors). Copy c then
    holds other elements than the adjacent-block loop gave it, so a float sum (reassoc) rounds
    otherwise; integer folds give the same bits. Returns the range left and the accumulators
    the ordinary loops continue (a select on the trip count, no branch, as split_fold_loop)."""
    count = fold_stream_count(lowering, options, k)
    after, per = stream_blocks(lowering, br, width, k, far, count)
    stop = br.point(per)
    if split:
        streams = fold_block_loop(lowering, br, stop, width, k, inits, vtypes, kinds, stride=per, streams=count)
        if mark_split(streams):
            return after, list(streams.res)
        Rewriter.erase_op(streams)
    quarters = options.target.vector_bits > options.cpu.costs.datapath_bits
    streams = fold_block_loop(lowering, br, stop, width, k, inits, vtypes, kinds, stride=per, quarter_loads=quarters,
                              streams=count)
    return after, list(streams.res)


def memory_bound(op: loop.VecLoopOp, per_load: int = 1) -> bool:
    """At most `per_load` arithmetic ops per load: out = a*x + b as one FMA, a*x + y in i32. A body
    with more work per load (i32 a*x + b: a multiply and an add) gains from the K independent
    blocks of the unrolled body even in L1 (Zen 4: 1 Ki-element i32 axpb 0.92x one block an
    iteration, issue 11)."""
    ops = list(op.body.walk())
    loads = sum(isinstance(o, loop.LoadOp) for o in ops)
    work = sum(not isinstance(o, loop.LoadOp | loop.StoreOp | loop.YieldOp | arith.ConstantOp) for o in ops)
    return work <= per_load * loads


def in_a_loop(op: loop.VecLoopOp) -> bool:
    """Whether `op` is nested in another loop."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, loop.LoopLike):
            return True
        parent = parent.parent_op()
    return False


def bytes_per_iteration(op: loop.VecLoopOp | loop.PredLoopOp) -> int:
    """Bytes one iteration of the loop loads and stores (its data; bool buffers count 1)."""
    return sum(
        element_bits(o.buf_type.element_type) // 8 if is_data_type(o.buf_type.element_type) else 1
        for o in op.body.walk() if isinstance(o, loop.LoadOp | loop.StoreOp)
    )  # fmt: skip


def _lower_vecloop(op: loop.VecLoopOp, rewriter: PatternRewriter, options: VecOptions, lowering: LoopLowering, width: int) -> None:
    br = BlockRange.of(lowering)  # validates the range first
    lowering.hoist_invariants()
    k = interleave_factor(op, options)
    tail = tail_kind(op, options, width)
    store = streamed_store(op, options, tail)
    half = options.cpu.half_load_bytes(options.target.vector_bits)
    aligning = align_head(lowering, br, options.cpu, tail)
    if store is not None:  # streamed outputs are beyond the L2 when the threshold is
        br = emit_streaming(lowering, br, store, width, k, options.stream_bytes, 0 < half <= options.stream_bytes, aligning)
    inits = [a.init for a in op.accumulators]  # what the horizontal epilogue combines with
    if store is None and aligning is not None:
        br, inits = align_peel(lowering, br, *aligning, inits)
    sized = br  # what short_map sizes: the data left after streaming, before the half-load loop
    quarters = quarter_loads(op, options.cpu, options.target.vector_bits)
    if quarters and (far := beyond_l2(lowering, br, options.cpu, quarters, "beyond_l1")) is not False:
        br = half_load_loop(lowering, br, width, k, far, quarters=True)
    elif not op.inits and not quarters and (far := beyond_l2(lowering, br, options.cpu)) is not False:
        br = half_load_loop(lowering, br, width, k, far)
    accs = op.accumulators
    types = [a.arg.type for a in accs]
    vtypes = [accumulator_type(t, options.target.vector_bits) if j in lowering.widening else lowering.vector_type(t, op)
              for j, t in enumerate(types)]  # fmt: skip
    kinds = [carried_kind(a, vt) for a, vt in zip(op.accs.data, vtypes, strict=True)]
    neutral = [lowering.splat_constant(0, vt) if j in lowering.widening else accumulator_start(lowering, a.kind, t, a.init, op)
               for j, (a, t, vt) in enumerate(zip(accs, types, vtypes, strict=True))]  # fmt: skip
    pre = lowering.emit_pre
    starts = neutral * k
    split = may_split_halves(lowering, options)
    if (limit := fold_streams(lowering, options, k, inputs=2)) and (far := beyond_l2(lowering, br, options.cpu, limit, "beyond_llc")) is not False:
        br, starts = stream_fold_loop(lowering, options, br, width, k, far, split, starts, vtypes * k, kinds * k)
    if split and (far := beyond_l2(lowering, br, options.cpu)) is not False:
        br, starts = split_fold_loop(lowering, br, width, k, far, starts, vtypes * k, kinds * k)

    # a map in the L1d: datapath-wide blocks where the CPU runs them faster (split_map_loop),
    # else one block an iteration where that is faster (short_map)
    unrolled_map = not accs and k > 1 and options.interleave == 0
    split_rest = False
    if unrolled_map and (left := split_map_loop(lowering, br, sized, width, options.cpu)) is not br:
        br, unrolled_map, split_rest = left, False, True
    # main loop: K interleaved copies of the body per iteration, K vector accumulators each
    in_l1 = short_map(lowering, sized, options.cpu) if unrolled_map else False
    if in_l1 is True:
        k = 1
    main_done, main_end = br.full_blocks(width * k)
    if not isinstance(in_l1, bool):
        main_done = pre(arith.SelectOp(in_l1, lowering.index_const(0), main_done)).results[0]
        main_end = br.point(main_done)
    traces: list[Trace] = []
    main = fold_block_loop(lowering, br, main_end, width, k, starts, vtypes * k, kinds * k, traces=traces)
    n = len(accs)
    vaccs = list(main.res)  # copy-major: copy c's accumulators are vaccs[c*n : (c+1)*n]
    done, stop = main_done, main_end

    # remainder blocks of W after the K-interleaved ones (fewer than K): each block steps
    # copy 0 and rotates it to the back, so every block starts a chain of its own
    if k > 1:
        done, stop = br.full_blocks(width)
        rem, body = br.block_loop(main_end, stop, width, vaccs, vtypes * k, kinds * k)
        # the first copy's in a new body: the main loop's
        stepped = block_copies(lowering, body, 1, like=traces[0] if traces else None).next(list(body.args[: 1 + n]))
        body.add_op(located(yield_op([*body.args[1 + n :], *stepped]), op))
        pre(rem)
        vaccs = list(rem.res)
        if split_rest:  # after a split map loop's 256-bit stores, a 512-bit load of the same
            mark_split(rem)  # data 4K-aliases them and waits (Costs.half_blocks_in_l1)

    if tail == TailKind.MASKED:
        # one block stepping past the end: runs once iff iterations are left. It steps copy 0,
        # which the (< K) rotated remainder blocks never reached
        masked, body = br.block_loop(stop, br.end, width, vaccs[:n], vtypes, kinds)
        mask = pre(tail_mask(br, done)).results[0]
        body.add_op(located(yield_op(emit_block(lowering, body, body.args[0], list(body.args[1:]), mask)), op))
        pre(masked)
        vaccs[:n] = masked.res

    # the K copies merged once, pairwise, after the last vector block
    vaccs = [combine_tree(accs[j].kind, types[j], vaccs[j::n], pre) for j in range(n)] if n else []

    results = [
        finish(accs[j].kind, types[j], inits[j], vaccs[j], width, pre, _adds_to_itself(op, j)) for j in range(n)
    ]
    if tail == TailKind.SCALAR:
        results = list(scalar_tail(br, stop, results, take=True).res)
    rewriter.replace(op, [], results)


def align_head(lowering: LoopLowering, br: BlockRange, cpu: CpuModel, tail: TailKind) -> tuple[loop.LoadOp, bool | SSAValue] | None:
    """The load an aligning head peels to and when (align_peel.py): data from
    `cpu.costs.align_loads_from_bytes` to the LLC (beyond it the loop waits on DRAM either way), or
    None. Not nested (the rows of a matrix: _data_size); not for 128-bit vectors: numpy's arrays are
    16-byte aligned, so their 16-byte loads never span two cache lines."""
    op = lowering.source
    least = cpu.costs.align_loads_from_bytes
    if not least or lowering.target.vector_bits <= 128 or _step(op) != 1:
        return None
    if (load := aligned_load(op, tail, bool(lowering.widening))) is None:
        return None
    big = _data_size(lowering, br, least - 1, "sgt", "aligned")
    small = _data_size(lowering, br, cpu.caches.llc, "sle", "in_llc", whole_call=True)
    if big is None or small is None or big is False or small is False:
        return None
    if big is True or small is True:
        return load, small if big is True else big
    return load, lowering.emit_pre(arith.AndIOp(big, small)).results[0]


def _adds_to_itself(op: loop.VecLoopOp | loop.PredLoopOp, j: int) -> bool:
    """Accumulator j steps as `acc + y` (or an FMA into acc): its lanes never hold -0.0."""
    return op.yield_op is not None and adds_to_itself(op.acc_args[j], op.yield_op.values[j])


def lower_vecloop_scalar(op: loop.VecLoopOp, rewriter: PatternRewriter) -> None:
    """On the scalar target a vecloop is the `loop.for` it means at width 1."""
    new = loop.ForOp(list(op.bounds), list(op.inits), list(op.accs.data), op.body.clone())
    new.location = op.location
    rewriter.replace(op, new)
