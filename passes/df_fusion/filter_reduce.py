"""filter → reduce / fold: a filtered reduction, one pass over the unfiltered input."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects import arith
from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import (
    FusionOptions,
    Rejection,
    check_effects,
    check_producer_uses,
    check_speculatable,
    other_users,
    where,
)
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import (
    build_fold,
    clone_region,
    element_body,
    inline_body,
    kept_predicate,
    kept_values,
    mapped,
)

Consumers = (df.ReduceOp, df.FoldOp)


def foreign_inputs(consumer: Operation, producer: df.FilterOp) -> Rejection | None:
    """Every array the consumer reads on the filter's new axis is a result of this filter:
    another array on that axis has no element per filter input (domain mismatch)."""
    foreign = [v for v in consumer.inputs if v.owner is not producer]  # type: ignore[attr-defined]
    if foreign:
        return Rejection(consumer, FuseReject.DOMAIN_MISMATCH,
                         f"it also reads {foreign[0].type}, which is not a result "
                         f"of {where(producer)}, so it has no element per filter input")
    return None


def check_filter_into(op: Operation, producer: df.FilterOp, options: FusionOptions,
                      on_dropped: Sequence[Region] | None) -> Rejection | None:
    """The legality of fusing a filter into its consumer (a reduce, fold or scan), in order:
    DOMAIN_MISMATCH, effects, the producer's other uses, then SPECULATION when the fused
    form runs the consumer's `on_dropped` regions (and so the filter's map) on every element
    (None: it runs nothing on the elements the filter drops)."""
    return (foreign_inputs(op, producer)
            or check_effects(producer, op)
            or check_producer_uses(producer, op, options)
            or (None if on_dropped is None else speculation_on_dropped(op, producer, on_dropped)))


def speculation_on_dropped(op: Operation, producer: df.FilterOp, regions: Sequence[Region]) -> Rejection | None:
    """The filter's map and the consumer's `regions` would run on the elements the filter
    drops once the predicate is evaluated everywhere: none of their ops may trap."""
    dropped = "the elements the filter drops"
    if producer.has_map:
        rejection = check_speculatable(producer, dropped, at=op, regions=[producer.map])
        if rejection is not None:
            return rejection
    return check_speculatable(op, dropped, regions=regions)


class FuseFilterIntoReduction(FusionPattern):
    """A df.reduce over a df.filter's results reduces the filter's inputs `where` the
    predicate holds (a PredLoop with accumulators later); the filter's map region, if
    any, composes into the reduce's map prologue. A df.fold takes its step everywhere
    and keeps it only where the predicate holds (`arith.select`: exact, sequential).

    ```
    %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
    ^bb0(%e: f32):
      %c = arith.cmpf ogt, %e, %zero : f32
      df.yield %c : i1
    }
    %r = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
    ```
    becomes
    ```
    %r = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32 where {
    ^bb0(%e: f32):
      %c = arith.cmpf ogt, %e, %zero : f32
      df.yield %c : i1
    }
    ```
    Legality: every input of the consumer is a result of this filter (DOMAIN_MISMATCH);
    no effects; the filter used only here or cheap to recompute. Whatever would now run on
    the elements the filter drops must not trap (SPECULATION): a fold's body and the
    filter's map; for a reduce that already has a `where`, that predicate and the filter's
    map (the conjunction is evaluated on every element). A reduce's map prologue and custom
    body never run on dropped elements.
    """

    roots = Consumers

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots):
            return
        for producer in producers(op, (df.FilterOp,)):
            assert isinstance(producer, df.FilterOp)
            on_dropped = list(op.regions) if isinstance(op, df.FoldOp) else [op.where] if op.has_where else None
            yield check_filter_into(op, producer, self.options, on_dropped) or producer

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, Consumers) and isinstance(partner, df.FilterOp)
        inputs = list(partner.inputs)
        erased = not other_users(partner, op)  # erase_if_dead below: its regions can move
        # `op` is replaced: each of its regions moves (read once). The filter's map is read
        # by the values and again by the predicate of a reduce with its own `where`: it
        # moves at its last read.
        where_too = isinstance(op, df.ReduceOp) and op.has_where

        def consumer_elements(builder, elems):
            return kept_values(op, partner, builder, elems, take=erased and not where_too)

        def predicate(builder, elems):
            return kept_predicate(op, partner, builder, elems, take=erased)

        if isinstance(op, df.FoldOp):
            def step(builder, accs, elems):
                (keep,) = predicate(builder, elems)
                nexts = inline_body(op.body, builder, [*accs, *consumer_elements(builder, elems)], take=True)
                return [builder.insert(arith.SelectOp(keep, n, a)).result
                        for n, a in zip(nexts, accs, strict=True)]

            fused: Operation = build_fold(inputs, list(op.inits), op.location, step)
        else:
            plain = not op.has_map and not partner.has_map and \
                [v.index for v in op.inputs] == list(range(len(inputs)))  # type: ignore[union-attr]
            prologue = None if plain else element_body(
                inputs, lambda b, elems: mapped(op, b, consumer_elements(b, elems), take=True))
            fused = df.ReduceOp(op.kind_values, inputs, list(op.inits), [partner.inputs.types[0].axis_names[0]],  # type: ignore[attr-defined]
                                op.reassoc is not None, clone_region(op.body, take=True),
                                map_region=prologue, where=element_body(inputs, predicate))
            fused.location = op.location
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
