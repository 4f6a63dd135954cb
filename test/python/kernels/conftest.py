"""Fixtures of the kernel-library tests: one compiled library per ISA, hypothesis profiles.

Hypothesis profiles: "ci" (derandomized, used when $CI is set), "dev" (default),
"long" (HYPOTHESIS_PROFILE=long: many more examples, for local soak runs).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from kernel_isas import NATIVE_ISAS

from loopopt import kernels, runtime

settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

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
