"""filter → map: the map runs on the kept elements inside the filter (its `map` region)."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.passes.df_fusion.codes import FuseReject
from loopopt.passes.df_fusion.filter_reduce import foreign_inputs
from loopopt.passes.df_fusion.legality import Rejection, check_effects, other_users, where
from loopopt.passes.df_fusion.pattern import FusionPattern, producers
from loopopt.passes.df_fusion.rebuild import clone_region, element_body, inline_body, mapped


def check_sole_user(producer: df.FilterOp, consumer: Operation) -> Rejection | None:
    """A filter → map fusion replaces the filter: a recomputed copy would define the
    filter's new axis a second time (the df verifier forbids it: a new axis is one
    domain, one count), so a filter with other users stays materialized."""
    others = other_users(producer, consumer)
    if others:
        return Rejection(consumer, FuseReject.MULTI_USE,
                         f"producer {where(producer)} has {len(others)} other user(s) and "
                         f"defines the new axis {producer.new_axis}, which one recomputed "
                         f"copy cannot define again: it stays materialized")
    return None


class FuseFilterIntoMap(FusionPattern):
    """A df.map over a df.filter's results becomes the filter's `map` region (composed
    with the map region the filter already has): one pass that writes only the mapped
    kept elements, never the filtered intermediate.

    ```
    %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {pred}
    %y = df.map %p : !df.array<i32, [k]> -> !df.array<i32, [k]> {
    ^bb0(%e: i32):
      %m = arith.muli %e, %three : i32
      df.yield %m : i32
    }
    ```
    becomes
    ```
    %y = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {pred} map {
    ^bb0(%e: i32):
      %m = arith.muli %e, %three : i32
      df.yield %m : i32
    }
    ```
    Legality: every input of the map is a result of this filter (DOMAIN_MISMATCH); no
    effects; the filter has no other user (MULTI_USE: see `check_sole_user`). The map
    still runs on kept elements only: nothing is speculated.
    """

    roots = (df.MapOp,)

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots):
            return
        for producer in producers(op, (df.FilterOp,)):
            assert isinstance(producer, df.FilterOp)
            yield (foreign_inputs(op, producer)
                   or check_effects(producer, op)
                   or check_sole_user(producer, op)
                   or producer)

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, df.MapOp) and isinstance(partner, df.FilterOp)
        inputs = list(partner.inputs)

        def fill(builder, elems):
            kept = mapped(partner, builder, elems, take=True)  # both ops are erased below
            return inline_body(op.body, builder, [kept[v.index] for v in op.inputs], take=True)  # type: ignore[union-attr]

        pred = clone_region(partner.body, take=True)
        assert pred is not None
        fused = df.FilterOp(inputs, partner.new_axis, pred, element_body(inputs, fill))
        fused.location = op.location
        rewriter.replace(op, fused)
        rewriter.erase(partner)
