"""Outputs whose length comes from scalars (a range's axis: `loop.extents`) through the public API.

The kernels are hand-written Loop IR in the shape the lowering emits for `df.range` (the
extent as an extra `index` result, a guard that writes nothing on the axis unless every
output on it is large enough). The runtime's part: a too-small output is a ValueError after
the call and nothing past its end is touched; `call_alloc` sizes the output by asking the
kernel; a step of 0 is a ValueError before the call; the extent result is not returned.
Before computed axes existed, such a kernel wrote past the end of a 4-element output
(glibc aborted with "free(): corrupted unsorted chunks").
"""

from __future__ import annotations

import numpy as np
import pytest

from isa_support import isa_params
from loopopt.compile import compile, parse
from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.lowering.abi import call_loop_kernel

# squares of range(start, end, step) for step > 0 (0 elements for step < 0), extent result 0.
RANGE_SQUARES = """
func.func @squares(%start: i64, %end: i64, %step: i64,
                   %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64})
    -> index attributes {loop.kernel, loop.extents = {i = 0 : i64}, loop.steps = {i = 2 : i64}} {
  %s = arith.index_cast %start : i64 to index
  %e = arith.index_cast %end : i64 to index
  %st = arith.index_cast %step : i64 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gt = arith.cmpi sgt, %e, %s : index
  %pos = arith.cmpi sgt, %st, %c0 : index
  %ok = arith.andi %gt, %pos : i1
  %d = arith.subi %e, %s : index
  %d1 = arith.subi %d, %c1 : index
  %div = arith.select %pos, %st, %c1 : index
  %q = arith.divsi %d1, %div : index
  %n1 = arith.addi %q, %c1 : index
  %n = arith.select %ok, %n1, %c0 : index
  %cap = loop.dim %out, 0 : !loop.buf<i64>
  %fits = arith.cmpi ule, %n, %cap : index
  %m = arith.select %fits, %n, %c0 : index
  loop.for %t in [%c0, %m) {
    %off = arith.muli %t, %st : index
    %v = arith.addi %s, %off : index
    %k = arith.index_cast %v : index to i64
    %sq = arith.muli %k, %k : i64
    loop.store %sq, %out[%t] : !loop.buf<i64>
  }
  func.return %n : index
}
"""

# A filter of a range: keep the odd elements of range(0, n) (branch-free compaction: k <= t);
# its capacity axis is computed.
# Results: the count (0) and the extent of i (1).
ODD_OF_RANGE = """
func.func @odds(%len: i64,
                %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64, loop.result = 0 : i64})
    -> (index, index) attributes {loop.kernel, loop.extents = {i = 1 : i64}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arith.index_cast %len : i64 to index
  %n = arith.maxsi %e, %c0 : index
  %cap = loop.dim %out, 0 : !loop.buf<i64>
  %fits = arith.cmpi ule, %n, %cap : index
  %m = arith.select %fits, %n, %c0 : index
  %count = loop.for %t in [%c0, %m) accs(%k = %c0 : index add) {
    %odd = arith.andi %t, %c1 : index
    %keep = arith.cmpi ne, %odd, %c0 : index
    %next = arith.addi %k, %c1 : index
    %v = arith.index_cast %t : index to i64
    %k2 = arith.select %keep, %next, %k : index
    loop.store %v, %out[%k] : !loop.buf<i64>
    loop.yield %k2 : index
  }
  func.return %count, %n : index, index
}
"""


def reference(start: int, end: int, step: int) -> np.ndarray:
    return np.array([k * k for k in range(start, end, step)], dtype=np.int64)


@pytest.fixture(scope="module", params=isa_params())
def squares(request):
    return compile(RANGE_SQUARES, target=request.param, pipeline="")


def test_too_small_output_raises_and_nothing_is_written(squares):
    if squares.target == "neon":
        pytest.skip("NEON kernels size their own outputs (ForeignKernel)")
    memory = np.full(64, -7, np.int64)
    out = memory[:4]
    with pytest.raises(ValueError, match=r"squares\(\): output 'out' needs 1000 elements on axis 'i' but has 4"):
        squares.squares(0, 1000, 1, out)
    assert (memory == -7).all()  # the guard wrote nothing, not even inside the output


def test_large_enough_output_is_written_and_extent_not_returned(squares):
    if squares.target == "neon":
        pytest.skip("NEON kernels size their own outputs (ForeignKernel)")
    out = np.full(9, -1, np.int64)
    assert squares.squares(2, 11, 2, out) is None  # the extent is ABI plumbing, not a result
    np.testing.assert_array_equal(out[:5], reference(2, 11, 2))
    assert (out[5:] == -1).all()


@pytest.mark.parametrize("args", [(0, 1000, 1), (3, 20, 4), (5, 5, 1), (7, 3, 1), (0, 9, 100), (-4, 4, 3)])
def test_call_alloc_sizes_the_output(squares, args):
    out = squares.call_alloc("squares", *args)
    np.testing.assert_array_equal(out, reference(*args))


def test_step_zero_is_a_value_error(squares):
    with pytest.raises(ValueError, match=r"squares\(\): the range on axis 'i' has step 'step' = 0"):
        squares.call_alloc("squares", 0, 10, 0)
    if squares.target != "neon":
        with pytest.raises(ValueError, match="step 'step' = 0"):
            squares.squares(0, 10, 0, np.zeros(10, np.int64))


@pytest.mark.parametrize("isa", isa_params())
def test_filter_of_a_range(isa):
    k = compile(ODD_OF_RANGE, target=isa, pipeline="")
    out, count = k.call_alloc("odds", 11)
    np.testing.assert_array_equal(out, np.arange(1, 11, 2))
    assert int(count) == 5
    if isa != "neon":
        small = np.zeros(10, np.int64)
        with pytest.raises(ValueError, match=r"odds\(\): output 'out' needs 11 elements on axis 'i' but has 10"):
            k.odds(11, small)
        assert int(k.odds(11, np.zeros(11, np.int64))) == 5  # only the count comes back


def test_interpreter_caller_sizes_and_checks():
    module = parse(RANGE_SQUARES)
    (out,) = call_loop_kernel(module, "squares", [3, 20, 4])
    np.testing.assert_array_equal(out, reference(3, 20, 4))
    (out,) = call_loop_kernel(parse(ODD_OF_RANGE), "odds", [np.int64(6)])  # trimmed to the count
    np.testing.assert_array_equal(out, [1, 3, 5])
    with pytest.raises(ValueError, match="step 'step' = 0"):
        call_loop_kernel(module, "squares", [3, 20, 0])


def test_output_without_a_bound_is_refused():
    """The old lowering of `df.range` -> output (no loop.extents): nothing checks the output."""
    unbounded = RANGE_SQUARES.replace(", loop.extents = {i = 0 : i64}, loop.steps = {i = 2 : i64}", "")
    with pytest.raises(LoopoptDiagnostic, match="which no input buffer has and which is not a computed axis"):
        compile(unbounded, target="scalar", pipeline="")


# The reproduction through the public API, from df: `df.range` mapped to an output.
# (Needs convert-df-to-loop to emit loop.extents and the guard: the shared design.)
DF_RANGE = """
func.func @squares(%start: i64, %end: i64, %step: i64) -> !df.array<i64, [i]> {
  %idx = df.range %start, %end, %step : !df.array<i64, [i]>
  %y = df.map %idx : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%k: i64):
    %s = arith.muli %k, %k : i64
    df.yield %s : i64
  }
  func.return %y : !df.array<i64, [i]>
}
"""


@pytest.mark.parametrize("isa", isa_params())
def test_df_range_output_through_the_public_api(isa):
    k = compile(DF_RANGE, target=isa)
    if isa != "neon":
        memory = np.full(64, -7, np.int64)
        with pytest.raises(ValueError, match=r"output 'out' needs 1000 elements on axis 'i' but has 4"):
            k.squares(0, 1000, 1, memory[:4])
        assert (memory == -7).all()
    for args in [(0, 1000, 1), (10, -3, -4), (5, 5, 1)]:
        out = k.call_alloc("squares", *args)
        np.testing.assert_array_equal(out, reference(*args))
    with pytest.raises(ValueError, match="step 'step' = 0"):
        k.call_alloc("squares", 0, 10, 0)


TWO_OUTPUTS = """
func.func @two(%n: i64) -> (!df.array<i64, [i]>, !df.array<f64, [i]>) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %n, %one : !df.array<i64, [i]>
  %y = df.map %idx : !df.array<i64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%k: i64):
    %f = arith.sitofp %k : i64 to f64
    df.yield %f : f64
  }
  func.return %idx, %y : !df.array<i64, [i]>, !df.array<f64, [i]>
}
"""


def test_outputs_sharing_a_computed_axis_are_checked_against_the_extent_not_each_other():
    k = compile(TWO_OUTPUTS, target="scalar")
    a, b = np.zeros(10, np.int64), np.zeros(5)
    assert k.two(5, a, b) is None  # a is larger than b: fine, both hold the extent 5
    np.testing.assert_array_equal(a[:5], np.arange(5))
    np.testing.assert_array_equal(b, np.arange(5.0))
    with pytest.raises(ValueError, match=r"two\(\): output 'out1' needs 6 elements on axis 'i' but has 5"):
        k.two(6, a, b)
    got = k.call_alloc("two", 3)
    np.testing.assert_array_equal(got[0], [0, 1, 2])
    np.testing.assert_array_equal(got[1], [0.0, 1.0, 2.0])
