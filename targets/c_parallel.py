"""The C of `loop.parallel` kernels: the serial kernel becomes a static `<k>__chunk` and `<k>`
becomes an OpenMP driver with the same signature (docs/threads.md).

```
<k>(args):  n = the first input's length (gather sources, `sources`, are not on the axis)
  n < min_elements, or another buffer shorter than n      -> <k>__chunk(args)  (serial; its
                                                              axis guard runs nothing)
  chunks: `chunk` elements when results depend on the split (float reductions) and for
          filters and scans, else one range per thread, a multiple of 64 elements
  omp parallel: omp for over chunks c: <k>__chunk(x + lo, len, ..., out + lo, len, &part[c])
                (a gather source is passed whole: src, src_len)
                (filters: chunks claimed in increasing order; chunk c's place is published
                by chunk c - 1 once it has compacted; a chunk whose place is known compacts
                into the output, else into its thread's chunk-sized scratch, waits for its
                place and copies; scans: chunks claimed in increasing order; chunk c
                waits for the scan up to chunk c - 1's end, publishes its own end and
                combines the offset into its elements, still in cache)
  results: part[0] ⊕ part[1] ⊕ ... in chunk order (so every thread count gives the same bits)
```
The thread count is `loopopt_num_threads` (a weak symbol the Python runtime defines:
`loopopt.set_num_threads`, `LOOPOPT_NUM_THREADS`) or, for C callers, `LOOPOPT_NUM_THREADS`
read once, else OpenMP's default; capped by the plan's `threads`. A call made while another
parallel call runs in the process (another Python thread, or inside an OpenMP region) uses
one thread, so concurrent callers never oversubscribe the cores. Without `-fopenmp` the file
still compiles: the pragmas are ignored and chunks run in order on the calling thread.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop
from loopopt.lowering import abi
from loopopt.passes.derive_filter_count import count_kernels
from loopopt.passes.loop_parallelize import ALIGN, ParallelPlan, verify_parallel_plan
from loopopt.targets.c_filter_blocks import DriverErrno, block_driver, serial_conditions
from loopopt.targets.c_printer import CALL_DIM_PARAM

PREAMBLE = r"""#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#include <sched.h>
#define LO_OMP(directive) _Pragma(directive)
static int lo_par_max_threads(void) { return omp_get_max_threads(); }
static int lo_par_thread_num(void) { return omp_get_thread_num(); }
static inline int lo_par_team(void) { return omp_get_num_threads(); }
static int lo_par_in_parallel(void) { return omp_in_parallel(); }
static void lo_par_yield(void) { sched_yield(); }
#else /* built without -fopenmp: the chunks run in order on the calling thread */
#define LO_OMP(directive)
static int lo_par_max_threads(void) { return 1; }
static int lo_par_thread_num(void) { return 0; }
static inline int lo_par_team(void) { return 1; }
static int lo_par_in_parallel(void) { return 0; }
static void lo_par_yield(void) {}
#endif
/* Defined by loopopt's Python runtime (loopopt.set_num_threads); absent for C callers. */
extern int loopopt_num_threads __attribute__((weak));
extern int loopopt_parallel_calls __attribute__((weak));
static int lo_par_calls_here;
static int *lo_par_calls(void) { return &loopopt_parallel_calls ? &loopopt_parallel_calls : &lo_par_calls_here; }
static int lo_par_setting(void)
{
    static int env = -1; /* LOOPOPT_NUM_THREADS, read once, when the runtime is absent */
    if (&loopopt_num_threads)
        return __atomic_load_n(&loopopt_num_threads, __ATOMIC_RELAXED);
    int v = __atomic_load_n(&env, __ATOMIC_RELAXED);
    if (v < 0) {
        const char *s = getenv("LOOPOPT_NUM_THREADS");
        v = s ? atoi(s) : 0;
        v = v < 0 ? 0 : v > 1024 ? 1024 : v;
        __atomic_store_n(&env, v, __ATOMIC_RELAXED);
    }
    return v;
}
/* Threads for one parallel call (call lo_par_end after it): 1 while another parallel call
   runs in this process or inside a parallel region, so callers never oversubscribe. */
static int lo_par_begin(int cap)
{
    int busy = __atomic_fetch_add(lo_par_calls(), 1, __ATOMIC_ACQ_REL) != 0 || lo_par_in_parallel();
    int t = lo_par_setting();
    if (t <= 0)
        t = lo_par_max_threads();
    if (cap > 0 && t > cap)
        t = cap;
    return busy || t < 1 ? 1 : t;
}
static void lo_par_end(void) { __atomic_fetch_sub(lo_par_calls(), 1, __ATOMIC_ACQ_REL); }
/* A filter chunk's place in the output: `*at` is -1 until the chunk before it publishes its
   end (its offset + its count) with lo_par_publish, as soon as it has compacted. */
static int64_t lo_par_peek(const int64_t *at) { return __atomic_load_n(at, __ATOMIC_ACQUIRE); }
static int64_t lo_par_wait(const int64_t *at)
{
    int64_t v;
    for (unsigned spins = 0; (v = lo_par_peek(at)) < 0; spins++)
        if (spins >= 16384) /* ~20 µs, a chunk's time: the chunk before is parked, maybe on this core */
            lo_par_yield();
    return v;
}
static void lo_par_publish(int64_t *at, int64_t v) { __atomic_store_n(at, v, __ATOMIC_RELEASE); }
/* A super-block part's count, or -1 when it is still unpublished after ~20 µs of spinning (its
   thread is parked or behind: the caller then counts the part itself). Tests build with
   -DLO_PAR_COUNT_SPINS=0 to take that path whenever a count is late. */
#ifndef LO_PAR_COUNT_SPINS
#define LO_PAR_COUNT_SPINS 16384
#endif
static inline int64_t lo_par_wait_briefly(const int64_t *at)
{
    int64_t v;
    for (unsigned spins = 0; (v = lo_par_peek(at)) < 0 && spins < LO_PAR_COUNT_SPINS; spins++)
        ;
    return v;
}
/* Copy a filter chunk's scratch to its place; `stream`: with non-temporal stores for the
   whole cache lines (an output past the streaming threshold would only evict the caches). */
#ifdef __SSE2__
#include <emmintrin.h>
static void lo_par_copy(void *dst, const void *src, size_t bytes, _Bool stream)
{
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)((0u - (uintptr_t)d) & 63u);
    if (!stream || bytes < head + 64) {
        memcpy(d, s, bytes);
        return;
    }
    memcpy(d, s, head); /* the neighbouring chunk may write the rest of these lines */
    d += head, s += head, bytes -= head;
    size_t lines = bytes & ~(size_t)63;
    for (size_t i = 0; i < lines; i += 16)
        _mm_stream_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
    _mm_sfence();
    memcpy(d + lines, s + lines, bytes - lines);
}
/* A super-block part's output, piece by piece through the thread's stage: write the stage's
   first `bytes` to dst, the partial line at dst's head with plain stores (the previous part's
   thread writes the rest of it), then whole lines non-temporally; the bytes past the last
   whole line stay in the stage (moved to its start: the next piece is compacted after them),
   unless `last`, when they are stored plainly (the next part's line) and the part's streaming
   stores fenced. Returns the bytes written. Plain partial lines and an sfence at every piece
   cost a memory round trip each: 2 KiB pieces took 2.3x the time (docs/threads.md). The stage
   has 128 bytes of slack past a piece: the carry moves as one 64-byte block. */
#ifdef __AVX512F__
#include <immintrin.h>
#endif
static inline size_t lo_par_drain(void *dst, void *stage, size_t bytes, _Bool last)
{
    char *d = dst, *s = stage;
    size_t head = (size_t)((0u - (uintptr_t)d) & 63u);
    if (head >= bytes) {
        if (!last && head > bytes)
            return 0; /* not a whole head yet: all of it stays in the stage */
        memcpy(d, s, bytes);
        return bytes;
    }
    memcpy(d, s, head);
    size_t lines = (bytes - head) & ~(size_t)63;
#ifdef __AVX512F__
    for (size_t i = head; i < head + lines; i += 64)
        _mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
#else
    for (size_t i = head; i < head + lines; i += 16)
        _mm_stream_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
#endif
    size_t done = head + lines;
    if (last) {
        memcpy(d + done, s + done, bytes - done);
        _mm_sfence();
        return bytes;
    }
    char carry[64]; /* bytes - done < 64 */
    memcpy(carry, s + done, 64);
    memcpy(s, carry, 64);
    return done;
}
#else
static void lo_par_copy(void *dst, const void *src, size_t bytes, _Bool stream)
{
    (void)stream;
    memcpy(dst, src, bytes);
}
static inline size_t lo_par_drain(void *dst, void *stage, size_t bytes, _Bool last)
{
    (void)last;
    memcpy(dst, stage, bytes);
    return bytes;
}
#endif
/* The next filter chunk: claimed in increasing order, so every chunk a claimed one waits for
   is already claimed by a running thread (no deadlock), and a thread whose sibling the OS
   parked between chunks takes the following chunks, each with its place known. */
static int64_t lo_par_claim(int64_t *next) { return __atomic_fetch_add(next, 1, __ATOMIC_RELAXED); }
/* Bring `bytes` at p towards the L2 (a super-block part compacted next, counted after), one
   prefetch every `step` bytes: 128 where the L2's adjacent-line prefetcher brings a line's
   partner (Zen 4: median 4-6% lower than every line), else 64 (Zen 3: every other line left
   half the part to the count pass, 26% slower at 16 Mi f32; cpu_models.Caches.prefetch_pairs). */
static inline void lo_par_prefetch(const void *p, size_t bytes, size_t step)
{
    for (size_t i = 0; i < bytes; i += step)
        __builtin_prefetch((const char *)p + i, 0, 2);
}
"""

_UNSIGNED = {"int8_t": "uint8_t", "int16_t": "uint16_t", "int32_t": "uint32_t", "int64_t": "uint64_t", "uint8_t": "uint8_t"}


def _is_float(t: Attribute) -> bool:
    return not isinstance(t, IntegerType | IndexType)


def _is_bool(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.width.data == 1


def _combine(kind: str, t: Attribute, ctype: str, a: str, b: str) -> str:
    """C for `a ⊕ b` with the reduction kind's semantics (loopopt.dialects.reduction_kind)."""
    if kind == "count":
        return f"{a} + {b}"
    if _is_bool(t):
        op = {"add": "^", "mul": "&", "min": "&", "max": "|", "umin": "&", "umax": "|", "and": "&", "or": "|"}[kind]
        return f"({ctype})({a} {op} {b})"
    if _is_float(t):
        if kind == "add":
            return f"{a} + {b}"
        if kind == "mul":
            return f"{a} * {b}"
        if kind == "min":
            return f"isnan({a}) ? {a} : isnan({b}) ? {b} : ({a} < {b} || ({a} == {b} && signbit({a}))) ? {a} : {b}"
        return f"isnan({a}) ? {a} : isnan({b}) ? {b} : ({a} > {b} || ({a} == {b} && !signbit({a}))) ? {a} : {b}"
    u = _UNSIGNED[ctype]
    return {
        "add": f"({ctype})(({u}){a} + ({u}){b})",
        "mul": f"({ctype})(({u}){a} * ({u}){b})",
        "min": f"{a} < {b} ? {a} : {b}",
        "max": f"{a} > {b} ? {a} : {b}",
        "umin": f"({u}){a} < ({u}){b} ? {a} : {b}",
        "umax": f"({u}){a} > ({u}){b} ? {a} : {b}",
        "and": f"{a} & {b}",
        "or": f"{a} | {b}",
    }[kind]


def _header(code: str, name: str, f: FuncOp) -> re.Match[str]:
    found = list(re.finditer(rf"^(?P<ret>[A-Za-z_][A-Za-z0-9_ ]*?) {re.escape(name)}\((?P<params>[^)]*)\)\n\{{", code, re.M))
    if len(found) != 1:
        raise LoopoptDiagnostic(f"@{name}: the C printer's definition of a parallel kernel was not found", f)
    return found[0]


def _param_name(p: str) -> str:
    return re.findall(r"[A-Za-z_][A-Za-z0-9_]*", p)[-1]


def _param_type(p: str) -> str:
    return p.rsplit("*", 1)[0].replace("const ", "").strip() if "*" in p else p.rsplit(" ", 1)[0].strip()


def _namer(names: list[str]) -> Callable[[str], str]:
    """Fresh C names for a driver's locals: `base`, else `base_1`, ... (not a parameter's)."""
    taken = set(names)

    def local(base: str) -> str:
        n, k = base, 1
        while n in taken:
            n, k = f"{base}_{k}", k + 1
        taken.add(n)
        return n

    return local


def _driver(f: FuncOp, plan: ParallelPlan, ret: str, params: list[str], whole: bool) -> str:
    """The driver `<k>` of chunk kernel `<k>__chunk`, which takes the call's n last when
    `whole` (the kernel reads `loop.call_dim`)."""
    name = f.sym_name.data
    chunk_fn = f"{name}__chunk"
    args = abi.kernel_args(f)
    results = list(f.function_type.outputs.data)
    names = [_param_name(p) for p in params]
    local = _namer(names)
    n, t, cs, nch, c, lo, ln, ok = (local(s) for s in ("lo_n", "lo_t", "lo_cs", "lo_nch", "lo_c", "lo_lo", "lo_len", "lo_ok"))
    # Map ABI arguments to C parameters.
    pos = 0
    buf: dict[int, tuple[str, str, str]] = {}  # arg index -> (ptr, len, element C type)
    for a in args:
        if isinstance(a, abi.BufferArg):
            buf[a.index] = (names[pos], names[pos + 1], _param_type(params[pos]))
            pos += 2
        else:
            pos += 1
    ret_ptrs = names[pos:]
    result_types = [_param_type(p) for p in params[pos:]] if len(results) >= 2 else ([ret] if results else [])
    first_in = next(a for a in args if isinstance(a, abi.BufferArg) and not a.output and a.index not in plan.sources)
    filters = [a for a in args if isinstance(a, abi.BufferArg) and a.capacity is not None]
    kinds = dict(zip(plan.scans, plan.scan_kinds, strict=True))
    ordered = plan.scans and any(_is_float(args[k].element_type) for k in plan.scans)  # type: ignore[union-attr]
    ordered = bool(ordered) or any(_is_float(rt) and kind != "count" for rt, kind in zip(results, plan.results, strict=True))
    all_names = ", ".join(names)
    serial = f"{chunk_fn}({all_names}{f', {n}' if whole else ''})"
    serial_stmt = f"return {serial};" if len(results) == 1 else f"{serial}; return;"
    out: list[str] = [f"{ret} {name}({', '.join(params)})", "{"]
    w = out.append
    w(f"    const int64_t {n} = {buf[first_in.index][1]};")
    small = serial_conditions(n, plan, [a for a in args if a.index not in plan.sources], first_in, buf)
    w(f"    if ({' || '.join(small)}) {{")
    w(f"        {serial_stmt}")
    w("    }")
    w(f"    const int {t} = lo_par_begin({plan.threads});")
    w(f"    (void){t}; /* unused without -fopenmp */")
    claimed = bool(filters or plan.scans)  # chunks claimed in increasing order, places/offsets chained
    if ordered or claimed:
        w(f"    const int64_t {cs} = {plan.chunk};")
    else:
        w(f"    const int64_t {cs} = (({n} - 1) / {t} + {ALIGN}) / {ALIGN} * {ALIGN};")
    w(f"    const int64_t {nch} = ({n} - 1) / {cs} + 1;")
    # Scratch: per-chunk partials, filter scratch and offsets, scan offsets.
    allocs: list[tuple[str, str, str]] = []  # (var, C type, count expr)
    parts = []
    for k, rt in enumerate(result_types):
        v = local(f"lo_part{k}")
        parts.append(v)
        allocs.append((v, rt, nch))
    scratch: dict[int, str] = {}
    for a in filters:  # one chunk per thread, cache-resident
        v = local(f"lo_scr_{buf[a.index][0]}")
        scratch[a.index] = v
        allocs.append((v, buf[a.index][2], f"{cs} * {t}"))
    # Per filter count (outputs sharing a count are fields of one record), where each chunk's
    # part of the output starts: nch + 1 entries, -1 until published (lo_par_publish).
    foff: dict[int, str] = {}
    for a in filters:
        if a.count_result not in foff:
            foff[a.count_result] = v = local("lo_off")  # type: ignore[index]
            allocs.append((v, "int64_t", f"{nch} + 1"))
    # Per scan output, the scan up to the end of chunk c - 1 (entry c >= 1); one flag per chunk
    # for all of them: -1 until chunk c - 1 has published them (lo_par_publish).
    soff: dict[int, str] = {}
    for k in plan.scans:
        v = local(f"lo_soff_{buf[k][0]}")
        soff[k] = v
        allocs.append((v, buf[k][2], nch))
    sready = local("lo_sready") if plan.scans else ""
    if plan.scans:
        allocs.append((sready, "int64_t", nch))
    if not ordered:
        w(f"    if ({t} < 2 || {nch} < 2) {{")
        w("        lo_par_end();")
        w(f"        {serial_stmt}")
        w("    }")
    keep_errno = DriverErrno.of(f, local)
    out += keep_errno.save()
    for v, ct, count in allocs:
        w(f"    {ct} *{v} = malloc(sizeof({ct}) * (size_t)({count} > 0 ? {count} : 1));")
    if allocs:
        w(f"    const _Bool {ok} = {' && '.join(v for v, _, _ in allocs)};")
        w(f"    if (!{ok}) {{")
        for v, _, _ in allocs:
            w(f"        free({v});")
        w("        lo_par_end();")
        w(f"        {keep_errno.restore()}")
        w(f"        {serial_stmt}")
        w("    }")
    for v in foff.values():
        w(f"    {v}[0] = 0;")
        w(f"    for (int64_t {c} = 1; {c} <= {nch}; {c}++)")
        w(f"        {v}[{c}] = -1;")
    if plan.scans:
        w(f"    {sready}[0] = 0;")
        w(f"    for (int64_t {c} = 1; {c} < {nch}; {c}++)")
        w(f"        {sready}[{c}] = -1;")
    nxt = local("lo_next") if claimed else ""
    if claimed:
        w(f"    int64_t {nxt} = 0;")
    w(f'    LO_OMP("omp parallel num_threads({t})")')
    w("    {")
    out += keep_errno.enter()
    me = local("lo_me")
    if filters:
        w(f"        const int64_t {me} = lo_par_thread_num();")
    if claimed:
        w(f"        for (int64_t {c}; ({c} = lo_par_claim(&{nxt})) < {nch};) {{")
    else:
        w('        LO_OMP("omp for schedule(static)")')
        w(f"        for (int64_t {c} = 0; {c} < {nch}; {c}++) {{")
    w(f"            const int64_t {lo} = {c} * {cs};")
    w(f"            const int64_t {ln} = {n} - {lo} < {cs} ? {n} - {lo} : {cs};")
    at = {r: local("lo_at") for r in foff}

    def call(into_scratch: bool) -> str:
        """The chunk kernel on chunk c, filter outputs into this thread's scratch or at their place."""
        call_args: list[str] = []
        pos = 0
        for a in args:
            if isinstance(a, abi.BufferArg):
                ptr = buf[a.index][0]
                if a.index in plan.sources:  # a gather source: every chunk reads all of it
                    call_args += [ptr, buf[a.index][1]]
                elif a.index not in scratch:
                    call_args += [f"{ptr} + {lo}", ln]
                elif into_scratch:
                    call_args += [f"{scratch[a.index]} + {me} * {cs}", ln]
                else:
                    call_args += [f"{ptr} + {at[a.count_result]}", ln]  # type: ignore[index]
                pos += 2
            else:
                call_args.append(names[pos])
                pos += 1
        if len(results) >= 2:
            call_args += [f"&{p}[{c}]" for p in parts]
        if whole:
            call_args.append(n)
        text = f"{chunk_fn}({', '.join(call_args)})"
        return f"{parts[0]}[{c}] = {text};" if len(results) == 1 else f"{text};"

    def scan_chain(ind: str, into_scratch: bool) -> None:
        """Chunk c has scanned locally: once the scan up to chunk c - 1's end is published, it
        publishes its own end (its last local value combined in) for chunk c + 1, then
        combines the offset into its elements while they are still in cache. So every chunk's
        offset is the same expression of the same chunk totals as a pass after all chunks
        would compute: the bits do not depend on the thread count or the timing. The flag
        published is a bit mask: bit j when scan j has an offset (a value before the chunk;
        a filter's chunks may select nothing)."""
        has = local("lo_has")
        w(f"{ind}const int64_t {has} = lo_par_wait(&{sready}[{c}]);")
        where: list[tuple[str, str, str, str, str]] = []  # (offset array, base, count, bit, C type)
        for j, (k, v) in enumerate(soff.items()):
            ptr, _, ct = buf[k]
            r = args[k].count_result  # type: ignore[union-attr]
            if r is None:
                where.append((v, f"{ptr} + {lo}", "", f"(({has} >> {j}) & 1)", ct))
            elif into_scratch:
                where.append((v, f"{scratch[k]} + {me} * {cs}", f"{parts[r]}[{c}]", f"(({has} >> {j}) & 1)", ct))
            else:
                where.append((v, f"{ptr} + {at[r]}", f"{parts[r]}[{c}]", f"(({has} >> {j}) & 1)", ct))
        w(f"{ind}if ({c} + 1 < {nch}) {{")
        bits = [f"{has}"]
        for j, (v, base, cnt, bit, ct) in enumerate(where):
            k = list(soff)[j]
            last = f"({base})[{cnt or ln} - 1]"
            step = _combine(kinds[k], args[k].element_type, ct, f"{v}[{c}]", last)  # type: ignore[union-attr]
            if not cnt:
                w(f"{ind}    {v}[{c} + 1] = {bit} ? {step} : {last};")
                bits.append(f"((int64_t)1 << {j})")
            else:
                w(f"{ind}    if ({cnt} > 0)")
                w(f"{ind}        {v}[{c} + 1] = {bit} ? {step} : {last};")
                w(f"{ind}    else if ({bit})")
                w(f"{ind}        {v}[{c} + 1] = {v}[{c}];")
                bits.append(f"((int64_t)({cnt} > 0) << {j})")
        w(f"{ind}    lo_par_publish(&{sready}[{c} + 1], {' | '.join(bits)});")
        w(f"{ind}}}")
        for j, (v, base, cnt, bit, ct) in enumerate(where):
            k = list(soff)[j]
            i, off, at_ = local("lo_i"), local("lo_off"), local("lo_s")
            add = _combine(kinds[k], args[k].element_type, ct, off, f"{at_}[{i}]")  # type: ignore[union-attr]
            w(f"{ind}if ({bit}) {{")
            w(f"{ind}    const {ct} {off} = {v}[{c}];")
            w(f"{ind}    {ct} *const {at_} = {base};")
            w(f'{ind}    LO_OMP("omp simd")')
            w(f"{ind}    for (int64_t {i} = 0; {i} < {cnt or ln}; {i}++)")
            w(f"{ind}        {at_}[{i}] = {add};")
            w(f"{ind}}}")

    if not filters:
        w(f"            {call(False)}")
        if plan.scans:
            scan_chain(" " * 12, False)
    else:
        # A chunk whose place is known (every chunk before it has compacted) compacts straight
        # into the output and then publishes the next chunk's place; otherwise it compacts into
        # this thread's cache-resident scratch, waits for its place, publishes the next one and
        # copies. A chunk learns its place only after the chunk before it has returned, so no
        # two chunks write the output's same elements at once (a kernel's full-vector stores
        # past its count land where the later chunks write afterwards). Scans (of the selected
        # values, or of the whole axis) are chained after the places, before the copies.
        for r, v in foff.items():
            w(f"            int64_t {at[r]} = lo_par_peek(&{v}[{c}]);")
        w(f"            if ({' && '.join(f'{a} >= 0' for a in at.values())}) {{")
        w(f"                {call(False)}")
        for r, v in foff.items():
            w(f"                lo_par_publish(&{v}[{c} + 1], {at[r]} + {parts[r]}[{c}]);")
        if plan.scans:
            scan_chain(" " * 16, False)
        w("            } else {")
        w(f"                {call(True)}")
        for r, v in foff.items():
            w(f"                {at[r]} = lo_par_wait(&{v}[{c}]);")
            w(f"                lo_par_publish(&{v}[{c} + 1], {at[r]} + {parts[r]}[{c}]);")
        if plan.scans:
            scan_chain(" " * 16, True)
        for a in filters:
            ptr, _, ct = buf[a.index]
            cnt = f"{parts[a.count_result]}[{c}]"  # type: ignore[index]
            stream = f"{n} >= {plan.stream_bytes} / (int64_t)sizeof({ct})" if plan.stream_bytes else "0"
            w(f"                lo_par_copy({ptr} + {at[a.count_result]}, {scratch[a.index]} + {me} * {cs}, sizeof({ct}) * (size_t){cnt}, {stream});")
        w("            }")
    w("        }")
    out += keep_errno.leave()
    w("    }")
    finals = []
    for k, (rt, kind, p) in enumerate(zip(result_types, plan.results, parts, strict=True)):
        r = local(f"lo_r{k}")
        finals.append(r)
        w(f"    {rt} {r} = {p}[0];")
        w(f"    for (int64_t {c} = 1; {c} < {nch}; {c}++)")
        w(f"        {r} = {_combine(kind, results[k], rt, r, f'{p}[{c}]')};")
    out += keep_errno.after(finals)
    for v, _, _ in allocs:
        w(f"    free({v});")
    w("    lo_par_end();")
    if len(results) == 1:
        w(f"    return {finals[0]};")
    else:
        for ptr, r in zip(ret_ptrs, finals, strict=True):
            w(f"    *{ptr} = {r};")
    w("}")
    return "\n".join(out) + "\n"


def _blocks(f: FuncOp, plan: ParallelPlan, ret: str, params: list[str], count_fn: str) -> str:
    names = [_param_name(p) for p in params]
    return block_driver(f, plan, ret, params, count_fn, _namer(names), names, [_param_type(p) for p in params])


def parallelize(module: ModuleOp, code: str) -> str:
    """`code` (the printed module) with each `loop.parallel` kernel split into its serial
    chunk function and an OpenMP driver; unchanged when no kernel is parallel. A filter planned
    in super-blocks whose counting kernel the module holds (derive-filter-count) gets the
    super-block driver (targets/c_filter_blocks.py), every other kernel the driver below."""
    return with_drivers(*chunk_kernels(module, code))


def chunk_kernels(module: ModuleOp, code: str, only: Container[str] | None = None) -> tuple[str, list[str]]:
    """`code` with each `loop.parallel` kernel (of those named in `only`: a `--jobs` worker's
    share, loopopt/compile_jobs.py) renamed to its chunk function, and the kernels' drivers."""
    drivers: list[str] = []
    counters = count_kernels(module)
    for f in module.ops:
        if not isinstance(f, FuncOp) or f.is_declaration or (only is not None and f.sym_name.data not in only):
            continue
        plan = verify_parallel_plan(f)
        if plan is None:
            continue
        name = f.sym_name.data
        if re.search(rf"\b{re.escape(name)}__chunk\b", code):
            raise LoopoptDiagnostic(f"@{name}: the name {name}__chunk, which its parallel driver needs, is taken", f)
        m = _header(code, name, f)
        ret = m.group("ret")
        params = [p.strip() for p in m.group("params").split(",")] if m.group("params") != "void" else []
        end = code.find("\n}\n", m.end())  # the printer closes a function at column 0
        end = len(code) if end < 0 else end + 3
        # a `loop.call_dim` (the streaming decision of a map: the whole call's output) is the
        # chunk's last parameter (c_printer.CALL_DIM_PARAM); the driver passes its n there
        whole = any(isinstance(o, loop.CallDimOp) for o in f.walk())
        if whole:
            assert _param_name(params[-1]) == CALL_DIM_PARAM
            params = params[:-1]
        head = f"static {ret} {name}__chunk({m.group('params')})\n{{"
        code = code[: m.start()] + head + code[m.end() : end] + code[end:]
        counter = counters.get(name)
        if plan.block and counter is not None and not whole:
            if re.search(rf"\b{re.escape(name)}__copies\b", code):
                raise LoopoptDiagnostic(f"@{name}: the name {name}__copies, which its parallel driver needs, is taken", f)
            # below SCRATCH_BELOW_PARTS parts the scratch-and-copy driver, as `<k>__copies`
            copies = _driver(f, plan, ret, params, whole).replace(f"{ret} {name}(", f"static {ret} {name}__copies(", 1)
            drivers.append(copies + "\n" + _blocks(f, plan, ret, params, counter.sym_name.data))
        else:
            drivers.append(_driver(f, plan, ret, params, whole))
    return code, drivers


def with_drivers(code: str, drivers: list[str]) -> str:
    """The C file `code` with the parallel runtime after its includes and `drivers` at its end."""
    if not drivers:
        return code
    includes = list(re.finditer(r"^#include <[^>]+>\n", code, re.M))
    at = includes[-1].end() if includes else 0
    code = code[:at] + PREAMBLE + code[at:]
    return code.rstrip("\n") + "\n\n" + "\n".join(drivers)
