"""Every implementation `loop-bench` compares, built once per run and looked up per cell.

Columns: `loopopt/<isa>` (the generated C, per ISA this CPU runs), `kernels/<isa>` (the
hand-written library), `gcc` (plain loop, `-O3 -march=native`), `gcc-ffast-math` (float
reductions only), `numpy` (plus `numpy:<expr>` for extra spellings) and `BLAS` (numpy's `@`),
each only for the patterns that declare that baseline (`BenchPattern.baselines`). The C ones are
built with repeat wrappers (bench/harness.py) through `loopopt.runtime.compile_library`, with
the same flags `loopopt.compile` / `loopopt.kernels` use for that ISA. Builds run on a
thread pool: gcc runs outside the GIL.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from loopopt import runtime

from . import baselines as baselines
from .harness import with_wrappers, wrapper_name
from .generated import LoopoptBuild, compile_isa, first_line
from .patterns import BLAS, GCC_BASELINE, KERNELS, NUMPY_BASELINE, BenchPattern, aligned_empty
from .rows import BLAS_EXPRS
from .timing import Runner, python_loop

GCC = "gcc"
GCC_FAST = "gcc-ffast-math"
NUMPY = "numpy"
BLAS_LABEL = "BLAS"


def loopopt_label(isa: str) -> str:
    return f"loopopt/{isa}"


def kernels_label(isa: str) -> str:
    return f"kernels/{isa}"


@dataclass
class Built:
    """The compiled libraries of one run (a value or the error that replaced it)."""

    isas: tuple[str, ...]
    loopopt: dict[str, LoopoptBuild] = field(default_factory=dict)
    loopopt_libs: dict[str, runtime.Library | str] = field(default_factory=dict)
    """Kernel name + ISA key `<isa>:<kernel>` -> wrapper library, or the build error."""
    kernels: dict[str, runtime.Library | str] = field(default_factory=dict)
    gcc: dict[str, runtime.Library | str] = field(default_factory=dict)
    stream: runtime.Library | str = "not built"


def _try(build: Callable[[], runtime.Library]) -> runtime.Library | str:
    try:
        return build()
    except Exception as e:
        return first_line(e)


def _loopopt_libraries(build: LoopoptBuild) -> dict[str, runtime.Library | str]:
    """Wrapper libraries for loopopt's kernels, one per distinct C source (usually one per ISA)."""
    groups: dict[str, list[str]] = {}
    for name, source in build.c_sources.items():
        groups.setdefault(source, []).append(name)
    libs: dict[str, runtime.Library | str] = {}
    for source, names in groups.items():
        src, sigs = with_wrappers(source, [build.signatures[n] for n in names])
        lib = _try(lambda: runtime.compile_library(src, sigs, isa=build.isa))
        libs.update({f"{build.isa}:{n}": lib for n in names})
    return libs


def build_all(
    patterns: Sequence[BenchPattern], dtypes: Sequence[str], isas: Sequence[str], *, with_loopopt: bool = True
) -> Built:
    """Compile loopopt's programs, the kernel library, the gcc baselines and STREAM for this run."""
    from loopopt import kernels

    cells = [(p, d) for p in patterns for d in dtypes if d in p.dtypes]
    built = Built(tuple(isas))

    def kernel_lib(isa: str) -> runtime.Library:
        hand = [(p, d, *p.hand_kernel(d, isa)) for p, d in cells if p.has(KERNELS)]
        glue = "".join(dict.fromkeys(g for *_, g in hand if g))
        sigs = [p.c_signature(name, d) for p, d, name, _ in hand]
        src, wsigs = with_wrappers(kernels.isa_source(isa) + glue, sigs)
        return runtime.compile_library(src, wsigs, isa=isa)

    def gcc_lib(flags: tuple[str, ...], subset: list[tuple[BenchPattern, str]]) -> runtime.Library:
        src, sigs = gcc_program_wrapped(subset)
        return runtime.compile_library(src, sigs, isa="native", extra_cflags=flags)

    def gcc_program_wrapped(subset: list[tuple[BenchPattern, str]]):
        src, sigs = baselines.gcc_program(subset)
        return with_wrappers(src, sigs)

    def stream_lib() -> runtime.Library:
        src, sigs = with_wrappers(baselines.STREAM_SOURCE, baselines.STREAM_SIGNATURES)
        return runtime.compile_library(src, sigs, isa="native")

    def loopopt_isa(isa: str) -> tuple[LoopoptBuild, dict[str, runtime.Library | str]]:
        b = compile_isa(patterns, dtypes, isa)
        return b, _loopopt_libraries(b)

    gcc_cells = [(p, d) for p, d in cells if p.has(GCC_BASELINE)]
    fast_cells = [(p, d) for p, d in gcc_cells if p.reduction and d == "f32"]
    with_kernels = any(p.has(KERNELS) for p, _ in cells)
    with ThreadPoolExecutor(max_workers=2) as pool:
        k_futures = {isa: pool.submit(_try, lambda isa=isa: kernel_lib(isa)) for isa in isas} if with_kernels else {}
        g_future = pool.submit(_try, lambda: gcc_lib(baselines.GCC_FLAGS, gcc_cells))
        gf_future = pool.submit(_try, lambda: gcc_lib(baselines.GCC_FAST_MATH_FLAGS, fast_cells)) if fast_cells else None
        s_future = pool.submit(_try, stream_lib)
        # loopopt's pipeline is Python (GIL-bound): run it here while gcc builds the rest.
        if with_loopopt:
            for isa in isas:
                built.loopopt[isa], libs = loopopt_isa(isa)
                built.loopopt_libs.update(libs)
        built.kernels = {isa: f.result() for isa, f in k_futures.items()}
        built.gcc[GCC] = g_future.result()
        if gf_future is not None:
            built.gcc[GCC_FAST] = gf_future.result()
        built.stream = s_future.result()
    return built


# --------------------------------------------------------------------------- per cell


@dataclass
class Candidate:
    """One implementation of one cell: how to run it `reps` times and how to check it once."""

    label: str
    run: Runner | None
    check: Callable[[], tuple[np.ndarray | None, Any]] | None = None
    """Runs it once and returns (output trimmed to its count, scalar result)."""
    error: str | None = None


def _c_candidate(label: str, lib: runtime.Library | str | None, kernel: str, pattern: BenchPattern,
                 inputs: tuple[Any, ...], out: np.ndarray | None) -> Candidate:
    if lib is None:
        return Candidate(label, None, error="not built")
    if isinstance(lib, str):
        return Candidate(label, None, error=f"build failed: {lib}")
    try:
        fn = lib[wrapper_name(kernel)]
    except Exception as e:  # a kernel missing from its library costs its cell, not the run
        return Candidate(label, None, error=f"not in the library: {first_line(e)}")
    outs = (out,) if out is not None else ()

    def run(reps: int) -> None:
        fn(*inputs, reps, *outs)

    def check() -> tuple[np.ndarray | None, Any]:
        if out is not None:
            out.fill(0)
        result = fn(*inputs, 1, *outs)
        if pattern.kind == "filter_map":
            assert out is not None
            return out[: int(result)].copy(), int(result)
        return (out.copy() if out is not None else None), result

    return Candidate(label, run, check)


def candidates(built: Built, pattern: BenchPattern, dtype: str, x: np.ndarray, y: np.ndarray,
               out: np.ndarray | None = None) -> list[Candidate]:
    """Every implementation of (pattern, dtype) on data x, y that the pattern has a baseline for, in table column order;
    writing into `out` (a buffer shaped like `pattern.out_buffer`'s, bench/placement.py), else into a new one."""
    inputs = pattern.inputs(x, y, dtype)
    out = pattern.out_buffer(len(x), dtype) if out is None else out
    found: list[Candidate] = []
    for isa in built.isas:
        name = pattern.kernel(dtype)
        build = built.loopopt.get(isa)
        label = loopopt_label(isa)
        if build is None:
            found.append(Candidate(label, None, error="loopopt not run (--no-loopopt)"))
        elif name in build.errors:
            found.append(Candidate(label, None, error=build.errors[name]))
        else:
            found.append(_c_candidate(label, built.loopopt_libs.get(f"{isa}:{name}"), name, pattern, inputs, out))
    if pattern.has(KERNELS):
        for isa in built.isas:
            found.append(_c_candidate(kernels_label(isa), built.kernels.get(isa), pattern.hand_kernel(dtype, isa)[0],
                                      pattern, inputs, out))
    if pattern.has(GCC_BASELINE):
        found.append(_c_candidate(GCC, built.gcc.get(GCC), baselines.gcc_name(pattern, dtype), pattern, inputs, out))
        if pattern.reduction and dtype == "f32":
            found.append(_c_candidate(GCC_FAST, built.gcc.get(GCC_FAST), baselines.gcc_name(pattern, dtype), pattern, inputs, out))
    if pattern.has(NUMPY_BASELINE):
        for i, expr in enumerate(pattern.numpy):
            label = NUMPY if i == 0 else f"{NUMPY}:{expr.label}"
            found.append(Candidate(label, python_loop(expr.run, *inputs)))
    if pattern.has(BLAS):
        found.append(Candidate(BLAS_LABEL, python_loop(BLAS_EXPRS[pattern.name].run, *inputs)))
    return found


def stream_runners(built: Built, n: int, kinds: Collection[str] | None = None) -> dict[str, Runner] | str:
    """STREAM runners at n f32 elements: `<kind>` (plain stores) and `<kind>-nt` (non-temporal),
    for `kinds` (default all), on buffers of their own (only those the kinds use)."""
    if isinstance(built.stream, str):
        return built.stream
    lib = built.stream
    kinds = list(baselines.STREAM_KERNELS) if kinds is None else [k for k in baselines.STREAM_KERNELS if k in kinds]
    x = aligned_empty(n, "f32")
    x.fill(1.0)
    y = out = x  # replaced below when a kind reads y or writes out
    if "triad" in kinds:
        y = aligned_empty(n, "f32")
        y.fill(2.0)
    if {"copy", "triad"} & set(kinds):
        out = aligned_empty(n, "f32")
        out.fill(0.0)
    args = {"copy": (x,), "triad": (x, y, np.float32(3.0)), "read": (x,)}
    outs = {"copy": (out,), "triad": (out,), "read": ()}
    runners: dict[str, Runner] = {}
    for kind in kinds:
        plain, nt = baselines.STREAM_KERNELS[kind]
        for label, kernel in ((kind, plain), (f"{kind}-nt", nt)):
            if kind == "read" and label.endswith("-nt"):
                continue
            fn = lib[wrapper_name(kernel)]
            runners[label] = lambda reps, fn=fn, a=args[kind], o=outs[kind]: fn(*a, reps, *o)
    return runners
