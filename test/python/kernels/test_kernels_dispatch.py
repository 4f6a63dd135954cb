"""The dispatchers lo_<pattern>_<dtype> run the best ISA this CPU has.

Float sums are reassociated differently per vector width, and a*x + b is fused
or not per ISA, so the dispatcher's bits identify the variant it called.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_isas import NATIVE_ISAS
from kernels_call import call
from kernels_data import scalars, values
from loopopt import kernels, runtime

BEST = NATIVE_ISAS[-1]


@pytest.fixture(scope="module")
def dispatch_lib():
    if runtime.best_isa() not in ("sse2", "avx2", "avx512"):
        pytest.skip("the one-unit dispatching build is x86-64 only")
    return kernels.dispatch_library()


@pytest.mark.parametrize(("pattern", "dtype"), kernels.kernels(), ids=[f"{p}-{d}" for p, d in kernels.kernels()])
def test_dispatcher_matches_best_isa_bitwise(dispatch_lib, libraries, pattern, dtype):
    rng = np.random.default_rng(1)
    n = 1001
    x, y = values(rng, pattern, dtype, n), values(rng, pattern, dtype, n)
    a, b = scalars(rng, dtype)
    got = call(dispatch_lib[kernels.kernel_name(pattern, dtype)], pattern, x, y, a, b)
    want = call(libraries[BEST][kernels.kernel_name(pattern, dtype, BEST)], pattern, x, y, a, b)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_dispatcher_distinguishes_isas(dispatch_lib, libraries):
    """The sum above would not have caught a wrong choice unless the ISAs' sums differ: they do."""
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 1001).astype(np.float32)
    sums = {isa: libraries[isa][f"lo_sum_f32_{isa}"](x) for isa in NATIVE_ISAS}
    assert dispatch_lib["lo_sum_f32"](x) == sums[BEST]
    assert len(set(sums.values())) > 1, sums
    assert all(sums[isa] != sums[BEST] for isa in NATIVE_ISAS if isa != BEST), sums
