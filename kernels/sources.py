"""Where the C sources are, and self-contained source text for one build.

The runtime caches builds by a hash of the source text, so a build gets the
ISA file with its local includes (`#include "..."` of files in src/ and
include/) expanded inline: editing any kernel file changes the text and
rebuilds. System includes stay as they are.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SRC_DIR = ROOT / "src"
INCLUDE_DIR = ROOT / "include"
HEADER = INCLUDE_DIR / "loopopt_kernels.h"
DISPATCH_SOURCE = SRC_DIR / "dispatch.c"

X86_ISAS: tuple[str, ...] = ("scalar", "sse2", "avx2", "avx512")
AARCH64_ISAS: tuple[str, ...] = ("scalar", "neon")

# gcc `target` strings equivalent to each ISA's -m flags (loopopt.runtime.isa), for the
# one-translation-unit build of the dispatching library.
GCC_TARGETS: dict[str, str] = {
    "sse2": "sse2",
    "avx2": "avx2,fma",
    "avx512": "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma",
}

_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"[ \t]*$', re.MULTILINE)


def source_path(isa: str) -> Path:
    """The C file of one ISA's kernels (kernels/src/<isa>.c)."""
    path = SRC_DIR / f"{isa}.c"
    if not path.is_file():
        raise ValueError(f"no kernel source for ISA {isa!r}")
    return path


def expand(path: Path) -> str:
    """The text of `path` with local includes expanded (recursively; include guards still apply)."""

    def include(match: re.Match[str]) -> str:
        name = match.group(1)
        for directory in (path.parent, SRC_DIR, INCLUDE_DIR):
            candidate = directory / name
            if candidate.is_file():
                return f"/* begin {name} */\n{expand(candidate)}\n/* end {name} */"
        raise FileNotFoundError(f"{path}: cannot find included file {name!r}")

    return _LOCAL_INCLUDE.sub(include, path.read_text())


@functools.cache
def isa_source(isa: str) -> str:
    """Self-contained C source of one ISA's kernels; build it with that ISA's flags."""
    return expand(source_path(isa))


@functools.cache
def dispatch_source(arch: str = "x86_64") -> str:
    """One translation unit holding every ISA of `arch` plus the dispatchers.

    Built without ISA flags: each ISA's kernels are compiled for their ISA by a
    `#pragma GCC target` region (gcc only). C users get the same library from
    the per-file build in kernels/Makefile.
    """
    if arch != "x86_64":
        raise ValueError("the one-unit dispatching build exists for x86_64 only (aarch64: NEON is the baseline)")
    parts = [f"/* loopopt kernels: all x86-64 ISAs + dispatchers in one unit */\n{isa_source('scalar')}"]
    for isa in X86_ISAS[1:]:
        parts.append(
            f'#pragma GCC push_options\n#pragma GCC target("{GCC_TARGETS[isa]}")\n'
            f"{isa_source(isa)}\n#pragma GCC pop_options"
        )
    parts.append(expand(DISPATCH_SOURCE))
    return "\n".join(parts)
