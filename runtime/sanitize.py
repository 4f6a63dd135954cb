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
from dataclasses import dataclass
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

    def _failure(self, command: Sequence[str], returncode: int, stderr: str) -> ForeignRunError:
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


@dataclass
class EmittedProgram:
    """A program through the pipeline and the C printer, not built: what `loopopt.compile`
    has before it builds the native library (for ISAs this CPU cannot load and run)."""

    c_source: str
    target: str
    module: Any
    signatures: dict[str, KernelSignature]


def emit_program(source_or_module: Any, isa: str, pipeline: str | None = None) -> EmittedProgram:
    """`loopopt.compile(source, target=isa, pipeline=pipeline)` up to the printed C, not built."""
    from loopopt.compile import (
        default_pipeline,
        kernel_signature,
        kernels_of,
        make_context,
        parse,
        parse_pipeline,
        run_pipeline,
    )
    from loopopt.diagnostics import LoopoptDiagnostic, verify_located
    from loopopt.targets.c import emit_c
    from xdsl.dialects.builtin import ModuleOp

    check_isa(isa, allow_native=False)
    ctx = make_context()
    module = source_or_module.clone() if isinstance(source_or_module, ModuleOp) else parse(source_or_module, ctx)
    verify_located(module)
    spec = default_pipeline(isa) if pipeline is None else pipeline
    run_pipeline(module, parse_pipeline(spec), ctx)
    leftover = next((op for op in module.walk() if op.dialect_name() == "df"), None)
    if leftover is not None:
        raise LoopoptDiagnostic(f"{leftover.name} is left after the pipeline '{spec}': nothing lowers it to loops", leftover)
    c_source = emit_c(module, isa, spec)
    signatures = {k.sym_name.data: kernel_signature(k) for k in kernels_of(module)}
    return EmittedProgram(c_source, isa, module, signatures)
