"""map → reduce / fold: the map's body moves into the accumulator step (one pass)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.passes.df_fusion.legality import Rejection, check_effects, check_producer_uses
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import Reduction, Splice, build_fold, hints_of, inline_body


class FuseMapIntoReduction(FusionPattern):
    """A total df.reduce, or a df.fold, reading a df.map's result becomes a (kinded)
    df.fold computing the element in its body (see kinded_fold.py for the form df-to-loop
    lowers to one loop with an Accum per accumulator).

    ```
    %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%e: f32):
      %s = arith.mulf %e, %e : f32
      df.yield %s : f32
    }
    %r = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
    ```
    becomes
    ```
    %r = df.fold(%x) init(%zero) : !df.array<f32, [i]> -> f32 {
    ^bb0(%acc: f32, %e: f32):
      %s = arith.mulf %e, %e : f32
      %n = arith.addf %acc, %s : f32
      df.yield %n : f32
    } attributes {df.kinds = [#df.kind<add>], df.reassoc}
    ```
    A df.fold consumer keeps its body (and its sequential order): the map's body is
    inlined before it. Legality: no effects; the producer used only here or cheap to
    recompute. A partial reduction (some axes kept) has no fold form: see unsupported.py.
    """

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if Reduction.of(op) is None:
            return
        for producer in producers(op, (df.MapOp,)):
            rejection = check_effects(producer, op) or check_producer_uses(
                producer, op, self.options)
            yield rejection or producer

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        reduction = Reduction.of(op)
        assert reduction is not None and isinstance(partner, df.MapOp)
        splice = Splice(reduction.inputs, partner, list(partner.inputs))

        def fill(builder, accs, elems):
            produced = inline_body(partner.body, builder, splice.producer_elements(elems))
            return reduction.steps(builder, accs, splice.consumer_elements(elems, produced))

        fused = build_fold(splice.inputs, reduction.inits, reduction.kinds, reduction.reassoc,
                           op.location, hints_of(splice.inputs), fill)
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
