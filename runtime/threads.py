"""How many threads parallel kernels use: `loopopt.set_num_threads(n)` and `LOOPOPT_NUM_THREADS`.

Parallel kernels (docs/threads.md) read two process-wide ints through weak symbols:
`loopopt_num_threads` (0: OpenMP's default, i.e. `OMP_NUM_THREADS` or the cores) and
`loopopt_parallel_calls` (parallel calls running now: a call that finds another one running
uses one thread, so kernels called from several Python threads never oversubscribe). This
module defines both in a tiny shared library loaded with RTLD_GLOBAL before any parallel
kernel is loaded (runtime/build.py calls `ensure_loaded`), so every kernel library in the
process resolves them to the same ints. C callers without the runtime get the weak symbols
unresolved; their kernels read `LOOPOPT_NUM_THREADS` once themselves.

The same library makes kernels fork-safe: it runs a team started in a forked child from a
thread whose libgomp pool the fork left behind on a fresh master thread (docs/threads.md,
"fork()"). Kernel libraries reach it through `__wrap_GOMP_parallel` (`KERNEL_LINK_FLAGS`: only
this library defines that name, so the order in which libgomp and this library were loaded does
not matter); other libraries loaded after it through its `GOMP_parallel`.
"""

from __future__ import annotations

import ctypes
import os
import threading

SOURCE = """/* loopopt runtime: the thread setting shared by every parallel kernel (runtime/threads.py) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fenv.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
int loopopt_num_threads = 0;
int loopopt_parallel_calls = 0;

/* fork(): libgomp keeps a thread pool per master thread (in its TLS) and installs no fork
   handler, so in a forked child the forking thread's pool names threads that no longer exist
   and its next team of more than one thread waits for them forever. Kernel libraries are
   loaded after this one, which is RTLD_GLOBAL, so their GOMP_parallel (the one entry point a
   `#pragma omp parallel` becomes) is this one: it passes every call on to libgomp, except a
   call of several threads from a thread that started a team before the last fork, which runs
   on a fresh master thread created in the child (same chunks, same results). */
typedef void (*lo_gomp_parallel)(void (*)(void *), void *, unsigned, unsigned);
static lo_gomp_parallel lo_real_fn;

/* libgomp's GOMP_parallel, found at the first region: the kernel that opens it loaded libgomp
   (this library links no OpenMP runtime: it builds with any compiler) */
static lo_gomp_parallel lo_real(void)
{
    lo_gomp_parallel f = __atomic_load_n(&lo_real_fn, __ATOMIC_ACQUIRE);
    if (__builtin_expect(f != 0, 1))
        return f;
    void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (gomp)
        f = (lo_gomp_parallel)dlvsym(gomp, "GOMP_parallel", "GOMP_4.0");
    if (!f)
        f = (lo_gomp_parallel)dlsym(RTLD_NEXT, "GOMP_parallel");
    if (!f)
        abort();
    __atomic_store_n(&lo_real_fn, f, __ATOMIC_RELEASE);
    return f;
}
static unsigned lo_forks;          /* fork()s between the first process and this one */
static __thread unsigned lo_team_at; /* 1 + lo_forks when this thread last started a team */

static pthread_mutex_t lo_call_mu = PTHREAD_MUTEX_INITIALIZER; /* one delegated call at a time */
static pthread_mutex_t lo_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t lo_cv = PTHREAD_COND_INITIALIZER;
static int lo_master_up;
static struct {
    void (*fn)(void *);
    void *data;
    unsigned n, flags;
    int state; /* 0 idle, 1 posted, 2 done */
    int err;
    fenv_t env;
} lo_job;
static unsigned lo_delegated; /* calls run on the fresh master (for tests) */

unsigned loopopt_fork_delegated(void) { return __atomic_load_n(&lo_delegated, __ATOMIC_RELAXED); }

static void *lo_master(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lo_mu);
    for (;;) {
        while (lo_job.state != 1)
            pthread_cond_wait(&lo_cv, &lo_mu);
        pthread_mutex_unlock(&lo_mu);
        fesetenv(&lo_job.env); /* thread 0 runs with the caller's rounding and FTZ/DAZ */
        errno = lo_job.err;
        lo_real()(lo_job.fn, lo_job.data, lo_job.n, lo_job.flags);
        pthread_mutex_lock(&lo_mu);
        lo_job.err = errno;
        lo_job.state = 2;
        pthread_cond_broadcast(&lo_cv);
    }
    return 0;
}

static int lo_start_master(void)
{
    pthread_t t;
    pthread_attr_t attr;
    sigset_t all, old;
    int ok;
    if (pthread_attr_init(&attr))
        return 0;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* signals stay with the process' own threads */
    ok = pthread_create(&t, &attr, lo_master, 0) == 0;
    pthread_sigmask(SIG_SETMASK, &old, 0);
    pthread_attr_destroy(&attr);
    return ok;
}

static void lo_delegate(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    pthread_mutex_lock(&lo_call_mu);
    pthread_mutex_lock(&lo_mu);
    if (!lo_master_up)
        lo_master_up = lo_start_master();
    if (!lo_master_up) { /* no thread to be had: one thread, here (the chunks are the same) */
        pthread_mutex_unlock(&lo_mu);
        pthread_mutex_unlock(&lo_call_mu);
        lo_real()(fn, data, 1, flags);
        return;
    }
    lo_job.fn = fn;
    lo_job.data = data;
    lo_job.n = n;
    lo_job.flags = flags;
    lo_job.err = errno;
    fegetenv(&lo_job.env);
    lo_job.state = 1;
    pthread_cond_broadcast(&lo_cv);
    while (lo_job.state != 2)
        pthread_cond_wait(&lo_cv, &lo_mu);
    lo_job.state = 0;
    errno = lo_job.err;
    __atomic_fetch_add(&lo_delegated, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&lo_mu);
    pthread_mutex_unlock(&lo_call_mu);
}

static inline __attribute__((always_inline)) void lo_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    unsigned now = __atomic_load_n(&lo_forks, __ATOMIC_RELAXED) + 1;
    if (n != 1) {
        if (__builtin_expect(lo_team_at != 0 && lo_team_at != now, 0)) {
            lo_delegate(fn, data, n, flags);
            return;
        }
        lo_team_at = now;
    }
    lo_real()(fn, data, n, flags);
}

/* The kernel libraries' entry: they are linked with -Wl,--wrap=GOMP_parallel (runtime/build.py
   `build_and_load`), so their regions call this name, which only this library defines:
   they reach lo_parallel even when a libgomp was in the global scope before this library. */
void __wrap_GOMP_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    lo_parallel(fn, data, n, flags);
}

/* Other libraries' regions: those loaded after this one bind their GOMP_parallel here (this
   library is RTLD_GLOBAL), so their teams are stamped and handled after fork() as ours. */
void GOMP_parallel(void (*fn)(void *), void *data, unsigned n, unsigned flags)
{
    lo_parallel(fn, data, n, flags);
}

static void lo_after_fork_in_child(void)
{
    /* only the forking thread survives: the master (if any) is gone, the locks are reset */
    lo_forks++;
    lo_master_up = 0;
    lo_job.state = 0;
    pthread_mutex_init(&lo_call_mu, 0);
    pthread_mutex_init(&lo_mu, 0);
    pthread_cond_init(&lo_cv, 0);
}

__attribute__((constructor)) static void lo_init(void) { pthread_atfork(0, 0, lo_after_fork_in_child); }
/* This library's own definitions, by hidden aliases: `(void *)GOMP_parallel` in PIC code is the
   process' winning definition (a GOT entry), so comparing with it always held (session 25). */
extern __typeof(__wrap_GOMP_parallel) lo_own_wrap __attribute__((alias("__wrap_GOMP_parallel"), visibility("hidden")));
extern __typeof(GOMP_parallel) lo_own_gomp __attribute__((alias("GOMP_parallel"), visibility("hidden")));
/* 1 when the kernels' regions resolve to the entry above (nothing global defined it before) */
int loopopt_fork_safe(void) { return dlsym(RTLD_DEFAULT, "__wrap_GOMP_parallel") == (void *)lo_own_wrap; }
/* 1 when other libraries loaded from now on bind their regions here (no libgomp global before) */
int loopopt_fork_safe_for_later_libraries(void) { return dlsym(RTLD_DEFAULT, "GOMP_parallel") == (void *)lo_own_gomp; }
"""
ENV = "LOOPOPT_NUM_THREADS"
# Linker flags of every kernel library loaded in-process (runtime/build.py `build_and_load`):
# their `#pragma omp parallel` calls `__wrap_GOMP_parallel`, defined above and nowhere else.
KERNEL_LINK_FLAGS: tuple[str, ...] = ("-Wl,--wrap=GOMP_parallel",)
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
                SOURCE,
                ["-O2", "-fPIC"],
                lambda p: ctypes.CDLL(str(p), mode=ctypes.RTLD_GLOBAL),
                libs=("-lm", "-ldl", "-lpthread"),
            )
            ctypes.c_int.in_dll(lib, "loopopt_num_threads").value = initial
            _lib = lib
            os.register_at_fork(after_in_child=_after_fork_in_child)
        return _lib


def _after_fork_in_child() -> None:
    """A forked child (multiprocessing's fork start method, a process pool) starts with one
    thread per call: its siblings share the cores. `set_num_threads(n)` raises it again; the
    library's `GOMP_parallel` keeps such calls from waiting on the parent's libgomp pool."""
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


def fork_safe() -> bool:
    """Whether the kernels' parallel regions go through the runtime's `__wrap_GOMP_parallel`
    (true whatever was loaded before; false only if another global library defines that name:
    then a forked child of a process that ran a parallel kernel must stay at 1 thread, or call
    from a new thread)."""
    lib = ensure_loaded()
    return bool(ctypes.CFUNCTYPE(ctypes.c_int)(("loopopt_fork_safe", lib))())


def fork_safe_for_later_libraries() -> bool:
    """Whether libraries loaded from now on bind their `GOMP_parallel` to the runtime's (false
    when a libgomp was in the global scope first): then a team such a library starts on a
    thread also counts as that thread's pool after a fork (docs/threads.md, "fork()")."""
    lib = ensure_loaded()
    return bool(ctypes.CFUNCTYPE(ctypes.c_int)(("loopopt_fork_safe_for_later_libraries", lib))())


def fork_delegated_calls() -> int:
    """Parallel regions this process ran on its fresh master thread (for tests)."""
    lib = ensure_loaded()
    return int(ctypes.CFUNCTYPE(ctypes.c_uint)(("loopopt_fork_delegated", lib))())


def parallel_calls() -> int:
    """Parallel kernel calls running now (for tests)."""
    return ctypes.c_int.in_dll(ensure_loaded(), "loopopt_parallel_calls").value
