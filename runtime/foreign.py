"""Standalone kernel runners: NEON under qemu user-mode emulation, and sanitized native builds.

An aarch64 shared object cannot be loaded into an x86 Python, and a kernel built with
AddressSanitizer cannot be loaded into an uninstrumented one, so the kernel is linked
with a generated `main` that reads argument sets from a binary file, calls the kernel
on each and writes outputs and results back. How the runner is compiled and started is
a `Toolchain` (compiler, flags, command prefix such as an emulator, environment):
`foreign_toolchain("neon")` here, `loopopt.runtime.sanitize.sanitizer_toolchain(isa)` for
ASan + UBSan. Process start-up (qemu: tens of milliseconds) dominates a single call, so
many argument sets go through one run (`ForeignKernel.batch`), and the binary is cached
on disk like any build. One runner may hold every kernel of a program (`signatures=`):
the program is compiled once and each kernel is selected by its index in the stream.

Every array gets its own allocation of exactly its size in bytes (an input or output of
n elements starting `offset` elements in: `(offset + n) * itemsize` bytes, so 0 bytes for
an empty array at offset 0), so a sanitizer sees an access one past the end.

Stream format (little-endian, both ways): the input file holds the `uint64` index of
the kernel in the runner's signatures and a `uint64` count of cases; per case, the
`int64` element offset of every array (0..MAX_OFFSET), then per parameter in C order: an
input array is its `int64` dims then its raw elements, a scalar is its raw value in its
C type, an output is its `int64` dims (capacity; -1 on a computed axis: the runner asks
the kernel, see `_main_source`). The output file holds, per case, each output's `int64`
dims and raw elements, then each result's raw value. Results come back as numpy
scalars of their dtype, like the native wrapper's, without the computed extents
(`KernelSignature.visible_results`).
"""

from __future__ import annotations

import functools
import operator
import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from . import build
from .isa import COMMON_CFLAGS, FOREIGN_TOOLS, GENERATED_CFLAGS, cflags, check_isa
from .signature import DTYPES, ArrayParam, KernelSignature, ScalarParam

FOREIGN_CFLAGS: tuple[str, ...] = (
    "-O2",
    "-static",
    *(f for f in COMMON_CFLAGS if f not in ("-O3", "-fPIC")),
    *GENERATED_CFLAGS,
)
"""The cross build's flags: the native ones (docs/build_flags.md) at -O2 (compile time under
the qemu tests), static (no aarch64 sysroot at run time), no -fPIC (an executable)."""

NOMEM_STATUS = 4
"""The runner's exit status when a kernel call set errno = ENOMEM (its scratch buffers could not
be had): `ForeignKernel` raises MemoryError, as the native wrapper does."""

MAX_OFFSET = 1 << 16
"""Largest element offset an array may start at inside its allocation."""


class ForeignRunError(RuntimeError):
    """The kernel runner failed (crash, non-zero exit, timeout); carries its status and stderr."""

    def __init__(self, message: str, returncode: int | None = None, stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


@dataclass(frozen=True)
class Toolchain:
    """How a standalone runner is compiled and started."""

    name: str
    """For messages (e.g. "neon under qemu-aarch64", "avx2 with ASan+UBSan")."""
    isa: str
    """The ISA the kernel C was printed for."""
    compiler: str
    flags: tuple[str, ...]
    """Every compiler flag (the ISA's included)."""
    prefix: tuple[str, ...] = ()
    """Command prefix the runner is started under (an emulator), empty to run it directly."""
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables set (over the inherited environment) when the runner runs."""
    libs: tuple[str, ...] = ("-lm",)
    prelude: str = ""
    """C placed before the kernel's (e.g. `loopopt.runtime.sanitize`'s checked intrinsics)."""


def foreign_toolchain(isa: str) -> Toolchain:
    """The cross compiler and emulator of an ISA this host cannot run natively (NEON)."""
    check_isa(isa, allow_native=False)
    if isa not in FOREIGN_TOOLS:
        raise ValueError(f"ISA {isa!r} has no foreign runner (have: {', '.join(FOREIGN_TOOLS)})")
    compiler, emulator = FOREIGN_TOOLS[isa]
    return Toolchain(f"{isa} under {emulator}", isa, compiler, (*FOREIGN_CFLAGS, *cflags(isa)), (emulator,))


def _kernel_runner(sig: KernelSignature, k: int) -> list[str]:
    """`static void loopopt_fr_run_<k>(uint64_t cases)`: every case of the stream through kernel `sig`.

    The kernel is called through a file-scope pointer and the runner's own names start with
    `loopopt_fr_`, so no kernel name can be shadowed by (or shadow) the runner's. An output
    dimension given as -1 is on a computed axis: the runner calls the kernel once with it
    empty (its guard writes nothing there), takes the extent the kernel returned, allocates
    and calls again (two evaluations, as in `KernelSignature.call_alloc`).
    """
    body: list[str] = []
    frees: list[str] = []
    call_args: list[str] = []
    writes: list[str] = []
    allocs: list[str] = []
    sizing: list[str] = []
    index = {id(p): i for i, p in enumerate(sig.params)}
    for i, p in enumerate(sig.params):
        ctype = p.dt.c_type
        if isinstance(p, ArrayParam):
            dims = [f"d{i}_{d}" for d in range(p.rank)]
            dims_array = f"(int64_t[]){{{', '.join(dims)}}}"
            body.append(f"        int64_t {', '.join(dims)};")
            body += [f"        loopopt_fr_read(&{d}, sizeof {d});" for d in dims]
            body.append(f"        size_t n{i} = loopopt_fr_count({p.rank}, {dims_array});")
            if p.output:
                body.append(f"        void *b{i} = NULL;")
                body.append(f"        {ctype} *a{i} = NULL;")
                allocs.append(f"        free(b{i});")
                allocs.append(f"        n{i} = loopopt_fr_count({p.rank}, {dims_array});")
                allocs.append(f"        b{i} = loopopt_fr_alloc(n{i}, sizeof({ctype}), off);")
                allocs.append(f"        a{i} = ({ctype} *)b{i} + off;")
                writes += [f"        loopopt_fr_write(&{d}, sizeof {d});" for d in dims]
                writes.append(f"        loopopt_fr_write(a{i}, n{i} * sizeof({ctype}));")
            else:
                body.append(f"        void *b{i} = loopopt_fr_alloc(n{i}, sizeof({ctype}), off);")
                body.append(f"        {ctype} *a{i} = ({ctype} *)b{i} + off;")
                body.append(f"        loopopt_fr_read(a{i}, n{i} * sizeof({ctype}));")
            frees.append(f"        free(b{i});")
            call_args += [f"a{i}", *dims]
        else:
            body.append(f"        {ctype} s{i};")
            body.append(f"        loopopt_fr_read(&s{i}, sizeof s{i});")
            call_args.append(f"s{i}")
    for o in sig.outputs:
        i = index[id(o)]
        for d, _, j in sig.computed_dims(o):
            sizing.append(f"        if (d{i}_{d} < 0) {{ d{i}_{d} = r{j} > 0 ? r{j} : 0; query = 1; }}")
    body += [f"        {DTYPES[r].c_type} r{j} = 0;" for j, r in enumerate(sig.results)]
    if len(sig.results) >= 2:
        call_args += [f"&r{j}" for j in range(len(sig.results))]
    call = f"loopopt_fr_kernel_{k}({', '.join(call_args)});"
    call = f"r0 = {call}" if len(sig.results) == 1 else call
    # ENOMEM after the call: the kernel's scratch could not be had (docs/calling_convention.md,
    # "Out of memory"); the runner stops with NOMEM_STATUS and Python raises MemoryError
    call = f"errno = 0; {call} if (errno == ENOMEM) loopopt_fr_nomem();"
    if sizing:
        # first call: outputs on computed axes empty (the -1 dims read as 0)
        body.append("        int query = 0;")
        saved = [f"        int64_t q{i}_{d} = d{i}_{d}; if (d{i}_{d} < 0) d{i}_{d} = 0;"
                 for o in sig.outputs for i in [index[id(o)]] for d, _, _ in sig.computed_dims(o)]
        restore = [f"        d{i}_{d} = q{i}_{d};"
                   for o in sig.outputs for i in [index[id(o)]] for d, _, _ in sig.computed_dims(o)]
        body += saved + allocs + [f"        {call}"] + restore + sizing
        body.append("        if (query) {")
        body += ["    " + line for line in allocs]
        body.append(f"            {call}")
        body.append("        }")
    else:
        body += allocs + [f"        {call}"]
    writes += [f"        loopopt_fr_write(&r{j}, sizeof r{j});" for j in range(len(sig.results))]
    types = [t for p in sig.params for t in p.c_params()]
    if len(sig.results) >= 2:
        types += [f"{DTYPES[r].c_type} *restrict" for r in sig.results]
    return [
        sig.c_declaration(),
        f"static {sig.return_c_type} (*const loopopt_fr_kernel_{k})({', '.join(types) or 'void'}) = {sig.name};",
        f"static void loopopt_fr_run_{k}(uint64_t cases) {{",
        "    for (uint64_t c = 0; c < cases; c++) {",
        "        int64_t off;",
        "        loopopt_fr_read(&off, sizeof off);",
        f"        if (off < 0 || off > {MAX_OFFSET}) loopopt_fr_fail(\"bad offset\");",
        *body,
        *writes,
        *frees,
        "    }",
        "}",
    ]


def _main_source(c_source: str, sigs: Sequence[KernelSignature], prelude: str = "") -> str:
    """The runner: `prelude`, the kernels' C, one `loopopt_fr_run_<k>` per signature, and a
    `main` that reads the kernel index and the case count and runs every case."""
    runners = [line for k, sig in enumerate(sigs) for line in _kernel_runner(sig, k)]
    dispatch = [f"    case {k}: loopopt_fr_run_{k}(cases); break;" for k in range(len(sigs))]
    return "\n".join(
        [
            "#include <errno.h>",
            "#include <stdint.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "#include <string.h>",
            *([prelude] if prelude else []),
            '#line 1 "kernel.c"',
            c_source,
            '#line 1 "loopopt_foreign_main.c"',
            "static FILE *loopopt_fr_in, *loopopt_fr_out;",
            "static void loopopt_fr_fail(const char *what) { fprintf(stderr, \"loopopt runner: %s\\n\", what); exit(3); }",
            f"static void loopopt_fr_nomem(void) {{ fputs(\"loopopt runner: kernel out of memory\\n\", stderr); exit({NOMEM_STATUS}); }}",
            "static void loopopt_fr_read(void *p, size_t n) { if (n && fread(p, 1, n, loopopt_fr_in) != n) loopopt_fr_fail(\"truncated input\"); }",
            "static void loopopt_fr_write(const void *p, size_t n) { if (n && fwrite(p, 1, n, loopopt_fr_out) != n) loopopt_fr_fail(\"write failed\"); }",
            "static size_t loopopt_fr_count(int rank, const int64_t *dims) {",
            "    size_t n = 1;",
            "    for (int d = 0; d < rank; d++) {",
            "        size_t e = dims[d] > 0 ? (size_t)dims[d] : 0;",
            "        if (e && n > SIZE_MAX / e) loopopt_fr_fail(\"length too large\");",
            "        n *= e;",
            "    }",
            "    return n;",
            "}",
            "/* Exactly (off + n) * size bytes, zeroed: an access past the end is outside the allocation. */",
            "static void *loopopt_fr_alloc(size_t n, size_t size, int64_t off) {",
            "    if (n > SIZE_MAX / size - (size_t)off) loopopt_fr_fail(\"length too large\");",
            "    void *p = calloc(n + (size_t)off, size);",
            "    if (p == NULL && n + (size_t)off == 0) p = malloc(1); /* a libc whose calloc(0) is NULL */",
            "    if (p == NULL) loopopt_fr_fail(\"out of memory\");",
            "    return p;",
            "}",
            *runners,
            "int main(int argc, char **argv) {",
            "    if (argc != 3) loopopt_fr_fail(\"usage: runner INPUT OUTPUT\");",
            '    loopopt_fr_in = fopen(argv[1], "rb");',
            '    loopopt_fr_out = fopen(argv[2], "wb");',
            "    if (loopopt_fr_in == NULL || loopopt_fr_out == NULL) loopopt_fr_fail(\"cannot open files\");",
            "    uint64_t kernel, cases;",
            "    loopopt_fr_read(&kernel, sizeof kernel);",
            "    loopopt_fr_read(&cases, sizeof cases);",
            "    switch (kernel) {",
            *dispatch,
            "    default: loopopt_fr_fail(\"no such kernel\");",
            "    }",
            "    if (fclose(loopopt_fr_out) != 0) loopopt_fr_fail(\"write failed\");",
            "    fclose(loopopt_fr_in);",
            "    return 0;",
            "}",
            "",
        ]
    )


def _encode_scalar(sig: KernelSignature, p: ScalarParam, value: Any) -> bytes:
    try:
        if p.dtype in ("f16", "bf16", "f32", "f64"):
            if isinstance(value, str | bytes | bytearray):  # float() parses text; the native wrapper does not
                raise TypeError
            v: Any = float(value)  # f16 / bf16: rounded by numpy / ml_dtypes below, as the native wrapper does
        elif p.dtype == "bool":
            if value not in (0, 1) or isinstance(value, float):
                raise TypeError
            v = bool(value)
        else:
            v = operator.index(value)
            info = np.iinfo(p.dt.numpy)
            hi = np.iinfo(p.dt.unsigned).max if p.dt.unsigned is not None else info.max  # i8: -128..255
            if not info.min <= v <= hi:
                raise OverflowError(f"{sig.name}(): parameter {p.name!r} = {v} is out of range for {p.dtype}")
            v = (v - info.min) % (1 << (8 * p.dt.itemsize)) + info.min  # the bits, read signed
    except (TypeError, ValueError):
        raise TypeError(
            f"{sig.name}(): parameter {p.name!r} expects a {p.dtype} scalar, found {type(value).__name__}"
        ) from None
    with np.errstate(over="ignore"):  # a float beyond f16 / f32 is inf, as in the native wrapper
        return np.array(v, p.dt.numpy.newbyteorder("<")).tobytes()


def _encode_case(
    sig: KernelSignature, inputs: Sequence[Any], extents: Mapping[str, int] | None, offset: int = 0
) -> tuple[bytes, list[tuple[int, ...]]]:
    """One case of the input stream and its output shapes, after the checks the native wrapper makes."""
    if len(inputs) != len(sig.inputs):
        raise TypeError(
            f"{sig.name}() takes {len(sig.inputs)} inputs ({', '.join(p.name for p in sig.inputs)}) "
            f"but {len(inputs)} were given"
        )
    offset = operator.index(offset)
    if not 0 <= offset <= MAX_OFFSET:
        raise ValueError(f"{sig.name}: offset {offset} is outside 0..{MAX_OFFSET}")
    parts: list[bytes] = [np.array(offset, "<i8").tobytes()]
    for p, x in zip(sig.inputs, inputs):
        if isinstance(p, ScalarParam):
            parts.append(_encode_scalar(sig, p, x))
            continue
        assert isinstance(p, ArrayParam)
        if not isinstance(x, np.ndarray):
            raise TypeError(f"{sig.name}(): parameter {p.name!r} expects a numpy array, found {type(x).__name__}")
        if not p.dt.accepts(x.dtype):
            raise TypeError(f"{sig.name}(): parameter {p.name!r} expects dtype {p.dt.numpy}, found {x.dtype}")
        if x.ndim != p.rank:
            raise ValueError(f"{sig.name}(): parameter {p.name!r} expects a rank-{p.rank} array, found rank {x.ndim}")
        parts.append(np.array(x.shape, "<i8").tobytes())
        parts.append(np.ascontiguousarray(x, x.dtype.newbyteorder("<")).tobytes())
    computed = dict(sig.extents)
    sig.check_steps(inputs)
    known = {a: n for a, n in (extents or {}).items() if a not in computed}
    shapes = sig.output_shapes(inputs, {**known, **{a: -1 for a in computed}})
    for shape in shapes:
        parts.append(np.array(shape, "<i8").tobytes())
    return b"".join(parts), shapes


class ForeignKernel:
    """One kernel in a standalone runner; call it (or `batch` it) like `Library.call_alloc`.

    By default the runner is built for a foreign ISA (`foreign_toolchain(isa)`, NEON under
    qemu when `isa` is not given); `toolchain` builds and runs it another way (`loopopt.runtime.sanitize`).
    `signatures`, when given, are every kernel of `c_source` (including `signature`): the
    runner then holds them all, so the kernels of one program share one executable (the
    build cache finds it by content).
    """

    def __init__(
        self,
        c_source: str,
        signature: KernelSignature,
        isa: str | None = None,
        timeout: float = 120.0,
        *,
        toolchain: Toolchain | None = None,
        signatures: Sequence[KernelSignature] | None = None,
    ):
        if toolchain is None:
            toolchain = foreign_toolchain("neon" if isa is None else isa)
        elif isa is not None and toolchain.isa != isa:
            raise ValueError(f"{signature.name}: toolchain {toolchain.name!r} is for {toolchain.isa}, not {isa}")
        sigs = list(signatures) if signatures is not None else [signature]
        if signature not in sigs:
            raise ValueError(f"{signature.name}: not among the runner's signatures")
        names = [s.name for s in sigs]
        if len(set(names)) != len(names):
            raise ValueError(f"runner signatures repeat a kernel name: {', '.join(names)}")
        self.signature = signature
        self.isa = toolchain.isa
        self.toolchain = toolchain
        self.timeout = timeout
        self.index = sigs.index(signature)
        self.path = build.build(
            _main_source(c_source, sigs, toolchain.prelude),
            list(toolchain.flags),
            compiler=toolchain.compiler,
            shared=False,
            libs=toolchain.libs,
        )

    def __call__(
        self, *inputs: Any, extents: Mapping[str, int] | None = None, **named_inputs: Any
    ) -> tuple[list[np.ndarray], tuple[Any, ...]]:
        """Inputs by position and/or by parameter name (as `loopopt.compile`'s `call`)."""
        if named_inputs:
            from loopopt.compile import bind_inputs

            inputs = tuple(bind_inputs(self.signature, inputs, named_inputs))
        return self.batch([inputs], None if extents is None else [extents])[0]

    def batch(
        self,
        cases: Sequence[Sequence[Any]],
        extents: Sequence[Mapping[str, int] | None] | None = None,
        offsets: Sequence[int] | None = None,
    ) -> list[tuple[list[np.ndarray], tuple[Any, ...]]]:
        """Evaluate many argument sets in one runner process; returns (outputs, results) per case.

        Outputs are sized as in `KernelSignature.output_shapes`; `extents`, if given, holds
        one mapping (or None) per case for the axes no input has. `offsets`, if given, holds
        per case the number of elements every array (inputs and outputs) of that case
        starts into its allocation (1 for an unaligned start); default 0.
        """
        sig = self.signature
        if extents is not None and len(extents) != len(cases):
            raise ValueError(f"{sig.name}: {len(extents)} extents for {len(cases)} cases")
        if offsets is not None and len(offsets) != len(cases):
            raise ValueError(f"{sig.name}: {len(offsets)} offsets for {len(cases)} cases")
        encoded = [
            _encode_case(
                sig,
                inputs,
                extents[k] if extents is not None else None,
                offsets[k] if offsets is not None else 0,
            )
            for k, inputs in enumerate(cases)
        ]
        shapes = [case_shapes for _, case_shapes in encoded]
        header = self.index.to_bytes(8, "little") + len(cases).to_bytes(8, "little")
        stream = header + b"".join(data for data, _ in encoded)
        with tempfile.TemporaryDirectory(prefix="loopopt_foreign_") as tmp:
            in_path, out_path = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
            in_path.write_bytes(stream)
            command = [*self.toolchain.prefix, str(self.path), str(in_path), str(out_path)]
            env = {**os.environ, **dict(self.toolchain.env)} if self.toolchain.env else None
            try:
                proc = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                      timeout=self.timeout, env=env)
            except subprocess.TimeoutExpired:
                raise ForeignRunError(f"{sig.name}: {' '.join(command)} timed out after {self.timeout}s") from None
            if proc.returncode != 0:
                raise self._failure(command, proc.returncode, proc.stderr)
            data = out_path.read_bytes()
        return self._decode(data, shapes)

    def _failure(self, command: Sequence[str], returncode: int, stderr: str) -> ForeignRunError | MemoryError:
        """The error for a runner that exited with `returncode` (a subclass may classify it)."""
        if returncode == NOMEM_STATUS and "loopopt runner: kernel out of memory" in stderr:
            return MemoryError(f"{self.signature.name}(): out of memory for the kernel's scratch buffers")
        return ForeignRunError(
            f"{self.signature.name}: {' '.join(command)} exited with status {returncode}\n{stderr}", returncode, stderr
        )

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
            outputs = []
            for o, s in zip(sig.outputs, case_shapes):
                dims = tuple(int(d) for d in take(np.dtype(np.int64), len(s)))
                if any(d < 0 for d in dims) or any(want >= 0 and want != d for want, d in zip(s, dims)):
                    raise ForeignRunError(f"{sig.name}: runner wrote output {o.name!r} with dims {dims}, expected {s}")
                outputs.append(take(o.dt.numpy, int(np.prod(dims))).reshape(dims))
            results = tuple(take(DTYPES[r].numpy, 1)[0] for r in sig.results)
            sig.check_computed_extents([o.shape for o in outputs], results)
            visible = tuple(results[j] for j in sig.visible_results)
            cases.append((sig.trim_outputs(outputs, results), visible))
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
