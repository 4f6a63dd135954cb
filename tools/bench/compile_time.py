"""Compile time of the default pipeline on generated df modules of growing size (issue #11).

    .venv/bin/python -m loopopt.tools.bench.compile_time 1000 10000 --target avx2 [--best-of 3]

For each size: process CPU seconds (time.process_time, best of N) of parsing, each pass of
`loop-pipeline{target}` run one by one, the verification run_pipeline does after each pass
(diagnostics.verify_located), and C printing; then ops/s over the whole. The module is
tools/bench/overhead.generated_module (copies of a map→map→filter→map→reduce kernel).
`--profile` writes a cProfile of the last run to the given file.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from loopopt.tools.bench.env import cpu_model


def measure(min_ops: int, target: str) -> dict[str, float]:
    """CPU seconds per phase of one compilation of a generated module of at least `min_ops` ops."""
    from xdsl.passes import PassPipeline
    from xdsl.transforms import get_all_passes as get_all_xdsl_passes

    import loopopt.compile as lc
    from loopopt import registry
    from loopopt.diagnostics import verify_located
    from loopopt.targets.c import emit_c

    from .overhead import generated_module, pipeline_steps

    text = generated_module(min_ops)
    spec = lc.default_pipeline(target)
    passes = {**get_all_xdsl_passes(), **registry.get_all_passes()}
    times: dict[str, float] = {}
    ctx = lc.make_context()
    t = time.process_time()
    module = lc.parse(text, ctx, "generated")
    times["parse"] = time.process_time() - t
    times["ops"] = sum(1 for _ in module.walk()) - 1
    verify = 0.0
    for step in pipeline_steps(target):
        pipeline = PassPipeline.parse_spec(passes, step)
        t = time.process_time()
        pipeline.apply(ctx, module)
        times[step] = times.get(step, 0.0) + time.process_time() - t
        t = time.process_time()
        verify_located(module)
        verify += time.process_time() - t
    times["verify (after each pass)"] = verify
    t = time.process_time()
    emit_c(module, target, spec)
    times["print C"] = time.process_time() - t
    return times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sizes", type=int, nargs="*", default=[1000, 10000])
    p.add_argument("--target", default="avx2")
    p.add_argument("--best-of", type=int, default=3)
    p.add_argument("--profile", type=Path)
    args = p.parse_args(argv)
    print(f"CPU: {cpu_model()}; target {args.target}; process CPU seconds, best of {args.best_of}")
    for size in args.sizes:
        runs = []
        for _ in range(args.best_of):
            if args.profile:
                import cProfile

                prof = cProfile.Profile()
                runs.append(prof.runcall(measure, size, args.target))
                prof.dump_stats(args.profile)
            else:
                runs.append(measure(size, args.target))
        best = {k: min(r[k] for r in runs) for k in runs[0]}
        ops = int(best.pop("ops"))
        total = sum(best.values())
        print(f"\n{ops} ops: total {total:.2f} s, {ops / total:.0f} ops/s")
        for k, v in best.items():
            print(f"  {v:8.3f} s  {k}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
