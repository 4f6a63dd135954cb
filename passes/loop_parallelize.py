"""`loop-parallelize{threads min_elements chunk cpu stream_bytes filter_block filter_block_stream remarks}`: mark kernels whose outer axis splits
into chunks, so the C target runs them on several threads (docs/threads.md).

A kernel is split along the axis of its buffers when a call on a chunk [lo, hi) of every
buffer (offset pointers, length hi-lo) computes exactly that chunk's part of the outputs and
a partial of each scalar result. Then the C target (targets/c_parallel.py) keeps the kernel
as a static `<k>__chunk` and emits `<k>` with the same signature: an OpenMP loop over
chunks, reductions combined from per-chunk partials in chunk order, filter outputs
compacted, scans fixed up with the exclusive prefix of the chunk totals.

The pass proves that property on Loop IR (before convert-loop-to-simd) and records the plan
as the func attribute `loop.parallel` (a dictionary, `ParallelPlan`); anything it cannot
prove stays serial, with a `PAR_REJECT_*` remark under `remarks=true`:

* every buffer is rank 1 and on one axis (inputs by `loop.axes`, filter outputs by
  `loop.capacity`), but for gather sources: inputs only read at positions loaded from another
  buffer (`df.gather`'s source), which every chunk reads whole (`sources`; they are on
  another axis); no computed axes (a range's values depend on the absolute position);
* the body is constants, loop-free scalar code, `loop.dim`s used only as the upper bound of
  top-level `[0, dim)` loops (or loop.alloc sizes, or the axis guard `select(len <= len1 & ...,
  len, 0)`: the driver runs the serial kernel when a buffer is shorter than the first input),
  and top-level loops with no nested loop; a gather's loops are `[0, d)` and `[d, dim)` with
  `d = select(c, max(dim, 0), 0)`, `c` from the source's length only (an empty source reads
  nothing): every chunk takes the same branch, so each element goes through the same loop;
* in a loop, every access is at the loop variable itself, the variable has no other use;
* each accumulator is `acc <kind-op> x` (x independent of acc) whose result is returned as is
  (a reduction) or, for an add/min/max scan, whose next value is stored at [i] and nothing else;
  add/mul reductions start at the neutral constant, or continue the same reduction of an
  earlier loop (a gather's two loops), float add/mul need `reassoc`;
* each returned value is a reduction's result or a predloop's count (the filter count).

Hand-written `loop.parallel` attributes are checked for structure by `verify_parallel_plan`
(what keeps the driver's memory accesses in bounds); that the kernel really splits is what the
attribute asserts, like an `omp parallel for` pragma.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.math import FmaOp
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FixedBitwidthType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from loopopt.diagnostics import LoopoptDiagnostic, remark
from loopopt.dialects import loop
from loopopt.dialects.cpu_models import GENERIC, CpuModel, get_cpu
from loopopt.lowering import abi
from loopopt.lowering.target import CPU_NATIVE, native_cpu
from loopopt.passes.options import check_options

PARALLEL_ATTR = loop.PARALLEL_ATTR
FROM_CPU = -1
"""`chunk` / `min_elements` option value: derive it from the CPU model (`sizes_for`)."""
CPU_FILTER_BLOCKS = -2
"""`filter_block` option value (the default): super-blocks at the call sizes the CPU model's
`Costs.filter_blocks` gives (parts from its L2), scratch and copies at the others and on CPUs
without that band."""
FORK_JOIN_MARGIN = 4
"""min_elements is where the serial work costs this many fork/joins. Work W split over t
threads takes W/t + F (F the fork/join); at W = K·F that is K/(K/t + 1) times the serial
speed: break-even at K = t/(t-1) (2 for 2 threads), 1.33x at K = 4, so a work estimate off
by 2x still does not lose."""
L2_SHARE = 4
"""A chunk's elements (one of every buffer) fill at most 1/L2_SHARE of the L2: a filter
chunk's scratch stays cache-resident while the next chunk streams through."""
MAX_CHUNK = 1 << 24
BLOCK_L2S = 2
"""A filter's super-block part (what one thread counts, then compacts from the caches) holds
BLOCK_L2S L2s of input: the count brings it into the L2 and the L3, the compaction reads it back
before the next part's prefetches evict it. Zen 4 (1 MiB L2, 32 MiB L3), 16 Mi f32, 2 threads,
best of 150-200 (tools/bench/threads_filter_hand.c, load 15-22): parts of 1 / 2 / 4 MiB took
2.23 / 1.89 / 2.00 ms."""
ALIGN = 64
"""Per-thread ranges (kernels whose results do not depend on the split) are multiples of 64
elements: whole vectors of every ISA and whole cache lines of every element type."""
POSITION_FREE_LOOP_OPS = ("loop.lane_scan",)
"""Loop ops a chunk computes as the whole loop does: `loop.lane_scan` (a vectorized scan's
prefix within one block; every chunk starts at a block boundary of its own call)."""
COMBINERS = ("add", "mul", "min", "max", "umin", "umax", "and", "or", "count")
SCAN_KINDS = ("add", "min", "max", "umin", "umax")
MAX_THREADS = 1024


class ParReject(StrEnum):
    """Why a kernel stays serial (docs/threads.md lists each with an example)."""

    LOWERED = "PAR_REJECT_LOWERED"
    """The kernel is already simd IR (run loop-parallelize before convert-loop-to-simd)."""
    COMPUTED_AXIS = "PAR_REJECT_COMPUTED_AXIS"
    """An output on a computed axis (a df.range): its values depend on the absolute position."""
    RANK = "PAR_REJECT_RANK"
    """A rank-2 buffer (row loops with inner dependencies are not split yet)."""
    AXES = "PAR_REJECT_AXES"
    """Buffers on different axes, or no input buffer to take the length from."""
    STRUCTURE = "PAR_REJECT_STRUCTURE"
    """An op outside the splittable shape: a nested loop, a zip over other streams, a call,
    a range_desc loop, a loop not over [0, dim), a length used as a value."""
    ACCESS = "PAR_REJECT_ACCESS"
    """An access not at the loop variable (a stencil, a broadcast, a strided or reversed
    access) or the variable used as a value (position-dependent)."""
    REDUCTION = "PAR_REJECT_REDUCTION"
    """A carried value that is not `acc <kind-op> x` (a recurrence, a custom fold)."""
    FLOAT_ORDER = "PAR_REJECT_FLOAT_ORDER"
    """A float add/mul reduction or scan without `reassoc`: chunking reorders it."""
    INIT = "PAR_REJECT_INIT"
    """An add/mul reduction or a scan whose init is not the neutral constant (every chunk would add it)."""
    SCAN = "PAR_REJECT_SCAN"
    """A scan other than an add/min/max scan stored as is (a mul scan, a mapped prefix, an
    exclusive scan, a scan whose total is also returned)."""
    EPILOGUE = "PAR_REJECT_EPILOGUE"
    """A returned value computed after the loops (e.g. sum / n), or a loop result used again."""
    NOTHING = "PAR_REJECT_NOTHING"
    """No loop to split."""


def element_bytes(t: Attribute) -> int:
    """Bytes of one element of a buffer of `t` (i1 is a byte, index 8)."""
    if isinstance(t, IndexType):
        return 8
    bits = t.bitwidth if isinstance(t, FixedBitwidthType) else 64
    return max(1, bits // 8)


def block_for(cpu: CpuModel, input_bytes_per_element: int) -> int:
    """The elements of a filter's super-block part on `cpu` (BLOCK_L2S L2s of input), a power
    of two; 0 (the scratch-and-copy driver) when nothing is read."""
    if input_bytes_per_element <= 0:
        return 0
    part = BLOCK_L2S * cpu.caches.l2 // input_bytes_per_element
    return min(max(1 << max(part.bit_length() - 1, 0), ALIGN), MAX_CHUNK)


def sizes_for(cpu: CpuModel, bytes_per_element: int) -> tuple[int, int]:
    """(chunk, min_elements) for a kernel that moves `bytes_per_element` bytes (one element of
    each buffer) per element of its axis, on `cpu`.

    chunk: the largest power of two whose elements fill at most 1/L2_SHARE of the L2.
    min_elements: the serial work of FORK_JOIN_MARGIN fork/joins (`Costs.fork_join`), taking a
    vectorized kernel's work as moving one datapath width per cycle (the fastest a kernel runs
    from cache, so the estimate errs towards staying serial), rounded up to a power of two, and
    at least two chunks."""
    per = max(bytes_per_element, 1)
    chunk = 1 << max((cpu.caches.l2 // (L2_SHARE * per)).bit_length() - 1, 0)
    chunk = min(max(chunk, ALIGN), MAX_CHUNK)
    cycles_per_element = per / (cpu.costs.datapath_bits / 8)
    work = FORK_JOIN_MARGIN * cpu.costs.fork_join / cycles_per_element
    min_elements = 1 << max(math.ceil(work) - 1, 0).bit_length()
    return chunk, max(min_elements, 2 * chunk)


class Reject(Exception):
    def __init__(self, code: ParReject, reason: str, op: Operation):
        super().__init__(reason)
        self.code, self.reason, self.op = code, reason, op


@dataclass(frozen=True)
class ParallelPlan:
    """What `loop.parallel` records: the split axis, the chunking and how to combine."""

    axis: str
    chunk: int
    min_elements: int
    threads: int
    """At most this many threads (0: as many as the runtime allows)."""
    results: tuple[str, ...]
    """Per func result, its combiner: add mul min max and or (a reduction kind) or count."""
    scans: tuple[int, ...]
    """Argument positions of outputs holding a scan."""
    scan_kinds: tuple[str, ...] = ()
    """The kind of each scan: add (init 0), min, max, umin or umax (idempotent: any init)."""
    stream_bytes: int = 0
    """A filter output of at least this many bytes (its n elements) is copied from scratch with
    non-temporal stores (0: never): the CPU's streaming threshold, as for maps."""
    block: int = 0
    """A filter whose only result is its count runs in super-blocks of `block` elements per
    thread (each thread counts its part with the derived `<k>__count`, the counts are
    published, then it compacts the part straight to its place while prefetching its next
    part); 0: chunks compacted into scratch and copied (targets/c_parallel.py)."""
    block_stream: bool = False
    """Super-blocks whose output reaches `stream_bytes` compact each piece into an L1 stage
    and copy it with non-temporal stores (else, and below it, in place)."""
    sources: tuple[int, ...] = ()
    """Argument positions of input buffers every chunk reads whole (gather sources, on
    another axis): the driver passes them as they are, not offset to the chunk."""
    block_pairs: bool = False
    """Super-blocks prefetch every other line (the CPU's `Caches.prefetch_pairs`), else every line."""
    block_from: int = 0
    block_below: int = 0
    """Super-blocks run for calls of n elements in [block_from, block_below) (block_below 0: no
    bound), the scratch-and-copy driver (`<k>__copies`) for the others: the CPU's
    `Costs.filter_blocks` band."""

    def to_attr(self) -> DictionaryAttr:
        extra = {"block": IntegerAttr(self.block, 64)} if self.block else {}
        if self.block_stream:
            extra["block_stream"] = IntegerAttr(1, 64)
        if self.block_pairs:
            extra["block_pairs"] = IntegerAttr(1, 64)
        if self.sources:
            extra["sources"] = ArrayAttr([IntegerAttr(k, 64) for k in self.sources])
        for key, v in (("block_from", self.block_from), ("block_below", self.block_below)):
            if v:
                extra[key] = IntegerAttr(v, 64)
        return DictionaryAttr(
            {
                "axis": StringAttr(self.axis),
                "chunk": IntegerAttr(self.chunk, 64),
                "min_elements": IntegerAttr(self.min_elements, 64),
                "threads": IntegerAttr(self.threads, 64),
                "results": ArrayAttr([StringAttr(r) for r in self.results]),
                "scans": ArrayAttr([IntegerAttr(k, 64) for k in self.scans]),
                "scan_kinds": ArrayAttr([StringAttr(k) for k in self.scan_kinds]),
                "stream_bytes": IntegerAttr(self.stream_bytes, 64),
                **extra,
            }
        )


def _fail(f: func.FuncOp, message: str) -> LoopoptDiagnostic:
    return LoopoptDiagnostic(f"@{f.sym_name.data}: {PARALLEL_ATTR}: {message}", f)


def verify_parallel_plan(f: func.FuncOp) -> ParallelPlan | None:
    """The kernel's `ParallelPlan`, or None when it has none; a located error when the
    attribute is malformed or inconsistent with the kernel's ABI (what the C driver relies on
    to stay in bounds: rank-1 buffers on the axis, a combiner per result of a fitting type,
    counts exactly on the filter count results, scans on outputs)."""
    raw = f.attributes.get(PARALLEL_ATTR)
    if raw is None:
        return None
    if not isinstance(raw, DictionaryAttr):
        raise _fail(f, "must be a dictionary")
    d = raw.data
    known = {"axis", "chunk", "min_elements", "threads", "results", "scans", "scan_kinds"}
    optional = {"stream_bytes", "block", "block_stream", "block_pairs", "block_from", "block_below", "sources"}
    if not known <= set(d) <= known | optional:
        raise _fail(f, f"needs the keys {', '.join(sorted(known))} (and may have {', '.join(sorted(optional))})")

    def integer(key: str, lo: int, hi: int) -> int:
        v = d[key]
        if not isinstance(v, IntegerAttr) or not isinstance(v.value.data, int) or not lo <= v.value.data <= hi:
            raise _fail(f, f"{key} must be an integer in [{lo}, {hi}]")
        return v.value.data

    axis = d["axis"]
    if not isinstance(axis, StringAttr):
        raise _fail(f, "axis must be a string")
    chunk = integer("chunk", ALIGN, 1 << 40)
    if chunk % ALIGN:
        raise _fail(f, f"chunk = {chunk} is not a multiple of {ALIGN}")
    min_elements = integer("min_elements", 0, 1 << 62)
    threads = integer("threads", 0, MAX_THREADS)
    stream_bytes = integer("stream_bytes", 0, 1 << 62) if "stream_bytes" in d else 0
    block = integer("block", 0, 1 << 40) if "block" in d else 0
    if block % ALIGN:
        raise _fail(f, f"block = {block} is not a multiple of {ALIGN}")
    results, scans = d["results"], d["scans"]
    if not isinstance(results, ArrayAttr) or not all(isinstance(r, StringAttr) and r.data in COMBINERS for r in results):
        raise _fail(f, f"results must list one of {', '.join(COMBINERS)} per result")
    if not isinstance(scans, ArrayAttr) or not all(isinstance(k, IntegerAttr) for k in scans):
        raise _fail(f, "scans must list argument positions")
    combiners = tuple(r.data for r in results.data)  # type: ignore[attr-defined]
    scan_args = tuple(k.value.data for k in scans.data)  # type: ignore[attr-defined]
    kinds = d["scan_kinds"]
    if not isinstance(kinds, ArrayAttr) or len(kinds.data) != len(scan_args) or not all(
        isinstance(k, StringAttr) and k.data in SCAN_KINDS for k in kinds.data
    ):
        raise _fail(f, f"scan_kinds must list one of {', '.join(SCAN_KINDS)} per scan")
    scan_kinds = tuple(k.data for k in kinds.data)  # type: ignore[attr-defined]
    if abi.KERNEL not in f.attributes:
        raise _fail(f, f"only a {abi.KERNEL} func can be parallel")
    args = abi.kernel_args(f)
    if abi.computed_extents(f):
        raise _fail(f, "a kernel with computed axes cannot be split")
    outs = list(f.function_type.outputs.data)
    if len(combiners) != len(outs):
        raise _fail(f, f"results lists {len(combiners)} combiners for {len(outs)} results")
    counts = {a.count_result for a in args if isinstance(a, abi.BufferArg) and a.count_result is not None}
    raw_sources = d.get("sources", ArrayAttr([]))
    if not isinstance(raw_sources, ArrayAttr) or not all(isinstance(k, IntegerAttr) for k in raw_sources):
        raise _fail(f, "sources must list argument positions")
    sources = tuple(k.value.data for k in raw_sources.data)  # type: ignore[attr-defined]
    by_index = {a.index: a for a in args}
    for k in sources:
        a = by_index.get(k)
        if not isinstance(a, abi.BufferArg) or a.output or a.rank != 1 or sources.count(k) > 1:
            raise _fail(f, f"sources names argument #{k}, which is not a rank-1 input buffer (once)")
    has_input = False
    for a in args:
        if not isinstance(a, abi.BufferArg) or a.index in sources:
            continue
        on = a.capacity if a.capacity is not None else a.axes[0]
        if a.rank != 1 or on != axis.data:
            raise _fail(f, f"buffer {a.name!r} is not a rank-1 buffer on axis {axis.data!r}")
        has_input |= not a.output
    if not has_input:
        raise _fail(f, "needs an input buffer on the axis")
    for k, (c, t) in enumerate(zip(combiners, outs, strict=True)):
        is_int = isinstance(t, IntegerType | IndexType)
        if (c == "count") != (k in counts):
            raise _fail(f, f"result #{k} is {'a' if k in counts else 'not a'} filter count but its combiner is {c}")
        if c in ("and", "or") and not is_int:
            raise _fail(f, f"result #{k} of type {t} cannot combine with {c}")
    for k in scan_args:
        a = by_index.get(k)
        if not isinstance(a, abi.BufferArg) or not a.output:
            raise _fail(f, f"scans names argument #{k}, which is not an output buffer")
        if scan_args.count(k) > 1:
            raise _fail(f, f"scans names argument #{k} twice")
    block_stream = bool(integer("block_stream", 0, 1)) if "block_stream" in d else False
    if block_stream and not block:
        raise _fail(f, "block_stream needs block")
    block_from = integer("block_from", 0, 1 << 62) if "block_from" in d else 0
    block_below = integer("block_below", 0, 1 << 62) if "block_below" in d else 0
    block_pairs = bool(integer("block_pairs", 0, 1)) if "block_pairs" in d else False
    if (block_from or block_below or block_pairs) and not block:
        raise _fail(f, "block_from, block_below and block_pairs need block")
    if block_below and block_from >= block_below:
        raise _fail(f, f"block_from = {block_from} must be below block_below = {block_below} (an empty band)")
    if block and (combiners != ("count",) or scan_args or sources):
        raise _fail(f, "block (super-blocks) is for a filter whose only result is its count, without scans or sources")
    return ParallelPlan(axis.data, chunk, min_elements, threads, combiners, scan_args, scan_kinds, stream_bytes, block,
                        block_stream, sources, block_pairs, block_from, block_below)  # fmt: skip


# ----------------------------------------------------------------------------- analysis

KIND_OPS: dict[str, tuple[type[Operation], ...]] = {
    "add": (arith.AddiOp, arith.AddfOp),
    "mul": (arith.MuliOp, arith.MulfOp),
    "min": (arith.MinSIOp, arith.MinimumfOp),
    "max": (arith.MaxSIOp, arith.MaximumfOp),
    "umin": (arith.MinUIOp,),
    "umax": (arith.MaxUIOp,),
    "and": (arith.AndIOp,),
    "or": (arith.OrIOp,),
}


def _step_operands(kind: str, step: Operation | None, acc: SSAValue) -> list[SSAValue] | None:
    """The operands other than `acc` of an accumulator's step `acc <kind-op> x` ([x]), or, for a
    float add, of `math.fma a, b, acc` ([a, b]: acc + a*b, what loop-simplify{fma} makes of a sum
    of products such as mean+variance's sum of squares; chunked like the add it is, and like it
    only with reassoc); None when the step is neither."""
    if isinstance(step, FmaOp) and kind == "add":
        a, b, c = step.operands
        return [a, b] if c is acc and acc not in (a, b) else None
    if not isinstance(step, KIND_OPS[kind]) or acc not in step.operands:
        return None
    other = [o for o in step.operands if o is not acc]
    return other if len(other) == 1 else None


def _constant(v: SSAValue) -> int | float | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp):
        value = op.value
        if isinstance(value, IntegerAttr | FloatAttr):
            return value.value.data
    return None


def _is_neutral(kind: str, init: SSAValue) -> bool:
    c = _constant(init)
    if kind in ("min", "max", "umin", "umax", "and", "or"):
        return True  # idempotent: init ⊕ init = init, so every chunk may start from it
    return c is not None and c == (0 if kind == "add" else 1)


def _depends_on(values: set[SSAValue], block_ops: list[Operation]) -> set[SSAValue]:
    """`values` and every result computed from them, in program order."""
    out = set(values)
    for op in block_ops:
        if any(o in out for o in op.operands):
            out.update(op.results)
    return out


def _is_guard(op: Operation, dims: set[SSAValue], guard: set[Operation]) -> bool:
    """Part of `n = select(len0 <= len1 & ..., len0, 0)`: the guard of an axis several buffers
    share. The driver runs the serial kernel when a buffer is shorter than the first input, so
    in every chunk all lengths are equal and the guard holds."""
    bools = {r for g in guard if not isinstance(g, arith.SelectOp) for r in g.results}
    if isinstance(op, arith.CmpiOp):
        return op.predicate.value.data == 3 and op.lhs in dims and op.rhs in dims  # sle
    if isinstance(op, arith.AndIOp):
        return op.lhs in bools and op.rhs in bools
    if isinstance(op, arith.SelectOp):
        return op.cond in bools and op.lhs in dims and _constant(op.rhs) == 0
    return False


def _gather_sources(f: func.FuncOp, buffers: list[abi.BufferArg]) -> set[int]:
    """Argument positions of the input buffers that loops read at positions not computed from
    their variable (a gather's source: at a position loaded from another buffer); a located
    Reject when one is also read at positions computed from the variable."""
    block = f.body.block
    inputs = {block.args[a.index]: a for a in buffers if not a.output}
    direct: dict[int, Operation] = {}
    indirect: dict[int, Operation] = {}
    for op in f.walk():
        if not isinstance(op, loop.LoadOp) or op.buf not in inputs or not isinstance(op.parent_op(), loop.LoopLike):
            continue
        var = op.parent_block().args[0]  # type: ignore[union-attr]
        ((coeffs, offset),) = op.normalized_indices()
        if var not in coeffs:  # at a loaded (or constant) position
            indirect[inputs[op.buf].index] = op
        else:  # at var, or a stencil's or a strided access (_check_access rejects those)
            direct[inputs[op.buf].index] = op
    for k, op in indirect.items():
        if k in direct:
            raise Reject(ParReject.ACCESS, "a buffer read both at the loop variable and at loaded positions (a gather)", op)
    return set(indirect)


def _gather_bound(op: Operation, dims: set[SSAValue], bounds: set[SSAValue], guard: set[Operation]) -> str | None:
    """What a gather's top-level index arithmetic computes from the axis length n: "length" for
    `max(n, 0)` (n itself), "bound" for `select(c, a, b)`, a and b each n, 0 or a bound, c
    not from n (from a source's length: every chunk takes the same branch), so 0 or n; None
    for anything else."""
    if isinstance(op, arith.MaxSIOp) and {_constant(o) == 0 or o in dims for o in op.operands} == {True} and (
        any(o in dims for o in op.operands)
    ):
        return "length"
    if not isinstance(op, arith.SelectOp):
        return None
    guard_bools = {r for g in guard for r in g.results}
    if op.cond in dims or op.cond in bounds or op.cond in guard_bools:
        return None
    sides = (op.lhs, op.rhs)
    if all(v in dims or v in bounds or _constant(v) == 0 for v in sides) and any(v in dims or v in bounds for v in sides):
        return "bound"
    return None


def _continues(acc: loop.Accumulator, loops: list[loop.LoopLike]) -> bool:
    """`acc` starts from an accumulator of an earlier loop that `_continued_by` it."""
    owner = acc.init.owner
    return isinstance(owner, loop.LoopLike) and owner in loops and any(
        a.result is acc.init and _continued_by(a, loops) for a in owner.accumulators)


def _continued_by(acc: loop.Accumulator, loops: list[loop.LoopLike]) -> bool:
    """`acc`'s result is used once, as the init of a later loop's accumulator of the same kind,
    reassoc and type: the reduction goes on over the next range (a gather's second loop)."""
    uses = list(acc.result.uses)
    if len(uses) != 1 or not isinstance(later := uses[0].operation, loop.LoopLike) or later not in loops:
        return False
    return any(b.init is acc.result and b.kind == acc.kind and b.reassoc == acc.reassoc and not b.scan and not acc.scan
               for b in later.accumulators)


class _Analysis:
    def __init__(self, f: func.FuncOp, chunk: int, min_elements: int, threads: int, stream_bytes: int, block: int = 0,
                 block_stream: bool = False, block_band: tuple[int, int] = (0, 0), block_pairs: bool = False):  # fmt: skip
        self.f = f
        self.chunk, self.min_elements, self.threads, self.stream_bytes = chunk, min_elements, threads, stream_bytes
        self.block, self.block_stream, self.block_band, self.block_pairs = block, block_stream, block_band, block_pairs

    def run(self) -> ParallelPlan:
        f = self.f
        args = abi.kernel_args(f)
        if abi.computed_extents(f):
            raise Reject(ParReject.COMPUTED_AXIS, "an output is on a computed axis (a range)", f)
        buffers = [a for a in args if isinstance(a, abi.BufferArg)]
        for a in buffers:
            if a.rank != 1:
                raise Reject(ParReject.RANK, f"buffer {a.name!r} has rank {a.rank}", f)
        block = f.body.block
        sources = _gather_sources(f, buffers)
        inputs = [a for a in buffers if not a.output and a.index not in sources]
        if not inputs:
            raise Reject(ParReject.AXES, "no input buffer gives the length", f)
        axis = inputs[0].axes[0]
        for a in buffers:
            on = a.capacity if a.capacity is not None else a.axes[0]
            if a.index in sources and on == axis:
                raise Reject(ParReject.ACCESS, f"a gather from buffer {a.name!r}, which is on the split axis {axis!r}: "
                             "a chunk holds only its part of it", f)
            if on != axis and a.index not in sources:
                raise Reject(ParReject.AXES, f"buffer {a.name!r} is on axis {on!r}, not {axis!r}", f)
        arg_bufs = {block.args[a.index] for a in buffers}
        self.source_bufs = {block.args[k] for k in sources}
        capacity_outs = {block.args[a.index]: a for a in buffers if a.capacity is not None}
        dims: set[SSAValue] = set()
        bounds: set[SSAValue] = set()  # select(c, dim or 0, dim or 0), c from sources' lengths: 0 or the length
        bound_ops: set[Operation] = set()
        guard: set[Operation] = set()  # the input axis guard (df_to_loop/kernel.py guard_input_axes)
        local_bufs = set(arg_bufs)
        loops: list[loop.LoopLike] = []
        loop_results: set[SSAValue] = set()
        ret: func.ReturnOp | None = None
        for op in block.ops:
            if isinstance(op, loop.DimOp):
                if op.buf not in arg_bufs:
                    raise Reject(ParReject.STRUCTURE, "loop.dim of a buffer that is not an argument", op)
                if op.buf not in self.source_bufs:  # a source's length is the same in every chunk
                    dims.add(op.result)
            elif isinstance(op, loop.AllocOp):
                if any(s not in dims for s in op.sizes):
                    raise Reject(ParReject.STRUCTURE, "an intermediate not sized by the axis length", op)
                local_bufs.add(op.result)
            elif isinstance(op, loop.DeallocOp):
                pass
            elif isinstance(op, loop.LoopLike):
                self._check_loop(op, dims | bounds, local_bufs, capacity_outs)
                loops.append(op)
                loop_results.update(op.results)
            elif isinstance(op, func.ReturnOp):
                ret = op
            elif _is_guard(op, dims, guard):
                guard.add(op)
                if isinstance(op, arith.SelectOp):
                    dims.add(op.result)  # select(fits, len, 0): the axis length loops use
            elif (kind := _gather_bound(op, dims, bounds, guard)) is not None:
                bound_ops.add(op)
                (dims if kind == "length" else bounds).add(op.result)
            elif op.dialect_name() in ("arith", "math") and not op.regions:
                if any(o in dims or o in bounds or o in loop_results for o in op.operands):
                    what = "a length" if any(o in dims for o in op.operands) else "a loop result"
                    raise Reject(ParReject.EPILOGUE, f"{what} is used as a value ({op.name})", op)
            else:
                raise Reject(ParReject.STRUCTURE, f"{op.name} at the top of the kernel", op)
        if not loops:
            raise Reject(ParReject.NOTHING, "the kernel has no loop", f)
        # dims only as loop bounds / alloc sizes (checked by their users above and in _check_loop)
        for d in dims | bounds:
            for use in d.uses:
                o = use.operation
                ok = (isinstance(o, loop.LoopLike) and use.index < 2 and d in (o.lower, o.upper)) or o in bound_ops
                ok = ok or (d in dims and (isinstance(o, loop.AllocOp) or o in guard))
                if not ok:
                    raise Reject(ParReject.STRUCTURE, f"the axis length is used by {o.name}", o)
        assert ret is not None
        results: list[str] = []
        scans: dict[int, str] = {}
        count_of = {a.count_result: block.args[a.index] for a in buffers if a.count_result is not None}
        for k, v in enumerate(ret.arguments):
            results.append(self._result_combiner(k, v, count_of, ret))
        for L in loops:
            for acc in L.accumulators:
                chained = _continued_by(acc, loops)
                if acc.result.uses and not chained and not all(u.operation is ret for u in acc.result.uses):
                    raise Reject(ParReject.EPILOGUE, "a loop result is used after the loop", L)
                stored = self._check_accumulator(L, acc, _continues(acc, loops))
                if stored:
                    if acc.result.uses:
                        raise Reject(ParReject.SCAN, "a scan whose total is also returned", L)
                    for s in stored:
                        k = block.args.index(s) if s in block.args else -1
                        if k < 0:
                            raise Reject(ParReject.SCAN, "a scan stored to an intermediate", L)
                        if (s in capacity_outs) != isinstance(L, loop.PredLoopOp):
                            raise Reject(ParReject.SCAN, "a scan of the whole axis stored to a filter output, or the reverse", L)
                        if k in scans:
                            raise Reject(ParReject.SCAN, "one output holds two scans", f)
                        for use in s.uses:  # chunks are fixed up only after every loop of the kernel ran
                            if not isinstance(use.operation, loop.DimOp) and not L.is_ancestor(use.operation):
                                raise Reject(ParReject.SCAN, "a scan's output is read again in the kernel", use.operation)
                        scans[k] = acc.kind.value
            if isinstance(L, loop.PredLoopOp):
                count = L.res[0]
                if count.uses and not all(u.operation is ret for u in count.uses):
                    raise Reject(ParReject.EPILOGUE, "a filter count is used after the loop", L)
        for out_arg, a in capacity_outs.items():
            pos = a.count_result
            if pos is None or count_of.get(pos) is not out_arg or not isinstance(ret.arguments[pos].owner, loop.PredLoopOp):
                raise Reject(ParReject.STRUCTURE, f"filter output {a.name!r} is not counted by its predloop", ret)
            writer = ret.arguments[pos].owner
            for use in out_arg.uses:
                o = use.operation
                if not (isinstance(o, loop.AppendOp) and o.parent_op() is writer):
                    raise Reject(ParReject.STRUCTURE, f"filter output {a.name!r} is used by {o.name} outside its predloop", o)
        order = sorted(scans)
        blocks = self.block if tuple(results) == ("count",) and not scans and not sources else 0
        return ParallelPlan(
            axis, self.chunk, self.min_elements, self.threads, tuple(results), tuple(order),
            tuple(scans[k] for k in order), self.stream_bytes if capacity_outs else 0, blocks,
            self.block_stream and blocks > 0, tuple(sorted(sources)), self.block_pairs and blocks > 0,
            *(self.block_band if blocks else (0, 0)),
        )  # fmt: skip

    def _result_combiner(self, k: int, v: SSAValue, count_of: dict[int, SSAValue], ret: Operation) -> str:
        owner = v.owner
        if isinstance(owner, loop.PredLoopOp) and v is owner.res[0]:
            if k not in count_of:
                raise Reject(ParReject.EPILOGUE, f"result #{k} is a count no output is trimmed to", ret)
            return "count"
        if k in count_of:
            raise Reject(ParReject.EPILOGUE, f"result #{k} is a filter count not computed by a predloop", ret)
        if isinstance(owner, loop.LoopLike) and v in owner.acc_results:
            acc = owner.accumulators[owner.acc_results.index(v)]
            return acc.kind.value
        raise Reject(ParReject.EPILOGUE, f"result #{k} is computed after the loops", ret)

    def _check_loop(
        self, L: loop.LoopLike, dims: set[SSAValue], local_bufs: set[SSAValue], capacity_outs: dict
    ) -> None:
        if isinstance(L, loop.ZipOp):
            if any(s not in local_bufs or s in capacity_outs for s in L.streams):
                raise Reject(ParReject.STRUCTURE, "a zip over a stream that is not a buffer on the axis", L)
        if not L.is_interval:
            raise Reject(ParReject.STRUCTURE, "a range_desc loop", L)
        if (_constant(L.lower) != 0 and L.lower not in dims) or L.upper not in dims:
            raise Reject(ParReject.STRUCTURE, "a loop not over [0, length of the axis)", L)
        regions = [L.body] + ([L.pred] if isinstance(L, loop.PredLoopOp) else [])
        for region in regions:
            var = region.block.args[0]
            for op in region.walk():
                if op.regions and op is not L:
                    raise Reject(ParReject.STRUCTURE, f"{op.name} nested in a loop", op)
                if isinstance(op, loop.LoadOp | loop.StoreOp):
                    self._check_access(op, var, local_bufs, capacity_outs)
                elif isinstance(op, loop.AppendOp):
                    if op.out not in capacity_outs:
                        raise Reject(ParReject.STRUCTURE, "an append to a buffer that is not a filter output", op)
                elif isinstance(op, loop.YieldOp) or op.name in POSITION_FREE_LOOP_OPS:
                    pass
                elif op.dialect_name() not in ("arith", "math"):
                    raise Reject(ParReject.STRUCTURE, f"{op.name} in a loop body", op)
                if any(o in dims for o in op.operands):
                    raise Reject(ParReject.STRUCTURE, "the axis length is used in a loop body", op)
            for use in var.uses:
                o = use.operation
                first_index = 1 if isinstance(o, loop.LoadOp) else 2
                if not isinstance(o, loop.LoadOp | loop.StoreOp) or use.index < first_index:
                    raise Reject(ParReject.ACCESS, f"the loop variable is used as a value by {o.name}", o)

    def _check_access(self, op: loop.LoadOp | loop.StoreOp, var: SSAValue, local_bufs: set, capacity_outs: dict) -> None:
        if op.buf not in local_bufs or op.buf in capacity_outs:
            raise Reject(ParReject.ACCESS, "an access to a buffer that is not on the axis", op)
        if op.buf in self.source_bufs:  # _gather_sources: a load at a loaded position, never at var
            if isinstance(op, loop.StoreOp):
                raise Reject(ParReject.ACCESS, "a store to a gather source", op)
            return
        ((coeffs, offset),) = op.normalized_indices()
        if offset != 0 or coeffs != {var: 1}:
            raise Reject(ParReject.ACCESS, "an access not at the loop variable", op)

    def _check_accumulator(self, L: loop.LoopLike, acc: loop.Accumulator, continues: bool = False) -> list[SSAValue] | None:
        """Check `acc` is `acc <kind-op> x`; the buffers its running value is stored to (a scan)
        or None (a reduction). `continues`: its init is the same reduction's result of an earlier
        loop (checked there), not a constant."""
        kind = acc.kind.value
        if kind not in KIND_OPS:
            raise Reject(ParReject.REDUCTION, f"a {kind} accumulator (a sequential fold)", L)
        nxt = acc.next
        if continues and nxt is acc.arg and all(u.operation is L.yield_op for u in acc.arg.uses):
            return None  # carried through unchanged (a gather's zero-fill loop after loop-simplify)
        step = nxt.owner if nxt is not None else None
        other = _step_operands(kind, step, acc.arg)
        body_ops = list(L.body.block.ops)
        dependent = _depends_on({acc.arg}, body_ops)
        if other is None or any(o in dependent for o in other):
            raise Reject(ParReject.REDUCTION, f"the carried value's step is not acc {kind} x", L)
        is_float = not isinstance(acc.arg.type, IntegerType | IndexType)
        if isinstance(step, FmaOp) and any(u.operation is not L.yield_op for u in nxt.uses):  # type: ignore[union-attr]
            raise Reject(ParReject.SCAN, "a scan whose step is an fma (only fma reductions are split)", L)
        if is_float and kind in ("add", "mul") and not acc.reassoc:
            raise Reject(ParReject.FLOAT_ORDER, f"a float {kind} without reassoc", L)
        if not continues and not _is_neutral(kind, acc.init):
            raise Reject(ParReject.INIT, f"the {kind} accumulator's init is not the constant neutral element", L)
        stored: list[SSAValue] = []
        for use in acc.arg.uses:
            if use.operation is not step:
                raise Reject(ParReject.REDUCTION, "the accumulator is used other than in its step", use.operation)
        for use in nxt.uses:  # type: ignore[union-attr]
            o = use.operation
            if o is L.yield_op:
                continue
            if isinstance(o, loop.StoreOp) and use.index == 0:
                stored.append(o.buf)
                continue
            if isinstance(o, loop.AppendOp) and use.index == 0:  # a scan of the filtered values
                stored.append(o.out)
                continue
            raise Reject(ParReject.SCAN, f"the running value is used by {o.name}", o)
        if not stored:
            return None
        if continues:
            raise Reject(ParReject.SCAN, "a scan continued from an earlier loop's total", L)
        if kind not in SCAN_KINDS:
            raise Reject(ParReject.SCAN, f"a {kind} scan (add, min, max, umin and umax scans are split)", L)
        if kind == "add" and _constant(acc.init) != 0:
            raise Reject(ParReject.INIT, "an add scan whose init is not 0", L)
        return stored


def plan_kernel(f: func.FuncOp, chunk: int = FROM_CPU, min_elements: int = FROM_CPU, threads: int = 0,
                cpu: CpuModel | None = None, stream_bytes: int = FROM_CPU, block: int = 0,
                block_stream: bool = False, block_band: tuple[int, int] = (0, 0)) -> ParallelPlan:  # fmt: skip
    """The plan of kernel `f`; raises `Reject` when it cannot be split. `chunk`,
    `min_elements`, `stream_bytes` and `block` as given, or FROM_CPU: `sizes_for` the CPU,
    its streaming threshold and `block_for` it; `block_band`: the output bytes [from, below)
    at which super-blocks run (`Costs.filter_blocks`; (0, 0): every size), in elements of the
    filter's output in the plan (    generic when None)."""
    if any(o.dialect_name() == "simd" for o in f.walk()):
        raise Reject(ParReject.LOWERED, "the kernel is already lowered to simd", f)
    model = cpu or get_cpu(GENERIC)
    if chunk == FROM_CPU or min_elements == FROM_CPU:
        per = sum(element_bytes(a.element_type) for a in abi.kernel_args(f) if isinstance(a, abi.BufferArg))
        cpu_chunk, cpu_min = sizes_for(model, per)
        chunk = cpu_chunk if chunk == FROM_CPU else chunk
        min_elements = cpu_min if min_elements == FROM_CPU else min_elements
    if stream_bytes == FROM_CPU:
        stream_bytes = model.stream_threshold_bytes
    if block == FROM_CPU:
        block = block_for(model, sum(element_bytes(a.element_type) for a in abi.kernel_args(f) if isinstance(a, abi.BufferArg) and not a.output))
    outs = [element_bytes(a.element_type) for a in abi.kernel_args(f) if isinstance(a, abi.BufferArg) and a.capacity is not None]
    band = (block_band[0] // outs[0], block_band[1] // outs[0]) if outs else (0, 0)
    return _Analysis(f, chunk, min_elements, threads, stream_bytes, block, block_stream, band, model.caches.prefetch_pairs).run()


@dataclass(frozen=True)
class LoopParallelizePass(ModulePass):
    """Mark every kernel that splits along its axis with `loop.parallel` (see the module docstring)."""

    name = "loop-parallelize"

    threads: int = 0
    """At most this many threads per call (0: what the runtime allows: LOOPOPT_NUM_THREADS,
    loopopt.set_num_threads, else the cores). 1 marks nothing."""
    min_elements: int = FROM_CPU
    """Calls on fewer elements run the serial kernel (-1: from the CPU's fork/join cost, `sizes_for`)."""
    chunk: int = FROM_CPU
    """Elements per chunk when results depend on the split (float reductions and scans), and
    for filters (-1: from the CPU's L2, `sizes_for`)."""
    cpu: str = ""
    """The CPU model the sizes come from (dialects/cpu_models.py name or native; "": generic)."""
    stream_bytes: int = FROM_CPU
    """Filter outputs of at least this many bytes are copied from scratch with non-temporal
    stores; 0 never; -1 the CPU's streaming threshold (half its LLC, as maps)."""
    filter_block: int = CPU_FILTER_BLOCKS
    """Filters whose only result is the count run in super-blocks of this many elements per
    thread, counted first by a derived counting kernel (`derive-filter-count`), at every call
    size; -1: parts from the CPU's L2 (`block_for`), at every size; -2 (the default): parts from
    the L2 at the call sizes of the CPU's `Costs.filter_blocks` band (Zen 4: outputs from its
    streaming threshold up; Zen 3: below it), chunks compacted into scratch and copied at the
    others and on CPUs without a band (generic); 0: scratch and copies at every size
    (docs/threads.md). A multiple of 64."""
    filter_block_stream: bool = True
    """Super-blocks write an output of at least stream_bytes through an L1 stage with
    non-temporal copies; false: straight into the output at every size (faster when it runs
    well, but seen 2-6x slower than one thread in some 16 Mi runs; docs/threads.md)."""
    remarks: bool = False
    """Print a PAR_REJECT_* remark for every kernel left serial."""

    def __post_init__(self) -> None:
        check_options(self)
        if self.filter_block > 0 and self.filter_block % ALIGN:
            raise LoopoptDiagnostic(f"loop-parallelize: filter_block = {self.filter_block} is not a multiple of {ALIGN}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.threads == 1:
            return
        cpu = cpu_model(self.cpu)
        for f in op.ops:
            if not isinstance(f, func.FuncOp) or f.is_declaration or abi.KERNEL not in f.attributes:
                continue
            f.attributes.pop(PARALLEL_ATTR, None)
            block, band = self.filter_block, (0, 0)
            if block == CPU_FILTER_BLOCKS:
                block, band = (FROM_CPU, cpu.costs.filter_blocks) if cpu.costs.filter_blocks else (0, (0, 0))
            try:
                plan = plan_kernel(f, self.chunk, self.min_elements, self.threads, cpu, self.stream_bytes, block,
                                   self.filter_block_stream, band)  # fmt: skip
            except Reject as r:
                if self.remarks:
                    remark(r.op, r.code.value, f"@{f.sym_name.data} stays serial: {r.reason}")
                continue
            f.attributes[PARALLEL_ATTR] = plan.to_attr()


def cpu_model(name: str) -> CpuModel:
    """The CpuModel of a `cpu=` value ("" is generic; native detects this machine's)."""
    return native_cpu() if name == CPU_NATIVE else get_cpu(name or GENERIC)
