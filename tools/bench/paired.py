"""A ratio of two implementations of one cell from their paired trials, with its spread.

Beyond the LLC one core's streaming rate is bimodal on the Zen 4 host (~33 or ~43 GB/s from call
to call, results/amd-zen4/fold_gap/rotation-2026-11-27.md): at 11-15 trials each implementation's
median lands in either mode, so the ratio of two medians can read 0.77x or 1.30x for two equal
kernels. Trial t of every implementation of a cell runs back to back (bench/timing.py), so the
per-trial ratio t_b[t] / t_a[t] cancels what a trial shares; its median is the ratio, and the
order statistics around that median give a distribution-free ~95% interval. A ratio whose
interval contains 1.0 is within noise: the run cannot tell the two apart.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

MIN_TRIALS = 5
"""Fewer paired trials give no interval (a sign test needs 6 for 95%, 5 for ~94%)."""


@dataclass(frozen=True)
class PairedRatio:
    """Speed of a relative to b (b's time / a's time): the median over paired trials and the
    ~95% interval of that median."""

    median: float
    low: float
    high: float
    trials: int

    def within_noise(self, bar: float = 1.0) -> bool:
        """Whether `bar` lies inside the interval: the trials cannot tell the ratio from `bar`."""
        return self.low <= bar <= self.high


def median_interval(values: Sequence[float]) -> tuple[float, float]:
    """The order statistics (x_(k), x_(n-1-k)) that hold the median with ~95% confidence: k from
    the sign test's normal approximation, k = floor((n - 1.96 sqrt(n)) / 2), at least 0."""
    xs = sorted(values)
    n = len(xs)
    k = max(0, math.floor((n - 1.96 * math.sqrt(n)) / 2))
    return xs[k], xs[n - 1 - k]


def paired_ratio(a: Sequence[float], b: Sequence[float]) -> PairedRatio | None:
    """b[t] / a[t] over the trials both have (seconds of implementation a and b in trial t), or
    None with fewer than MIN_TRIALS pairs or a zero time."""
    pairs = [(x, y) for x, y in zip(a, b) if x > 0 and y > 0]
    if len(pairs) < MIN_TRIALS:
        return None
    ratios = [y / x for x, y in pairs]
    low, high = median_interval(ratios)
    return PairedRatio(statistics.median(ratios), low, high, len(ratios))
