"""filter → scan: a prefix over the kept elements, one pass over the unfiltered input."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType
from loopopt.passes.df_fusion.filter_reduce import check_filter_into
from loopopt.passes.df_fusion.legality import Rejection, other_users
from loopopt.passes.df_fusion.pattern import FusionPattern, erase_if_dead, producers
from loopopt.passes.df_fusion.rebuild import clone_region, element_body, kept_predicate, kept_values, mapped


class FuseFilterIntoScan(FusionPattern):
    """A df.scan over a df.filter's results scans the filter's inputs `where` the predicate
    holds; the result stays on the filter's new axis (a predloop appending the running
    value, later). The filter's map region, if any, composes into the scan's map prologue.

    ```
    %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
    ^bb0(%e: i32):
      %c = arith.cmpi sgt, %e, %zero : i32
      df.yield %c : i1
    }
    %r = df.scan add(%p, %zero) : !df.array<i32, [k]> -> !df.array<i32, [k]>
    ```
    becomes
    ```
    %r = df.scan add(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [k]> where {
    ^bb0(%e: i32):
      %c = arith.cmpi sgt, %e, %zero : i32
      df.yield %c : i1
    }
    ```
    Exact for every kind (float sums without `reassoc` too): the kept elements are combined
    in the same order. Legality: every input of the scan is a result of this filter
    (DOMAIN_MISMATCH); no effects; the filter used only here or cheap to recompute; a scan
    that already has a `where` must be safe to evaluate on the dropped elements
    (SPECULATION). The scan's prologue and custom body never run on dropped elements.
    """

    roots = (df.ScanOp,)

    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        if not isinstance(op, self.roots):
            return
        for producer in producers(op, (df.FilterOp,)):
            assert isinstance(producer, df.FilterOp)
            # a scan that already has a `where` (a second filter fused before) evaluates it
            # on every element once the predicates are conjoined
            on_dropped = [op.where] if op.has_where else None
            yield check_filter_into(op, producer, self.options, on_dropped) or producer

    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        assert isinstance(op, df.ScanOp) and isinstance(partner, df.FilterOp)
        inputs = list(partner.inputs)
        erased = not other_users(partner, op)  # erase_if_dead below: its regions can move
        # `op` is replaced: its regions move (read once); the filter's map is read again by
        # the predicate of a scan with its own `where`: it moves at its last read
        last = erased and not op.has_where

        plain = not op.has_map and not partner.has_map and \
            [v.index for v in op.inputs] == list(range(len(inputs)))  # type: ignore[union-attr]
        prologue = None if plain else element_body(
            inputs, lambda b, elems: mapped(op, b, kept_values(op, partner, b, elems, take=last), take=True))
        out = op.output.type
        assert isinstance(out, ArrayType)
        fused = df.ScanOp(op.kind.data, inputs, op.init, clone_region(op.body, take=True), op.reassoc is not None,
                          map_region=prologue, where=element_body(
                              inputs, lambda b, elems: kept_predicate(op, partner, b, elems, take=erased)),
                          kept_axis=out.axis_names[0])
        fused.location = op.location
        rewriter.replace(op, fused)
        erase_if_dead(partner, rewriter)
