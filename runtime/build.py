"""Compiling C to shared libraries and executables, cached on disk by content hash.

Differential tests compile the same kernels over and over, from several
pytest-xdist workers at once; hashing (compiler identity, flags, source) makes
the second compile free, and compiling to a private temp file then renaming
makes concurrent builds of the same artifact safe.

The cache is trusted only as far as it can be checked (docs/runtime_cache.md):

* The directory (`$LOOPOPT_CACHE_DIR` or `~/.cache/loopopt`, created 0700) must be
  a directory owned by the effective uid, not writable by group or others, and
  writable by us. Otherwise a `CacheDirWarning` is issued once and a private
  temporary directory (mkdtemp, 0700, removed at exit) is used instead.
* Every file read from it is opened with O_NOFOLLOW | O_NONBLOCK and checked with
  fstat (a regular file, ours, not group/world-writable): a planted symlink is not
  followed and a planted FIFO does not hang the open.
* An artifact is stored under a name carrying its content digest,
  `lo_<key>-<digest16>.so`, made read-only (0500) and renamed into place; only
  then is the pointer `lo_<key>.sha256` (the full SHA-256) written, atomically.
  A reader hashes the artifact and compares it with the pointer; a missing,
  truncated or corrupt artifact is deleted and rebuilt.
* Shared libraries are never loaded from the cache file itself: the verified
  bytes are written to a private file (mkstemp in the cache directory), loaded
  from there and unlinked, so no other process can truncate what we mapped.
  A load failure (ImportError/OSError) of a cached artifact deletes it and
  rebuilds once.
"""

from __future__ import annotations

import atexit
import errno
import functools
import hashlib
import itertools
import os
import shutil
import stat
import subprocess
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from . import precompiled
from .isa import OPENMP_CFLAGS

T = TypeVar("T")

OPENMP_MARKER = 'LO_OMP("omp '
"""What the C of a parallel kernel contains (targets/c_parallel.py)."""

compile_count = 0
"""Number of compiler invocations made by this process (cache misses); for tests and stats."""

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_DIGEST_NAME = "sha256"
_POINTER_MAX = 256


class CompileError(RuntimeError):
    """The C compiler rejected a source; carries the command and the compiler's stderr."""

    def __init__(self, command: Sequence[str], stderr: str, source_path: Path | None = None):
        self.command = list(command)
        self.stderr = stderr
        self.source_path = source_path
        where = f" (source kept at {source_path})" if source_path is not None else ""
        super().__init__(f"compilation failed{where}: {' '.join(self.command)}\n{stderr}")


class CacheDirWarning(RuntimeWarning):
    """The configured cache directory is unsafe or unusable; a private temporary one is used."""


class _Untrusted(Exception):
    """A cache entry that must not be used (and is deleted): the reason is the message."""


# ---------------------------------------------------------------------------------------------
# The directory


def configured_cache_dir() -> Path:
    """`$LOOPOPT_CACHE_DIR`, or `~/.cache/loopopt` (not checked, maybe not existing)."""
    env = os.environ.get("LOOPOPT_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "loopopt"


def unsafe_reason(path: Path) -> str | None:
    """Why the existing directory `path` must not hold the cache, or None when it may."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR):
            return "it is not a directory (or is a symlink)"
        return f"cannot open it ({e.strerror})"
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    if st.st_uid != os.geteuid():
        return f"it is owned by uid {st.st_uid}, not by this process's uid {os.geteuid()}"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"it is writable by group or others (mode {stat.S_IMODE(st.st_mode):04o})"
    # The owner-write bit is checked too: root writes anywhere, but a 0500 directory says "read-only".
    if not st.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK | os.X_OK):
        return "it is read-only"
    return None


_warned: set[tuple[str, str]] = set()
_private: dict[int, Path] = {}


def _private_cache_dir() -> Path:
    """A fresh 0700 directory of this process (per pid: a forked child gets its own), removed at exit."""
    pid = os.getpid()
    path = _private.get(pid)
    if path is None or not path.is_dir():
        path = Path(tempfile.mkdtemp(prefix="loopopt-cache-"))
        _private[pid] = path

        def remove(path: Path = path, pid: int = pid) -> None:
            if os.getpid() == pid:
                shutil.rmtree(path, ignore_errors=True)

        atexit.register(remove)
    return path


def cache_dir() -> Path:
    """The directory artifacts go to: the configured one when it is safe, else a private temp dir.

    Read on each call so tests can redirect it. The configured directory is created
    (mode 0700, parents as needed) and resolved through symlinks in its path, then
    checked (`unsafe_reason`); an unsafe or unusable one is reported once per process
    with a `CacheDirWarning`.
    """
    configured = configured_cache_dir()
    try:
        configured.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(configured, 0o700)
        except FileExistsError:
            pass
        path = Path(os.path.realpath(configured))
        reason = unsafe_reason(path)
    except OSError as e:
        path, reason = configured, f"cannot create it ({e.strerror or e})"
    if reason is None:
        return path
    fallback = _private_cache_dir()
    if (str(path), reason) not in _warned:
        _warned.add((str(path), reason))
        warnings.warn(
            f"loopopt: not using the compile cache {path}: {reason}; using the private temporary directory {fallback}",
            CacheDirWarning,
            stacklevel=2,
        )
    return fallback


# ---------------------------------------------------------------------------------------------
# Keys and files


SUPPORTED_COMPILERS = ("gcc", "clang")


def default_compiler() -> str:
    """The C compiler for native builds: `$CC` when set (gcc or clang, e.g. `CC=clang`,
    `CC=gcc-12`, `CC=/usr/bin/clang-17`, `CC=cc` when `cc` is one of them), else `gcc`.
    Anything else (another compiler, a command with arguments such as `ccache gcc`) is a
    CompileError naming CC. The compiler's `--version` is part of every cache key."""
    cc = os.environ.get("CC", "").strip()
    if not cc:
        return "gcc"
    if any(c.isspace() for c in cc):
        raise CompileError(["CC=" + cc], f"CC={cc!r}: loopopt runs CC as one program (gcc or clang), without arguments")
    identity = compiler_identity(cc).lower()
    if not any(name in identity for name in ("clang", "gcc", "free software foundation")):
        first = identity.splitlines()[0] if identity else "no --version output"
        raise CompileError(["CC=" + cc], f"CC={cc!r} is not gcc or clang ({first}); loopopt builds with gcc or clang")
    return cc


@functools.cache
def compiler_identity(compiler: str) -> str:
    """`<compiler> --version`: part of the cache key so a toolchain upgrade invalidates the cache."""
    try:
        proc = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=True, timeout=60)
    except FileNotFoundError:
        raise CompileError([compiler, "--version"], f"compiler {compiler!r} not found on PATH") from None
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        raise CompileError([compiler, "--version"], f"compiler {compiler!r} does not run: {e}") from None
    return proc.stdout


def content_hash(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _write_atomically(path: Path, data: str | bytes, mode: int = 0o600) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            os.fchmod(f.fileno(), mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_checked(path: Path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The content of the cache file `path`, opened without following symlinks and checked first.

    FileNotFoundError when it does not exist; `_Untrusted` when it is a symlink, not a
    regular file, not ours, writable by group/others, or longer than `limit`.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as e:
        if e.errno == errno.ENOENT:
            raise FileNotFoundError(e.errno, e.strerror, str(path)) from None
        if e.errno in (errno.ELOOP, errno.EMLINK):
            raise _Untrusted(f"{path.name} is a symlink") from None
        raise _Untrusted(f"cannot open {path.name}: {e.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _Untrusted(f"{path.name} is not a regular file")
        if st.st_uid != os.geteuid():
            raise _Untrusted(f"{path.name} is owned by uid {st.st_uid}")
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise _Untrusted(f"{path.name} is writable by group or others")
        if limit is not None and st.st_size > limit:
            raise _Untrusted(f"{path.name} is too large")
        return f.read(), st


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


_verified: dict[str, tuple[int, int, int, int]] = {}
"""Artifacts this process has hashed, by path -> (dev, inode, size, mtime): hashed once per process."""


def _discard(*paths: Path) -> None:
    for path in paths:
        _verified.pop(str(path), None)
        try:
            os.unlink(path)  # unlink removes a symlink itself, never its target
        except FileNotFoundError:
            pass


class _Entry:
    """One cache entry: `lo_<key>.sha256` points at `lo_<key>-<digest16><suffix>`."""

    def __init__(self, directory: Path, key: str, suffix: str):
        self.directory = directory
        self.stem = f"lo_{key[:32]}"
        self.suffix = suffix
        self.pointer = directory / f"{self.stem}.{_DIGEST_NAME}"
        self.source = directory / f"{self.stem}.c"

    def artifact(self, digest: str) -> Path:
        return self.directory / f"{self.stem}-{digest[:16]}{self.suffix}"

    def lookup(self, need_data: bool) -> tuple[Path, bytes | None] | None:
        """The verified artifact (and its bytes when `need_data` or first seen), or None on a miss.

        An untrusted or corrupt entry is deleted (pointer and artifact) and reported as a miss.
        """
        try:
            text, _ = _read_checked(self.pointer, limit=_POINTER_MAX)
        except FileNotFoundError:
            return None
        except _Untrusted:
            _discard(self.pointer)
            return None
        digest = text.decode("ascii", "replace").strip()
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            _discard(self.pointer)
            return None
        path = self.artifact(digest)
        if not need_data:
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                _discard(self.pointer)
                return None
            if _verified.get(str(path)) == _identity(st):
                return path, None
        try:
            data, st = _read_checked(path)
        except (FileNotFoundError, _Untrusted):
            _discard(self.pointer, path)
            return None
        if hashlib.sha256(data).hexdigest() != digest:
            _discard(self.pointer, path)
            return None
        _verified[str(path)] = _identity(st)
        return path, data

    def store(self, tmp: Path) -> tuple[Path, bytes]:
        """Move the freshly compiled `tmp` into place (artifact first, then its pointer)."""
        os.chmod(tmp, 0o500)  # read-only before the checks: a umask of 002 must not make it untrusted
        data, _ = _read_checked(tmp)
        digest = hashlib.sha256(data).hexdigest()
        path = self.artifact(digest)
        os.replace(tmp, path)
        _write_atomically(self.pointer, digest + "\n")
        _verified[str(path)] = _identity(os.lstat(path))
        return path, data

    def discard(self, artifact: Path) -> None:
        _discard(self.pointer, artifact)


_STALE_SECONDS = 3600.0


def _remove_stale_temporaries(directory: Path) -> None:
    """Delete temp files (`.*.tmp`, `.load-*`) an hour old: left by a process killed mid-write.

    Runs on a cache miss only (a compile costs far more than one directory scan).
    """
    now = time.time()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (name.startswith(".load-") or (name.startswith(".") and name.endswith(".tmp"))):
            continue
        path = directory / name
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if st.st_uid == os.geteuid() and now - st.st_mtime > _STALE_SECONDS:
            _discard(path)


# ---------------------------------------------------------------------------------------------
# Building and loading


def uses_openmp(source: str) -> bool:
    """Whether `source` has parallel kernels (targets/c_parallel.py): built with -fopenmp
    then, and only then; their libraries need the shared thread setting loaded first."""
    return OPENMP_MARKER in source


def _get(
    source: str,
    flags: Sequence[str],
    *,
    compiler: str,
    shared: bool,
    libs: Sequence[str],
    key_extra: str,
    timeout: float,
    need_data: bool,
) -> tuple[_Entry, Path, bytes | None, bool]:
    """(entry, verified artifact path, its bytes or None, whether it was compiled just now)."""
    global compile_count
    if uses_openmp(source):
        flags = [*flags, *OPENMP_CFLAGS]
    all_flags = [*flags, "-shared" if shared else ""]
    all_flags = [f for f in all_flags if f]
    key = content_hash(compiler_identity(compiler), "\0".join(all_flags), "\0".join(libs), source, key_extra)
    entry = _Entry(cache_dir(), key, ".so" if shared else ".exe")
    hit = entry.lookup(need_data)
    if hit is not None:
        return entry, hit[0], hit[1], False
    _remove_stale_temporaries(entry.directory)
    _write_atomically(entry.source, source)
    fd, tmp = tempfile.mkstemp(dir=entry.directory, prefix=f".{entry.stem}.", suffix=".tmp")
    os.close(fd)
    compile_flags = [f for f in all_flags if f != "-shared"]
    prelude = _precompiled_prelude(source, compile_flags, compiler, entry.directory, timeout)
    command = [compiler, *all_flags, str(entry.source), "-o", tmp, *libs]
    try:
        compile_count += 1
        proc = _run_compiler(command, timeout, entry.source, prelude)
        if proc.returncode != 0 and prelude:
            # The precompiled header is only ever an acceleration: a build that fails with it
            # (say another process discarded the entry meanwhile) is retried, and reported, without.
            proc = _run_compiler(command, timeout, entry.source, [])
        if proc.returncode != 0:
            raise CompileError(command, proc.stderr, entry.source)
        path, data = entry.store(Path(tmp))
    finally:
        Path(tmp).unlink(missing_ok=True)
    return entry, path, data, True


def _run_compiler(command: list[str], timeout: float, source: Path, prelude: list[str]) -> subprocess.CompletedProcess:
    """`command` with the `-include` of a precompiled prelude (if any) after the compiler's name."""
    command = [command[0], *prelude, *command[1:]]
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CompileError(command, f"the compiler did not finish in {timeout:g} s", source) from None


_prelude_checked: dict[str, str] = {}
"""Precompiled headers this process has checked (text beside them, headers they were built
from unchanged), by .gch path -> prelude text."""


def _precompiled_prelude(source: str, flags: list[str], compiler: str, directory: Path, timeout: float) -> list[str]:
    """`["-include", header]` when `source`'s prelude has a precompiled header in the cache (built
    now when this is the prelude's second miss: runtime/precompiled.py), else []."""
    if not precompiled.enabled():
        return []
    identity = compiler_identity(compiler)
    prelude = precompiled.prelude_of(source)
    if not prelude or not precompiled.is_gcc(identity):
        return []
    entry = _Entry(directory, content_hash(identity, "\0".join(flags), prelude, "precompiled prelude"), ".h.gch")
    hit = entry.lookup(need_data=False)
    if hit is not None and _prelude_checked.get(str(hit[0])) != prelude and not _prelude_current(hit[0], prelude):
        _discard(entry.pointer, hit[0], *_prelude_companions(hit[0]))
        hit = None
    if hit is None:
        seen = directory / f"{entry.stem}.seen"
        if not os.path.lexists(seen):
            _write_atomically(seen, "")
            return []
        path = _build_prelude(entry, prelude, flags, compiler, timeout)
        if path is None:
            return []
    else:
        path = hit[0]
    _prelude_checked[str(path)] = prelude
    return ["-include", str(path.with_suffix(""))]


def _prelude_companions(gch: Path) -> tuple[Path, Path]:
    """(the header gcc is told to include, the manifest of the headers the .gch was built from):
    `lo_<key>-<digest>.h` beside `lo_<key>-<digest>.h.gch`, as gcc looks for it, and `.deps`."""
    header = gch.with_suffix("")
    return header, header.with_suffix(".deps")


def _prelude_current(gch: Path, prelude: str) -> bool:
    """Whether the text beside `gch` is `prelude` and every header it was built from is unchanged
    (a system upgrade that keeps gcc's --version would otherwise leave it stale)."""
    header, deps = _prelude_companions(gch)
    try:
        return _read_checked(header)[0] == prelude.encode() and precompiled.manifest_current(_read_checked(deps)[0].decode())
    except (FileNotFoundError, _Untrusted, UnicodeDecodeError):
        return False


def _build_prelude(entry: _Entry, prelude: str, flags: list[str], compiler: str, timeout: float) -> Path | None:
    """Precompile `prelude` into `entry` (with its header text and manifest beside it); None when
    the disk is nearly full or gcc fails (the build itself then reports what is wrong, if anything)."""
    if not precompiled.room_for_one(entry.directory):
        return None
    temps = []
    for _ in range(3):
        fd, name = tempfile.mkstemp(dir=entry.directory, prefix=f".{entry.stem}.", suffix=".tmp")
        os.close(fd)
        temps.append(Path(name))
    text, out, depfile = temps
    try:
        text.write_text(prelude)
        try:
            proc = precompiled.compile_header(compiler, flags, text, out, depfile, timeout)
        except subprocess.TimeoutExpired:
            return None
        if proc.returncode != 0:
            return None
        manifest = precompiled.dependency_manifest(depfile.read_text(), exclude=text)
        # The companions first, the pointer last (in store): a process that finds the pointer
        # finds them too, and does not discard a complete entry as broken.
        header, deps = _prelude_companions(entry.artifact(hashlib.sha256(out.read_bytes()).hexdigest()))
        _write_atomically(header, prelude, mode=0o400)
        _write_atomically(deps, manifest, mode=0o400)
        path, _ = entry.store(out)
        return path
    finally:
        for temp in temps:
            temp.unlink(missing_ok=True)


def build(
    source: str,
    flags: Sequence[str],
    *,
    compiler: str | None = None,
    shared: bool = True,
    libs: Sequence[str] = ("-lm",),
    key_extra: str = "",
    timeout: float = 300.0,
) -> Path:
    """Compile `source` into a shared library (or executable), returning its verified cached path.

    `key_extra` adds anything else the artifact depends on (e.g. the Python ABI
    for extension modules). `compiler` defaults to `default_compiler()` (`$CC` or gcc). A cache hit does not run the compiler at all except
    for its memoized `--version`; it hashes the artifact the first time this
    process sees it. To load a shared library, use `build_and_load`, which never
    maps the cache file itself.
    """
    _, path, _, _ = _get(
        source, flags, compiler=compiler or default_compiler(), shared=shared, libs=libs, key_extra=key_extra, timeout=timeout, need_data=False
    )
    return path


_load_counter = itertools.count()


def load_private_copy(data: bytes, directory: Path, load: Callable[[Path], T]) -> T:
    """`load(path)` on a private copy of `data` (mkstemp in `directory`, 0500), unlinked afterwards.

    The name carries the pid and a per-process counter: glibc's dlopen returns an already
    loaded object whose name matches, so a name must never repeat within a process.
    """
    prefix = f".load-{os.getpid()}-{next(_load_counter)}-"
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=prefix, suffix=".so")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), 0o500)
        return load(Path(tmp))
    finally:
        Path(tmp).unlink(missing_ok=True)


def build_and_load(
    source: str,
    flags: Sequence[str],
    load: Callable[[Path], T],
    *,
    compiler: str | None = None,
    libs: Sequence[str] = ("-lm",),
    key_extra: str = "",
    timeout: float = 300.0,
) -> tuple[Path, T]:
    """Compile `source` into a shared library (or take it from the cache) and `load` it.

    Returns (cached path, what `load` returned). `load` receives the path of a private,
    verified copy that is deleted after it returns (dlopen keeps its mapping). When
    loading a cached artifact raises ImportError or OSError, the entry is deleted and
    rebuilt once; a freshly built artifact that fails to load raises.
    """
    if uses_openmp(source):
        from .threads import KERNEL_LINK_FLAGS, ensure_loaded

        ensure_loaded()  # defines the weak symbols the kernels' drivers read
        flags = [*flags, *KERNEL_LINK_FLAGS]  # their regions enter the runtime's fork handling
    kwargs = dict(compiler=compiler or default_compiler(), shared=True, libs=libs, key_extra=key_extra, timeout=timeout, need_data=True)
    entry, path, data, fresh = _get(source, flags, **kwargs)  # type: ignore[arg-type]
    assert data is not None
    try:
        return path, load_private_copy(data, entry.directory, load)
    except (ImportError, OSError):
        if fresh:
            raise
    entry.discard(path)
    entry, path, data, fresh = _get(source, flags, **kwargs)  # type: ignore[arg-type]
    assert data is not None
    return path, load_private_copy(data, entry.directory, load)
