"""The shape every df fusion pattern shares: candidates, then a guarded rewrite.

A pattern lists, for the op it is matched on, its fusion candidates: a legal partner
(the producer, or the earlier reduction of a horizontal pair) or the `Rejection` that
declined it. `match_and_rewrite` rewrites the first legal candidate; the pass's remark
walk prints the rejections left once the IR reaches its fixpoint. One source of truth
for "why not", so a remark's code is the condition that actually stopped the rewrite.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import ClassVar

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from loopopt.passes.df_fusion.legality import FusionOptions, Rejection


class FusionPattern(RewritePattern, ABC):
    roots: ClassVar[tuple[type[Operation], ...]]
    """The op classes the pattern fuses into (`candidates` yields nothing for another class;
    df-fuse's applier offers an op only the patterns rooted at its class: pattern_dispatch)."""

    def __init__(self, options: FusionOptions):
        self.options = options

    @abstractmethod
    def candidates(self, op: Operation) -> Iterator[Operation | Rejection]:
        """Each candidate partner of `op`, legal (the partner op) or declined."""

    @abstractmethod
    def rewrite(self, op: Operation, partner: Operation, rewriter: PatternRewriter) -> None:
        """Fuse `op` with a legal `partner`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        for candidate in self.candidates(op):
            if not isinstance(candidate, Rejection):
                self.rewrite(op, candidate, rewriter)
                return

    def rejections(self, op: Operation) -> list[Rejection]:
        return [c for c in self.candidates(op) if isinstance(c, Rejection)]


def producers(op: Operation, kinds: tuple[type[Operation], ...]) -> list[Operation]:
    """The distinct ops of type `kinds` in `op`'s block that define its operands."""
    found: list[Operation] = []
    for v in op.operands:
        p = v.owner
        if isinstance(p, kinds) and p.parent_block() is op.parent_block() and \
                not any(p is q for q in found):
            found.append(p)
    return found


def erase_if_dead(producer: Operation, rewriter: PatternRewriter) -> None:
    """Drop a producer whose last consumer was fused (a recomputed one keeps its users)."""
    if all(not r.uses for r in producer.results):
        rewriter.erase(producer)
