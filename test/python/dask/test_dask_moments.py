"""loopopt.dask.mean_var: per-chunk (count, mean, M2) merged with Chan et al.'s formula, against
numpy's var where the textbook form q/n - (s/n)**2 (what `reduce` with a finalize computes)
cancels catastrophically: a mean large next to the spread. Threaded scheduler and a
distributed.LocalCluster of two processes."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import loopopt.dask as ldask  # noqa: E402

TEXTBOOK = """
func.func @sums_{t}(%x: !df.array<{t}, [i]>) -> ({t}, {t}, {t}) {{
  %zero = arith.constant 0.0 : {t}
  %sq = df.map %x : !df.array<{t}, [i]> -> !df.array<{t}, [i]> {{
  ^bb0(%e: {t}):
    %p = arith.mulf %e, %e : {t}
    df.yield %p : {t}
  }}
  %ones = df.map %x : !df.array<{t}, [i]> -> !df.array<{t}, [i]> {{
  ^bb0(%e: {t}):
    %c = arith.constant 1.0 : {t}
    df.yield %c : {t}
  }}
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<{t}, [i]> -> {t}
  %q = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<{t}, [i]> -> {t}
  %n = df.reduce add(%ones, %zero) over [i] reassoc : !df.array<{t}, [i]> -> {t}
  func.return %s, %q, %n : {t}, {t}, {t}
}}
"""
CASES = [  # dtype, mean, bound on the relative error of the variance
    (np.float64, 1e8, 1e-9),
    (np.float32, 1e4, 1e-6),  # at 1e8 an f32 is a multiple of 8: the data would be its own rounding
]
N, CHUNK = 200_000, 25_000


def data(dtype, mean: float, n: int = N) -> np.ndarray:
    return (mean + np.random.default_rng(2026).standard_normal(n)).astype(dtype)


def rel(got, want) -> float:
    return abs(float(got) - want) / abs(want)


def textbook(x: np.ndarray, chunks: int, compute) -> float:
    """The variance `reduce` gives with the docs' old finalize: Σx, Σx², n merged exactly,
    then q/n - (s/n)**2 in x's dtype."""
    t = "f32" if x.dtype == np.float32 else "f64"
    k = ldask.kernel(TEXTBOOK.format(t=t), f"sums_{t}")
    return compute(ldask.reduce(k, da.from_array(x, chunks=chunks), finalize=lambda s, q, n: q / n - (s / n) ** 2))


@pytest.mark.parametrize(("dtype", "mean", "bound"), CASES, ids=["f64", "f32"])
def test_mean_var_is_stable_where_the_textbook_form_cancels(dtype, mean, bound):
    x = data(dtype, mean)
    want_var, want_mean = np.var(x.astype(np.float64)), x.astype(np.float64).mean()
    assert rel(np.var(x), want_var) < bound  # numpy itself (two passes, pairwise sums)
    got_mean, got_var = ldask.mean_var(da.from_array(x, chunks=CHUNK), split_every=3).compute(scheduler="threads")
    assert got_var.dtype == got_mean.dtype == dtype
    assert rel(got_var, want_var) < bound, (got_var, want_var)
    assert rel(got_mean, want_mean) < 4 * np.finfo(dtype).eps
    old = textbook(x, CHUNK, lambda d: d.compute(scheduler="threads"))
    assert rel(old, want_var) > 0.1, (old, want_var)  # what mean_var replaces: ~100% (f64), ~900% (f32) off


def test_f32_at_1e8_the_data_is_its_own_rounding_and_mean_var_still_holds():
    """1e8 + N(0, 1) in f32 is mostly 1e8 itself (f32s there are 8 apart): variance ~0.004.
    mean_var (chunks widened to f64) gets it; the textbook form does not (nor, with numpy 2.x
    here, numpy's own f32 var: f32 mean and sums, off by ~6.7e4 times; not asserted)."""
    x = data(np.float32, 1e8)
    want = np.var(x.astype(np.float64))
    _, got = ldask.mean_var(da.from_array(x, chunks=CHUNK), split_every=3).compute(scheduler="threads")
    assert rel(got, want) < 1e-6, (got, want)
    assert rel(textbook(x, CHUNK, lambda d: d.compute(scheduler="threads")), want) > 1.0


@pytest.mark.parametrize("chunks", [(1,) * 7 + (0, 5, 300), (2, 0, 0, 306), (308,)], ids=["ones", "empties", "one"])
@pytest.mark.parametrize("ddof", [0, 1])
def test_ragged_and_empty_chunks_and_ddof_match_numpy(chunks, ddof):
    x = data(np.float64, -3e6, sum(chunks))
    got_mean, got_var = ldask.mean_var(da.from_array(x, chunks=(chunks,)), ddof=ddof, split_every=2).compute(scheduler="threads")
    assert rel(got_var, np.var(x, ddof=ddof)) < 1e-9 and rel(got_mean, x.mean()) < 1e-15


def test_too_few_elements_give_nan_and_bad_arguments_are_refused():
    mean, var = ldask.mean_var(da.zeros(0, chunks=4)).compute(scheduler="threads")
    assert np.isnan(mean) and np.isnan(var)
    mean, var = ldask.mean_var(da.from_array(np.array([2.5]), chunks=1), ddof=1).compute(scheduler="threads")
    assert mean == 2.5 and np.isnan(var)
    with pytest.raises(TypeError, match="f32 or f64"):
        ldask.mean_var(da.zeros(4, dtype=np.int32, chunks=2))
    with pytest.raises(ValueError, match="ddof"):
        ldask.mean_var(da.zeros(4, chunks=2), ddof=-1)


def test_chan_merge_of_any_split_is_the_two_pass_moments_of_the_whole():
    rng = np.random.default_rng(7)
    x = 1e8 + rng.standard_normal(1001)
    for cut in (0, 1, 500, 1000, 1001):
        parts = [(len(p), p.mean() if len(p) else np.nan, ((p - p.mean()) ** 2).sum() if len(p) else 0.0)
                 for p in (x[:cut], x[cut:])]
        n, mean, m2 = ldask.chan_merge(*parts)
        assert n == 1001 and rel(mean, x.mean()) < 1e-15 and rel(m2, ((x - x.mean()) ** 2).sum()) < 1e-9


def test_distributed_local_cluster_gives_the_stable_variance():
    distributed = pytest.importorskip("distributed")
    x = data(np.float64, 1e8, 50_000)
    with distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        got_mean, got_var = client.compute(ldask.mean_var(da.from_array(x, chunks=6_000), split_every=2), sync=True)
        old = textbook(x, 6_000, lambda d: client.compute(d, sync=True))
    want = np.var(x)
    assert rel(got_var, want) < 1e-9 and rel(got_mean, x.mean()) < 1e-15
    assert rel(old, want) > 0.1  # the textbook form: off by ~100% here
