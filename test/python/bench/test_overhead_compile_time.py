"""loop-bench's compile-time rows time what a user runs: the pipeline's own pass objects
(loopopt's canonicalize and cse) with the cyclic collector paused, as `loop-opt` and
`loopopt.compile` do (until session 27 they timed xDSL's canonicalize/cse with it on)."""

from __future__ import annotations

import gc

import loopopt.targets.c as c_target
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench import overhead

SOURCE = """
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""


def test_compile_time_runs_the_pipelines_passes_with_the_collector_paused(monkeypatch):
    seen: list[bool] = []
    emit = c_target.emit_c

    def recording(*args, **kwargs):
        seen.append(gc.isenabled())
        return emit(*args, **kwargs)

    monkeypatch.setattr(c_target, "emit_c", recording)
    was = gc.isenabled()
    ct = overhead.compile_time("sum", SOURCE, "avx2", repeats=1, warmup=0)
    assert ct.error is None and gc.isenabled() == was
    assert seen == [False]
    steps = LoopPipelinePass(target="avx2").step_passes()
    assert list(ct.passes) == [f"{i + 1:02d} {s.spelling()}" for i, (s, _) in enumerate(steps)]
    kinds = {type(p).__name__ for _, p in steps}
    assert {"CandidateCanonicalizePass", "HashedCSEPass"} <= kinds
