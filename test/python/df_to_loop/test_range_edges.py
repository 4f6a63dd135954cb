"""df.range at the edges of i64: no hang, no overflow, no wrong value, no write past an output.

The reference is Python's `range` on exact ints. Each kernel runs through the df
interpreter, the Loop IR interpreter (after convert-df-to-loop, called the way a C caller
calls it) and compiled C on every ISA this machine runs plus NEON under qemu. Before the
fix, ranges ending within a step of INT64_MAX hung (`i += step` overflowed in the C loop
header), wide ranges (INT64_MIN..INT64_MAX by 2**62) had 0 elements (end - start
overflowed), a runtime step of 0 looped forever, and an output on a range's axis was
written past its end.
"""

from __future__ import annotations

import numpy as np
import pytest
from lowering_harness import lower, parse
from xdsl.utils.exceptions import InterpretationError

import loopopt
from loopopt.lowering.abi import call_loop_kernel, find_kernel
from loopopt.interp.runner import run_function

MAX, MIN = 2**63 - 1, -(2**63)
ISAS = [pytest.param(isa, marks=pytest.mark.isa(isa), id=isa) for isa in ("scalar", "sse2", "avx2", "avx512", "neon")]
"""Each ISA, skipped (by the `isa` marker of test/python/conftest.py) where this machine cannot run it."""

SOURCE = """
func.func @count(%start: i64, %end: i64, %step: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %one = df.map %r : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%k: i64):
    %c1 = arith.constant 1 : i64
    df.yield %c1 : i64
  }
  %s = df.reduce add(%one, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
func.func @last(%start: i64, %end: i64, %step: i64) -> i64 {
  %init = arith.constant 12345 : i64
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %s = df.fold(%r) init(%init) : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    df.yield %e : i64
  }
  func.return %s : i64
}
func.func @elements(%start: i64, %end: i64, %step: i64) -> !df.array<i64, [i]> {
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
func.func @odd(%start: i64, %end: i64, %step: i64) -> !df.array<i64, [k]> {
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %o = df.filter %r : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.andi %e, %c1 : i64
    %p = arith.cmpi eq, %b, %c1 : i64
    df.yield %p : i1
  }
  func.return %o : !df.array<i64, [k]>
}
func.func @by3(%start: i64, %end: i64) -> !df.array<i64, [i]> {
  %c = arith.constant 3 : i64
  %r = df.range %start, %end, %c : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
func.func @down4(%start: i64, %end: i64) -> !df.array<i64, [i]> {
  %c = arith.constant -4 : i64
  %r = df.range %start, %end, %c : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
func.func @wide(%start: i64, %end: i64) -> !df.array<i64, [i]> {
  %c = arith.constant 4611686018427387904 : i64
  %r = df.range %start, %end, %c : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
func.func @by_min(%start: i64, %end: i64) -> !df.array<i64, [i]> {
  %c = arith.constant -9223372036854775808 : i64
  %r = df.range %start, %end, %c : !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}
func.func @sum_by2(%start: i64, %end: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %c = arith.constant 2 : i64
  %r = df.range %start, %end, %c : !df.array<i64, [i]>
  %s = df.reduce add(%r, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
"""

DYNAMIC = [
    (MAX - 5, MAX, 2), (MIN, MIN + 10, 3), (0, 10, -1), (10, 0, -3), (MIN, MAX, 2**62),
    (MAX - 1, MIN, -(2**62)), (MIN, MAX, MAX), (MAX, MIN, MIN), (5, 5, 7), (MAX - 2, MAX, 1),
    (MIN + 2, MIN, -1), (3, 100, 7), (100, -3, -3), (MIN, MAX, MIN), (-50, 50, 1), (MAX, MAX - 40, -1),
    (MIN + 3, MIN, -2), (7, 3, 2), (MIN, MIN + 2**62, 2**61 + 1),
]
"""(start, end, step): ranges ending at or near the i64 limits, spanning them, empty, both signs."""

CONSTANT = {
    "by3": [(MAX - 7, MAX), (MIN, MIN + 10), (-20, 41), (5, 5), (9, 1), (MAX - 2, MAX)],
    "down4": [(MIN + 9, MIN), (MAX, MAX - 33), (41, -20), (1, 9), (MIN + 3, MIN)],
    "wide": [(MIN, MAX), (MIN + 1, MAX), (0, MAX), (MAX - 1, MAX), (MIN, MIN + 1), (1, 0)],
    "by_min": [(MAX, MIN), (0, MIN), (-1, MIN), (MIN + 1, MIN), (0, 1), (MAX, -1)],
    "sum_by2": [(MAX - 9, MAX), (MIN, MIN + 9), (-30, 31)],
}


def wrap(v: int) -> int:
    return (v + 2**63) % 2**64 - 2**63


def expected(name: str, args: tuple[int, ...]):
    if name in CONSTANT:
        step = {"by3": 3, "down4": -4, "wide": 2**62, "by_min": MIN, "sum_by2": 2}[name]
        r = range(args[0], args[1], step)
        return wrap(sum(r)) if name == "sum_by2" else list(r)
    r = range(*args)
    return {
        "count": len(r),
        "last": r[-1] if len(r) else 12345,
        "elements": list(r),
        "odd": [e for e in r if e & 1],
    }[name]


def cases():
    for args in DYNAMIC:
        for name in ("count", "last", "elements", "odd"):
            yield name, args
    for name, pairs in CONSTANT.items():
        for args in pairs:
            yield name, args


ALL = list(cases())


def value_of(name: str, results):
    """The df kernel's one result, as a Python int or list (compiled filters also return
    their count: it must be the list's length)."""
    r = results[0]
    if isinstance(r, np.ndarray) and r.ndim:
        assert all(int(c) == len(r) for c in results[1:]), results
        return [int(e) for e in r]
    assert len(results) == 1, results
    return int(r)


@pytest.fixture(scope="module")
def df_module():
    return parse("ranges.mlir", SOURCE)


@pytest.fixture(scope="module")
def loop_module():
    return lower(parse("ranges.mlir", SOURCE), fuse=False)


def test_df_interpreter_matches_python_range(df_module):
    for name, args in ALL:
        got = run_function(df_module, name, *(np.int64(a) for a in args))
        assert value_of(name, got) == expected(name, args), (name, args)


def test_loop_ir_interpreter_matches_python_range(loop_module):
    for name, args in ALL:
        got = call_loop_kernel(loop_module, name, [np.int64(a) for a in args])
        assert value_of(name, got) == expected(name, args), (name, args)


def test_interpreters_reject_step_zero(df_module, loop_module):
    with pytest.raises(InterpretationError, match="step must not be 0"):
        run_function(df_module, "count", np.int64(0), np.int64(10), np.int64(0))
    with pytest.raises(ValueError, match="step"):
        call_loop_kernel(loop_module, "elements", [np.int64(0), np.int64(10), np.int64(0)])


def test_kernel_with_step_zero_is_empty_not_a_hang(loop_module):
    """Run the Loop IR function itself (no caller check): step 0 gives extent 0."""
    f = find_kernel(loop_module, "count")
    assert "loop.extents" in f.attributes
    out = run_function(loop_module, "count", np.int64(0), np.int64(10), np.int64(0))
    assert [int(v) for v in out] == [0, 0]  # the count, and the extent result


def test_too_small_output_is_never_written_past_its_end(loop_module):
    """The guard: an output shorter than the range is not written at all, and the extent
    result still reports the required length."""
    buf = np.full(8, -7, np.int64)
    view = buf[:4]
    results = run_function(loop_module, "elements", np.int64(0), np.int64(1000), np.int64(1), view)
    assert [int(v) for v in results] == [1000]
    assert (buf == -7).all()
    results = run_function(loop_module, "odd", np.int64(0), np.int64(1000), np.int64(1), view)
    assert [int(v) for v in results] == [0, 1000]  # nothing appended; the capacity axis needs 1000
    assert (buf == -7).all()


def test_lowering_records_the_computed_axes(loop_module):
    f = find_kernel(loop_module, "odd")
    assert str(f.attributes["loop.extents"]) == "{i = 1 : i64}"
    assert str(f.attributes["loop.steps"]) == "{i = 2 : i64}"
    assert "loop.steps" not in find_kernel(loop_module, "by3").attributes


@pytest.mark.parametrize("isa", ISAS)
def test_compiled_ranges_match_python_range(isa):
    kernels = loopopt.compile(SOURCE, target=isa)
    if isa == "neon":
        by_name: dict[str, list[tuple[int, ...]]] = {}
        for name, args in ALL:
            by_name.setdefault(name, []).append(args)
        for name, arg_list in by_name.items():
            runs = getattr(kernels, name).batch([[np.int64(a) for a in args] for args in arg_list])
            for args, (outputs, results) in zip(arg_list, runs, strict=True):
                got = value_of(name, (*outputs, *results))
                assert got == expected(name, args), (isa, name, args)
        return
    for name, args in ALL:
        got = kernels.outputs_and_results(name, *(np.int64(a) for a in args))
        assert value_of(name, got) == expected(name, args), (isa, name, args)
    # a too-small output: a ValueError, and nothing written past its end
    buf = np.full(8, -7, np.int64)
    with pytest.raises(ValueError, match="needs 1000 elements"):
        kernels.elements(np.int64(0), np.int64(1000), np.int64(1), buf[:4])
    assert (buf == -7).all()
    with pytest.raises(ValueError, match="1000"):  # a filter of the range: its capacity axis
        kernels.odd(np.int64(0), np.int64(1000), np.int64(1), buf[:4])
    assert (buf == -7).all()
    with pytest.raises(ValueError, match="step"):
        kernels.count(np.int64(0), np.int64(10), np.int64(0))
