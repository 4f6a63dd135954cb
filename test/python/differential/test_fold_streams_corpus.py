"""K-stream folds beyond the LLC (convert-loop-to-simd's stream_fold_loop,
Costs.fold_streams_beyond_llc) in every corpus kernel that has one, at a size past the limit
(32 MiB of 4-byte elements: 8388608 trips; 8-byte ones stream from 4 Mi), compiled for avx512
with cpu=zen4 and for avx2 and sse2 with cpu=zen3 (every width streams since session 26), and
compared with numpy at the corpus's own tolerance, at offsets 0 and 1. The corpus differential
tests stop at 65537 elements, where no stream loop runs."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from corpus import load_corpus
from diff_harness import result_extents, single_kernel_module
from isa_support import isa_unavailable

import loopopt
from loopopt.compile import emit
from loopopt.tools.loop_run import run_compiled

TARGETS = [pytest.param(isa, cpu, marks=pytest.mark.isa(isa), id=isa)
           for isa, cpu in (("avx512", "zen4"), ("avx2", "zen3"), ("sse2", "zen3"))]
N = 8_388_608 + 64 * 3 + 19
"""Past the limit: 4 streams of whole 64-lane blocks, then remainder blocks and a masked tail."""
EXACT_ONLY = {"sse2"}
"""Targets whose float results are not compared: sse2 sums 8 Mi f32 elements in 16 accumulators,
outside the corpus's float tolerance with or without streams (mean_var_f32's variance: 1.2e-4
relative either way, rtol 1e-4); their streamed float folds are checked in test_fold_streams_dot.py."""


@pytest.mark.parametrize(("isa", "cpu"), TARGETS)
def test_streamed_corpus_folds_match_numpy(isa, cpu):
    why = isa_unavailable(isa)
    if why:
        pytest.skip(why)
    pipeline = f"loop-pipeline{{target={isa} cpu={cpu}}}"
    streamed = []
    for case in load_corpus():
        module = single_kernel_module(case.path, case.kernel)
        if "per_stream" not in emit(module.clone(), target=isa, pipeline=pipeline).c_source:
            continue
        compiled = loopopt.compile(module, target=isa, pipeline=pipeline)
        rng = np.random.default_rng(zlib.crc32(f"{case.id}:{N}".encode()))
        inputs = case.make_inputs(N, rng)
        ref = case.reference(inputs)
        if isa in EXACT_ONLY and any(np.asarray(r).dtype.kind == "f" for r in ref):
            continue
        streamed.append(case.id)
        for offset in (0, 1):
            got = run_compiled(compiled, case.kernel, case.args(inputs), offset, result_extents(case, ref))
            try:
                case.compare(got, ref)
            except AssertionError as e:
                raise AssertionError(f"{case.id} n={N} offset={offset}: {e}") from None
    assert len(streamed) >= (4 if isa in EXACT_ONLY else 10), streamed  # one-input folds: sums, min/max, counts, stats
