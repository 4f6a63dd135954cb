"""The aligning head (lowering/loop_to_simd/align_peel.py, Costs.align_loads_from_bytes):
maps and folds compiled with cpu=zen4 for avx2 and avx512 and with cpu=zen3 for avx2 (sse2 has no
head: 16-byte loads) against numpy, with the input at every element-aligned misalignment 0..60
bytes from a 64-byte boundary and the output at another, at sizes 0, 1, W-1, W, W+1, around
Zen 3's 16 KiB and Zen 4's 32 KiB thresholds, primes and 1 Mi (+3).
The data are small integers (floats too): every partial sum is an integer below 2^24, so every
summation order gives the same bits and a head that skipped or repeated an element, or a
fold that lost the head's value (or counted its init twice), fails an exact comparison."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from isa_support import isa_unavailable

import loopopt

PROGRAMS = Path(__file__).resolve().parents[3] / "tools" / "bench" / "programs"
PROGRAM = (PROGRAMS / "axpb.mlir").read_text() + (PROGRAMS / "axpy.mlir").read_text() + """
func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %init = arith.constant 1.5 : f32
  %s = df.reduce add(%x, %init) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @max_i32(%x: !df.array<i32, [i]>) -> i32 {
  %init = arith.constant -7 : i32
  %s = df.reduce max(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @dot_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""
TARGETS = (("avx2", "zen4"), ("avx512", "zen4"), ("avx2", "zen3"))
SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 2047, 2048, 2049, 2731, 4095, 4096, 4097, 8191, 8192, 8193, 8209,
         65537, (1 << 20) + 3)  # fmt: skip


@pytest.fixture(scope="module", params=TARGETS, ids=[f"{isa}-{cpu}" for isa, cpu in TARGETS])
def kernels(request):
    isa, cpu = request.param
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    k = loopopt.compile(PROGRAM, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    assert k.c_source.count("int64_t head = ") >= 6, "some kernel has no aligning head"
    return k


def at(values: np.ndarray, misalign: int) -> np.ndarray:
    """A copy of `values` starting `misalign` bytes past a 64-byte boundary."""
    raw = np.zeros(values.nbytes + 128, np.uint8)
    start = (-raw.ctypes.data) % 64 + misalign
    out = raw[start : start + values.nbytes].view(values.dtype)
    out[:] = values
    assert not values.nbytes or out.ctypes.data % 64 == misalign
    return out


@pytest.mark.parametrize("n", SIZES)
def test_aligning_head_matches_numpy(kernels, n):
    rng = np.random.default_rng(n)
    xi = rng.integers(-3, 4, n).astype(np.int32)
    yi = rng.integers(-3, 4, n).astype(np.int32)
    xf, yf = xi.astype(np.float32), yi.astype(np.float32)
    offsets = range(0, 64, 4) if n < 100_000 else (0, 4, 16, 32, 60)
    for off in offsets:
        outoff = (off * 7 + 12) % 64
        x, y, xs = at(xi, off), at(yi, off), at(xf, off)
        out = at(np.zeros(n, np.float32), outoff)
        kernels["axpb_f32"](xs, np.float32(2), np.float32(1), out)
        assert np.array_equal(out, 2 * xf + 1), f"axpb_f32 n={n} off={off}"
        outi = at(np.zeros(n, np.int32), outoff)
        kernels["axpy_i32"](x, at(yi, (off + 20) % 64), np.int32(-5), outi)
        assert np.array_equal(outi, -5 * xi + yi), f"axpy_i32 n={n} off={off}"
        assert float(kernels.call_alloc("sum_f32", xs)) == 1.5 + float(xi.sum()), f"sum_f32 n={n} off={off}"
        assert int(kernels.call_alloc("sum_i32", x)) == int(xi.sum()), f"sum_i32 n={n} off={off}"
        assert int(kernels.call_alloc("max_i32", x)) == int(xi.max(initial=-7)), f"max n={n} off={off}"
        dot = float(kernels.call_alloc("dot_f32", xs, at(yf, off)))
        assert dot == float((xi.astype(np.int64) * yi).sum()), f"dot_f32 n={n} off={off}"


@pytest.mark.isa("avx512")
@pytest.mark.parametrize("n", (65537, (1 << 20) + 3))
def test_aligning_head_in_parallel_chunks(n):
    """A loop-parallelize chunk runs its own head (its range's trips and first address decide)."""
    why = isa_unavailable("avx512")
    if why:
        pytest.skip(why)
    k = loopopt.compile(PROGRAM, target="avx512", pipeline="loop-pipeline{target=avx512 cpu=zen4 parallel=2}")
    assert "int64_t head = " in k.c_source
    xi = np.random.default_rng(n).integers(-3, 4, n).astype(np.int32)
    for off in (0, 4, 16, 32, 60):
        xs = at(xi.astype(np.float32), off)
        assert float(k.call_alloc("sum_f32", xs)) == 1.5 + float(xi.sum()), f"sum_f32 n={n} off={off}"
        assert int(k.call_alloc("sum_i32", at(xi, off))) == int(xi.sum()), f"sum_i32 n={n} off={off}"
        out = at(np.zeros(n, np.float32), (off + 12) % 64)
        k["axpb_f32"](xs, np.float32(2), np.float32(1), out)
        assert np.array_equal(out, 2 * xi.astype(np.float32) + 1), f"axpb_f32 n={n} off={off}"
