"""A scratch buffer that cannot be had (docs/calling_convention.md, "Out of memory"): the kernel
frees what it holds, returns every scalar result as 0 and sets errno = ENOMEM; the Python
wrapper raises MemoryError. Through the C ABI (malloc made to fail at its k-th call, under
ASan + LeakSanitizer, so a buffer not freed on the way out is a report) and through the Python
runtime (a subprocess under RLIMIT_AS)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from loopopt.runtime import build
from loopopt.runtime.isa import host_isas
from loopopt.runtime.sanitize import emit_program, sanitizer_toolchain

VECTOR = [isa for isa in ("avx512", "avx2", "sse2") if isa in host_isas()][:1]

_LONG = "\n".join(
    f"    %c{c} = arith.constant {c} : i32\n    %a{c} = arith.addi %e{c - 1}, %c{c} : i32\n"
    f"    %k{c} = arith.constant {3 * c} : i32\n    %e{c} = arith.xori %a{c}, %k{c} : i32"
    for c in range(1, 6)
)
KEEP_SUM = f"""
func.func @keep_sum(%x: !df.array<i32, [i]>) -> (!df.array<i32, [k]>, i32) {{
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {{
  ^bb0(%e0: i32):
{_LONG}
    %z = arith.constant 0 : i32
    %t = arith.cmpi sgt, %e5, %z : i32
    df.yield %t : i1
  }}
  %z = arith.constant 0 : i32
  %s = df.reduce add(%p, %z) over [k] : !df.array<i32, [k]> -> i32
  func.return %p, %s : !df.array<i32, [k]>, i32
}}
"""
"""A filter result that is also summed (20 predicate ops: df-fuse keeps it materialized): scratch
in the default pipeline, two scalar results (count, sum) through pointers."""

PAIR = """
func.func @pair(%x: !df.array<i64, [i]>, %y: !df.array<i64, [j]>) -> i64 {
  %z = arith.constant 0 : i64
  %d1 = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %e : i64
    df.yield %s : i64
  }
  %a = df.reduce add(%d1, %z) over [i] : !df.array<i64, [i]> -> i64
  %b = df.reduce max(%d1, %z) over [i] : !df.array<i64, [i]> -> i64
  %d2 = df.map %y : !df.array<i64, [j]> -> !df.array<i64, [j]> {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  %c = df.reduce add(%d2, %z) over [j] : !df.array<i64, [j]> -> i64
  %m = df.reduce min(%d2, %z) over [j] : !df.array<i64, [j]> -> i64
  %r1 = arith.addi %a, %b : i64
  %r2 = arith.addi %c, %m : i64
  %r = arith.addi %r1, %r2 : i64
  func.return %r : i64
}
"""
"""Two scratch buffers (convert-df-to-loop alone keeps both): the second's failure frees the first."""

FAILING_MALLOC = r"""
#include <errno.h>
#include <stdlib.h>
static long lo_test_calls, lo_test_fail_at;
/* The lo_test_fail_at-th call fails; every other one succeeds and still sets errno = ENOMEM, as
   glibc's malloc may (a failed brk before an mmap that works). */
static void *lo_test_malloc(size_t n)
{
    if (++lo_test_calls == lo_test_fail_at) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = malloc(n);
    errno = ENOMEM;
    return p;
}
#define malloc(n) lo_test_malloc(n)
"""

MAIN = r"""
#undef malloc
#include <stdio.h>
int main(void)
{
    int32_t x[37], out[37];
    int64_t xs[9], ys[5];
    for (int i = 0; i < 37; i++) x[i] = i * 7919 % 41 - 20;
    for (int i = 0; i < 9; i++) xs[i] = i - 4;
    for (int i = 0; i < 5; i++) ys[i] = 3 - i;
    for (lo_test_fail_at = 0; lo_test_fail_at <= 3; lo_test_fail_at++) {
        int64_t count = -1;
        int32_t sum = -1;
        lo_test_calls = 0;
        errno = EDOM;
        keep_sum(x, 37, out, 37, &count, &sum);
        printf("keep_sum fail_at=%ld calls=%ld enomem=%d count=%lld sum=%d\n", lo_test_fail_at, lo_test_calls,
               errno == ENOMEM, (long long)count, sum);
        lo_test_calls = 0;
        errno = EDOM;
        int64_t r = pair(xs, 9, ys, 5);
        printf("pair fail_at=%ld calls=%ld enomem=%d r=%lld\n", lo_test_fail_at, lo_test_calls, errno == ENOMEM, (long long)r);
    }
    return 0;
}
"""


def _expected() -> dict[tuple[str, int], str]:
    x = [i * 7919 % 41 - 20 for i in range(37)]
    kept = []
    for v in x:
        e = v
        for c in range(1, 6):
            e = ((e + c) ^ (3 * c)) & 0xFFFFFFFF
            e = e - (1 << 32) if e >= 1 << 31 else e
        if e > 0:
            kept.append(v)
    xs, ys = [i - 4 for i in range(9)], [3 - i for i in range(5)]
    d1, d2 = [2 * v for v in xs], [v * v for v in ys]
    r = sum(d1) + max(max(d1), 0) + sum(d2) + min(min(d2), 0)
    return {("keep_sum", 0): f"enomem=0 count={len(kept)} sum={sum(kept)}", ("pair", 0): f"enomem=0 r={r}"}


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_a_failed_allocation_through_the_c_abi(isa: str) -> None:
    """k-th malloc failing (k = 1, 2; 0 and 3: none fails): errno = ENOMEM, results 0, nothing
    leaked (LeakSanitizer at exit); a successful call leaves errno as the caller set it (EDOM)
    although the fake malloc sets ENOMEM on success too."""
    keep = emit_program(KEEP_SUM, isa).c_source
    pair = emit_program(PAIR, isa, "convert-df-to-loop,convert-loop-to-simd{target=" + isa + " fallback=true}").c_source
    assert keep.count("lo_alloc(x_len") == 1 and pair.count("= lo_alloc(") == 2
    tc = sanitizer_toolchain(isa)
    pair = pair.split("*/", 1)[1].replace("static void *lo_alloc(", "static void *lo_alloc_2(").replace("= lo_alloc(", "= lo_alloc_2(")
    source = "\n".join([FAILING_MALLOC, tc.prelude, keep, pair, MAIN])
    exe = build.build(source, list(tc.flags), compiler=tc.compiler, shared=False, libs=tc.libs)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env={**os.environ, **dict(tc.env)}, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = {(w[0], int(w[1].split("=")[1])): " ".join(w[3:]) for w in (line.split() for line in proc.stdout.splitlines())}
    want = _expected()
    assert lines[("keep_sum", 0)] == lines[("keep_sum", 3)] == want[("keep_sum", 0)], proc.stdout
    assert lines[("keep_sum", 1)] == "enomem=1 count=0 sum=0", proc.stdout
    assert lines[("keep_sum", 2)] == want[("keep_sum", 0)], proc.stdout  # one allocation only
    assert lines[("pair", 0)] == lines[("pair", 3)] == want[("pair", 0)], proc.stdout
    assert lines[("pair", 1)] == lines[("pair", 2)] == "enomem=1 r=0", proc.stdout


PYTHON_CALL = """
import resource, sys
import numpy as np
import loopopt
k = loopopt.compile(sys.argv[1], target=sys.argv[2])
n = 1 << 23
x = (np.arange(n, dtype=np.int32) * 7919 % 41 - 20).astype(np.int32)
out = np.empty(n, np.int32)
count, total = k.keep_sum(x, out)  # warm: every page and library the call needs is there
hard = resource.getrlimit(resource.RLIMIT_AS)[1]
size = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + (n * 4) // 2, hard))
try:
    k.keep_sum(x, out)
    print("no error")
except MemoryError as e:
    print("MemoryError:", e)
resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
print("again", k.keep_sum(x, out) == (count, total))
"""


@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_a_failed_allocation_raises_memory_error_in_python(isa: str) -> None:
    """Under an address-space limit that leaves room for half the scratch buffer (8 Mi i32): the
    call raises MemoryError naming the kernel; with the limit lifted the same call works."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(PYTHON_CALL), KEEP_SUM, isa],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["MemoryError: keep_sum(): out of memory for the kernel's scratch buffers", "again True"], proc.stdout


MAP_SUM = """
func.func @map_sum(%x: !df.array<i64, [i]>) -> (!df.array<i64, [i]>, i64) {
  %d = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %e : i64
    df.yield %s : i64
  }
  %a = df.map %d : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  %z = arith.constant 0 : i64
  %s = df.reduce add(%d, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %a, %s : !df.array<i64, [i]>, i64
}
"""
"""A parallel kernel whose chunk allocates (its intermediate has two users without loop-fuse)."""

PARALLEL_MAIN = r"""
#undef malloc
#include <stdio.h>
static int64_t x[1000], out[1000];
int main(void)
{
    for (int i = 0; i < 1000; i++) x[i] = i % 17 - 8;
    for (lo_test_fail_at = 0; lo_test_fail_at <= 9; lo_test_fail_at++) {
        lo_test_calls = 0;
        errno = EDOM;
        int64_t s = map_sum(x, 1000, out, 1000);
        printf("fail_at=%ld calls=%ld enomem=%d edom=%d s=%lld\n", lo_test_fail_at, lo_test_calls, errno == ENOMEM,
               errno == EDOM, (long long)s);
    }
    return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("isa", ["scalar", *VECTOR])
def test_a_failed_allocation_in_a_parallel_chunk(isa: str, threads: int) -> None:
    """The chunk kernel runs on OpenMP worker threads, whose errno the caller never sees: the
    driver (targets/c_filter_blocks.py `DriverErrno`) collects ENOMEM from every thread, sets it on
    the caller's and returns 0. The driver's own buffer failing runs the serial kernel (the right
    sum); a call where nothing fails leaves the caller's errno (EDOM), although every successful
    malloc here sets ENOMEM."""
    pipeline = f"convert-df-to-loop,loop-parallelize{{min_elements=0 chunk=64}},convert-loop-to-simd{{target={isa} fallback=true}}"
    c = emit_program(MAP_SUM, isa, pipeline).c_source
    assert "map_sum__chunk(" in c and "= lo_alloc(" in c
    tc = sanitizer_toolchain(isa)
    failing = FAILING_MALLOC.replace("++lo_test_calls", "__atomic_add_fetch(&lo_test_calls, 1, __ATOMIC_RELAXED)")
    exe = build.build("\n".join([failing, tc.prelude, c, PARALLEL_MAIN]), list(tc.flags), compiler=tc.compiler, shared=False, libs=tc.libs)
    env = {**os.environ, **dict(tc.env), "LOOPOPT_NUM_THREADS": str(threads), "OMP_NUM_THREADS": str(threads)}
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [dict(w.split("=") for w in line.split()) for line in proc.stdout.splitlines()]
    want = sum(2 * (i % 17 - 8) for i in range(1000))
    calls = int(rows[0]["calls"])
    # threaded: the driver's partial sums first (failing, it runs the serial kernel), then one
    # allocation per chunk; one thread: the serial kernel's one
    first = 1 if threads == 1 else 2
    assert calls == (1 if threads == 1 else 1 + threads), proc.stdout  # n = 1000: one chunk per thread
    for r in rows:
        failed = first <= int(r["fail_at"]) <= calls
        assert (r["enomem"], r["edom"], int(r["s"])) == (("1", "0", 0) if failed else ("0", "1", want)), proc.stdout
