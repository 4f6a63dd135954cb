"""Every corpus kernel computes the same after convert-df-to-loop (alone, and after df-fuse).

The df interpreter runs the df kernel; `call_loop_kernel` runs the Loop IR kernel with
buffers allocated from its ABI attributes. Sizes: corpus.SIZES (0, 1, 7, 8, 9, 1000 and
the prime 1009; the sizes where a matrix product's interpreting would take minutes are
skipped: corpus.INTERPRETER_BUDGET). Integer results must be equal; float results within the case's own
tolerance (loops add in order, the df interpreter's numpy sums pairwise).
"""

from __future__ import annotations

import zlib
from functools import cache

import numpy as np
import pytest
from corpus import SIZES, Expected, load_corpus
from lowering_harness import FUSED_FORMS_DIR, lower, lower_unfused_where_possible, parse, result_extents

from loopopt.lowering.abi import call_loop_kernel, find_kernel

CASES = load_corpus() + load_corpus(FUSED_FORMS_DIR)
MODES = {"df-to-loop": False, "df-fuse+df-to-loop": True}


@cache
def lowered(path, fuse: bool):
    return lower(parse(path), fuse) if fuse else lower_unfused_where_possible(path)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_lowered_kernel_matches_df(case, mode):
    module = lowered(case.path, MODES[mode])
    df_func = find_kernel(case.module(), case.kernel)
    for n in case.interpreted_sizes(SIZES):
        rng = np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode()))
        inputs = case.make_inputs(n, rng)
        before = case.run(inputs)
        after = call_loop_kernel(module, case.kernel, case.args(inputs), result_extents(df_func, before))
        ref = case.reference(inputs)
        expected = Expected(before)
        expected.bounds, expected.ulps, expected.rtol = ref.bounds, ref.ulps, ref.rtol
        case.compare(after, expected)
        case.compare(after, ref)


def test_compare_catches_a_wrong_lowering():
    """The comparison above can fail: the same kernel with its accumulator step broken."""
    from xdsl.dialects import arith

    case = next(c for c in CASES if c.kernel == "sum_i64_of_i32")
    module = lower(parse(case.path), fuse=False)
    step = next(op for op in find_kernel(module, case.kernel).walk() if isinstance(op, arith.AddiOp))
    wrong = arith.MuliOp(step.lhs, step.rhs)
    step.parent_block().insert_op_before(wrong, step)
    step.result.replace_all_uses_with(wrong.result)
    step.detach()
    step.erase()
    inputs = case.make_inputs(9, np.random.default_rng(1))
    got = call_loop_kernel(module, case.kernel, case.args(inputs))
    with pytest.raises(AssertionError):
        case.compare(got, case.reference(inputs))
