"""The on-disk build cache: hits, compile errors, and concurrent builds from several processes."""

import os
import subprocess
import sys
import uuid

import pytest

from loopopt.runtime import build
from loopopt.runtime.library import compile_library
from loopopt.runtime.signature import ArrayParam, KernelSignature

SUM_SIG = KernelSignature("lo_test_sum", (ArrayParam("x", "i64"),), ("i64",))


def sum_source(tag: str) -> str:
    # The tag makes the source (hence the cache key) unique to the test run.
    return f"""
#include <stdint.h>
/* {tag} */
int64_t lo_test_sum(const int64_t *restrict x, int64_t n) {{
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return s;
}}
"""


def test_second_compile_hits_the_cache(fresh_cache):
    source = sum_source(uuid.uuid4().hex)
    before = build.compile_count
    first = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1
    assert first.path.parent == fresh_cache
    mtime = first.path.stat().st_mtime_ns
    second = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1
    assert second.path == first.path and second.path.stat().st_mtime_ns == mtime
    # Different flags are a different artifact.
    third = compile_library(source, [SUM_SIG], isa="scalar", extra_cflags=["-O1"])
    assert build.compile_count == before + 2 and third.path != first.path
    assert not [p for p in fresh_cache.iterdir() if p.name.endswith(".tmp")]


def test_compile_error_carries_stderr(fresh_cache):
    with pytest.raises(build.CompileError) as info:
        build.build("int f(void) { return undeclared_thing; }", ["-std=c11"])
    assert "undeclared_thing" in info.value.stderr
    assert info.value.command[0] == "gcc"
    assert not [p for p in fresh_cache.iterdir() if p.suffix == ".so"]


def test_signature_disagreeing_with_source_is_a_compile_error(fresh_cache):
    wrong = KernelSignature("lo_test_sum", (ArrayParam("x", "f64"),), ("i64",))
    with pytest.raises(build.CompileError, match="conflicting types for .lo_test_sum"):
        compile_library(sum_source("mismatch"), [wrong], isa="scalar")


_RACER = """
import os, sys, time
import numpy as np
from loopopt.runtime.library import compile_library
from loopopt.runtime.signature import ArrayParam, KernelSignature
source, go = sys.argv[1], sys.argv[2]
print("ready", flush=True)
deadline = time.monotonic() + 60
while not os.path.exists(go) and time.monotonic() < deadline:
    time.sleep(0.001)
lib = compile_library(source, [KernelSignature("lo_test_sum", (ArrayParam("x", "i64"),), ("i64",))], isa="scalar")
print(lib.path, lib.lo_test_sum(np.arange(10, dtype=np.int64)), flush=True)
"""


def test_concurrent_compiles_of_the_same_source(fresh_cache):
    source = sum_source(uuid.uuid4().hex)
    go = fresh_cache / "go"
    env = {**os.environ, "LOOPOPT_CACHE_DIR": str(fresh_cache)}
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, source, str(go)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        for _ in range(2)
    ]
    for r in racers:
        assert r.stdout.readline().strip() == "ready"
    go.touch()
    lines = []
    for r in racers:
        out, err = r.communicate(timeout=120)
        assert r.returncode == 0, err
        lines.append(out.split())
    assert lines[0] == lines[1]
    assert lines[0][1] == "45"
    built = [p for p in fresh_cache.iterdir() if p.suffix == ".so"]
    assert [str(p) for p in built] == [lines[0][0]]
    assert not [p for p in fresh_cache.iterdir() if p.name.endswith(".tmp")]


def test_cache_dir_follows_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(tmp_path / "nested" / "cache"))
    assert build.cache_dir() == tmp_path / "nested" / "cache"
    assert build.cache_dir().is_dir()
    monkeypatch.delenv("LOOPOPT_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert build.cache_dir() == tmp_path / ".cache" / "loopopt"


def test_cache_key_includes_compiler_identity(fresh_cache, monkeypatch):
    source = "int lo_key_probe(void) { return 1; }"
    first = build.build(source, ["-fPIC"])
    monkeypatch.setattr(build, "compiler_identity", lambda compiler: "gcc 99 (pretend upgrade)")
    second = build.build(source, ["-fPIC"])
    assert first != second and first.exists() and second.exists()
