"""The loop-fuse rewrite: two legal loops become one, then intermediates disappear.

`fuse_loops` builds one loop over the first loop's range whose body is the first body
followed by the second (the second's variable re-expressed as `i + (lo2 - lo1)` when the
lower bounds differ), carrying both loops' accumulators. `forward_stores` then replaces
a load of an element the same iteration already stored (or loaded) by that value, and
`erase_dead_intermediates` deletes a `loop.alloc` buffer nobody reads any more (its
stores, its dealloc, its alloc).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from loopopt.dialects import loop
from loopopt.dialects.loop_affine import Affine
from loopopt.passes.loop_deps import effects_of, is_effect_free
from loopopt.passes.loop_fusion.elem0 import IndexForm, access_forms, elem0_domain
from loopopt.passes.loop_fusion.legality import ops_between, results_reaching


def _move_between_ops(first: Operation, second: Operation, rewriter: PatternRewriter) -> None:
    """Ops between the loops go before the first loop, or after the second when they use
    the first loop's results (legality made sure the second loop does not need those)."""
    between = ops_between(first, second)
    tainted = results_reaching(first, between)
    after = second
    for op in between:
        op.detach()
        if any(r in tainted for r in op.results):
            rewriter.insert(op, InsertPoint.after(after))
            after = op
        else:
            rewriter.insert(op, InsertPoint.before(first))


def _shifted_var(new_var: SSAValue, delta: IndexForm, fused: loop.LoopLike, first: loop.LoopLike,
                 second: loop.LoopLike, rewriter: PatternRewriter, body: Block) -> SSAValue:
    """The second loop's variable inside the fused body: `new_var + (lo2 - lo1)`."""
    if delta == IndexForm():
        return new_var
    if (c := delta.constant) is not None:
        shift = arith.ConstantOp(IntegerAttr(c, IndexType()))
        rewriter.insert(shift, InsertPoint.before(fused))
    else:
        shift = arith.SubiOp(second.lower, first.lower)
        rewriter.insert(shift, InsertPoint.before(fused))
    add = arith.AddiOp(new_var, shift.result)
    rewriter.insert(add, InsertPoint.at_end(body))
    return add.result


def _stream_loads(op: loop.LoopLike, var: SSAValue, rewriter: PatternRewriter, body: Block) -> list[SSAValue]:
    """A zip's stream elements as explicit `loop.load %stream[var]` (none for other loops)."""
    if not isinstance(op, loop.ZipOp):
        return []
    loads = [loop.LoadOp(s, [Affine.var(var)]) for s in op.streams]
    for ld in loads:
        rewriter.insert(ld, InsertPoint.at_end(body))
    return [ld.result for ld in loads]


def fuse_loops(first: loop.LoopLike, second: loop.LoopLike, rewriter: PatternRewriter) -> loop.LoopLike:
    """One loop doing `first`'s then `second`'s iteration body, with both accumulator sets.

    Two vecloops give a vecloop; loop.for and loop.zip give a loop.for (zip streams become
    loads at the variable)."""
    _move_between_ops(first, second, rewriter)
    d1, d2 = elem0_domain(first), elem0_domain(second)
    assert d1 is not None and d2 is not None
    accs = [*first.accs.data, *second.accs.data]
    inits = [*first.inits, *second.inits]
    body = Block(arg_types=[IndexType(), *(v.type for v in inits)])
    if isinstance(first, loop.VecLoopOp):
        fused: loop.LoopLike = loop.VecLoopOp(first.bounds, inits, accs, Region(body), first.width, first.tail.data)
    else:
        fused = loop.ForOp(first.bounds, inits, accs, Region(body))
    fused.attributes |= dict(first.attributes)
    fused.location = first.location
    rewriter.insert(fused, InsertPoint.before(first))

    new_var, new_accs = body.args[0], body.args[1:]
    k = len(first.inits)
    next_values: list[SSAValue] = []
    for op, var, acc_args in ((first, new_var, new_accs[:k]), (second, None, new_accs[k:])):
        y = op.yield_op
        values = list(y.values) if y is not None else []
        if y is not None:
            rewriter.erase(y)
        if var is None:
            var = _shifted_var(new_var, d2.lo - d1.lo, fused, first, second, rewriter, body)
        elements = _stream_loads(op, var, rewriter, body)
        replacements = [var, *elements, *acc_args]
        # a yield of a block argument (an accumulator passed on unchanged, the variable) must
        # name its replacement: inlining leaves the old argument detached
        renamed = dict(zip(op.body.block.args, replacements, strict=True))
        rewriter.inline_block(op.body.block, InsertPoint.at_end(body), replacements)
        next_values += [renamed.get(v, v) for v in values]
    rewriter.insert(loop.YieldOp(*next_values), InsertPoint.at_end(body))

    results = list(fused.acc_results)
    rewriter.replace(first, [], results[:k])
    rewriter.replace(second, [], results[k:])
    return fused


# --------------------------------------------------------------------------- cleanups


def forward_stores(body: Block, rewriter: PatternRewriter) -> None:
    """A load of an element this iteration already stored or loaded reuses that value.

    Only top-level ops of `body` are followed (fusion made every buffer a known, distinct
    one, so a store to one buffer leaves the others' values valid); anything else that may
    write (a nested region, an op with unknown effects) forgets every value.
    """
    known: dict[SSAValue, dict[tuple[IndexForm, ...], SSAValue]] = {}
    for op in list(body.ops):
        if isinstance(op, loop.StoreOp):
            known[op.buf] = {access_forms(op): op.value}
        elif isinstance(op, loop.LoadOp):
            values = known.setdefault(op.buf, {})
            forms = access_forms(op)
            if forms in values:
                rewriter.replace(op, [], [values[forms]])
            else:
                values[forms] = op.result
        elif op.regions or effects_of(op) is None or any(
            e.kind.name not in ("READ", "ALLOC") for e in effects_of(op) or ()
        ):
            known.clear()


def erase_dead_intermediates(buffers: set[SSAValue], rewriter: PatternRewriter) -> None:
    """Delete each `loop.alloc` buffer in `buffers` that is only stored to, sized or freed."""
    for buf in buffers:
        alloc = buf.owner
        if not isinstance(alloc, loop.AllocOp):
            continue
        users = [u.operation for u in buf.uses]
        if not all(
            isinstance(u, loop.DeallocOp | loop.DimOp) or (isinstance(u, loop.StoreOp) and u.buf is buf and u.value is not buf)
            for u in users
        ):
            continue
        for u in users:
            if isinstance(u, loop.DimOp):
                rewriter.replace(u, [], [alloc.sizes[u.dim.value.data]])
            else:
                parent = u.parent_block() if isinstance(u, loop.StoreOp) else None
                rewriter.erase(u)
                if parent is not None:
                    erase_dead_pure_ops(parent, rewriter)
        rewriter.erase(alloc)


def erase_dead_pure_ops(block: Block, rewriter: PatternRewriter) -> None:
    """Unused effect-free ops of `block` (what an erased store leaves behind)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.ops)):
            if op.has_trait(IsTerminator) or op.regions:
                continue
            if is_effect_free(op) and all(not r.uses for r in op.results):
                rewriter.erase(op)
                changed = True
