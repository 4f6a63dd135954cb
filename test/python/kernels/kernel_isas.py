"""The native ISAs the kernel-library tests run here (a module of its own: see isa_support.py)."""

from __future__ import annotations

import pytest

from loopopt import runtime

NATIVE_ISAS = [isa for isa in ("scalar", "sse2", "avx2", "avx512") if isa in runtime.host_isas()]


def isa_params():
    """Every native ISA, with the ones this CPU cannot run present but skipped (with the reason)."""
    return [
        pytest.param(isa, marks=() if isa in NATIVE_ISAS else pytest.mark.skip(reason=f"this CPU does not run {isa}"))
        for isa in ("scalar", "sse2", "avx2", "avx512")
    ]
