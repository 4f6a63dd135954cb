"""Precompiled preludes: the system headers a generated C file starts with, parsed once.

A build of generated C spends most of its time in the headers it includes, not in the
kernels: gcc 12 parses `<immintrin.h>` (every ISA's intrinsics, whatever `-m` flags are
given) in about 0.3 s, while a typical kernel compiles in a tenth of that. gcc can load a
precompiled header instead when it is the first thing it reads. So when the text of a source
starts with a block of system includes (`#include <...>`, object-like `#define`s, `#line` and
comments only: the *prelude*), the build adds `-include <prelude>.h`, and next to that header
lies `<prelude>.h.gch`, compiled by the same compiler with the same flags.

The translation unit is unchanged: the prelude is the start of the source, the source still
includes the same headers, and the second inclusion of each is a guarded no-op (the tests
compare the objects byte for byte). gcc checks a `.gch` against its own flags and reads the
header as text when they differ (docs/runtime_cache.md): at worst a build is as slow as without.

The precompiled header is an entry of the compile cache like any artifact (digest pointer,
checked and hashed before use) with a manifest of the headers it was built from (checked too:
gcc does not notice a changed header), built on the second cache miss with the same prelude,
compiler and flags: a process that compiles once pays nothing extra, and one-off flag sets (a sanitizer
build) leave no 25-35 MB file behind. gcc only (clang's PCH is a different mechanism);
`LOOPOPT_PCH=0` turns it off.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

PRELUDE_LINE = re.compile(r"\s*(?:#\s*include\s*<[^<>\"\n]+>|#\s*define\s+[A-Za-z_][A-Za-z0-9_]*(?:[ \t][^\n\\]*)?)\s*")
"""A line the prelude keeps: an include of a system header (`<...>`: a quoted include would be
searched for next to the prelude, not next to the source) or an object-like macro on one line."""

SKIPPED_LINE = re.compile(r"\s*(?:#\s*line\b[^\n]*|//[^\n]*)?")
"""A line the prelude may pass over: blank, a `#line` directive, a `//` comment."""

MIN_FREE_BYTES = 2 << 30
"""No precompiled header is built on a file system with less free space than this: at 5-35 MB
each they are an acceleration, never worth filling a nearly full disk."""

build_count = 0
"""Precompiled headers this process built (for tests and statistics; not in build.compile_count)."""


def enabled() -> bool:
    return os.environ.get("LOOPOPT_PCH", "1") != "0"


def prelude_of(source: str) -> str:
    """The include/define lines `source` starts with, one per line ("" when there are none).

    Block comments that start and end on lines of their own (`/* ... */`, spanning lines or not)
    are passed over, as are blank lines and `#line`; anything else ends the prelude.
    """
    kept: list[str] = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("/*"):
            end = stripped.find("*/", 2)
            while end < 0 and i + 1 < len(lines):
                i += 1
                stripped = lines[i].strip()
                end = stripped.find("*/")
            if end < 0 or stripped[end + 2:].strip():
                break  # an unterminated comment, or code after it on its line
            i += 1
            continue
        if PRELUDE_LINE.fullmatch(line):
            kept.append(stripped)
        elif not SKIPPED_LINE.fullmatch(line):
            break
        i += 1
    if not any(line.startswith("#") and line[1:].lstrip().startswith("include") for line in kept):
        return ""  # a prelude of defines alone saves nothing
    return "\n".join(kept) + "\n"


def room_for_one(directory: Path) -> bool:
    try:
        return shutil.disk_usage(directory).free >= MIN_FREE_BYTES
    except OSError:
        return False


def is_gcc(identity: str) -> bool:
    """Whether a compiler's `--version` output is gcc's (native or cross), not clang's."""
    return "Free Software Foundation" in identity and "clang" not in identity.lower()


def compile_header(compiler: str, flags: Sequence[str], header: Path, out: Path, depfile: Path,
                   timeout: float) -> subprocess.CompletedProcess:
    """Run `compiler` to precompile `header` into `out` with the build's own `flags`, listing the
    headers it reads in `depfile` (make's format)."""
    global build_count
    build_count += 1
    command = [compiler, *flags, "-x", "c-header", str(header), "-o", str(out), "-MD", "-MF", str(depfile)]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def dependency_manifest(depfile: str, exclude: Path) -> str:
    """One line per header a precompiled header was built from: `mtime_ns size path`.

    gcc does not check that the headers behind a .gch are unchanged, and a system upgrade can
    change them while gcc's --version (part of the key) stays the same."""
    _, _, deps = depfile.replace("\\\n", " ").partition(": ")
    lines = []
    for name in re.split(r"(?<!\\)\s+", deps.strip()):
        path = name.replace("\\ ", " ")
        if not path or os.path.realpath(path) == os.path.realpath(exclude):
            continue
        st = os.stat(path)
        lines.append(f"{st.st_mtime_ns} {st.st_size} {path}\n")
    return "".join(lines)


def manifest_current(manifest: str) -> bool:
    """Whether every header of a `dependency_manifest` still has its recorded mtime and size."""
    for line in manifest.splitlines():
        mtime, size, path = line.split(" ", 2)
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_mtime_ns, st.st_size) != (int(mtime), int(size)):
            return False
    return bool(manifest)
