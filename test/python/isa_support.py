"""Which ISAs this machine runs, as pytest parameters (imported by tests; conftest.py uses it too).

A module of its own, not `conftest`: several test directories have a conftest.py, and
`from conftest import ...` would bind whichever of them pytest imported last.
"""

from __future__ import annotations

import pytest

from loopopt.runtime.isa import host_isas, neon_runner_available


def isa_unavailable(isa: str) -> str | None:
    """Why `isa` cannot run here, or None when it can."""
    if isa == "neon":
        ok, why = neon_runner_available()
        return None if ok else f"NEON under qemu unavailable: {why}"
    if isa not in host_isas():
        return f"this CPU does not run {isa} (it runs {', '.join(host_isas())})"
    return None


def isa_params(isas=("scalar", "sse2", "avx2", "avx512", "neon")):
    """`pytest.param(isa, marks=isa marker)` for each ISA, for parametrize."""
    return [pytest.param(isa, marks=pytest.mark.isa(isa), id=isa) for isa in isas]
