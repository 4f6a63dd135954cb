"""Every kernel x dtype x native ISA against numpy, over sizes that hit each loop and unaligned starts."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from kernel_isas import isa_params
from kernels_call import call
from kernels_data import scalars, unaligned, values
from kernels_oracle import check, edge_sizes, lanes
from loopopt.kernels import kernel_name, kernels

CASES = kernels()


@pytest.mark.parametrize("isa", isa_params())
@pytest.mark.parametrize(("pattern", "dtype"), CASES, ids=[f"{p}-{d}" for p, d in CASES])
def test_edge_sizes(libraries, isa, pattern, dtype):
    """Sizes 0, 1, W-1, W, W+1, 2W+3, around the unrolled body, primes, 65537; offsets 0..3."""
    fn = libraries[isa][kernel_name(pattern, dtype, isa)]
    rng = np.random.default_rng(zlib.crc32(f"{isa}{pattern}{dtype}".encode()))
    for n in edge_sizes(lanes(isa, dtype)):
        for offset in (0, 1, 3) if n < 5000 else (1,):
            x = unaligned(values(rng, pattern, dtype, n), offset)
            y = unaligned(values(rng, pattern, dtype, n), (offset + 1) % 4)
            a, b = scalars(rng, dtype)
            got = call(fn, pattern, x, y, a, b, offset=offset)
            check(pattern, dtype, isa, got, x, y, a, b, what=f"offset={offset}")
