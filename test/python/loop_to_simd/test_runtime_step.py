"""Loops over range(lo, hi, %s) with a runtime step vectorize (lanes lo + (p + k)*s, iota x
step; loop_to_simd/range.py) and give exactly the scalar loop's results on every ISA.

The bounds and steps include both signs, steps larger than half the i64 range, INT64_MIN as a
step, ranges that start at INT64_MIN or end near INT64_MAX, step 0 (no iteration in a compiled
kernel) and trip counts around every vector width and interleave (W-1, W, W+1, K*W±1, primes).
Integer results wrap (i64 sums, an i32 polynomial of 3*i + 1); a float max of sitofp(i).
Python's exact integers are the reference; the Loop IR interpreter agrees on the small cases.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from isa_support import isa_params

from loopopt.compile import compile, emit, make_context, parse
from loopopt.interp.runner import run_function
from loopopt.tools.loop_run import run_compiled, run_compiled_batch

ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")
I64_MIN, I64_MAX = -(2**63), 2**63 - 1



def _sum_i64(name: str, step: int | None) -> str:
    """Sum of i64(i) over range(%a, %b, step): a runtime step argument `%s` when step is None."""
    params, const = ("%a: index, %b: index, %s: index", "") if step is None else (
        "%a: index, %b: index", f"\n  %s = arith.constant {step} : index")
    return f"""
func.func @{name}({params}) -> i64 attributes {{loop.kernel}} {{{const}
  %z = arith.constant 0 : i64
  %r = loop.for %i in range(%a, %b, %s) accs(%acc = %z : i64 add) {{
    %k = arith.index_cast %i : index to i64
    %t = arith.addi %acc, %k : i64
    loop.yield %t : i64
  }}
  func.return %r : i64
}}
"""


PROGRAM = _sum_i64("sum_i64", None) + """
func.func @affine_i32(%a: index, %b: index, %s: index) -> i32 attributes {loop.kernel} {
  %z = arith.constant 0 : i32
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = loop.for %i in range(%a, %b, %s) accs(%acc = %z : i32 add) {
    %j = arith.muli %i, %c3 : index
    %j1 = arith.addi %j, %c1 : index
    %k = arith.index_cast %j1 : index to i32
    %m = arith.muli %k, %k : i32
    %t = arith.addi %acc, %m : i32
    loop.yield %t : i32
  }
  func.return %r : i32
}

func.func @max_f64(%a: index, %b: index, %s: index) -> f64 attributes {loop.kernel} {
  %z = arith.constant 0xFFF0000000000000 : f64
  %r = loop.for %i in range(%a, %b, %s) accs(%acc = %z : f64 max) {
    %k = arith.index_cast %i : index to i64
    %f = arith.sitofp %k : i64 to f64
    %t = arith.maximumf %acc, %f : f64
    loop.yield %t : f64
  }
  func.return %r : f64
}
"""


HUGE_STEPS = _sum_i64("up", 2**62) + _sum_i64("down", -(2**61) - 1)


def _wrap(v: int, bits: int) -> int:
    v %= 2**bits
    return v - 2**bits if v >= 2 ** (bits - 1) else v


def _ranges() -> list[tuple[int, int, int]]:
    out = [(0, 37, 0), (5, -5, 0)]  # step 0: no iteration in a compiled kernel
    for trips in (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 97, 1000):
        for s in (1, 3, -1, -7, 2**40 + 3):
            out.append((-11, -11 + trips * s, s))
        out.append((I64_MIN, I64_MIN + trips * 5, 5))
        out.append((I64_MAX, I64_MAX - trips * 9 - 1, -9))
    out += [
        (I64_MIN, I64_MAX, 2**62), (I64_MIN, I64_MAX, I64_MAX), (I64_MIN, I64_MAX, 3 * 2**60 + 5),
        (0, 10, I64_MIN), (5, I64_MIN, I64_MIN), (I64_MAX, I64_MIN, -(2**61) - 1), (3, 4, I64_MAX),
        (I64_MAX - 100, I64_MAX, 7), (I64_MIN + 100, I64_MIN, -7),
    ]
    return out


def _expected(a: int, b: int, s: int) -> tuple[int, int, float]:
    r = range(a, b, s) if s else range(0)
    assert len(r) <= 10**4
    poly = sum(_wrap(3 * i + 1, 32) ** 2 for i in r)
    return _wrap(sum(r), 64), _wrap(poly, 32), float(max(r)) if len(r) else -np.inf


@functools.cache
def _compiled(isa: str):
    return compile(PROGRAM, target=isa)


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("kernel", ["sum_i64", "affine_i32", "max_f64"])
def test_runtime_step_loops_match_python(kernel: str, isa: str) -> None:
    compiled = _compiled(isa)
    cases = _ranges()
    args = [tuple(np.int64(v) for v in c) for c in cases]
    if compiled.library is None:
        runs = run_compiled_batch(compiled, kernel, args)
    else:
        runs = [run_compiled(compiled, kernel, a) for a in args]
    which = ["sum_i64", "affine_i32", "max_f64"].index(kernel)
    for case, got in zip(cases, runs, strict=True):
        want = _expected(*case)[which]
        assert float(got[0]) == want if kernel == "max_f64" else int(got[0]) == want, (kernel, isa, case, got, want)


@pytest.mark.parametrize("isa", isa_params(("avx2", "avx512")))
@pytest.mark.parametrize("tail", ["masked", "scalar"])
def test_runtime_step_tails(isa: str, tail: str) -> None:
    """The last trips mod W positions in one masked block, or the scalar loop from the variable
    at the first position left; interleave 1 and 3 move the block boundaries."""
    for k in (1, 3):
        compiled = compile(PROGRAM, target=isa, pipeline=f"loop-pipeline{{target={isa} tail={tail} interleave={k}}}")
        for case in _ranges():
            args = tuple(np.int64(v) for v in case)
            got = [run_compiled(compiled, name, args)[0] for name in ("sum_i64", "affine_i32", "max_f64")]
            assert (int(got[0]), int(got[1]), float(got[2])) == _expected(*case), (isa, tail, k, case)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_huge_constant_steps(isa: str) -> None:
    """A constant step too large for a block of W*K iterations is lowered over positions too
    (it used to stay scalar: 'a block of 16 iterations of step ... spans more than the i64 range')."""
    compiled = compile(HUGE_STEPS, target=isa)
    if isa != "scalar":
        body = compiled.c_source[compiled.c_source.index("up("):]
        assert "_mm" in body[: body.index("\n}\n")], "the huge-step loop stayed scalar"
    for a, b in ((I64_MIN, I64_MAX), (0, I64_MAX), (-5, 2**62 + 1), (I64_MAX, I64_MIN), (3, 3), (0, -(2**61))):
        for name, step in (("up", 2**62), ("down", -(2**61) - 1)):
            got = run_compiled(compiled, name, (np.int64(a), np.int64(b)))[0]
            assert int(got) == _wrap(sum(range(a, b, step)), 64), (isa, name, a, b)


def test_runtime_step_loops_are_vector_code() -> None:
    """No SIMD_FALLBACK_SCALAR: every kernel's C has vector intrinsics on every vector ISA."""
    for isa, marker in (("avx2", "_mm256_"), ("avx512", "_mm512_"), ("sse2", "_mm_"), ("neon", "vdupq_n_")):
        c = emit(PROGRAM, target=isa).c_source
        for name in ("sum_i64", "affine_i32", "max_f64"):
            body = c[c.index(f"{name}("):]
            assert marker in body[: body.index("\n}\n")], (isa, name)


def test_interpreter_agrees_on_small_ranges() -> None:
    """The Loop IR interpreter (the oracle) on the unlowered kernels, steps other than 0."""
    module = parse(PROGRAM, make_context())
    for case in [c for c in _ranges() if c[2] != 0][:40]:
        want = _expected(*case)
        got = [run_function(module, k, *case)[0] for k in ("sum_i64", "affine_i32", "max_f64")]
        assert (int(got[0]), int(got[1]), float(got[2])) == want, case
