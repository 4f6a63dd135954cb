"""How `loop-bench` times things: calibrated repetitions, interleaved trials, medians.

* A *runner* is `run(reps)`: it performs `reps` repetitions of the measured operation
  (one C call looping inside C for compiled kernels, a Python loop for numpy).
* Calibration doubles `reps` until one sample lasts at least `min_sample` seconds (≥ 1 ms:
  the timer and the one Python→C call become negligible); it doubles as the warm-up.
* Trials are **interleaved** across the implementations of one cell (trial 1 of every
  implementation, then trial 2, ...), so a burst of noise from the other jobs on this
  machine hits all of them alike and the ratios between them hold even when absolute
  numbers drift. Each implementation's time per repetition is the median of its trials; a
  cell beyond the LLC runs more trials (within a time budget) and its ratios are paired per
  trial, with an interval (bench/paired.py).
* A sample is the **CPU time of this thread** (`time.thread_time_ns`), not wall time: this
  machine is shared (2 cores, load average often near 10), and a kernel preempted by another
  job is not slower — its wall time is. Everything timed runs on this one thread (the C
  kernels and numpy's element-wise loops are single-threaded). What CPU time does not remove
  — cache and memory-bandwidth contention from the other jobs — the interleaving spreads
  evenly over the implementations.
* A cell moving more bytes than the LLC rotates through copies of its buffers, one call per
  copy (bench/rotation.py), so no call finds data the previous call left in the LLC.
* A cell within the LLC moves its buffers to another placement before each trial
  (`before_trial`, bench/placement.py), outside the samples: every implementation of a trial
  runs on the same placement, and the median is over placements.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Runner = Callable[[int], object]


@dataclass(frozen=True)
class TimingConfig:
    min_sample: float = 1e-3
    """Seconds one sample must last at least."""
    trials: int = 15
    """Samples per implementation; the median is reported."""
    max_reps: int = 1 << 30
    far_trials: int = 41
    """Trials for a cell beyond the LLC (`time_group(far=True)`), while `far_budget` lasts: its
    ratios are paired per trial (bench/paired.py), whose interval narrows with more trials."""
    far_budget: float = 30.0
    """Seconds (CPU time of the samples) a far cell may spend on trials past `trials`."""


QUICK = TimingConfig(min_sample=2e-4, trials=1, far_trials=1)


@dataclass(frozen=True)
class Timing:
    """Seconds per repetition: the median over trials, and the spread."""

    median: float
    low: float
    high: float
    reps: int
    trials: int
    samples: tuple[float, ...] = ()
    """Seconds per repetition of each trial, in trial order (paired across a cell's runners)."""


def sample(run: Runner, reps: int) -> float:
    """Seconds of this thread's CPU time that `reps` repetitions took."""
    t0 = time.thread_time_ns()
    run(reps)
    return (time.thread_time_ns() - t0) * 1e-9


def calibrate(run: Runner, config: TimingConfig) -> int:
    """The smallest power-of-two repetition count whose sample lasts `min_sample` (runs a warm-up first)."""
    run(1)
    reps = 1
    while reps < config.max_reps:
        elapsed = sample(run, reps)
        if elapsed >= config.min_sample:
            return reps
        # Jump close to the target in one step once the sample is long enough to measure.
        factor = config.min_sample / elapsed if elapsed > 5e-5 else 2.0
        reps = max(reps * 2, int(reps * min(factor * 1.2, 64.0)))
    return config.max_reps


def time_group(runners: Mapping[str, Runner], config: TimingConfig, far: bool = False,
               before_trial: Callable[[int], object] | None = None) -> dict[str, Timing]:
    """Time each runner of one comparison group with interleaved trials, each trial in its own
    order (a shuffle seeded by the trial number, so runs repeat): a runner that always followed
    the same one would always find the caches as that one leaves them (at 12 MiB under load a
    re-read's GB/s varied 31-64 with its predecessor), a bias no median hides. A `far` group (a
    cell beyond the LLC, whose rate is bimodal) runs up to `far_trials` trials while the samples
    past `trials` stay within `far_budget` seconds. `before_trial(t)` runs before trial t's
    samples (after calibration for t = 0), untimed: bench/cells.py moves the buffers there."""
    reps = {name: calibrate(run, config) for name, run in runners.items()}
    samples: dict[str, list[float]] = {name: [] for name in runners}
    most = max(config.trials, config.far_trials) if far else config.trials
    extra = 0.0
    for trial in range(most):
        if trial >= config.trials and extra > config.far_budget:
            break
        if before_trial is not None:
            before_trial(trial)
        order = list(runners.items())
        random.Random(trial).shuffle(order)
        for name, run in order:
            took = sample(run, reps[name])
            samples[name].append(took / reps[name])
            if trial >= config.trials:
                extra += took
    return {
        name: Timing(statistics.median(s), min(s), max(s), reps[name], len(s), tuple(s)) for name, s in samples.items()
    }


def python_loop(fn: Callable[..., object], *args: object) -> Runner:
    """A runner calling `fn(*args)` `reps` times from Python (numpy expressions, call overhead)."""

    def run(reps: int) -> None:
        for _ in range(reps):
            fn(*args)

    return run


def best_wall(fn: Callable[[], object], repeat: int) -> float:
    """Wall seconds of the fastest of `repeat` calls of `fn()` after one warm-up call: for
    whole-program timings (jit dispatch, dask graphs) that span threads or processes, where
    this thread's CPU time would miss the work."""
    import time

    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)
