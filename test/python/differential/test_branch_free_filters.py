"""Filters that stay scalar loops, printed branch-free (targets/c_print_loops.py), against numpy.

The filters the targets cannot vectorize today: f16 and bf16 storage (every target, the
scalar one included), two outputs at one cursor, f32 values kept by an f64 test (a
half-register compaction on the vector targets) and a float sum without reassoc. Their
width-1 predloops run the body on every element, store at the cursor and advance it by the
predicate. Sizes 0..20, around the 4-way unrolling and primes up to 65537, every buffer one
element into its allocation (an unaligned view; a write outside it fails), nothing / everything
/ about half kept; every ISA (NEON under qemu). Natively, outputs shorter than the input (down to
0) get exactly the kept elements that fit, the full count, and nothing written past them.
"""

from __future__ import annotations

import ctypes

import ml_dtypes
import numpy as np
import pytest
from diff_harness import ISAS, run_each
from isa_support import isa_params

from loopopt.compile import compile
from loopopt.tools.loop_run_native import Guarded

PROGRAM = """
func.func @keep_f16(%x: !df.array<f16, [i]>, %a: f32) -> !df.array<f16, [k]> {
  %r = df.filter %x : !df.array<f16, [i]> -> !df.array<f16, [k]> {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    %c = arith.cmpf ogt, %w, %a : f32
    df.yield %c : i1
  }
  func.return %r : !df.array<f16, [k]>
}

func.func @keep_pairs_bf16(%x: !df.array<bf16, [i]>, %y: !df.array<bf16, [i]>, %a: f32) -> (!df.array<bf16, [k]>, !df.array<bf16, [k]>) {
  %r, %s = df.filter %x, %y : !df.array<bf16, [i]>, !df.array<bf16, [i]> -> !df.array<bf16, [k]>, !df.array<bf16, [k]> {
  ^bb0(%e: bf16, %f: bf16):
    %w = arith.extf %e : bf16 to f32
    %c = arith.cmpf ogt, %w, %a : f32
    df.yield %c : i1
  }
  func.return %r, %s : !df.array<bf16, [k]>, !df.array<bf16, [k]>
}

func.func @keep_big_squares(%x: !df.array<f32, [i]>, %t: f64) -> !df.array<f32, [k]> {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.extf %e : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.cmpf ogt, %s, %t : f64
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

func.func @sum_above_f16(%x: !df.array<f16, [i]>, %a: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce(%x) add(%zero) over [i] : !df.array<f16, [i]> -> f32 where {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    %c = arith.cmpf ogt, %w, %a : f32
    df.yield %c : i1
  } map {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    df.yield %w : f32
  }
  func.return %s : f32
}
"""

SIZES = (*range(21), 31, 37, 61, 64, 65, 127, 1000, 4099, 65537)
THRESHOLDS = {"none": np.inf, "all": -np.inf, "half": 0.0}
"""Nothing kept, everything kept (the data has no NaN), about half kept at random."""

BRANCH_FREE = {  # kernel -> the ISAs printing it as the width-1 predloop (the scalar target lowers the rest itself)
    "keep_f16": ISAS, "keep_pairs_bf16": ISAS, "sum_above_f16": ISAS,
    "keep_big_squares": ("sse2", "avx2", "avx512", "neon"),
}  # fmt: skip


def _data(n: int, salt: int, dtype) -> np.ndarray:
    return np.random.default_rng([n, salt]).standard_normal(n).astype(np.float32).astype(dtype)


def _function_source(c: str, name: str) -> str:
    start = c.index(f" {name}(")
    return c[start : c.index("\n}\n", start)]


@pytest.fixture(scope="module", params=isa_params(ISAS))
def compiled(request):
    return compile(PROGRAM, target=request.param)


def test_the_filters_print_branch_free(compiled) -> None:
    """The kernels' C has the unrolled branch-free loop and no branch on the predicate."""
    isa = compiled.library.isa if compiled.library is not None else "neon"
    for name, isas in BRANCH_FREE.items():
        if isa in isas:
            body = _function_source(compiled.c_source, name)
            assert "#pragma GCC unroll 4" in body and "if (c)" not in body and "++;" not in body, (isa, name, body)


@pytest.mark.parametrize("kept", THRESHOLDS)
def test_filters_match_numpy(compiled, kept: str) -> None:
    a = np.float32(THRESHOLDS[kept])
    xs = {n: (_data(n, 1, np.float16), _data(n, 2, ml_dtypes.bfloat16), _data(n, 3, ml_dtypes.bfloat16), _data(n, 4, np.float32))
          for n in SIZES}  # fmt: skip
    runs = {name: run_each(compiled, name, args) for name, args in {
        "keep_f16": [(x, a) for x, _, _, _ in xs.values()],
        "keep_pairs_bf16": [(x, y, a) for _, x, y, _ in xs.values()],
        "keep_big_squares": [(x, np.float64(a) if kept != "half" else np.float64(1.0)) for _, _, _, x in xs.values()],
        "sum_above_f16": [(x, a) for x, _, _, _ in xs.values()],
    }.items()}  # fmt: skip
    for j, (n, (h, b, c, f)) in enumerate(xs.items()):
        where = f"n={n} kept={kept}"
        (got,) = runs["keep_f16"][j]
        np.testing.assert_array_equal(got.view(np.uint16), h[h.astype(np.float32) > a].view(np.uint16), err_msg=where)
        got_b, got_c = runs["keep_pairs_bf16"][j]
        keep = b.astype(np.float32) > a
        np.testing.assert_array_equal(got_b.view(np.uint16), b[keep].view(np.uint16), err_msg=where)
        np.testing.assert_array_equal(got_c.view(np.uint16), c[keep].view(np.uint16), err_msg=where)
        (got,) = runs["keep_big_squares"][j]
        t = np.float64(a) if kept != "half" else 1.0
        np.testing.assert_array_equal(got, f[f.astype(np.float64) ** 2 > t], err_msg=where)
        (got,) = runs["sum_above_f16"][j]
        kept_values = h.astype(np.float32)[h.astype(np.float32) > a]
        want = np.cumsum(kept_values, dtype=np.float32)[-1] if kept_values.size else np.float32(0)
        assert got == want, f"{where}: sum {got} != {want} (in element order)"


def _raw(compiled, name: str, argtypes: list) -> ctypes._CFuncPtr:
    fn = getattr(ctypes.CDLL(str(compiled.library.path)), name)
    fn.argtypes, fn.restype = argtypes, ctypes.c_int64
    return fn


def _guarded(cap: int, offset: int = 1) -> Guarded:
    return Guarded.make((cap,), np.uint16, offset)


def test_short_outputs_get_what_fits(compiled) -> None:
    """An output shorter than the input (as the threaded driver's exact capacities are, or
    shorter than the count): the kept elements that fit, the full count, no write past it."""
    if compiled.library is None:
        pytest.skip("NEON runs under qemu: the raw C call needs a native library")
    p, i64, f32 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_float
    keep = _raw(compiled, "keep_f16", [p, i64, f32, p, i64])
    pairs = _raw(compiled, "keep_pairs_bf16", [p, i64, p, i64, f32, p, i64, p, i64, ctypes.POINTER(i64), ctypes.POINTER(i64)])
    for n in (0, 1, 2, 5, 8, 9, 37, 1000):
        x, y = _data(n, 5, np.float16).view(np.uint16), _data(n, 6, np.float16).view(np.uint16)
        want = x[x.view(np.float16).astype(np.float32) > 0]
        for cap in sorted({0, 1, want.size // 2, max(want.size - 1, 0), want.size, n}):
            out = _guarded(cap)
            assert keep(x.ctypes.data, n, 0.0, out.view.ctypes.data, cap) == want.size, (n, cap)
            assert out.intact(), f"n={n}: keep_f16 wrote outside its {cap}-element output"
            np.testing.assert_array_equal(out.view[: min(cap, want.size)], want[:cap], err_msg=f"n={n} cap={cap}")
            # two outputs of different capacities at one cursor
            other = min(cap + 3, n)
            o0, o1, r0, r1 = _guarded(cap), _guarded(other), i64(), i64()
            xb, yb = x.view(np.float16).astype(ml_dtypes.bfloat16), y.view(np.float16).astype(ml_dtypes.bfloat16)
            pairs(xb.ctypes.data, n, yb.ctypes.data, n, 0.0, o0.view.ctypes.data, cap, o1.view.ctypes.data, other,
                  ctypes.byref(r0), ctypes.byref(r1))  # fmt: skip
            sel = xb.astype(np.float32) > 0
            assert r0.value == r1.value == int(sel.sum()), (n, cap)
            assert o0.intact() and o1.intact(), f"n={n}: keep_pairs_bf16 wrote outside an output ({cap}, {other})"
            np.testing.assert_array_equal(o0.view[: min(cap, r0.value)], xb[sel].view(np.uint16)[:cap], err_msg=f"n={n}")
            np.testing.assert_array_equal(o1.view[: min(other, r0.value)], yb[sel].view(np.uint16)[:other], err_msg=f"n={n}")
