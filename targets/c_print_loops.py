"""Printing Loop IR: buffers (dims, allocations, element accesses) and loops as C `for` statements.

A loop's accumulators are C variables declared before it (block argument and result share
one); names declared inside a loop leave scope with it. `_header` is the one place that
makes a C `for` safe for any int64 bounds and step.

A `loop.for` marked `loop.split_halves` (a fold beyond the L2 on Zen 4) on an ISA with a
half-width table (`HALF_ISA`) keeps each vector accumulator as two half-width C variables:
split before the loop (`half_lo`/`half_hi` rows; so is each vector from before the loop the
body reads, e.g. a splat), each body op printed twice through the
half-width table (the high copy's loads and stores `half_offset` lanes on), joined after
(`join_halves`). Every lane is added as before, so the result is the same bit for bit. A marked
map (no accumulators: Zen 4 in the L1d) so runs as 256-bit blocks. Which bodies split is
dialects/split_halves.py's one test: the `loop.for` verifier rejects a marked loop it refuses,
so a marked loop is never printed whole on an ISA that splits.

Filters: a width-1 `loop.predloop` (a filter the target cannot vectorize: f16/bf16 storage, a
half-register compaction, a float sum without reassoc) prints branch-free when its body may run
on every element (`speculatable_body`): the body runs, each `loop.append` stores at the cursor
unconditionally, the cursor advances by the predicate (`count += c`) and accumulators select
(`acc = c ? new : acc`). A branch per element costs a mispredict on unsorted data: at 1 Mi
elements, half kept at random (Zen 4, gcc 12 -O3, AVX2 flags, best of 41 interleaved, load ~12),
an f16 filter ran at 5,673 µs with the branch and 1,518 µs without, a bf16 filter with two
outputs 5,415 vs 725, f32 kept by an f64 test 5,825 vs 488. (gcc turns a float accumulator's
`c ? acc + x : acc` back into a branch: a float sum without reassoc gains nothing yet.)
An unconditional store must stay inside its output: the cursor never passes the
iterations done, so the loop up to lo + min(trips, capacity) stores freely, and the iterations
after it (only when an output is shorter than the trip count, as the threaded driver's exact
capacities are) test `count < capacity` before each store: a well-predicted test, not the
data's. A body with a `loop.store` keeps `if (pred) { body; count++; }`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, VectorType
from xdsl.ir import Operation, SSAValue

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.dialects.effects import is_speculatable
from loopopt.dialects.split_halves import SPLIT_HALVES_ATTR, outside_vectors, split_lanes, split_problem
from loopopt.targets.c_helpers import Helper
from loopopt.targets.c_isa import BUFFER_C_TYPES, IsaTable
from loopopt.targets.c_print_values import Buffer, FunctionCore, is_a, scalar_key


PUNNED_VECTOR_TYPES = frozenset({"__m128i", "__m256i", "__m512i"})
"""The x86 integer vector types, whose intrinsics compute in another GNU vector type
(`_mm256_add_epi32` adds `__v8su` lanes and converts back)."""

IN_REGISTER = Helper(
    "lo_in_register",
    """/* After a loop, each integer vector accumulator the code after it reads goes through an empty asm
 * statement that keeps it in a register. Without it gcc's value numbering sees through the
 * conversion between __m256i and the type the intrinsic computes in, the code after the loop
 * reads the loop's value of the other type, the two overlap, and every iteration copies each
 * accumulator (a vmovdqa each: i32 folds in cache ran up to 1.9x slower on Zen 3, gcc 12). */
#if defined(__GNUC__)
#define lo_in_register(v) __asm__("" : "+x"(v))
#else
#define lo_in_register(v) ((void)0)
#endif
""",
)

ALLOC_HELPER = Helper(
    "lo_alloc",
    """/* rows x cols elements of `size` bytes (a negative length counts as 0), one byte more so that an
 * empty buffer is not NULL: NULL with errno = ENOMEM when malloc fails or the size overflows;
 * a success leaves errno as it was (malloc may set it even then). */
static void *lo_alloc(int64_t rows, int64_t cols, size_t size)
{
    const uint64_t r = rows > 0 ? (uint64_t)rows : 0u, c = cols > 0 ? (uint64_t)cols : 0u;
    if (c != 0u && r > ((uint64_t)SIZE_MAX - 1u) / size / c) {
        errno = ENOMEM;
        return NULL;
    }
    const int saved = errno;
    void *p = malloc((size_t)(r * c * size + 1u));
    errno = p != NULL ? saved : ENOMEM;
    return p;
}
""",
)
"""The allocation of every `loop.alloc` (docs/calling_convention.md, "Out of memory")."""


class LoopStatements(FunctionCore):
    """The Loop IR half of `FunctionPrinter`."""

    def _dim(self, op: Operation) -> None:
        assert isinstance(op, loop.DimOp)
        self.exprs[id(op.result)] = self.buffer(op.buf, op).lengths[op.dim.value.data]

    def _alloc(self, op: Operation) -> None:
        """`lo_alloc` (ALLOC_HELPER): a negative size is an empty array (docs/calling_convention.md),
        not a huge size_t. When the buffer cannot be had the kernel frees what it holds and
        returns at once, every scalar result 0, errno = ENOMEM ("Out of memory")."""
        assert isinstance(op, loop.AllocOp)
        t = op.result.type
        assert isinstance(t, loop.BufType)
        elt = scalar_key(t.element_type) or ""
        ct = BUFFER_C_TYPES[elt]
        name = self.name_of(op.result, "tmp")
        sizes = [self.e(s) for s in op.sizes]
        rows, cols = (sizes[0], "1") if len(sizes) == 1 else sizes
        self.line(f"{ct} *restrict {name} = lo_alloc({rows}, {cols}, sizeof({ct}));")
        held = [n for n, d in self.live_allocs if d <= self.depth]
        give_up = [*(f"free({n});" for n in held), *(f"*{p} = 0;" for p in self.kernel.ret_ptrs)]
        give_up.append("return;" if self.kernel.returns == "void" else "return 0;")
        self.line(f"if ({name} == NULL) {{ {' '.join(give_up)} }}")
        self.live_allocs.append((name, self.depth))
        self.buffers[op.result] = Buffer(name, sizes, elt)
        self.uses_alloc = True

    def _dealloc(self, op: Operation) -> None:
        assert isinstance(op, loop.DeallocOp)
        ptr = self.buffer(op.buf, op).ptr
        self.live_allocs = [(n, d) for n, d in self.live_allocs if n != ptr]
        self.line(f"free({ptr});")

    def index_expr(self, op: loop.LoadOp | loop.StoreOp, buf: Buffer) -> str:
        dims = [self._affine(a) for a in op.affine_indices]
        if len(dims) == 1:
            return dims[0]
        row, col = dims
        return f"{_paren(row)} * {buf.lengths[1]} + {_paren(col)}"

    def _affine(self, a: loop.Affine) -> str:
        coeffs, offset = a.normalized()
        text = ""
        for v, c in coeffs.items():
            term = self.e(v) if abs(c) == 1 else f"{abs(c)} * {_paren(self.e(v))}"
            text = (f"-{term}" if c < 0 else term) if not text else f"{text} {'-' if c < 0 else '+'} {term}"
        if offset or not text:
            text = str(offset) if not text else f"{text} {'-' if offset < 0 else '+'} {abs(offset)}"
        return text

    def _loop_load(self, op: Operation) -> None:
        assert isinstance(op, loop.LoadOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "load", op.result.type, buf=buf.ptr, idx=self.index_expr(op, buf))

    def _loop_store(self, op: Operation) -> None:
        assert isinstance(op, loop.StoreOp)
        buf = self.buffer(op.buf, op)
        self._row(op, "store", op.value.type, buf=buf.ptr, idx=self.index_expr(op, buf), value=self.e(op.value))

    def _append(self, op: Operation) -> None:
        """The value at the predloop's cursor; in a branch-free loop's guarded part only while the
        cursor is below the buffer's length (its capacity)."""
        assert isinstance(op, loop.AppendOp)
        parent = op.parent_op()
        assert parent is not None
        buf = self.buffer(op.out, op)
        cursor = self.cursors[parent]
        guarded = self.append_guards.get(parent, False)
        if guarded:
            self.line(f"if ({cursor} < {buf.lengths[0]}) {{")
            self.depth += 1
        self._row(op, "store", op.value.type, buf=buf.ptr, idx=cursor, value=self.e(op.value))
        if guarded:
            self.depth -= 1
            self.line("}")

    # ------------------------------------------------------------------ loops

    def _check_width(self, op: loop.VecLoopOp | loop.PredLoopOp) -> None:
        width = op.width.concrete
        if width != 1:
            raise LoopoptDiagnostic(
                f"{op.name} of width {op.width.spelling} reaches the C printer: only width 1 prints as scalar C; "
                "run convert-loop-to-simd first",
                op,
            )

    def _header(self, op: loop.LoopLike, lo: str | None = None, hi: str | None = None) -> str:
        """The C `for` header of a loop; it never overflows and never hangs, for any int64
        bounds and step: `i < hi; i++` for a unit step (i stops at hi <= INT64_MAX), `i > hi;
        i--` for step -1, a counted loop for another constant step (the trip count is
        computed once in uint64_t; the variable steps in uint64_t and is converted back), and
        for a runtime step a clamped step (`i` moves to `hi` instead of past it; step 0 runs
        nothing)."""
        var = self.name_of(op.var, "i")
        lo, hi = lo or self.e(op.lower), hi or self.e(op.upper)
        if op.step is None:
            return f"for (int64_t {var} = {lo}; {var} < {hi}; {var}++)"
        step = self.e(op.step)
        owner = op.step.owner
        s = owner.value.value.data if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr) else None
        if s == 1:
            return f"for (int64_t {var} = {lo}; {var} < {hi}; {var}++)"
        if s == -1:
            return f"for (int64_t {var} = {lo}; {var} > {hi}; {var}--)"
        u = "(uint64_t)"
        if s is not None and s != 0:
            # left = trips - 1 <= (2**64 - 2) / 2 fits in int64_t; -1 when the range is empty
            left = self.fresh(f"{var}_left", "left")
            mag = f"{abs(s)}ull"
            if s > 0:
                nonempty, dist, move = f"({hi}) > {var}", f"{u}({hi}) - {u}{var}", "+"
            else:
                nonempty, dist, move = f"{var} > ({hi})", f"{u}{var} - {u}({hi})", "-"
            count = f"{nonempty} ? (int64_t)(({dist} - 1u) / {mag}) : -1"
            return (
                f"for (int64_t {var} = {lo}, {left} = {count}; {left} >= 0; "
                f"{left}--, {var} = (int64_t)({u}{var} {move} {mag}))"
            )
        # runtime step (or a constant 0): move i by step only while it stays before hi
        cond = f"({step}) > 0 ? {var} < ({hi}) : (({step}) < 0 && {var} > ({hi}))"
        room = (
            f"(({step}) > 0 ? {u}({hi}) - {u}{var} > {u}({step}) "
            f": {u}{var} - {u}({hi}) > 0ull - {u}({step}))"
        )
        return f"for (int64_t {var} = {lo}; {cond}; {var} = {room} ? (int64_t)({u}{var} + {u}({step})) : ({hi}))"

    def _start_accs(self, op: loop.LoopLike) -> list[str]:
        """Declare one C variable per accumulator (shared by the block argument and the result)."""
        names: list[str] = []
        if not op.inits:  # (a map: `accumulators` builds its lists for nothing)
            return names
        for acc in op.accumulators:
            hint = acc.result.name_hint or acc.arg.name_hint
            name = self.fresh(hint, "acc")
            self.line(f"{self.c_type(acc.arg.type, op)} {name} = {self.e(acc.init)};")
            if not acc.result.uses and all(u.operation is op.body.block.last_op for u in acc.arg.uses):
                # a dead accumulator (unread, yielded unchanged or not): no unused-variable warning
                self.line(f"(void){name};")
            self.exprs[id(acc.arg)] = name
            self.exprs[id(acc.result)] = name
            names.append(name)
        return names

    def _for(self, op: Operation) -> None:
        assert isinstance(op, loop.ForOp | loop.ZipOp | loop.VecLoopOp)
        if is_a(op, loop.ForOp) and SPLIT_HALVES_ATTR in op.attributes and (half := half_table(self.isa)) is not None:
            self._split_for(op, half)
            return
        if is_a(op, loop.VecLoopOp):
            self._check_width(op)
        self._start_accs(op)
        if op.inits:
            self.in_place.update(in_place_yields(op))
        outer_names = set(self.used_names)  # names declared in the loop go out of scope after it
        outer_suffix = dict(self.next_suffix)
        self.line(self._header(op) + " {")
        self.depth += 1
        if is_a(op, loop.ZipOp):
            for arg, stream in zip(op.stream_args, op.streams):
                if arg.uses:
                    buf = self.buffer(stream, op)
                    self.line(f"{self.c_type(arg.type, op)} {self.name_of(arg, 'x')} = {buf.ptr}[{self.e(op.var)}];")
        self.block(op.body.block)
        self.depth -= 1
        self.line("}")
        self.used_names = outer_names
        self.next_suffix = outer_suffix
        for acc in op.accumulators if op.inits else ():
            if acc.result.uses and self.c_type(acc.arg.type, op) in PUNNED_VECTOR_TYPES:
                self.line(f"{IN_REGISTER.name}({self.e(acc.result)});")

    def _split_for(self, op: loop.ForOp, half: IsaTable) -> None:
        """The loop with its accumulators in half-width variables (module docstring)."""
        if (why := split_problem(op)) is not None:  # the verifier's test: unverified IR only
            raise LoopoptDiagnostic(f"{SPLIT_HALVES_ATTR} loop cannot be split into halves: {why}", op)
        halves: list[tuple[str, str]] = []
        punned: list[str] = []  # integer halves: through lo_in_register after the loop, as in _for
        for acc in op.accumulators:
            hint = acc.result.name_hint or acc.arg.name_hint or "acc"
            t = acc.arg.type
            assert isinstance(t, VectorType)
            ctype, elt = half.c_vector_type(*self._elt_lanes(t)), self.row_key(t)[1]
            pair = (self.fresh(f"{hint}_lo"), self.fresh(f"{hint}_hi"))
            for key, name in zip(("half_lo", "half_hi"), pair):
                self.line(f"{ctype} " + self._split_row(key, elt, op).format(dst=name, a=self.e(acc.init)))
            halves.append(pair)
            if acc.result.uses and ctype in PUNNED_VECTOR_TYPES:
                punned += pair
        outside = []  # vectors from before the loop (splats): split once here
        for v in outside_vectors(op):
            ctype, elt = half.c_vector_type(*self._elt_lanes(v.type)), self.row_key(v.type)[1]
            hint = v.name_hint or "v"
            pair = (self.fresh(f"{hint}_lo"), self.fresh(f"{hint}_hi"))
            for key, name in zip(("half_lo", "half_hi"), pair):
                self.line(f"{ctype} " + self._split_row(key, elt, op).format(dst=name, a=self.e(v)))
            outside.append((v, pair))
        self.in_place.update(in_place_yields(op))
        outer_names, outer_suffix = set(self.used_names), dict(self.next_suffix)
        outer_isa, outer_keys = self.isa, self.row_keys
        self.line(self._header(op) + " {")
        self.depth += 1
        self.isa, self.row_keys = half, {}
        lanes = split_lanes(op) // 2
        outer_exprs = self.exprs
        exprs = [dict(outer_exprs), dict(outer_exprs)]
        for value, pair in [*((acc.arg, p) for acc, p in zip(op.accumulators, halves, strict=True)), *outside]:
            for h in range(2):
                exprs[h][id(value)] = pair[h]
        live = self._live_ops(op.body.block)
        try:
            # op by op, low half then high: the loads stay in address order (a body printed
            # whole per half, loads at +0 +16 +32 +48 then +8 +24 ..., ran 3-6% slower on Zen 4)
            for o in op.body.block.ops:
                if id(o) not in live:
                    continue
                if not any(isinstance(v.type, VectorType) for v in (*o.operands, *o.results)) and o.results:
                    self.exprs = exprs[0]  # index arithmetic: once, both halves read it
                    self.op_(o)
                    exprs[1].update((id(r), exprs[0][id(r)]) for r in o.results)
                    continue
                for h in range(2):
                    self.exprs, self.half_offset = exprs[h], h * lanes
                    self.op_(o)
        finally:
            self.isa, self.row_keys, self.half_offset, self.exprs = outer_isa, outer_keys, 0, outer_exprs
        self.depth -= 1
        self.line("}")
        self.used_names, self.next_suffix = outer_names, outer_suffix
        for name in punned:
            self.line(f"{IN_REGISTER.name}({name});")
        for acc, (lo, hi) in zip(op.accumulators, halves, strict=True):
            name = self.fresh(acc.result.name_hint or acc.arg.name_hint, "acc")
            elt = self.row_key(acc.arg.type)[1]
            text = self._split_row("join_halves", elt, op).format(dst=name, a=lo, b=hi)
            self.line(f"{self.c_type(acc.arg.type, op)} {text}")
            self.exprs[id(acc.result)] = name

    def _split_row(self, key: str, elt: str, op: Operation) -> str:
        row = self.isa.row(key, elt)
        if row is None:
            raise LoopoptDiagnostic(f"{op.name} split into halves: no {self.isa.name} {key} row for {elt}", op)
        return row

    @staticmethod
    def _elt_lanes(t: VectorType) -> tuple[str, int]:
        return scalar_key(t.element_type) or str(t.element_type), t.get_shape()[0]

    def _predloop(self, op: Operation) -> None:
        """A width-1 predloop (module docstring "Filters"): branch-free when its body may run on
        every element, else `if (pred) { body; count++; }`."""
        assert isinstance(op, loop.PredLoopOp)
        self._check_width(op)
        branch_free = speculatable_body(op)
        caps = {a.out: self.buffer(a.out, op).lengths[0] for a in op.body.block.ops if isinstance(a, loop.AppendOp)}
        if not branch_free or caps or op.count.uses:  # (clang warns of a count only incremented)
            count = self.name_of(op.count, "count")
            self.line(f"int64_t {count} = 0;")
            self.cursors[op] = count
        self._start_accs(op)
        if not branch_free:
            self._pred_loop(op, _BRANCH)
            return
        if not caps:  # nothing stored: every iteration is the same select (and count)
            self._pred_loop(op, _ALWAYS)
            return
        if not self._unit_step(op):
            self._pred_loop(op, _GUARDED)
            return
        # the count never passes the iterations done, so below lo + min(trips, capacity) every
        # append's cursor is within its buffer: stores need no test; from there on (only when an
        # output is shorter than the trip count) each store tests the cursor against its capacity
        lo, hi = self.e(op.lower), self.e(op.upper)
        lengths = list(dict.fromkeys(caps.values()))
        cap = self.fresh("capacity")
        least = functools.reduce(lambda a, b: f"({a} < {b} ? {a} : {b})", lengths[1:], lengths[0])
        self.line(f"int64_t {cap} = {least.removeprefix('(').removesuffix(')')};")
        self.line(f"if ({cap} < 0) {cap} = 0; /* a caller's negative length holds nothing */")
        stop = self.fresh("stop")
        if lo == "0":  # the capacity is not negative (clamped above)
            self.line(f"int64_t {stop} = {_paren(hi)} > {cap} ? {cap} : {_paren(hi)};")
        else:
            u = "(uint64_t)"
            self.line(f"int64_t {stop} = ({hi}) > ({lo}) && {u}({hi}) - {u}({lo}) > {u}{cap} "
                      f"? (int64_t)({u}({lo}) + {u}{cap}) : ({hi});")  # fmt: skip
        self._pred_loop(op, _ALWAYS, hi=stop)
        self._pred_loop(op, _GUARDED, lo=stop, unroll=False)

    def _pred_loop(self, op: loop.PredLoopOp, form: str, lo: str | None = None, hi: str | None = None,
                   unroll: bool = True) -> None:  # fmt: skip
        """One C loop over the predloop's iterations from `lo` to `hi` (default: its bounds);
        `form` is how the body runs (_BRANCH, _ALWAYS or _GUARDED)."""
        outer_names = set(self.used_names)
        outer_suffix = dict(self.next_suffix)
        if form != _BRANCH and unroll:
            self.line(UNROLL_PRAGMA)
        self.line(self._header(op, lo, hi) + " {")
        self.depth += 1
        self.exprs[id(op.pred_var)] = self.e(op.var)
        self.block(op.pred.block, skip_terminator=True)
        pred_yield = op.pred_yield
        assert pred_yield is not None
        kept = self.e(pred_yield.values[0])
        if form == _BRANCH:
            self.line(f"if ({kept}) {{")
            self.depth += 1
            self.block(op.body.block)
            self.line(f"{self.cursors[op]}++;")
            self.depth -= 1
            self.line("}")
        else:
            self.append_guards[op] = form == _GUARDED
            self.block(op.body.block, skip_terminator=True)
            if op.yield_op is not None:
                self._yield(op.yield_op, when=kept)
            if op in self.cursors:
                self.line(f"{self.cursors[op]} += {_paren(kept)};")
        self.depth -= 1
        self.line("}")
        self.used_names = outer_names
        self.next_suffix = outer_suffix

    def _unit_step(self, op: loop.LoopLike) -> bool:
        owner = op.step.owner if op.step is not None else None
        return op.step is None or (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)
                                   and owner.value.value.data == 1)  # fmt: skip

    def _yield(self, op: Operation, when: str | None = None) -> None:
        """The accumulators take the yielded values (`when`: only where that C condition holds,
        `acc = when ? new : acc`, a select rather than a branch)."""
        assert isinstance(op, loop.YieldOp)
        parent = op.parent_op()
        assert isinstance(parent, loop.LoopLike)
        targets = [self.e(a) for a in parent.acc_args]
        values = [self.e(v) for v in op.values]
        moves = [
            (t, v, acc)
            for t, v, acc in zip(targets, values, parent.acc_args, strict=True)
            if t != v
        ]
        if len(moves) > 1 and any(v in targets for _, v, _ in moves):
            # a parallel copy (the accumulators permute): through temporaries of each one's type
            temps = []
            for t, v, acc in moves:
                tmp = self.fresh(f"{t}_next")
                self.line(f"{self.c_type(acc.type, op)} {tmp} = {v};")
                temps.append((t, tmp, acc))
            moves = temps
        for t, v, _ in moves:
            self.line(f"{t} = {v};" if when is None else f"{t} = {_paren(when)} ? {v} : {t};")


_BRANCH, _ALWAYS, _GUARDED = "branch", "always", "guarded"
"""How a width-1 predloop's body runs: under `if (pred)`; on every element with appends stored
at the cursor unconditionally; the same with each append tested against its capacity."""

UNROLL_PRAGMA = "#pragma GCC unroll 4"
"""Before a branch-free predloop: gcc (and clang, which reads this spelling) unroll it 4 times.
On Zen 4 a 1 Mi i16 filter runs at 418 µs unrolled vs 566 µs not (gcc 12, -O3; clang unrolls
on its own), the speed of the scalar target's own 4-way loop."""


_ALIASING = (simd.BroadcastOp, simd.HReduceOp, simd.ConvertOp, loop.LaneScanOp)
"""Ops whose result the printer may print as its operand's C expression (a one-lane vector on
the scalar target, a same-type conversion, a lane scan): reading one reads the operand."""


def in_place_yields(op: loop.ForOp | loop.ZipOp | loop.VecLoopOp) -> dict[int, SSAValue]:
    """The yielded values of `op` that may be computed straight into their accumulator's C
    variable (`acc = f(acc, x);` instead of `T v = f(acc, x); ... acc = v;`), by value id: each
    is defined by an op of the body's own block, used only by the yield, at one position, and
    that accumulator (or a value printed as it, `_ALIASING`) is read nowhere after its
    definition (the yield's other positions included: a permutation keeps its copies). An
    out-of-SSA copy coalescing for the reader: the C reads as written by hand, and gcc's code is
    the same (it is in SSA form either way; the copies gcc did keep are `IN_REGISTER`'s)."""
    yield_op = op.body.block.last_op
    if not isinstance(yield_op, loop.YieldOp) or not yield_op.values:
        return {}
    block = yield_op.parent
    assert block is not None
    order = {id(o): k for k, o in enumerate(block.ops)}
    found: dict[int, SSAValue] = {}
    for value, acc in zip(yield_op.values, op.acc_args, strict=True):
        owner = value.owner
        if not isinstance(owner, Operation) or owner.parent is not block or not value.has_one_use():
            continue
        defined = order[id(owner)]
        readers, last = [acc], -1
        while readers and last <= defined:
            for use in readers.pop().uses:
                user = block.find_ancestor_op_in_block(use.operation)
                if user is None:
                    continue
                last = max(last, order[id(user)])
                if isinstance(use.operation, _ALIASING):
                    readers.extend(use.operation.results)
        if last <= defined:
            found[id(value)] = acc
    return found


def speculatable_body(op: loop.PredLoopOp) -> bool:
    """Whether the body may run on every element, kept or not: its ops are total or speculatable
    (dialects/effects.py; arith never traps in loopopt), loads (every Loop IR load is in bounds
    whatever the predicate: a gather's index is clamped by construction, and the vector forms
    read every lane too) and appends (stored at the cursor, which the next kept element
    overwrites). A body with a `loop.store` keeps its branch."""
    return all(isinstance(o, loop.LoadOp | loop.AppendOp | loop.YieldOp) or (not o.regions and is_speculatable(o))
               for o in op.body.block.ops)  # fmt: skip


HALF_ISA = {"avx512": "avx2"}
"""The ISA whose rows print half a register of each ISA (AVX-512 implies AVX2)."""


@functools.cache
def _half_table(name: str) -> IsaTable | None:
    from loopopt.targets.c import isa_table

    if name not in HALF_ISA:
        return None
    whole = isa_table(name)
    # the lane counts stay the whole ISA's: vector<16xf32> prints as one __m256 half
    return replace(isa_table(HALF_ISA[name]), lanes=whole.lanes)


def half_table(isa: IsaTable) -> IsaTable | None:
    """The half-width table of `isa` (lanes as `isa`'s, types and rows of HALF_ISA's), or None."""
    return _half_table(isa.name) if isa.rows.get(("join_halves", "f32")) else None


def _paren(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z0-9_]+|\(.*\)", text) else f"({text})"

