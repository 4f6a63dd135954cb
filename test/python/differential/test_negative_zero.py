"""The sign of a zero float sum: IEEE gives -0.0 + -0.0 = -0.0, so a sum of only -0.0 values
with init -0.0 is -0.0 (in any order). Every other comparison in the suite treats -0.0 == 0.0,
so these tests compare the sign bit.

The vector accumulators of a sum start at -0.0, the true identity of IEEE addition, unless
the init is the constant +0.0 (then no sum can be -0.0 and +0.0 lanes are cheaper:
loop_to_simd/accum.lane_start); the df interpreter gives numpy's +0.0-started add.reduce its
sign back. These tests failed (+0.0) on every vector ISA and in the interpreter before that.
"""

from __future__ import annotations

import numpy as np
import pytest
from diff_harness import compiled_source, run_each
from isa_support import isa_params

from loopopt.compile import compile, make_context, parse  # noqa: A004
from loopopt.tools.loop_run import interpret

SIZES = (0, 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100)


def _sum(elt: str, reassoc: bool) -> str:
    flag = " reassoc" if reassoc else ""
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> {elt} {{
  %z = arith.constant -0.0 : {elt}
  %s = df.reduce add(%x, %z) over [i]{flag} : !df.array<{elt}, [i]> -> {elt}
  func.return %s : {elt}
}}
"""


CASES = {f"sum_{elt}{'_reassoc' if r else ''}": (_sum(elt, r), np.dtype(elt.replace("f", "float")))
         for elt in ("f32", "f64") for r in (True, False)}


def _signs(values) -> list[bool]:
    return [bool(np.signbit(v)) for v in values]


def _params():
    out = []
    for name in CASES:
        for p in isa_params():
            isa = p.values[0]
            out.append(pytest.param(name, isa, marks=list(p.marks), id=f"{name}-{isa}"))
    return out


@pytest.mark.parametrize("name,isa", _params())
def test_sum_of_negative_zeros_is_negative_zero(name: str, isa: str) -> None:
    source, elt = CASES[name]
    runs = run_each(compiled_source(source, isa), "k", [(np.full(n, -0.0, elt),) for n in SIZES])
    got = [r[0] for r in runs]
    assert all(v == 0 for v in got), got
    assert _signs(got) == [True] * len(SIZES), dict(zip(SIZES, got))


@pytest.mark.parametrize("name", CASES)
def test_interpreter_sum_of_negative_zeros_is_negative_zero(name: str) -> None:
    source, elt = CASES[name]
    module = parse(source, make_context(), name)
    got = [interpret(module, "k", (np.full(n, -0.0, elt),))[0] for n in SIZES]
    assert _signs(got) == [True] * len(SIZES), dict(zip(SIZES, got))


def test_the_sign_check_can_fail() -> None:
    assert _signs([np.float32(0.0), np.float32(-0.0)]) == [False, True]


def _filtered_sum(elt: str) -> str:
    return f"""
func.func @k(%x: !df.array<{elt}, [i]>) -> {elt} {{
  %z = arith.constant -0.0 : {elt}
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<{elt}, [i]> -> {elt} where {{
  ^bb0(%v: {elt}):
    %c = arith.cmpf ole, %v, %z : {elt}
    df.yield %c : i1
  }}
  func.return %s : {elt}
}}
"""


@pytest.mark.parametrize("tail", ["masked", "scalar"])
@pytest.mark.parametrize("program", ["sum", "filtered"])
@pytest.mark.parametrize("isa", [p for p in isa_params() if p.values[0] != "scalar"])
def test_masked_lanes_and_filters_keep_the_sign(isa: str, program: str, tail: str) -> None:
    """Masked-off tail lanes and filtered-out elements add the lanes' start (-0.0), not +0.0;
    +0.0 elements mixed in make the sum +0.0."""
    elt = "f32"
    source = _sum(elt, True) if program == "sum" else _filtered_sum(elt)
    pipeline = f"loop-pipeline{{target={isa} tail={tail}}}"
    kernels = compile(source, target=isa, pipeline=pipeline)
    negs = [(np.full(n, -0.0, np.float32),) for n in SIZES]
    assert _signs(r[0] for r in run_each(kernels, "k", negs)) == [True] * len(SIZES)
    mixed = [(np.where(np.arange(n) == n // 2, np.float32(0.0), np.float32(-0.0)),) for n in SIZES if n]
    assert _signs(r[0] for r in run_each(kernels, "k", mixed)) == [False] * len(mixed)
