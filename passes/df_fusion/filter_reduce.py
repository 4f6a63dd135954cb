"""filter → reduce / fold: a filtered reduction, one pass over the unfiltered input."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import arith
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.legality import (
    Rejection,
    check_effects,
    check_producer_uses,
    check_speculatable,
    where,
)
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import Reduction, build_fold, hints_of, inline_body


class FuseFilterIntoReduction(FusionPattern):
    """A df.reduce or df.fold over a df.filter's results folds over the filter's inputs
    and only takes a step where the predicate holds (a PredLoop with accumulators later).

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
    %r = df.fold(%x) init(%zero) : !df.array<f32, [i]> -> f32 {
    ^bb0(%acc: f32, %e: f32):
      %c = arith.cmpf ogt, %e, %zero : f32
      %n = arith.addf %acc, %e : f32
      %s = arith.select %c, %n, %acc : f32
      df.yield %s : f32
    } attributes {df.kinds = [#df.kind<add>], df.reassoc}
    ```
    Legality: every input of the reduction is a result of this filter (other arrays on the
    new axis have no element at the filter's input index: domain mismatch); no effects;
    the filter used only here or cheap to recompute; a df.fold (or custom) body now also
    runs on dropped elements (its result discarded by the select), so it must not trap.
    """

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        reduction = Reduction.of(op)
        if reduction is None:
            return
        for producer in producers(op, (df.FilterOp,)):
            foreign = [v for v in reduction.inputs if v.owner is not producer]
            if foreign:
                yield Rejection(op, FuseReject.DOMAIN_MISMATCH,
                                f"it also reduces {foreign[0].type}, which is not a result "
                                f"of {where(producer)}, so it has no element per filter input")
                continue
            yield (check_effects(producer, op)
                   or check_producer_uses(producer, op, self.options)
                   or check_speculatable(op, "the elements the filter drops")
                   or producer)

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        reduction = Reduction.of(op)
        assert reduction is not None and isinstance(partner, df.FilterOp)
        inputs = list(partner.inputs)

        def fill(builder, accs, elems):
            (pred,) = inline_body(partner.body, builder, elems)
            taken = [elems[v.index] for v in reduction.inputs]  # type: ignore[union-attr]
            nexts = reduction.steps(builder, accs, taken)
            return [builder.insert(arith.SelectOp(pred, n, a)).result
                    for n, a in zip(nexts, accs, strict=True)]

        fused = build_fold(inputs, reduction.inits, reduction.kinds, reduction.reassoc,
                           op.location, hints_of(inputs), fill)
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
