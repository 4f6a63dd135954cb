"""How many threads parallel kernels use: `loopopt.set_num_threads(n)` and `LOOPOPT_NUM_THREADS`.

Parallel kernels (docs/threads.md) read two process-wide ints through weak symbols:
`loopopt_num_threads` (0: OpenMP's default, i.e. `OMP_NUM_THREADS` or the cores) and
`loopopt_parallel_calls` (parallel calls running now: a call that finds another one running
uses one thread, so kernels called from several Python threads never oversubscribe). This
module defines both in a tiny shared library loaded with RTLD_GLOBAL before any parallel
kernel is loaded (runtime/build.py calls `ensure_loaded`), so every kernel library in the
process resolves them to the same ints. C callers without the runtime get the weak symbols
unresolved; their kernels read `LOOPOPT_NUM_THREADS` once themselves.
"""

from __future__ import annotations

import ctypes
import os
import threading

SOURCE = """/* loopopt runtime: the thread setting shared by every parallel kernel (runtime/threads.py) */
int loopopt_num_threads = 0;
int loopopt_parallel_calls = 0;
"""
ENV = "LOOPOPT_NUM_THREADS"
MAX_THREADS = 1024

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None


def _from_env() -> int:
    text = os.environ.get(ENV, "").strip()
    if not text:
        return 0
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{ENV}={text!r} is not an integer number of threads") from None
    if not 0 <= n <= MAX_THREADS:
        raise ValueError(f"{ENV}={n} is out of range [0, {MAX_THREADS}] (0: OpenMP's default)")
    return n


def ensure_loaded() -> ctypes.CDLL:
    """Load the shared setting (once per process), initialized from `LOOPOPT_NUM_THREADS`."""
    global _lib
    with _lock:
        if _lib is None:
            from . import build

            initial = _from_env()
            _, lib = build.build_and_load(
                SOURCE, ["-O2", "-fPIC"], lambda p: ctypes.CDLL(str(p), mode=ctypes.RTLD_GLOBAL), libs=()
            )
            ctypes.c_int.in_dll(lib, "loopopt_num_threads").value = initial
            _lib = lib
            os.register_at_fork(after_in_child=_after_fork_in_child)
        return _lib


def _after_fork_in_child() -> None:
    """libgomp's thread pool does not survive fork(): a forked child that opens a parallel
    region of several threads hangs. Children (multiprocessing's fork start method) run
    parallel kernels on their calling thread (the chunks are the same: so are the results)."""
    if _lib is not None:
        ctypes.c_int.in_dll(_lib, "loopopt_num_threads").value = 1
        ctypes.c_int.in_dll(_lib, "loopopt_parallel_calls").value = 0


def set_num_threads(n: int) -> None:
    """Threads per parallel kernel call from now on, in every thread of the process
    (0: OpenMP's default — `OMP_NUM_THREADS`, else the cores)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_THREADS:
        raise ValueError(f"set_num_threads: n must be an integer in [0, {MAX_THREADS}], found {n!r}")
    ctypes.c_int.in_dll(ensure_loaded(), "loopopt_num_threads").value = n


def get_num_threads() -> int:
    """The current setting (0: OpenMP's default)."""
    return ctypes.c_int.in_dll(ensure_loaded(), "loopopt_num_threads").value


def parallel_calls() -> int:
    """Parallel kernel calls running now (for tests)."""
    return ctypes.c_int.in_dll(ensure_loaded(), "loopopt_parallel_calls").value
