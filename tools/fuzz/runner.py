"""Compile batches of fuzzer kernels per ISA, run them (crash-isolated), compare, classify.

One module of many kernels is compiled per (batch, ISA); when that fails, the batch is split
in halves until each failure is pinned to its kernel. Native kernels run in a forked child
process (a SIGSEGV/SIGFPE or a hang kills the child, not the fuzzer, and is attributed to the
kernel that was running); NEON kernels run under qemu through `loopopt.runtime` (a sample of
each batch: qemu is slow). AVX-512 code is compiled but not run when this CPU lacks it.

Failure classes: mismatch, internal (a Python exception inside loopopt), compile_error (the C
compiler rejected generated code), crash (signal, or a write outside an output's buffer),
timeout, rejected (a clean LoopoptDiagnostic: counted, not a failure).
"""

from __future__ import annotations

import multiprocessing
import random
import re
import traceback
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .compare import compare_results
from .evaluate import evaluate, fma_sites
from .inputs import make_args
from .printer import print_module
from .program import Kernel

SANITIZED = "san-"
"""An ISA named `san-<isa>` (san-scalar, san-avx2, ...) runs a sample of each batch in the
native runner built with AddressSanitizer + UBSan (docs/sanitizers.md); a report is a crash."""
EMIT_ONLY = "emit-"
"""An ISA named `emit-<isa>` runs the pipeline and the C printer on every kernel, and nothing
else (no C compiler): a fast sweep for internal errors and wrong rejections."""
CLASSES = ("mismatch", "internal", "compile_error", "crash", "timeout", "rejected")
FAILURES = ("mismatch", "internal", "compile_error", "crash", "timeout")
FMA_ISAS = ("avx2", "avx512", "neon")
KERNEL_TIMEOUT = 30.0
"""Seconds one kernel may take on all its cases before it counts as a hang."""


CPUS = ("generic", "zen4", "sapphirerapids", "skylake-x")
"""The `cpu=` values the fuzzer compiles for (each on the ISAs it runs, dialects/cpu_models.py)."""


@dataclass(frozen=True)
class Config:
    """How one batch is compiled and run on an ISA besides the target: `loop-pipeline`'s `cpu`
    and `parallel`, loop-parallelize's size threshold and chunk (small, so that the fuzzer's
    sizes split: 0 and 64 instead of the CPU's 64 Ki), and the threads per call at run time."""

    cpu: str = ""
    parallel: int = 0
    min_elements: int = -1
    chunk: int = -1
    threads: int = 1
    filter_block: int = 0
    """loop-pipeline's filter_block (-1: count-first super-blocks sized from the CPU)."""

    def label(self) -> str:
        parts = [f"cpu={self.cpu}"] if self.cpu else []
        if self.parallel:
            parts.append(f"parallel={self.parallel} min_elements={self.min_elements} chunk={self.chunk} threads={self.threads}")
        if self.filter_block:
            parts.append(f"filter_block={self.filter_block}")
        return " ".join(parts)

    def passes(self, isa: str) -> Any:
        """The pipeline as a PassPipeline (loop-parallelize's options set beyond loop-pipeline's)."""
        from dataclasses import replace

        from xdsl.passes import PassPipeline

        from loopopt.passes.pipeline import LoopPipelinePass

        steps = LoopPipelinePass(target=isa, cpu=self.cpu, parallel=self.parallel, filter_block=self.filter_block).step_passes()
        out = []
        for step, p in steps:
            if step.name == "loop-parallelize":
                p = replace(p, min_elements=self.min_elements, chunk=self.chunk)
            out.append(p)
        return PassPipeline(tuple(out))


def random_config(rng: random.Random, isa: str, cpus: tuple[str, ...] = ("", *CPUS)) -> Config:
    """One of `cpus` valid for `isa` ("": none), and half of the time a parallel build with small chunks."""
    from loopopt.dialects.cpu_models import CPUS as MODELS

    cpu = rng.choice([c for c in cpus if not c or MODELS[c].runs(isa)] or [""])
    if rng.random() < 0.5:
        return Config(cpu)
    return Config(
        cpu, parallel=rng.choice((-1, 2, 4)), min_elements=rng.choice((0, 0, 0, 100, -1)),
        chunk=rng.choice((64, 64, 128, 256, -1)), threads=rng.choice((1, 2, 2, 3, 4)),
    )  # fmt: skip


@dataclass
class Failure:
    cls: str
    isa: str
    kernel: Kernel
    message: str
    n: int | None = None
    seed: int | None = None
    config: Config = field(default_factory=Config)


@dataclass
class Case:
    n: int
    seed: int
    offset: int = 0


@dataclass
class Stats:
    per_isa: dict[str, Counter] = field(default_factory=dict)

    def add(self, isa: str, key: str, count: int = 1) -> None:
        self.per_isa.setdefault(isa, Counter())[key] += count

    def total(self, key: str) -> int:
        return sum(c[key] for c in self.per_isa.values())

    def table(self) -> str:
        cols = ("programs", "runs", *CLASSES, "compiled_only")
        head = f"{'isa':8}" + "".join(f"{c:>14}" for c in cols)
        rows = [head]
        for isa, c in self.per_isa.items():
            rows.append(f"{isa:8}" + "".join(f"{c[k]:>14}" for k in cols))
        return "\n".join(rows)


def classify(e: BaseException) -> tuple[str, str]:
    from loopopt.diagnostics import LoopoptDiagnostic
    from loopopt.runtime.build import CompileError

    if isinstance(e, LoopoptDiagnostic):
        return "rejected", str(e)
    if isinstance(e, CompileError):
        return "compile_error", str(e)[-3000:]
    tb = "".join(traceback.format_exception(type(e), e, e.__traceback__)[-6:])
    return "internal", f"{type(e).__name__}: {e}\n{tb}"[-4000:]


# --------------------------------------------------------------------------- compiling


def compile_text(text: str, isa: str, foreign: set[str] | None = None, config: Config | None = None) -> Any:
    """loopopt.compile's steps; for NEON only the kernels in `foreign` get an emulator binary,
    for an ISA this CPU lacks the C is only compiled (returns None functions)."""
    from loopopt import runtime
    from loopopt.compile import (
        CompiledKernels,
        default_pipeline,
        kernel_signature,
        kernels_of,
        make_context,
        parse,
        run_pipeline,
    )
    from loopopt.diagnostics import LoopoptDiagnostic
    from loopopt.targets.c import emit_c

    sanitized, emit_only = isa.startswith(SANITIZED), isa.startswith(EMIT_ONLY)
    isa = isa.removeprefix(SANITIZED).removeprefix(EMIT_ONLY)
    ctx = make_context()
    module = parse(text, ctx, "<fuzz>")
    module.verify()
    config = config or Config()
    spec = default_pipeline(isa)
    run_pipeline(module, config.passes(isa) if config != Config() else spec, ctx)
    leftover = next((op for op in module.walk() if op.dialect_name() == "df"), None)
    if leftover is not None:
        raise LoopoptDiagnostic(f"{leftover.name} is left after the pipeline", leftover)
    c_source = emit_c(module, isa, spec)
    signatures = {k.sym_name.data: kernel_signature(k) for k in kernels_of(module)}
    compiled = CompiledKernels(c_source, isa, module, signatures)
    if emit_only:
        return compiled
    if sanitized:  # one ASan+UBSan runner per batch, exact allocations (docs/sanitizers.md)
        from loopopt.runtime.sanitize import sanitized_kernels

        chosen = [sig for name, sig in signatures.items() if foreign is None or name in foreign]
        compiled.functions = dict(sanitized_kernels(c_source, chosen, isa))
        for kernel in compiled.functions.values():
            kernel.timeout = KERNEL_TIMEOUT
        return compiled
    if isa in runtime.isa.FOREIGN_TOOLS:
        chosen = [sig for name, sig in signatures.items() if foreign is None or name in foreign]
        compiled.functions = {  # one emulator binary holds all of them
            sig.name: runtime.ForeignKernel(c_source, sig, isa, timeout=KERNEL_TIMEOUT, signatures=chosen)
            for sig in chosen
        }
        return compiled
    if isa not in runtime.isa.host_isas():
        runtime.build.build(c_source, runtime.isa.compile_flags(isa))
        return compiled
    library = runtime.compile_library(c_source, list(signatures.values()), isa=isa)
    compiled.library = library
    compiled.functions = {name: library[name] for name in signatures}
    return compiled


def compile_groups(
    kernels: list[Kernel], isa: str, foreign: set[str] | None = None, config: Config | None = None
) -> tuple[list[tuple[Any, list[Kernel]]], list[Failure]]:
    """Compile `kernels` as one module, isolating failures: (compiled groups, failures).

    A located diagnostic names its kernel by line: that kernel is dropped and the rest
    retried; any other failure splits the batch in halves.
    """
    text = print_module(kernels)
    config = config or Config()
    try:
        return [(compile_text(text, isa, foreign, config), kernels)], []
    except Exception as e:  # noqa: BLE001 - every exception is classified
        cls, msg = classify(e)
        if len(kernels) == 1:
            return [], [Failure(cls, isa, kernels[0], msg, config=config)]
        culprit = _kernel_at_line(kernels, text, msg) if cls == "rejected" else None
    if culprit is not None:
        rest = [k for k in kernels if k is not culprit]
        groups, fails = compile_groups(rest, isa, foreign, config)
        return groups, [Failure(cls, isa, culprit, msg, config=config), *fails]
    half = len(kernels) // 2
    a, fa = compile_groups(kernels[:half], isa, foreign, config)
    b, fb = compile_groups(kernels[half:], isa, foreign, config)
    return a + b, fa + fb


def _kernel_at_line(kernels: list[Kernel], text: str, msg: str) -> Kernel | None:
    m = re.match(r"<fuzz>:(\d+):", msg)
    if m is None:
        return None
    line = int(m.group(1))
    starts = [k + 1 for k, t in enumerate(text.splitlines()) if t.startswith("func.func @")]
    owner = None
    for kernel, start in zip(kernels, starts):
        if start <= line:
            owner = kernel
    return owner


# --------------------------------------------------------------------------- running


def _call_cases(compiled: Any, name: str, calls: list[tuple[list[Any], int]]) -> list[Any]:
    from loopopt.tools.loop_run import run_compiled, run_compiled_batch

    if compiled.library is not None:
        return [run_compiled(compiled, name, inputs, offset=offset) for inputs, offset in calls]
    return run_compiled_batch(compiled, name, [inputs for inputs, _ in calls], None, [offset for _, offset in calls])


def _child(conn: Any, work: list[tuple[Any, str, list[tuple[list[Any], int]]]], threads: int = 1) -> None:
    import faulthandler

    # A crashing kernel is reported by the parent from the child's exit signal; the child's
    # inherited faulthandler (pytest enables it) would only add a "Fatal Python error" dump.
    faulthandler.disable()
    if threads != 1:
        # The fork hook sets 1 thread (libgomp's pool does not survive fork); the child sets
        # the config's threads again and calls the kernels from a new thread (below).
        from loopopt.runtime.threads import set_num_threads

        set_num_threads(threads)
        # libgomp keeps a thread pool per master thread (in its TLS): the parent's main thread
        # may hold one (a kernel it called, e.g. earlier in a pytest worker), and after fork that
        # pool's threads are gone, so a parallel region on the child's main thread waits for them
        # forever. A new thread starts its own pool.
        import threading

        t = threading.Thread(target=_child_calls, args=(conn, work))
        t.start()
        t.join()
    else:
        _child_calls(conn, work)
    conn.close()


def _child_calls(conn: Any, work: list[tuple[Any, str, list[tuple[list[Any], int]]]]) -> None:
    for compiled, name, calls in work:
        conn.send(("start", name))
        try:
            out = _call_cases(compiled, name, calls)
            conn.send(("done", name, out))
        except AssertionError as e:  # a canary outside an output was overwritten
            conn.send(("error", name, "crash", f"out-of-bounds write: {e}"))
        except Exception as e:  # noqa: BLE001
            cls, msg = classify(e)
            conn.send(("error", name, cls, msg))


def run_isolated(
    work: list[tuple[Any, str, list[tuple[list[Any], int]]]], threads: int = 1, timeout: float | None = None
) -> dict[str, tuple[str, Any]]:
    """Run each (compiled, kernel, calls) in a forked child: name -> ("ok", outputs) or (class, message).

    A kernel with no result after KERNEL_TIMEOUT runs once more alone with three times as long
    before it counts as a hang: on the shared 2-core machine a slow call is not a hang."""
    ctx = multiprocessing.get_context("fork")
    limit = KERNEL_TIMEOUT if timeout is None else timeout
    results: dict[str, tuple[str, Any]] = {}
    todo = list(work)
    while todo:
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(child, todo, threads))
        proc.start()
        child.close()
        current: str | None = None
        while True:
            if not parent.poll(limit):
                proc.kill()
                proc.join()
                current = current or next((w[1] for w in todo if w[1] not in results), None)  # stuck before a kernel
                if current is None:
                    break
                if timeout is None:
                    again = run_isolated([w for w in todo if w[1] == current], threads, 3 * limit)[current]
                    results[current] = again if again[0] != "timeout" else ("timeout", f"no result after {limit}s, nor after {3 * limit}s alone")
                else:
                    results[current] = ("timeout", f"no result after {limit}s")
                break
            try:
                msg = parent.recv()
            except EOFError:
                proc.join()
                current = current or next((w[1] for w in todo if w[1] not in results), None)  # died before a kernel
                if current is not None:
                    results[current] = ("crash", f"the process died with exit code {proc.exitcode} (signal {-proc.exitcode if proc.exitcode and proc.exitcode < 0 else '-'})")
                break
            if msg[0] == "start":
                current = msg[1]
            elif msg[0] == "done":
                results[msg[1]] = ("ok", msg[2])
                current = None
            else:
                results[msg[1]] = (msg[2], msg[3])
                current = None
        parent.close()
        if proc.is_alive():
            proc.join(5)
        todo = [w for w in todo if w[1] not in results]
    return results


def run_foreign(work: list[tuple[Any, str, list[tuple[list[Any], int]]]], threads: int = 1) -> dict[str, tuple[str, Any]]:
    """Run under the emulator (its C drivers read LOOPOPT_NUM_THREADS from the environment)."""
    import os

    from loopopt.runtime.foreign import ForeignRunError
    from loopopt.runtime.threads import ENV

    old = os.environ.get(ENV)
    os.environ[ENV] = str(threads)
    try:
        return _run_foreign(work, ForeignRunError)
    finally:
        if old is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = old


def _run_foreign(work: list[tuple[Any, str, list[tuple[list[Any], int]]]], ForeignRunError: Any) -> dict[str, tuple[str, Any]]:
    results: dict[str, tuple[str, Any]] = {}
    for compiled, name, calls in work:
        try:
            results[name] = ("ok", _call_cases(compiled, name, calls))
        except ForeignRunError as e:  # a sanitizer report too (SanitizerError)
            results[name] = ("timeout" if "timed out" in str(e) else "crash", str(e)[-2000:])
        except Exception as e:  # noqa: BLE001
            results[name] = classify(e)
    return results


# --------------------------------------------------------------------------- one batch


BIG_SIZES = (65_557, 131_101, 262_147, 262_211, 524_309)
"""Past Zen 4's L2 (1 MiB) for 16, 8, 4 and 2 bytes an element, at whole blocks and not."""


def cheap(kernel: Kernel) -> bool:
    """Whether the evaluator runs `kernel` without a Python loop over elements (no fold, no
    custom body, no contracted ordered sum): only those get BIG_SIZES."""
    from .program import Fold, Reduce, Scan

    if any(isinstance(n, Fold) or (isinstance(n, (Reduce, Scan)) and n.body is not None) for n in kernel.nodes):
        return False
    return not any(e is None for _, e in fma_sites(kernel))


@dataclass
class BatchRunner:
    isas: list[str]
    stats: Stats
    neon_sample: int = 4
    compile_only_sample: int = 10
    small_sizes: bool = False
    configs: bool = False
    """Compile each batch with a random `Config` per ISA (cpu=, parallel with small chunks, threads)."""
    cpus: tuple[str, ...] = ("", *CPUS)
    """The cpu= values the configs choose from ("": none)."""
    big: float = 0.0
    """Chance that a kernel the evaluator runs without Python loops also gets a size past the
    L2 (the CPU models' half-load and split-fold limits, docs/fuzzing.md)."""
    failures: list[Failure] = field(default_factory=list)
    rejected: Counter = field(default_factory=Counter)
    _refs: dict[tuple[str, int, int, bool], Any] = field(default_factory=dict)

    def cases_for(self, kernel: Kernel, seed: int) -> list[Case]:
        from .inputs import sizes

        rng = random.Random(seed)
        if any(getattr(n, "role", "") == "rstart" for n in kernel.nodes):
            ns = [0, 1]  # a free range ignores n: two seeds are two ranges
        else:
            ns = sizes(rng, self.small_sizes)
            if self.big and rng.random() < self.big and cheap(kernel):
                ns.append(rng.choice(BIG_SIZES))
        return [Case(n, rng.randrange(2**31), offset=rng.choice((0, 0, 1))) for n in ns]

    def reference(self, kernel: Kernel, case: Case, fused: bool) -> Any:
        key = (kernel.name, case.n, case.seed, fused)
        if key not in self._refs:
            args, _ = make_args(kernel, case.n, case.seed)
            self._refs[key] = evaluate(kernel, args, fma=fused)
        return self._refs[key]

    def run_batch(self, kernels: list[Kernel], seed: int) -> None:
        self._refs.clear()
        cases = {k.name: self.cases_for(k, seed ^ zlib.crc32(k.name.encode())) for k in kernels}
        calls = {k.name: [(make_args(k, c.n, c.seed)[1], c.offset) for c in cases[k.name]] for k in kernels}
        by_name = {k.name: k for k in kernels}
        rng = random.Random(seed)
        for isa in self.isas:
            foreign = None
            chosen = kernels
            from loopopt import runtime

            runs_foreign = isa == "neon" or isa.startswith(SANITIZED)
            if runs_foreign:
                chosen = rng.sample(kernels, min(self.neon_sample, len(kernels)))
                foreign = {k.name for k in chosen}
            elif isa not in runtime.isa.host_isas() and not isa.startswith(EMIT_ONLY):
                chosen = rng.sample(kernels, min(self.compile_only_sample, len(kernels)))
            self.stats.add(isa, "programs", len(chosen))
            config = random_config(rng, isa.removeprefix(SANITIZED).removeprefix(EMIT_ONLY), self.cpus) if self.configs else Config()
            if config.parallel:
                self.stats.add(isa, "parallel_programs", len(chosen))
            groups, fails = compile_groups(chosen, isa, foreign, config)
            for f in fails:
                self.record(f)
            if not runs_foreign and isa not in runtime.isa.host_isas():
                self.stats.add(isa, "compiled_only", sum(len(ks) for _, ks in groups))
                continue
            work = [(compiled, k.name, calls[k.name]) for compiled, ks in groups for k in ks]
            outcome = run_foreign(work, config.threads) if runs_foreign else run_isolated(work, config.threads)
            for name, (status, payload) in outcome.items():
                kernel = by_name[name]
                if status != "ok":
                    self.record(Failure(status, isa, kernel, str(payload), config=config))
                    continue
                self.stats.add(isa, "runs", len(payload))
                self.check(kernel, isa, cases[name], payload, config)

    def check(self, kernel: Kernel, isa: str, cases: list[Case], outputs: list[Any], config: Config | None = None) -> None:
        config = config or Config()
        contracts = isa in FMA_ISAS and bool(fma_sites(kernel))
        for case, got in zip(cases, outputs):
            try:
                refs = self.reference(kernel, case, False)
                alt = self.reference(kernel, case, True) if contracts else None
            except Exception as e:  # noqa: BLE001 - a fuzzer bug: say so, do not count as loopopt's
                self.stats.add(isa, "evaluator_errors")
                self.failures.append(Failure("evaluator_error", isa, kernel, classify(e)[1], case.n, case.seed, config))
                continue
            problem = compare_results(refs, alt, got)
            if problem is not None:
                self.record(Failure("mismatch", isa, kernel, problem, case.n, case.seed, config))
                return

    def record(self, f: Failure) -> None:
        self.stats.add(f.isa, f.cls)
        if f.cls == "rejected":
            self.rejected[f.message.split("error:", 1)[-1].strip()[:120]] += 1
            return
        self.failures.append(f)


def reproduce(kernel: Kernel, isa: str, n: int, seed: int, config: Config | None = None) -> Failure | None:
    """Compile and run one kernel on one case (the minimizer's oracle)."""
    stats = Stats()
    config = config or Config()
    r = BatchRunner([isa], stats, neon_sample=1)
    case = Case(n, seed)
    groups, fails = compile_groups([kernel], isa, {kernel.name}, config)
    if fails:
        return fails[0] if fails[0].cls != "rejected" else None
    compiled = groups[0][0]
    work = [(compiled, kernel.name, [(make_args(kernel, n, seed)[1], 0)])]
    runs_foreign = isa == "neon" or isa.startswith(SANITIZED)
    outcome = run_foreign(work, config.threads) if runs_foreign else run_isolated(work, config.threads)
    status, payload = outcome[kernel.name]
    if status != "ok":
        return Failure(status, isa, kernel, str(payload), n, seed, config)
    r.check(kernel, isa, [case], payload, config)
    return r.failures[0] if r.failures else None


__all__ = ["BatchRunner", "Failure", "Stats", "compile_groups", "reproduce"]
