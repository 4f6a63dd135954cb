"""Two-input fold streams (a dot beyond the LLC: 2 streams of 2 adjacent blocks,
vecloop.fold_stream_count) against numpy: f32 (split into 256-bit halves) and wrapping i32 (a
multiply: quarter loads), compiled for avx512 with cpu=zen4, and for avx2 and sse2 (whole
vectors) with cpu=zen3 (session 26: every width streams). Sizes around the limit (32 MiB of
two 4-byte inputs: 4194304 trips) — just past it, with no / some remainder blocks and a
masked tail, an odd number of whole 4-block groups (the two halves differ by a block) — and
two below it (no stream loop), at buffer offsets 0 and 1 element. Integer sums are exact;
every element of the stream section counts, so a stream that skipped, repeated or overlapped
blocks changes the i32 result (the data are distinct per position)."""

from __future__ import annotations

import numpy as np
import pytest
from isa_support import isa_unavailable

import loopopt

TARGETS = [pytest.param((isa, cpu), marks=pytest.mark.isa(isa), id=isa)
           for isa, cpu in (("avx512", "zen4"), ("avx2", "zen3"), ("sse2", "zen3"))]
LIMIT = 4_194_304
SIZES = (1000, LIMIT, LIMIT + 1, LIMIT + 64 * 3, LIMIT + 64 * 5 + 13, 2 * LIMIT + 64 + 7)
PROGRAM = """
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
func.func @dot_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %m = arith.muli %a, %b : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%p, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
"""


@pytest.fixture(scope="module", params=TARGETS)
def dot(request):
    isa, cpu = request.param
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    compiled = loopopt.compile(PROGRAM, target=isa, pipeline=f"loop-pipeline{{target={isa} cpu={cpu}}}")
    assert compiled.c_source.count("per_stream = ") >= 2, "the dots run no stream loop"
    return compiled


@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("n", SIZES)
def test_streamed_dot_matches_numpy(dot, n, offset):
    rng = np.random.default_rng([n, offset])
    i = np.arange(n + offset, dtype=np.int64)
    xi = ((i * 2654435761) % 2003 - 1001).astype(np.int32)[offset:]  # distinct per position, both signs
    yi = (rng.integers(-(2**31), 2**31, n + offset, dtype=np.int64).astype(np.int32))[offset:]
    expected = (xi.astype(np.int64) * yi.astype(np.int64)).sum() & 0xFFFFFFFF
    got = int(np.int32(dot.call_alloc("dot_i32", xi, yi))) & 0xFFFFFFFF
    assert got == expected, f"i32 n={n} offset={offset}"
    xf = rng.standard_normal(n + offset).astype(np.float32)[offset:]
    yf = rng.standard_normal(n + offset).astype(np.float32)[offset:]
    exact = float(np.dot(xf.astype(np.float64), yf.astype(np.float64)))
    bound = 1e-6 * float(np.abs(xf.astype(np.float64) * yf).sum()) + 1e-6
    assert abs(float(dot.call_alloc("dot_f32", xf, yf)) - exact) <= bound, f"f32 n={n} offset={offset}"
