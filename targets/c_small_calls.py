"""Small-call versions: a kernel that tests whether its data is beyond a threshold prints its body twice.

The lowering decides by size without branches (vecloop: `%stream`, `%beyond_l2`, `%beyond_l1` are
i1 tests on the trip count that only select trip counts, so a section they turn off runs no
iteration). gcc keeps every such section's setup on every call: the streaming peel's alignment
arithmetic, the selected bounds of the loops after it, the registers they hold (a frame and
callee-saved pushes), jumps into out-of-line blocks. On a short call that is a fixed ~1 ns
(Zen 4, AVX2 axpy f32: 0.91x of kernels/avx2 at 256 elements, 0.97x at 1 Ki; results/amd-zen4/percall).

So the body prints twice: the tests and the values they read first, then
`if (!stream && !beyond_l2) { the body with the tests as 0 } else { the body }`. In the first
copy gcc folds the selects away: the loops start at 0 and the sections that cannot run are gone
(AVX2 axpy f32/i32 at 256-2000 elements: 0.99-1.06x of kernels/avx2). Either copy is exact
whatever the tests say (the condition reads the values the copy assumes); the tests and what
they read are pure, so they are computed once, before the `if`.

Only beyond-a-threshold tests (`>`, `>=`): a fits test (`%in_l1`, `<=`) chooses which of two
loops a small call runs, it turns nothing off. Folded as well (in_l1 = 1), gcc gave the one
512-bit block loop of a Zen 4 map a form that ran 5-9% slower (axpy f32/i32 at 1000/1024);
left at run time the loop keeps its old form.
"""

from __future__ import annotations

from collections.abc import Collection

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue

from loopopt.dialects import loop
from loopopt.targets.c_print_values import FunctionCore

SIZE_TESTS = ("stream", "beyond_l2", "beyond_l1", "beyond_llc")
"""The name hints vecloop gives its beyond-a-threshold tests (emit_streaming, beyond_l2, fold streams)."""

_BEYOND = (4, 5, 8, 9)  # arith.cmpi's sgt, sge, ugt, uge: true when the data is beyond the threshold


def size_tests(block: Block, live: set[int]) -> list[SSAValue]:
    """The live beyond-a-threshold tests at the top of a function body (false on a small call)."""
    return [
        op.result
        for op in block.ops
        if isinstance(op, arith.CmpiOp) and id(op) in live and op.result.name_hint in SIZE_TESTS
        and op.predicate.value.data in _BEYOND
    ]


class SmallCallVersions(FunctionCore):
    """`function_body`: a function's top block, versioned for small calls when it has size tests."""

    def _live_ops(self, block: Block) -> set[int]:
        raise NotImplementedError

    def op_(self, op: Operation) -> None:
        raise NotImplementedError

    def _reads_within(self, op: Operation) -> Collection[int]:
        raise NotImplementedError

    def function_body(self, block: Block) -> None:
        live = self._live_ops(block)
        tests = size_tests(block, live)
        ops = [o for o in block.ops if id(o) in live]
        if not tests:
            for o in ops:
                self.op_(o)
            return
        # the tests and what they read (transitively), printed once before the `if`
        before: set[int] = set()
        wanted = set(tests)
        for o in reversed(ops):
            if any(r in wanted for r in o.results):
                if o.regions or not o.results:  # a test that reads a loop's result: not versioned
                    for o2 in ops:
                        self.op_(o2)
                    return
                before.add(id(o))
                wanted.update(o.operands)
        # which of those read a test: the small copy prints them again with the tests folded
        depends: set[int] = set()
        tainted = set(tests)
        for o in ops:
            if id(o) in before and any(v in tainted for v in o.operands):
                depends.add(id(o))
                tainted.update(o.results)
        for o in ops:
            if id(o) in before:
                self.op_(o)
        small_live = self._small_live(ops, {id(t.owner) for t in tests})
        cond = " && ".join(f"!{e}" if e.isidentifier() else f"!({e})" for e in map(self.e, tests))
        self.line(f"if ({cond}) {{")
        outer_exprs = dict(self.exprs)
        for t in tests:
            self.exprs[t] = "0"
        self._copy([o for o in ops if id(o) in small_live and (id(o) not in before or id(o) in depends)])
        self.exprs = outer_exprs
        self.line("} else {")
        self._copy([o for o in ops if id(o) not in before])
        self.line("}")

    def _small_live(self, ops: list[Operation], test_ids: set[int]) -> set[int]:
        """The ops the small copy needs: as `_live_ops`, with the tests constants (what only they
        read is not printed again: no unused variable)."""
        live: set[int] = set()
        used: set[int] = set()
        for o in reversed(ops):
            if id(o) in test_ids:
                continue
            effectful = bool(o.regions) or not o.results or isinstance(o, loop.AllocOp)
            if effectful or any(id(r) in used for r in o.results):
                live.add(id(o))
                used.update(self._reads_within(o))
        return live

    def _copy(self, ops: list[Operation]) -> None:
        """One copy of the body in its own C block (its names leave scope with it)."""
        outer_names, outer_suffix = set(self.used_names), dict(self.next_suffix)
        self.depth += 1
        for o in ops:
            self.op_(o)
        self.depth -= 1
        self.used_names, self.next_suffix = outer_names, outer_suffix
