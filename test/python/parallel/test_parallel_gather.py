"""Gathers split across threads (loop-parallelize `sources`: the source read whole by every
chunk, indices and outputs offset) against numpy and the serial kernel: index arrays around
the chunk boundaries, sources empty, of one element and longer than the indices, indices out
of bounds (negative, the source's length, the i32 and i64 extremes: 0 as in the serial
kernel), 1-4 threads, every ISA this machine runs and NEON under qemu."""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import CHUNK, batch_on_threads, pipeline

import loopopt
from loopopt.compile import compile as loopopt_compile

SOURCE = """
func.func @gmap_f32(%v: !df.array<f32, [j]>, %ix: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %c = arith.constant 1.5 : f32
    %d = arith.mulf %e, %c : f32
    df.yield %d : f32
  }
  func.return %y : !df.array<f32, [i]>
}
func.func @gather_i8(%v: !df.array<i8, [j]>, %ix: !df.array<i64, [i]>) -> !df.array<i8, [i]> {
  %x = df.gather %v[%ix] : !df.array<i8, [j]>, !df.array<i64, [i]> -> !df.array<i8, [i]>
  func.return %x : !df.array<i8, [i]>
}
func.func @gzip_f64(%v: !df.array<f64, [j]>, %ix: !df.array<i32, [i]>, %w: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %x = df.gather %v[%ix] : !df.array<f64, [j]>, !df.array<i32, [i]> -> !df.array<f64, [i]>
  %y = df.map %x, %w : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %a, %b : f64
    df.yield %d : f64
  }
  func.return %y : !df.array<f64, [i]>
}
func.func @gsum_i64(%v: !df.array<i64, [j]>, %ix: !df.array<i64, [i]>) -> i64 {
  %x = df.gather %v[%ix] : !df.array<i64, [j]>, !df.array<i64, [i]> -> !df.array<i64, [i]>
  %z = arith.constant 0 : i64
  %s = df.reduce add(%x, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
func.func @gsum_max_f32(%v: !df.array<f32, [j]>, %ix: !df.array<i32, [i]>) -> (f32, f32) {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %z = arith.constant 0.0 : f32
  %m = arith.constant 0xFF800000 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  %t = df.reduce max(%x, %m) over [i] : !df.array<f32, [i]> -> f32
  func.return %s, %t : f32, f32
}
func.func @gscan_i32(%v: !df.array<i32, [j]>, %ix: !df.array<i64, [i]>) -> !df.array<i32, [i]> {
  %x = df.gather %v[%ix] : !df.array<i32, [j]>, !df.array<i64, [i]> -> !df.array<i32, [i]>
  %z = arith.constant 0 : i32
  %s = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %s : !df.array<i32, [i]>
}
func.func @gfilter_f32(%v: !df.array<f32, [j]>, %ix: !df.array<i32, [i]>) -> !df.array<f32, [k]> {
  %x = df.gather %v[%ix] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %f = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %e, %c : f32
    df.yield %p : i1
  }
  func.return %f : !df.array<f32, [k]>
}
"""
KERNELS = ("gmap_f32", "gather_i8", "gzip_f64", "gsum_i64", "gsum_max_f32", "gscan_i32", "gfilter_f32")
INDEX = {"gmap_f32": np.int32, "gather_i8": np.int64, "gzip_f64": np.int32, "gsum_i64": np.int64,
         "gsum_max_f32": np.int32, "gscan_i32": np.int64, "gfilter_f32": np.int32}
VALUE = {"gmap_f32": np.float32, "gather_i8": np.int8, "gzip_f64": np.float64, "gsum_i64": np.int64,
         "gsum_max_f32": np.float32, "gscan_i32": np.int32, "gfilter_f32": np.float32}
SIZES = (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, 5 * CHUNK + 17, 1009)
SOURCE_SIZES = (0, 1, 7, 3000)
THREADS = (1, 2, 3, 4)


def gathered(v: np.ndarray, ix: np.ndarray) -> np.ndarray:
    """df.gather: v[ix], 0 where ix is out of bounds (numpy would raise or wrap)."""
    ok = (ix >= 0) & (ix < len(v))
    return np.where(ok, v[np.where(ok, ix, 0)] if len(v) else np.zeros(len(ix), v.dtype), 0).astype(v.dtype)


def make_args(name: str, n: int, m: int, rng: np.random.Generator) -> tuple:
    it, vt = INDEX[name], VALUE[name]
    info = np.iinfo(it)
    ix = rng.integers(-2, m + 2, n).astype(it)  # some out of bounds
    if n > 4:  # the extremes: a bounds check on a truncated or sign-wrapped index would pass one
        ix[rng.choice(n, 4, replace=False)] = [info.min, info.max, m, -1]
    if np.issubdtype(vt, np.floating):
        v = rng.standard_normal(m).astype(vt)
    else:
        v = rng.integers(np.iinfo(vt).min, np.iinfo(vt).max, m, dtype=np.int64, endpoint=True).astype(vt)
    if name == "gzip_f64":
        return v, ix, rng.standard_normal(n)
    return v, ix


def reference(name: str, args: tuple) -> tuple:
    x = gathered(args[0], args[1])
    if name == "gmap_f32":
        return (x * np.float32(1.5),)
    if name == "gather_i8":
        return (x,)
    if name == "gzip_f64":
        return (x - args[2],)
    if name == "gsum_i64":
        return (x.sum(dtype=np.int64),)
    if name == "gsum_max_f32":
        return (x.sum(dtype=np.float64).astype(np.float32), x.max(initial=-np.inf).astype(np.float32))
    if name == "gscan_i32":
        return (np.cumsum(x, dtype=np.int32),)
    if name == "gfilter_f32":
        return (x[x > 0],)
    raise KeyError(name)


def check(name: str, got: list, want: tuple, where: tuple) -> None:
    got = list(got[: len(want)])
    if name == "gsum_max_f32":  # a reassociated float sum: close; the max is exact
        assert np.isclose(got[0], want[0], rtol=1e-4, atol=1e-3), (where, got, want)
        assert np.asarray(got[1]).tobytes() == np.asarray(want[1]).tobytes(), (where, got, want)
        return
    for g, w in zip(got, want, strict=True):
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes(), (where, g, w)


def bits(values) -> list[bytes]:
    return [np.asarray(v).tobytes() for v in values]


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_gathers_split_and_match_numpy_and_serial_for_every_thread_count(isa, restore_threads):
    par = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, -1, chunk=CHUNK, min_elements=0))
    serial = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, 0))
    plans = {f.sym_name.data: f.attributes["loop.parallel"] for f in par.module.ops if "loop.parallel" in f.attributes}
    assert set(plans) == set(KERNELS) and all("sources = [0 : i64]" in str(p) for p in plans.values())
    rng = np.random.default_rng(1414)
    for name in KERNELS:
        for m in SOURCE_SIZES:
            for n in SIZES:
                args = make_args(name, n, m, rng)
                want = reference(name, args)
                one = serial.outputs_and_results(name, *args)
                check(name, one, want, (isa, name, n, m, "serial"))
                first = None
                for t in THREADS:
                    loopopt.set_num_threads(t)
                    got = par.outputs_and_results(name, *args)
                    check(name, got, want, (isa, name, n, m, t))
                    if name != "gsum_max_f32":  # everything but the float sum: the serial kernel's bits
                        assert bits(got) == bits(one), (isa, name, n, m, t)
                    first = first or bits(got)
                    assert bits(got) == first, (isa, name, n, m, t)


NEON_KERNELS = ("gmap_f32", "gsum_max_f32", "gscan_i32", "gfilter_f32")


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_gathers_for_every_thread_count_under_qemu(isa):
    """The same under qemu-aarch64 (one run per kernel and thread count; LOOPOPT_NUM_THREADS
    sets the threads, as in test_parallel_kernels' NEON test)."""
    par = loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, -1, chunk=CHUNK, min_elements=0))
    assert {f.sym_name.data for f in par.module.ops if "loop.parallel" in f.attributes} == set(KERNELS)
    rng = np.random.default_rng(1415)
    for name in NEON_KERNELS:
        cases = [make_args(name, n, m, rng) for m in (0, 7, 3000) for n in (0, CHUNK + 1, 5 * CHUNK + 17)]
        first = None
        for t in THREADS:
            got = batch_on_threads(par[name], cases, t)
            for args, values in zip(cases, got):
                check(name, values, reference(name, args), (isa, name, len(args[1]), len(args[0]), t))
            flat = [b for vs in got for b in bits(vs)]
            first = first or flat
            assert flat == first, (name, t)
