"""numpy's BLAS on one thread, so `loop-bench`'s BLAS column is timed like everything else.

Timing counts this thread's CPU time (bench/timing.py); an OpenBLAS call that fans out to its
own threads would be charged only this thread's share and look up to cores× faster than it
is. numpy's wheel bundles OpenBLAS (`numpy.libs/libscipy_openblas*.so`); its
`*_set_num_threads*` entry point sets the thread count at run time (OPENBLAS_NUM_THREADS only
works before numpy is imported, and threadpoolctl is not a dependency).
"""

from __future__ import annotations

import ctypes
import glob
import os

import numpy as np

_SETTERS = ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads")


def _openblas() -> ctypes.CDLL | None:
    libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    paths = sorted(glob.glob(os.path.join(libs, "*openblas*.so*")))
    return ctypes.CDLL(paths[0]) if paths else None


def single_thread() -> str:
    """Pin numpy's OpenBLAS to one thread; say what BLAS runs with how many threads (for the report)."""
    lib = _openblas()
    if lib is None:
        return "numpy's BLAS (not a bundled OpenBLAS: thread count not set; set OPENBLAS_NUM_THREADS=1)"
    setter = next((getattr(lib, n) for n in _SETTERS if hasattr(lib, n)), None)
    getter = next((getattr(lib, n) for n in _GETTERS if hasattr(lib, n)), None)
    if setter is None or getter is None:
        return "numpy's bundled OpenBLAS (no set_num_threads entry point: thread count not set)"
    setter.argtypes = [ctypes.c_int]
    setter(1)
    getter.restype = ctypes.c_int
    return f"numpy's bundled OpenBLAS, {getter()} thread(s)"
