"""Instruction sets: which ones this host runs, and the compiler flags that target each.

Kernels come in per-ISA variants; the runtime only calls natively the ones the
CPU supports (anything else would die of SIGILL) and runs NEON under qemu.
"""

from __future__ import annotations

import functools
import platform
import shutil

ISAS: tuple[str, ...] = ("scalar", "sse2", "avx2", "avx512", "neon")
"""Every ISA loopopt targets, weakest first within an architecture."""

NATIVE = "native"
"""Pseudo-ISA: whatever `-march=native` enables on the build host."""

COMMON_CFLAGS: tuple[str, ...] = (
    # -O3 for its complete unrolling and scheduling (the kernel library's accumulator
    # arrays stay in registers only with it); auto-vectorization is off for generated
    # code (GENERATED_CFLAGS below).
    "-O3",
    # C11 without GNU extensions: -std=gnu11 would predefine `linux` and `unix` as 1.
    "-std=c11",
    "-fPIC",
    # IEEE semantics as written: no contraction of a*b+c into an fma behind the printer's back.
    "-ffp-contract=off",
    "-Wall",
    "-Wextra",
    # A trigraph is an error, never silently converted (the printer escapes '?' in string
    # literals; under -std=c11 "??/" would otherwise become a backslash, even in a comment).
    "-Werror=trigraphs",
    # What C89 allowed and gcc 12 only warns about compiles to wrong code: make it fail.
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
    "-Werror=int-conversion",
    "-Werror=incompatible-pointer-types",
    "-Werror=return-type",
)
"""Flags for every build (docs/build_flags.md explains and measures each)."""

GENERATED_CFLAGS: tuple[str, ...] = (
    # gcc 12's loop vectorizer miscompiles some generated scalar loops (a fold acc*acc over
    # i32 from 3 gives 3 instead of 1 at n=64 on AVX2), and this code is vectorized by
    # loopopt or by hand already. The scalar target is therefore genuinely scalar.
    "-fno-tree-vectorize",
    # Safety nets for code that is right by construction: the printer wraps signed
    # arithmetic through unsigned casts and moves bits through intrinsics.
    "-fwrapv",
    "-fno-strict-aliasing",
    # Every loop head on a 64-byte boundary (a cache line, the op cache's line on AMD): gcc's
    # default (16 bytes if that skips <= 10 bytes, else 8) left the identical 80-byte AVX2 fold
    # loop of loopopt and of the kernel library at 24 and 8 mod 32, and on Zen 3 the one across
    # three 64-byte lines ran at 0.77x; at 32 bytes a 33-64-byte loop that starts 32 bytes into
    # a line still crosses into the next (SSE2 sum f32 0.74-0.81x, session 29). docs/build_flags.md.
    "-falign-loops=64",
)
"""Added for every concrete ISA, i.e. loopopt's generated C and the kernel library. NATIVE
(plain C such as the benchmark's `gcc -O3 -march=native` baseline; loopopt.compile never
uses it) does not get them: gcc optimizes that C as it would on its own."""

OPENMP_CFLAGS: tuple[str, ...] = ("-fopenmp",)
"""Added (by runtime/build.py) to builds of C with parallel kernels only (docs/threads.md):
libgomp is linked, and `LO_OMP` directives become OpenMP pragmas. The NEON cross build links
libgomp statically under -static (gcc warns about dlopen in libgomp; harmless)."""

AUTOVEC_CFLAGS: tuple[str, ...] = ("-ftree-vectorize",)
"""Extra flags that turn gcc's auto-vectorizer back on for a concrete ISA (later flags win)."""

_ISA_CFLAGS: dict[str, tuple[str, ...]] = {
    "scalar": (),
    "sse2": ("-msse2",),
    "avx2": ("-mavx2", "-mfma", "-mf16c"),  # F16C: f16 <-> f32 (every AVX2 CPU has it)
    "avx512": ("-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma"),
    # NEON is part of the armv8-a baseline: the aarch64 compiler needs no flag.
    "neon": (),
    NATIVE: ("-march=native",),
}

# ISA -> /proc/cpuinfo flags that must all be present.
_X86_REQUIREMENTS: dict[str, tuple[str, ...]] = {
    "sse2": ("sse2",),
    "avx2": ("avx2", "fma", "f16c"),
    "avx512": ("avx512f", "avx512bw", "avx512vl", "avx512dq"),
}

FEATURE_PRAGMAS: dict[str, str] = {
    '#pragma GCC target("avx512bf16")': "avx512_bf16", '#pragma GCC target("avx512vbmi2")': "avx512_vbmi2",
}
"""A line of generated C enabling a CPU extension past its ISA (targets/c_part.with_cpu_features)
-> the /proc/cpuinfo flag a CPU must have to run it."""


def missing_cpu_features(c_source: str) -> list[str]:
    """The extensions `c_source` enables (`FEATURE_PRAGMAS`) that this CPU lacks."""
    return [flag for line, flag in FEATURE_PRAGMAS.items() if line in c_source and flag not in _cpu_flags()]


FOREIGN_TOOLS: dict[str, tuple[str, str]] = {"neon": ("aarch64-linux-gnu-gcc", "qemu-aarch64")}
"""ISA -> (cross compiler, user-mode emulator) for ISAs run out of process."""


def check_isa(isa: str, *, allow_native: bool = True) -> str:
    valid = ISAS + ((NATIVE,) if allow_native else ())
    if isa not in valid:
        raise ValueError(f"unknown ISA {isa!r}; expected one of {', '.join(valid)}")
    return isa


X86_CFLAGS: tuple[str, ...] = ("-mno-mmx",)
"""Added for every ISA built by the host compiler on an x86 host. gcc 12 at -O3 moves 64-bit
values through MMX registers (`movq mem, %mm0; movq2dq %mm0, %xmm7`, seen in SSE2
compaction tails) without `emms`: that leaves the x87 tag word full, and every later
`long double` operation in the calling process (numpy's longdouble: `np.longdouble(1) + 2`)
returns NaN. No kernel needs MMX (docs/build_flags.md)."""


def _x86_host() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def cflags(isa: str) -> list[str]:
    """The ISA-specific flags (scalar: portable C, no intrinsics; on x86, no MMX either)."""
    flags = list(_ISA_CFLAGS[check_isa(isa)])
    if isa not in FOREIGN_TOOLS and _x86_host():
        flags += X86_CFLAGS
    return flags


def compile_flags(isa: str) -> list[str]:
    """Everything needed to compile a kernel for `isa`: common flags, then the ISA's.

    Concrete ISAs (generated and hand-vectorized code) add GENERATED_CFLAGS (no
    auto-vectorizer, -fwrapv, -fno-strict-aliasing); NATIVE (plain C tuned for this
    host) does not.
    """
    generated = GENERATED_CFLAGS if check_isa(isa) != NATIVE else ()
    return [*COMMON_CFLAGS, *generated, *cflags(isa)]


@functools.cache
def _cpu_flags() -> frozenset[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return frozenset()
    flags: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            flags.update(value.split())
    return frozenset(flags)


@functools.cache
def host_isas() -> tuple[str, ...]:
    """The ISAs this CPU runs, weakest first (always starting with "scalar")."""
    machine = platform.machine().lower()
    flags = _cpu_flags()
    if machine in ("x86_64", "amd64"):
        # SSE2 is part of the x86-64 baseline even if cpuinfo is unreadable.
        found = ["scalar", "sse2"]
        found += [isa for isa in ("avx2", "avx512") if all(f in flags for f in _X86_REQUIREMENTS[isa])]
        return tuple(found)
    if machine in ("aarch64", "arm64"):
        return ("scalar", "neon")
    return ("scalar",)


def best_isa() -> str:
    return host_isas()[-1]


def neon_runner_available() -> tuple[bool, str]:
    """Whether NEON kernels can be built and run here (cross gcc + qemu), and why not."""
    missing = [tool for tool in FOREIGN_TOOLS["neon"] if shutil.which(tool) is None]
    if missing:
        return False, f"missing {' and '.join(missing)} (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
    return True, "aarch64-linux-gnu-gcc and qemu-aarch64 found"
