"""Kernel calls on large arrays release the GIL, so another Python thread runs meanwhile.

No timing assertion: with a switch interval of an hour, a thread waiting for the GIL
gets it only when the holder gives it up. The main thread wakes a second thread (which
then waits for the GIL) and calls the kernel without releasing the GIL in Python; the
second thread can set its flag before the main thread looks at it right after the call
only if the call itself released the GIL. Sizes double until it is seen (a second thread
the OS is slow to wake may miss one call): a wrapper that holds the GIL never lets it run.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from rt_kernels import MIXED_SIGS, MIXED_SOURCE

from loopopt.runtime import compile_library
from loopopt.runtime.pyext import GIL_RELEASE_ELEMENTS, extension_source


@pytest.fixture(scope="module")
def lib():
    return compile_library(MIXED_SOURCE, MIXED_SIGS)


def _ran_during_call(call) -> bool:
    """Whether a second Python thread ran while `call()` was executing."""
    wake, ran, finished = threading.Event(), [], threading.Event()

    def second() -> None:
        wake.wait()
        ran.append(True)
        finished.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(3600.0)
    try:
        t = threading.Thread(target=second)
        t.start()
        wake.set()  # `second` now waits for the GIL, which this thread keeps...
        call()  # ...unless the call releases it
        during = bool(ran)  # read before anything below can release the GIL
    finally:
        sys.setswitchinterval(old)
    finished.wait()
    t.join()
    return during


def test_a_large_call_lets_another_thread_run(lib):
    seen = False
    n = 1 << 20
    while not seen and n <= 1 << 24:
        x = np.ones(n, np.float32)
        out = np.empty(n, np.float32)
        seen = _ran_during_call(lambda: lib.lo_scale(x, 2.0, out))
        np.testing.assert_array_equal(out[[0, -1]], [2.0, 2.0])  # and it computed
        n *= 4
    assert seen, "no other thread ran during a kernel call on 16 Mi elements: the call holds the GIL"


def test_the_probe_sees_nothing_while_the_gil_is_held():
    # The harness itself: Python code that never gives up the GIL lets no other thread in.
    for _ in range(20):
        assert not _ran_during_call(lambda: sum(i * i for i in range(20000)))


def test_the_release_is_guarded_by_the_element_count():
    source = extension_source("m", MIXED_SOURCE, MIXED_SIGS)
    assert source.count("Py_BEGIN_ALLOW_THREADS") == len(MIXED_SIGS)
    assert f">= {GIL_RELEASE_ELEMENTS}) {{\n        Py_BEGIN_ALLOW_THREADS" in source
