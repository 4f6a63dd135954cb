"""Fixtures of the kernel-library tests: one compiled library per ISA.

Hypothesis profiles are test/python/conftest.py's.
"""

from __future__ import annotations


import pytest

from kernel_isas import NATIVE_ISAS

from loopopt import kernels, runtime


def pytest_report_header(config):
    neon_ok, why = runtime.neon_runner_available()
    skipped = [isa for isa in ("scalar", "sse2", "avx2", "avx512") if isa not in NATIVE_ISAS]
    return [
        f"kernels: native ISAs exercised: {', '.join(NATIVE_ISAS)}"
        + (f"; not runnable here (skipped): {', '.join(skipped)}" if skipped else ""),
        f"kernels: NEON under qemu: {'yes' if neon_ok else 'no'} ({why})",
    ]


@pytest.fixture(scope="module")
def libraries():
    """ISA -> compiled library (built once per process; the runtime caches on disk too)."""
    return {isa: kernels.library(isa) for isa in NATIVE_ISAS}
