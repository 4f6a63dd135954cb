"""The fixed costs `loop-bench` reports: Python→kernel call overhead and compile time.

* Call overhead: a `loopopt.compile` callable on a 1-element array, called in a Python loop
  (what a user pays per call), next to a Python builtin call (`len`) and `np.sum` on one element.
* Compile time, per shipped example (examples/*.mlir): parse + default pipeline (timed pass by
  pass) + C printing in process (thread CPU time, warm: the median of a few runs after one
  warm-up; wall time alongside), and the wall time of
  `loop-opt <example> -p 'loop-pipeline{target=...}' -t c` as a fresh process (cold: Python
  start-up and imports included; `loop-opt` on an empty module gives that start-up alone).
  gcc is not included in either.
* Scale: parse, pipeline and C printing of a generated df module of at least 10,000 ops.
"""

from __future__ import annotations

import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .timing import Timing, TimingConfig, python_loop, time_group

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples"


@dataclass
class CompileTime:
    name: str
    ops: int
    parse: float
    pipeline: float
    print_c: float
    wall: float = 0.0
    """Wall seconds of parse + pipeline + printing (the others are thread CPU seconds)."""
    passes: dict[str, float] = field(default_factory=dict)
    """CPU seconds per pipeline pass (they add up to `pipeline`)."""
    cold_process: float | None = None
    """Wall time of the `loop-opt` process, or None when not measured."""
    startup_process: float | None = None
    """Wall time of `loop-opt` on an empty module without passes (Python start-up and imports)."""
    error: str | None = None

    @property
    def total(self) -> float:
        return self.parse + self.pipeline + self.print_c


@dataclass
class Overheads:
    calls: dict[str, Timing] = field(default_factory=dict)
    call_error: str | None = None
    compiles: list[CompileTime] = field(default_factory=list)


def call_overhead(isa: str, config: TimingConfig) -> tuple[dict[str, Timing], str | None]:
    """Per-call seconds of loopopt kernels at n=1 (a fold and a map with scalars and an output)."""
    import loopopt.compile as lc

    from .patterns import PATTERNS, scalars

    try:
        text = PATTERNS["sum"].program.read_text() + PATTERNS["axpb"].program.read_text()
        kernels = lc.compile(text, target=isa)
    except Exception as e:
        return {}, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    x = np.ones(1, np.float32)
    out = np.empty(1, np.float32)
    a, b = scalars("f32")
    runners = {
        "loopopt sum_f32(x), n=1": python_loop(kernels["sum_f32"], x),
        "loopopt axpb_f32(x, a, b, out), n=1": python_loop(kernels["axpb_f32"], x, a, b, out),
        "Python builtin len(x)": python_loop(len, x),
        "np.sum(x), n=1": python_loop(np.sum, x),
    }
    return time_group(runners, config), None


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    """(thread CPU seconds, value) of fn()."""
    t0 = time.thread_time()
    value = fn()
    return time.thread_time() - t0, value


def compile_time(name: str, text: str, isa: str, repeats: int = 3, warmup: int = 1) -> CompileTime:
    """In-process parse / pipeline / print times: medians of `repeats` runs after `warmup` runs.
    The passes are the pipeline's own step objects (`LoopPipelinePass.step_passes`: loopopt's
    canonicalize and cse, not xDSL's) under the collector pause `loop-opt` and `loopopt.compile`
    run with (`cyclic_gc_paused`); until session 27 this timed xDSL's canonicalize/cse with the
    cyclic collector on, ~5x slower on the 10k-op module than what a user runs."""
    import loopopt.compile as lc
    from loopopt.passes.pipeline import LoopPipelinePass, cyclic_gc_paused
    from loopopt.targets.c import emit_c

    spec = lc.default_pipeline(isa)
    parse_t, pipe_t, print_t, wall_t = [], [], [], []
    per_pass: dict[str, list[float]] = {}
    ops = 0
    try:
        for _ in range(repeats + warmup):
            ctx = lc.make_context()
            steps = [(f"{i + 1:02d} {step.spelling()}", pass_) for i, (step, pass_) in enumerate(LoopPipelinePass(target=isa).step_passes())]
            with cyclic_gc_paused():
                w0 = time.perf_counter()
                tp, module = _timed(lambda: lc.parse(text, ctx, name))
                ops = sum(1 for _ in module.walk()) - 1  # without the module itself
                tq = 0.0
                for key, pass_ in steps:
                    ts, _ = _timed(lambda: pass_.apply(ctx, module))  # noqa: B023 - called at once
                    per_pass.setdefault(key, []).append(ts)
                    tq += ts
                tc, _ = _timed(lambda: emit_c(module, isa, spec))
                wall_t.append(time.perf_counter() - w0)
            del module
            gc.collect()  # the cycles the passes freed, outside the timed part
            parse_t.append(tp)
            pipe_t.append(tq)
            print_t.append(tc)
    except Exception as e:
        return CompileTime(name, ops, 0.0, 0.0, 0.0, error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    med = statistics.median
    return CompileTime(name, ops, med(parse_t[warmup:]), med(pipe_t[warmup:]), med(print_t[warmup:]),
                       wall=med(wall_t[warmup:]), passes={k: med(v[warmup:]) for k, v in per_pass.items()})


def loop_opt_process_time(path: Path | None, isa: str) -> float | None:
    """Wall seconds of `loop-opt <path> -p loop-pipeline{target=isa} -t c` (None if it fails).

    With no path: `loop-opt` on an empty module with no passes (the start-up cost alone).
    """
    import loopopt.compile as lc

    tool = Path(sys.executable).parent / "loop-opt"
    if path is None:
        command, stdin = [str(tool)], "builtin.module {}\n"
    else:
        command, stdin = [str(tool), str(path), "-p", lc.default_pipeline(isa), "-t", "c"], None
    t0 = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, input=stdin)
    elapsed = time.perf_counter() - t0
    return elapsed if proc.returncode == 0 else None


def generated_module(min_ops: int = 10_000) -> str:
    """A df module of at least `min_ops` ops: copies of a 5-stage kernel (map→map→filter→map→reduce, zip)."""
    kernel = """
func.func @k{i}(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32, %b: f32) -> (!df.array<f32, [i]>, f32) {{
  %zero = arith.constant 0.0 : f32
  %m1 = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {{
  ^bb0(%e: f32, %f: f32):
    %p = arith.mulf %a, %e : f32
    %s = arith.addf %p, %f : f32
    df.yield %s : f32
  }}
  %m2 = df.map %m1 : !df.array<f32, [i]> -> !df.array<f32, [i]> {{
  ^bb0(%e: f32):
    %n = math.absf %e : f32
    %r = math.sqrt %n : f32
    %s = arith.addf %r, %b : f32
    df.yield %s : f32
  }}
  %pos = df.filter %m2 : !df.array<f32, [i]> -> !df.array<f32, [k]> {{
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %b : f32
    df.yield %c : i1
  }}
  %sq = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {{
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }}
  %t = df.reduce add(%sq, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %m2, %t : !df.array<f32, [i]>, f32
}}
"""
    per_kernel = 19  # ops per copy, func.func included (the measurement reports the parsed count)
    copies = -(-min_ops // per_kernel)
    return "".join(kernel.format(i=i) for i in range(copies))


def measure_overheads(isa: str, config: TimingConfig, *, full: bool = True, log: Callable[[str], None] = print) -> Overheads:
    """Call overhead and compile times; `full` adds the fresh-process `loop-opt` runs and the 10,000-op module."""
    result = Overheads()
    result.calls, result.call_error = call_overhead(isa, config)
    for path in sorted(EXAMPLES_DIR.glob("*.mlir")):
        ct = compile_time(f"examples/{path.name}", path.read_text(), isa)
        if full:
            ct.cold_process = loop_opt_process_time(path, isa)
            ct.startup_process = loop_opt_process_time(None, isa)
        result.compiles.append(ct)
        log(f"compile {ct.name}: {ct.total * 1e3:.0f} ms in process, "
            f"{'-' if ct.cold_process is None else f'{ct.cold_process:.2f} s'} as a loop-opt process")
    if full:
        ct = compile_time("generated df module", generated_module(), isa, repeats=1, warmup=0)
        result.compiles.append(ct)
        log(f"compile {ct.name} ({ct.ops} ops): parse {ct.parse:.2f} s, pipeline {ct.pipeline:.2f} s, print {ct.print_c:.2f} s CPU"
            + (f" [{ct.error}]" if ct.error else ""))
    return result
