"""Filters called from C with an output capacity below the kept count, against numpy, every ISA.

The calling convention's promise for a filter output (docs/calling_convention.md): the first
min(count, capacity) kept elements are written, the full count is returned, and nothing is
written outside the output, for any caller. The vectorized filters run their full-register
compress stores only while they provably fit and an exact tail after them; that tail's
`simd.compress_store ... limit` writes at most the room left at the cursor (it once wrote
popcount lanes at a cursor past a short capacity: heap corruption). f32/f64/i8/i16/i32/i64
filters, an unsigned u8 test on i8, a filter -> map and a two-output filter; sizes around every
vector width, primes and 1000; capacities 0, 1, count/2, count - 1, count, n; every buffer one
element into a canary-guarded allocation. NEON runs under qemu, where no raw C call is possible.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from diff_harness import ISAS
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.tools.loop_run_native import Guarded


def _keep(name: str, elt: str, pred: str, const: str) -> str:
    cmp = "arith.cmpf" if elt.startswith("f") else "arith.cmpi"
    return f"""
func.func @{name}(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [k]> {{
  %c0 = arith.constant {const} : {elt}
  %r = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [k]> {{
  ^bb0(%e: {elt}):
    %c = {cmp} {pred}, %e, %c0 : {elt}
    df.yield %c : i1
  }}
  func.return %r : !df.array<{elt}, [k]>
}}
"""


KEEPS = {  # kernel -> (element, numpy dtype, predicate, constant, numpy predicate)
    "keep_f32": ("f32", np.float32, "ogt", "0.0", lambda x: x > 0),
    "keep_f64": ("f64", np.float64, "ogt", "0.0", lambda x: x > 0),
    "keep_i8": ("i8", np.int8, "sgt", "0", lambda x: x > 0),
    "keep_u8": ("i8", np.int8, "ult", "100", lambda x: x.view(np.uint8) < 100),
    "keep_i16": ("i16", np.int16, "sgt", "0", lambda x: x > 0),
    "keep_i32": ("i32", np.int32, "sgt", "0", lambda x: x > 0),
    "keep_i64": ("i64", np.int64, "sgt", "0", lambda x: x > 0),
}

PROGRAM = "".join(_keep(name, elt, pred, c) for name, (elt, _, pred, c, _) in KEEPS.items()) + """
func.func @positive_times3_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %three : i32
    df.yield %m : i32
  }
  func.return %y : !df.array<i32, [k]>
}

func.func @pairs_where_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %a, %b = df.filter %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%e: f32, %f: f32):
    %c = arith.cmpf olt, %e, %f : f32
    df.yield %c : i1
  }
  func.return %a, %b : !df.array<f32, [k]>, !df.array<f32, [k]>
}
"""

SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 37, 63, 64, 65, 101, 127, 128, 129, 1000, 1031)
"""W - 1, W, W + 1 for every width (2 .. 64 lanes), primes, 1000."""


def _data(n: int, dtype, kept: str) -> np.ndarray:
    """About half kept at random, or every element (the cursor outruns a short capacity early)."""
    rng = np.random.default_rng([n, np.dtype(dtype).itemsize, kept == "all"])
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(n).astype(dtype)
        return np.abs(x) + 1 if kept == "all" else x
    x = rng.integers(-100, 100, n).astype(dtype)
    return np.abs(x) % 50 + 1 if kept == "all" else x


def _capacities(n: int, count: int) -> list[int]:
    return sorted({0, 1, count // 2, max(count - 1, 0), count, n})


def _placed(x: np.ndarray) -> Guarded:
    g = Guarded.make(x.shape, x.dtype, 1)
    g.view[...] = x
    return g


def _raw(lib: ctypes.CDLL, name: str, argtypes: list) -> ctypes._CFuncPtr:
    fn = getattr(lib, name)
    fn.argtypes, fn.restype = argtypes, ctypes.c_int64
    return fn


MEMORY_COMPRESS = pytest.param("avx512 cpu=skylake-x", marks=pytest.mark.isa("avx512"), id="avx512-compress-to-memory")
"""AVX-512 with vcompress to memory (the CPU model's choice on Intel): its limited tail spills."""


@pytest.fixture(scope="module", params=[*isa_params(ISAS), MEMORY_COMPRESS])
def lib(request) -> ctypes.CDLL:
    target, _, cpu = request.param.partition(" cpu=")
    compiled = compile(PROGRAM, target=target, pipeline=f"loop-pipeline{{target={target} cpu={cpu}}}" if cpu else None)
    if compiled.library is None:
        pytest.skip("NEON runs under qemu: the raw C call with a chosen capacity needs a native library")
    return ctypes.CDLL(str(compiled.library.path))


def _check_one_output(fn, x: np.ndarray, want: np.ndarray, where: str) -> None:
    n = x.size
    xg = _placed(x)
    for cap in _capacities(n, want.size):
        out = Guarded.make((cap,), want.dtype, 1)
        got = fn(xg.view.ctypes.data, n, out.view.ctypes.data, cap)
        assert got == want.size, f"{where} cap={cap}: returned {got}, the count is {want.size}"
        assert out.intact(), f"{where}: wrote outside its {cap}-element output"
        assert xg.intact()
        np.testing.assert_array_equal(out.view[: min(cap, want.size)], want[:cap], err_msg=f"{where} cap={cap}")


@pytest.mark.parametrize("kept", ["half", "all"])
@pytest.mark.parametrize("name", KEEPS)
def test_short_output_gets_what_fits(lib, name: str, kept: str) -> None:
    p, i64 = ctypes.c_void_p, ctypes.c_int64
    _, dtype, _, _, keep = KEEPS[name]
    fn = _raw(lib, name, [p, i64, p, i64])
    for n in SIZES:
        x = _data(n, dtype, kept)
        _check_one_output(fn, x, x[keep(x)], f"{name} n={n} kept={kept}")


@pytest.mark.parametrize("kept", ["half", "all"])
def test_filter_then_map_short_output(lib, kept: str) -> None:
    p, i64 = ctypes.c_void_p, ctypes.c_int64
    fn = _raw(lib, "positive_times3_i32", [p, i64, p, i64])
    for n in SIZES:
        x = _data(n, np.int32, kept)
        _check_one_output(fn, x, x[x > 0] * np.int32(3), f"positive_times3_i32 n={n} kept={kept}")


def test_two_outputs_of_different_short_capacities(lib) -> None:
    """Two outputs at one cursor, each bounded by its own capacity."""
    p, i64 = ctypes.c_void_p, ctypes.c_int64
    fn = _raw(lib, "pairs_where_f32", [p, i64, p, i64, p, i64, p, i64, ctypes.POINTER(i64), ctypes.POINTER(i64)])
    for n in SIZES:
        x, y = _data(n, np.float32, "half"), _data(n + 7, np.float32, "half")[:n]
        sel = x < y
        count = int(sel.sum())
        xg, yg = _placed(x), _placed(y)
        for cap in _capacities(n, count):
            other = min(cap + 3, n)
            o0, o1, r0, r1 = Guarded.make((cap,), np.float32, 1), Guarded.make((other,), np.float32, 1), i64(), i64()
            fn(xg.view.ctypes.data, n, yg.view.ctypes.data, n, o0.view.ctypes.data, cap, o1.view.ctypes.data, other,
               ctypes.byref(r0), ctypes.byref(r1))  # fmt: skip
            assert r0.value == r1.value == count, (n, cap)
            assert o0.intact() and o1.intact(), f"n={n}: pairs_where_f32 wrote outside an output ({cap}, {other})"
            np.testing.assert_array_equal(o0.view[: min(cap, count)], x[sel][:cap], err_msg=f"n={n} cap={cap}")
            np.testing.assert_array_equal(o1.view[: min(other, count)], y[sel][:other], err_msg=f"n={n} other={other}")
