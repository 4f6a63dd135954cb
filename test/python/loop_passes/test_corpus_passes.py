"""loop-fuse, loop-simplify and loop-licm keep every corpus kernel's results.

Each corpus kernel is lowered to Loop IR without df-fuse (so chains of loops through
intermediates remain for loop-fuse), then transformed; the interpreter runs the kernel
before and after on sizes 0, 1, 7, 8, 9, 1000 and the prime 1009 (within
corpus.INTERPRETER_BUDGET: a matrix product stops at 9). loop-fuse and loop-licm
must give bit-identical results (they reorder no arithmetic); pipelines with loop-simplify
may unroll float powers, so floats are held to the case's own tolerance. Chains that fuse
must end up as one loop nest.
"""

from __future__ import annotations

import zlib
from functools import cache

import numpy as np
import pytest
from corpus import SIZES, Expected, load_corpus
from lowering_harness import lower_unfused_where_possible, loop_nests, lowering_context, result_extents
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from loopopt.lowering.abi import call_loop_kernel, find_kernel
from loopopt.passes.loop_fuse import LoopFusePass
from loopopt.passes.loop_licm import LoopLICMPass
from loopopt.passes.loop_simplify import LoopSimplifyPass

CASES = load_corpus()
PIPELINES: dict[str, tuple[ModulePass, ...]] = {
    "loop-fuse": (LoopFusePass(),),
    "loop-simplify": (LoopSimplifyPass(),),
    "loop-licm": (LoopLICMPass(),),
    "fuse+simplify+licm": (LoopFusePass(), LoopSimplifyPass(), LoopLICMPass()),
}
EXACT = {"loop-fuse", "loop-licm"}

FUSED_TO_ONE_LOOP = {
    "decl_ref.mlir::count_nonneg_i32",
    "fuse_reductions.mlir::mean_var_f32",
    "fuse_reductions.mlir::min_max_sum_i64",
    "fuse_reductions.mlir::ordered_and_free_sums_f32",
    "fuse_vertical.mlir::map_chain_f32",
    "fuse_vertical.mlir::zip_of_maps_i32",
    "fuse_vertical.mlir::dot_f64",
    "fuse_vertical.mlir::max_abs_i64",
    "fuse_vertical.mlir::hash_fold_i64",
    "fuse_vertical.mlir::shared_square_f32",
    "fuse_vertical.mlir::costly_shared_f64",
    "map.mlir::chain_f32",
    "map_reduce.mlir::sumsq_f32",
    "map_reduce.mlir::dot_f64",
    "map_reduce.mlir::dot_i32",
    "map_reduce.mlir::l1_norm_f32",
    "map_reduce.mlir::sum_i64_of_i32",
    "records.mlir::weighted_total_i64",
    "select.mlir::relu_f32",
    "stats.mlir::mean_var_f64",
    "stats.mlir::mean_var_fused_f32",
    "tuple.mlir::range_pair_i32",
    "tuple.mlir::swap_arrays_f64",
}
"""Kernels whose unfused lowering is a chain of loops loop-fuse must turn into one loop."""


@cache
def lowered(path) -> ModuleOp:
    return lower_unfused_where_possible(path)


@cache
def transformed(path, pipeline: str) -> ModuleOp:
    module = lowered(path).clone()
    for p in PIPELINES[pipeline]:
        p.apply(lowering_context(), module)
        module.verify()
    return module


@cache
def baseline(case_id: str, n: int):
    """Inputs, output extents and the unoptimized Loop IR kernel's results at size n."""
    case = next(c for c in CASES if c.id == case_id)
    rng = np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode()))
    inputs = case.make_inputs(n, rng)
    extents = result_extents(find_kernel(case.module(), case.kernel), case.run(inputs))
    return inputs, extents, call_loop_kernel(lowered(case.path), case.kernel, case.args(inputs), extents)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_keeps_results(case, pipeline):
    after_module = transformed(case.path, pipeline)
    for n in case.interpreted_sizes(SIZES):
        inputs, extents, before = baseline(case.id, n)
        after = call_loop_kernel(after_module, case.kernel, case.args(inputs), extents)
        expected = Expected(before)
        expected.bounds, expected.ulps, expected.rtol = (), None, None
        if pipeline not in EXACT:
            ref = case.reference(inputs)
            expected.bounds, expected.ulps, expected.rtol = ref.bounds, ref.ulps, ref.rtol
        case.compare(after, expected)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fusable_chains_become_one_loop(case):
    before = len(loop_nests(lowered(case.path), case.kernel))
    after = len(loop_nests(transformed(case.path, "loop-fuse"), case.kernel))
    if case.id in FUSED_TO_ONE_LOOP:
        assert before > 1 and after == 1, f"{case.id}: {before} loop nests -> {after}, expected 1"
    else:
        assert after <= before


def test_every_listed_kernel_exists():
    assert FUSED_TO_ONE_LOOP <= {c.id for c in CASES}
