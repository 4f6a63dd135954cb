"""Parallel folds beyond the LLC walk the K streams the serial kernel walks (the chunk decides
from the whole call's length, `loop.call_dim`: loop_to_simd/vecloop.call_trips): the folds
of par_programs at a size past the CPU's LLC, in chunks of the default size and of a small
one (streams of a few blocks, a short last chunk), on 1-3 threads, every x86 ISA this
machine runs with a CPU model that streams (zen3 for sse2/avx2, zen4 for avx512). Integer
folds exactly numpy's; float folds close to numpy and bit-identical for every thread count
(each chunk streams alike whatever thread runs it)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import SOURCE
from test_parallel_kernels import close, inputs, reference, same_bits

import loopopt
from loopopt.compile import emit
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes

CPU = {"sse2": "zen3", "avx2": "zen3", "avx512": "zen4"}
N = 8_388_608 + 64 * 3 + 19
"""Past zen3's and zen4's 32 MiB LLC for 4-byte elements (8-byte ones from 4 Mi)."""
FOLDS = ("sum_f32", "sum_i32", "sum_max_f64", "dot_norms_f64", "min_i64", "filter_sum_f32")
STREAMED = ("sum_f32", "sum_i32", "sum_max_f64", "min_i64")
"""Kernels whose chunk walks streams on every ISA here (one input, no widening)."""


def _pipeline(isa: str, chunk: int) -> str:
    spelled = LoopPipelinePass(target=isa, cpu=CPU[isa], parallel=-1, filter_block=0).spelling(set(_all_passes()))
    return spelled.replace("loop-parallelize{", f"loop-parallelize{{chunk={chunk} min_elements=0 ", 1)


def _chunk_source(c: str, kernel: str) -> str:
    start = c.index(f" {kernel}__chunk(")
    return c[start : c.index("\n}\n", start)]


@pytest.mark.parametrize("chunk", [32768, 256])
@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
def test_parallel_folds_stream_by_the_whole_call_and_match_numpy(isa, chunk, restore_threads):
    pipeline = _pipeline(isa, chunk)
    c = emit(SOURCE, target=isa, pipeline=pipeline).c_source
    for name in STREAMED:
        body = _chunk_source(c, name)
        assert "loopopt_call_len" in body and "per_stream" in body, (isa, name)
        assert re.search(r"beyond_llc = v\w* > \d+;", body), (isa, name)  # from the call's length
    k = loopopt.compile(SOURCE, target=isa, pipeline=pipeline)
    rng = np.random.default_rng(chunk + len(isa))
    for name in FOLDS:
        args = inputs(name, N, rng)
        want = reference(name, args)
        first = None
        for t in (1, 2, 3):
            loopopt.set_num_threads(t)
            got = k.outputs_and_results(name, *args)
            assert all(close(g, w) for g, w in zip(got, want, strict=True)), (isa, chunk, name, t)
            first = first if first is not None else got
            assert all(same_bits(a, b) for a, b in zip(got, first, strict=True)), (isa, chunk, name, t)
