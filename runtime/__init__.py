"""loopopt.runtime: compile kernels, call them from Python cheaply, run NEON kernels under qemu."""

from .build import CacheDirWarning, CompileError, cache_dir
from .foreign import ForeignKernel, ForeignRunError, run_foreign, run_foreign_batch
from .isa import ISAS, best_isa, cflags, compile_flags, host_isas, neon_runner_available
from .library import Library, compile_library
from .reference import fma
from .signature import DTYPES, ArrayParam, KernelSignature, ScalarParam, dtype_info

__all__ = [
    "DTYPES",
    "ISAS",
    "ArrayParam",
    "CacheDirWarning",
    "CompileError",
    "ForeignKernel",
    "ForeignRunError",
    "KernelSignature",
    "Library",
    "ScalarParam",
    "best_isa",
    "cache_dir",
    "cflags",
    "compile_flags",
    "compile_library",
    "dtype_info",
    "fma",
    "host_isas",
    "neon_runner_available",
    "run_foreign",
    "run_foreign_batch",
]
