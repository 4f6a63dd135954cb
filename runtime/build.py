"""Compiling C to shared libraries and executables, cached on disk by content hash.

Differential tests compile the same kernels over and over, from several
pytest-xdist workers at once; hashing (compiler identity, flags, source) makes
the second compile free, and compiling to a private temp file then renaming
makes concurrent builds of the same artifact safe.
"""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

compile_count = 0
"""Number of compiler invocations made by this process (cache misses); for tests and stats."""


class CompileError(RuntimeError):
    """The C compiler rejected a source; carries the command and the compiler's stderr."""

    def __init__(self, command: Sequence[str], stderr: str, source_path: Path | None = None):
        self.command = list(command)
        self.stderr = stderr
        self.source_path = source_path
        where = f" (source kept at {source_path})" if source_path is not None else ""
        super().__init__(f"compilation failed{where}: {' '.join(self.command)}\n{stderr}")


def cache_dir() -> Path:
    """`$LOOPOPT_CACHE_DIR`, or `~/.cache/loopopt`; read on each call so tests can redirect it."""
    env = os.environ.get("LOOPOPT_CACHE_DIR")
    path = Path(env) if env else Path.home() / ".cache" / "loopopt"
    path.mkdir(parents=True, exist_ok=True)
    return path


@functools.cache
def compiler_identity(compiler: str) -> str:
    """`<compiler> --version`: part of the cache key so a toolchain upgrade invalidates the cache."""
    try:
        proc = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=True)
    except FileNotFoundError:
        raise CompileError([compiler, "--version"], f"compiler {compiler!r} not found on PATH") from None
    return proc.stdout


def content_hash(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _write_atomically(path: Path, data: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def build(
    source: str,
    flags: Sequence[str],
    *,
    compiler: str = "gcc",
    shared: bool = True,
    libs: Sequence[str] = ("-lm",),
    key_extra: str = "",
    timeout: float = 300.0,
) -> Path:
    """Compile `source` into a shared library (or executable), returning its cached path.

    `key_extra` adds anything else the artifact depends on (e.g. the Python ABI
    for extension modules). A cache hit does not run the compiler at all except
    for its memoized `--version`.
    """
    global compile_count
    all_flags = [*flags, "-shared" if shared else ""]
    all_flags = [f for f in all_flags if f]
    key = content_hash(compiler_identity(compiler), "\0".join(all_flags), "\0".join(libs), source, key_extra)
    directory = cache_dir()
    stem = f"lo_{key[:32]}"
    out = directory / (stem + (".so" if shared else ".exe"))
    if out.exists():
        return out
    src = directory / (stem + ".c")
    _write_atomically(src, source)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{out.name}.", suffix=".tmp")
    os.close(fd)
    command = [compiler, *all_flags, str(src), "-o", tmp, *libs]
    try:
        compile_count += 1
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise CompileError(command, proc.stderr, src)
        os.replace(tmp, out)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return out
