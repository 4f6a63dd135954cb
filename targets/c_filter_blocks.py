"""The super-block driver of a parallel filter (docs/threads.md, "Filters in super-blocks").

For a kernel planned with `loop.parallel`'s `block` (a filter whose only result is its count)
and a derived counting kernel `<k>__count` (passes/derive_filter_count.py), `<k>` is:

```
parts of `block` elements: part c is thread (c mod team)'s, in increasing order
each thread: cnt[me] = <k>__count(part me); publish
  for its parts c:  place = cnt[0] + ... + cnt[c - 1]   (waits only for those counts, briefly:
                    one still missing then is counted here, its thread being parked)
                    compact part c piece by piece straight to out + place, capacity = the
                    count left in the part (no write past it: the next part's thread writes
                    there at the same time), prefetching the same piece of its next part
                    cnt[next] = <k>__count(next part)   (from the caches); publish
  count = the sum of cnt, in part order
```
Each part's input is read from memory once (by the prefetches and the count), the output is
written once, in place, with no scratch and no copy; the places are sums of the same counts
in the same order, so the output is the serial kernel's whatever the thread count or timing.
No barrier: a thread waits only for the counts its next place needs (the threads may drift a
part apart), and only ~20 µs: a count still missing then — its thread parked by the OS, which
under load happens for milliseconds — it computes itself (the count is a function of the
input: whoever publishes it publishes the same value). So a parked thread finishes late, as in
a map, but stalls nobody. With `block_stream` (loop-parallelize{filter_block_stream}, the default) and an
output of at least `stream_bytes` (the CPU's streaming threshold, half the LLC, as for maps)
each piece is compacted into the thread's stage after the previous piece's carry, and its whole
lines leave with non-temporal stores (`lo_par_drain`: the partial lines plain and the sfence only
at the part's ends); below it, straight to its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.func import FuncOp

from loopopt.dialects import loop
from loopopt.lowering import abi
from loopopt.passes.loop_parallelize import ALIGN, ParallelPlan

PIECE_BYTES = 2048
"""Input bytes per chunk-kernel call within a part (the prefetch of the next part's piece is
issued before each call): 32 lines, within a core's outstanding misses (16 KiB pieces stalled
on each prefetch burst: 16 Mi f32 on Zen 4, 2 threads, 2.07-2.11 ms against 1.66; docs/threads.md).
Small pieces need the carry stage (lo_par_drain): one memory round trip per piece made them
10x slower."""


PAGE = 4096
"""Every thread's stage starts a page (stages page-aligned, whole pages apart). Where the stage
sits within its page decided the time (address bits 11:0 alias: a load waits for an older store
it only seems to overlap): Zen 4, 16 Mi f32, 2 KiB pieces, best of 101-121, load 13-15, thread
0's stage at page offset 0, 64, 256, 512, 1984 or 2048 (thread 1's 2176 bytes on) 1.55-1.93 ms,
at 1024, 1536 or 3072 2.57-3.28 ms; at 0 / 0 (this) 1.54-1.56 ms, also with the input moved by
1 KiB or 1.5 KiB (the aliased partner is not the input; docs/threads.md)."""

SCRATCH_BELOW_PARTS = 2
"""Calls on fewer than this many parts of `block` elements (the data in the L2s and the L3)
run the scratch-and-copy driver, emitted next to it as `<k>__copies`: there the compaction is
compute-bound and a count pass costs more than the copies it saves (Zen 4, load 13.5, best of
81: 256 Ki f32/i32 0.020-0.021 ms against 0.024; 1 Mi level within the noise; 2 Mi super-blocks
0.15-0.17 against 0.14-0.44 ms; docs/threads.md)."""
PARTS_PER_THREAD = 4
"""Below `block` x threads x this many elements the parts shrink so that each thread still has
this many (the last part's imbalance and the first count, which nothing overlaps, stay small
in cache-sized calls)."""


def piece_elements(input_bytes_per_element: int) -> int:
    return max(ALIGN, PIECE_BYTES // max(input_bytes_per_element, 1) // ALIGN * ALIGN)



def serial_conditions(n: str, plan: ParallelPlan, args: list, first_in: abi.BufferArg, buf: dict) -> list[str]:
    """When a threaded driver calls the serial kernel instead: too few elements to split, or a
    buffer shorter than the first input (`n`), where the serial kernel's axis guard runs nothing
    and the parts, each sized from `n`, would read or write past it."""
    return [f"{n} < {max(plan.min_elements, 2 * ALIGN)}"] + [
        f"{buf[a.index][1]} < {n}" for a in args if isinstance(a, abi.BufferArg) and a is not first_in]

@dataclass(frozen=True)
class DriverErrno:
    """errno through a threaded driver (docs/calling_convention.md, "Out of memory"): a successful
    call leaves the caller's errno as it was, although the driver's own `malloc`s may set it
    (glibc's does even when it succeeds; one that fails sends the call to the serial kernel); a
    chunk kernel that allocates (`loop.alloc`) sets ENOMEM on the worker thread that ran it,
    where the caller never looks: each thread clears errno as the region starts and raises a
    shared flag at its end, and after the region the driver sets ENOMEM and every result to 0.
    A chunk that failed wrote nothing past its own buffers: the rest stays memory-safe."""

    saved: str
    flag: str | None

    @staticmethod
    def of(f: FuncOp, local: Callable[[str], str]) -> DriverErrno:
        allocates = any(isinstance(o, loop.AllocOp) for o in f.walk())
        return DriverErrno(local("lo_errno"), local("lo_nomem") if allocates else None)

    def save(self) -> list[str]:
        """Before the driver's first allocation."""
        return [f"    const int {self.saved} = errno;"] + ([f"    int {self.flag} = 0;"] if self.flag else [])

    def restore(self) -> str:
        """Before the serial kernel runs instead (it sets errno itself)."""
        return f"errno = {self.saved};"

    def enter(self) -> list[str]:
        return ["        errno = 0;"] if self.flag else []

    def leave(self) -> list[str]:
        return [f"        if (errno == ENOMEM) __atomic_store_n(&{self.flag}, 1, __ATOMIC_RELAXED);"] if self.flag else []

    def after(self, results: list[str]) -> list[str]:
        if not self.flag:
            return [f"    {self.restore()}"]
        return [f"    errno = {self.flag} ? ENOMEM : {self.saved};", *(f"    if ({self.flag}) {r} = 0;" for r in results)]


@dataclass(frozen=True)
class DriverArgs:
    """A super-block driver's view of the kernel's C parameters: per ABI buffer its pointer,
    length and element C type, per scalar its name; `call` spells a call of the chunk kernel or
    the count kernel on a range of the inputs."""

    args: list
    buf: dict[int, tuple[str, str, str]]
    scalars: dict[int, str]

    @staticmethod
    def of(f: FuncOp, names: list[str], types: list[str]) -> DriverArgs:
        args = abi.kernel_args(f)
        pos = 0
        buf: dict[int, tuple[str, str, str]] = {}
        scalars: dict[int, str] = {}
        for a in args:
            if isinstance(a, abi.BufferArg):
                buf[a.index] = (names[pos], names[pos + 1], types[pos])
                pos += 2
            else:
                scalars[a.index] = names[pos]
                pos += 1
        return DriverArgs(args, buf, scalars)

    @property
    def inputs(self) -> list[abi.BufferArg]:
        return [a for a in self.args if isinstance(a, abi.BufferArg) and not a.output]

    @property
    def filters(self) -> list[abi.BufferArg]:
        """The compacted outputs (all of one count)."""
        return [a for a in self.args if isinstance(a, abi.BufferArg) and a.capacity is not None]

    def call(self, fn: str, start: str, length: str, out: Callable[[abi.BufferArg], tuple[str, str]]) -> str:
        """`fn` on the inputs' [start, start + length), each filter output as `out` spells it."""
        parts: list[str] = []
        for a in self.args:
            if not isinstance(a, abi.BufferArg):
                parts.append(self.scalars[a.index])
            elif a.capacity is None:
                parts += [f"{self.buf[a.index][0]} + {start}", length]
            else:
                parts += list(out(a))
        return f"{fn}({', '.join(parts)})"


@dataclass(frozen=True)
class Parts:
    """The C names `part_prologue` declared: the length, the threads, the part size, the parts,
    and the statement that runs the serial kernel instead."""

    n: str
    t: str
    cs: str
    nch: str
    serial: str


def part_prologue(
    f: FuncOp, plan: ParallelPlan, ret: str, params: list[str], local: Callable[[str], str], names: list[str],
    da: DriverArgs,
) -> tuple[list[str], Parts]:  # fmt: skip
    """A part driver's head, up to its allocations: the serial kernel for small or short calls,
    `<k>__copies` below SCRATCH_BELOW_PARTS parts and outside the plan's [block_from,
    block_below) (the CPU's band), the threads, the parts (smaller when n gives
    each thread fewer than PARTS_PER_THREAD; the counts are exact, so the part size never
    changes the output), the serial kernel again for one thread or one part."""
    name = f.sym_name.data
    n, t, cs, nch = (local(v) for v in ("lo_n", "lo_t", "lo_cs", "lo_nch"))
    serial = f"return {name}__chunk({', '.join(names)});"
    first_in = da.inputs[0]
    small = serial_conditions(n, plan, da.args, first_in, da.buf)
    out: list[str] = [f"{ret} {name}({', '.join(params)})", "{"]
    w = out.append
    w(f"    const int64_t {n} = {da.buf[first_in.index][1]};")
    w(f"    if ({' || '.join(small)}) {{")
    w(f"        {serial}")
    w("    }")
    below = f" || {n} >= {plan.block_below}" if plan.block_below else ""
    w(f"    if ({n} < {max(SCRATCH_BELOW_PARTS * plan.block, plan.block_from)}{below}) {{")
    w(f"        return {name}__copies({', '.join(names)});")
    w("    }")
    w(f"    const int {t} = lo_par_begin({plan.threads});")
    few = f"{n} / ({PARTS_PER_THREAD} * (int64_t){t})"
    w(f"    const int64_t {cs} = {few} < {plan.block} ? ({few} + {ALIGN - 1}) / {ALIGN} * {ALIGN} : {plan.block};")
    w(f"    const int64_t {nch} = ({n} - 1) / {cs} + 1;")
    w(f"    if ({t} < 2 || {nch} < 2) {{")
    w("        lo_par_end();")
    w(f"        {serial}")
    w("    }")
    return out, Parts(n, t, cs, nch, serial)


def block_driver(
    f: FuncOp, plan: ParallelPlan, ret: str, params: list[str], count_fn: str,
    local: Callable[[str], str], names: list[str], types: list[str],
) -> str:  # fmt: skip
    """The driver `<k>` of a super-block filter: `<k>__chunk` compacts, `count_fn` counts.
    `names`/`types`: the C parameters' names and element types; `local` makes fresh names."""
    name = f.sym_name.data
    chunk_fn = f"{name}__chunk"
    da = DriverArgs.of(f, names, types)
    buf, call = da.buf, da.call  # buf: arg index -> (ptr, len, element C type)
    inputs, filters = da.inputs, da.filters
    in_bytes = sum(abi_bytes(a) for a in inputs)
    piece = piece_elements(in_bytes)
    out, pro = part_prologue(f, plan, ret, params, local, names, da)
    n, t, cs, nch, serial = pro.n, pro.t, pro.cs, pro.nch, pro.serial
    cnt, c, me, nt, base, seen, lo, ln, nx, nlo, nlen, at, left, j, pl, k, stream, total, ok = (
        local(v) for v in ("lo_cnt", "lo_c", "lo_me", "lo_nt", "lo_base", "lo_seen",
                           "lo_lo", "lo_len", "lo_nx", "lo_nlo", "lo_nlen", "lo_at", "lo_left", "lo_j", "lo_pl", "lo_k",
                           "lo_stream", "lo_total", "lo_ok"))  # fmt: skip
    stage = {a.index: local(f"lo_stage_{buf[a.index][0]}") for a in filters}
    carry = {a.index: local(f"lo_r_{buf[a.index][0]}") for a in filters}
    # a thread's stage: a piece's output after the carry (< one line) of the piece before, and
    # a line the carry's 64-byte move may read; whole pages apart (PAGE)
    stride = {a.index: -(-(piece * abi_bytes(a) + 128) // PAGE) * PAGE // abi_bytes(a) for a in filters}
    w = out.append
    # the part counts, -1 until published; streamed output goes through per-thread stages
    ct0 = buf[filters[0].index][2]
    streams = plan.block_stream and plan.stream_bytes > 0
    if streams:
        w(f"    const _Bool {stream} = {n} >= {plan.stream_bytes} / (int64_t)sizeof({ct0});")
    keep_errno = DriverErrno.of(f, local)
    out += keep_errno.save()
    w(f"    int64_t *{cnt} = malloc(sizeof(int64_t) * (size_t){nch});")
    allocs = [cnt]
    conds = [cnt]
    for a in filters if streams else []:
        ct = buf[a.index][2]
        w(f"    {ct} *{stage[a.index]} = {stream} ? aligned_alloc({PAGE}, sizeof({ct}) * (size_t){stride[a.index]} * (size_t){t}) : NULL;")
        allocs.append(stage[a.index])
        conds.append(f"({stage[a.index]} || !{stream})")
    w(f"    const _Bool {ok} = {' && '.join(conds)};")
    w(f"    if (!{ok}) {{")
    for v in allocs:
        w(f"        free({v});")
    w("        lo_par_end();")
    w(f"        {keep_errno.restore()}")
    w(f"        {serial}")
    w("    }")
    w(f"    for (int64_t {c} = 0; {c} < {nch}; {c}++)")
    w(f"        {cnt}[{c}] = -1;")
    w(f'    LO_OMP("omp parallel num_threads({t})")')
    w("    {")
    out += keep_errno.enter()
    w(f"        const int64_t {me} = lo_par_thread_num(), {nt} = lo_par_team();")
    w(f"        int64_t {c} = {me}, {base} = 0, {seen} = 0;")
    w(f"        if ({c} < {nch}) {{")
    w(f"            const int64_t {ln} = {n} - {c} * {cs} < {cs} ? {n} - {c} * {cs} : {cs};")
    whole = call(count_fn, f"{c} * {cs}", ln, lambda a: (buf[a.index][0], ln))
    w(f"            lo_par_publish(&{cnt}[{c}], {whole});")
    w("        }")
    w(f"        for (; {c} < {nch}; {c} += {nt}) {{")
    # a count its thread has not published after a brief spin (the thread is parked) is
    # computed here (any thread gets the same count), so a parked thread never stalls the others
    v, sl, sn = local("lo_v"), local("lo_slo"), local("lo_slen")
    w(f"            for (; {seen} < {c}; {seen}++) {{")
    w(f"                int64_t {v} = lo_par_wait_briefly(&{cnt}[{seen}]);")
    w(f"                if ({v} < 0) {{")
    w(f"                    const int64_t {sl} = {seen} * {cs}, {sn} = {n} - {sl} < {cs} ? {n} - {sl} : {cs};")
    w(f"                    {v} = {call(count_fn, sl, sn, lambda a: (buf[a.index][0], sn))};")
    w(f"                    lo_par_publish(&{cnt}[{seen}], {v});")
    w("                }")
    w(f"                {base} += {v};")
    w("            }")
    w(f"            const int64_t {lo} = {c} * {cs};")
    w(f"            const int64_t {ln} = {n} - {lo} < {cs} ? {n} - {lo} : {cs};")
    w(f"            const int64_t {nx} = {c} + {nt};")
    w(f"            const int64_t {nlo} = {nx} * {cs};")
    w(f"            const int64_t {nlen} = {nx} >= {nch} ? 0 : {n} - {nlo} < {cs} ? {n} - {nlo} : {cs};")
    carried = "".join(f", {carry[a.index]} = 0" for a in filters) if streams else ""
    w(f"            int64_t {at} = {base}, {left} = lo_par_peek(&{cnt}[{c}]){carried};")
    w(f"            for (int64_t {j} = 0; {j} < {ln}; {j} += {piece}) {{")
    w(f"                const int64_t {pl} = {ln} - {j} < {piece} ? {ln} - {j} : {piece};")
    w(f"                if ({j} < {nlen}) {{")
    for a in inputs:
        ptr, _, ct = buf[a.index]
        w(f"                    lo_par_prefetch({ptr} + {nlo} + {j}, sizeof({ct}) * (size_t)({nlen} - {j} < {piece} ? {nlen} - {j} : {piece}), {128 if plan.block_pairs else 64});")
    w("                }")
    start = f"{lo} + {j}"
    direct = call(chunk_fn, start, pl, lambda a: (f"{buf[a.index][0]} + {at}", left))
    staged = call(chunk_fn, start, pl, lambda a: (f"{stage[a.index]} + {me} * {stride[a.index]} + {carry[a.index]}", pl))
    w(f"                const int64_t {k} = {f'{stream} ? {staged} : ' if streams else ''}{direct};")
    if streams:
        w(f"                if ({stream}) {{")
        # the stage holds out[at + k - r, at + k): its whole lines go, the rest is carried
        for a in filters:
            ptr, _, ct = buf[a.index]
            r = carry[a.index]
            w(f"                    {r} += {k};")
            w(f"                    {r} -= (int64_t)(lo_par_drain({ptr} + {at} + {k} - {r}, {stage[a.index]} + {me} * {stride[a.index]}, "
              f"sizeof({ct}) * (size_t){r}, {j} + {pl} >= {ln}) / sizeof({ct}));")
        w("                }")
    w(f"                {at} += {k};")
    w(f"                {left} -= {k};")
    w("            }")
    nxt = call(count_fn, nlo, nlen, lambda a: (buf[a.index][0], nlen))
    w(f"            if ({nx} < {nch})")
    w(f"                lo_par_publish(&{cnt}[{nx}], {nxt});")
    w("        }")
    return part_epilogue(out, keep_errno, ret, cnt, nch, c, total, allocs)


def part_epilogue(out: list[str], keep_errno: DriverErrno, ret: str, cnt: str, nch: str, c: str, total: str,
                  allocs: list[str]) -> str:  # fmt: skip
    """A part driver's end, from its parallel region's last statement: the count is the sum
    of the part counts in part order; errno, the allocations, the region count."""
    w = out.append
    out += keep_errno.leave()
    w("    }")
    w(f"    int64_t {total} = 0;")
    w(f"    for (int64_t {c} = 0; {c} < {nch}; {c}++)")
    w(f"        {total} += {cnt}[{c}];")
    out += keep_errno.after([total])
    for v in allocs:
        w(f"    free({v});")
    w("    lo_par_end();")
    w(f"    return ({ret}){total};")
    w("}")
    return "\n".join(out) + "\n"


def abi_bytes(a: abi.BufferArg) -> int:
    from loopopt.passes.loop_parallelize import element_bytes

    return element_bytes(a.element_type)
