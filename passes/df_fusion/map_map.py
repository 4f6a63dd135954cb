"""map ∘ map → one map with the composed body (zip → map falls out: a map over several
maps fuses them one at a time)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.dialects.df_types import element_type_of
from loopopt.passes.df_fusion.legality import Rejection, check_effects, check_producer_uses, other_users
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import Splice, hints_of, inline_body, new_body


class FuseMapIntoMap(FusionPattern):
    """A df.map reading a df.map's result computes that element itself.

    ```
    %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%e: f32):
      %s = arith.mulf %e, %e : f32
      df.yield %s : f32
    }
    %z = df.map %y, %w : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      df.yield %t : f32
    }
    ```
    becomes
    ```
    %z = df.map %x, %w : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
    ^bb0(%e: f32, %b: f32):
      %s = arith.mulf %e, %e : f32
      %t = arith.addf %s, %b : f32
      df.yield %t : f32
    }
    ```
    Legality: no effects in either body; the producer has no other user, or is cheap
    enough to recompute (then it stays for its other users). Same domain holds by
    construction: a map's inputs share their axes.
    """

    roots = (df.MapOp,)

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots):
            return
        for producer in producers(op, (df.MapOp,)):
            rejection = check_effects(producer, op) or check_producer_uses(
                producer, op, self.options)
            yield rejection or producer

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, df.MapOp) and isinstance(partner, df.MapOp)
        splice = Splice(list(op.inputs), partner, list(partner.inputs))
        inputs = splice.inputs
        erased = not other_users(partner, op)  # erase_if_dead below: its body can move

        def fill(builder, elems):
            produced = inline_body(partner.body, builder, splice.producer_elements(elems), take=erased)
            return inline_body(op.body, builder, splice.consumer_elements(elems, produced), take=True)

        body = new_body([element_type_of(v.type) for v in inputs], hints_of(inputs), fill)
        fused = df.MapOp(inputs, op.outputs.types, body)
        fused.location = op.location
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
