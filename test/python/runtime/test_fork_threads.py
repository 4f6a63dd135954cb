"""Parallel kernels in a forked child (docs/threads.md, "fork()").

libgomp keeps a thread pool per master thread and does not handle fork(): in a child forked
from a thread that had run a parallel kernel, that thread's next team of several threads
waited forever for pool threads the fork left behind. The runtime (runtime/threads.py) runs
such a team on a fresh master thread created in the child: kernels reach it through
`__wrap_GOMP_parallel` (they link with `-Wl,--wrap=GOMP_parallel`), other libraries loaded
after it through its `GOMP_parallel`.

Every scenario runs in a fresh interpreter (no pool left in the pytest worker; a hang kills
only that interpreter): SCRIPT forks, waits for the child at most CHILD_TIMEOUT seconds and
prints one JSON line — the parent's and the child's results, the child's delegated regions and
the threads its calls started, or "hang". Before the runtime's `GOMP_parallel` (commit
0979b19), every "parent ran a kernel" case printed "hang".
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task") or not hasattr(os, "fork"), reason="forks, counts threads in /proc")

CHILD_TIMEOUT = 60.0

PRELUDE = r"""
import json, multiprocessing, os, sys, threading, time
import numpy as np
import loopopt
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes
from loopopt.runtime import best_isa, threads

SOURCE = '''
func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @axpb(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %c = arith.constant 7 : i32
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32):
    %m = arith.muli %a, %c : i32
    %s = arith.addi %m, %c : i32
    df.yield %s : i32
  }
  func.return %y : !df.array<i32, [i]>
}
func.func @positive_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %p : !df.array<i32, [k]>
}
'''
isa = best_isa()
spelled = LoopPipelinePass(target=isa, parallel=-1).spelling(set(_all_passes()))
PIPELINE = spelled.replace("loop-parallelize{threads=", "loop-parallelize{chunk=64 min_elements=0 threads=")
"""

SCRIPT = PRELUDE + r"""
mode, parent_calls, child_threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
k = loopopt.compile(SOURCE, target=isa, pipeline=PIPELINE)
rng = np.random.default_rng(5)
x = rng.standard_normal(20011).astype(np.float32)
xi = rng.integers(-2**31, 2**31, 20011).astype(np.int32)


def calls():
    s, y, p = (r[0] if isinstance(r, tuple) else r for r in (k.call_alloc(n, a) for n, a in (("sum_f32", x), ("axpb", xi), ("positive_i32", xi))))
    with np.errstate(over="ignore"):
        ok = bool((y == xi * np.int32(7) + np.int32(7)).all()) and np.array_equal(p, xi[xi > 0])
    return [float(s).hex(), int(y.astype(np.int64).sum()), ok]


def tasks():
    return len(os.listdir("/proc/self/task"))


OTHER = r'''
int other_team(int n)  /* another library's OpenMP region (not loopopt's): the threads that ran */
{
    int ran = 0;
#pragma omp parallel num_threads(n)
    {
#pragma omp atomic
        ran++;
    }
    return ran;
}
'''
threads.set_num_threads(3)
want = None
other = None
if parent_calls == "other":  # loaded after the runtime; its region gives the main thread a pool
    from loopopt.runtime import build
    import ctypes
    other = ctypes.CDLL(str(build.build(OTHER, ["-O2", "-fPIC", "-fopenmp"])))
    assert other.other_team(3) == 3
elif parent_calls == "main":
    want = calls()  # the main thread now holds a libgomp pool of 2 threads
elif parent_calls == "thread":  # a pool held by a thread that will not be the forking one
    out = []
    t = threading.Thread(target=lambda: out.append(calls()))
    t.start(); t.join()
    want = out[0]


def child():
    start = tasks()
    inherited = threads.get_num_threads()
    threads.set_num_threads(child_threads)
    ran = other.other_team(child_threads) if other is not None else None
    got = calls()
    return {"inherited": inherited, "got": got, "started": tasks() - start, "delegated": threads.fork_delegated_calls(), "other": ran}


def forked(work, timeout):  # work() in an os.fork child: its JSON result, or "hang"
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.write(w, json.dumps(work()).encode())
        os._exit(0)
    os.close(w)
    deadline = time.monotonic() + timeout
    while os.waitpid(pid, os.WNOHANG)[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, 9); os.waitpid(pid, 0)
            return "hang"
        time.sleep(0.05)
    return json.loads(os.read(r, 1 << 16).decode())


def child_and_grandchild():
    # the child's calls ran on its fresh master; a grandchild forked now has neither that
    # thread nor a usable pool on its main thread
    mine = child()
    grand = forked(child, float(sys.argv[4]) / 2)
    return grand if grand == "hang" else {**grand, "parent_delegated": mine["delegated"]}


def report(child_result):
    threads.set_num_threads(1)
    print(json.dumps({"want": want, "serial": calls(), "child": child_result, "fork_safe": threads.fork_safe(), "later_libraries": threads.fork_safe_for_later_libraries()}))


if mode in ("os.fork", "grandchild"):
    got = forked(child if mode == "os.fork" else child_and_grandchild, float(sys.argv[4]))
    if got == "hang":
        print(json.dumps("hang")); sys.exit(0)
    report(got)
else:  # multiprocessing's fork start method, a pool of 2 workers
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        try:
            report(pool.apply_async(child).get(timeout=float(sys.argv[4])))
        except multiprocessing.TimeoutError:
            print(json.dumps("hang")); pool.terminate(); sys.exit(0)
"""


# A user's library linked to libgomp, loaded globally before loopopt (its libgomp's
# GOMP_parallel is then the process' first definition of that name)
GOMP_FIRST = 'import ctypes; ctypes.CDLL("libgomp.so.1", mode=ctypes.RTLD_GLOBAL)\n'


def _script(*args: str, timeout: float, env: dict[str, str] | None = None) -> object:
    """The last JSON line `python -c *args` prints; its process group (forked children that
    hang included) is killed after `timeout` seconds, which fails the test."""
    proc = subprocess.Popen(
        [sys.executable, "-c", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, env=env
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"no result after {timeout} s (a forked child hung)")
    assert proc.returncode == 0, out + err
    return json.loads(out.splitlines()[-1])


def _run(mode: str, parent_calls: str, child_threads: int, prefix: str = "", env: dict[str, str] | None = None) -> dict:
    out = _script(prefix + SCRIPT, mode, parent_calls, str(child_threads), str(CHILD_TIMEOUT), timeout=CHILD_TIMEOUT + 240, env=env)
    assert out != "hang", f"the forked child's parallel calls did not finish in {CHILD_TIMEOUT} s"
    assert isinstance(out, dict)
    return out


@pytest.mark.parametrize("mode", ["os.fork", "multiprocessing"])
@pytest.mark.parametrize("child_threads", [2, 3])
def test_child_of_a_parent_that_ran_a_parallel_kernel_runs_threads_and_matches(mode: str, child_threads: int) -> None:
    """The child starts at 1 thread; raised to 2 or 3 its calls run on a fresh master (each
    region delegated: 3 calls) whose team starts threads, and give the parent's bits (the
    float sum's chunks are fixed: the same for every thread count) and numpy's map."""
    out = _run(mode, "main", child_threads)
    child = out["child"]
    assert child["inherited"] == 1
    assert child["got"] == out["want"] == out["serial"] and child["got"][2] is True
    assert child["delegated"] == 3
    assert child["started"] == child_threads  # the fresh master and its team's other threads


def test_grandchild_forked_after_the_childs_delegated_calls() -> None:
    """The child's fresh master does not survive the next fork: the grandchild (inheriting the
    child's setting of 2) makes its own, the bits are the same."""
    out = _run("grandchild", "main", 2)
    grand = out["child"]
    assert grand["inherited"] == 1 and grand["got"] == out["want"] == out["serial"]
    assert grand["parent_delegated"] == 3 and grand["delegated"] == 6 and grand["started"] == 2


def test_child_of_a_parent_whose_kernel_ran_on_another_thread_needs_no_delegation() -> None:
    """The pool belonged to a thread the fork did not copy: the child's main thread starts its
    own team directly, as in a process that never forked."""
    out = _run("os.fork", "thread", 3)
    child = out["child"]
    assert child["got"] == out["want"] == out["serial"]
    assert child["delegated"] == 0 and child["started"] == 2


def test_child_of_a_parent_that_never_ran_a_parallel_kernel_pays_nothing() -> None:
    """No pool in the parent: the child's calls take libgomp's own path (nothing delegated,
    no extra thread: a team of 3 starts 2)."""
    out = _run("os.fork", "none", 3)
    child = out["child"]
    assert out["want"] is None and child["got"] == out["serial"]
    assert child["delegated"] == 0 and child["started"] == 2


@pytest.mark.parametrize("first", ["ctypes", "LD_PRELOAD"])
def test_child_runs_threads_when_libgomp_was_global_before_the_runtime(first: str) -> None:
    """libgomp in the global scope before the runtime (a user's library loaded RTLD_GLOBAL, or
    LD_PRELOAD) is the process' first `GOMP_parallel`: kernels bound to that name took libgomp's
    and the child hung (before commit 3ee4f48). They call `__wrap_GOMP_parallel`, only the runtime's:
    delegated as usual, and `fork_safe()` holds; libraries loaded later no longer come here."""
    env = None if first == "ctypes" else {**os.environ, "LD_PRELOAD": "libgomp.so.1"}
    out = _run("os.fork", "main", 3, prefix=GOMP_FIRST if first == "ctypes" else "", env=env)
    child = out["child"]
    assert out["fork_safe"] is True and out["later_libraries"] is False  # libgomp came first
    assert child["got"] == out["want"] == out["serial"] and child["got"][2] is True
    assert child["delegated"] == 3 and child["started"] == 3


def test_child_of_a_parent_whose_pool_came_from_another_librarys_region() -> None:
    """Another OpenMP library loaded after the runtime binds its `GOMP_parallel` to the
    runtime's: its region in the parent stamps the main thread, so in the child both its own
    region and the kernels' run on the fresh master (4 regions delegated) instead of hanging."""
    out = _run("os.fork", "other", 3)
    child = out["child"]
    assert out["want"] is None and child["got"] == out["serial"] and child["got"][2] is True
    assert child["other"] == 3 and child["delegated"] == 4 and child["started"] == 3
    assert out["fork_safe"] is True and out["later_libraries"] is True


def test_the_runtime_interposes_gomp_parallel() -> None:
    """The kernels' `__wrap_GOMP_parallel` is the runtime's (the fork handling rests on it)."""
    from loopopt.runtime import threads

    assert threads.fork_safe()


DASK_SCRIPT = PRELUDE + r"""
import dask
import dask.array as da
import loopopt.dask as ldask

k = ldask.kernel(SOURCE, "sum_f32", pipeline=PIPELINE)
x = da.from_array(np.random.default_rng(9).standard_normal(60013).astype(np.float32), chunks=(20000,))


def three_threads():  # each forked worker process, before its first task
    threads.set_num_threads(3)


threads.set_num_threads(3)
want = ldask.reduce(k, x).compute(scheduler="sync")  # the main thread holds a libgomp pool now
with dask.config.set({"multiprocessing.context": "fork"}):
    got, setting = dask.compute(ldask.reduce(k, x), dask.delayed(threads.get_num_threads)(), scheduler="processes", num_workers=2, initializer=three_threads)
print(json.dumps([float(want).hex(), float(got).hex(), setting]))
"""


def test_dask_process_workers_forked_from_a_parent_that_ran_a_parallel_kernel() -> None:
    """dask's process scheduler with the `fork` context: workers forked from the main thread
    that ran a 3-thread kernel, raised to 3 threads by an initializer, reduce the chunks with
    the parent's bits (they hung in their first kernel call before)."""
    pytest.importorskip("dask.array")
    want, got, setting = _script(DASK_SCRIPT, timeout=CHILD_TIMEOUT + 120)  # type: ignore[misc]
    assert got == want and setting == 3
