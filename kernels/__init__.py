"""loopopt.kernels: the hand-written SIMD kernel library (ground truth for correctness and speed).

C sources: kernels/src/<isa>.c (one file per ISA over a shared loop template),
kernels/src/dispatch.c, header kernels/include/loopopt_kernels.h; see
kernels/README.md for the semantics and the floating-point contract.

    from loopopt import kernels
    f = kernels.get("sum", "f32", "avx2")        # a loopopt.runtime callable
    f(x)                                          # -> np.float32
    kernels.get("axpb", "f64")(x, 2.0, 1.0, out)  # isa None: the run-time dispatcher

NEON variants cannot run in-process on x86: build `isa_source("neon")` with
`loopopt.runtime.run_foreign` (signature from `signature(...)`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from loopopt import runtime

from .patterns import DTYPES, FLOAT_DTYPES, FMA_ISAS, ISAS, PATTERNS, Pattern, kernel_name, kernels, signature, signatures
from .sources import DISPATCH_SOURCE, HEADER, INCLUDE_DIR, SRC_DIR, dispatch_source, isa_source, source_path

__all__ = [
    "DISPATCH_SOURCE",
    "DTYPES",
    "FLOAT_DTYPES",
    "FMA_ISAS",
    "HEADER",
    "INCLUDE_DIR",
    "ISAS",
    "PATTERNS",
    "SRC_DIR",
    "Pattern",
    "dispatch_library",
    "dispatch_source",
    "get",
    "isa_source",
    "kernel_name",
    "kernels",
    "library",
    "signature",
    "signatures",
    "source_path",
]


@functools.cache
def library(isa: str) -> runtime.Library:
    """Every kernel of one ISA, compiled with that ISA's flags (cached per process and on disk)."""
    if isa not in ISAS:
        raise ValueError(f"unknown ISA {isa!r}; expected one of {', '.join(ISAS)}")
    return runtime.compile_library(isa_source(isa), signatures(isa), isa=isa)


@functools.cache
def dispatch_library() -> runtime.Library:
    """The dispatchers lo_<pattern>_<dtype> (plus every x86 ISA variant they call), in one unit."""
    return runtime.compile_library(dispatch_source(), signatures(None), isa="scalar")


def get(pattern: str, dtype: str, isa: str | None = None) -> Callable[..., Any]:
    """The callable of one kernel: arguments in C order (inputs, scalars, then outputs)."""
    name = kernel_name(pattern, dtype, isa)
    return (dispatch_library() if isa is None else library(isa))[name]
