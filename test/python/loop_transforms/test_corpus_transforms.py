"""loop-tile, loop-vectorize and loop-unroll keep every corpus kernel's answers.

Each df corpus kernel is lowered to Loop IR (convert-df-to-loop) and run by the loop
interpreter before and after each pipeline on the same random inputs, and compared with
the corpus's numpy reference (within its stated tolerance). Results must moreover be
bit-identical to the untransformed kernel's, except float results of kernels in which the
vectorizer reassociated a float add/mul reduction (a reduction, or an array computed from
one such as x - mean(x)), which only have to meet the reference's bound. Small sizes
straddle the widths and tile sizes (0, 1, W-1, W, W+1 for W = 4, 8, 16); the sizes 1000
and 1009 (a prime) run for a few pipelines only, since the scalar interpreter is slow.

The vectorizer must also do its job: `EXPECTED_SCALAR` lists, per kernel, the decline code
of every innermost loop that stays scalar; every other innermost loop must be a vector loop.
"""

from __future__ import annotations

import zlib
from functools import cache

import numpy as np
import pytest

from loop_ir import (
    CASES,
    assert_same,
    decline_codes,
    has_floats,
    is_float_scalar,
    kernel_op,
    lowered,
    lowered_and_transformed,
    run_lowered,
    vector_loops,
)
from xdsl.dialects.builtin import Float32Type, Float64Type

from loopopt.dialects import loop
from loopopt.dialects.loop_attrs import AccKind

PIPELINES: dict[str, tuple[str, tuple[int, ...]]] = {
    # name: (pipeline, small sizes: 0, 1 and W-1, W, W+1 / T-1, T, T+1 for its widths and tiles)
    "tile8": ("loop-tile{size=8}", (0, 1, 7, 8, 9, 17)),
    "vecW": ("loop-vectorize", (0, 1, 3, 4, 5, 9)),  # the interpreter runs a symbolic W with 4 lanes
    "vec4": ("loop-vectorize{width=4}", (0, 1, 3, 4, 5)),
    "vec8": ("loop-vectorize{width=8}", (0, 1, 7, 8, 9)),
    "vec16": ("loop-vectorize{width=16}", (1, 15, 16, 17)),
    "unroll4": ("loop-unroll{factor=4}", (0, 1, 3, 4, 5, 9)),
    "tile8+vec4": ("loop-tile{size=8},loop-vectorize{width=4}", (0, 1, 7, 8, 9, 13)),
    "unroll4+vec8": ("loop-unroll{factor=4},loop-vectorize{width=8}", (0, 1, 7, 8, 9, 13)),
    "tile16+vec8+unroll4": ("loop-tile{size=16},loop-vectorize{width=8},loop-unroll{factor=4}", (1, 15, 16, 17, 25)),
}

LARGE_RUNS = {1000: ("vecW",), 1009: ("tile8+vec4", "tile16+vec8+unroll4")}
"""Large sizes (1009 is prime) and the pipelines run at them. The scalar interpreter takes
about a millisecond per element, so these compare with the numpy reference only, and run
pipelines whose loops are mostly vectorized; each pass is among them (tile and unroll
remainders are exercised at the small sizes too). Kernels whose work at that size is over
corpus.INTERPRETER_BUDGET (matrix products) run the small sizes only."""

EXPECTED_SCALAR: dict[str, list[str]] = {
    # i8/i16 lanes vectorize (targets/c_narrow.py, widening sums: loop_to_simd/widen.py).
    # custom folds; a fold or custom body that is one kind's step (`acc + 1`, `maximumf(acc,
    # |x|)`: even_count_max_i32, count_sum_mean_i32, absmax_custom_f32) is that kind's reduction
    "fold.mlir::horner_f64": ["VEC_REJECT_CUSTOM_REDUCTION"],
    "fold.mlir::argmax_i32": ["VEC_REJECT_CUSTOM_REDUCTION"],
    "fold.mlir::argmin_range_f32": ["VEC_REJECT_CUSTOM_REDUCTION"],
    "fuse_vertical.mlir::hash_fold_i64": ["VEC_REJECT_CUSTOM_REDUCTION"],
    "rank2.mlir::row_horner_custom_i32": ["VEC_REJECT_CUSTOM_REDUCTION"],
    "reduce.mlir::horner_custom_i64": ["VEC_REJECT_CUSTOM_REDUCTION"],
    # column-wise walks of a row-major matrix
    "fuse_reductions.mlir::row_col_sums_i32": ["VEC_REJECT_NONUNIT_STRIDE"],
    "rank2.mlir::col_max_i32": ["VEC_REJECT_NONUNIT_STRIDE"],
    # ... until loop-interchange (in loop-pipeline) walks rows outermost: test_column_reductions_vectorize_after_interchange
    **{f"rank2_vector.mlir::{k}": ["VEC_REJECT_NONUNIT_STRIDE"]
       for k in ("col_sums_f32", "col_sums_i64", "col_min_f32", "col_max_i32")},
    "rank2_vector.mlir::col_sums_ordered_f64": ["VEC_REJECT_FLOAT_REDUCTION_ORDER"],
    # x^T M and matrix products reduce down columns too (loop-interchange makes them contiguous)
    **{k: ["VEC_REJECT_NONUNIT_STRIDE"] for k in ("matvec.mlir::xt_m_f32", "matmul.mlir::matmul_f32",
       "matmul.mlir::matmul_inner_f64", "matmul.mlir::matmul_i32", "matmul.mlir::matmul_at_b_f32")},
    # an ordered (non-reassoc) float sum
    "fuse_reductions.mlir::ordered_and_free_sums_f32": ["VEC_REJECT_FLOAT_REDUCTION_ORDER"],
    # scans: add/min/max scans vectorize (lowering/loop_to_simd/scan.py); a float sum scan
    # without reassoc keeps its order, custom scans have no vector form
    "scan.mlir::cumsum_f32": ["VEC_REJECT_FLOAT_REDUCTION_ORDER"],
    "scan.mlir::ema_custom_f32": ["VEC_REJECT_SCAN"],
    "scan.mlir::prefix_xor_i32": ["VEC_REJECT_SCAN"],
}
"""Per kernel, the decline code of each innermost loop loop-vectorize leaves scalar."""


def inputs_for(case, n: int):
    return case.make_inputs(n, np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode())))


@cache
def untransformed_results(case_id: str, n: int) -> tuple:
    case = next(c for c in CASES if c.id == case_id)
    return run_lowered(case, lowered(case.path), inputs_for(case, n))


def reassociates_floats(kernel) -> bool:
    """A float add/mul accumulator became a vector accumulator (its rounding may change)."""
    return any(
        acc.kind in (AccKind.ADD, AccKind.MUL) and isinstance(acc.arg.type, Float32Type | Float64Type)
        for v in vector_loops(kernel)
        for acc in v.accumulators
    )


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_small_sizes_same_answers(case, pipeline):
    """Bit-identical to the untransformed kernel, except results downstream of a float
    reduction the vectorizer reassociated, which stay within the corpus's bound."""
    spec, sizes = PIPELINES[pipeline]
    module = lowered_and_transformed(case.path, spec)
    exact_floats = not reassociates_floats(kernel_op(module, case.kernel))
    for n in sizes:
        inputs = inputs_for(case, n)
        after = run_lowered(case, module, inputs)
        case.compare(after, case.reference(inputs))
        before = untransformed_results(case.id, n)
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            if exact_floats or not (is_float_scalar(b) or has_floats(b)):
                assert_same(b, a, f"{case.id} {pipeline} n={n} result {k}")


@pytest.mark.parametrize(
    "case,n,pipeline",
    [pytest.param(c, n, p, id=f"{c.id}-{n}-{p}") for c in CASES for n, pipelines in LARGE_RUNS.items()
     for p in pipelines if c.interpreted_sizes((n,))],
)
def test_large_sizes_match_reference(case, n, pipeline):
    module = lowered_and_transformed(case.path, PIPELINES[pipeline][0])
    inputs = inputs_for(case, n)
    case.compare(run_lowered(case, module, inputs), case.reference(inputs))


@pytest.mark.parametrize("width", ["W", 8])
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_vectorizable_loops_are_vectorized(case, width):
    pipeline = "loop-vectorize" if width == "W" else f"loop-vectorize{{width={width}}}"
    kernel = kernel_op(lowered_and_transformed(case.path, pipeline), case.kernel)
    assert decline_codes(kernel) == EXPECTED_SCALAR.get(case.id, [])
    vectors = vector_loops(kernel)
    assert all(v.width.spelling == str(width) for v in vectors)
    if case.id not in EXPECTED_SCALAR:
        assert vectors, f"{case.id}: no vector loop"


def test_row_reduction_vectorizes_its_inner_accumulator_loop():
    case = next(c for c in CASES if c.id == "rank2.mlir::row_sums_f64")
    kernel = kernel_op(lowered_and_transformed(case.path, "loop-vectorize"), case.kernel)
    (vec,) = vector_loops(kernel)
    assert isinstance(vec, loop.VecLoopOp) and len(vec.accs) == 1
    assert isinstance(vec.parent_op(), loop.ForOp)


@pytest.mark.parametrize("kernel", ["col_sums_f32", "col_sums_ordered_f64", "col_sums_i64", "col_min_f32", "col_max_i32"])
def test_column_reductions_vectorize_after_interchange(kernel):
    """loop-interchange makes the column loop innermost and contiguous: one map-like vecloop
    (the accumulators are the output's elements), inside the row loop."""
    case = next(c for c in CASES if c.id == f"rank2_vector.mlir::{kernel}")
    ir = kernel_op(lowered_and_transformed(case.path, "loop-interchange,loop-vectorize{remarks=true}"), case.kernel)
    vectors = vector_loops(ir)  # the output's initialization, a map, vectorizes too
    assert all(isinstance(v, loop.VecLoopOp) and not v.accs.data for v in vectors)
    (inner,) = [v for v in vectors if isinstance(v.parent_op(), loop.ForOp)]
    assert decline_codes(ir) == []


def test_filters_become_width_w_predloops():
    case = next(c for c in CASES if c.id == "filter.mlir::positive_f32")
    kernel = kernel_op(lowered_and_transformed(case.path, "loop-vectorize"), case.kernel)
    preds = [v for v in vector_loops(kernel) if isinstance(v, loop.PredLoopOp)]
    assert preds and all(p.width.is_symbolic for p in preds)
