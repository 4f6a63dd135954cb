"""loop-bench's statistic beyond the LLC (tools/bench/paired.py): per-trial paired ratios with an
interval, so a bimodal 16 Mi rate does not read as a gap."""

from __future__ import annotations

from loopopt.tools.bench import cells, report
from loopopt.tools.bench.paired import median_interval, paired_ratio
from loopopt.tools.bench.timing import Timing, TimingConfig, time_group

SLOW, FAST = 64 / 33e9 * 2**20, 64 / 43e9 * 2**20  # one 64 MiB call at ~33 and ~43 GB/s


def _timing(samples: list[float]) -> Timing:
    s = sorted(samples)
    return Timing(s[len(s) // 2], s[0], s[-1], 1, len(s), tuple(samples))


def _run(lo: list[float], kernel: list[float], far: bool = True) -> report.Run:
    env = {"cpu": "Test CPU", "cores": 2, "caches": "L3 32768K", "host_isas": ["avx2"], "compiler": "gcc",
           "python": "3.11", "numpy": "2", "flags": {}, "load_average_start": "0", "rotation_llc_bytes": 32 << 20}  # fmt: skip
    cell = cells.CellResult("sumsq", "map→fold", "i32", 1 << 24, 1 << 26, "16Mi", copies=2, far=far)
    cell.timings = {"loopopt/avx2": _timing(lo), "kernels/avx2": _timing(kernel)}
    return report.Run(env, ("avx2",), {}, TimingConfig(), cells=[cell])


def test_a_bimodal_rate_is_not_a_gap():
    """11 trials of two equal kernels whose calls land in the 33 or the 43 GB/s mode: loopopt in
    the slow one 6 times, the kernel 5. The ratio of medians reads 0.77x (a 'miss' of the 0.95x
    bar); the paired trials read 1.00x, and the report lists no cell below the bar."""
    lo = [SLOW] * 6 + [FAST] * 5
    kernel = [FAST, FAST] + [SLOW] * 5 + [FAST] * 4
    run = _run(lo, kernel)
    cell = run.cells[0]
    assert abs(cell.timings["kernels/avx2"].median / cell.timings["loopopt/avx2"].median - 33 / 43) < 1e-9
    assert abs(report.ratio(cell, "loopopt/avx2", "kernels/avx2") - 1.0) < 1e-9
    text = report.markdown(run)
    assert "0 below 0.95×" in text
    assert "1.00×≈ [1.00–1.00] (kernels/avx2)" in text


def test_a_ratio_whose_interval_holds_one_is_marked_within_noise():
    """Independent modes: the per-trial ratios spread over 0.77-1.30 and their median's interval
    holds 1.0, so the table marks the ratio ≈ and the target line says it is within noise."""
    lo = [SLOW, SLOW, FAST, SLOW, SLOW, FAST, SLOW, SLOW, FAST, SLOW, SLOW, SLOW, FAST]
    kernel = [FAST, SLOW, SLOW, FAST, SLOW, FAST, FAST, SLOW, SLOW, FAST, FAST, SLOW, SLOW]
    p = paired_ratio(lo, kernel)
    assert p is not None and p.low < 0.95 and p.within_noise()
    text = report.markdown(_run(lo, kernel))
    assert f"{p.median:.2f}×≈ [{p.low:.2f}–{p.high:.2f}] (kernels/avx2)" in text
    if p.median < 0.95:
        assert "within noise" in text


def test_cells_within_the_llc_keep_the_ratio_of_medians():
    lo = [SLOW] * 6 + [FAST] * 5
    kernel = [FAST, FAST] + [SLOW] * 5 + [FAST] * 4
    cell = _run(lo, kernel, far=False).cells[0]
    assert abs(report.ratio(cell, "loopopt/avx2", "kernels/avx2") - 33 / 43) < 1e-9
    assert report.paired(cell, "loopopt/avx2", "kernels/avx2") is None


def test_median_interval_is_the_sign_test_order_statistics():
    assert median_interval(list(range(11))) == (2, 8)  # k = floor((11 - 1.96 * 3.32) / 2) = 2
    assert median_interval(list(range(41))) == (14, 26)
    assert paired_ratio([1.0] * 4, [1.0] * 4) is None  # too few trials for an interval


def test_far_groups_run_more_trials_within_their_budget():
    def runner(reps: int) -> None:
        sum(range(2000 * reps))

    config = TimingConfig(min_sample=1e-5, trials=3, far_trials=9)
    near = time_group({"a": runner, "b": runner}, config)
    far = time_group({"a": runner, "b": runner}, config, far=True)
    assert {t.trials for t in near.values()} == {3} and {t.trials for t in far.values()} == {9}
    assert all(len(t.samples) == t.trials for t in far.values())
    spent = time_group({"a": runner}, TimingConfig(min_sample=1e-5, trials=3, far_trials=9, far_budget=0.0), far=True)
    assert spent["a"].trials == 4  # the first trial past `trials` spends the budget


def test_every_cell_is_read_through_its_paired_trials():
    """In cache too, the targets say which differences the trials can tell apart: an equal pair
    whose medians read 0.77x is within noise; a loop 10 % slower in every trial is measurably slower
    (it fails if the in-cache trials are not paired or the verdict is left out)."""
    lo = [SLOW] * 6 + [FAST] * 5
    kernel = [FAST, FAST] + [SLOW] * 5 + [FAST] * 4
    text = report.markdown(_run(lo, kernel, far=False))
    assert "0 of 1 cells measurably slower than the best baseline, 1 within noise of it, 0 measurably faster" in text

    base = [FAST * (1 + 0.01 * t) for t in range(11)]
    text = report.markdown(_run([1.1 * t for t in base], base, far=False))
    assert "1 of 1 cells measurably slower than the best baseline, 0 within noise of it, 0 measurably faster" in text
    assert "sumsq/i32/16Mi 0.91× [0.91–0.91] (kernels/avx2)" in text
