"""Building fused ops: inlining bodies, splicing a producer's inputs into a consumer's,
and viewing any df.reduce / df.fold as accumulators over one domain.

Every fused op is built fresh (new block, cloned bodies) at the consumer's position and
takes the consumer's location, so later passes' remarks still point at user code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from loopopt.dialects import df
from loopopt.dialects.df_types import ReduceKind, axes_of, element_type_of
from loopopt.passes.df_fusion.kinded_fold import combine, fold_kinds, fold_reassoc, set_kinds
from loopopt.passes.df_fusion.legality import Accumulators

Elements = list[SSAValue]


def inline_body(body: Region, builder: Builder, args: Sequence[SSAValue]) -> Elements:
    """Clone `body`'s ops (its block arguments bound to `args`) at `builder`; returns the
    values its df.yield yields. Captured outer values stay as they are."""
    block = body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args, strict=True))
    for op in block.ops:
        if isinstance(op, df.YieldOp):
            return [mapping.get(v, v) for v in op.arguments]
        builder.insert(op.clone(value_mapper=mapping))
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


def hints_of(values: Sequence[SSAValue]) -> list[str | None]:
    return [v.name_hint for v in values]


@dataclass(frozen=True)
class Splice:
    """The inputs of `consumer` once `producer` is fused in: the consumer's inputs with the
    producer's results replaced by the producer's inputs (each value once)."""

    consumer_inputs: Sequence[SSAValue]
    producer: Operation
    producer_inputs: Sequence[SSAValue]

    @property
    def inputs(self) -> list[SSAValue]:
        fused: list[SSAValue] = []
        for v in self.consumer_inputs:
            for u in (self.producer_inputs if v.owner is self.producer else (v,)):
                if not any(u is w for w in fused):
                    fused.append(u)
        return fused

    def producer_elements(self, fused_elems: Sequence[SSAValue]) -> Elements:
        """The elements of the producer's inputs among the fused op's elements."""
        return [self._elem(v, fused_elems) for v in self.producer_inputs]

    def consumer_elements(self, fused_elems: Sequence[SSAValue], produced: Sequence[SSAValue]) -> Elements:
        """The consumer's elements: its own inputs' elements, or the producer's element
        `produced[j]` where it read the producer's result j."""
        return [produced[v.index] if v.owner is self.producer else self._elem(v, fused_elems)  # type: ignore[union-attr]
                for v in self.consumer_inputs]

    def _elem(self, v: SSAValue, fused_elems: Sequence[SSAValue]) -> SSAValue:
        for w, e in zip(self.inputs, fused_elems, strict=True):
            if w is v:
                return e
        raise AssertionError("a spliced input is a fused input")


@dataclass(frozen=True)
class Reduction:
    """A df.reduce over every axis, or a df.fold: accumulators over one domain. The common
    shape horizontal and vertical fusion build kinded folds from."""

    op: df.ReduceOp | df.FoldOp

    @staticmethod
    def of(op: Operation) -> Reduction | None:
        if isinstance(op, df.FoldOp):
            return Reduction(op)
        if isinstance(op, df.ReduceOp) and is_total(op):
            return Reduction(op)
        return None

    @property
    def inputs(self) -> list[SSAValue]:
        return list(self.op.inputs)

    @property
    def inits(self) -> list[SSAValue]:
        return list(self.op.inits)

    @property
    def kinds(self) -> list[ReduceKind]:
        if isinstance(self.op, df.ReduceOp):
            return self.op.kind_values
        return fold_kinds(self.op)

    @property
    def reassoc(self) -> bool:
        if isinstance(self.op, df.ReduceOp):
            return self.op.reassoc is not None
        return fold_reassoc(self.op)

    @property
    def accumulators(self) -> Accumulators:
        return Accumulators(self.kinds, [v.type for v in self.inits], self.reassoc)

    def steps(self, builder: Builder, accs: Sequence[SSAValue], elems: Sequence[SSAValue]) -> Elements:
        """Build one step of every accumulator (acc_k ⊕ elem_k, or the custom body)."""
        if isinstance(self.op, df.FoldOp):
            return inline_body(self.op.body, builder, [*accs, *elems])
        kinds = self.kinds
        nexts: list[SSAValue | None] = [None] * len(kinds)
        custom = [k for k, kind in enumerate(kinds) if kind == ReduceKind.CUSTOM]
        for k, kind in enumerate(kinds):
            if kind != ReduceKind.CUSTOM:
                nexts[k] = builder.insert(combine(kind, accs[k], elems[k])).results[0]
        if custom:
            outs = inline_body(self.op.body, builder,
                               [accs[k] for k in custom] + [elems[k] for k in custom])
            for k, v in zip(custom, outs, strict=True):
                nexts[k] = v
        return [v for v in nexts if v is not None]


def is_total(op: df.ReduceOp) -> bool:
    """A reduction over every axis of its inputs (scalar results), which a fold can express."""
    return set(op.over_axis_names) == set(axes_of(op.inputs.types[0]))


def build_fold(
    inputs: Sequence[SSAValue], inits: Sequence[SSAValue], kinds: Sequence[ReduceKind],
    reassoc: bool, location, hints: Sequence[str | None],
    fill: Callable[[Builder, Sequence[SSAValue], Sequence[SSAValue]], Elements],
) -> df.FoldOp:
    """A (kinded) df.fold over `inputs`; `fill(builder, accs, elems)` builds one step."""
    m = len(inits)
    body = new_body(
        [v.type for v in inits] + [element_type_of(v.type) for v in inputs],
        ["acc"] * m + list(hints),
        lambda b, args: fill(b, args[:m], args[m:]),
    )
    fold = df.FoldOp(inputs, inits, body)
    set_kinds(fold, kinds, reassoc)
    fold.location = location
    return fold
