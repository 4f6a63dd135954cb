"""The float contract of `a*x + b`: one FMA on avx2/avx512/neon, multiply-round-add on scalar/sse2.

The data is chosen so that the two roundings differ in many lanes (checked),
so a kernel on the wrong side of the contract cannot pass.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernel_isas import isa_params
from kernels_call import call
from kernels_oracle import NP, madd
from loopopt.kernels import FMA_ISAS, kernel_name


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("pattern", ["axpb", "axpy"])
def test_fused_exactly_on_fma_isas(libraries, isa, dtype, pattern):
    t = NP[dtype]
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    rng = np.random.default_rng(11)
    for n in (5, 37, 1003):  # the scalar tail too (n not a multiple of any W)
        x = rng.uniform(-1, 1, n).astype(t)
        y = rng.uniform(-1, 1, n).astype(t)
        a, b = t(1.0 / 3.0), t(-0.1)
        addend = np.full(n, b, t) if pattern == "axpb" else y
        fused = madd("avx2", a, x, addend)
        unfused = madd("scalar", a, x, addend)
        assert np.count_nonzero(fused != unfused) > n // 20, "data does not separate fused from unfused"
        got = call(fn, pattern, x, y, a, b)
        want = fused if isa in FMA_ISAS else unfused
        np.testing.assert_array_equal(got, want)
