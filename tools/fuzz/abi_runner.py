"""The C side of the ABI fuzzer (`loopopt.tools.fuzz.abi`): a standalone runner that calls kernels
with exactly the arguments a case gives, in guarded allocations, under ASan + UBSan.

Unlike `runtime.foreign`'s runner (which sizes outputs as the Python wrapper does, after its
checks), nothing here is checked or derived: every length, capacity, offset and aliasing choice
comes from the case, as a C caller would pass it. Each array gets its own allocation of exactly
`(offset + alloc)` elements (`alloc` may differ from the length passed: a capacity below the
allocation leaves a slack the oracle checks is untouched); outputs are filled with `SENTINEL`
bytes first and come back whole (offset prefix and slack included). An input may instead be
passed as another input's pointer (`alias`: the convention lets inputs share memory).

Stream (little-endian) in: the `uint64` kernel index and case count; per case, per C parameter:
an array is `int64` offset, alloc, alias (-1: its own buffer), then one `int64` per dimension
(passed as is), then (an input with its own buffer) `alloc` raw elements; a scalar is its raw
value. Out, per case: every output's whole allocation, then every result's raw value. Before
each case the runner prints `loopopt_abi case K` on stderr, so a sanitizer report names its case.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from loopopt.runtime import build
from loopopt.runtime.sanitize import sanitizer_toolchain
from loopopt.runtime.signature import DTYPES, ArrayParam, KernelSignature
from loopopt.runtime.threads import ENV as THREADS_ENV

SENTINEL = 0xA5
"""Byte every output allocation holds before the call (a write changes it; the oracle looks)."""


@dataclass
class ArraySpec:
    """One array argument as the C caller passes it."""

    dims: tuple[int, ...]
    """The lengths passed (any int64: negative, mismatched, past the allocation)."""
    alloc: int
    """Elements allocated after the offset (>= 0)."""
    offset: int = 0
    data: bytes = b""
    """An input's `alloc` elements (ignored when aliased)."""
    alias: int = -1
    """Parameter index of an earlier input whose pointer is passed instead (same dtype)."""


@dataclass
class AbiCall:
    """One call: one ArraySpec or raw scalar bytes per C parameter."""

    args: list[ArraySpec | bytes]


def _runner(sig: KernelSignature, k: int) -> list[str]:
    body: list[str] = []
    call: list[str] = []
    writes: list[str] = []
    frees: list[str] = []
    for i, p in enumerate(sig.params):
        ctype = p.dt.c_type
        if isinstance(p, ArrayParam):
            dims = [f"d{i}_{d}" for d in range(p.rank)]
            body.append(f"        int64_t o{i}, n{i}, al{i}, {', '.join(dims)};")
            body += [f"        loopopt_abi_read(&{v}, 8);" for v in (f"o{i}", f"n{i}", f"al{i}", *dims)]
            body.append(f"        unsigned char *b{i} = loopopt_abi_alloc(o{i}, n{i}, sizeof({ctype}));")
            body.append(f"        {ctype} *a{i} = ({ctype} *)b{i} + o{i};")
            if p.output:
                body.append(f"        memset(b{i}, {SENTINEL}, (size_t)(o{i} + n{i}) * sizeof({ctype}));")
                writes.append(f"        loopopt_abi_write(b{i}, (size_t)(o{i} + n{i}) * sizeof({ctype}));")
            else:
                body.append(f"        if (al{i} >= 0) a{i} = ({ctype} *)loopopt_abi_ptr[al{i}];")
                body.append(f"        else loopopt_abi_read(a{i}, (size_t)n{i} * sizeof({ctype}));")
            body.append(f"        loopopt_abi_ptr[{i}] = a{i};")
            frees.append(f"        free(b{i});")
            call += [f"a{i}", *dims]
        else:
            body.append(f"        {ctype} s{i};")
            body.append(f"        loopopt_abi_read(&s{i}, sizeof s{i});")
            call.append(f"s{i}")
    body += [f"        {DTYPES[r].c_type} r{j} = 0;" for j, r in enumerate(sig.results)]
    if len(sig.results) >= 2:
        call += [f"&r{j}" for j in range(len(sig.results))]
    text = f"loopopt_abi_kernel_{k}({', '.join(call)});"
    text = f"r0 = {text}" if len(sig.results) == 1 else text
    writes += [f"        loopopt_abi_write(&r{j}, sizeof r{j});" for j in range(len(sig.results))]
    types = [t for p in sig.params for t in p.c_params()]
    if len(sig.results) >= 2:
        types += [f"{DTYPES[r].c_type} *restrict" for r in sig.results]
    return [
        sig.c_declaration(),
        f"static {sig.return_c_type} (*const loopopt_abi_kernel_{k})({', '.join(types) or 'void'}) = {sig.name};",
        f"static void loopopt_abi_run_{k}(uint64_t cases) {{",
        f"    void *loopopt_abi_ptr[{max(len(sig.params), 1)}] = {{0}};",
        "    for (uint64_t c = 0; c < cases; c++) {",
        '        fprintf(stderr, "loopopt_abi case %llu\\n", (unsigned long long)c); fflush(stderr);',
        *body,
        f"        {text}",
        *writes,
        *frees,
        "    }",
        "}",
    ]


def runner_source(c_source: str, sigs: Sequence[KernelSignature], prelude: str = "") -> str:
    """`prelude`, the kernels' C, one `loopopt_abi_run_<k>` per signature and a `main`."""
    runners = [line for k, sig in enumerate(sigs) for line in _runner(sig, k)]
    dispatch = [f"    case {k}: loopopt_abi_run_{k}(cases); break;" for k in range(len(sigs))]
    return "\n".join([
        "#include <stdint.h>", "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>",
        *([prelude] if prelude else []),
        '#line 1 "kernel.c"',
        c_source,
        '#line 1 "loopopt_abi_main.c"',
        "static FILE *loopopt_abi_in, *loopopt_abi_out;",
        'static void loopopt_abi_fail(const char *what) { fprintf(stderr, "loopopt abi runner: %s\\n", what); exit(3); }',
        "static void loopopt_abi_read(void *p, size_t n) { if (n && fread(p, 1, n, loopopt_abi_in) != n) loopopt_abi_fail(\"truncated input\"); }",
        "static void loopopt_abi_write(const void *p, size_t n) { if (n && fwrite(p, 1, n, loopopt_abi_out) != n) loopopt_abi_fail(\"write failed\"); }",
        "/* Exactly (off + n) * size bytes: an access one past the end is outside the allocation. */",
        "static unsigned char *loopopt_abi_alloc(int64_t off, int64_t n, size_t size) {",
        "    if (off < 0 || n < 0 || off > (1 << 16) || (uint64_t)n > (SIZE_MAX >> 4) / size) loopopt_abi_fail(\"bad allocation\");",
        "    unsigned char *p = calloc((size_t)(off + n), size);",
        "    if (p == NULL && off + n == 0) p = malloc(1);",
        "    if (p == NULL) loopopt_abi_fail(\"out of memory\");",
        "    return p;",
        "}",
        *runners,
        "int main(int argc, char **argv) {",
        "    if (argc != 3) loopopt_abi_fail(\"usage: runner INPUT OUTPUT\");",
        '    loopopt_abi_in = fopen(argv[1], "rb");',
        '    loopopt_abi_out = fopen(argv[2], "wb");',
        "    if (loopopt_abi_in == NULL || loopopt_abi_out == NULL) loopopt_abi_fail(\"cannot open files\");",
        "    uint64_t kernel, cases;",
        "    loopopt_abi_read(&kernel, 8);",
        "    loopopt_abi_read(&cases, 8);",
        "    switch (kernel) {",
        *dispatch,
        "    default: loopopt_abi_fail(\"no such kernel\");",
        "    }",
        "    if (fclose(loopopt_abi_out) != 0) loopopt_abi_fail(\"write failed\");",
        "    fclose(loopopt_abi_in);",
        "    return 0;",
        "}",
        "",
    ])  # fmt: skip


class RunnerFailure(RuntimeError):
    """The runner stopped: `case` is the case it was in (None: before any), `report` its stderr."""

    def __init__(self, kind: str, case: int | None, report: str):
        super().__init__(f"{kind} in case {case}: {report}")
        self.kind = kind
        self.case = case
        self.report = report


def _last_case(stderr: str) -> int | None:
    cases = [line.split()[-1] for line in stderr.splitlines() if line.startswith("loopopt_abi case ")]
    return int(cases[-1]) if cases else None


@dataclass
class AbiRunner:
    """Every kernel of one printed C program in one sanitized executable (cached by content)."""

    c_source: str
    signatures: list[KernelSignature]
    isa: str
    timeout: float = 120.0

    def __post_init__(self) -> None:
        tc = sanitizer_toolchain(self.isa)
        self.env = dict(tc.env)
        self.path = build.build(runner_source(self.c_source, self.signatures, tc.prelude), list(tc.flags),
                                compiler=tc.compiler, shared=False, libs=tc.libs)  # fmt: skip

    def run(self, name: str, calls: Sequence[AbiCall], threads: int = 1) -> list[tuple[list[np.ndarray], list[Any]]]:
        """(each output's whole allocation as bytes-shaped elements, the C results) per call."""
        k = next(i for i, s in enumerate(self.signatures) if s.name == name)
        sig = self.signatures[k]
        parts = [k.to_bytes(8, "little"), len(calls).to_bytes(8, "little")]
        for call in calls:
            for p, a in zip(sig.params, call.args, strict=True):
                if isinstance(a, bytes):
                    parts.append(a)
                    continue
                parts.append(np.array([a.offset, a.alloc, a.alias, *a.dims], "<i8").tobytes())
                if not p.output and a.alias < 0:
                    assert len(a.data) == a.alloc * p.dt.itemsize, (p.name, len(a.data), a.alloc)
                    parts.append(a.data)
        with tempfile.TemporaryDirectory(prefix="loopopt_abi_") as tmp:
            src, dst = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
            src.write_bytes(b"".join(parts))
            env = {**os.environ, **self.env, THREADS_ENV: str(threads), "OMP_NUM_THREADS": str(threads)}
            try:
                proc = subprocess.run([str(self.path), str(src), str(dst)], capture_output=True, text=True,
                                      errors="replace", timeout=self.timeout, env=env)  # fmt: skip
            except subprocess.TimeoutExpired as e:
                err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
                raise RunnerFailure("timeout", _last_case(err), f"no result after {self.timeout:g}s") from None
            if proc.returncode != 0:
                report = "\n".join(line for line in proc.stderr.splitlines() if not line.startswith("loopopt_abi case "))
                kind = "sanitizer" if ("Sanitizer" in report or "runtime error:" in report) else "crash"
                raise RunnerFailure(kind, _last_case(proc.stderr), f"status {proc.returncode}\n{report[-3000:]}")
            data = dst.read_bytes()
        out: list[tuple[list[np.ndarray], list[Any]]] = []
        pos = 0
        for call in calls:
            arrays = []
            for p, a in zip(sig.params, call.args, strict=True):
                if isinstance(p, ArrayParam) and p.output:
                    assert isinstance(a, ArraySpec)
                    n = (a.offset + a.alloc) * p.dt.itemsize
                    arrays.append(np.frombuffer(data, np.uint8, n, pos).copy())
                    pos += n
            results = []
            for r in sig.results:
                dt = DTYPES[r].numpy
                results.append(np.frombuffer(data, dt, 1, pos)[0])
                pos += dt.itemsize
            out.append((arrays, results))
        if pos != len(data):
            raise RunnerFailure("crash", None, f"runner wrote {len(data)} bytes, expected {pos}")
        return out
