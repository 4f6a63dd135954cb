"""A greedy pattern applier that offers an op only the patterns that can match its class.

xDSL's `GreedyRewritePatternApplier` calls every pattern's `match_and_rewrite` on every op
it visits, and most patterns begin by testing the op's class: df-fuse's six patterns were
called ~12,600 times per 1,000 df ops for 212 fusions, mostly on the arith ops of the bodies
the walk descends into. `DispatchApplier` keeps xDSL's order (dead-op erasure, then the
patterns in list order until one acts; it does not fold: canonicalize keeps xDSL's) but, per op class, calls only the patterns whose
roots (`pattern_roots`) include a base of that class; a pattern without known roots is
called on every op, as before.

A pattern's roots are the op classes it can act on:
* its `roots` attribute (a tuple of op classes; the convention of loopopt's patterns, e.g.
  `SelectOfCompareToMinMax.roots`), which promises `match_and_rewrite` does nothing (no
  rewrite, no other effect) on an op of another class;
* the annotated op type of a `match_and_rewrite` decorated with xDSL's
  `op_type_rewrite_pattern` (the decorator's own `isinstance` test, read from its closure).

The list per class is built once (`issubclass` is `isinstance` for an op of that class) and
forgotten when `abc.get_cache_token()` changes (an ABC `register` can change `issubclass`).
`test/python/bench/test_compile_time_dispatch.py` runs the dispatched passes against xDSL's
applier on the corpus (same IR and use lists) and every rooted pattern on the ops outside its roots.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from loopopt.passes.memo_dce import is_trivially_dead


class _Probe(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        pass


_OP_TYPE_IMPL = _Probe.match_and_rewrite.__code__
"""The code of `op_type_rewrite_pattern`'s wrapper (one code object for every decorated method)."""


def pattern_roots(pattern: RewritePattern) -> tuple[type[Operation], ...] | None:
    """The op classes `pattern` can rewrite, or None when it may act on any op."""
    roots = getattr(pattern, "roots", None)
    if roots is not None:
        return tuple(roots)
    if "match_and_rewrite" in getattr(pattern, "__dict__", ()):
        return None  # replaced on the instance: nothing known
    method = type(pattern).match_and_rewrite
    code = getattr(method, "__code__", None)
    if code is not _OP_TYPE_IMPL or method.__closure__ is None:
        return None
    cells = dict(zip(code.co_freevars, method.__closure__, strict=True))
    expected = cells["expected_type"].cell_contents
    args = getattr(expected, "__args__", None)  # a union of op classes
    return tuple(args) if args is not None else (expected,)


@dataclass(eq=False, repr=False)
class DispatchApplier(GreedyRewritePatternApplier):
    """xDSL's `GreedyRewritePatternApplier` without folding, calling per op only the patterns
    whose roots include its class (module docstring): the dead-op test first (when
    `dce_enabled`; memo_dce's per-class answer, xDSL's in every case), then the patterns in
    list order until one acts."""

    _roots: list[tuple[type[Operation], ...] | None] = field(init=False, default_factory=list)
    _by_class: dict[type[Operation], tuple[RewritePattern, ...]] = field(init=False, default_factory=dict)
    _token: object = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.folding_enabled:
            raise ValueError("DispatchApplier does not fold: use xDSL's applier (canonicalize)")
        self._roots = [pattern_roots(p) for p in self.rewrite_patterns]

    def patterns_for(self, cls: type[Operation]) -> tuple[RewritePattern, ...]:
        """The patterns that may act on an op of class `cls`, in the applier's order."""
        token = abc.get_cache_token()
        if token != self._token:
            self._by_class.clear()
            self._token = token
        found = self._by_class.get(cls)
        if found is None:
            found = self._by_class[cls] = tuple(
                p for p, roots in zip(self.rewrite_patterns, self._roots, strict=True)
                if roots is None or issubclass(cls, roots)
            )
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self.dce_enabled and is_trivially_dead(op):
            rewriter.erase(op)
            return
        for pattern in self.patterns_for(type(op)):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return
