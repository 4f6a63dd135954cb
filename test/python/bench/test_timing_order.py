"""loop-bench's interleaved trials vary the order of a cell's implementations (tools/bench/timing.py)."""

from __future__ import annotations

from loopopt.tools.bench.timing import TimingConfig, time_group


def test_each_runner_follows_more_than_one_predecessor_and_every_trial_runs_all():
    calls: list[str] = []

    def runner(name: str):
        def run(reps: int) -> None:
            calls.append(name)
            sum(range(2000 * reps))  # some CPU time, so calibration ends

        return run

    names = ["a", "b", "c", "d"]
    trials = 12
    timings = time_group({n: runner(n) for n in names}, TimingConfig(min_sample=1e-5, trials=trials))
    assert all(t.trials == trials for t in timings.values())
    timed = calls[-trials * len(names):]  # after the calibration calls
    rounds = [timed[i: i + len(names)] for i in range(0, len(timed), len(names))]
    assert all(sorted(r) == names for r in rounds)
    predecessors = {n: {r[r.index(n) - 1] for r in rounds if r.index(n) > 0} for n in names}
    assert all(len(p) >= 2 for p in predecessors.values()), predecessors
    assert len({tuple(r) for r in rounds}) > 1
