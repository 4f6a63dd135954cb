"""Random sizes (biased to the loop edges), offsets and data for every kernel of every native ISA."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kernel_isas import NATIVE_ISAS
from kernels_call import call
from kernels_data import unaligned
from kernels_oracle import NP, check, lanes
from loopopt import kernels

CASES = [(isa, p, d) for isa in NATIVE_ISAS for p, d in kernels.kernels()]


def sizes(w: int):
    """Mostly near multiples of W and of the 4W unrolled body, sometimes anywhere up to 3000."""
    near = st.builds(lambda k, d: max(0, k * w + d), st.integers(0, 9), st.integers(-2, 2))
    return st.one_of(near, st.integers(0, 4 * w + 8), st.integers(0, 3000))


@st.composite
def case(draw):
    isa, pattern, dtype = draw(st.sampled_from(CASES))
    n = draw(sizes(lanes(isa, dtype)))
    seed = draw(st.integers(0, 2**32 - 1))
    offset = draw(st.integers(0, 3))
    return isa, pattern, dtype, n, seed, offset


@given(case())
def test_random_case(libraries, args):
    isa, pattern, dtype, n, seed, offset = args
    rng = np.random.default_rng(seed)
    t = NP[dtype]
    if dtype[0] == "i":
        info = np.iinfo(t)
        lo, hi = (-5, 5) if rng.random() < 0.5 else (info.min, info.max)
        gen = lambda m: rng.integers(lo, hi, m, dtype=t, endpoint=True)  # noqa: E731
    elif pattern == "prod":
        gen = lambda m: ((1 + rng.uniform(-1, 1, m) / 256) * rng.choice([-1, 1], m)).astype(t)  # noqa: E731
    else:
        scale = 10.0 ** rng.integers(-3, 4)
        gen = lambda m: (rng.standard_normal(m) * scale).astype(t)  # noqa: E731
    x, y = unaligned(gen(n), offset), unaligned(gen(n), 3 - offset)
    a, b = gen(2)
    fn = kernels.library(isa)[kernels.kernel_name(pattern, dtype, isa)]
    check(pattern, dtype, isa, call(fn, pattern, x, y, a, b, offset), x, y, a, b, what=f"seed={seed} offset={offset}")
