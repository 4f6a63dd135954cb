"""Parallel kernels (loop-parallelize + the OpenMP driver) against numpy: sizes around chunk
boundaries, 1-4 threads, every ISA this machine runs; results bit-identical for every thread
count; the thread setting and concurrent callers."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from isa_support import isa_params
from par_programs import CHUNK, PARALLEL_KERNELS, SOURCE, batch_on_threads, compiled

import loopopt
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes
from loopopt.runtime import threads

SIZES = (0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 2 * CHUNK + 1, 5 * CHUNK + 17, 1009, 20011)
THREADS = (1, 2, 3, 4)


def inputs(name: str, n: int, rng: np.random.Generator) -> tuple:
    """Inputs for kernel `name` of length n, as unaligned views (offset by one element)."""

    def view(a: np.ndarray) -> np.ndarray:
        b = np.empty(n + 1, a.dtype)
        b[1:] = a
        return b[1:]

    f32 = lambda: view(rng.standard_normal(n).astype(np.float32))  # noqa: E731
    i32 = lambda: view(rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32))  # noqa: E731
    return {
        "axpy": lambda: (f32(), f32(), np.float32(1.5)),
        "sq_i32": lambda: (i32(),),
        "sum_f32": lambda: (f32(),),
        "sum_i32": lambda: (i32(),),
        "sum_max_f64": lambda: (view(rng.standard_normal(n)),),
        "dot_norms_f64": lambda: (view(rng.standard_normal(n) * 3 + 1), view(rng.standard_normal(n))),
        "min_i64": lambda: (view(rng.integers(-(2**62), 2**62, n)),),
        "umax_u8": lambda: (view(top_bit_once(rng.integers(0, 100, n).astype(np.int8), rng)),),
        "filter_scale_f32": lambda: (f32(), np.float32(-2.0)),
        "filter_i32": lambda: (i32(),),
        "filter_sum_f32": lambda: (f32(),),
        "cumsum_i64": lambda: (view(rng.integers(-(2**62), 2**62, n)),),
        "cumdiff_i32": lambda: (i32(), i32()),
        "running_max_f64": lambda: (view(nan_sprinkled(rng.standard_normal(n))),),
        "running_min_i32": lambda: (i32(),),
        "running_umax_i32": lambda: (view(top_bit_once(rng.integers(-50, 50, n).astype(np.int32), rng)),),
        "split_signs_i32": lambda: (view(rng.integers(-3, 4, n).astype(np.int32)),),
        "pos_cumsum_i32": lambda: (i32(),),
        "rare_cumsum_i64": lambda: (view(rng.integers(-(2**62), 2**62, n) * 2),),  # 1 in 256 kept: most chunks select nothing
        "pos_running_max_f64": lambda: (view(rng.standard_normal(n)),),
    }[name]()


def top_bit_once(a: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Small values and one with the top bit set (the unsigned max, the signed min) in one chunk."""
    if len(a):
        a[rng.integers(0, len(a))] = -100
    return a


def nan_sprinkled(a: np.ndarray) -> np.ndarray:
    """A few NaNs and signed zeros past the first chunks (running max must carry them)."""
    if len(a) > 300:
        a[[200, 251]] = [np.nan, -0.0]
    return a


def reference(name: str, args: tuple) -> tuple:
    with np.errstate(all="ignore"):
        x = args[0]
        if name == "axpy":
            return (args[2] * x + args[1],)
        if name == "sq_i32":
            return (x * x,)
        if name in ("sum_f32", "sum_i32"):
            return (x.sum(dtype=x.dtype),)
        if name == "sum_max_f64":
            return (x.sum(), x.max() if len(x) else -np.inf)
        if name == "dot_norms_f64":  # three sums of products (fma reductions on FMA targets)
            y = args[1]
            return ((x * y).sum(), (x * x).sum(), (y * y).sum())
        if name == "umax_u8":
            return (x.view(np.uint8).max(initial=0).astype(np.uint8).view(np.int8)[()],)
        if name == "min_i64":
            return (x.min() if len(x) else np.int64(2**63 - 1),)
        if name == "filter_scale_f32":
            return (args[1] * x[x > 0],)
        if name == "filter_i32":
            return (x[x > 0],)
        if name == "filter_sum_f32":
            return (x[x > 0].sum(dtype=np.float32),)
        if name == "cumsum_i64":
            return (np.cumsum(x),)
        if name == "cumdiff_i32":
            return (np.cumsum(x - args[1], dtype=np.int32),)
        if name == "split_signs_i32":
            return (x[x > 0], x[x < 0])
        if name == "running_max_f64":
            return (np.maximum.accumulate(x) if len(x) else x,)
        if name == "pos_cumsum_i32":
            return (np.cumsum(x[x > 0], dtype=np.int32),)
        if name == "rare_cumsum_i64":
            return (np.cumsum(x[x > 0x7F00000000000000]),)
        if name == "pos_running_max_f64":
            kept = x[x > -1.0]
            return (np.maximum.accumulate(kept) if len(kept) else kept,)
        if name == "running_min_i32":
            return (np.minimum.accumulate(np.minimum(x, np.int32(7))) if len(x) else x,)
        if name == "running_umax_i32":
            u = x.view(np.uint32)
            return ((np.maximum.accumulate(np.maximum(u, np.uint32(7))) if len(x) else u).view(np.int32),)
    raise KeyError(name)


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def close(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if np.issubdtype(want.dtype, np.floating) and want.ndim == 0 and not np.isfinite(want):
        return same_bits(got, want)
    if np.issubdtype(want.dtype, np.floating):
        tol = 1e-4 if want.dtype == np.float32 else 1e-10
        scale = max(1.0, float(np.abs(want).max(initial=0)) * max(1, want.size))
        if want.ndim:  # elementwise: exact but for fma contraction (a*x+y on FMA targets)
            return np.allclose(got, want, rtol=1e-6, atol=1e-6, equal_nan=True)
        return np.allclose(got, want, rtol=tol, atol=tol * scale)
    return np.array_equal(got, want)


@pytest.fixture(autouse=True)
def _restore_threads():
    before = threads.get_num_threads()
    yield
    threads.set_num_threads(before)


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2", "avx512")))
def test_every_kernel_is_parallel_and_matches_numpy_for_every_thread_count(isa):
    k = compiled(isa)
    parallel = {f.sym_name.data for f in k.module.ops if "loop.parallel" in f.attributes}
    assert parallel == set(PARALLEL_KERNELS)
    rng = np.random.default_rng(14)
    for name in PARALLEL_KERNELS:
        for n in SIZES:
            args = inputs(name, n, rng)
            want = reference(name, args)
            first = None
            for t in THREADS:
                loopopt.set_num_threads(t)
                got = k.outputs_and_results(name, *args)
                if (name.startswith("filter_") and name != "filter_sum_f32") or name.startswith(("pos_", "rare_")):
                    assert got[1] == len(got[0]), name  # the count result
                    got = got[:1]
                if name == "split_signs_i32":
                    assert (got[2], got[3]) == (len(got[0]), len(got[1]))
                    got = got[:2]
                assert len(got) == len(want), name
                for g, w in zip(got, want):
                    assert close(g, w), (isa, name, n, t, g, w)
                if first is None:
                    first = got
                assert all(same_bits(a, b) for a, b in zip(got, first)), (isa, name, n, t)


@pytest.mark.parametrize("stream_bytes", [-1, 64], ids=["plain", "nontemporal"])
@pytest.mark.parametrize("isa", isa_params(("avx2", "avx512")))
def test_filter_chunks_land_in_order_whichever_path_their_timing_takes(isa, stream_bytes):
    """A filter chunk compacts into the output when its place is known when it starts, else
    into scratch and copies (which one depends on the threads' timing; with stream_bytes=64,
    whole cache lines with non-temporal stores): many calls over hundreds of chunks on 2-4
    threads, every one equal to numpy, records and two counts too, and scans of the selected
    values (chained after the places; most of rare_cumsum's chunks select nothing)."""
    k = compiled(isa, stream_bytes=stream_bytes)
    rng = np.random.default_rng(141)
    n = 300 * CHUNK + 5
    for name in ("filter_scale_f32", "filter_i32", "split_signs_i32", "pos_cumsum_i32", "rare_cumsum_i64"):
        args = inputs(name, n, rng)
        want = reference(name, args)
        for t in (2, 3, 4):
            loopopt.set_num_threads(t)
            for _ in range(10):
                got = k.outputs_and_results(name, *args)
                outs = got[: len(want)]
                assert all(same_bits(g, w) for g, w in zip(outs, want)), (isa, name, t)


STREAM_BYTES = 4096
"""A low streaming threshold (1 Ki f32 elements) so that whole outputs above it split into
ranges below it."""


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
def test_parallel_map_streams_by_the_whole_output_and_matches_serial(isa):
    """A chunk decides non-temporal stores from the whole call's output (`loop.call_dim`,
    loop_to_simd/vecloop.call_trips), so a range below the threshold streams when the call is
    above it: its peel aligns its own (unaligned: the views are offset by one element) range.
    Outputs around the threshold and around the range boundaries of 1-4 threads are
    bit-identical to the serial kernel (which is numpy's but for fma contraction)."""
    spelled = LoopPipelinePass(target=isa, parallel=-1, stream_bytes=STREAM_BYTES).spelling(set(_all_passes()))
    serial_spelled = spelled.replace(f",loop-parallelize{{threads=0 stream_bytes={STREAM_BYTES}}}", "")
    assert "loop-parallelize" not in serial_spelled and f"stream_bytes={STREAM_BYTES}" in serial_spelled
    par = loopopt.compile(SOURCE, target=isa, pipeline=spelled.replace("loop-parallelize{", "loop-parallelize{min_elements=0 chunk=64 "))
    serial = loopopt.compile(SOURCE, target=isa, pipeline=serial_spelled)
    rng = np.random.default_rng(17)
    k = STREAM_BYTES // 4
    sizes = (k - 1, k, k + 1, 2 * k - 63, 2 * k + 1, 3 * k + 190, 4 * k + 1, 4 * k + 255, 8 * k + 17, 20011)
    for name in ("axpy", "sq_i32"):
        for n in sizes:
            args = inputs(name, n, rng)
            want = serial.outputs_and_results(name, *args)
            assert all(close(a, b) for a, b in zip(want, reference(name, args))), (isa, name, n)
            for t in THREADS:
                loopopt.set_num_threads(t)
                got = par.outputs_and_results(name, *args)
                assert all(same_bits(a, b) for a, b in zip(got, want)), (isa, name, n, t)


@pytest.mark.parametrize("isa", isa_params(("avx2",)))
def test_default_chunking_is_bit_identical_across_threads_and_close_to_serial(isa):
    """Default chunk (16384) and threshold (65536): above it the float sum is chunked, the
    same for 1-4 threads; below it the driver calls the serial kernel (same bits as serial)."""
    par, serial = compiled(isa, -1, 16384, 65536), compiled(isa, 0)
    rng = np.random.default_rng(3)
    for n in (1000, 65535, 65536, 200_003):
        x = rng.standard_normal(n).astype(np.float32)
        results = set()
        for t in THREADS:
            loopopt.set_num_threads(t)
            results.add(par.call_alloc("sum_f32", x).tobytes())
        assert len(results) == 1, n
        s = serial.call_alloc("sum_f32", x)
        got = np.frombuffer(results.pop(), np.float32)[0]
        if n < 65536:
            assert got.tobytes() == s.tobytes()
        assert np.isclose(got, x.sum(dtype=np.float64), rtol=1e-5, atol=1e-3)


def test_filter_with_a_short_output_runs_serially_and_stays_in_bounds():
    """The driver compacts only when the output holds n elements; a C caller giving less gets
    the serial kernel (which the caller's capacity contract governs, as without threads)."""
    k = compiled("scalar")
    x = np.ones(1000, np.int32)
    out = np.zeros(1000, np.int32)
    fn = k["filter_i32"]
    loopopt.set_num_threads(4)
    assert fn(x, out) == 1000 and (out == 1).all()


def test_set_num_threads_validates_and_is_read_back():
    threads.set_num_threads(3)
    assert threads.get_num_threads() == 3
    for bad in (-1, 1025, 2.0, True, "2"):
        with pytest.raises(ValueError):
            loopopt.set_num_threads(bad)


def test_concurrent_python_callers_get_right_results_and_release_the_region_count():
    k = compiled("avx2" if "avx2" in loopopt.runtime.host_isas() else "scalar")
    rng = np.random.default_rng(5)
    x = rng.integers(-100, 100, 50_000).astype(np.int64)
    want = np.cumsum(x)
    loopopt.set_num_threads(2)
    errors = []

    def work():
        for _ in range(20):
            got = k.call_alloc("cumsum_i64", x)
            if not np.array_equal(got, want):
                errors.append("mismatch")

    workers = [threading.Thread(target=work) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors and threads.parallel_calls() == 0


def test_loopopt_num_threads_environment_variable():
    code = "from loopopt.runtime import threads; print(threads.get_num_threads())"
    env = {**os.environ, "LOOPOPT_NUM_THREADS": "3"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3"
    env["LOOPOPT_NUM_THREADS"] = "many"
    bad = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and "LOOPOPT_NUM_THREADS='many'" in bad.stderr


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_parallel_kernels_under_qemu(isa):
    k = compiled(isa)
    rng = np.random.default_rng(7)
    for name in ("sum_f32", "filter_scale_f32", "cumsum_i64", "sum_max_f64"):
        for n in (0, CHUNK + 1, 5 * CHUNK + 17):
            args = inputs(name, n, rng)
            got = k.outputs_and_results(name, *[np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a for a in args])
            got = got[:1] if name == "filter_scale_f32" else got
            for g, w in zip(got, reference(name, args)):
                assert close(g, w), (name, n, g, w)


NEON_KERNELS = ("axpy", "sum_max_f64", "dot_norms_f64", "umax_u8", "filter_scale_f32", "split_signs_i32", "cumsum_i64", "pos_running_max_f64")
"""One of each driver shape: a zip map, a float fold with a max, sums of products (fma
reductions), an unsigned fold, a filter→map, two filters, a scan, a filter's scan."""


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_parallel_kernels_for_every_thread_count_under_qemu(isa):
    """The differential test's sizes around chunk boundaries on 1-4 threads under qemu-aarch64
    (libgomp linked statically; no Python runtime in the runner, so LOOPOPT_NUM_THREADS sets the
    threads): numpy's results, the same bits for every thread count."""
    k = compiled(isa)
    rng = np.random.default_rng(17)
    for name in NEON_KERNELS:
        cases = [tuple(np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a for a in inputs(name, n, rng)) for n in SIZES]
        first = None
        for t in THREADS:
            got = batch_on_threads(k[name], cases, t)
            for args, values in zip(cases, got):
                want = reference(name, args)
                for g, w in zip(values, want):
                    assert close(g, w), (name, len(args[0]), t, g, w)
                assert len(values) == len(want) + (2 if name == "split_signs_i32" else name.startswith(("filter_", "pos_")))
            if first is None:
                first = got
            assert all(same_bits(a, b) for vs, ws in zip(got, first) for a, b in zip(vs, ws)), (name, t)


def test_float_folds_are_bit_identical_run_to_run():
    """A float fold's partials are combined in chunk order after the parallel loop, never in the
    order threads finish: 30 calls on each of 1-4 threads over 300 chunks give one bit pattern
    (a combine in completion order, e.g. an atomic add or `omp reduction`, would vary)."""
    k = compiled("avx2" if "avx2" in loopopt.runtime.host_isas() else "scalar")
    rng = np.random.default_rng(23)
    x = (rng.standard_normal(300 * CHUNK) * np.exp(rng.uniform(-20, 20, 300 * CHUNK))).astype(np.float64)
    xf = x.astype(np.float32)
    seen: dict[str, set[bytes]] = {"sum_f32": set(), "sum_max_f64": set(), "filter_sum_f32": set()}
    for t in THREADS:
        loopopt.set_num_threads(t)
        for _ in range(30):
            seen["sum_f32"].add(np.asarray(k.call_alloc("sum_f32", xf)).tobytes())
            seen["sum_max_f64"].add(b"".join(np.asarray(v).tobytes() for v in k.call_alloc("sum_max_f64", x)))
            seen["filter_sum_f32"].add(np.asarray(k.call_alloc("filter_sum_f32", xf)).tobytes())
    assert {name: len(bits) for name, bits in seen.items()} == {name: 1 for name in seen}


def _settled_thread_count() -> int:
    """The process's OS threads once the count holds still for a few reads: the workers of an
    earlier caller's pool leave /proc/self/task a little after that caller exits (a count taken
    while they go made this probe flaky under load)."""
    last, same = -1, 0
    for _ in range(400):
        now = len(os.listdir("/proc/self/task"))
        same = same + 1 if now == last else 0
        if same == 3:
            break
        last = now
        time.sleep(0.005)
    return last


def _threads_a_fresh_caller_starts(k, x) -> tuple[int, bytes]:
    """OS threads the process gains while a new Python thread makes one parallel call (libgomp
    gives each calling thread its own pool of workers, kept until that thread exits), and the result."""
    got = []

    def work():
        before = _settled_thread_count()
        result = k.call_alloc("sum_f32", x)
        got.append((_settled_thread_count() - before, np.asarray(result).tobytes()))

    caller = threading.Thread(target=work)
    caller.start()
    caller.join()
    return got[0]


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_a_call_made_while_another_runs_starts_no_threads():
    """No oversubscription: a parallel call that starts while another parallel call runs in the
    process (here: the shared count held up by hand, as a running call holds it) uses its own
    thread only — no OpenMP workers — and gives the same bits; with the count back at 0 the same
    call starts the setting's 3 extra threads (the probe can see them)."""
    k = compiled("scalar")
    x = np.random.default_rng(29).standard_normal(40 * CHUNK).astype(np.float32)
    loopopt.set_num_threads(4)
    started, alone = _threads_a_fresh_caller_starts(k, x)
    assert started == 3
    calls = ctypes.c_int.in_dll(threads.ensure_loaded(), "loopopt_parallel_calls")
    calls.value += 1
    try:
        started, nested = _threads_a_fresh_caller_starts(k, x)
    finally:
        calls.value -= 1
    assert started == 0 and nested == alone
    assert threads.parallel_calls() == 0


@pytest.mark.parametrize("isa", isa_params(("avx2",)))
def test_parallel_drivers_under_address_and_undefined_sanitizers(isa):
    """Every array in an allocation of exactly its size (and one element in): the drivers'
    offset pointers, scratch, compaction and the filters' non-temporal copies (stream_bytes=64)
    stay in bounds; LOOPOPT_NUM_THREADS=3 in the runner (no Python runtime: the weak symbols
    are unresolved, the env var is read)."""
    from loopopt.runtime.sanitize import emit_program, sanitized_kernels

    from par_programs import SOURCE, pipeline

    prog = emit_program(SOURCE, isa, pipeline(isa, -1, chunk=CHUNK, min_elements=0, stream_bytes=64, filter_block=0))
    kernels = sanitized_kernels(prog.c_source, prog.signatures.values(), isa)
    rng = np.random.default_rng(11)
    os.environ["LOOPOPT_NUM_THREADS"] = "3"
    try:
        for name in ("sum_max_f64", "filter_scale_f32", "filter_sum_f32", "cumdiff_i32"):
            cases = [tuple(np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a for a in inputs(name, n, rng))
                     for n in (0, 1, CHUNK + 1, 3 * CHUNK, 5 * CHUNK + 17)]
            got = kernels[name].batch(cases, offsets=[k % 2 for k in range(len(cases))])
            for args, (outputs, results) in zip(cases, got):
                for g, w in zip([*outputs, *results], reference(name, args)):
                    assert close(g, w), (name, len(args[0]))
    finally:
        del os.environ["LOOPOPT_NUM_THREADS"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_runs_parallel_kernels_without_hanging():
    """libgomp's pool does not survive fork(): the child uses one thread (same chunks, same bits)."""
    code = f"""
import os, sys, numpy as np, loopopt
sys.path.insert(0, {os.path.dirname(__file__)!r})
from par_programs import compiled
k = compiled("scalar")
loopopt.set_num_threads(2)
x = np.arange(100000, dtype=np.float32)
parent = k.call_alloc("sum_f32", x).tobytes()
pid = os.fork()
if pid == 0:
    os._exit(0 if k.call_alloc("sum_f32", x).tobytes() == parent else 1)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "0", out.stderr
