"""C loop headers (targets/c_printer.py `_header`) run exactly Python's `range` for any i64
bounds and step: no overflow, no hang (step 0 runs nothing), compiled on every ISA + NEON.

Before the fix `for (i = lo; i < hi; i += s)` overflowed when hi was within a step of
INT64_MAX (undefined behaviour; in practice it wrapped and looped forever), and a runtime
step of 0 never ended.
"""

from __future__ import annotations

import numpy as np
import pytest

import loopopt

MAX, MIN = 2**63 - 1, -(2**63)
ISAS = [pytest.param(isa, marks=pytest.mark.isa(isa), id=isa) for isa in ("scalar", "sse2", "avx2", "avx512", "neon")]


def _kernel(name: str, step: str, const: int | None) -> str:
    params = "%lo: index, %hi: index" + (", %s: index" if const is None else "")
    step_def = "" if const is None else f"  %s = arith.constant {const} : index\n"
    return f"""
func.func @{name}({params}) -> (i64, i64) attributes {{loop.kernel}} {{
{step_def}  %z = arith.constant 0 : i64
  %c = arith.constant 1 : i64
  %n, %x = loop.for %i in range(%lo, %hi, %s) accs(%a = %z : i64 add, %b = %z : i64 custom) {{
    %v = arith.index_cast %i : index to i64
    %m = arith.muli %b, %c : i64
    %h = arith.addi %m, %v : i64
    %t = arith.addi %a, %c : i64
    loop.yield %t, %h : i64, i64
  }}
  func.return %n, %x : i64, i64
}}
"""


STEPS = {"up1": 1, "down1": -1, "up3": 3, "down4": -4, "by_min": MIN, "by_max": MAX, "wide": 2**62, "dyn": None}
SOURCE = "".join(_kernel(name, "s", const) for name, const in STEPS.items())
"""Each kernel counts its iterations and sums its variable (custom kind: stays a scalar loop)."""

BOUNDS = [(MAX - 5, MAX), (MIN, MIN + 10), (0, 10), (10, 0), (MIN, MAX), (MAX, MIN), (MAX - 1, MAX), (MIN + 1, MIN),
          (5, 5), (-7, 7), (MAX, MAX - 12), (MIN + 12, MIN)]
DYNAMIC_STEPS = [1, -1, 2, -2, 3, -3, 2**62, -(2**62), MAX, MIN, 0, 7, -7]


def wrap(v: int) -> int:
    return (v + 2**63) % 2**64 - 2**63


def calls():
    for name, step in STEPS.items():
        for lo, hi in BOUNDS:
            for s in DYNAMIC_STEPS if step is None else [step]:
                r = range(lo, hi, s) if s else range(0)
                if (r.stop - r.start) // (r.step or 1) > 10**6:  # len() overflows past 2**63
                    continue
                args = [lo, hi] if step is not None else [lo, hi, s]
                yield name, args, (len(r), wrap(sum(r)))


CALLS = list(calls())


@pytest.mark.parametrize("isa", ISAS)
def test_loop_headers_run_python_range(isa):
    kernels = loopopt.compile(SOURCE, target=isa)
    if isa == "neon":
        by_name: dict[str, list] = {}
        for name, args, want in CALLS:
            by_name.setdefault(name, []).append((args, want))
        for name, items in by_name.items():
            runs = getattr(kernels, name).batch([[np.int64(a) for a in args] for args, _ in items])
            for (args, want), (_, results) in zip(items, runs, strict=True):
                assert tuple(int(v) for v in results) == want, (isa, name, args)
        return
    for name, args, want in CALLS:
        got = getattr(kernels, name)(*(np.int64(a) for a in args))
        assert tuple(int(v) for v in got) == want, (isa, name, args)
