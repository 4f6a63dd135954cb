"""The C compiler choice: `$CC` (gcc or clang) is honoured and checked (runtime/build.py)."""

from __future__ import annotations

import shutil

import pytest

from loopopt.runtime import build
from loopopt.runtime.build import CompileError, default_compiler


def test_default_is_gcc(monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    assert default_compiler() == "gcc"
    monkeypatch.setenv("CC", "  ")
    assert default_compiler() == "gcc"


@pytest.mark.parametrize(("cc", "message"), [
    ("ccache gcc", "without arguments"),
    ("python3", "is not gcc or clang"),
    ("no-such-compiler-xyz", "not found on PATH"),
])
def test_bad_cc_is_a_clear_error(monkeypatch, cc, message):
    monkeypatch.setenv("CC", cc)
    with pytest.raises(CompileError, match=message):
        default_compiler()


@pytest.mark.skipif(shutil.which("clang") is None, reason="clang is not installed")
def test_cc_clang_builds_with_clang(monkeypatch, tmp_path):
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(tmp_path / "cache"))
    source = "int loopopt_cc_probe(int x) { return x + 1; }\n"
    monkeypatch.setenv("CC", "clang")
    with_clang = build.build(source, ["-O1"]).read_bytes()
    monkeypatch.setenv("CC", "gcc")
    with_gcc = build.build(source, ["-O1"]).read_bytes()
    assert b"clang version" in with_clang  # the .comment section names the compiler
    assert b"clang version" not in with_gcc and b"GCC" in with_gcc
