"""ISA detection and compiler flags."""

import platform

import pytest

from loopopt.runtime import isa


def test_flags_per_isa():
    x86 = list(isa.X86_CFLAGS) if isa._x86_host() else []
    assert isa.cflags("scalar") == x86
    assert isa.cflags("sse2") == ["-msse2", *x86]
    assert isa.cflags("avx2") == ["-mavx2", "-mfma", "-mf16c", *x86]  # f16 storage converts with F16C
    assert isa.cflags("avx512") == ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma", *x86]
    assert isa.cflags("native") == ["-march=native", *x86]
    assert isa.cflags("neon") == []
    full = isa.compile_flags("avx2")
    assert full == [*isa.COMMON_CFLAGS, *isa.GENERATED_CFLAGS, "-mavx2", "-mfma", "-mf16c", *x86]
    assert "-fno-tree-vectorize" in full  # docs/build_flags.md: gcc 12's vectorizer miscompiles generated folds
    native = isa.compile_flags("native")
    assert "-march=native" in native and "-fno-tree-vectorize" not in native


def test_unknown_isa_lists_valid_ones():
    with pytest.raises(ValueError, match="unknown ISA 'avx3'.*scalar, sse2, avx2, avx512, neon"):
        isa.cflags("avx3")


def test_host_isas_agree_with_cpuinfo():
    found = isa.host_isas()
    assert found[0] == "scalar"
    assert isa.best_isa() == found[-1]
    assert set(found) <= set(isa.ISAS)
    if platform.machine() == "x86_64":
        flags = isa._cpu_flags()
        assert "sse2" in found
        assert ("avx2" in found) == ({"avx2", "fma"} <= flags)
        assert ("avx512" in found) == ({"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags)
        assert "neon" not in found


def test_neon_runner_probe():
    ok, reason = isa.neon_runner_available()
    assert isinstance(ok, bool) and reason
    if not ok:
        assert "missing" in reason
