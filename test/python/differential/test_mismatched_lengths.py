"""Maps, zips, map+reduce and rank-2 maps called from C with lengths that disagree, every ISA.

The calling convention (docs/calling_convention.md, "Negative lengths"): an axis that input
buffers give is guarded like a computed one; the loops run to the first input's length only
when every other buffer on the axis (inputs and outputs) holds at least that many elements,
else to 0: nothing is read past a buffer, nothing is written, a reduction gives its init.
Longer buffers are fine (the first n elements are used). Short inputs end at a PROT_NONE page
(a read past them faults), outputs sit in canary-guarded allocations (a write outside them is
seen) and start filled with the canary (a write inside them when nothing may be written is
seen). NEON runs under qemu, where no raw C call is possible.
"""

from __future__ import annotations

import ctypes
import mmap

import numpy as np
import pytest
from diff_harness import ISAS
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.tools.loop_run_native import Guarded

PROGRAM = """
func.func @axpy_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @add_i8(%x: !df.array<i8, [i]>, %y: !df.array<i8, [i]>) -> !df.array<i8, [i]> {
  %r = df.map %x, %y : !df.array<i8, [i]>, !df.array<i8, [i]> -> !df.array<i8, [i]> {
  ^bb0(%e: i8, %f: i8):
    %s = arith.addi %e, %f : i8
    df.yield %s : i8
  }
  func.return %r : !df.array<i8, [i]>
}

func.func @scale_f64(%x: !df.array<f64, [i]>, %a: f64) -> !df.array<f64, [i]> {
  %r = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %m = arith.mulf %a, %e : f64
    df.yield %m : f64
  }
  func.return %r : !df.array<f64, [i]>
}

func.func @dot_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %e, %f : f32
    df.yield %m : f32
  }
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%p, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @square_and_sum_i32(%x: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, i32) {
  %p = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %e : i32
    df.yield %m : i32
  }
  %z = arith.constant 7 : i32
  %s = df.reduce add(%p, %z) over [i] : !df.array<i32, [i]> -> i32
  func.return %p, %s : !df.array<i32, [i]>, i32
}

func.func @add2d_f32(%a: !df.array<f32, [i, j]>, %b: !df.array<f32, [i, j]>) -> !df.array<f32, [i, j]> {
  %r = df.map %a, %b : !df.array<f32, [i, j]>, !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32, %f: f32):
    %s = arith.addf %e, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i, j]>
}
"""

SIZES = (1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 101, 1000, 1031)
"""W - 1, W, W + 1 for every width (2 .. 64 lanes), primes, 1000."""

INT64_MIN = -(2**63)
p, i64 = ctypes.c_void_p, ctypes.c_int64
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
PAGE = mmap.PAGESIZE
_KEEP: list = []  # fenced mappings stay mapped for the module (numpy views point into them)


def fenced(x: np.ndarray) -> np.ndarray:
    """A copy of `x` ending at a PROT_NONE page: reading one element past it faults."""
    pages = (x.nbytes + PAGE - 1) // PAGE
    m = mmap.mmap(-1, (pages + 1) * PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    assert _libc.mprotect(base + pages * PAGE, PAGE, 0) == 0  # PROT_NONE
    _KEEP.append(m)
    view = np.frombuffer(m, dtype=x.dtype, count=x.size, offset=pages * PAGE - x.nbytes).reshape(x.shape)
    view[...] = x
    return view


def _canary(shape: tuple[int, ...], dtype) -> Guarded:
    return Guarded.make(shape, dtype, 1)


def untouched(g: Guarded) -> bool:
    """Nothing written inside or around the buffer (it was all canary)."""
    return g.intact() and bool(np.all(g.view.view(np.uint8) == Guarded.CANARY))


def _data(n: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng([n, seed, np.dtype(dtype).itemsize])
    if np.dtype(dtype).kind == "f":
        return rng.integers(-8, 8, n).astype(dtype)  # exact sums in any order
    return rng.integers(-100, 100, n).astype(dtype)


def _short(n: int) -> list[int]:
    """Lengths below n (a too-small buffer), negative ones included."""
    return sorted({0, n - 1, n // 2, -1, INT64_MIN})


@pytest.fixture(scope="module", params=isa_params(ISAS))
def lib(request) -> ctypes.CDLL:
    compiled = compile(PROGRAM, target=request.param)
    if compiled.library is None:
        pytest.skip("NEON runs under qemu: the raw C call with chosen lengths needs a native library")
    return ctypes.CDLL(str(compiled.library.path))


def _fn(lib: ctypes.CDLL, name: str, argtypes: list, restype=None):
    fn = getattr(lib, name)
    fn.argtypes, fn.restype = argtypes, restype
    return fn


def _zip(lib, name, dtype, extra, want):
    """A two-input map: short/long second input, short output, negative first length."""
    fn = _fn(lib, name, [p, i64, p, i64, *(t for t, _ in extra), p, i64])
    scalars = [v for _, v in extra]
    for n in SIZES:
        x, y = fenced(_data(n, dtype, 1)), _data(n + 5, dtype, 2)
        for ylen in [*_short(n), n, n + 5]:
            yf = fenced(y[: max(ylen, 0)] if ylen <= n else y)
            out = _canary((n,), dtype)
            fn(x.ctypes.data, n, yf.ctypes.data, ylen, *scalars, out.view.ctypes.data, n)
            if ylen < n:
                assert untouched(out), f"{name} n={n} y_len={ylen}: wrote its output"
            else:
                assert out.intact()
                np.testing.assert_array_equal(out.view, want(x, yf[:n], *scalars), err_msg=f"{name} n={n} y_len={ylen}")
        yf = fenced(y[:n])
        for olen in _short(n):
            out = _canary((max(olen, 0),), dtype)
            fn(x.ctypes.data, n, yf.ctypes.data, n, *scalars, out.view.ctypes.data, olen)
            assert untouched(out), f"{name} n={n} out_len={olen}: wrote its output"
        for xlen in (-1, INT64_MIN):
            out = _canary((n,), dtype)
            fn(x.ctypes.data, xlen, yf.ctypes.data, n, *scalars, out.view.ctypes.data, n)
            assert untouched(out), f"{name} x_len={xlen}: wrote its output"


def test_axpy_f32(lib) -> None:
    _zip(lib, "axpy_f32", np.float32, [(ctypes.c_float, 3.0)], lambda x, y, a: np.float32(a) * x + y)


def test_add_i8(lib) -> None:
    _zip(lib, "add_i8", np.int8, [], lambda x, y: x + y)


def test_map_short_output(lib) -> None:
    fn = _fn(lib, "scale_f64", [p, i64, ctypes.c_double, p, i64])
    for n in SIZES:
        x = fenced(_data(n, np.float64, 3))
        for olen in [*_short(n), n, n + 3]:
            out = _canary((max(olen, 0),), np.float64)
            fn(x.ctypes.data, n, 2.0, out.view.ctypes.data, olen)
            if olen < n:
                assert untouched(out), f"scale_f64 n={n} out_len={olen}: wrote its output"
            else:
                assert out.intact()
                np.testing.assert_array_equal(out.view[:n], 2.0 * x, err_msg=f"n={n} out_len={olen}")
                assert np.all(out.view[n:].view(np.uint8) == Guarded.CANARY)


def test_dot_mismatch_gives_init(lib) -> None:
    fn = _fn(lib, "dot_f32", [p, i64, p, i64], ctypes.c_float)
    for n in SIZES:
        x, y = fenced(_data(n, np.float32, 4)), _data(n + 5, np.float32, 5)
        for ylen in [*_short(n), n, n + 5]:
            got = fn(x.ctypes.data, n, fenced(y[: max(ylen, 0)] if ylen <= n else y).ctypes.data, ylen)
            want = 0.0 if ylen < n else float(np.dot(x, y[:n]))
            assert got == want, f"dot_f32 n={n} y_len={ylen}: {got} != {want}"
        assert fn(x.ctypes.data, -1, fenced(y[:n]).ctypes.data, n) == 0.0


def test_map_and_reduce_short_output(lib) -> None:
    """The reduction shares the map's axis: a short output empties both (the sum is its init)."""
    fn = _fn(lib, "square_and_sum_i32", [p, i64, p, i64], ctypes.c_int32)
    for n in SIZES:
        x = fenced(_data(n, np.int32, 6))
        for olen in [*_short(n), n]:
            out = _canary((max(olen, 0),), np.int32)
            got = fn(x.ctypes.data, n, out.view.ctypes.data, olen)
            if olen < n:
                assert got == 7 and untouched(out), f"n={n} out_len={olen}: {got}"
            else:
                assert got == 7 + int((x * x).sum()) and out.intact()
                np.testing.assert_array_equal(out.view, x * x)


@pytest.mark.parametrize("rows,cols", [(1, 1), (3, 17), (5, 64), (9, 33)])
def test_rank2(lib, rows: int, cols: int) -> None:
    fn = _fn(lib, "add2d_f32", [p, i64, i64, p, i64, i64, p, i64, i64])
    a = fenced(_data(rows * cols, np.float32, 7).reshape(rows, cols))
    wide = _data(rows * (cols + 2), np.float32, 8).reshape(rows, cols + 2)
    cases = [  # (b rows, b cols, out rows, out cols)
        (rows - 1, cols, rows, cols), (rows, cols - 1, rows, cols), (rows, cols, rows - 1, cols),
        (rows, cols, rows, cols - 1), (rows, -1, rows, cols), (rows, cols, INT64_MIN, cols),
    ]  # fmt: skip
    for br, bc, orr, oc in cases:
        b = fenced(wide[: max(br, 0), : max(bc, 0)].copy())
        out = _canary((max(orr, 0) * max(oc, 0),), np.float32)
        fn(a.ctypes.data, rows, cols, b.ctypes.data, br, bc, out.view.ctypes.data, orr, oc)
        assert untouched(out), f"add2d {rows}x{cols}: b {br}x{bc}, out {orr}x{oc}: wrote its output"
    b = fenced(wide)  # wider rows: the first `cols` of each are used
    out = _canary((rows, cols), np.float32)
    fn(a.ctypes.data, rows, cols, b.ctypes.data, rows, cols + 2, out.view.ctypes.data, rows, cols)
    assert out.intact()
    np.testing.assert_array_equal(out.view, a + wide[:, :cols])
