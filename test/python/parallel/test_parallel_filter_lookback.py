"""The look-back filter driver (loop-parallelize{filter_block_lookback}, targets/c_filter_lookback.py)
against numpy and the serial kernel: every ISA this machine runs, every element type a filter
compacts, sizes around the part and piece boundaries, parts selecting nothing or everything,
1-4 threads, plain and non-temporal drains, counts a thread finds missing (an output shorter
than the input takes the serial kernel: `serial_conditions`, shared with the super-block
driver). NEON and the sanitizers: test_parallel_filter_blocks.py's tests, `lookback` rows. The programs and data are the super-block tests'."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import pipeline
from test_parallel_filter_blocks import BASE, COPYING, NO_F16, SOURCE, check_against_serial, data, names, reference, sizes
from test_parallel_filter_blocks import call as call_kernel

import loopopt
from loopopt.compile import compile as loopopt_compile
from loopopt.runtime import threads

BLOCKS = (128, 8192)
"""Part sizes: many parts of one or a few pieces; parts of several pieces (2 KiB of input per
call: 256 f64 ... 2048 i8 elements)."""


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


@functools.cache
def build(isa: str, block: int, stream_bytes: int = -1, spins: int | None = None):
    src = BASE if isa in NO_F16 else SOURCE
    extra = {"stream_bytes": stream_bytes} if stream_bytes >= 0 else {}
    flags = [f"-DLO_PAR_COUNT_SPINS={spins}"] if spins is not None else []
    spelled = pipeline(isa, -1, min_elements=0, filter_block=block, filter_block_lookback="true", **extra)
    return loopopt_compile(src, target=isa, pipeline=spelled, extra_cflags=flags)


@functools.cache
def serial(isa: str):
    src = BASE if isa in NO_F16 else SOURCE
    return loopopt_compile(src, target=isa, pipeline=pipeline(isa, 0))


@pytest.mark.parametrize("stream", (-1, 64), ids=("plain", "streamed"))
@pytest.mark.parametrize("block", BLOCKS)
@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_lookback_filters_match_numpy_and_the_serial_kernel(isa, block, stream):
    """stream=64: every call's output past the streaming threshold (whole lines non-temporal);
    -1: the CPU's threshold (4 MiB generic), so these sizes drain with plain copies."""
    k, one = build(isa, block, stream), serial(isa)
    assert "lo_par_out_begin(" in k.c_source and "lo_par_prefetch(x" not in k.c_source
    counted = {f.attributes["loop.count_of"].data for f in k.module.ops if "loop.count_of" in f.attributes}
    assert counted == set(names(isa)) - set(COPYING)
    check_against_serial(k, one, isa, block, np.random.default_rng(block + stream), stream)


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx512")))
def test_lookback_counts_a_thread_has_not_published_are_counted_by_the_waiter(isa):
    """Built with LO_PAR_COUNT_SPINS=0 a thread never waits for a count before its pending part:
    one not yet published it counts itself (as when its thread is parked); same bits, many calls."""
    k = build(isa, 128, 64, spins=0)
    rng = np.random.default_rng(17)
    for name in ("scale_f64", "keep_i32", "keep_u8", "keep_i8"):
        for n in (257, 3 * 128 + 17, 16 * 128 + 3, 400 * 128 + 3, 20011):
            x = data(name, n, 128, rng)
            x[: n // 5] = 0  # a fifth selecting nothing: empty parts, places that do not move
            want = reference(name, x)
            for t in (2, 3, 4):
                loopopt.set_num_threads(t)
                for _ in range(3):
                    assert call_kernel(k, name, x).tobytes() == want.tobytes(), (isa, name, n, t)


def test_lookback_needs_filter_block():
    from loopopt.diagnostics import LoopoptDiagnostic
    from loopopt.passes.loop_parallelize import LoopParallelizePass

    with pytest.raises(LoopoptDiagnostic, match="filter_block_lookback needs filter_block"):
        LoopParallelizePass(filter_block_lookback=True)
