"""Compile time of the default pipeline on generated df modules of growing size (issue #11).

    .venv/bin/python -m loopopt.tools.bench.compile_time 1000 10000 --target avx2 [--best-of 3]

For each size: process CPU seconds (time.process_time, best of N) of what `loop-opt f.mlir
-p 'loop-pipeline{target}' -t c` does after start-up: parsing, each pass of the pipeline
run one by one (LoopPipelinePass.step_passes), one verification (diagnostics.verify_located)
and C printing, with the cyclic garbage collector off as in `loop-opt`; then ops/s over the whole. `--verify-each` adds a verification after every
step (not counted in the total). The module is
tools/bench/overhead.generated_module (copies of a map→map→filter→map→reduce kernel).
`--jobs N` instead times the whole `loop-opt f.mlir -p 'loop-pipeline{target}' -t c -o f.c`
(in this process, after start-up) with `--jobs 1` and `--jobs N`, interleaved: WALL seconds
and the CPU seconds of the parent plus its workers, best of N each (loopopt/compile_jobs.py).
`--profile` writes a cProfile of the last run to the given file. The load average is printed
with every size: the machines are shared, compare variants interleaved (docs/compile_time.md).
"""

from __future__ import annotations

import argparse
import gc
import os
import time
from pathlib import Path

from loopopt.tools.bench.env import cpu_model


def measure(min_ops: int, target: str, verify_each: bool = False) -> dict[str, float]:
    """CPU seconds per phase of one compilation of a generated module of at least `min_ops` ops:
    what `loop-opt f.mlir -p 'loop-pipeline{target}' -t c` does after start-up (parse, the
    pipeline's passes, one verification, C printing), pass by pass."""
    import loopopt.compile as lc
    from loopopt.diagnostics import verify_located
    from loopopt.passes.pipeline import LoopPipelinePass, cyclic_gc_paused
    from loopopt.targets.c import emit_c

    from .overhead import generated_module

    text = generated_module(min_ops)
    spec = lc.default_pipeline(target)
    times: dict[str, float] = {}
    ctx = lc.make_context()
    with cyclic_gc_paused():  # as in the loop-opt process (tools/loop_opt.main)
        t = time.process_time()
        module = lc.parse(text, ctx, "generated")
        times["parse"] = time.process_time() - t
        times["ops"] = sum(1 for _ in module.walk()) - 1
        verify = 0.0
        for step, pass_ in LoopPipelinePass(target=target).step_passes():
            t = time.process_time()
            pass_.apply(ctx, module)
            times[step.spelling()] = times.get(step.spelling(), 0.0) + time.process_time() - t
            if verify_each:
                t = time.process_time()
                verify_located(module)
                verify += time.process_time() - t
        t = time.process_time()
        verify_located(module)
        times["verify"] = time.process_time() - t
        if verify_each:
            times["verify after every other step (not in loop-opt)"] = verify
        t = time.process_time()
        emit_c(module, target, spec)
        times["print C"] = time.process_time() - t
    del module
    gc.collect()  # the cycles the passes freed, before the next run
    return times


def measure_jobs(path: Path, target: str, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds (this process and its waited-for workers) of one `loop-opt` compile
    of `path` to C with `--jobs jobs`, the cyclic GC off as in `loop-opt`."""
    from loopopt.tools import loop_opt

    argv = [str(path), "-p", f"loop-pipeline{{target={target}}}", "-t", "c", "-o", str(path.with_suffix(".c")),
            "--jobs", str(jobs)]
    gc.collect()
    gc.disable()
    try:
        before, cpu, wall = os.times(), time.process_time(), time.perf_counter()
        status = loop_opt.run(argv)
        wall, cpu, after = time.perf_counter() - wall, time.process_time() - cpu, os.times()
    finally:
        gc.enable()
    assert status == 0, f"loop-opt {' '.join(argv)}: exit status {status}"
    return wall, cpu + (after.children_user - before.children_user) + (after.children_system - before.children_system)


def compare_jobs(sizes: list[int], target: str, jobs: int, best_of: int) -> None:
    """`--jobs 1` vs `--jobs jobs`, interleaved, best of `best_of` each: wall and CPU seconds."""
    import tempfile

    from .overhead import generated_module

    print(f"CPU: {cpu_model()} ({os.cpu_count()} CPUs); target {target}; loop-opt -t c --jobs 1 vs {jobs}, "
          f"interleaved, best of {best_of}; load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = Path(tmp) / f"generated{size}.mlir"
            path.write_text(generated_module(size))
            runs: dict[int, list[tuple[float, float]]] = {1: [], jobs: []}
            measure_jobs(path, target, 1)  # (warm-up, not counted: imports, regex and table caches)
            for _ in range(best_of):
                for n in (1, jobs):
                    runs[n].append(measure_jobs(path, target, n))
            serial = min(w for w, _ in runs[1])
            print(f"\n{size} df ops (load average {os.getloadavg()[0]:.1f}):")
            for n, r in runs.items():
                wall, cpu = min(w for w, _ in r), min(c for _, c in r)
                print(f"  --jobs {n}: wall {wall:7.2f} s ({serial / wall:.2f}x), CPU {cpu:7.2f} s (parent + workers)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sizes", type=int, nargs="*", default=[1000, 10000])
    p.add_argument("--target", default="avx2")
    p.add_argument("--best-of", type=int, default=3)
    p.add_argument("--profile", type=Path)
    p.add_argument("--verify-each", action="store_true", help="also verify after every step (compile.run_pipeline's check per pass)")
    p.add_argument("--jobs", type=int, default=0, help="time loop-opt --jobs 1 vs --jobs N instead (wall and CPU time)")
    args = p.parse_args(argv)
    if args.jobs:
        compare_jobs(args.sizes, args.target, args.jobs, args.best_of)
        return 0
    print(f"CPU: {cpu_model()}; target {args.target}; process CPU seconds, best of {args.best_of}; "
          f"load average {os.getloadavg()[0]:.1f}")
    for size in args.sizes:
        runs = []
        for _ in range(args.best_of):
            if args.profile:
                import cProfile

                prof = cProfile.Profile()
                runs.append(prof.runcall(measure, size, args.target, args.verify_each))
                prof.dump_stats(args.profile)
            else:
                runs.append(measure(size, args.target, args.verify_each))
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        ops = int(best.pop("ops"))
        extra = sum(v for k, v in best.items() if k.startswith("verify after"))
        total = sum(best.values()) - extra
        print(f"\n{ops} ops: {total:.2f} s as loop-opt runs it, {ops / total:.0f} ops/s "
              f"(load average {os.getloadavg()[0]:.1f})")
        for k, v in best.items():
            print(f"  {v:8.3f} s  {k}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
