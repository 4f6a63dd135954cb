"""The df interpreter corpus: kernels in test/corpus/df/*.mlir with their numpy references.

Every kernel in the corpus has one `// REF:` header line in its file, in the format of
`loopopt.tools.ref_header` (inputs, float tolerance, numpy reference), which loop-run reads too:

    // REF: kernel=@sumsq inputs=x:f32[n] tol=reduction:x*x ref=np.sum(x*x, dtype=np.float32)

API (reused by the pass tests to run the corpus before and after a pass):
    for case in load_corpus():
        inputs = case.make_inputs(n, rng)
        got = case.run(inputs)                      # or run_function(transformed, case.kernel, *case.args(inputs))
        case.compare(got, case.reference(inputs))   # raises AssertionError naming the result
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser

from loopopt.tools.ref_header import InputSpec, RefHeader, parse_ref_headers

CORPUS_DIR = Path(__file__).resolve().parents[2] / "corpus" / "df"

SIZES = (0, 1, 7, 8, 9, 1000, 1009)
"""Sizes every case runs at: empty, one, around a vector width of 8, large, and a prime."""

INTERPRETER_BUDGET = 16_384
"""Elements of a kernel's largest iteration space (`CorpusCase.work`) above which the tests
that run a kernel element by element in loopopt's loop and simd interpreters skip a size
(`interpreted_sizes`). A matrix product at n = 1000 has 437k (its rank-3 products): minutes of
interpreting that test nothing size 9 does not, since its loop nest does not depend on n;
every size still runs compiled (test/python/differential) and in the df interpreter."""


def context() -> Context:
    """A context with the dialects corpus files use."""
    from loopopt.dialects.df import DF

    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, math.Math, DF):
        ctx.load_dialect(d)
    return ctx


@cache
def parse_file(path: Path) -> ModuleOp:
    module = Parser(context(), path.read_text(), str(path)).parse_module()
    module.verify()
    return module


class Inputs(dict):
    """Kernel inputs by argument name (in argument order), remembering the size `n`."""

    def __init__(self, n: int, values: dict[str, Any]):
        super().__init__(values)
        self.n = n


class Expected(tuple):
    """The reference results, with the absolute error bound of each (None: exact)."""

    bounds: tuple[float | None, ...]
    ulps: int | None
    rtol: float | None


@dataclass
class CorpusCase:
    """One kernel of the corpus: its file and REF header (inputs, numpy reference, tolerance)."""

    path: Path
    header: RefHeader

    @property
    def kernel(self) -> str:
        return self.header.kernel

    @property
    def inputs(self) -> tuple[InputSpec, ...]:
        return self.header.inputs

    @property
    def tol(self) -> str:
        return self.header.tol

    @property
    def line(self) -> int:
        return self.header.line

    @property
    def id(self) -> str:
        return f"{self.path.name}::{self.kernel}"

    def module(self) -> ModuleOp:
        """The parsed, verified module of this case's file (shared, do not mutate)."""
        return parse_file(self.path)

    def text(self) -> str:
        return self.path.read_text()

    def make_inputs(self, n: int, rng: np.random.Generator) -> Inputs:
        """Random inputs of size n, by argument name, in argument order."""
        return Inputs(n, self.header.make_inputs(n, rng))

    def args(self, inputs: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(inputs[s.name] for s in self.inputs)

    def work(self, n: int) -> int:
        """Elements of the kernel's largest array at size n, intermediates included (a matrix
        product's rank-3 products: i * k * j): what an element-by-element interpreter runs."""
        return _work(self.path, self.kernel, n)

    def interpreted_sizes(self, sizes: Sequence[int]) -> tuple[int, ...]:
        """`sizes` without those whose work exceeds INTERPRETER_BUDGET (sizes up to 9 stay)."""
        return tuple(n for n in sizes if n <= 9 or self.work(n) <= INTERPRETER_BUDGET)

    def run(self, inputs: dict[str, Any], module: ModuleOp | None = None) -> tuple[Any, ...]:
        """The kernel's results through loopopt's interpreter (on `module` if given)."""
        from loopopt.interp.runner import run_function

        return run_function(module or self.module(), self.kernel, *self.args(inputs))

    def reference(self, inputs: dict[str, Any]) -> Expected:
        size = inputs.n if isinstance(inputs, Inputs) else _size(inputs)
        ref = Expected(self.header.reference(inputs, size))
        tol = self.header.tolerance(inputs, size)
        ref.bounds = (tol.value,) * len(ref) if tol.kind == "bound" else ()
        ref.ulps = int(tol.value) if tol.kind == "ulp" else None  # type: ignore[arg-type]
        ref.rtol = tol.value if tol.kind == "close" else None
        return ref

    def compare(self, got: Sequence[Any], ref: Expected) -> None:
        """Assert `got` matches `ref`: integers and exact cases bit-exact, floats within the tol."""
        assert len(got) == len(ref), f"{self.id}: {len(got)} results, expected {len(ref)}"
        for k, (g, r) in enumerate(zip(got, ref, strict=True)):
            self._compare_one(f"{self.id} result {k}", g, r, ref, k)

    def _compare_one(self, what: str, g: Any, r: Any, ref: Expected, k: int) -> None:
        if isinstance(r, dict):
            assert isinstance(g, dict) and list(g) == list(r), f"{what}: fields {list(g)}, expected {list(r)}"
            for f in r:
                self._compare_one(f"{what}.{f}", g[f], r[f], ref, k)
            return
        if isinstance(r, tuple):
            assert isinstance(g, tuple) and len(g) == len(r), f"{what}: {g!r}, expected tuple {r!r}"
            for j, (gj, rj) in enumerate(zip(g, r, strict=True)):
                self._compare_one(f"{what}[{j}]", gj, rj, ref, k)
            return
        r = np.asarray(r)
        g = np.asarray(g)
        assert g.dtype == r.dtype, f"{what}: dtype {g.dtype}, expected {r.dtype}"
        assert g.shape == r.shape, f"{what}: shape {g.shape}, expected {r.shape}"
        if not np.issubdtype(r.dtype, np.floating):
            np.testing.assert_array_equal(g, r, err_msg=what)
            return
        if ref.bounds:
            ok = np.abs(g.astype(np.float64) - r.astype(np.float64)) <= ref.bounds[k]
            ok |= np.isnan(g) & np.isnan(r)
            ok |= np.isinf(r) & (g == r)
            assert np.all(ok), f"{what}: {g} vs {r}, bound {ref.bounds[k]:.3g}"
        elif ref.ulps is not None:
            np.testing.assert_array_max_ulp(g, r, maxulp=ref.ulps)
        elif ref.rtol is not None:
            with np.errstate(invalid="ignore"):  # inf - inf
                ok = np.abs(g.astype(np.float64) - r.astype(np.float64)) <= ref.rtol * (1 + np.abs(r))
            ok &= np.isfinite(r)  # rtol * (1 + inf) would accept any finite value
            ok |= np.isnan(g) & np.isnan(r)
            ok |= np.isinf(r) & (g == r)
            assert np.all(ok), f"{what}: {g} vs {r} (rtol {ref.rtol})"
        else:
            np.testing.assert_array_equal(g, r, err_msg=what)  # NaNs compare equal here


@cache
def _cases_by_kernel(directory: Path) -> dict[tuple[Path, str], CorpusCase]:
    return {(c.path, c.kernel): c for c in load_corpus(directory)}


@cache
def _work(path: Path, kernel: str, n: int) -> int:
    from loopopt.dialects.df_types import ArrayType
    from loopopt.lowering.abi import find_kernel

    case = _cases_by_kernel(path.parent)[path, kernel]
    func_op = find_kernel(case.module(), kernel)
    extents: dict[str, int] = {}
    for t, v in zip(func_op.function_type.inputs, case.args(case.make_inputs(n, np.random.default_rng(0))), strict=True):
        if isinstance(t, ArrayType):
            extents.update(zip(t.axis_names, np.shape(next(iter(v.values())) if isinstance(v, dict) else v)))
    types = [t for op in func_op.walk() for t in (*op.operand_types, *op.result_types) if isinstance(t, ArrayType)]
    return max((int(np.prod([extents.get(a, n) for a in t.axis_names])) for t in types), default=0)


def _size(inputs: dict[str, Any]) -> int:
    for v in inputs.values():
        if isinstance(v, dict):
            v = next(iter(v.values()))
        if isinstance(v, np.ndarray) and v.ndim:
            return v.shape[0]
    return 0


def load_corpus(directory: Path = CORPUS_DIR) -> list[CorpusCase]:
    """Every REF'd kernel of every corpus file, in file and line order."""
    return [
        CorpusCase(path, header)
        for path in sorted(directory.glob("*.mlir"))
        for header in parse_ref_headers(path.read_text(), str(path)).values()
    ]
