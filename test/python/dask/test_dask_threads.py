"""loopopt.dask with the local threaded scheduler: every pattern against numpy, the refusals."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import loopopt.dask as ldask  # noqa: E402
from loopopt.diagnostics import LoopoptDiagnostic  # noqa: E402

from dask_programs import SOURCE  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
CHUNKINGS = [(1,), (7,), (8, 8, 1), (3, 0, 14), (33,)]
"""Chunk patterns (repeated to cover the array): single elements, ragged, an empty chunk."""


def chunks_for(n: int, pattern: tuple[int, ...]) -> tuple[int, ...]:
    out, k = [], 0
    while sum(out) < n:
        out.append(min(pattern[k % len(pattern)], n - sum(out)))
        k += 1
    return tuple(out) or (0,)


def darr(x: np.ndarray, pattern: tuple[int, ...]):
    return da.from_array(x, chunks=(chunks_for(len(x), pattern),))


def threads(value):
    return value.compute(scheduler="threads")


@pytest.mark.parametrize("pattern", CHUNKINGS)
@pytest.mark.parametrize("n", [0, 1, 9, 100])
def test_zip_map_with_scalar(dask_kernels, n, pattern):
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    # y chunked differently from x: the chunks are unified
    out = threads(ldask.apply(dask_kernels["axpy_f32"], np.float32(2.5), darr(x, pattern), darr(y, (5,))))
    np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6, atol=1e-6)  # FMA contraction allowed


@pytest.mark.parametrize("pattern", CHUNKINGS)
def test_integer_reductions_are_exact(dask_kernels, pattern):
    x = np.random.default_rng(1).integers(-2**31, 2**31, 1000).astype(np.int32)  # the sum wraps
    s, m = threads(ldask.apply(dask_kernels["sum_and_max_i32"], darr(x, pattern)))
    assert s.dtype == np.int32 and s == x.sum(dtype=np.int32) and m == x.max()
    y = np.random.default_rng(2).integers(-9, 9, 300).astype(np.int64)
    p, lo = threads(ldask.reduce(dask_kernels["prod_min_i64"], darr(y, pattern), split_every=2))
    assert p == np.prod(y, dtype=np.int64) and lo == y.min()


@pytest.mark.parametrize("pattern", CHUNKINGS)
def test_unsigned_min_max_combine_in_the_unsigned_order(dask_kernels, pattern):
    """umax/umin partials combine on the unsigned view (a signed combine would pick the small
    values over the one with its top bit set), in reductions and scan carries."""
    rng = np.random.default_rng(11)
    x = rng.integers(1, 1000, 200).astype(np.int16)
    x[137] = -5  # the unsigned max: 65531
    u = x.view(np.uint16)
    hi, lo = threads(ldask.reduce(dask_kernels["umax_umin_i16"], darr(x, pattern)))
    assert hi.dtype == np.int16 and hi == -5 and lo == u.min().astype(np.int16)
    hi0, lo0 = threads(ldask.reduce(dask_kernels["umax_umin_i16"], darr(np.zeros(0, np.int16), pattern)))
    assert (hi0, lo0) == (0, -1)
    y = rng.integers(0, 100, 100).astype(np.int8)
    y[[30, 70]] = [-100, -3]
    got = threads(ldask.scan(dask_kernels["running_umax_i8"], darr(y, pattern)))
    np.testing.assert_array_equal(got, np.maximum.accumulate(y.view(np.uint8)).view(np.int8))


def test_empty_array_gives_the_init(dask_kernels):
    s, m = threads(ldask.apply(dask_kernels["sum_and_max_i32"], da.zeros(0, dtype=np.int32)))
    assert (s, m) == (0, np.iinfo(np.int32).min)


@pytest.mark.parametrize("pattern", [(7,), (250,), (1000,)])
def test_mean_and_variance_with_finalize(dask_kernels, pattern):
    x = np.random.default_rng(3).uniform(-10, 10, 1000)
    k = dask_kernels["moments_f64"]
    assert k.kinds == ("add", "add", "add")
    mean, var = threads(ldask.reduce(k, darr(x, pattern), finalize=lambda s, q, n: (s / n, q / n - (s / n) ** 2)))
    assert mean == pytest.approx(x.mean(), rel=1e-12, abs=1e-12) and var == pytest.approx(x.var(), rel=1e-10)


@pytest.mark.parametrize("pattern", CHUNKINGS)
def test_filter_has_unknown_chunks(dask_kernels, pattern):
    x = np.random.default_rng(4).standard_normal(200).astype(np.float32)
    out = ldask.apply(dask_kernels["positive_f32"], darr(x, pattern))
    assert np.isnan(out.shape[0]) and all(np.isnan(c) for c in out.chunks[0])
    np.testing.assert_array_equal(threads(out), x[x > 0])
    assert threads(out.compute_chunk_sizes().sum()) == pytest.approx(x[x > 0].sum(), rel=1e-5)


@pytest.mark.parametrize("pattern", CHUNKINGS)
def test_scans_carry_across_chunks(dask_kernels, pattern):
    x = np.random.default_rng(5).integers(-2**62, 2**62, 100).astype(np.int64)  # wraps
    np.testing.assert_array_equal(threads(ldask.apply(dask_kernels["cumsum_i64"], darr(x, pattern))),
                                  np.cumsum(x, dtype=np.int64))
    f = np.random.default_rng(6).standard_normal(100)
    f[40] = np.nan
    np.testing.assert_array_equal(threads(ldask.scan(dask_kernels["running_max_f64"], darr(f, pattern))),
                                  np.maximum.accumulate(f))


def test_fold_needs_a_combine(dask_kernels):
    k = dask_kernels["fold_max_f32"]
    x = np.random.default_rng(7).standard_normal(100).astype(np.float32)
    with pytest.raises(LoopoptDiagnostic, match=r"^<string>:\d+:\d+: error: .*df.fold is a sequential fold.*combine="):
        ldask.reduce(k, darr(x, (10,)))
    m = threads(ldask.reduce(k, darr(x, (10,)), combine=lambda p, q: (max(p[0], q[0]),)))
    assert m == x.max()


REFUSED = [
    ("""func.func @mean(%x: !df.array<f64, [i]>, %len: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %m = arith.divf %s, %len : f64
  func.return %m : f64
}""", "result #0 is computed by arith.divf, not by a df.reduce"),
    ("""func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}""", "float add reduction without reassoc"),
    ("""func.func @sum5(%x: !df.array<i32, [i]>) -> i32 {
  %five = arith.constant 5 : i32
  %s = df.reduce add(%x, %five) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}""", "init that is not the constant 0"),
    ("""func.func @cum5(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %five = arith.constant 5 : i64
  %p = df.scan add(%x, %five) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}""", "init that is not the constant 0"),
    ("""func.func @xors(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.scan custom(%x, %zero) : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%acc: i32, %e: i32):
    %s = arith.xori %acc, %e : i32
    df.yield %s : i32
  }
  func.return %p : !df.array<i32, [i]>
}""", "custom df.scan is sequential"),
    ("""func.func @center(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %zero = arith.constant 0 : i64
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i64, [i]> -> i64
  %c = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %d = arith.subi %e, %s : i64
    df.yield %d : i64
  }
  func.return %c : !df.array<i64, [i]>
}""", "df.reduce feeds an array result"),
    ("""func.func @both(%x: !df.array<i64, [i]>) -> (!df.array<i64, [i]>, i64) {
  %zero = arith.constant 0 : i64
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %x, %s : !df.array<i64, [i]>, i64
}""", "both arrays and scalars"),
    ("""func.func @sum_of_cumsum(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %p = df.scan add(%x, %zero) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  %s = df.reduce add(%p, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}""", "df.scan inside a reduction kernel"),
    ("""func.func @centered_abs_sum(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i64, [i]> -> i64
  %c = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %d = arith.subi %e, %s : i64
    %q = arith.muli %d, %d : i64
    df.yield %q : i64
  }
  %t = df.reduce add(%c, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %t : i64
}""", "is used inside the kernel"),
    ("""func.func @loop_ir(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %v = loop.load %x[%c0] : !loop.buf<f32>
  func.return %v : f32
}""", "needs the df program"),
]


@pytest.mark.parametrize("source, message", REFUSED, ids=[m.split()[0] + str(i) for i, (_, m) in enumerate(REFUSED)])
def test_unsplittable_kernels_are_located_errors(source, message):
    with pytest.raises(LoopoptDiagnostic) as info:
        ldask.kernel(source)
    assert message in info.value.message
    assert str(info.value).startswith("<string>:")  # file:line:col: error: ...


def test_bad_arguments(dask_kernels):
    k = dask_kernels["sum_and_max_i32"]
    with pytest.raises(TypeError, match="has dtype float64, expected int32"):
        ldask.apply(k, da.zeros(4))
    with pytest.raises(TypeError, match="takes 1 inputs"):
        ldask.apply(k, da.zeros(4, dtype=np.int32), 3)
    with pytest.raises(TypeError, match="is a reduce kernel, not a map"):
        ldask.map_blocks(k, da.zeros(4, dtype=np.int32))
    with pytest.raises(ValueError, match="different lengths"):
        ldask.apply(dask_kernels["axpy_f32"], np.float32(1), da.zeros(3, dtype=np.float32),
                    da.zeros(4, dtype=np.float32))
    unknown = ldask.apply(dask_kernels["positive_f32"], da.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError, match="unknown size"):
        ldask.apply(dask_kernels["positive_f32"], unknown)
    with pytest.raises(TypeError, match="scalar parameter 'a' takes a Python or numpy scalar, not a dask array"):
        ldask.apply(dask_kernels["axpy_f32"], da.ones((), dtype=np.float32), da.zeros(3, dtype=np.float32),
                    da.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="options .* are for reductions"):
        ldask.apply(dask_kernels["positive_f32"], da.zeros(4, dtype=np.float32), finalize=abs)


def test_workers_get_source_not_compiled_objects(dask_kernels):
    import pickle

    from loopopt import dask_support

    ref = dask_kernels["cumsum_i64"].ref
    assert pickle.loads(pickle.dumps(ref)) == ref
    dask_support._COMPILED.clear()  # a fresh process: the first chunk compiles
    x = np.arange(20, dtype=np.int64)
    np.testing.assert_array_equal(threads(ldask.apply(dask_kernels["cumsum_i64"], darr(x, (6,)))), np.cumsum(x))
    assert list(dask_support._COMPILED) == [(SOURCE, ref.target, None)]


def test_repo_root_on_sys_path_still_imports_the_real_dask():
    """`python -m ...` from the repository root puts it first on sys.path, where `dask.py`
    (loopopt.dask) lives: `import dask` must still be the real dask."""
    code = "import dask, dask.array; print(dask.__file__); print(dask.array.from_array)"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert "site-packages" in r.stdout.splitlines()[0]


def test_chunks_not_aligned_to_their_element_size(dask_kernels):
    """distributed hands workers chunks at any byte offset (pickle protocol 5 buffers)."""
    raw = np.zeros(4 * 50 + 1, dtype=np.uint8)
    x = np.frombuffer(raw.data, dtype=np.int32, count=50, offset=1)
    assert not x.flags.aligned
    s, m = threads(ldask.apply(dask_kernels["sum_and_max_i32"], da.from_array(x, chunks=16)))
    assert (s, m) == (0, 0)


@pytest.mark.parametrize("pattern", [(7,), (3, 0, 14)])
def test_several_outputs_share_one_call_per_chunk(dask_kernels, pattern):
    rng = np.random.default_rng(8)
    x, y = rng.standard_normal(100).astype(np.float32), rng.standard_normal(100).astype(np.float32)
    a, b = ldask.apply(dask_kernels["pairs_where_f32"], darr(x, pattern), darr(y, pattern))
    assert np.isnan(a.chunks[0][0])
    a, b = threads(a), threads(b)
    np.testing.assert_array_equal(a, x[x < y])
    np.testing.assert_array_equal(b, y[x < y])
    xi = rng.integers(-2**31, 2**31, 100).astype(np.int32)
    yi = rng.integers(-2**31, 2**31, 100).astype(np.int32)
    s, d = ldask.map_blocks(dask_kernels["sum_diff_i32"], darr(xi, pattern), darr(yi, pattern))
    import dask

    s, d = dask.compute(s, d, scheduler="threads")
    np.testing.assert_array_equal(s, xi + yi)  # wraps
    np.testing.assert_array_equal(d, xi - yi)
