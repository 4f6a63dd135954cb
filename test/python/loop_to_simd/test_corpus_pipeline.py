"""Every df corpus kernel through loop-pipeline for every target, run by the interpreter.

The lowered simd IR is compared with
* the df reference (numpy) within the case's tolerance, on targets without FMA;
* the loop IR just before convert-loop-to-simd (same FMA contraction, same pass history):
  bit-exact for integers and maps, within the corpus tolerance for float reductions
  (the interleaved accumulators and tree hreduce reorder the sum, which `reassoc` allows).
No CPU with the ISA is needed: the interpreter runs simd IR for any target. Sizes whose
interpreting would take minutes (a matrix product's largest) are left to the compiled tests
(corpus.INTERPRETER_BUDGET).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from corpus import Expected, load_corpus
from pipeline_harness import TARGET_NAMES, compiled, parse, sizes, slow

from loopopt.dialects import loop
from loopopt.dialects.simd_targets import TARGETS
from loopopt.lowering.abi import call_loop_kernel, find_kernel

CASES = load_corpus()


@cache
def _df_outputs(path, kernel: str) -> tuple:
    return tuple(find_kernel(parse(path), kernel).function_type.outputs)


def _extents(case, df_results) -> dict[str, int]:
    """Lengths of the df results' axes (outputs on a range's axis have no input to size them)."""
    from loopopt.dialects.df_types import ArrayType

    extents: dict[str, int] = {}
    for t, r in zip(_df_outputs(case.path, case.kernel), df_results, strict=True):
        if isinstance(t, ArrayType):
            arr = next(iter(r.values())) if isinstance(r, dict) else r
            extents.update(zip(t.axis_names, arr.shape, strict=True))
    return extents


def _exact(values) -> Expected:
    ref = Expected(values)
    ref.bounds, ref.ulps, ref.rtol = (), None, None
    return ref


def check_case(case, target: str, ns) -> None:
    lowered = compiled(case.path, target)
    before = compiled(case.path, target, "convert-loop-to-simd")
    assert not any(isinstance(op, loop.VecLoopOp) for op in lowered.walk()), "a vecloop survived the lowering"
    for n in ns:
        inputs = case.make_inputs(n, np.random.default_rng(1000 + n))
        extents = _extents(case, case.run(inputs))
        got = call_loop_kernel(lowered, case.kernel, case.args(inputs), extents)
        ref = case.reference(inputs)
        tol_kind = case.tol.partition(":")[0]
        if tol_kind in ("reduction", "close") or not TARGETS[target].has_fma:
            case.compare(got, ref)
        if tol_kind not in ("reduction", "close"):
            pre = call_loop_kernel(before, case.kernel, case.args(inputs), extents)
            case.compare(got, _exact(pre))


@pytest.mark.parametrize("target", TARGET_NAMES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus_through_pipeline(case, target):
    check_case(case, target, case.interpreted_sizes(sizes(target)))


@slow
@pytest.mark.parametrize("target", TARGET_NAMES)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corpus_through_pipeline_large(case, target):
    check_case(case, target, (1000, 1009))
