"""What a CPU model is, beyond its ISA: caches and the costs of the instructions whose speed
differs by vendor.

The simd TARGETS table (simd_targets.py) says what an ISA *can* do; this table says what a
given core does *fast*. convert-loop-to-simd reads it for decisions that are a matter of
speed only, never of meaning (docs/targets.md):

* AVX-512 compaction: compress to memory vs compress in a register and store
  (`compress_in_register`);
* the output size from which a map uses non-temporal stores (`stream_threshold_bytes`,
  from the last-level cache);
* a vector loop's tail: a scalar epilogue vs one masked block (`masked_tail_cost`,
  `scalar_tail_cost`).

Costs are reciprocal throughputs in core cycles per instruction, rounded; where a number
comes from is said next to it ("uops.info" = uops.info measurement tables, "Agner" = Agner
Fog's instruction tables, "issue 11" = this project's measurement on a Zen 4 host, "session 26"
on a Zen 3 one, results/amd-zen3). They only have to order the alternatives correctly, not
predict run time. Like simd_targets.py, this module does no host probing: lowering/target.py
detects the running CPU and fills in its measured caches.
"""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Caches:
    """Data cache sizes in bytes, as one core sees them."""

    l1d: int
    l2: int
    llc: int
    """The last-level cache this core can fill: the whole shared L3 (or system-level cache)
    of its cluster (a Zen CCD, an Intel socket's mesh), not a per-core slice."""
    llc_cores: int = 1
    """Cores sharing that LLC (its per-core share is llc / llc_cores)."""
    prefetch_pairs: bool = False
    """A software prefetch of one line also brings its partner in the aligned 128-byte pair
    (the L2's adjacent-line prefetcher), so a super-block filter driver prefetches every other
    line (`lo_par_prefetch`): Zen 4 (medians 4-6 % lower than every line, 5 of 5 runs, 16 Mi f32,
    2 threads). Zen 3 not (session 26, filter_block=-1, 16 Mi / 8 Mi / 4 Mi f32, 2 threads,
    SCHED_FIFO, load 16, medians of 41: every line 6.70 / 3.45 / 1.59 ms against every other
    line 9.00 / 4.71 / 1.75): false elsewhere, every line."""

    @property
    def llc_per_core(self) -> int:
        return self.llc // max(self.llc_cores, 1)


@dataclass(frozen=True)
class Costs:
    """Reciprocal throughput in cycles of the instructions whose speed differs by vendor;
    None where the CPU does not have them."""

    compress_memory: float | None = None
    """AVX-512 `vcompressps [mem]{k}, zmm` (compress to memory)."""
    compress_register: float | None = None
    """AVX-512 `vcompressps zmm{k}{z}, zmm` (compress in a register)."""
    store_512: float | None = None
    """A full 512-bit `vmovups [mem], zmm`."""
    masked_load_256: float | None = None
    """AVX2 `vmaskmovps ymm, ymm, [mem]` (masked load)."""
    masked_store_256: float | None = None
    """AVX2 `vmaskmovps [mem], ymm, ymm` (masked store)."""
    masked_load_512: float | None = None
    """AVX-512 `vmovups zmm{k}{z}, [mem]`."""
    masked_store_512: float | None = None
    """AVX-512 `vmovups [mem]{k}, zmm`."""
    gather_256: float | None = None
    """AVX2 `vgatherdps ymm` (8 lanes)."""
    gather_512: float | None = None
    """AVX-512 `vgatherdps zmm` (16 lanes)."""
    datapath_bits: int = 256
    """Width of the vector execution units: 512-bit ops on a 256-bit datapath take two
    issue slots (Zen 4 "double pumping"), so they gain registers and masks, not throughput."""
    fp_latency: float = 4.0
    """Latency of a float add / FMA: the cost per element of a dependent scalar chain
    (a reduction's scalar tail)."""
    one_block_in_l1: bool = False
    """A map (no accumulators) whose data fits the L1d runs faster one vector block an
    iteration than K-unrolled when its blocks are wider than the datapath: true on Zen 4
    (issue 11, measured for 512-bit blocks; its 256-bit blocks are faster unrolled), unknown
    (false: keep the unrolled body) elsewhere."""
    half_blocks_in_l1: int = 0
    """A map (no accumulators) whose data fits the L1d runs faster as this many datapath-wide
    (256-bit) blocks an iteration than as blocks wider than the datapath: its K-block loop is
    a loop of half as many 512-bit blocks marked `loop.split_halves` (dialects/split_halves.py),
    which the C printer prints as two 256-bit halves each. 4 on Zen 4 (issue 11, session 24: a
    512-bit load that 4K-aliases a 512-bit store still in the store queue waits for it, so at some
    buffer placements every 512-bit form runs 0.33-0.86x of the 256-bit loop; at the others they
    are 0.88-0.97x for a*x + y f32), 0 (keep the ISA's blocks) elsewhere. Before `one_block_in_l1`:
    a body the split refuses (dialects/split_halves.py's arithmetic) falls back to it."""
    half_loads_beyond_l2: bool = False
    """A map whose data exceeds the L2 runs faster loading each vector wider than the datapath
    as two datapath-wide loads (`simd.load halves`): true on Zen 4 (issue 11, measured for
    512-bit vectors: out = a*x + y 10-15% faster at 1 Mi elements, 6-9% at 16 Mi with
    streaming stores; no gain in L1, where the extra insert costs ~10%), unknown (false) elsewhere.
    Folds beyond the same limit keep 256-bit accumulators instead (`loop.split_halves`,
    dialects/split_halves.py): sums, float sums of squares, filtered integer sums."""
    quarter_loads_beyond_l1: bool = False
    """A map with one input whose data exceeds the L1d runs faster loading each vector wider than
    the datapath as four 128-bit loads (`simd.load quarters`): true on Zen 4 (issue 11, measured
    for 512-bit vectors, out = a*x + b f32/i32: 2-4% from 8 Ki to 2 Mi elements; 1.5-1.8x slower
    in L1; with two inputs, a*x + y, 2-4% slower from 64 Ki), unknown (false) elsewhere. It
    replaces the halves of `half_loads_beyond_l2` for such maps (not a streamed output's loads)."""
    fold_streams_beyond_llc: int = 0
    """A one-input fold whose data exceeds the LLC (so it comes from DRAM) runs faster with its K
    accumulator copies each walking its own quarter of the data (this many streams side by side:
    loop.for with a runtime copy stride) than with the K copies on adjacent blocks: on 4 KiB pages
    the L2 stream prefetcher stops at every page boundary, and K streams overlap K page restarts.
    4 on Zen 4 (issue 11, session 23, results/amd-zen4/fold_gap/pages4k-2026-11-27.md: 16 Mi
    sum/sumsq/filtered sum f32/i32 from 4 KiB pages 1.15-1.50x the best baseline, from 2 MiB pages
    0.99-1.03x; from the L3 0.96-0.98x, hence the LLC) and on Zen 3 (session 26, avx2 and sse2:
    1.49-1.64x from 4 KiB pages, 1.25-1.45x from 2 MiB ones, results/amd-zen3/fold_streams),
    0 (adjacent blocks) elsewhere; at every vector width (CpuModel.fold_stream_bytes). It is the
    number of read streams: a two-input fold (dot) runs half as many streams, each two adjacent
    blocks (vecloop.fold_stream_count; session 24, results/amd-zen4/dot_streams)."""
    align_loads_from_bytes: int = 0
    """A vector loop (map or reassociable fold, unit step) whose data is at least this many bytes
    and at most the LLC runs a scalar head up to its first input's 64-byte boundary first
    (lowering/loop_to_simd/align_peel.py): numpy's arrays start 16 or 32 bytes past one, so its
    512-bit loads span two cache lines. 32 KiB on Zen 4 (issue 11, session 25,
    results/amd-zen4/align_s25: folds 1.3-1.5x in the L1d, 1.02-1.09x in L2/L3, maps 1.01-1.08x;
    from DRAM ~1.0), 16 KiB on Zen 3 (session 26, results/amd-zen3/align: at numpy's 16-byte offset
    maps and dots gain 1.1-1.4x from 2 Ki elements, sums 1.1-1.25x from 2-4 Ki; at its 32-byte
    offset, which needs no head on AVX2, the size test costs up to 9% at 1 Ki, 1-6% at 2 Ki, at
    most 2% from 8 Ki),
    0 (never) elsewhere: not measured."""
    scalar_scans: frozenset[tuple[str, str, str]] = frozenset()
    """Scans (target, kind, element type) whose vector form ran slower than the scalar loop
    on this CPU: their combine has no instruction on that target (SSE2's i64 compare goes
    through memory) and a log-step scan does log2(W) + 1 or 2 combines a block. convert-loop-to-simd keeps them scalar
    (scan.scan_costs_more); unknown (empty: vectorize) elsewhere. Kind `filtered <kind>`: a
    filter → scan (predloop), whose compaction may be the slow part (none tabled since session 25)."""
    filter_blocks: tuple[int, int] | None = None
    """The output sizes [from, below) in bytes (n elements of the filter's output; below 0: no
    bound) at which a parallel filter whose only result is its count runs in super-blocks
    (targets/c_filter_blocks.py: a count pass, then each part compacted straight to its place)
    rather than chunks compacted into scratch and copied: loop-parallelize's default
    (`filter_block=-2`). None (scratch and copies at every size): not measured. Zen 4: from its
    streaming threshold (16 MiB) up, where the staged super-blocks led at 16 Mi f32/i32 in every
    run of sessions 22-25 (the lead's quiet run: 1.44-1.52x of one thread against 1.12-1.13x) and
    at 6 Mi in three of four; below it scratch + copy led at 2 Mi (9-12 %). Zen 3 (session 26,
    results/amd-zen3/threads, SCHED_FIFO, load 13-16): the other way round: super-blocks in place
    ahead at 1-3 Mi f32/i32 (medians 8-30 %), tied at 4-6 Mi, scratch + copy ahead by 30-50 % at
    8-16 Mi, where the count pass reads half of each part from memory (Zen 3 has no adjacent-line
    prefetch to bring the partner of `lo_par_prefetch`'s every other line). The lead's quiet run
    (load 1.7, 81 rounds, medians, f32 / i32): 1 Mi super-blocks 0.242 / 0.258 ms against scratch +
    copy 0.179 / 0.194 (slower than one thread, 0.202 / 0.207), 2 Mi 0.486 / 0.464 against
    0.514 / 0.512, 3 Mi 1.281 / 1.646 against 1.331 / 1.720: hence from 8 MiB of output (2 Mi f32)."""
    fork_join: float = 3000.0
    """Starting and joining an OpenMP parallel region over the machine's cores, pool warm
    (cycles): what a parallel kernel call pays on top of its work (loop-parallelize's size
    threshold, passes/loop_parallelize.sizes_for). A pool asleep after a pause costs ~5x."""


SSE2_I64_MINMAX_SCANS = frozenset({("sse2", k, "i64") for k in ("min", "max", "umin", "umax")})
"""SSE2 min/max scans of i64: SSE2 has no 64-bit compare (pcmpgtq is SSE4.2), its emulation goes
through memory, and the log-step scan does 3 of them a block where the scalar loop does one cmov
chain step an element: 5-8x slower than the scalar loop on Zen 4, the one CPU measured (session 23:
max i64 3097 vs 853 µs at 1 Mi; at 8 Ki 23 vs 4.4 µs), an instruction-count gap no CPU closes."""
ZEN4_SCALAR_SCANS = SSE2_I64_MINMAX_SCANS
"""Costs.scalar_scans of zen4 (the measurements are next to the zen4 entry). i8/i16 min/max scans
vectorize on every ISA: 3.8-9x faster than the scalar loop (session 24, docs/df.md#dfscan); so do
their filter → scans since SSE2 compacts i8/i16 lanes branch-free (targets/c_narrow_compress.py):
SSE2 at 1 Mi, half kept, 243-418 µs vs 873-880 for the scalar loop (session 25, load 14.5, 21
interleaved rounds, results/amd-zen4/scalar_paths/narrow_filtered_scans_s25.txt; session 24 had kept
them scalar, `SSE2_NARROW_FILTERED_SCANS`, when that compaction still copied bytes one by one:
1.3-19x slower than scalar then)."""


@dataclass(frozen=True)
class CpuModel:
    """One CPU as the lowering's speed decisions see it."""

    name: str
    """The `cpu=` option value."""
    vendor: str
    """intel | amd | arm | unknown."""
    title: str
    """What it is, for reports ("AMD Zen 4 (EPYC 9004, Ryzen 7000)")."""
    isas: tuple[str, ...]
    """The simd targets it runs (a `cpu=` that does not run the `target=` is an error)."""
    caches: Caches
    costs: Costs
    features: tuple[str, ...] = ()
    """ISA extensions past its targets' baseline that the printer may use where they are faster
    and give the same bits (/proc/cpuinfo names): `avx512_bf16` (f32 -> bf16, targets/c_part.py),
    `avx512_vbmi2` (i8/i16 compaction in one instruction, targets/c_narrow_compress.py)."""

    def runs(self, target: str) -> bool:
        return target in self.isas

    @property
    def stream_threshold_bytes(self) -> int:
        """Map outputs at least this large use non-temporal stores: half the LLC, so a map
        whose output and one input of the same size fit the LLC together keeps plain stores
        (they may be read again from cache); larger ones would only evict them."""
        return self.caches.llc // 2

    def short_map_bytes(self, vector_bits: int) -> int:
        """Maps that load and store at most this many bytes in all run one `vector_bits`
        block an iteration instead of K (0: always K): the L1d where `one_block_in_l1` and the
        block is wider than the datapath (so it is already two issue slots deep). Beyond the
        L1d the unrolled body with its stores after its loads wins."""
        wide = vector_bits > self.costs.datapath_bits
        return self.caches.l1d if self.costs.one_block_in_l1 and wide else 0

    def split_map_bytes(self, vector_bits: int) -> int:
        """Maps that load and store at most this many bytes in all run their K-block loop as
        `half_blocks_in_l1` datapath-wide blocks (0: never): the L1d where `half_blocks_in_l1`
        and the block is wider than the datapath."""
        wide = vector_bits > self.costs.datapath_bits
        return self.caches.l1d if self.costs.half_blocks_in_l1 and wide else 0

    def half_load_bytes(self, vector_bits: int) -> int:
        """Maps that load and store more than this many bytes in all load their `vector_bits`
        vectors as two halves (0: never): the L2 where `half_loads_beyond_l2` and the vector is
        wider than the datapath (so each half is one datapath-wide load)."""
        wide = vector_bits > self.costs.datapath_bits
        return self.caches.l2 if self.costs.half_loads_beyond_l2 and wide else 0

    def quarter_load_bytes(self, vector_bits: int) -> int:
        """One-input maps that load and store more than this many bytes in all load their
        `vector_bits` vectors as four 128-bit quarters (0: never): the L1d where
        `quarter_loads_beyond_l1` and the vector is wider than the datapath."""
        wide = vector_bits > self.costs.datapath_bits
        return self.caches.l1d if self.costs.quarter_loads_beyond_l1 and wide else 0

    def fold_stream_bytes(self) -> int:
        """One-input folds that load more than this many bytes walk their K accumulator copies as
        K streams (0: never): the LLC where `fold_streams_beyond_llc`, at every vector width (the
        page restarts they overlap are the prefetcher's, not the datapath's: on Zen 3 256-bit and
        128-bit folds gain as Zen 4's 512-bit ones, session 26, results/amd-zen3/fold_streams)."""
        return self.caches.llc if self.costs.fold_streams_beyond_llc else 0

    def compress_in_register(self) -> bool:
        """AVX-512 compaction compresses in a register and stores when that is cheaper than
        compressing to memory (a tie keeps the memory form, which writes fewer bytes)."""
        c = self.costs
        if c.compress_memory is None or c.compress_register is None or c.store_512 is None:
            return False
        return c.compress_register + c.store_512 < c.compress_memory

    def masked_tail_cost(self, target: str, loads: int, stores: int) -> float | None:
        """One masked block for a tail: its masked loads and stores, plus building the lane
        mask and blending the accumulators (2); None when the target has no masked memory ops."""
        c = self.costs
        load, store = (
            (c.masked_load_512, c.masked_store_512) if target == "avx512" else
            (c.masked_load_256, c.masked_store_256) if target == "avx2" else (None, None)
        )  # fmt: skip
        if load is None or store is None:
            return None
        return 2.0 + loads * load + stores * store

    def scalar_tail_cost(self, elements: float, float_chain: bool) -> float:
        """The scalar epilogue over `elements` elements: a float sum's or product's elements
        form one dependent chain (fp_latency each); a map's are independent and an integer
        accumulator's adds take a cycle, so about one element a cycle."""
        return elements * (self.costs.fp_latency if float_chain else 1.0)


_X86 = ("sse2", "avx2", "scalar")
_X86_512 = ("sse2", "avx2", "avx512", "scalar")

CPUS: dict[str, CpuModel] = {
    # Nothing known about the micro-architecture: decisions keep the ISA's defaults (the
    # loop's own tail), except compaction, which takes the worst case of the tabled CPUs:
    # compress in a register + store is never slower (a tie on Intel, ~27x faster than
    # compress to memory on Zen 4), so an unknown AVX-512 CPU cannot hit the 80-cycle form.
    # An 8 MiB LLC (a desktop's) keeps the 4 MiB streaming threshold loopopt used before it
    # had this table. SSE2 i64 min/max scans stay scalar: slower vector on every CPU measured
    # (SSE2_I64_MINMAX_SCANS: no 64-bit compare instruction). `target=native` never lands here on a tabled CPU (lowering/target.py).
    "generic": CpuModel(
        name="generic", vendor="unknown", title="unknown CPU (ISA defaults)",
        isas=(*_X86_512, "neon"), caches=Caches(l1d=32 * KIB, l2=512 * KIB, llc=8 * MIB),
        costs=Costs(compress_memory=80, compress_register=2, store_512=1,
                    scalar_scans=SSE2_I64_MINMAX_SCANS),
    ),
    # AMD Zen 3 (EPYC 7003 Milan, Ryzen 5000): 32 KiB L1d, 512 KiB L2, 32 MiB L3 per 8-core CCD
    # (AMD). No AVX-512. vmaskmovps store is microcoded, ~12 cycles (uops.info, Agner);
    # vmaskmovps load 1, vgatherdps ymm ~9 (uops.info).
    # fork_join: as Zen 4 (same 2-vCPU KVM setup; not measured quietly on Zen 3).
    # Session 26 (issue 11, helper zen3knobs) measured on an EPYC family 25 model 1 (Milan), 2 vCPUs
    # under KVM shared with 6 other engineers, load 10-20 (each file prints its own), paired ratios
    # t(A)/t(B) by thread CPU time, medians over 15-101 shuffled trials (results/amd-zen3/ab/harness.c):
    # masked_store_256 = 12 (kept): tail=masked vs tail=scalar, cpu=zen3 avx2, n = 1000/1003/4099, every
    # loop 64-byte aligned in both builds (results/amd-zen3/tail/run_aligned_loops.txt): maps' masked
    # tails 0.91-0.97x at 1000/1003 (the stores), so AVX2 maps keep the scalar epilogue; folds
    # 0.93-1.06x, 0.97-1.04x with 3-7 tail elements: reductions keep the masked block. (Unaligned,
    # run1.txt, the code layout alone moved sum i32 1.16-1.30x.)
    # align_loads_from_bytes: a scalar head to x's 32-byte boundary + loopopt's cpu=zen3 avx2 kernel vs
    # the kernel alone, arrays at 16 mod 64 (results/amd-zen3/align/proxy1.txt, `PROXY=1` runs of
    # run_proxy.sh): 1 Ki elements axpb/axpy f32/i32 1.03-1.90x, sum 1.15-1.21x, dot 1.30-1.66x,
    # sumsq 0.98-1.03x; 4 Ki 1.00-1.48x; 8 Ki 1.02-1.24x; 64 Ki 1.01-1.14x; 256 Ki-1 Mi within
    # noise; at offset 32 (no head: the control) 0.92-1.01x (the harness's empty head loop at 1 Ki).
    # The implementation, main's cpu=zen3 C vs a 4 KiB head, every loop 64-byte aligned in both builds
    # (results/amd-zen3/align/run3_aligned_loops.txt, load 16): offset 16, 1 Ki maps 1.03-1.38x, dot
    # 1.14-1.30x, sum 0.98-1.00x, sumsq 0.91-0.95x; 2 Ki maps 1.14-1.32x, dot 1.21-1.38x, sum
    # 1.04-1.11x, sumsq 0.94-0.98x; 8 Ki 1.03-1.25x; 64 Ki 1.00-1.13x. Offset 32 (no head needed,
    # the size test paid): 1 Ki 0.91-1.00x, 2 Ki 0.94-0.99x, 8 Ki 0.98-1.00x. Hence 16 KiB: one-input
    # folds from 4 Ki elements, maps and dots from 2 Ki. (Without the loop alignment, run1/run2, the
    # layout alone moved sum i32 0.70-0.93x and sum f32 0.72-0.89x with and without a head.)
    # fold_streams_beyond_llc: 16 Mi elements from DRAM (3 rotated copies), avx2 4 streams vs adjacent
    # blocks (results/amd-zen3/fold_streams/run1_avx2.txt): sum/sumsq f32/i32 4 KiB pages
    # 1.49-1.64x, 2 MiB pages 1.25-1.31x, dot f32/i32 (2 streams of 2 blocks) 1.16-1.19x / 1.04-1.06x;
    # sse2 (run1_sse2.txt) 1.52-1.61x / 1.33-1.45x, dot 1.17-1.21x / 1.12-1.15x; at 4 Mi (below the
    # LLC: the same code, the control) 0.96-1.03x.
    # stream_threshold_bytes (half the LLC, kept): streamed vs plain stores, axpb/axpy f32/i32, the same
    # arrays every call (results/amd-zen3/nt_stores): streaming won 1.16-1.84x from 2 MiB to 64 MiB
    # outputs (axpy from 512 KiB), because on this loaded VM the L3 kept nothing between calls (1 Mi
    # sums at DRAM speed); Zen 4 at load 1 kept 4 MiB outputs in its L3 (plain 1.76x faster at 1 Mi):
    # a quiet Zen 3 decides. Gathers (gather_256 kept): results/amd-zen3/gather, not robust either way.
    "zen3": CpuModel(
        name="zen3", vendor="amd", title="AMD Zen 3 (EPYC 7003, Ryzen 5000)", isas=_X86,
        caches=Caches(l1d=32 * KIB, l2=512 * KIB, llc=32 * MIB, llc_cores=8),
        costs=Costs(
            masked_load_256=1, masked_store_256=12, gather_256=9, datapath_bits=256, fork_join=3000,
            fold_streams_beyond_llc=4, align_loads_from_bytes=16 * KIB, filter_blocks=(8 * MIB, 16 * MIB),
        ),
    ),
    # AMD Zen 4 (EPYC 9004 Genoa, Ryzen 7000): 32 KiB L1d, 1 MiB L2, 32 MiB L3 per CCD (AMD).
    # AVX-512 on 256-bit datapaths (double-pumped). vcompressps to memory ~80 cycles (issue 11,
    # measured; uops.info lists it microcoded), in a register 2 (uops.info); masked zmm
    # loads/stores 1 (uops.info); vmaskmovps store still microcoded (~12, uops.info).
    # fork_join: empty `omp parallel` on 2 threads, libgomp pool warm: min 0.84 µs, median 1.1 µs on
    # a 2-vCPU Zen 4 KVM guest (issue 14, measured; ~3,000 cycles); ~5-7 µs with the pool asleep.
    # one_block_in_l1: out = a*x + b (f32, AVX-512) in L1, best TSC cycles a call: 1000 elements
    # 94 one block an iteration vs 116 K = 4, 4096: 412-431 vs 478-480; AVX2 blocks the other way
    # (183 vs 115 at 1000); at 16 Ki (L2) K = 4 wins when the output 4K-aliases an input (issue 11).
    # half_blocks_in_l1 (session 24, results/amd-zen4/l1maps, load 6-12, t(kernels/avx2)/t(variant),
    # buffers at 5-8 offsets mod 4 KiB, 256-2000 elements): hand loops of four ymm blocks 0.98-1.17x
    # everywhere; 512-bit loops (one block, K = 2 or 4; kernels/avx512 alike) 0.82-0.97x at most
    # placements and 0.22-0.58x at some (axpb f32 1 Ki 252 vs 55 ns, axpb i32 2000 189 vs 68,
    # axpy f32 1 Ki 261 vs 56): a 512-bit load 4K-aliasing a 512-bit store in flight waits for it.
    # loopopt split (four ymm) 0.95-1.04x of kernels/avx2 at every placement; axpb f32 one-block
    # zmm was 1.05-1.25x at its good placements (the price of the fix there: 0.93-0.99x).
    # half_loads_beyond_l2: out = a*x + y (f32/i32, AVX-512, K = 4), median ns a call, 1 Mi elements:
    # 512-bit loads 175-208k, two 256-bit loads each 157-183k (any output offset mod 4 KiB; the
    # same with 256-bit stores: it is the loads), 16 Mi streamed 5.26-5.39M vs 4.94-4.96M;
    # a*x + b (one input) within +-1% at 1 Mi; at 1000 elements the split loads cost 45 vs 41 ns.
    # quarter_loads_beyond_l1: out = a*x + b, K = 4 zmm blocks, four 128-bit loads a vector vs one
    # 512-bit load (vs two 256-bit beyond the L2), t(quarters)/t(loopopt), medians over 16 processes
    # (4 code layouts x 4 buffer placements), load 13-16 (session 22, results/amd-zen4/zen4_cells):
    # f32 8-96 Ki elements 0.960-0.979, i32 0.954-0.983; vs halves at 256 Ki-1 Mi f32 0.97-0.99,
    # i32 0.96-0.97; 2-4 Ki (L1) 1.47-1.77; a*x + y 8-32 Ki 0.98, 64-96 Ki 1.02-1.04 (two inputs: no).
    # scalar_scans: running min/max over 1 Mi elements, best of 31 interleaved, loopopt's C at -O3
    # with the target's flags vs the scalar loop at the same flags (session 21, load 2-4):
    # sse2 umax i32 619 vs 568 µs, umin i32 685 vs 568, umax i64 3507 vs 593, max i64 4856 vs 579;
    # avx2 umax i64 762 vs 577. Kept vector: sse2 min i32 510 vs 568, avx2 max i64 444 vs 570,
    # avx2 umin i32 244 vs 288, avx512 all (native unsigned and 64-bit min/max).
    # Session 22: by hand, an SSE2 umax/umin i32 scan wholly in the sign-flipped domain with
    # pshufd lane duplication for the slides runs at 373 vs 571 µs (flipping only the in-register
    # prefix: 530): results/amd-zen4/scalar_paths/sse2_scans.c. Session 23 lowers that form
    # (TargetInfo.dup_slides / flipped_unsigned_minmax / serial_minmax_carry, loop_to_simd/scan.py;
    # load 2-3): sse2 umax i32 380 vs 570 (was 621), umin 377 vs 570 (was 682), max i32 333
    # (was 513), sse2 max i64 3097 vs 853 (still scalar); avx2 umax i64 489 vs 585 (was 769),
    # umin i64 538 vs 639 (was 801): those vectorize now (docs/df.md#dfscan; at load 15:
    # results/amd-zen4/scalar_paths/minmax_scans.txt).
    # fold_streams_beyond_llc: sum/sumsq/filter_gt0_sum f32/i32, 16 Mi elements, 3 rotated copies, 21
    # interleaved trials, load 2.4-5.9, t(best of kernel library avx2/avx512, gcc)/t(variant) by CPU
    # medians (session 23, results/amd-zen4/fold_gap/pages4k): 4 streams of 2 ymm (the split fold)
    # 4 KiB pages 1.16-1.50x vs 0.86-1.07 adjacent, 2 MiB pages 0.99-1.03x; sumsq i32 (unsplit: 4
    # streams with quarter loads) 1.27x / 1.01x; 256 Ki elements (from the L3) 0.96-0.98x of adjacent.
    "zen4": CpuModel(
        name="zen4", vendor="amd", title="AMD Zen 4 (EPYC 9004, Ryzen 7000)", isas=_X86_512,
        caches=Caches(l1d=32 * KIB, l2=1 * MIB, llc=32 * MIB, llc_cores=8, prefetch_pairs=True),
        costs=Costs(
            compress_memory=80, compress_register=2, store_512=1,
            masked_load_256=1, masked_store_256=12, masked_load_512=1, masked_store_512=1,
            gather_256=8, gather_512=16, datapath_bits=256, fork_join=3000, one_block_in_l1=True, half_blocks_in_l1=4,
            half_loads_beyond_l2=True, quarter_loads_beyond_l1=True, scalar_scans=ZEN4_SCALAR_SCANS,
            fold_streams_beyond_llc=4, align_loads_from_bytes=32 * KIB, filter_blocks=(16 * MIB, 0),
        ),
        # avx512_vbmi2: i8/i16 filters compact with one vpcompressb/w in a register + a 64-byte
        # store instead of 8-byte pshufb groups (targets/c_narrow_compress.py): `x > 3` at 1 Ki, 64 Ki,
        # 1 Mi, half and 10% kept, 0.19-0.32x the time of the avx2 groups (whose avx512 form is
        # 0.88-1.08x of avx2, i16 the slow one: its word mask widens to bytes first); session 25,
        # load 6.6 and 13.9, 31 interleaved rounds each, results/amd-zen4/narrow_filters/run{1,2}.txt.
        features=("avx512_bf16", "avx512_vbmi2"),  # every Zen 4 (AMD); Zen 3 has no AVX-512
    ),
    # Intel Skylake-SP / Cascade Lake (Xeon Scalable 1st/2nd gen): 32 KiB L1d, 1 MiB L2,
    # 1.375 MiB of non-inclusive L3 per core, 38.5 MiB on a 28-core part (Intel ARK, Xeon
    # Platinum 8180). vcompressps to memory ~3, in a register 2 + store 1 (uops.info; the
    # memory form measured as fast as the register form on the benchmark host, results/);
    # masked stores 1; vgatherdps ymm ~5, zmm ~10 (uops.info).
    # fork_join: ~4 µs over a socket's cores (estimate: EPCC syncbench PARALLEL with libgomp is
    # a few µs at a few dozen threads; not measured here).
    "skylake-x": CpuModel(
        name="skylake-x", vendor="intel", title="Intel Skylake-SP / Cascade Lake (Xeon Scalable)",
        isas=_X86_512, caches=Caches(l1d=32 * KIB, l2=1 * MIB, llc=38 * MIB + 512 * KIB, llc_cores=28),
        costs=Costs(
            compress_memory=3, compress_register=2, store_512=1,
            masked_load_256=1, masked_store_256=1, masked_load_512=1, masked_store_512=1,
            gather_256=5, gather_512=10, datapath_bits=512, fork_join=10000,
        ),
    ),
    # Intel Ice Lake-SP (Xeon 3rd gen): 48 KiB L1d, 1.25 MiB L2, 1.5 MiB L3 per core, 60 MiB
    # on the 40-core 8380 (Intel ARK). Compress and masked-op costs as Skylake-SP (uops.info).
    # fork_join: ~4 µs over a socket's cores (estimate: EPCC syncbench PARALLEL with libgomp is
    # a few µs at a few dozen threads; not measured here).
    "icelake-server": CpuModel(
        name="icelake-server", vendor="intel", title="Intel Ice Lake-SP (Xeon Scalable 3rd gen)",
        isas=_X86_512, caches=Caches(l1d=48 * KIB, l2=1280 * KIB, llc=60 * MIB, llc_cores=40),
        costs=Costs(
            compress_memory=3, compress_register=2, store_512=1,
            masked_load_256=1, masked_store_256=1, masked_load_512=1, masked_store_512=1,
            gather_256=5, gather_512=8, datapath_bits=512, fork_join=10000,
        ),
    ),
    # Intel Sapphire Rapids (Xeon 4th gen): 48 KiB L1d, 2 MiB L2, 1.875 MiB L3 per core,
    # 105 MiB on the 56-core 8480+ (Intel ARK). Costs as Ice Lake (uops.info, Golden Cove).
    # fork_join: ~4 µs over a socket's cores (estimate: EPCC syncbench PARALLEL with libgomp is
    # a few µs at a few dozen threads; not measured here).
    "sapphirerapids": CpuModel(
        name="sapphirerapids", vendor="intel", title="Intel Sapphire Rapids (Xeon Scalable 4th gen)",
        isas=_X86_512, caches=Caches(l1d=48 * KIB, l2=2 * MIB, llc=105 * MIB, llc_cores=56),
        costs=Costs(
            compress_memory=3, compress_register=2, store_512=1,
            masked_load_256=1, masked_store_256=1, masked_load_512=1, masked_store_512=1,
            gather_256=5, gather_512=8, datapath_bits=512, fork_join=10000,
        ),
        features=("avx512_bf16",),  # Intel ARK (Cooper Lake had it too; Ice Lake and Cascade Lake do not)
    ),
    # Arm Neoverse N1 (AWS Graviton2, Ampere Altra): 64 KiB L1d, 1 MiB L2 per core, 32 MiB
    # system-level cache on Graviton2 (Arm TRM, AWS). NEON only: no masked memory ops, no
    # compress, no gathers; FMA latency 4 (Arm software optimization guide).
    # fork_join: ~4 µs over 64 cores (estimate, as the Intel servers; not measured here).
    "neoverse-n1": CpuModel(
        name="neoverse-n1", vendor="arm", title="Arm Neoverse N1 (Graviton2, Altra)",
        isas=("neon", "scalar"), caches=Caches(l1d=64 * KIB, l2=1 * MIB, llc=32 * MIB, llc_cores=64),
        costs=Costs(datapath_bits=128, fork_join=10000),
    ),
}
"""Every CPU model `cpu=` names, by option value."""

GENERIC = "generic"


def get_cpu(name: str) -> CpuModel:
    """The CpuModel for `name`, or a ValueError listing the known CPUs."""
    try:
        return CPUS[name]
    except KeyError:
        raise ValueError(f"unknown cpu '{name}', expected one of {', '.join(CPUS)}, native") from None
