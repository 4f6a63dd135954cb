"""loopopt.dask with threaded kernels (`loop-pipeline{parallel=-1}`, small chunks so that every
dask chunk splits) under dask's threaded scheduler: four dask threads call parallel kernels at
once, so most calls find another running and use one thread (no oversubscription,
docs/threads.md); results are numpy's, and bit-identical for 1 or 4 dask threads and 1 or 2
kernel threads (fixed chunks, partials merged in dask's fixed tree order)."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

import loopopt  # noqa: E402
import loopopt.dask as ldask  # noqa: E402
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes  # noqa: E402
from loopopt.runtime import best_isa, threads  # noqa: E402

from dask_programs import SOURCE  # noqa: E402


@pytest.fixture(scope="module")
def par_kernels():
    isa = best_isa()
    spelled = LoopPipelinePass(target=isa, parallel=-1).spelling(set(_all_passes()))
    assert "loop-parallelize{threads=" in spelled
    pipeline = spelled.replace("loop-parallelize{threads=", "loop-parallelize{chunk=64 min_elements=0 threads=")
    names = ("moments_f64", "positive_f32", "cumsum_i64", "axpy_f32", "sum_and_max_i32")
    return {n: ldask.kernel(SOURCE, n, pipeline=pipeline) for n in names}


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


def test_the_pipeline_makes_threaded_kernels(par_kernels):
    from loopopt.dask_support import compiled

    built = compiled(par_kernels["moments_f64"].ref)
    parallel = {f.sym_name.data for f in built.module.ops if "loop.parallel" in f.attributes}
    assert set(par_kernels) <= parallel


def test_threaded_kernels_under_the_threaded_scheduler(par_kernels):
    rng = np.random.default_rng(41)
    n = 40_000
    x = rng.standard_normal(n) * np.exp(rng.uniform(-8, 8, n))
    xf = rng.standard_normal(n).astype(np.float32)
    xi = rng.integers(-(2**62), 2**62, n).astype(np.int64)
    xs = rng.integers(-(2**31), 2**31, n).astype(np.int32)
    chunks = (5000, 3001, 7999, 64, 63, 12000, 11873)
    dx, dxf, dxi, dxs = (da.from_array(a, chunks=(chunks,)) for a in (x, xf, xi, xs))

    def graph():
        return {
            "moments": ldask.reduce(par_kernels["moments_f64"], dx, split_every=3),
            "positive": ldask.apply(par_kernels["positive_f32"], dxf),
            "cumsum": ldask.apply(par_kernels["cumsum_i64"], dxi),
            "axpy": ldask.apply(par_kernels["axpy_f32"], np.float32(-1.5), dxf, dxf),
            "sum_max": ldask.apply(par_kernels["sum_and_max_i32"], dxs),
        }

    runs = []
    for kernel_threads in (1, 2):
        loopopt.set_num_threads(kernel_threads)
        for workers in (1, 4):
            # optimize_graph=False: dask 2026.8.0's optimization returns the results of a compute
            # mixing Delayed values (the reductions) and arrays in the wrong places (docs/dask.md)
            (got,) = dask.compute(graph(), scheduler="threads", num_workers=workers, optimize_graph=False)
            runs.append(got)
            assert threads.parallel_calls() == 0
    first = runs[0]
    s, q, c = first["moments"]
    assert c == n
    assert s == pytest.approx(x.sum(), rel=1e-12, abs=1e-9) and q == pytest.approx((x * x).sum(), rel=1e-12)
    np.testing.assert_array_equal(first["positive"], xf[xf > 0])
    np.testing.assert_array_equal(first["cumsum"], np.cumsum(xi))
    np.testing.assert_allclose(first["axpy"], np.float32(-1.5) * xf + xf, rtol=1e-6)
    assert first["sum_max"] == (xs.sum(dtype=np.int32), xs.max())
    for other in runs[1:]:
        assert np.asarray(other["moments"]).tobytes() == np.asarray(first["moments"]).tobytes()  # the float bits
        for key in ("positive", "cumsum", "axpy"):
            assert other[key].tobytes() == first[key].tobytes(), key
