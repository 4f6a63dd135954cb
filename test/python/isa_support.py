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


def check_refused_without_feature(monkeypatch: pytest.MonkeyPatch, compiled, feature: str) -> None:
    """`compiled` (an avx512 `loopopt.compile.emit` result whose C enables the CPU `feature` by a
    pragma) is refused, naming the feature, on a CPU with the AVX-512 baseline only."""
    from loopopt.runtime import isa as isa_mod
    from loopopt.runtime.library import compile_library

    runs_avx512 = "avx512" in isa_mod.host_isas()  # cached from the real flags before the patch below
    monkeypatch.setattr(isa_mod, "_cpu_flags", lambda: frozenset({"avx512f", "avx512bw", "avx512vl", "avx512dq"}))
    assert isa_mod.missing_cpu_features(compiled.c_source) == [feature]
    if not runs_avx512:
        pytest.skip("this CPU does not run avx512")
    with pytest.raises(ValueError, match=f"this CPU lacks {feature}"):
        compile_library(compiled.c_source, list(compiled.signatures.values()), isa="avx512")
