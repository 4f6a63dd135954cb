"""The look-back driver of a parallel filter (loop-parallelize{filter_block_lookback}; docs/threads.md,
"Filters with look-back").

For a kernel planned with `loop.parallel`'s `block` and `block_lookback` (a filter whose only
result is its count) and its counting kernel `<k>__count` (only for a thread that finds a count
missing), `<k>` is:

```
parts of `block` elements: part c is thread (c mod team)'s, in increasing order
each thread, for its parts c, alternating between its two stages:
    compact part c piece by piece into the stage (nothing needs its place);
      after each piece: add up the counts before the pending part p (the thread's part before
      c) that are published, without waiting; once p's place is known, store the partial lines
      at its ends plainly and stream its next share of whole lines from the other stage
    publish cnt[c]
    finish p: wait briefly for each count still missing (count that part itself when its
      thread is parked), then the rest of its lines and one sfence
  finish the last part
  count = the sum of cnt, in part order
```
The input is read from memory once, by the compaction (the hardware prefetchers stream it as
for one thread), the output written once, whole lines non-temporally from `stream_bytes` on;
the stages stay in the L2 (two parts' output, `lookback_block_for`). Against the super-block
driver it drops the count over the caches (a part read twice more, from the L3: +0.36 ms per
thread at 16 Mi f32) and the prefetches; against scratch + copy the copies overlap the next
part's reads instead of following them. A thread waits only when the other is a whole part
behind (the counts it needs are those of the part before its pending one), and only ~20 µs.
The places are sums of the same counts in the same order: the serial output for every thread
count and timing.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.func import FuncOp

from loopopt.passes.loop_parallelize import ParallelPlan
from loopopt.targets.c_filter_blocks import (
    PAGE, DriverArgs, DriverErrno, abi_bytes, part_epilogue, part_prologue, piece_elements,
)  # fmt: skip

PREAMBLE = r"""/* A look-back part's output on its way from its thread's stage to its place
   (targets/c_filter_lookback.py): `lines` whole 64-byte lines from d, `done` of them written. */
typedef struct { char *d; const char *s; size_t lines, done; _Bool stream; } lo_par_out;
/* The partial lines at both ends of dst's `bytes` go now, with plain stores (the neighbouring
   parts' threads write their other bytes); stored first, their reads for ownership are over
   when the part's sfence comes. */
static inline void lo_par_out_begin(lo_par_out *o, void *dst, const void *src, size_t bytes, _Bool stream)
{
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)((0u - (uintptr_t)d) & 63u);
    if (head > bytes)
        head = bytes;
    size_t whole = (bytes - head) & ~(size_t)63;
    memcpy(d, s, head);
    memcpy(d + head + whole, s + head + whole, bytes - head - whole);
    o->d = d + head, o->s = s + head, o->lines = whole / 64, o->done = 0, o->stream = stream;
}
/* The whole lines up to line `upto`: non-temporal stores when streaming. */
static inline void lo_par_out_lines(lo_par_out *o, size_t upto)
{
    if (upto > o->lines)
        upto = o->lines;
    if (upto <= o->done)
        return;
    char *d = o->d + 64 * o->done;
    const char *s = o->s + 64 * o->done;
    size_t bytes = 64 * (upto - o->done);
    o->done = upto;
#if defined(__AVX512F__)
    if (o->stream) {
        for (size_t i = 0; i < bytes; i += 64)
            _mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
        return;
    }
#elif defined(__SSE2__)
    if (o->stream) {
        for (size_t i = 0; i < bytes; i += 16)
            _mm_stream_si128((__m128i *)(d + i), _mm_loadu_si128((const __m128i *)(s + i)));
        return;
    }
#endif
    memcpy(d, s, bytes);
}
static inline void lo_par_out_end(lo_par_out *o)
{
    lo_par_out_lines(o, o->lines);
#ifdef __SSE2__
    if (o->stream)
        _mm_sfence();
#endif
}
"""


def lookback_driver(
    f: FuncOp, plan: ParallelPlan, ret: str, params: list[str], count_fn: str,
    local: Callable[[str], str], names: list[str], types: list[str],
) -> str:  # fmt: skip
    """The driver `<k>` of a look-back filter: `<k>__chunk` compacts, `count_fn` counts a part
    whose thread is late. `names`/`types`: the C parameters' names and element types."""
    name = f.sym_name.data
    chunk_fn = f"{name}__chunk"
    da = DriverArgs.of(f, names, types)
    buf, call, filters = da.buf, da.call, da.filters
    piece = piece_elements(sum(abi_bytes(a) for a in da.inputs))
    cnt, c, r, me, nt, base, seen, pc, pr, pk, on, lo, ln, j, pl, k, v, sl, sn, stream, total, ok = (
        local(x) for x in ("lo_cnt", "lo_c", "lo_r", "lo_me", "lo_nt", "lo_base", "lo_seen", "lo_pc", "lo_pr",
                           "lo_pk", "lo_on", "lo_lo", "lo_len", "lo_j", "lo_pl", "lo_k", "lo_v", "lo_slo", "lo_slen",
                           "lo_stream", "lo_total", "lo_ok"))  # fmt: skip
    stage = {a.index: local(f"lo_stage_{buf[a.index][0]}") for a in filters}
    sink = {a.index: local(f"lo_o_{buf[a.index][0]}") for a in filters}
    quota = {a.index: local(f"lo_q_{buf[a.index][0]}") for a in filters}
    # a part's stage: `block` elements (the chunk kernel's capacity is the piece), whole pages
    stride = {a.index: -(-(plan.block * abi_bytes(a)) // PAGE) * PAGE // abi_bytes(a) for a in filters}

    def at(a, which: str) -> str:
        return f"{stage[a.index]} + (2 * {me} + {which}) * {stride[a.index]}"

    out, pro = part_prologue(f, plan, ret, params, local, names, da)
    w = out.append
    ct0 = buf[filters[0].index][2]
    stream_on = f"{pro.n} >= {plan.stream_bytes} / (int64_t)sizeof({ct0})" if plan.stream_bytes > 0 else "0"
    w(f"    const _Bool {stream} = {stream_on};")
    keep_errno = DriverErrno.of(f, local)
    out += keep_errno.save()
    w(f"    int64_t *{cnt} = malloc(sizeof(int64_t) * (size_t){pro.nch});")
    allocs = [cnt]
    for a in filters:
        ct = buf[a.index][2]
        w(f"    {ct} *{stage[a.index]} = aligned_alloc({PAGE}, sizeof({ct}) * (size_t){stride[a.index]} * 2 * (size_t){pro.t});")
        allocs.append(stage[a.index])
    w(f"    const _Bool {ok} = {' && '.join(allocs)};")
    w(f"    if (!{ok}) {{")
    for x in allocs:
        w(f"        free({x});")
    w("        lo_par_end();")
    w(f"        {keep_errno.restore()}")
    w(f"        {pro.serial}")
    w("    }")
    w(f"    for (int64_t {c} = 0; {c} < {pro.nch}; {c}++)")
    w(f"        {cnt}[{c}] = -1;")
    w(f'    LO_OMP("omp parallel num_threads({pro.t})")')
    w("    {")
    out += keep_errno.enter()
    w(f"        const int64_t {me} = lo_par_thread_num(), {nt} = lo_par_team();")
    # base = cnt[0] + ... + cnt[seen - 1]; the pending part pc (-1: none) in stage pr, pk elements;
    # on: its place is known (seen == pc) and its sinks began
    w(f"        int64_t {base} = 0, {seen} = 0, {pc} = -1, {pr} = 0, {pk} = 0, {on} = 0;")
    for a in filters:
        w(f"        lo_par_out {sink[a.index]} = {{0}};")
        w(f"        size_t {quota[a.index]} = 0;")

    def begin(ind: str, pieces: str | None) -> None:
        """The pending part's place is out + base: its partial lines, and its share of lines per
        piece of the part being compacted (`pieces`; None: all of them now)."""
        for a in filters:
            ptr, _, ct = buf[a.index]
            s, q = sink[a.index], quota[a.index]
            w(f"{ind}lo_par_out_begin(&{s}, {ptr} + {base}, {at(a, pr)}, sizeof({ct}) * (size_t){pk}, {stream});")
            if pieces:
                w(f"{ind}{q} = ({s}.lines + {pieces} - 1) / {pieces};")

    def finish(ind: str) -> None:
        """The pending part's place, waiting (briefly) for the counts before it, then its lines."""
        w(f"{ind}if ({pc} >= 0 && !{on}) {{")
        w(f"{ind}    for (; {seen} < {pc}; {seen}++) {{")
        w(f"{ind}        int64_t {v} = lo_par_wait_briefly(&{cnt}[{seen}]);")
        w(f"{ind}        if ({v} < 0) {{")
        w(f"{ind}            const int64_t {sl} = {seen} * {pro.cs}, {sn} = {pro.n} - {sl} < {pro.cs} ? {pro.n} - {sl} : {pro.cs};")
        w(f"{ind}            {v} = {call(count_fn, sl, sn, lambda a: (buf[a.index][0], sn))};")
        w(f"{ind}            lo_par_publish(&{cnt}[{seen}], {v});")
        w(f"{ind}        }}")
        w(f"{ind}        {base} += {v};")
        w(f"{ind}    }}")
        begin(ind + "    ", None)
        w(f"{ind}}}")
        w(f"{ind}if ({pc} >= 0) {{")
        for a in filters:
            w(f"{ind}    lo_par_out_end(&{sink[a.index]});")
        w(f"{ind}    {on} = 0;")
        w(f"{ind}}}")

    # one pass more than the thread's parts: the last finishes its last part
    w(f"        for (int64_t {c} = {me}, {r} = 0;; {c} += {nt}, {r} ^= 1) {{")
    w(f"            int64_t {k} = 0;")
    w(f"            if ({c} < {pro.nch}) {{")
    w(f"                const int64_t {lo} = {c} * {pro.cs};")
    w(f"                const int64_t {ln} = {pro.n} - {lo} < {pro.cs} ? {pro.n} - {lo} : {pro.cs};")
    w(f"                for (int64_t {j} = 0; {j} < {ln}; {j} += {piece}) {{")
    w(f"                    const int64_t {pl} = {ln} - {j} < {piece} ? {ln} - {j} : {piece};")
    staged = call(chunk_fn, f"{lo} + {j}", pl, lambda a: (f"{at(a, r)} + {k}", pl))
    w(f"                    {k} += {staged};")
    # the counts before the pending part that are out, without waiting
    w(f"                    if ({pc} >= 0 && !{on}) {{")
    w(f"                        for (int64_t {v}; {seen} < {pc} && ({v} = lo_par_peek(&{cnt}[{seen}])) >= 0; {seen}++)")
    w(f"                            {base} += {v};")
    w(f"                        if ({seen} == {pc}) {{")
    begin("                            ", f"(({ln} + {piece - 1}) / {piece})")
    w(f"                            {on} = 1;")
    w("                        }")
    w("                    }")
    w(f"                    if ({on}) {{")
    for a in filters:
        w(f"                        lo_par_out_lines(&{sink[a.index]}, {quota[a.index]} * (size_t)({j} / {piece} + 1));")
    w("                    }")
    w("                }")
    w(f"                lo_par_publish(&{cnt}[{c}], {k});")
    w("            }")
    finish("            ")
    w(f"            if ({c} >= {pro.nch})")
    w("                break;")
    w(f"            {pc} = {c}, {pr} = {r}, {pk} = {k};")
    w("        }")
    return part_epilogue(out, keep_errno, ret, cnt, pro.nch, c, total, allocs)
