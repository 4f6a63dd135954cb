"""The df interpreter corpus: kernels in test/corpus/df/*.mlir with their numpy references.

Every kernel in the corpus has one header line in its file:

    // REF: kernel=@sumsq inputs=x:f32[n] tol=reduction:x*x ref=np.sum(x*x, dtype=np.float32)

Fields (space separated; `ref=` comes last and takes the rest of the line):
* `kernel=@name`  the func.func to run.
* `inputs=SPEC;SPEC;...`  one spec per kernel argument, in order:
    - `x:f32[n]`, `m:i64[n,3]`   an array; dims are Python expressions in the size `n`;
    - `a:f32`                    a random scalar;  `s:i64=n//2` a scalar given by an expression in n;
    - `p:{x:f32,y:f32}[n]`       an array of records, made as a dict of field arrays;
    - optional `~LO:HI` after any spec: the value range (default floats [-1, 1), integers
      [-1000, 1000], i1 random booleans).
* `tol=...`  how float results are compared (integer results are always exact):
    - `exact` (the default): bit-exact, NaNs equal;
    - `ulp:K`: within K units in the last place of the reference (elementwise math);
    - `reduction:EXPR`: |got - ref| <= 2 (m + 1) eps sum|t| + tiny, with t = EXPR evaluated on
      the inputs (the reduced terms) and m their count: the bound of any summation order;
    - `close:RTOL`: |got - ref| <= RTOL (1 + |ref|) (compound formulas such as a variance).
* `ref=EXPR`  a Python expression over the inputs (by name), `n`, `np` and the helpers
  `fold(fn, init, *arrays)` and `scan(fn, init, x)`; a tuple for several results.

API (reused by the pass tests to run the corpus before and after a pass):
    for case in load_corpus():
        inputs = case.make_inputs(n, rng)
        got = case.run(inputs)                      # or run_function(transformed, case.kernel, *case.args(inputs))
        case.compare(got, case.reference(inputs))   # raises AssertionError naming the result
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser

CORPUS_DIR = Path(__file__).resolve().parents[2] / "corpus" / "df"

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i1": np.bool_}

SIZES = (0, 1, 7, 8, 9, 1000, 1009)
"""Sizes every case runs at: empty, one, around a vector width of 8, large, and a prime."""


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


def fold(fn: Callable[..., Any], init: Any, *arrays: np.ndarray) -> Any:
    """Sequential left fold (elements in order); `init` and the result may be tuples."""
    acc = init
    for elems in zip(*arrays):
        acc = fn(acc, *elems)
    return acc


def scan(fn: Callable[[Any, Any], Any], init: Any, x: np.ndarray) -> np.ndarray:
    """Inclusive sequential scan in x's dtype."""
    out = np.empty_like(x)
    acc = init
    for k, e in enumerate(x):
        acc = fn(acc, e)
        out[k] = acc
    return out


@dataclass(frozen=True)
class InputSpec:
    """One kernel argument: name, dtype (or record fields), dims in n, value range or value."""

    name: str
    dtype: str | None
    fields: tuple[tuple[str, str], ...] = ()
    dims: tuple[str, ...] = ()
    value: str | None = None
    low: float | None = None
    high: float | None = None

    _SPEC = re.compile(
        r"^(?P<name>\w+):(?:(?P<dtype>f32|f64|i32|i64|i1)|\{(?P<fields>[^}]*)\})"
        r"(?:\[(?P<dims>[^\]]*)\])?(?:=(?P<value>[^~]+))?(?:~(?P<lo>[^:]+):(?P<hi>.+))?$"
    )

    @classmethod
    def parse(cls, text: str) -> InputSpec:
        m = cls._SPEC.match(text.strip())
        if not m:
            raise ValueError(f"bad input spec {text!r}")
        fields = ()
        if m["fields"]:
            fields = tuple(tuple(f.split(":")) for f in m["fields"].split(","))  # type: ignore[misc]
        dims = tuple(d.strip() for d in m["dims"].split(",")) if m["dims"] else ()
        return cls(
            m["name"], m["dtype"], fields, dims, m["value"],
            float(m["lo"]) if m["lo"] else None, float(m["hi"]) if m["hi"] else None,
        )

    def make(self, n: int, rng: np.random.Generator) -> Any:
        if self.value is not None:
            return DTYPES[self.dtype](eval(self.value, {"np": np, "n": n}))  # type: ignore[index]
        shape = tuple(int(eval(d, {"n": n})) for d in self.dims)
        if self.fields:
            return {f: self._random(t, shape, rng) for f, t in self.fields}
        v = self._random(self.dtype, shape, rng)  # type: ignore[arg-type]
        return v if shape else v[()]

    def _random(self, dtype: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        dt = DTYPES[dtype]
        if dt is np.bool_:
            return rng.random(shape) < 0.5
        if np.issubdtype(dt, np.floating):
            lo, hi = (self.low, self.high) if self.low is not None else (-1.0, 1.0)
            return rng.uniform(lo, hi, shape).astype(dt)
        lo, hi = (self.low, self.high) if self.low is not None else (-1000, 1000)
        return rng.integers(int(lo), int(hi), shape, dtype=dt, endpoint=True)


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
    """One kernel of the corpus with its inputs, numpy reference and tolerance."""

    path: Path
    kernel: str
    inputs: list[InputSpec]
    ref: str
    tol: str = "exact"
    line: int = 0
    _namespace: dict[str, Any] = field(default_factory=dict, repr=False)

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
        return Inputs(n, {s.name: s.make(n, rng) for s in self.inputs})

    def args(self, inputs: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(inputs[s.name] for s in self.inputs)

    def run(self, inputs: dict[str, Any], module: ModuleOp | None = None) -> tuple[Any, ...]:
        """The kernel's results through loopopt's interpreter (on `module` if given)."""
        from loopopt.interp.runner import run_function

        return run_function(module or self.module(), self.kernel, *self.args(inputs))

    def reference(self, inputs: dict[str, Any]) -> Expected:
        size = inputs.n if isinstance(inputs, Inputs) else _size(inputs)
        env = {"np": np, "fold": fold, "scan": scan, "n": size, **inputs}
        with np.errstate(all="ignore"):
            value = eval(self.ref, env)
            ref = Expected(value if isinstance(value, tuple) else (value,))
            ref.bounds, ref.ulps, ref.rtol = (), None, None
            kind, _, arg = self.tol.partition(":")
            if kind == "reduction":
                terms = np.asarray(eval(arg, env))
                eps = np.finfo(terms.dtype).eps if np.issubdtype(terms.dtype, np.floating) else 0.0
                bound = 2.0 * (terms.size + 1) * eps * float(np.sum(np.abs(terms), dtype=np.float64))
                ref.bounds = (bound + np.finfo(np.float32).tiny,) * len(ref)
            elif kind == "ulp":
                ref.ulps = int(arg)
            elif kind == "close":
                ref.rtol = float(arg)
            elif kind != "exact":
                raise ValueError(f"{self.id}: unknown tolerance {self.tol!r}")
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
            ok = np.abs(g.astype(np.float64) - r.astype(np.float64)) <= ref.rtol * (1 + np.abs(r))
            ok |= np.isnan(g) & np.isnan(r)
            assert np.all(ok), f"{what}: {g} vs {r} (rtol {ref.rtol})"
        else:
            np.testing.assert_array_equal(g, r, err_msg=what)  # NaNs compare equal here


def _size(inputs: dict[str, Any]) -> int:
    for v in inputs.values():
        if isinstance(v, dict):
            v = next(iter(v.values()))
        if isinstance(v, np.ndarray) and v.ndim:
            return v.shape[0]
    return 0


_REF_LINE = re.compile(r"^//\s*REF:\s*(?P<body>.*)$")


def parse_ref_line(path: Path, line: int, body: str) -> CorpusCase:
    head, sep, ref = body.partition(" ref=")
    if not sep:
        raise ValueError(f"{path}:{line}: REF line without ref=")
    fields = dict(item.split("=", 1) for item in head.split())
    unknown = set(fields) - {"kernel", "inputs", "tol"}
    if unknown or "kernel" not in fields:
        raise ValueError(f"{path}:{line}: REF needs kernel=, allows inputs= tol=; found {sorted(fields)}")
    inputs = [InputSpec.parse(s) for s in fields.get("inputs", "").split(";") if s]
    return CorpusCase(path, fields["kernel"].lstrip("@"), inputs, ref.strip(),
                      fields.get("tol", "exact"), line)


def load_corpus(directory: Path = CORPUS_DIR) -> list[CorpusCase]:
    """Every REF'd kernel of every corpus file, in file and line order."""
    cases: list[CorpusCase] = []
    for path in sorted(directory.glob("*.mlir")):
        for k, text in enumerate(path.read_text().splitlines(), 1):
            m = _REF_LINE.match(text.strip())
            if m:
                cases.append(parse_ref_line(path, k, m["body"]))
    return cases
