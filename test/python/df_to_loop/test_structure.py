"""Loop structure after lowering: one loop nest per df op, ONE per fused group.

Unfused (convert-df-to-loop alone): every df op that needs a loop (map, filter, reduce,
fold, scan, select on arrays) is exactly one top-level loop nest — the lowering never fuses
(a filter followed by a map is two loops), except that a gather whose one user is a full
reduction or a rank-1 map is read in that user's loops (lowering_harness.nests_of). Fused (df-fuse, then convert-df-to-loop): one
nest per df op df-fuse left, its fused forms included (a filter with a map region, a
reduce with a prologue / predicate, a scan with a prologue). Copy nests (a returned kernel
input) are counted apart.
"""

from __future__ import annotations

import pytest
from corpus import load_corpus
from lowering_harness import (
    FUSED_FORMS_DIR,
    df_loop_ops,
    is_copy,
    lower,
    lowering_context,
    loop_nests,
    nests_of,
    parse,
)

from loopopt.dialects import loop
from loopopt.lowering.abi import find_kernel
from loopopt.lowering.df_to_loop.decl_ref import inline_decl_refs

CASES = [c for c in load_corpus() + load_corpus(FUSED_FORMS_DIR) if not c.id.startswith("matmul.mlir::")]
"""Every corpus kernel but the matrix products: their rank-3 products exist only fused into
the reduction (unfused, convert-df-to-loop refuses to store them: test_rank3_product_unfused_is_an_error)."""
COPIES = {"swap_arrays_f64": 2, "take_positive": 1}
"""Kernels returning their inputs: each returned input is copied by one nest. And results on a
filter's axis that another op makes (take_positive: a gather of the kept indices): they are made
in scratch and their first min(count, capacity) elements copied, since a C caller's capacity may
be below the count (docs/calling_convention.md; lowering/df_to_loop/kernel.py `_in_place`)."""
UNFUSED_COPIES = {**COPIES, "positive_cumsum_i32": 1, "even_times3_i32": 1, "odd_scaled_shifted_i32": 1,
                  "gaps_where_below_f64": 2}  # fmt: skip
"""Without df-fuse, a filter followed by a map or scan: the map / scan result is such a result."""
SINGLE_NEST = ("sumsq_f32", "dot_f64", "l1_norm_f32", "map_chain_f32", "mean_var_fused_f32",
               "sum_positive_f64", "count_above_i64", "even_times3_i32", "norm2_f32", "rotate_f64",
               "mean_var_f32", "even_count_max_i32", "positive_sum_f32",
               # fused_forms.mlir: map → scan, filter → map → map, filter(x, y) → map,
               # filter → map → reduce ∥ filter → reduce, merged prologues, filter → map →
               # fold, filter → custom reduce
               "scan_of_squares_i64", "odd_scaled_shifted_i32", "gaps_where_below_f64",
               "positive_stats_f32", "sumsq_and_max_product_i64", "even_tripled_hash_i64",
               "nonzero_custom_max_abs_i32")
"""Fused chains: exactly one loop nest and no intermediate buffer after df-fuse + lowering."""


def expected_nests(module, kernel: str) -> int:
    """One nest per df op that needs a loop (after inlining decl_refs)."""
    inline_decl_refs(find_kernel(module, kernel))
    return sum(nests_of(op) for op in df_loop_ops(module, kernel))


def split(module, kernel: str) -> tuple[int, int]:
    nests = loop_nests(module, kernel)
    copies = sum(1 for n in nests if is_copy(n))
    return len(nests) - copies, copies


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_unfused_one_nest_per_df_op(case):
    expected = expected_nests(parse(case.path), case.kernel)
    module = lower(parse(case.path), fuse=False)
    assert split(module, case.kernel) == (expected, UNFUSED_COPIES.get(case.kernel, 0))


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fused_one_nest_per_fused_group(case):
    from loopopt.passes.df_fuse import DFFusePass

    fused_df = parse(case.path)
    DFFusePass().apply(lowering_context(), fused_df)
    expected = expected_nests(fused_df, case.kernel)
    module = lower(parse(case.path), fuse=True)
    assert split(module, case.kernel) == (expected, COPIES.get(case.kernel, 0))
    unfused = lower(parse(case.path), fuse=False)
    assert len(loop_nests(module, case.kernel)) <= len(loop_nests(unfused, case.kernel))


@pytest.mark.parametrize("kernel", SINGLE_NEST)
def test_fused_chain_is_one_nest_without_intermediates(kernel):
    case = next(c for c in CASES if c.kernel == kernel)
    module = lower(parse(case.path), fuse=True)
    assert len(loop_nests(module, kernel)) == 1
    assert not [op for op in find_kernel(module, kernel).walk() if isinstance(op, loop.AllocOp)]


def test_unfused_intermediate_is_allocated_and_freed():
    """map → reduce without df-fuse: the map writes a loop.alloc'd buffer, freed before return."""
    case = next(c for c in CASES if c.kernel == "sumsq_f32")
    f = find_kernel(lower(parse(case.path), fuse=False), case.kernel)
    ops = list(f.walk())
    allocs = [op for op in ops if isinstance(op, loop.AllocOp)]
    deallocs = [op for op in ops if isinstance(op, loop.DeallocOp)]
    assert len(allocs) == 1 and len(deallocs) == 1
    assert deallocs[0].buf is allocs[0].result
    assert deallocs[0].next_op is f.body.block.last_op


def test_rank3_product_unfused_is_an_error():
    from loopopt.diagnostics import LoopoptDiagnostic

    (case,) = [c for c in load_corpus() if c.id == "matmul.mlir::matmul_f32"]
    with pytest.raises(LoopoptDiagnostic, match="rank-3 arrays are only supported fused into a df.reduce"):
        lower(parse(case.path), fuse=False)
    fused = lower(parse(case.path), fuse=True)
    assert len(loop_nests(fused, case.kernel)) == 1
