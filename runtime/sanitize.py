"""Generated kernels under AddressSanitizer + UndefinedBehaviorSanitizer (docs/sanitizers.md).

The kernel C is linked with the standalone runner of `loopopt.runtime.foreign` (every
array in an allocation of exactly its size, optionally starting one element in), built
natively with the sanitizers on and run directly in a subprocess. Any report ends the
run with a non-zero status: `SanitizedKernel.batch` then raises `SanitizerError`, whose
message holds the runner's stderr (the report). The executable is cached on disk like
every build (`runtime.build`), keyed by compiler identity, flags and source.

    kernels = sanitized_kernels(compiled.c_source, compiled.signatures.values(), "avx2")
    outputs_and_results = kernels["sumsq"].batch(cases, offsets=[0, 1, ...])

The ISA's code must run on this CPU; building (e.g. avx512 on a CPU without it) works
everywhere. NEON is out of reach: its runner runs under qemu-aarch64, where ASan's
shadow memory does not work.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .foreign import ForeignKernel, ForeignRunError, Toolchain
from .isa import COMMON_CFLAGS, cflags, check_isa, host_isas
from .signature import KernelSignature

SANITIZE_CFLAGS: tuple[str, ...] = (
    "-O1",
    "-g",
    "-fsanitize=address,undefined",
    # Not part of gcc's "undefined": a float -> int conversion out of the integer's range is UB in C.
    "-fsanitize=float-cast-overflow",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
)
"""The sanitizer build's own flags (any report is fatal)."""

BASE_CFLAGS: tuple[str, ...] = (
    *(f for f in COMMON_CFLAGS if f not in ("-O3", "-fPIC")),
    "-fno-tree-vectorize",
)
"""The native build's language and warning flags, without its optimization level and without
`-fwrapv` / `-fno-strict-aliasing` (runtime.isa.GENERATED_CFLAGS): -fwrapv would define signed
overflow and so turn UBSan's signed-overflow check off, while the printer claims its C never
overflows a signed type (it wraps through unsigned casts). That claim is what is checked."""

ASAN_OPTIONS = "halt_on_error=1:abort_on_error=0:detect_leaks=1:print_summary=1"
UBSAN_OPTIONS = "halt_on_error=1:print_stacktrace=1:print_summary=1"

_REPORT_MARKERS: tuple[tuple[str, str], ...] = (
    ("ERROR: AddressSanitizer", "AddressSanitizer"),
    ("ERROR: LeakSanitizer", "LeakSanitizer"),
    ("runtime error:", "UndefinedBehaviorSanitizer"),
)


# ---------------------------------------------------------------------------------------------
# Checked memory intrinsics
#
# gcc's ASan instruments the plain vector loads and stores (`_mm256_loadu_ps` is a dereference
# in its headers) but not the builtins behind masked, compressing and non-temporal ones: a
# maskstore whose active lane lies past the end is not reported. In the sanitized build these
# intrinsics are macros for equivalent C that accesses exactly the active lanes one by one
# (masked, compress) or for the aligned store (non-temporal: same alignment rule), which
# ASan does check. The results are the same bits.

# (suffix, element C type, vector type, its storeu/loadu, lanes) per AVX2 / AVX-512 type
_AVX2_TYPES = (
    ("ps", "float", "__m256", "_mm256_storeu_ps(v, {x})", "_mm256_loadu_ps(v)", 8, "int32_t"),
    ("pd", "double", "__m256d", "_mm256_storeu_pd(v, {x})", "_mm256_loadu_pd(v)", 4, "int64_t"),
    ("epi32", "int", "__m256i", "_mm256_storeu_si256((__m256i *)v, {x})", "_mm256_loadu_si256((const __m256i *)v)", 8, "int32_t"),
    ("epi64", "long long", "__m256i", "_mm256_storeu_si256((__m256i *)v, {x})", "_mm256_loadu_si256((const __m256i *)v)", 4, "int64_t"),
)
_AVX512_TYPES = (
    ("ps", "float", "__m512", "_mm512_storeu_ps(v, {x})", "_mm512_loadu_ps(v)", 16, "__mmask16"),
    ("pd", "double", "__m512d", "_mm512_storeu_pd(v, {x})", "_mm512_loadu_pd(v)", 8, "__mmask8"),
    ("epi32", "int32_t", "__m512i", "_mm512_storeu_si512(v, {x})", "_mm512_loadu_si512(v)", 16, "__mmask16"),
    ("epi64", "int64_t", "__m512i", "_mm512_storeu_si512(v, {x})", "_mm512_loadu_si512(v)", 8, "__mmask8"),
)
_STREAMS = {
    "sse2": (("_mm_stream_ps", "_mm_store_ps"), ("_mm_stream_pd", "_mm_store_pd"), ("_mm_stream_si128", "_mm_store_si128")),
    "avx2": (("_mm256_stream_ps", "_mm256_store_ps"), ("_mm256_stream_pd", "_mm256_store_pd"),
             ("_mm256_stream_si256", "_mm256_store_si256")),
    "avx512": (("_mm512_stream_ps", "_mm512_store_ps"), ("_mm512_stream_pd", "_mm512_store_pd"),
               ("_mm512_stream_si512", "_mm512_store_si512")),
}


def _avx2_shims() -> list[str]:
    out = []
    for sfx, elem, vec, store, load, lanes, mtype in _AVX2_TYPES:
        get_mask = f"{mtype} mk[{lanes}]; _mm256_storeu_si256((__m256i *)mk, m);"
        out += [
            f"static inline {vec} loopopt_san_mm256_maskload_{sfx}(const {elem} *p, __m256i m) {{",
            f"    {get_mask} {elem} v[{lanes}];",
            f"    for (int k = 0; k < {lanes}; k++) v[k] = mk[k] < 0 ? p[k] : 0;",
            f"    return {load};",
            "}",
            f"static inline void loopopt_san_mm256_maskstore_{sfx}({elem} *p, __m256i m, {vec} a) {{",
            f"    {get_mask} {elem} v[{lanes}]; {store.format(x='a')};",
            f"    for (int k = 0; k < {lanes}; k++) if (mk[k] < 0) p[k] = v[k];",
            "}",
            f"#define _mm256_maskload_{sfx}(p, m) loopopt_san_mm256_maskload_{sfx}((p), (m))",
            f"#define _mm256_maskstore_{sfx}(p, m, a) loopopt_san_mm256_maskstore_{sfx}((p), (m), (a))",
        ]
    return out


def _avx512_shims() -> list[str]:
    out = []
    for sfx, elem, vec, store, load, lanes, mtype in _AVX512_TYPES:
        out += [
            f"static inline {vec} loopopt_san_mm512_mask_loadu_{sfx}({vec} src, {mtype} m, const void *p) {{",
            f"    {elem} v[{lanes}]; {store.format(x='src')};",
            f"    for (int k = 0; k < {lanes}; k++) if ((m >> k) & 1) v[k] = ((const {elem} *)p)[k];",
            f"    return {load};",
            "}",
            f"static inline void loopopt_san_mm512_mask_storeu_{sfx}(void *p, {mtype} m, {vec} a) {{",
            f"    {elem} v[{lanes}]; {store.format(x='a')};",
            f"    for (int k = 0; k < {lanes}; k++) if ((m >> k) & 1) (({elem} *)p)[k] = v[k];",
            "}",
            f"static inline void loopopt_san_mm512_mask_compressstoreu_{sfx}(void *p, {mtype} m, {vec} a) {{",
            f"    {elem} v[{lanes}]; {store.format(x='a')};",
            "    int j = 0;",
            f"    for (int k = 0; k < {lanes}; k++) if ((m >> k) & 1) (({elem} *)p)[j++] = v[k];",
            "}",
            f"#define _mm512_mask_loadu_{sfx}(s, m, p) loopopt_san_mm512_mask_loadu_{sfx}((s), (m), (p))",
            f"#define _mm512_mask_storeu_{sfx}(p, m, a) loopopt_san_mm512_mask_storeu_{sfx}((p), (m), (a))",
            f"#define _mm512_mask_compressstoreu_{sfx}(p, m, a) loopopt_san_mm512_mask_compressstoreu_{sfx}((p), (m), (a))",
        ]
    return out


def _gather_shims(level: str) -> list[str]:
    """The masked gathers (simd.gather, targets/isa_avx2 and isa_avx512) as lane-wise C: each
    active lane one load that ASan checks, inactive lanes keep the source (not read)."""
    out = []
    types = _AVX2_TYPES if level == "avx2" else _AVX512_TYPES
    p = "_mm256" if level == "avx2" else "_mm512"
    for sfx, elem, vec, store, load, lanes, mtype in types:
        by = "i32" if sfx in ("ps", "epi32") else "i64"
        it = "int32_t" if by == "i32" else "int64_t"
        name = f"{p}_mask_{by}gather_{sfx}"
        spill_ix = f"{it} ix[{lanes}]; {p}_storeu_si{256 if level == 'avx2' else 512}((void *)ix, i);"
        if level == "avx2":
            m = {"ps": "_mm256_castps_si256(m)", "pd": "_mm256_castpd_si256(m)"}.get(sfx, "m")
            mvec = {"ps": "__m256", "pd": "__m256d"}.get(sfx, "__m256i")
            out += [
                f"static inline {vec} loopopt_san{name}({vec} src, const void *p, __m256i i, {mvec} m) {{",
                f"    {mtype} mk[{lanes}]; _mm256_storeu_si256((__m256i *)mk, {m}); {spill_ix}",
                f"    {elem} v[{lanes}]; {store.format(x='src')};",
                f"    for (int k = 0; k < {lanes}; k++) if (mk[k] < 0) v[k] = ((const {elem} *)p)[ix[k]];",
                f"    return {load};",
                "}",
                f"#define {name}(s, p, i, m, scale) loopopt_san{name}((s), (p), (i), (m))",
            ]
        else:
            out += [
                f"static inline {vec} loopopt_san{name}({vec} src, {mtype} m, __m512i i, const void *p) {{",
                f"    {spill_ix} {elem} v[{lanes}]; {store.format(x='src')};",
                f"    for (int k = 0; k < {lanes}; k++) if ((m >> k) & 1) v[k] = ((const {elem} *)p)[ix[k]];",
                f"    return {load};",
                "}",
                f"#define {name}(s, m, i, p, scale) loopopt_san{name}((s), (m), (i), (p))",
            ]
    return out


def checked_intrinsics(isa: str) -> str:
    """The C prelude of the sanitized build for `isa`: masked, compressing, gathering and non-temporal
    memory intrinsics redefined as lane-wise C that ASan checks (empty for scalar)."""
    check_isa(isa, allow_native=False)
    if isa in ("scalar", "neon"):
        return ""
    levels = ("sse2", "avx2", "avx512")[: ("sse2", "avx2", "avx512").index(isa) + 1]
    lines = ["/* loopopt sanitize: memory intrinsics ASan does not instrument, as checked C */",
             "#include <stdint.h>", "#include <emmintrin.h>" if isa == "sse2" else "#include <immintrin.h>"]
    for level in levels:
        lines += [f"#define {stream}(p, a) {store}((p), (a))" for stream, store in _STREAMS[level]]
    if "avx2" in levels:
        lines += _avx2_shims() + _gather_shims("avx2")
    if "avx512" in levels:
        lines += _avx512_shims() + _gather_shims("avx512")
    return "\n".join(lines) + "\n"


class SanitizerError(ForeignRunError):
    """A sanitized runner stopped with a sanitizer report (`sanitizer` names which; the
    message and `stderr` hold the report)."""

    def __init__(self, message: str, returncode: int | None, stderr: str, sanitizer: str):
        super().__init__(message, returncode, stderr)
        self.sanitizer = sanitizer


def sanitizer_toolchain(isa: str, compiler: str = "gcc") -> Toolchain:
    """Native build of the runner for `isa` with ASan + UBSan, run directly with their options."""
    check_isa(isa, allow_native=False)
    if isa == "neon":
        raise ValueError("sanitizers do not run under qemu: no sanitized NEON runner")
    return Toolchain(
        f"{isa} with ASan+UBSan",
        isa,
        compiler,
        (*SANITIZE_CFLAGS, *BASE_CFLAGS, *cflags(isa)),
        env=(("ASAN_OPTIONS", ASAN_OPTIONS), ("UBSAN_OPTIONS", UBSAN_OPTIONS)),
        prelude=checked_intrinsics(isa),
    )


def report_head(stderr: str, lines: int = 4) -> str:
    """The first lines of the sanitizer report in `stderr` (from its first marker on)."""
    text = stderr.splitlines()
    for k, line in enumerate(text):
        if any(marker in line for marker, _ in _REPORT_MARKERS):
            return "\n".join(text[k : k + lines])
    return "\n".join(text[:lines])


class SanitizedKernel(ForeignKernel):
    """A kernel in a sanitized native runner: `batch` / call like `ForeignKernel`.

    A sanitizer report raises `SanitizerError`; any other failure `ForeignRunError`.
    """

    def __init__(
        self,
        c_source: str,
        signature: KernelSignature,
        isa: str,
        timeout: float = 120.0,
        *,
        signatures: Sequence[KernelSignature] | None = None,
        compiler: str = "gcc",
    ):
        super().__init__(
            c_source, signature, isa, timeout, toolchain=sanitizer_toolchain(isa, compiler), signatures=signatures
        )

    def batch(self, cases: Sequence[Sequence[Any]], extents: Any = None, offsets: Sequence[int] | None = None) -> Any:
        if self.isa not in host_isas():
            raise RuntimeError(
                f"{self.signature.name}: this CPU does not run {self.isa} (it runs {', '.join(host_isas())}); "
                f"the sanitized runner is built at {self.path} but cannot run here"
            )
        return super().batch(cases, extents, offsets)

    def _failure(self, command: Sequence[str], returncode: int, stderr: str) -> ForeignRunError | MemoryError:
        for marker, sanitizer in _REPORT_MARKERS:
            if marker in stderr:
                return SanitizerError(
                    f"{self.signature.name} ({self.toolchain.name}): {sanitizer} report, "
                    f"status {returncode}:\n{stderr}",
                    returncode,
                    stderr,
                    sanitizer,
                )
        return super()._failure(command, returncode, stderr)


def sanitized_kernels(
    c_source: str, signatures: Iterable[KernelSignature], isa: str, compiler: str = "gcc"
) -> dict[str, SanitizedKernel]:
    """Every kernel of one program in one sanitized runner (one compile), by name."""
    sigs = list(signatures)
    return {
        s.name: SanitizedKernel(c_source, s, isa, signatures=sigs, compiler=compiler) for s in sigs
    }


def emit_program(source_or_module: Any, isa: str, pipeline: str | None = None) -> Any:
    """`loopopt.compile(source, target=isa, pipeline=pipeline)` up to the printed C, not built
    (`loopopt.compile.emit`): c_source, target, module and signatures."""
    from loopopt.compile import emit

    check_isa(isa, allow_native=False)
    return emit(source_or_module, isa, pipeline)
