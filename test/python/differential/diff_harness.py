"""Shared machinery of the runtime differential tests: compile a corpus program once per ISA,
pick the sizes around its vector widths, make the inputs and references once per size.

A corpus file is compiled whole (one shared object per file and ISA). When that fails, each
of its kernels is compiled on its own (with the declarations it references), so one kernel
the pipeline cannot lower yet fails its own tests only.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from corpus import CorpusCase, Expected
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, VectorType

from loopopt.compile import CompiledKernels, compile, make_context, parse
from loopopt.lowering.abi import find_kernel
from loopopt.tools.loop_run import contracts_fma, fma_contracted, interpret

BASE_SIZES = (0, 1, 1000, 65537)
"""Sizes every case runs at; the vector-width sizes W-1, W, W+1, 2W+3 are added per ISA."""

LARGE = 65537


def df_dependencies(module: ModuleOp, name: str) -> set[str]:
    """`name` and every func it references through df.decl_ref, transitively."""
    from loopopt.dialects.df import DeclRefOp

    todo, seen = [name], set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for op in find_kernel(module, current).walk():
            if isinstance(op, DeclRefOp):
                todo.append(op.decl.root_reference.data)
    return seen


def single_kernel_module(path: Path, name: str) -> ModuleOp:
    """The program of `path` cut down to kernel `name` and the declarations it uses."""
    module = parse(path.read_text(), make_context(), str(path))
    keep = df_dependencies(module, name)
    for op in list(module.ops):
        if isinstance(op, func.FuncOp) and op.sym_name.data not in keep:
            op.detach()
            op.erase()
    return module


@dataclass
class CompiledProgram:
    """One corpus file compiled for one ISA: per kernel, its CompiledKernels or the error."""

    path: Path
    isa: str
    by_kernel: dict[str, CompiledKernels | Exception] = field(default_factory=dict)
    whole_file_error: Exception | None = None

    def get(self, name: str) -> CompiledKernels:
        if name not in self.by_kernel:
            try:
                self.by_kernel[name] = compile(single_kernel_module(self.path, name), target=self.isa)
            except Exception as e:  # reported by the test of that kernel
                self.by_kernel[name] = e
        got = self.by_kernel[name]
        if isinstance(got, Exception):
            raise AssertionError(
                f"{self.path.name}::{name} does not compile for {self.isa}: {type(got).__name__}: {got}"
            ) from got
        return got


class ProgramCache:
    """(corpus file, ISA) -> CompiledProgram, compiled on first use (the .so is cached on disk too)."""

    def __init__(self) -> None:
        self._programs: dict[tuple[Path, str], CompiledProgram] = {}

    def kernel(self, case: CorpusCase, isa: str) -> CompiledKernels:
        key = (case.path, isa)
        program = self._programs.get(key)
        if program is None:
            program = CompiledProgram(case.path, isa)
            try:
                whole = compile(parse(case.path.read_text(), make_context(), str(case.path)), target=isa)
                program.by_kernel = {name: whole for name in whole.functions}
            except Exception as e:
                program.whole_file_error = e
            self._programs[key] = program
        return program.get(case.kernel)


def vector_widths(compiled: CompiledKernels, name: str) -> set[int]:
    """Lane counts of the vectors kernel `name` computes with ({1} when it stays scalar)."""
    widths = {
        t.get_shape()[0]
        for op in find_kernel(compiled.module, name).walk()
        for t in op.result_types
        if isinstance(t, VectorType)
    }
    return widths or {1}


def sizes_for(widths: set[int], large: bool = True) -> list[int]:
    sizes = {n for n in BASE_SIZES if large or n != LARGE}
    for w in widths:
        sizes |= {w - 1, w, w + 1, 2 * w + 3}
    return sorted(s for s in sizes if s >= 0)


_data: dict[tuple[str, int], tuple[Any, Expected]] = {}


def case_data(case: CorpusCase, n: int) -> tuple[Any, Expected]:
    """Inputs of size n (seeded by case and n: the same on every ISA) and their numpy reference.

    Kept for the last few (case, n) so the ISAs of one case share them (tests run case by case).
    """
    key = (case.id, n)
    if key not in _data:
        if len(_data) >= 48:
            del _data[next(iter(_data))]
        rng = np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode()))
        inputs = case.make_inputs(n, rng)
        _data[key] = (inputs, case.reference(inputs))
    return _data[key]


@functools.cache
def contracted_module(path: Path) -> ModuleOp:
    """The df program after the pipeline's FMA contraction (the FMA-aware exact reference)."""
    from corpus import parse_file

    return fma_contracted(parse_file(path))


def expected_for(case: CorpusCase, compiled: CompiledKernels, inputs: Any, ref: Expected) -> tuple[Expected, str]:
    """The reference to compare `compiled` with, and what it is.

    Where the compiled kernel contracts `a*b + c` into an FMA and the case compares floats
    exactly (or in ulps), numpy's twice-rounded expression is not the contract: the reference
    is then the df interpreter running the program after the pipeline's own contraction
    (`df-fuse,loop-simplify{fma=true}`), whose math.fma rounds once (libm's fma), compared
    the same way.
    Reductions keep numpy's reference and their bound (which covers FMA accumulation).
    """
    if not ref.bounds and ref.rtol is None and contracts_fma(compiled.module, case.kernel):
        fused = Expected(interpret(contracted_module(case.path), case.kernel, case.args(inputs)))
        fused.bounds, fused.ulps, fused.rtol = ref.bounds, ref.ulps, ref.rtol
        return fused, "the FMA-contracted program in the interpreter"
    return ref, "numpy"


def fma_reference_is_costly(case: CorpusCase) -> bool:
    """Whether the interpreter runs this kernel element by element (custom folds and scans)."""
    return any(op.name in ("df.fold", "df.scan") or getattr(op, "kind_values", None) == ["custom"]
               for op in find_kernel(case.module(), case.kernel).walk())


def result_extents(case: CorpusCase, ref: Expected) -> dict[str, int]:
    """Axis lengths of the array results (to size outputs on a range's axis)."""
    from loopopt.dialects.df_types import ArrayType

    extents: dict[str, int] = {}
    kernel = find_kernel(case.module(), case.kernel)
    for t, r in zip(kernel.function_type.outputs, ref, strict=True):
        if isinstance(t, ArrayType):
            arr = next(iter(r.values())) if isinstance(r, dict) else r
            extents.update(zip(t.axis_names, np.shape(arr)))
    return extents


# -- hand-written kernels (test_gather, test_scan, test_select_minmax) ----------------------

ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")
"""Every ISA a kernel is run on (each test skips those this machine cannot run)."""


@functools.cache
def compiled_source(source: str, isa: str) -> CompiledKernels:
    """A df program's text compiled with the default pipeline for `isa`, once per run."""
    return compile(source, target=isa)


def run_each(compiled: CompiledKernels, name: str, args_list: list[tuple]) -> list[tuple]:
    """Kernel `name` on each argument tuple: natively with every buffer one element into a
    canary-guarded allocation, or (NEON: no library to load) in one qemu batch."""
    from loopopt.tools.loop_run import run_compiled, run_compiled_batch

    if compiled.library is None:
        return run_compiled_batch(compiled, name, args_list)
    return [run_compiled(compiled, name, args, offset=1) for args in args_list]
