"""map → reduce / scan / fold: the map's body moves into the consumer (one pass).

A df.reduce (total or partial) or df.scan gets the map as its `map` prologue (composed
with the prologue it already has, and with its `where` predicate, which reads the same
elements); a df.fold runs the map's body before its step (composition, exact).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.passes.df_fusion.legality import Rejection, check_effects, check_producer_uses, other_users
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import (
    Splice,
    build_fold,
    clone_region,
    element_body,
    inline_body,
    mapped,
)

Consumers = (df.ReduceOp, df.ScanOp, df.FoldOp)


class FuseMapIntoReduction(FusionPattern):
    """A df.reduce, df.scan or df.fold reading a df.map's result computes that value itself.

    ```
    %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%e: f32):
      %s = arith.mulf %e, %e : f32
      df.yield %s : f32
    }
    %r = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
    ```
    becomes (kind and reassoc stay properties of the reduce)
    ```
    %r = df.reduce(%x) add(%zero) over [i] reassoc : !df.array<f32, [i]> -> f32 map {
    ^bb0(%e: f32):
      %s = arith.mulf %e, %e : f32
      df.yield %s : f32
    }
    ```
    A df.fold consumer keeps its body (and its sequential order): the map's body is
    inlined before it. Legality: no effects; the producer used only here or cheap to
    recompute. The map already ran on every element, so nothing new is speculated.
    """

    roots = Consumers

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots):
            return
        for producer in producers(op, (df.MapOp,)):
            rejection = check_effects(producer, op) or check_producer_uses(
                producer, op, self.options)
            yield rejection or producer

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, Consumers) and isinstance(partner, df.MapOp)
        splice = Splice(list(op.inputs), partner, list(partner.inputs))
        inputs = splice.inputs
        erased = not other_users(partner, op)  # erase_if_dead below: its body can move
        # `op` is replaced: each of its regions moves (read once); the producer's body is
        # read once more for a reduce's `where`, so it moves at its last read
        where_too = isinstance(op, df.ReduceOp) and op.has_where

        def consumer_elements(builder, elems, last=True):
            produced = inline_body(partner.body, builder, splice.producer_elements(elems), take=erased and last)
            return splice.consumer_elements(elems, produced)

        if isinstance(op, df.FoldOp):
            fused: Operation = build_fold(
                inputs, list(op.inits), op.location,
                lambda b, accs, elems: inline_body(op.body, b, [*accs, *consumer_elements(b, elems)], take=True))
        else:
            prologue = element_body(
                inputs, lambda b, elems: mapped(op, b, consumer_elements(b, elems, not where_too), take=True))
            if isinstance(op, df.ScanOp):
                fused = df.ScanOp(op.kind.data, inputs, op.init, clone_region(op.body, take=True),
                                  op.reassoc is not None, map_region=prologue)
            else:
                where = None
                if op.has_where:
                    where = element_body(
                        inputs, lambda b, elems: inline_body(op.where, b, consumer_elements(b, elems), take=True))
                fused = df.ReduceOp(op.kind_values, inputs, list(op.inits), op.over_axis_names,
                                    op.reassoc is not None, clone_region(op.body, take=True),
                                    map_region=prologue, where=where, domain=op.domain_axes)
            fused.location = op.location
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
