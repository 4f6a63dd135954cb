"""Vector loops over `range(lo, hi, s)` near the i64 limits: convert-loop-to-simd's block
boundaries (lowering/loop_to_simd/range.py) never overflow.

Before the fix, a range whose trip count is a whole number of blocks and which ends within
a step of INT64_MAX (or INT64_MIN for a negative step) put the main loop's end at
lo + trips*s, past the i64 range: the wrapped boundary made the scalar tail start far
before the range and run for ~2**64 / s iterations (a hang); a range wider than INT64_MAX
had 0 trips (end - lo overflowed); a loop whose vector block would step past the i64
range stays scalar (convert-loop-to-simd's fallback). The reference is Python's `range` on exact ints.
"""

from __future__ import annotations

import numpy as np
import pytest

import loopopt

MAX, MIN = 2**63 - 1, -(2**63)
ISAS = [pytest.param(isa, marks=pytest.mark.isa(isa), id=isa) for isa in ("scalar", "sse2", "avx2", "avx512", "neon")]

SOURCE = """
func.func @sum_up3(%lo: index, %hi: index) -> i64 attributes {loop.kernel} {
  %c3 = arith.constant 3 : index
  %z = arith.constant 0 : i64
  %s = loop.vecloop %i in range(%lo, %hi, %c3) width(W) tail(scalar) accs(%a = %z : i64 add reassoc) {
    %v = arith.index_cast %i : index to i64
    %t = arith.addi %a, %v : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}
func.func @sum_down5(%lo: index, %hi: index) -> i64 attributes {loop.kernel} {
  %c = arith.constant -5 : index
  %z = arith.constant 0 : i64
  %s = loop.vecloop %i in range(%lo, %hi, %c) width(W) tail(masked) accs(%a = %z : i64 add reassoc) {
    %v = arith.index_cast %i : index to i64
    %t = arith.addi %a, %v : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}
func.func @sum_wide(%lo: index, %hi: index) -> i64 attributes {loop.kernel} {
  %c = arith.constant 4611686018427387904 : index
  %z = arith.constant 0 : i64
  %s = loop.vecloop %i in range(%lo, %hi, %c) width(W) tail(scalar) accs(%a = %z : i64 add reassoc) {
    %v = arith.index_cast %i : index to i64
    %t = arith.addi %a, %v : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}
func.func @sum_unit(%lo: index, %hi: index) -> i64 attributes {loop.kernel} {
  %z = arith.constant 0 : i64
  %s = loop.vecloop %i in [%lo, %hi) width(W) tail(scalar) accs(%a = %z : i64 add reassoc) {
    %v = arith.index_cast %i : index to i64
    %t = arith.addi %a, %v : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}
"""

CASES = {
    # trips 16, 4, 8, 34: whole blocks (and not) ending at INT64_MAX - 2
    "sum_up3": ([(MAX - 47, MAX), (MAX - 11, MAX), (MAX - 23, MAX), (MAX - 100, MAX), (MIN, MIN + 100),
                 (-20, 41), (5, 5), (9, 1), (0, 1000), (MAX - 2, MAX)], 3),
    "sum_down5": ([(MIN + 79, MIN), (MIN + 19, MIN), (MIN + 39, MIN), (MAX, MAX - 100), (41, -20), (1, 9),
                   (MIN + 3, MIN), (1000, 0)], -5),
    # a block of W*K steps of 2**62 spans more than the i64 range: the loop stays scalar
    "sum_wide": ([(MIN, MAX), (MIN + 1, MAX), (0, MAX), (MIN, MIN + 1), (1, 0)], 2**62),
    "sum_unit": ([(MAX - 64, MAX), (MAX - 7, MAX), (MIN, MIN + 64), (-3, 70), (4, 4), (9, 1)], 1),
}


def wrap(v: int) -> int:
    return (v + 2**63) % 2**64 - 2**63


@pytest.mark.parametrize("isa", ISAS)
def test_vector_loop_boundaries_at_the_i64_limits(isa):
    kernels = loopopt.compile(SOURCE, target=isa)
    for name, (pairs, step) in CASES.items():
        want = [wrap(sum(range(a, b, step))) for a, b in pairs]
        args = [[np.int64(a), np.int64(b)] for a, b in pairs]
        if isa == "neon":
            got = [int(results[0]) for _, results in getattr(kernels, name).batch(args)]
        else:
            got = [int(getattr(kernels, name)(*a)) for a in args]
        assert got == want, (isa, name)



@pytest.mark.parametrize("target", ["scalar", "sse2", "avx2", "avx512", "neon"])
def test_interpreters_agree_at_the_i64_limits(target):
    """The Loop IR (vecloops) and the simd IR convert-loop-to-simd makes of it for each
    target, both interpreted: exact Python-range results (no ISA needed to interpret)."""
    from loopopt.compile import parse, run_pipeline, make_context
    from loopopt.lowering.abi import call_loop_kernel

    source = parse(SOURCE)
    lowered = parse(SOURCE)
    run_pipeline(lowered, f"convert-loop-to-simd{{target={target} fallback=true}}", make_context())
    for name, (pairs, step) in CASES.items():
        for a, b in pairs:
            want = wrap(sum(range(a, b, step)))
            for module in (source, lowered):
                (got,) = call_loop_kernel(module, name, [np.int64(a), np.int64(b)])
                assert int(got) == want, (target, name, a, b)
