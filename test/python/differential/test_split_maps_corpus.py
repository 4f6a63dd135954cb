"""Zen 4's 256-bit maps in the L1d (convert-loop-to-simd's split_map_loop, Costs.half_blocks_in_l1:
a K-block map loop marked `loop.split_halves`, printed as two 256-bit halves per 512-bit block) in
every corpus kernel that has one, compiled for avx512 with cpu=zen4 and compared with numpy (or the
FMA-contracted program, as the corpus tests do) at sizes around the split loop's blocks (W = 16:
0, 1, W-1, W, W+1, 2W-1, 2W, 2W+1, 3W+1, 4W+1), primes, at and past the L1d limit (a*x + y: 2730
trips; a*x + b: 4096) and large, buffers aligned and one element off. The corpus differential tests
run cpu=generic on avx512, where nothing splits; the other ISAs are unchanged (no split without a
datapath narrower than the vectors)."""

from __future__ import annotations

import numpy as np
import pytest
from corpus import load_corpus
from diff_harness import case_data, expected_for, result_extents, single_kernel_module
from isa_support import isa_unavailable

import loopopt
from loopopt.compile import emit
from loopopt.dialects import loop
from loopopt.dialects.split_halves import SPLIT_HALVES_ATTR
from loopopt.tools.loop_run import run_compiled

PIPELINE = "loop-pipeline{target=avx512 cpu=zen4}"
SIZES = (0, 1, 15, 16, 17, 31, 32, 33, 49, 65, 97, 257, 1009, 2729, 2730, 2731, 4096, 4097, 65537)


def split_maps(module) -> int:
    """The map loops (no accumulators) marked `loop.split_halves` in a lowered module."""
    return sum(1 for op in module.walk()
               if isinstance(op, loop.ForOp) and SPLIT_HALVES_ATTR in op.attributes and not op.accumulators)  # fmt: skip


@pytest.mark.isa("avx512")
def test_split_corpus_maps_match_numpy():
    why = isa_unavailable("avx512")
    if why:
        pytest.skip(why)
    split = []
    for case in load_corpus():
        module = single_kernel_module(case.path, case.kernel)
        if not split_maps(emit(module.clone(), target="avx512", pipeline=PIPELINE).module):
            continue
        compiled = loopopt.compile(module, target="avx512", pipeline=PIPELINE)
        split.append(case.id)
        for n in SIZES:
            inputs, ref = case_data(case, n)
            expected, what = expected_for(case, compiled, inputs, ref)
            for offset in (0, 1):
                got = run_compiled(compiled, case.kernel, case.args(inputs), offset, result_extents(case, ref))
                try:
                    case.compare(got, expected)
                except AssertionError as e:
                    raise AssertionError(f"{case.id} n={n} offset={offset} (reference: {what}): {e}") from None
    assert len(split) >= 5, split
