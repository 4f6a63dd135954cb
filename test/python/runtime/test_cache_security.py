"""The compile cache trusts only what it can check (docs/runtime_cache.md).

Unsafe directories (not ours, group/world-writable, read-only) are replaced by a private
temporary one with a warning; planted symlinks and FIFOs are not followed; truncated,
corrupt or unloadable artifacts are rebuilt; shared objects are loaded from a private copy.
"""

import hashlib
import os
import stat
import uuid
import warnings
from pathlib import Path

import numpy as np
import pytest

from loopopt.runtime import build, library
from loopopt.runtime.library import compile_library
from loopopt.runtime.signature import ArrayParam, KernelSignature

SUM_SIG = KernelSignature("lo_test_sum", (ArrayParam("x", "i64"),), ("i64",))
X = np.arange(10, dtype=np.int64)

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to chown to another uid")


def sum_source() -> str:
    # A unique comment makes the cache key unique to the test.
    return f"""
#include <stdint.h>
/* {uuid.uuid4().hex} */
int64_t lo_test_sum(const int64_t *restrict x, int64_t n) {{
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s += x[i];
    return s;
}}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    path = tmp_path / "cache"
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(path))
    # Each test is a "new process" for the in-memory caches.
    monkeypatch.setattr(library, "_loaded", {})
    monkeypatch.setattr(build, "_verified", {})
    return path


def entry_files(directory: Path) -> tuple[Path, Path]:
    """The one (pointer, artifact) pair in `directory`."""
    (pointer,) = directory.glob("lo_*.sha256")
    (artifact,) = [p for p in directory.glob(f"{pointer.stem}-*.so")]
    return pointer, artifact


def fresh_process(monkeypatch):
    monkeypatch.setattr(library, "_loaded", {})
    monkeypatch.setattr(build, "_verified", {})


# ------------------------------------------------------------------------------ the directory


def test_new_cache_dir_is_created_private(cache):
    assert build.cache_dir() == cache
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700


def _assert_falls_back(cache: Path, reason: str) -> Path:
    with pytest.warns(build.CacheDirWarning, match=reason) as record:
        fallback = build.cache_dir()
    assert len(record) == 1 and str(cache) in str(record[0].message)
    assert fallback != cache and fallback.is_dir()
    st = fallback.stat()
    assert st.st_uid == os.geteuid() and stat.S_IMODE(st.st_mode) == 0o700
    # Warned once: the second call is silent and gives the same private directory.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert build.cache_dir() == fallback
    source = sum_source()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert lib.path.parent == fallback and lib.lo_test_sum(X) == 45
    assert not [p for p in cache.iterdir() if p.name.startswith("lo_")]
    return fallback


def test_world_writable_dir_is_not_used(cache):
    cache.mkdir(mode=0o700)
    cache.chmod(0o777)
    _assert_falls_back(cache, "writable by group or others")


def test_group_writable_dir_is_not_used(cache):
    cache.mkdir(mode=0o700)
    cache.chmod(0o770)
    _assert_falls_back(cache, "writable by group or others")


@root_only
def test_dir_owned_by_another_uid_is_not_used(cache):
    cache.mkdir(mode=0o700)
    os.chown(cache, 12345, 12345)
    _assert_falls_back(cache, "owned by uid 12345")


def test_read_only_dir_falls_back_to_a_temp_dir(cache):
    cache.mkdir(mode=0o700)
    cache.chmod(0o500)
    try:
        _assert_falls_back(cache, "read-only")
    finally:
        cache.chmod(0o700)


def test_uncreatable_dir_falls_back_to_a_temp_dir(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(build.CacheDirWarning, match="cannot create it"):
        fallback = build.cache_dir()
    assert fallback.is_dir() and not str(fallback).startswith(str(blocker))


def test_symlinked_cache_dir_is_judged_by_its_target(tmp_path, monkeypatch):
    unsafe = tmp_path / "unsafe"
    unsafe.mkdir()
    unsafe.chmod(0o777)
    link = tmp_path / "link"
    link.symlink_to(unsafe)
    monkeypatch.setenv("LOOPOPT_CACHE_DIR", str(link))
    with pytest.warns(build.CacheDirWarning, match="writable by group or others"):
        assert build.cache_dir() != unsafe
    unsafe.chmod(0o700)
    assert build.cache_dir() == unsafe


# ------------------------------------------------------------------------------ the entries


def test_entry_layout_digest_and_modes(cache):
    lib = compile_library(sum_source(), [SUM_SIG], isa="scalar")
    pointer, artifact = entry_files(cache)
    assert lib.path == artifact
    digest = pointer.read_text().strip()
    assert hashlib.sha256(artifact.read_bytes()).hexdigest() == digest
    assert artifact.name.endswith(f"-{digest[:16]}.so")
    assert stat.S_IMODE(artifact.stat().st_mode) == 0o500
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no temp or private copies left


@pytest.mark.parametrize("damage", ["truncate", "empty", "flip"])
def test_corrupt_cached_so_is_rebuilt(cache, monkeypatch, damage):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    pointer, artifact = entry_files(cache)
    data = artifact.read_bytes()
    artifact.chmod(0o700)
    if damage == "truncate":
        artifact.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        artifact.write_bytes(b"")
    else:
        artifact.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    fresh_process(monkeypatch)
    before = build.compile_count
    lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1
    assert lib.lo_test_sum(X) == 45
    assert hashlib.sha256(lib.path.read_bytes()).hexdigest() == pointer.read_text().strip()


def test_cached_so_that_fails_to_import_is_rebuilt_once(cache, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    pointer, artifact = entry_files(cache)
    # Consistent digest, unloadable content (e.g. written by a broken toolchain).
    garbage = b"\x7fELF definitely not a shared object"
    digest = hashlib.sha256(garbage).hexdigest()
    planted = cache / f"{pointer.stem}-{digest[:16]}.so"
    planted.write_bytes(garbage)
    planted.chmod(0o500)
    pointer.write_text(digest + "\n")
    fresh_process(monkeypatch)
    before = build.compile_count
    lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1
    assert lib.lo_test_sum(X) == 45
    assert not planted.exists()


def test_fresh_build_that_fails_to_load_raises(cache):
    def refuse(path):
        raise ImportError("refused")

    before = build.compile_count
    with pytest.raises(ImportError, match="refused"):
        build.build_and_load(sum_source(), ["-fPIC"], refuse)
    assert build.compile_count == before + 1  # no rebuild loop


def test_symlinked_artifact_is_not_followed(cache, tmp_path, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    pointer, artifact = entry_files(cache)
    # An attacker's library with the right digest, reached through a symlink.
    elsewhere = tmp_path / "elsewhere.so"
    elsewhere.write_bytes(artifact.read_bytes())
    artifact.unlink()
    artifact.symlink_to(elsewhere)
    fresh_process(monkeypatch)
    before = build.compile_count
    lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1 and lib.lo_test_sum(X) == 45
    assert not lib.path.is_symlink() and elsewhere.exists()


def test_symlinked_pointer_is_not_followed(cache, tmp_path, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    pointer, _ = entry_files(cache)
    target = tmp_path / "pointer-target"
    target.write_text(pointer.read_text())
    pointer.unlink()
    pointer.symlink_to(target)
    fresh_process(monkeypatch)
    before = build.compile_count
    compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1
    assert not pointer.is_symlink() and target.read_text().strip()  # the target is untouched


def test_fifo_planted_as_pointer_does_not_hang(cache, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    pointer, _ = entry_files(cache)
    pointer.unlink()
    os.mkfifo(pointer, 0o600)
    fresh_process(monkeypatch)
    lib = compile_library(source, [SUM_SIG], isa="scalar")  # an open without O_NONBLOCK blocks forever
    assert lib.lo_test_sum(X) == 45 and stat.S_ISREG(os.lstat(pointer).st_mode)


def test_group_writable_artifact_is_not_used(cache, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    _, artifact = entry_files(cache)
    artifact.chmod(0o777)
    fresh_process(monkeypatch)
    before = build.compile_count
    lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1 and lib.lo_test_sum(X) == 45
    assert stat.S_IMODE(lib.path.stat().st_mode) == 0o500


@root_only
def test_artifact_owned_by_another_uid_is_not_used(cache, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    _, artifact = entry_files(cache)
    os.chown(artifact, 12345, 12345)
    fresh_process(monkeypatch)
    before = build.compile_count
    lib = compile_library(source, [SUM_SIG], isa="scalar")
    assert build.compile_count == before + 1 and lib.lo_test_sum(X) == 45
    assert lib.path.stat().st_uid == os.geteuid()


def test_loaded_from_a_private_copy_not_the_cache_file(cache, monkeypatch):
    source = sum_source()
    compile_library(source, [SUM_SIG], isa="scalar")
    fresh_process(monkeypatch)
    lib = compile_library(source, [SUM_SIG], isa="scalar")  # a cache hit
    maps = Path("/proc/self/maps").read_text()
    assert str(lib.path) not in maps
    # Truncating the cache file afterwards (another process, a full disk) cannot SIGBUS us.
    lib.path.chmod(0o700)
    os.truncate(lib.path, 0)
    assert lib.lo_test_sum(X) == 45


def test_cached_artifact_is_hashed_once_per_process(cache, monkeypatch):
    source = sum_source()
    first = build.build(source, ["-fPIC"])
    fresh_process(monkeypatch)
    hashed = []
    real = build._read_checked
    monkeypatch.setattr(build, "_read_checked", lambda path, limit=None: (hashed.append(path.name), real(path, limit))[1])
    assert build.build(source, ["-fPIC"]) == first
    assert build.build(source, ["-fPIC"]) == first
    assert [n for n in hashed if n.endswith(".so")] == [first.name]
    # A different file at the same name (same size even) is hashed again and caught.
    first.chmod(0o700)
    data = bytearray(first.read_bytes())
    data[200] ^= 0xFF
    first.write_bytes(bytes(data))
    before = build.compile_count
    assert build.build(source, ["-fPIC"]).read_bytes() != bytes(data)
    assert build.compile_count == before + 1


def test_compiler_timeout_is_a_compile_error(cache):
    with pytest.raises(build.CompileError, match="did not finish"):
        build.build(sum_source(), ["-fPIC"], timeout=0.001)


def test_stale_temporaries_are_removed_on_a_miss(cache):
    build.cache_dir()
    stale = [cache / ".load-abc123.so", cache / ".lo_x.so.abc.tmp"]
    fresh = cache / ".load-def456.so"
    for path in [*stale, fresh]:
        path.write_bytes(b"left by a killed process")
    for path in stale:
        os.utime(path, (1, 1))
    build.build(sum_source(), ["-fPIC"])
    assert not any(p.exists() for p in stale)
    assert fresh.exists()  # maybe another process's copy being loaded right now
