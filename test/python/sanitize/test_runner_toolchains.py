"""The standalone runner (runtime/foreign.py) behind both the NEON and the sanitized builds:
one executable for every kernel of a program, per-case offsets, toolchains, timeouts."""

from __future__ import annotations

import numpy as np
import pytest

from loopopt.runtime.foreign import FOREIGN_CFLAGS, ForeignKernel, ForeignRunError, foreign_toolchain
from loopopt.runtime.isa import COMMON_CFLAGS, GENERATED_CFLAGS
from loopopt.runtime.sanitize import SanitizedKernel, sanitizer_toolchain
from loopopt.runtime.signature import ArrayParam, KernelSignature, ScalarParam

TWO = r"""
#include <stdint.h>
int64_t lo_addr(const double *restrict x, int64_t x_len) { (void)x_len; return (int64_t)((uintptr_t)x % 16); }
void lo_neg(const int32_t *restrict x, int64_t x_len, int32_t *restrict out, int64_t out_len) {
    (void)out_len;
    for (int64_t i = 0; i < x_len; i++) out[i] = (int32_t)(0u - (uint32_t)x[i]);
}
"""
ADDR = KernelSignature("lo_addr", (ArrayParam("x", "f64", axes=("i",)),), ("i64",))
NEG = KernelSignature("lo_neg", (ArrayParam("x", "i32", axes=("i",)), ArrayParam("out", "i32", output=True, axes=("i",))))


@pytest.mark.isa("neon")
def test_neon_runner_holds_every_kernel_and_takes_offsets():
    addr = ForeignKernel(TWO, ADDR, signatures=[ADDR, NEG])
    neg = ForeignKernel(TWO, NEG, signatures=[ADDR, NEG])
    assert addr.path == neg.path and addr.isa == "neon"
    # offset 1 of an f64 array: 8 bytes past malloc's 16-byte alignment, inside one runner run
    got = addr.batch([(np.zeros(3),), (np.zeros(3),)], offsets=[0, 1])
    assert [r for _, r in got] == [(0,), (8,)]
    x = np.array([1, -2, 2**31 - 1, -(2**31)], np.int32)
    for offset in (0, 1):
        ((out,), ()), = neg.batch([(x,)], offsets=[offset])
        np.testing.assert_array_equal(out, -x)


def test_flags_of_each_toolchain():
    neon = foreign_toolchain("neon")
    assert neon.prefix == ("qemu-aarch64",) and neon.compiler == "aarch64-linux-gnu-gcc"
    assert "-static" in neon.flags and "-O2" in neon.flags and "-O3" not in neon.flags and "-fPIC" not in neon.flags
    # the native build's error flags and generated-code flags (docs/build_flags.md)
    assert set(GENERATED_CFLAGS) <= set(FOREIGN_CFLAGS)
    assert {f for f in COMMON_CFLAGS if f.startswith("-Werror")} <= set(FOREIGN_CFLAGS)
    with pytest.raises(ValueError, match="no foreign runner"):
        foreign_toolchain("avx2")
    with pytest.raises(ValueError, match="toolchain 'avx2 with ASan"):
        ForeignKernel(TWO, ADDR, "sse2", toolchain=sanitizer_toolchain("avx2"))


def test_a_kernel_that_hangs_times_out():
    sig = KernelSignature("lo_spin", (ScalarParam("n", "i64"),), ("i64",))
    source = "#include <stdint.h>\nint64_t lo_spin(int64_t n) { volatile int64_t k = 0; while (n) k++; return k; }\n"
    assert SanitizedKernel(source, sig, "scalar")(0) == ([], (np.int64(0),))  # default timeout: no flake under load
    spin = SanitizedKernel(source, sig, "scalar", timeout=3.0)  # the same cached executable
    with pytest.raises(ForeignRunError, match="timed out after 3.0s"):
        spin(1)


def test_runner_rejects_a_bad_stream_index():
    k = SanitizedKernel(TWO, NEG, "scalar", signatures=[ADDR, NEG])
    k.index = 5  # a kernel the runner does not have
    with pytest.raises(ForeignRunError, match="no such kernel"):
        k(np.zeros(2, np.int32))
