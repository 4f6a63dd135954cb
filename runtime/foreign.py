"""Running kernels built for another architecture (NEON on aarch64) under qemu user-mode emulation.

An aarch64 shared object cannot be loaded into an x86 Python, so the kernel is
linked statically with a generated `main` that reads argument sets from a
binary file, calls the kernel on each and writes outputs and results back.
qemu start-up costs tens of milliseconds, so many argument sets go through one
run (`ForeignKernel.batch`), and the binary is cached on disk like any build.

Stream format (little-endian, both ways): the input file holds a `uint64`
count of cases; per case, per parameter in C order: an input array is its
`int64` dims then its raw elements, a scalar is its raw value in its C type, an
output is its `int64` dims (capacity). The output file holds, per case, each
output's raw elements then each result's raw value. Results come back as numpy
scalars of their dtype, like the native wrapper's.
"""

from __future__ import annotations

import functools
import operator
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import build
from .isa import FOREIGN_TOOLS, cflags, check_isa
from .signature import DTYPES, ArrayParam, KernelSignature, ScalarParam

FOREIGN_CFLAGS: tuple[str, ...] = ("-O2", "-static", "-std=c11", "-ffp-contract=off", "-Wall", "-Wextra")


class ForeignRunError(RuntimeError):
    """The emulated kernel binary failed (crash, non-zero exit, timeout)."""


def _main_source(c_source: str, sig: KernelSignature) -> str:
    body: list[str] = []
    frees: list[str] = []
    call_args: list[str] = []
    writes: list[str] = []
    for i, p in enumerate(sig.params):
        ctype = p.dt.c_type
        if isinstance(p, ArrayParam):
            dims = [f"d{i}_{d}" for d in range(p.rank)]
            count = " * ".join(dims)
            body.append(f"        int64_t {', '.join(dims)};")
            body += [f"        lo_read(&{d}, sizeof {d});" for d in dims]
            body.append(f"        {ctype} *a{i} = lo_alloc({count}, sizeof({ctype}));")
            if p.output:
                body.append(f"        memset(a{i}, 0, (size_t)({count}) * sizeof({ctype}));")
                writes.append(f"        lo_write(a{i}, (size_t)({count}) * sizeof({ctype}));")
            else:
                body.append(f"        lo_read(a{i}, (size_t)({count}) * sizeof({ctype}));")
            frees.append(f"        free(a{i});")
            call_args += [f"a{i}", *dims]
        else:
            body.append(f"        {ctype} s{i};")
            body.append(f"        lo_read(&s{i}, sizeof s{i});")
            call_args.append(f"s{i}")
    body += [f"        {DTYPES[r].c_type} r{j};" for j, r in enumerate(sig.results)]
    if len(sig.results) >= 2:
        call_args += [f"&r{j}" for j in range(len(sig.results))]
    call = f"{sig.name}({', '.join(call_args)});"
    body.append(f"        r0 = {call}" if len(sig.results) == 1 else f"        {call}")
    writes += [f"        lo_write(&r{j}, sizeof r{j});" for j in range(len(sig.results))]
    return "\n".join(
        [
            "#include <stdint.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "#include <string.h>",
            '#line 1 "kernel.c"',
            c_source,
            '#line 1 "loopopt_foreign_main.c"',
            sig.c_declaration(),
            "static FILE *lo_in, *lo_out;",
            "static void lo_fail(const char *what) { fprintf(stderr, \"loopopt runner: %s\\n\", what); exit(3); }",
            "static void lo_read(void *p, size_t n) { if (n && fread(p, 1, n, lo_in) != n) lo_fail(\"truncated input\"); }",
            "static void lo_write(const void *p, size_t n) { if (n && fwrite(p, 1, n, lo_out) != n) lo_fail(\"write failed\"); }",
            "static void *lo_alloc(int64_t n, size_t size) {",
            "    if (n < 0) lo_fail(\"negative length\");",
            "    void *p = malloc(n > 0 ? (size_t)n * size : 1);",
            "    if (p == NULL) lo_fail(\"out of memory\");",
            "    return p;",
            "}",
            "int main(int argc, char **argv) {",
            "    if (argc != 3) lo_fail(\"usage: runner INPUT OUTPUT\");",
            '    lo_in = fopen(argv[1], "rb");',
            '    lo_out = fopen(argv[2], "wb");',
            "    if (lo_in == NULL || lo_out == NULL) lo_fail(\"cannot open files\");",
            "    uint64_t cases;",
            "    lo_read(&cases, sizeof cases);",
            "    for (uint64_t c = 0; c < cases; c++) {",
            *body,
            *writes,
            *frees,
            "    }",
            "    if (fclose(lo_out) != 0) lo_fail(\"write failed\");",
            "    fclose(lo_in);",
            "    return 0;",
            "}",
            "",
        ]
    )


def _encode_scalar(sig: KernelSignature, p: ScalarParam, value: Any) -> bytes:
    try:
        if p.dtype in ("f32", "f64"):
            v: Any = float(value)
        elif p.dtype == "bool":
            if value not in (0, 1) or isinstance(value, float):
                raise TypeError
            v = bool(value)
        else:
            v = operator.index(value)
            info = np.iinfo(p.dt.numpy)
            if not info.min <= v <= info.max:
                raise OverflowError(f"{sig.name}(): parameter {p.name!r} = {v} is out of range for {p.dtype}")
    except (TypeError, ValueError):
        raise TypeError(
            f"{sig.name}(): parameter {p.name!r} expects a {p.dtype} scalar, found {type(value).__name__}"
        ) from None
    return np.array(v, p.dt.numpy.newbyteorder("<")).tobytes()


def _encode_case(sig: KernelSignature, inputs: Sequence[Any], extents: Mapping[str, int] | None) -> tuple[bytes, list[tuple[int, ...]]]:
    """One case of the input stream and its output shapes, after the checks the native wrapper makes."""
    if len(inputs) != len(sig.inputs):
        raise TypeError(
            f"{sig.name}() takes {len(sig.inputs)} inputs ({', '.join(p.name for p in sig.inputs)}) "
            f"but {len(inputs)} were given"
        )
    parts: list[bytes] = []
    for p, x in zip(sig.inputs, inputs):
        if isinstance(p, ScalarParam):
            parts.append(_encode_scalar(sig, p, x))
            continue
        assert isinstance(p, ArrayParam)
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{sig.name}(): parameter {p.name!r} expects a numpy array, found {type(x).__name__}")
        if x.dtype != p.dt.numpy:
            raise TypeError(f"{sig.name}(): parameter {p.name!r} expects dtype {p.dt.numpy}, found {x.dtype}")
        if x.ndim != p.rank:
            raise ValueError(f"{sig.name}(): parameter {p.name!r} expects a rank-{p.rank} array, found rank {x.ndim}")
        parts.append(np.array(x.shape, "<i8").tobytes())
        parts.append(np.ascontiguousarray(x, x.dtype.newbyteorder("<")).tobytes())
    shapes = sig.output_shapes(inputs, extents)
    for shape in shapes:
        parts.append(np.array(shape, "<i8").tobytes())
    return b"".join(parts), shapes


class ForeignKernel:
    """One kernel compiled for a foreign ISA; call it (or `batch` it) like `Library.call_alloc`."""

    def __init__(self, c_source: str, signature: KernelSignature, isa: str = "neon", timeout: float = 120.0):
        check_isa(isa, allow_native=False)
        if isa not in FOREIGN_TOOLS:
            raise ValueError(f"ISA {isa!r} has no foreign runner (have: {', '.join(FOREIGN_TOOLS)})")
        self.signature = signature
        self.isa = isa
        self.timeout = timeout
        self.compiler, self.emulator = FOREIGN_TOOLS[isa]
        self.path = build.build(
            _main_source(c_source, signature),
            [*FOREIGN_CFLAGS, *cflags(isa)],
            compiler=self.compiler,
            shared=False,
        )

    def __call__(
        self, *inputs: Any, extents: Mapping[str, int] | None = None
    ) -> tuple[list[np.ndarray], tuple[Any, ...]]:
        return self.batch([inputs], None if extents is None else [extents])[0]

    def batch(
        self, cases: Sequence[Sequence[Any]], extents: Sequence[Mapping[str, int] | None] | None = None
    ) -> list[tuple[list[np.ndarray], tuple[Any, ...]]]:
        """Evaluate many argument sets in one emulator run; returns (outputs, results) per case.

        Outputs are sized as in `KernelSignature.output_shapes`; `extents`, if given, holds
        one mapping (or None) per case for the axes no input has.
        """
        sig = self.signature
        if extents is not None and len(extents) != len(cases):
            raise ValueError(f"{sig.name}: {len(extents)} extents for {len(cases)} cases")
        encoded = [
            _encode_case(sig, inputs, extents[k] if extents is not None else None) for k, inputs in enumerate(cases)
        ]
        shapes = [case_shapes for _, case_shapes in encoded]
        stream = len(cases).to_bytes(8, "little") + b"".join(data for data, _ in encoded)
        with tempfile.TemporaryDirectory(prefix="loopopt_foreign_") as tmp:
            in_path, out_path = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
            in_path.write_bytes(stream)
            command = [self.emulator, str(self.path), str(in_path), str(out_path)]
            try:
                proc = subprocess.run(command, capture_output=True, text=True, timeout=self.timeout)
            except subprocess.TimeoutExpired:
                raise ForeignRunError(f"{sig.name}: {' '.join(command)} timed out after {self.timeout}s") from None
            if proc.returncode != 0:
                raise ForeignRunError(
                    f"{sig.name}: {' '.join(command)} exited with status {proc.returncode}\n{proc.stderr}"
                )
            data = out_path.read_bytes()
        return self._decode(data, shapes)

    def _decode(self, data: bytes, shapes: list[list[tuple[int, ...]]]) -> list[tuple[list[np.ndarray], tuple[Any, ...]]]:
        sig = self.signature
        pos = 0

        def take(dtype: np.dtype[Any], count: int) -> np.ndarray:
            nonlocal pos
            n = count * dtype.itemsize
            if pos + n > len(data):
                raise ForeignRunError(f"{sig.name}: runner output is truncated")
            arr = np.frombuffer(data, dtype.newbyteorder("<"), count, pos).astype(dtype)
            pos += n
            return arr

        cases = []
        for case_shapes in shapes:
            outputs = [take(o.dt.numpy, int(np.prod(s))).reshape(s) for o, s in zip(sig.outputs, case_shapes)]
            results = tuple(take(DTYPES[r].numpy, 1)[0] for r in sig.results)
            cases.append((sig.trim_outputs(outputs, results), results))
        if pos != len(data):
            raise ForeignRunError(f"{sig.name}: runner wrote {len(data) - pos} unexpected trailing bytes")
        return cases


@functools.lru_cache(maxsize=64)
def _kernel(c_source: str, signature: KernelSignature, isa: str) -> ForeignKernel:
    return ForeignKernel(c_source, signature, isa)


def run_foreign(
    c_source: str,
    signature: KernelSignature,
    args: Sequence[Any],
    isa: str = "neon",
    extents: Mapping[str, int] | None = None,
) -> tuple[list[np.ndarray], tuple[Any, ...]]:
    """Run one kernel call under emulation: `args` are the inputs; outputs are allocated as in `call_alloc`."""
    return _kernel(c_source, signature, isa)(*args, extents=extents)


def run_foreign_batch(
    c_source: str,
    signature: KernelSignature,
    cases: Sequence[Sequence[Any]],
    isa: str = "neon",
    extents: Sequence[Mapping[str, int] | None] | None = None,
) -> list[tuple[list[np.ndarray], tuple[Any, ...]]]:
    """Run many input sets through one emulator process (qemu start-up dominates single calls)."""
    return _kernel(c_source, signature, isa).batch(cases, extents)
