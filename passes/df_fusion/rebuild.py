"""Building fused ops: inlining bodies, splicing a producer's inputs into a consumer's,
and the pieces the fused forms share (a reduction's per-element values, its sequential
step, union of inputs).

Every fused op is built fresh (new blocks, cloned bodies) at the consumer's position and
takes the consumer's location, so later passes' remarks still point at user code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind, axes_of, element_type_of

Elements = list[SSAValue]


def inline_body(body: Region, builder: Builder, args: Sequence[SSAValue], take: bool = False) -> Elements:
    """Clone `body`'s ops (its block arguments bound to `args`) at `builder`; returns the
    values its df.yield yields. Captured outer values stay as they are.

    `take`: the caller erases `body`'s op after this rewrite and inlines `body` nowhere else,
    so its ops move instead (`take_ops`): a fusion chain grows one body instead of cloning
    every earlier step again."""
    block = body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args, strict=True))
    if take and MOVE_BODIES and _movable(block):
        return take_ops(block, builder, mapping)
    for op in block.ops:
        if isinstance(op, df.YieldOp):
            return [mapping.get(v, v) for v in op.arguments]
        builder.insert(op.clone(value_mapper=mapping))
    raise AssertionError("a df body ends in df.yield")


MOVE_BODIES = True
"""Whether `take` moves ops (False: every inline clones, the pass's behaviour before; the
tests compare the two)."""


def _movable(block: Block) -> bool:
    """Ops without regions (a df body's scalar ops): moving them moves everything a clone copies."""
    return all(not op.regions for op in block.ops)


def take_ops(block: Block, builder: Builder, mapping: dict[SSAValue, SSAValue]) -> Elements:
    """`inline_body` by moving `block`'s ops (but its df.yield) to `builder`: the IR a clone
    gives (same ops, attributes, properties, locations, result names), and the same use lists.
    A clone links each operand's use at the head of the value's use list, in op order, and the
    original's uses go when its op is erased; here each moved op's operands are set again in
    op order (its old uses unlinked, new ones linked at the head), so every use list ends in
    the same order. The old df.yield stays with the erased op."""
    op = block.first_op
    while op is not None:
        if isinstance(op, df.YieldOp):
            return [mapping.get(v, v) for v in op.arguments]
        following = op.next_op
        op.detach()
        op.operands = [mapping.get(v, v) for v in op.operands]
        builder.insert(op)
        op = following
    raise AssertionError("a df body ends in df.yield")


def new_body(arg_types: Sequence, hints: Sequence[str | None],
             fill: Callable[[Builder, Sequence[SSAValue]], Elements]) -> Region:
    """A one-block region with `arg_types` whose ops `fill` builds; ends in df.yield."""
    block = Block(arg_types=arg_types)
    for arg, hint in zip(block.args, hints, strict=True):
        arg.name_hint = hint
    builder = Builder(InsertPoint.at_end(block))
    yields = fill(builder, block.args)
    builder.insert(df.YieldOp(*yields))
    return Region(block)


def element_body(inputs: Sequence[SSAValue],
                 fill: Callable[[Builder, Sequence[SSAValue]], Elements]) -> Region:
    """A region over the elements of `inputs` (a map, where or filter body)."""
    return new_body([element_type_of(v.type) for v in inputs], hints_of(inputs), fill)


def clone_region(region: Region, take: bool = False) -> Region | None:
    """A copy of `region` (None when it is empty). `take`: the caller erases the region's op
    after this rewrite and reads the region nowhere else, so its block moves into the new
    region instead (the old region is left empty, its op's other regions where they were),
    each op's operands set again in op order as in `take_ops`: the IR and use lists a clone gives."""
    if not region.blocks:
        return None
    if not (take and MOVE_BODIES and len(region.blocks) == 1 and _movable(region.block)):
        return region.clone()
    block = region.detach_block(region.block)
    for op in block.ops:
        op.operands = list(op.operands)
    return Region(block)


def hints_of(values: Sequence[SSAValue]) -> list[str | None]:
    return [v.name_hint for v in values]


def union(*groups: Sequence[SSAValue]) -> list[SSAValue]:
    """The values of `groups`, each once, in first-seen order."""
    out: list[SSAValue] = []
    for group in groups:
        for v in group:
            if not any(v is w for w in out):
                out.append(v)
    return out


def pick(values: Sequence[SSAValue], among: Sequence[SSAValue], elems: Sequence[SSAValue]) -> Elements:
    """The elements (of `elems`, which belong to `among`) of each of `values`."""
    return [next(e for w, e in zip(among, elems, strict=True) if w is v) for v in values]


@dataclass(frozen=True)
class Splice:
    """The inputs of `consumer` once `producer` is fused in: the consumer's inputs with the
    producer's results replaced by the producer's inputs (each value once)."""

    consumer_inputs: Sequence[SSAValue]
    producer: Operation
    producer_inputs: Sequence[SSAValue]

    @property
    def inputs(self) -> list[SSAValue]:
        return union(*[(self.producer_inputs if v.owner is self.producer else (v,))
                       for v in self.consumer_inputs])

    def producer_elements(self, fused_elems: Sequence[SSAValue]) -> Elements:
        """The elements of the producer's inputs among the fused op's elements."""
        return pick(self.producer_inputs, self.inputs, fused_elems)

    def consumer_elements(self, fused_elems: Sequence[SSAValue], produced: Sequence[SSAValue]) -> Elements:
        """The consumer's elements: its own inputs' elements, or the producer's element
        `produced[j]` where it read the producer's result j."""
        return [produced[v.index] if v.owner is self.producer  # type: ignore[union-attr]
                else pick([v], self.inputs, fused_elems)[0] for v in self.consumer_inputs]


def mapped(op: df.ReduceOp | df.ScanOp | df.FilterOp, builder: Builder, elems: Sequence[SSAValue],
           take: bool = False) -> Elements:
    """The values `op` takes from its inputs' elements `elems`: its map region's yields,
    or the elements themselves without one. `take`: as in `inline_body`."""
    return inline_body(op.map, builder, elems, take) if op.has_map else list(elems)


def kept_values(consumer: Operation, producer: df.FilterOp, builder: Builder, elems: Sequence[SSAValue],
                take: bool = False) -> Elements:
    """What `consumer` reads of a kept element, from the elements `elems` of the filter's
    inputs: the filter's results (its map's values, or the elements) it takes, in order.
    `take`: the filter's map is inlined here for the last time and the filter erased."""
    kept = mapped(producer, builder, elems, take)
    return [kept[v.index] for v in consumer.inputs]  # type: ignore[attr-defined]


def kept_predicate(consumer: Operation, producer: df.FilterOp, builder: Builder, elems: Sequence[SSAValue],
                   take: bool = False) -> Elements:
    """The fused `where`: the filter's predicate, and-ed with the consumer's own `where`
    (evaluated on the kept values) when it has one. The consumer is replaced by the fused op,
    so its `where` moves; `take`: so do the filter's regions (inlined here for the last time,
    the filter erased)."""
    (keep,) = inline_body(producer.body, builder, elems, take)
    if isinstance(consumer, df.ReduceOp | df.ScanOp) and consumer.has_where:
        (also,) = inline_body(consumer.where, builder, kept_values(consumer, producer, builder, elems, take), take=True)
        keep = builder.insert(arith.AndIOp(keep, also)).result
    return [keep]


def is_total(op: df.ReduceOp) -> bool:
    """A reduction over every axis of its inputs (scalar results), which a fold can express."""
    return set(op.over_axis_names) == set(axes_of(op.inputs.types[0]))


def combine(builder: Builder, kind: ReduceKind, acc: SSAValue, value: SSAValue) -> SSAValue:
    """`acc ⊕ value` for a built-in kind (df.kind_combiner's arith op)."""
    op_type = df.kind_combiner(kind, acc.type)
    assert op_type is not None, f"kind {kind.value} on {acc.type} passed the verifier"
    return builder.insert(op_type(acc, value)).results[0]  # type: ignore[call-arg]


def sequential_step(op: df.ReduceOp | df.FoldOp, builder: Builder, accs: Sequence[SSAValue],
                    elems: Sequence[SSAValue]) -> Elements:
    """One in-order step of every accumulator of a df.fold, or of a total df.reduce, on the
    elements of its inputs: the fold's body, or `where ? acc ⊕ map(x) : acc` (custom
    triples through the reduce's body). What a fold that absorbs the op computes."""
    if isinstance(op, df.FoldOp):
        return inline_body(op.body, builder, [*accs, *elems])
    values = mapped(op, builder, elems)
    kinds = op.kind_values
    custom = [k for k, kind in enumerate(kinds) if kind == ReduceKind.CUSTOM]
    nexts: list[SSAValue] = [
        accs[k] if kind == ReduceKind.CUSTOM else combine(builder, kind, accs[k], values[k])
        for k, kind in enumerate(kinds)
    ]
    if custom:
        outs = inline_body(op.body, builder, [accs[k] for k in custom] + [values[k] for k in custom])
        for k, v in zip(custom, outs, strict=True):
            nexts[k] = v
    if op.has_where:
        (pred,) = inline_body(op.where, builder, elems)
        nexts = [builder.insert(arith.SelectOp(pred, n, a)).result for n, a in zip(nexts, accs, strict=True)]
    return nexts


def build_fold(inputs: Sequence[SSAValue], inits: Sequence[SSAValue], location,
               fill: Callable[[Builder, Sequence[SSAValue], Sequence[SSAValue]], Elements]) -> df.FoldOp:
    """A df.fold over `inputs`; `fill(builder, accs, elems)` builds one step."""
    m = len(inits)
    body = new_body(
        [v.type for v in inits] + [element_type_of(v.type) for v in inputs],
        ["acc"] * m + hints_of(inputs),
        lambda b, args: fill(b, args[:m], args[m:]),
    )
    fold = df.FoldOp(inputs, inits, body)
    fold.location = location
    return fold
