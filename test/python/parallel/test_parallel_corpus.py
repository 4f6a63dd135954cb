"""Every df corpus kernel through `loop-pipeline{parallel=-1}` (chunk 64, filters in super-block parts of 128, no threshold) on
scalar, SSE2, AVX2, AVX-512 (and the split ones on NEON under qemu, 3 threads) equals numpy (the differential corpus's references and tolerances) with 1 and 3
threads, bit-identically across thread counts, at sizes around chunk boundaries and with
unaligned buffers; kernels the pass leaves serial must still pass (the pipeline is then the
default one)."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "df"))
sys.path.insert(0, str(HERE.parent / "differential"))

from corpus import load_corpus  # noqa: E402
from diff_harness import case_data, expected_for, result_extents  # noqa: E402
from isa_support import isa_params  # noqa: E402
from par_programs import pipeline  # noqa: E402

import loopopt  # noqa: E402
from loopopt.compile import compile as loopopt_compile  # noqa: E402
from loopopt.compile import make_context, parse  # noqa: E402
from loopopt.runtime import threads  # noqa: E402
from loopopt.tools.loop_run import run_compiled, run_compiled_batch  # noqa: E402

ISAS = ("scalar", "sse2", "avx2", "avx512")
CASES = load_corpus()
SIZES = (0, 1, 63, 64, 65, 129, 1000, 4099)
NARROW_SIZES = (0, 1, 65, 1000)
"""Scalar and SSE2 take fewer sizes (the rows double the test's count): empty, one element,
one past a chunk (two chunks, the second of one element) and many chunks with a ragged end."""


@cache
def compiled_file(path: Path, isa: str = "avx2"):
    return loopopt_compile(parse(path.read_text(), make_context(), str(path)), target=isa,
                           pipeline=pipeline(isa, -1, chunk=64, min_elements=0, filter_block=128))


def test_the_corpus_has_parallel_kernels_of_every_shape():
    plans = {}
    for path in sorted({c.path for c in CASES}):
        for f in compiled_file(path).module.ops:
            plan = f.attributes.get("loop.parallel")
            if plan is not None:
                plans[f.sym_name.data] = str(plan)
    text = " ".join(plans.values())
    assert len(plans) >= 20 and '"count"' in text and '"add"' in text and "scans = [" in text.replace("scans = []", "")


@pytest.mark.parametrize("isa", isa_params(ISAS))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corpus_kernel_parallel_matches_numpy(case, isa):
    compiled = compiled_file(case.path, isa)
    before = threads.get_num_threads()
    try:
        for n in SIZES if isa in ("avx2", "avx512") else NARROW_SIZES:
            inputs, ref = case_data(case, n)
            expected, what = expected_for(case, compiled, inputs, ref)
            first = None
            for t in (1, 3):
                loopopt.set_num_threads(t)
                for offset in (0, 1):
                    got = run_compiled(compiled, case.kernel, case.args(inputs), offset, result_extents(case, ref))
                    try:
                        case.compare(got, expected)
                    except AssertionError as e:
                        raise AssertionError(f"n={n} threads={t} offset={offset} (reference: {what}): {e}") from None
                    flat = [np.asarray(v).tobytes() if not isinstance(v, dict) else repr(v) for v in got]
                    first = first or flat
                    assert flat == first, f"n={n}: results differ between thread counts"
    finally:
        threads.set_num_threads(before)


def _split(compiled, kernel: str) -> bool:
    return any(f.sym_name.data == kernel and "loop.parallel" in f.attributes for f in compiled.module.ops)


@pytest.mark.parametrize("isa", isa_params(("neon",)))
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corpus_kernel_parallel_under_qemu(case, isa):
    """The split kernels on NEON under qemu-aarch64: one run per kernel (sizes 0, 1, 65, 1000)
    on 3 threads (LOOPOPT_NUM_THREADS: no Python runtime in the runner). Kernels the pass
    leaves serial are the differential corpus' NEON test's."""
    compiled = compiled_file(case.path, isa)
    if not _split(compiled, case.kernel):
        pytest.skip("serial: test_differential_corpus.py::test_neon_kernel_matches_numpy")
    data = [case_data(case, n) for n in NARROW_SIZES]
    os.environ["LOOPOPT_NUM_THREADS"] = "3"
    try:
        runs = run_compiled_batch(compiled, case.kernel, [case.args(inputs) for inputs, _ in data],
                                  [result_extents(case, ref) for _, ref in data])
    finally:
        del os.environ["LOOPOPT_NUM_THREADS"]
    for n, (inputs, ref), got in zip(NARROW_SIZES, data, runs, strict=True):
        expected, what = expected_for(case, compiled, inputs, ref)
        try:
            case.compare(got, expected)
        except AssertionError as e:
            raise AssertionError(f"neon n={n} threads=3 (reference: {what}): {e}") from None
