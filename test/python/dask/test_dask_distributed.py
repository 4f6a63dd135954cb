"""loopopt.dask on a distributed.LocalCluster of two worker processes (one for the module)."""

from __future__ import annotations

import os

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
import loopopt.dask as ldask  # noqa: E402

from dask_programs import SOURCE  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None,
                                       silence_logs=40)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def test_every_pattern_on_two_processes(client, dask_kernels):
    rng = np.random.default_rng(11)
    x = rng.standard_normal(5000)
    xf = x.astype(np.float32)
    xi = rng.integers(-2**31, 2**31, 5000).astype(np.int32)
    dx, dxf, dxi = (da.from_array(a, chunks=700) for a in (x, xf, xi))
    axpy = ldask.apply(dask_kernels["axpy_f32"], np.float32(-1.5), dxf, dxf)
    positive = ldask.apply(dask_kernels["positive_f32"], dxf)
    running = ldask.apply(dask_kernels["running_max_f64"], dx)
    sums = ldask.apply(dask_kernels["sum_and_max_i32"], dxi)
    moments = ldask.reduce(dask_kernels["moments_f64"], dx, split_every=3,
                           finalize=lambda s, q, n: (s / n, q / n - (s / n) ** 2))
    axpy, positive, running, sums, moments = client.compute([axpy, positive, running, sums, moments], sync=True)
    np.testing.assert_allclose(axpy, np.float32(-1.5) * xf + xf, rtol=1e-6)
    np.testing.assert_array_equal(positive, xf[xf > 0])
    np.testing.assert_array_equal(running, np.maximum.accumulate(x))
    assert sums == (xi.sum(dtype=np.int32), xi.max())
    assert moments == pytest.approx((x.mean(), x.var()), rel=1e-10)


def test_workers_compile_from_source_in_their_own_process(client, dask_kernels):
    x = np.arange(-500, 500, dtype=np.int64)
    got = client.compute(ldask.apply(dask_kernels["cumsum_i64"], da.from_array(x, chunks=64)), sync=True)
    np.testing.assert_array_equal(got, np.cumsum(x))

    def compiled_here():
        from loopopt import dask_support

        return os.getpid(), [(key[0] == SOURCE, key[1]) for key in dask_support._COMPILED]

    seen = client.run(compiled_here)
    assert len(seen) == 2
    pids = {pid for pid, _ in seen.values()}
    assert os.getpid() not in pids and len(pids) == 2  # real worker processes
    assert any(keys == [(True, dask_kernels["cumsum_i64"].ref.target)] for _, keys in seen.values())
