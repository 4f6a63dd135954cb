"""`loop-pipeline{target=...}`: the default way from a df program to the target's simd IR.

One name for the best settings, composed from the other passes' ModulePass objects (looked
up in the registry, so nothing is re-implemented here):

```
df-fuse                      fuse on df (map∘map, map/filter -> reduce, horizontal)
convert-df-to-loop           buffers and loops
loop-fuse                    fuse loops over the same range
loop-simplify                fold, identities
loop-licm                    hoist loop-invariant code
loop-interchange             column reductions -> row loop outermost (not on scalar)
loop-unroll-jam{rows=R}      row loops whose inner loops reuse a load across rows (a matrix
                             product's B) step R rows, jammed (register blocking; not on scalar)
loop-vectorize               innermost loops -> vecloops / predloops of width W (not on scalar)
loop-simplify{fma=true}      only when the target has FMA: contract a*b+c into math.fma
loop-parallelize{threads cpu stream_bytes filter_block filter_block_stream}  only with parallel=N: mark kernels that split into
                             chunks across threads (OpenMP in the C; docs/threads.md)
loop-inplace                 a temporary whose last reader maps it into an output lives in
                             that output (softmax's exps: no allocation; not in chunked kernels)
loop-unroll{factor=K full_threshold=0 accs=split}  only on scalar: innermost scalar loops
                             K copies an iteration, reductions in K partial accumulators
                             (loops whose accumulators may not be reordered are left alone)
convert-loop-to-simd{target, cpu, tail, interleave, stream_bytes, fallback=true}  (maps and
                             reductions unrolled K times, large map outputs streamed; loops the
                             target cannot express stay scalar, with a remark under remarks=true;
                             with a cpu (given, or native for target=native): tail=auto on
                             targets with masked memory ops unless `tail` is given)
loop-simplify                clean up the index arithmetic of the lowering; integer
                             select(x > c, x, c) -> max where the target has it (select_minmax)
canonicalize, cse            fold and merge the duplicated constants and loads
derive-filter-count          only with parallel=N and filter_block != 0: `<k>__count` of each
                             filter planned in super-blocks (the kernel's simd IR counting only)
```
Contraction comes after vectorization: loop-vectorize recognizes a reduction by its
`acc + x` step, which `fma(x, y, acc)` would hide; a vecloop body is lane-wise, so
contracting it afterwards is just as valid and lowers to `simd.fma` on a vector
accumulator. A pass whose module does not exist yet is skipped. On the `scalar` target nothing is
vectorized: loops stay scalar C, predloops print as a branch per lane. The expanded pass
list is recorded on the module as `loop.pipeline` (the C file's header names it).
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.lowering.target import CPU_NATIVE, NATIVE, resolve_cpu, resolve_target, resolve_target_name
from loopopt.passes.options import check_options

JAM_ROWS: dict[str, int] = {"avx512": 4, "neon": 4, "avx2": 4, "sse2": 4}
"""loop-unroll-jam's R per target. With loop-interchange's J = 4 rows of B, the innermost loop
keeps R x J broadcasts of A, J vectors of B and R of C live: R = 4 holds all 24 in the 32
vector registers of AVX-512 and NEON. On the 16 of AVX2 and SSE2 a register-fitting R would be
2, but R = 4 measured faster there too (256^3 f32 on Zen 4, docs/rank2.md: avx2 1.04x numpy
at R=4 vs 0.57x at R=2; sse2 0.45x vs 0.38x): gcc keeps the A broadcasts that do not fit on
the stack and each FMA reads one as a memory operand (an L1 load), which costs less than the
C loads and stores R = 2 adds."""


def _spell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Step:
    """One pass of the pipeline: its registered name and the options to give it."""

    name: str
    options: dict[str, Any] = dataclasses.field(default_factory=dict[str, Any])

    def spelling(self) -> str:
        if not self.options:
            return self.name
        return self.name + "{" + " ".join(f"{k}={_spell(v)}" for k, v in self.options.items()) + "}"


@dataclass(frozen=True)
class LoopPipelinePass(ModulePass):
    """df -> loop -> simd for one target with the default optimizations (see the module docstring)."""

    name = "loop-pipeline"

    target: str = "native"
    """sse2 | avx2 | avx512 | neon | scalar | native."""
    tail: str = ""
    """scalar | masked | auto for every vector loop ("": auto when a cpu is given or the target
    is native and it has masked memory ops, else what loop-vectorize chose)."""
    interleave: int = 0
    """Blocks per main-loop iteration: vector accumulators per reduction, unrolling of maps (0: per target)."""
    stream_bytes: int = -1
    """Maps with an output of at least this many bytes (at run time) use streaming stores; 0 never;
    -1 the CPU's threshold (half its last-level cache; 4 MiB on `generic`)."""
    cpu: str = ""
    """The CPU model the speed-only decisions read (docs/targets.md): generic | zen3 | zen4 |
    skylake-x | icelake-server | sapphirerapids | neoverse-n1 | native; "": native for
    target=native, generic otherwise."""
    remarks: bool = False
    """Print the fusion and vectorization passes' decline remarks."""
    parallel: int = 0
    """Split kernels across threads (loop-parallelize): 0 off, N >= 1 at most N threads per
    call, -1 as many as the runtime allows (loopopt.set_num_threads, LOOPOPT_NUM_THREADS)."""
    filter_block: int = -2
    """loop-parallelize's filter_block: -2 (default) super-blocks at the call sizes the CPU
    model gives (`Costs.filter_blocks`), the scratch-and-copy driver elsewhere; 0 that driver
    everywhere, -1 super-blocks sized from the CPU at every size, N parts of N elements."""
    filter_block_stream: bool = True
    """loop-parallelize's filter_block_stream (false: super-blocks always compact in place)."""

    def __post_init__(self) -> None:
        check_options(self)  # valid values: passes/options.py

    def steps(self) -> list[Step]:
        """The passes this pipeline runs, with their options, in order."""
        try:
            info = resolve_target(self.target)
            resolve_cpu(self.cpu, self.target)
        except ValueError as e:
            raise LoopoptDiagnostic(str(e)) from None
        name = resolve_target_name(self.target)
        # mixed-width loops vectorize: their 32-bit vectors fill half a register (targets/c_part.py)
        lower: dict[str, Any] = {"target": name, "fallback": True}
        if self.cpu or self.target == NATIVE:
            lower["cpu"] = self.cpu or CPU_NATIVE  # target=native is tuned for this machine's CPU
        if self.tail:
            lower["tail"] = self.tail
        elif "cpu" in lower and info.has_masked_load_store:
            lower["tail"] = "auto"  # loop_to_simd/tail.AUTO (not imported: loop-opt start-up)
        if self.interleave:
            lower["interleave"] = self.interleave
        if self.stream_bytes >= 0:
            lower["stream_bytes"] = self.stream_bytes
        if self.remarks:
            lower["remarks"] = True
        steps = [
            Step("df-fuse", {"remarks": True} if self.remarks else {}),
            Step("convert-df-to-loop"),
            Step("loop-fuse", {"remarks": True} if self.remarks else {}),
            Step("loop-simplify"),
            Step("loop-licm"),
        ]
        if info.vector_bits:
            # column reductions walk rows outermost (4 rows per pass: 1.4-1.5x faster than 1 on
            # Zen 4, tools/bench/rank2.py), so their inner loop is contiguous
            steps.append(Step("loop-interchange", {"rows": 4, **({"remarks": True} if self.remarks else {})}))
            # register blocking of matrix products (each B load used by R rows; R per target:
            # JAM_ROWS above, measured in docs/rank2.md)
            steps.append(Step("loop-unroll-jam", {"rows": JAM_ROWS.get(name, 4), **({"remarks": True} if self.remarks else {})}))
            steps.append(Step("loop-vectorize", {"remarks": True} if self.remarks else {}))
        if info.has_fma:
            steps.append(Step("loop-simplify", {"fma": True}))
        if self.parallel:
            par: dict[str, Any] = {"threads": max(self.parallel, 0)}
            if "cpu" in lower:
                par["cpu"] = lower["cpu"]  # the size threshold and chunk come from it
            if self.stream_bytes >= 0:
                par["stream_bytes"] = self.stream_bytes  # filters' non-temporal copies, as maps
            if self.filter_block != -2:
                par["filter_block"] = self.filter_block
            if not self.filter_block_stream:
                par["filter_block_stream"] = False
            if self.remarks:
                par["remarks"] = True
            steps.append(Step("loop-parallelize", par))
        # after loop-parallelize: a chunked kernel keeps its chunk-sized temporaries
        steps.append(Step("loop-inplace", {"remarks": True} if self.remarks else {}))
        if not info.vector_bits:
            # the scalar target's loops, as the vector targets' blocks, K copies an iteration
            # (maps: the loop overhead once per K elements; folds: K partial accumulators where
            # their order may change, i.e. the latency of the add once per K; Zen 4: 1.5-4x)
            unroll = {"factor": self.interleave or 4, "full_threshold": 0, "accs": "split"}
            steps.append(Step("loop-unroll", unroll))
        steps += [
            Step("convert-loop-to-simd", lower),
            Step("loop-simplify"),
            Step("canonicalize"),
            Step("cse"),
        ]
        if self.parallel and self.filter_block:
            steps.append(Step("derive-filter-count"))  # only super-block drivers read `<k>__count`
        return steps

    def spelling(self, available: set[str]) -> str:
        return ",".join(s.spelling() for s in self.steps() if s.name in available)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.run(ctx, op)

    def run(self, ctx: Context, op: ModuleOp, stop_before: str | None = None) -> None:
        """Apply the steps in order; with `stop_before`, only those before the first of that name
        (tests compare the loop IR before `convert-loop-to-simd` with what it becomes)."""
        with cyclic_gc_paused():
            for step, pass_ in self.step_passes():
                if step.name == stop_before:
                    return
                pass_.apply(ctx, op)
        op.attributes["loop.pipeline"] = StringAttr(self.spelling(set(_all_passes())))

    def step_passes(self) -> list[tuple[Step, ModulePass]]:
        """Each step with the pass object that runs it (steps whose module does not exist yet
        are left out); tools/bench/compile_time.py times them one by one."""
        passes = _all_passes()
        spelled = self.spelling(set(passes))
        out: list[tuple[Step, ModulePass]] = []
        for step in self.steps():
            factory = passes.get(step.name)
            if factory is None:
                continue  # its module is still being written
            pass_cls = factory()
            fields = {f.name for f in dataclasses.fields(pass_cls)}
            options = {k: v for k, v in step.options.items() if k in fields}
            if step.name == "convert-loop-to-simd" and "pipeline" in fields:
                options["pipeline"] = spelled
            out.append((step, pass_cls(**options)))
        return out


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the passes run (docs/compile_time.md).

    Every full collection traverses the whole IR, so with the collector on the pipeline
    was superlinear in module size (convert-loop-to-simd 11.4 s -> 7.4 s at 10,000 df ops,
    +20 % peak memory: the erased ops' reference cycles wait for the next collection)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _all_passes() -> dict[str, Any]:
    """The passes the steps name. `canonicalize` is xDSL's, walked from the ops it can rewrite
    (passes/candidate_walker.py: the same rewrites, a fraction of the walk); `cse` is xDSL's,
    its table keyed by each op's name and operands (passes/cached_cse.py)."""
    from loopopt.passes.cached_cse import HashedCSEPass
    from loopopt.passes.candidate_walker import CandidateCanonicalizePass
    from loopopt.registry import get_all_passes

    ours = {k: v for k, v in get_all_passes().items() if k != LoopPipelinePass.name}
    return {"canonicalize": lambda: CandidateCanonicalizePass, "cse": lambda: HashedCSEPass, **ours}
