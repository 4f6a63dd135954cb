"""`convert-loop-to-simd{target=...}`: vector loops at a concrete width on one ISA (seed 000 §3).

The input's `loop.vecloop` / `loop.predloop` ops have a symbolic width W and lane-wise
bodies; the output has none: each becomes `loop.for` loops over `simd` ops and `arith` /
`math` on builtin `vector<WxT>` (see loop_to_simd/vecloop.py and loop_to_simd/predloop.py
for before/after IR), with W from the target table (loop_to_simd/width.py) and the
predloop's MaskForm from the target's capabilities. Scalar loops (`loop.for`, `loop.zip`)
are left as they are. The module records the target as `loop.target` (read by the C
printer) and, when known, the pipeline as `loop.pipeline`.

On the `scalar` target a vecloop becomes the `loop.for` it means at width 1. A predloop is
lowered like on any other target, at width 1 (`vector<1xT>` prints as `T`): the body runs on
every element, appends store unconditionally at the cursor (`out[k] = v; k += c;`) and
accumulators take `acc + (c ? x : 0)` — no branch per element; a float add/mul accumulator
without `reassoc` is one chain in element order from its init, `acc = c ? acc + x : acc`.
A body that has no width-1 simd form keeps the width-1 predloop with MaskForm
branch_per_lane. On a vector target a predloop still at width 1 (one that
loop-vectorize declined) keeps that branch-per-lane form too: the ISAs have no one-lane vectors.
The C printer prints it branch-free as well (store at the cursor, advance by the predicate,
select the accumulators) when its body may run on every element (targets/c_print_loops.py).

Options: `target` = sse2 | avx2 | avx512 | neon | scalar | native (this CPU's best);
`tail` = scalar | masked overrides each loop's tail kind (never `none`; masked needs
masked loads/stores, else vecloops keep the scalar epilogue), auto picks per loop from the
CPU's costs (loop_to_simd/tail.choose_tail); `interleave` = K blocks per
main-loop iteration of every vector loop — K independent vector accumulators for a
reduction (0: 4), a K-times unrolled map or compaction (0: 4 on AVX2/AVX-512, 2 on
SSE2/NEON; with 0 a map whose data fits the L1d runs 256-bit blocks, or one block an
iteration, where the CPU model says that is faster, vecloop.split_map_loop / short_map); `stream_bytes` =
the output size from which a map uses streaming stores (see loop_to_simd/vecloop.emit_streaming;
-1, the default: half the CPU's last-level cache); `cpu` = a dialects/cpu_models.py name or
native: the micro-architecture the speed-only decisions read (docs/targets.md) — the
streaming threshold, the tail under `tail=auto`, AVX-512 compaction in a register or to
memory; "" is native for `target=native`, generic otherwise. An op with no vector form on lane-varying operands (integer division, a
transcendental, a gather, a bool-buffer or rank-2 access) is a located error, never wrong
code; nothing is scalarized lane by lane. With `fallback=true` (what loop-pipeline uses)
such a loop is instead kept as the scalar loop it means, with a SIMD_FALLBACK_SCALAR
remark when `remarks=true`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BFloat16Type, IntegerType, ModuleOp, StringAttr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from loopopt.diagnostics import LoopoptDiagnostic, remark
from loopopt.dialects import loop, simd
from loopopt.dialects.loop_attrs import MaskForm
from loopopt.lowering.loop_to_simd.gather import choose_gather_forms
from loopopt.lowering.loop_to_simd.narrow_acc import widen_narrow_accumulators
from loopopt.lowering.loop_to_simd.predloop import lower_predloop, lower_predloop_scalar
from loopopt.lowering.loop_to_simd.scan import has_scan, lower_scan_vecloop, scan_costs_more
from loopopt.lowering.loop_to_simd.vecloop import VecOptions, lower_vecloop, lower_vecloop_scalar
from loopopt.lowering.target import resolve_cpu, resolve_target, resolve_target_name
from loopopt.passes.options import check_options
from loopopt.passes.pattern_dispatch import DispatchApplier

TARGET_ATTR = "loop.target"
PIPELINE_ATTR = "loop.pipeline"
FEATURES_ATTR = "loop.cpu_features"
"""Module attribute: the CPU extensions past the target's baseline the C may use (comma-separated
/proc/cpuinfo names, `CpuModel.features`), recorded only when an op can use one."""

CPU_STREAM_BYTES = -1
"""`stream_bytes` default: the CPU's threshold (CpuModel.stream_threshold_bytes, half its
last-level cache; 4 MiB on `generic`)."""

FALLBACK_REMARK = "SIMD_FALLBACK_SCALAR"
"""Remark code of a vector loop kept scalar because the target cannot express its body."""


@dataclass
class LowerVecLoop(RewritePattern):
    """`loop.vecloop` -> main / remainder `loop.for` over simd ops, horizontal epilogue, tail."""

    options: VecOptions
    fallback: bool = False
    remarks: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: loop.VecLoopOp, rewriter: PatternRewriter) -> None:
        if self.options.target.vector_bits == 0 or op.width.concrete == 1:
            return lower_vecloop_scalar(op, rewriter)
        if self.options.partial:
            widen_narrow_accumulators(op, rewriter)  # i8/i16 reductions next to wider lanes
        try:
            if has_scan(op) and (slower := scan_costs_more(op, self.options)) is not None:
                if self.remarks:
                    remark(op, FALLBACK_REMARK, f"vector loop kept scalar: {slower}")
                lower_vecloop_scalar(op, rewriter)
            elif has_scan(op):
                lower_scan_vecloop(op, rewriter, self.options)
            else:
                lower_vecloop(op, rewriter, self.options)
        except LoopoptDiagnostic as e:
            if not self.fallback:
                raise
            _fell_back(e, self.remarks)
            lower_vecloop_scalar(op, rewriter)


@dataclass
class LowerPredLoop(RewritePattern):
    """`loop.predloop` -> a masked `loop.for` (mask from pred, compress-store at a cursor) + a masked last block."""

    options: VecOptions
    fallback: bool = False
    remarks: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: loop.PredLoopOp, rewriter: PatternRewriter) -> None:
        if op.width.concrete == 1 and op.mask_form.data == MaskForm.BRANCH_PER_LANE:
            return  # already the scalar form the printer branches on
        on_scalar = self.options.target.vector_bits == 0
        if op.width.concrete == 1 and not on_scalar:
            # left at width 1 (loop-vectorize declined it, e.g. a float sum without reassoc):
            # the vector ISAs have no one-lane vectors, so it stays the scalar loop it means
            return lower_predloop_scalar(op, rewriter)
        if not on_scalar and (slower := scan_costs_more(op, self.options)) is not None:
            if self.remarks:
                remark(op, FALLBACK_REMARK, f"vector loop kept scalar: {slower}")
            return lower_predloop_scalar(op, rewriter)
        if self.options.partial and not on_scalar:
            widen_narrow_accumulators(op, rewriter)
        try:
            lower_predloop(op, rewriter, self.options)
        except LoopoptDiagnostic as e:
            if not (self.fallback or on_scalar):
                raise
            if not on_scalar:
                _fell_back(e, self.remarks)
            lower_predloop_scalar(op, rewriter)


def _fell_back(e: LoopoptDiagnostic, remarks: bool) -> None:
    if remarks and e.op is not None:
        remark(e.op, FALLBACK_REMARK, f"vector loop kept scalar: {e.message}")


def populate_loop_to_simd_patterns(options: VecOptions, fallback: bool = False, remarks: bool = False) -> list[RewritePattern]:
    return [LowerVecLoop(options, fallback, remarks), LowerPredLoop(options, fallback, remarks)]


@dataclass(frozen=True)
class ConvertLoopToSimdPass(ModulePass):
    """Lower vecloops and predloops to simd ops at the target's width (see the module docstring)."""

    name = "convert-loop-to-simd"

    target: str = "native"
    """sse2 | avx2 | avx512 | neon | scalar | native."""
    tail: str = ""
    """scalar | masked: override each vector loop's tail kind ("" keeps the loop's); auto:
    the cheaper of the two on the CPU (per loop, from its loads, stores and width)."""
    interleave: int = 0
    """Independent vector accumulators per reduction; 0 picks per target."""
    partial: bool = True
    """Allow loops mixing 32- and 64-bit lanes (their 32-bit vectors fill half a register, printed
    by targets/c_part.py); false makes them an error (or scalar under `fallback`)."""
    fallback: bool = False
    """Keep a vector loop the target cannot express as the scalar loop it means (width 1)
    instead of failing; with `remarks`, say why (SIMD_FALLBACK_SCALAR)."""
    remarks: bool = False
    """Print a remark for each loop kept scalar by `fallback`."""
    stream_bytes: int = CPU_STREAM_BYTES
    """A map whose output is at least this many bytes at run time stores it with streaming
    (non-temporal) stores after peeling to the vector alignment (x86 only; 0: never; -1:
    half the CPU's last-level cache). An output that large would only evict the inputs and
    the caller's data; a smaller one may be read again from cache."""
    cpu: str = ""
    """generic | zen3 | zen4 | skylake-x | icelake-server | sapphirerapids | neoverse-n1 |
    native; "": native for target=native, generic otherwise."""
    pipeline: str = ""
    """Recorded as the module's `loop.pipeline` (set by loop-pipeline)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def options(self, module: ModuleOp) -> VecOptions:
        try:
            info = resolve_target(self.target)
            cpu = resolve_cpu(self.cpu, self.target)
        except ValueError as e:
            raise LoopoptDiagnostic(str(e), module) from None
        stream = self.stream_bytes if self.stream_bytes >= 0 else cpu.stream_threshold_bytes
        return VecOptions(info, self.tail, self.interleave, self.partial, stream, cpu)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.options(op)
        recorded = op.attributes.get(TARGET_ATTR)
        if isinstance(recorded, StringAttr) and recorded.data != options.target.name:
            raise LoopoptDiagnostic(
                f"module was already lowered for target '{recorded.data}', not '{options.target.name}'", op
            )
        PatternRewriteWalker(
            # each visited op is offered only the pattern rooted at its class (no pattern call on the
            # preheader and scalar ops the walk visits); dead-op erasure as xDSL's applier
            DispatchApplier(populate_loop_to_simd_patterns(options, self.fallback, self.remarks)),  # pyright: ignore[reportArgumentType]
            apply_recursively=False,
            walk_reverse=False,  # first to last: a loop reuses the preheader values of those before it (VecOptions.preheaders)
        ).rewrite_module(op)
        op.attributes[TARGET_ATTR] = StringAttr(resolve_target_name(self.target))
        if self.pipeline:
            op.attributes[PIPELINE_ATTR] = StringAttr(self.pipeline)
        choose_gather_forms(op, options.target, options.cpu)
        record_cpu_features(op, options)


def record_cpu_features(module: ModuleOp, options: VecOptions) -> None:
    """`loop.cpu_features`: the CPU's extensions an AVX-512 op of `module` can use, same bits with
    fewer instructions: `avx512_bf16` where a vector is rounded to bf16 (`vcvtneps2bf16`,
    targets/c_part.py), `avx512_vbmi2` where i8/i16 lanes are compacted (`vpcompressb/w`,
    targets/c_narrow_compress.py). The runtime refuses a CPU without them."""
    if options.target.name != "avx512" or not options.cpu.features:
        return
    used: set[str] = set()
    for op in module.walk():
        if isinstance(op, simd.ConvertOp) and isinstance(getattr(op.results[0].type, "element_type", None), BFloat16Type):
            used.add("avx512_bf16")
        elif isinstance(op, simd.CompressStoreOp):
            elt = getattr(op.value.type, "element_type", None)
            if isinstance(elt, IntegerType) and elt.width.data in (8, 16):
                used.add("avx512_vbmi2")
    if names := [f for f in options.cpu.features if f in used]:
        module.attributes[FEATURES_ATTR] = StringAttr(",".join(names))
