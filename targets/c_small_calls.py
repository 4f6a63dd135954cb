"""Small-call versions: a kernel that tests whether its data is beyond a threshold prints its body twice.

The lowering decides by size without branches (vecloop: `%stream`, `%beyond_l2`, `%beyond_l1` are
i1 tests on the trip count that only select trip counts, so a section they turn off runs no
iteration). gcc keeps every such section's setup on every call: the streaming peel's alignment
arithmetic, the selected bounds of the loops after it, the registers they hold (a frame and
callee-saved pushes), jumps into out-of-line blocks. On a short call that is a fixed ~1 ns
(Zen 4, AVX2 axpy f32: 0.91x of kernels/avx2 at 256 elements, 0.97x at 1 Ki; results/amd-zen4/percall).

So the body prints twice: the tests and the values they read first, then
`if (!stream && !beyond_l2) { stream = 0; beyond_l2 = 0; body } else { return k__large(args); }`,
where `static lo_noinline k__large` (declared before the kernel, defined after it) is the tests and
the body again, unversioned: the body's text is printed once and emitted in both (session 24: a
second printing had cost print C +45 %). Out of line, because gcc gives a function one prologue:
with the large copy inline, every short call saved the callee-saved registers the long path's
loops need (5 on AVX2 axpb i32; 3 now) and computed the alignment peel. AVX2 axpb i32 at 1 Ki
was 0.93-0.95x of kernels/avx2 that way, 1.04x now; across the bench's maps and folds the new
form runs 0.98-1.27x as fast as the old at 256-1024 elements, median 1.05x (Zen 3, session 29,
results/amd-zen3/s29-small-calls). The
small arm assigns the tests 0 (what its condition says) and assigns again, from their own text,
the values computed from a test that the body reads, so every assignment keeps the value and
either arm is exact; gcc sees the constants and folds the selects away: the loops start at 0 and
the sections that cannot run are gone (AVX2 axpy f32/i32 at 256-2000 elements: 0.99-1.06x of
kernels/avx2; gcc and clang give axpy the same object code as the session 23 copy with the tests
printed as `0`). Assignments, not re-declarations: a shadowing name would warn under -Wshadow.

The loads' alignment peel (`%aligned`, from a few KiB: CpuModel.align_loads_from_bytes) is such a
test: a short call does not peel.

Only beyond-a-threshold tests (`>`, `>=`): a fits test (`%in_l1`, `<=`) chooses which of two
loops a small call runs, it turns nothing off. Folded as well (in_l1 = 1), gcc gave the one
512-bit block loop of a Zen 4 map a form that ran 5-9% slower (axpy f32/i32 at 1000/1024);
left at run time the loop keeps its old form.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue

from loopopt.targets.c_helpers import Helper
from loopopt.targets.c_print_values import FunctionCore, is_a

SIZE_TESTS = ("stream", "beyond_l2", "beyond_l1", "beyond_llc", "aligned")
"""The name hints vecloop gives its beyond-a-threshold tests (emit_streaming, beyond_l2, fold streams,
the loads' alignment peel)."""

LARGE_SUFFIX = "__large"
"""The large-call copy of kernel `k` is `k__large` (kept inline when a kernel has that name)."""

NOINLINE = Helper(
    "lo_noinline",
    """/* The large-call copy of a kernel versioned for small calls stays out of line, so that a short
 * call does not save the registers nor set up the frame that only the long path's loops need. */
#if defined(__GNUC__)
#define lo_noinline __attribute__((noinline))
#else
#define lo_noinline
#endif
""",
)

_BEYOND = (4, 5, 8, 9)  # arith.cmpi's sgt, sge, ugt, uge: true when the data is beyond the threshold


def size_tests(block: Block, live: set[int]) -> list[SSAValue]:
    """The live beyond-a-threshold tests at the top of a function body (false on a small call)."""
    return [
        op.result
        for op in block.ops
        if is_a(op, arith.CmpiOp) and id(op) in live and op.result.name_hint in SIZE_TESTS
        and op.predicate.value.data in _BEYOND
    ]


class SmallCallVersions(FunctionCore):
    """`function_body`: a function's top block, versioned for small calls when it has size tests.
    The large arm calls `large_body`, the whole body unversioned, which `print` declares before the
    function and defines after it as `static lo_noinline <name>__large(<the same parameters>)`."""

    large_body: list[str] | None = None

    def _live_ops(self, block: Block) -> set[int]:
        raise NotImplementedError

    def op_(self, op: Operation) -> None:
        raise NotImplementedError

    def _read_by(self, value: SSAValue, readers: set[int]) -> bool:
        raise NotImplementedError

    def function_body(self, block: Block) -> None:
        live = self._live_ops(block)
        tests = size_tests(block, live)
        ops = [o for o in block.ops if id(o) in live]
        before = _test_inputs(ops, tests)
        if before is None:
            for o in ops:
                self.op_(o)
            return
        # the tests and what they read, printed once before the `if`; each op's lines remembered
        first = len(self.lines)
        printed: dict[int, tuple[int, int]] = {}
        for o in ops:
            if id(o) in before:
                start = len(self.lines)
                self.op_(o)
                printed[id(o)] = (start, len(self.lines))
        for t in tests:  # a variable, so that the small arm can declare it 0
            if not self.e(t).isidentifier():
                name = self.fresh(t.name_hint)
                self.line(f"{self.c_type(t.type, t.owner)} {name} = {self.e(t)};")
                self.exprs[id(t)] = name
        self.line(f"if ({' && '.join(f'!{self.e(t)}' for t in tests)}) {{")
        head = len(self.lines)
        ahead = self.lines[first : head - 1]  # the tests and what they read
        body = [o for o in ops if id(o) not in before]
        outer_names, outer_suffix = set(self.used_names), dict(self.next_suffix)
        self.depth += 1
        for o in body:
            self.op_(o)
        self.depth -= 1
        self.used_names, self.next_suffix = outer_names, outer_suffix
        text = self.lines[head:]
        del self.lines[head:]
        self.lines += self._small_arm_prelude(ops, before, tests, body, printed)
        self.lines += text
        self.line("} else {")
        large = f"{self.kernel.name}{LARGE_SUFFIX}"
        if large in self.symbols:  # (a kernel of that name: the large copy stays inline)
            self.lines += text
        else:
            self.large_body = ahead + [line.removeprefix("    ") for line in text]
            call = f"{large}({', '.join(self.kernel.param_names)})"
            self.depth += 1
            self.line(f"{call};" if self.kernel.returns == "void" else f"return {call};")
            self.depth -= 1
        self.line("}")

    def _small_arm_prelude(
        self, ops: list[Operation], before: set[int], tests: list[SSAValue], body: list[Operation],
        printed: dict[int, tuple[int, int]],
    ) -> list[str]:
        """The small arm's first lines: `test = 0;` for each test the body reads, then each value
        computed before the `if` from a test that the body reads assigned again from its own text
        (`peel = (stream) ? v_2 : 0;`). In this arm the tests are 0 already, so every assignment
        keeps the variable's value; gcc sees the constants and folds the arm. Assignments, not
        declarations: a shadowing name would warn under -Wshadow."""
        readers = {id(o) for o in body}  # (and what they nest): which values do they read?
        test_ids = {id(t) for t in tests}
        tainted = set(test_ids)
        again: dict[int, str] = {}
        for o in ops:  # the values computed before the `if` that read a test (transitively)
            if id(o) in before and id(o.results[0]) not in test_ids and any(id(v) in tainted for v in o.operands):
                assignment = self._assignment(o, printed[id(o)])
                if assignment is not None:  # else left as computed: the same value, not folded
                    again[id(o)] = assignment
                    tainted.update(id(r) for r in o.results)
        needed: set[int] = set()
        for o in reversed(ops):
            if id(o) not in before or not (id(o) in again or id(o.results[0]) in test_ids):
                continue
            if any(self._read_by(r, readers) for r in o.results):
                needed.add(id(o))
                if id(o) in again:
                    readers.add(id(o))
        indent = "    " * (self.depth + 1)
        lines = [again[id(o)] if id(o) in again else f"{self.e(o.results[0])} = 0;" for o in ops if id(o) in needed]
        return [indent + line for line in lines if line]

    def _assignment(self, op: Operation, span: tuple[int, int]) -> str | None:
        """`name = value;` from the one line `T name = value;` that printed `op`; "" when it printed
        nothing (an inline expression: the body's text reads the tests through it); None when it
        printed otherwise (several statements)."""
        start, end = span
        if start == end:
            return ""
        ctype = self.c_type(op.results[0].type, op)
        text = self.lines[start].lstrip()
        if end - start != 1 or len(op.results) != 1 or not text.startswith(f"{ctype} {self.e(op.results[0])} = "):
            return None
        return text[len(ctype) + 1 :]


def _test_inputs(ops: list[Operation], tests: list[SSAValue]) -> set[int] | None:
    """The ids of the tests and of the ops they read (transitively), printed before the `if`;
    None when nothing is versioned (no test, or a test reads a loop's result)."""
    if not tests:
        return None
    before: set[int] = set()
    wanted = set(tests)
    for o in reversed(ops):
        if any(r in wanted for r in o.results):
            if o.regions or not o.results:
                return None
            before.add(id(o))
            wanted.update(o.operands)
    return before
