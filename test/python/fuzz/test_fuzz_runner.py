"""The fuzzer's machinery: crash/hang isolation and attribution, minimization, the CLI."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from loopopt.tools.fuzz import minimize as minimize_mod
from loopopt.tools.fuzz import runner
from loopopt.tools.fuzz.generate import Generator
from loopopt.tools.fuzz.printer import print_kernel
from loopopt.tools.fuzz.program import Op, compact, walk_expr


def test_crash_and_hang_are_attributed_to_their_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_calls(compiled, name, calls):
        if name == "boom":
            os.kill(os.getpid(), signal.SIGSEGV)
        if name == "fpe":
            os.kill(os.getpid(), signal.SIGFPE)
        if name == "hang":
            time.sleep(60)
        return [name] * len(calls)

    monkeypatch.setattr(runner, "_call_cases", fake_calls)
    monkeypatch.setattr(runner, "KERNEL_TIMEOUT", 1.5)
    work = [(None, n, [([], 0)]) for n in ("a", "boom", "b", "hang", "fpe", "c")]
    out = runner.run_isolated(work)
    assert out["a"] == ("ok", ["a"]) and out["b"] == ("ok", ["b"]) and out["c"] == ("ok", ["c"])
    assert out["boom"][0] == "crash" and "signal 11" in out["boom"][1]
    assert out["fpe"][0] == "crash" and "signal 8" in out["fpe"][1]
    assert out["hang"][0] == "timeout"


def _has_div(kernel) -> bool:
    from loopopt.tools.fuzz.minimize import _exprs

    return any(isinstance(x, Op) and x.name == "div" for n in kernel.nodes for _, _, e in _exprs(n) for x in walk_expr(e))


def test_minimizer_keeps_the_failure_and_shrinks(monkeypatch: pytest.MonkeyPatch) -> None:
    kernels = (compact(Generator(s).kernel("m")) for s in range(500))
    kernel = next(k for k in kernels if _has_div(k) and len(print_kernel(k)) > 900)

    def fake_reproduce(k, isa, n, s, config=None):
        return runner.Failure("mismatch", isa, k, "fake", n, s) if _has_div(k) else None

    monkeypatch.setattr(minimize_mod, "reproduce", fake_reproduce)
    small = minimize_mod.minimize(runner.Failure("mismatch", "scalar", kernel, "fake", 1000, 1), budget=400)
    assert _has_div(small.kernel)
    assert len(print_kernel(small.kernel)) < 0.7 * len(print_kernel(kernel))
    assert small.n == 0  # sizes shrink too


def test_cli_runs_and_reports(tmp_path: Path) -> None:
    from loopopt.tools.fuzz.cli import main

    status = main(["--seed", "3", "--programs", "6", "--batch", "6", "--isas", "scalar", "--small", "--out", str(tmp_path)])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["programs"] == 6 and summary["per_isa"]["scalar"]["programs"] == 6
    assert status == (2 if summary["failures"] else 0)


def test_cli_rejects_bad_options() -> None:
    from loopopt.tools.fuzz.cli import main

    for argv in (["--isas", "mmx"], ["--budget", "soon"], ["--dtypes", "f16"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 1


def test_configs_are_valid_for_their_isa() -> None:
    import random

    from loopopt.dialects.cpu_models import CPUS

    rng = random.Random(4)
    seen = set()
    for isa in ("scalar", "sse2", "avx2", "avx512", "neon"):
        for _ in range(60):
            c = runner.random_config(rng, isa)
            assert not c.cpu or CPUS[c.cpu].runs(isa)
            seen.add((isa, c.cpu, bool(c.parallel)))
    assert ("neon", "zen4", False) not in seen and ("avx512", "zen4", True) in seen and ("neon", "generic", True) in seen


def test_parallel_config_splits_small_sizes_on_threads() -> None:
    """min_elements=0 and chunk=64 reach loop-parallelize (past loop-pipeline's options), the
    forked child runs the kernel on 3 threads, and the fuzzer compares it like any other."""
    from loopopt.tools.fuzz.program import Arg, Const, Input, Kernel, Map, Op, Reduce

    cfg = runner.Config("zen4", parallel=-1, min_elements=0, chunk=64, threads=3)
    names = [type(p).__name__ for p in cfg.passes("avx2").passes]
    par = next(p for p in cfg.passes("avx2").passes if type(p).__name__.startswith("LoopParallelize"))
    assert (par.min_elements, par.chunk) == (0, 64) and "ConvertLoopToSimd" in " ".join(names)
    x = Arg(0, "i32")
    k = Kernel("p", (Input("i32"), Map((0,), Op("umax", (x, Const(7, "i32")), "i32")), Reduce("umax", 1, Const(0, "i32"))), (1, 2))
    (compiled, _), = runner.compile_groups([k], "avx2", None, cfg)[0]
    assert "LO_OMP" in compiled.c_source
    r = runner.BatchRunner(["avx2"], runner.Stats(), configs=True)
    r.run_batch([k], 11)
    assert not r.failures and r.stats.total("runs") >= 5


POOLED_PARENT = """
import json, os, sys
import numpy as np
from loopopt.runtime.threads import set_num_threads
from loopopt.tools.fuzz import runner
from loopopt.tools.fuzz.program import Arg, Const, Input, Kernel, Map, Op, Reduce
from loopopt.tools.loop_run import run_compiled

runner.KERNEL_TIMEOUT = float(sys.argv[1])
x = Arg(0, "i32")
k = Kernel("p", (Input("i32"), Map((0,), Op("umax", (x, Const(7, "i32")), "i32")), Reduce("umax", 1, Const(0, "i32"))), (1, 2))
cfg = runner.Config("zen4", parallel=-1, min_elements=0, chunk=64, threads=3)
(compiled, _), = runner.compile_groups([k], "avx2", None, cfg)[0]
assert "LO_OMP" in compiled.c_source
data = (np.arange(1000, dtype=np.int32) * 7919 % 2001 - 1000).astype(np.int32)
set_num_threads(2)
want = run_compiled(compiled, "p", [data])  # the parent's main thread now holds a libgomp pool
real = runner._call_cases

def counting(compiled, name, calls):  # in the child: the threads its calls started
    before = len(os.listdir("/proc/self/task"))
    out = real(compiled, name, calls)
    return out, len(os.listdir("/proc/self/task")) - before

runner._call_cases = counting
status, value = runner.run_isolated([(compiled, "p", [([data], 0), ([data], 1)])], threads=3)["p"]
if status != "ok":
    print(json.dumps([status, value]))
else:
    (got, added) = value
    print(json.dumps([status, added, all(str(g) == str(want) for g in got)]))
"""


def test_threaded_child_of_a_parent_that_ran_a_parallel_kernel() -> None:
    """Why `test_parallel_config_splits_small_sizes_on_threads` timed out once (in a full CI
    run, "under load"): libgomp keeps a thread pool per master thread; when the pytest worker had
    called a parallel kernel before, the forked child inherited a pool whose threads did not
    exist and its first 3-thread region waited for them forever. The child now calls from a new
    thread: the calls finish, start 2 pool threads (3 threads, not 1) and match the parent's.
    Run in a fresh interpreter so that no pool is left in the pytest worker."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", POOLED_PARENT, "20"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == ["ok", 2, True], proc.stdout


def test_a_slow_kernel_runs_again_before_it_counts_as_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel past KERNEL_TIMEOUT runs once more alone with three times as long (the shared
    machine may be busy); only a second timeout is a hang, and the other kernels still run."""
    slow = {"first": True}

    def fake_calls(compiled, name, calls):
        if name == "slow" and slow["first"]:
            time.sleep(60)
        if name == "hang":
            time.sleep(60)
        return [name] * len(calls)

    monkeypatch.setattr(runner, "_call_cases", fake_calls)
    monkeypatch.setattr(runner, "KERNEL_TIMEOUT", 1.0)
    # the retry's child is forked after the first timeout: flip the flag in the parent then
    real = runner.run_isolated

    def retry(work, threads=1, timeout=None):
        if timeout is not None:
            slow["first"] = False
        return real(work, threads, timeout)

    monkeypatch.setattr(runner, "run_isolated", retry)
    out = real([(None, n, [([], 0)]) for n in ("a", "slow", "b", "hang", "c")])
    assert out["a"] == ("ok", ["a"]) and out["b"] == ("ok", ["b"]) and out["c"] == ("ok", ["c"])
    assert out["slow"] == ("ok", ["slow"])
    assert out["hang"] == ("timeout", "no result after 1.0s, nor after 3.0s alone")


def test_sanitized_isa_runs_the_asan_build() -> None:
    """`san-scalar` runs the sample in the ASan+UBSan runner at the cases' offsets."""
    from loopopt.tools.fuzz.program import Arg, Const, Input, Kernel, Map, Op

    x = Arg(0, "i16")
    k = Kernel("s", (Input("i16"), Map((0,), Op("udiv", (x, Const(7, "i16")), "i16"))), (1,))
    r = runner.BatchRunner(["san-scalar"], runner.Stats(), neon_sample=1)
    r.run_batch([k], 3)
    assert not r.failures and r.stats.total("runs") >= 5
