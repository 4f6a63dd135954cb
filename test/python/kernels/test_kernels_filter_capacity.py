"""A filter never writes past out_len, and returns the full count even when the output is too short."""

from __future__ import annotations

import numpy as np
import pytest

from kernel_isas import NATIVE_ISAS, isa_params
from loopopt import kernels, runtime
from loopopt.kernels import DTYPES
from kernels_oracle import NP


@pytest.fixture(scope="module")
def capacity_libraries():
    """filter_gt0_scale with an unconstrained output (no capacity axis), so the runtime lets out_len < x_len."""
    libs = {}
    for isa in NATIVE_ISAS:
        sigs = []
        for dt in DTYPES:
            sig = kernels.signature("filter_gt0_scale", dt, isa)
            x, a, out = sig.params
            sigs.append(runtime.KernelSignature(sig.name, (x, a, runtime.ArrayParam("out", dt, output=True, count_result=0)), sig.results))
        libs[isa] = runtime.compile_library(kernels.isa_source(isa), sigs, isa=isa)
    return libs


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", DTYPES)
def test_short_output_is_never_overrun(capacity_libraries, isa, dtype):
    t = NP[dtype]
    fn = capacity_libraries[isa][kernels.kernel_name("filter_gt0_scale", dtype, isa)]
    rng = np.random.default_rng(3)
    for n in (10, 100, 257):
        x = rng.integers(-5, 6, n).astype(t)
        want = (t(3) * x[x > 0]).astype(t)
        for cap in (0, 1, want.size // 2, want.size - 1, want.size):
            if cap < 0:
                continue
            buf = np.full(cap + 64, 99, t)
            count = fn(x, t(3), buf[:cap])
            assert count == want.size
            np.testing.assert_array_equal(buf[:cap], want[:cap])
            assert np.all(buf[cap:] == 99), f"wrote past out_len={cap}"
