"""Calling a kernel leaves the caller's floating-point state as it found it.

gcc 12 at -O3 once moved 64-bit values through MMX registers (`movq2dq`) in SSE2
compaction tails, without `emms`: after such a call every `long double` operation in the
process (numpy's longdouble) returned NaN. Built with `-mno-mmx` (runtime/isa.py X86_CFLAGS).
"""

from __future__ import annotations

import numpy as np
import pytest

from isa_support import isa_params
from loopopt.compile import compile

FILTER_ULT = """
func.func @f_ult(%x: !df.array<i32, [i]>, %t: i32) -> !df.array<i32, [k]> {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi ult, %e, %t : i32
    df.yield %c : i1
  }
  func.return %p : !df.array<i32, [k]>
}
"""


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
@pytest.mark.parametrize("n", [1003, 1001, 7])
def test_long_double_math_still_works_after_a_kernel_call(isa, n):
    k = compile(FILTER_ULT, target=isa)
    x = np.random.default_rng(n).integers(-100, 100, n).astype(np.int32)
    out = k.call_alloc("f_ult", x, np.int32(7))[0]
    np.testing.assert_array_equal(out, x[x.view(np.uint32) < 7])
    with np.errstate(all="raise"):
        assert np.longdouble(1) + np.longdouble(2) == 3
        assert np.sum(np.ones(10, np.longdouble)) == 10


def test_x86_builds_never_use_mmx():
    from loopopt.runtime import isa

    if not isa._x86_host():
        pytest.skip("not an x86 host")
    for name in ("scalar", "sse2", "avx2", "avx512", "native"):
        assert "-mno-mmx" in isa.compile_flags(name), name
    assert "-mno-mmx" not in isa.cflags("neon")
