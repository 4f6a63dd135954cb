"""The `// REF:` header format: a df kernel's inputs, numpy reference and float tolerance.

One line in a program (the df corpus, examples, any `loop-run` input) per kernel:

    // REF: kernel=@sumsq inputs=x:f32[n] tol=reduction:x*x ref=np.sum(x*x, dtype=np.float32)

Fields (space separated; `ref=` comes last and takes the rest of the line):
* `kernel=@name`  the func.func it describes.
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

`loop-run` uses the headers for its inputs and numpy timings, the corpus tests
(test/python/df/corpus.py) for their inputs, references and tolerances.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

DTYPES: dict[str, type[np.generic]] = {
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
    "i1": np.bool_,
}
"""The element types a spec can name, as numpy scalar types."""


class RefError(ValueError):
    """A malformed REF line; the message names the file and line."""


def random_values(
    dtype: str, shape: tuple[int, ...], rng: np.random.Generator, low: float | None = None, high: float | None = None
) -> np.ndarray:
    """Floats uniform in [-1, 1), integers in [-1000, 1000], booleans fair (or in [low, high])."""
    dt = DTYPES[dtype]
    if dt is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.floating):
        lo, hi = (low, high) if low is not None else (-1.0, 1.0)
        return rng.uniform(lo, hi, shape).astype(dt)
    lo, hi = (low, high) if low is not None else (-1000, 1000)
    return rng.integers(int(lo), int(hi), shape, dtype=dt, endpoint=True)


@dataclass(frozen=True)
class InputSpec:
    """One `inputs=` item: `x:f32[n]`, `a:f32~0:1`, `len:i64=n`, `p:{x:f32,y:f32}[n]`."""

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
        fields: tuple[tuple[str, str], ...] = ()
        if m["fields"]:
            fields = tuple(tuple(f.split(":")) for f in m["fields"].split(","))  # type: ignore[misc]
            if any(len(f) != 2 or f[1] not in DTYPES for f in fields):
                raise ValueError(f"bad record fields in input spec {text!r}")
        dims = tuple(d.strip() for d in m["dims"].split(",")) if m["dims"] else ()
        lo, hi = (float(m["lo"]), float(m["hi"])) if m["lo"] else (None, None)
        return cls(m["name"], m["dtype"], fields, dims, m["value"], lo, hi)

    def make(self, n: int, rng: np.random.Generator) -> Any:
        """A value of size n: the spec's expression, or random values in its range."""
        if self.value is not None:
            return DTYPES[self.dtype](eval(self.value, {"np": np, "n": n}))  # type: ignore[index]
        shape = tuple(int(eval(d, {"n": n})) for d in self.dims)
        if self.fields:
            return {f: random_values(t, shape, rng, self.low, self.high) for f, t in self.fields}
        v = random_values(self.dtype, shape, rng, self.low, self.high)  # type: ignore[arg-type]
        return v if shape else v[()]


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
class Tolerance:
    """A `tol=` evaluated on inputs: `exact`, `ulp` (value: K), `bound` (absolute, from
    `reduction:EXPR`) or `close` (value: RTOL)."""

    kind: str
    value: float | None = None


TOL_KINDS = ("exact", "ulp", "reduction", "close")


def reduction_bound(terms: Any) -> float:
    """2 (m + 1) eps sum|t| + tiny: the error bound of any summation order of the m terms t."""
    t = np.asarray(terms)
    eps = float(np.finfo(t.dtype).eps) if np.issubdtype(t.dtype, np.floating) else 0.0
    return 2.0 * (t.size + 1) * eps * float(np.sum(np.abs(t), dtype=np.float64)) + float(np.finfo(np.float32).tiny)


@dataclass(frozen=True)
class RefHeader:
    """One `// REF:` line: the kernel, its input specs, tolerance and numpy expression."""

    kernel: str
    inputs: tuple[InputSpec, ...]
    tol: str
    expr: str
    line: int = 0

    def make_inputs(self, n: int, rng: np.random.Generator) -> dict[str, Any]:
        """Inputs of size n by argument name, in argument order."""
        return {s.name: s.make(n, rng) for s in self.inputs}

    def namespace(self, inputs: Mapping[str, Any], n: int) -> dict[str, Any]:
        """What `ref=` and `tol=reduction:` expressions see: the inputs by name, n, np, fold, scan."""
        return {"np": np, "fold": fold, "scan": scan, "n": n, **inputs}

    def reference(self, inputs: Mapping[str, Any], n: int) -> tuple[Any, ...]:
        """numpy's results (a tuple, one item per kernel result)."""
        with np.errstate(all="ignore"):
            value = eval(self.expr, self.namespace(inputs, n))
        return value if isinstance(value, tuple) else (value,)

    def tolerance(self, inputs: Mapping[str, Any], n: int) -> Tolerance:
        """The `tol=` for these inputs (a reduction's bound depends on its terms)."""
        kind, _, arg = self.tol.partition(":")
        if kind == "reduction":
            with np.errstate(all="ignore"):
                return Tolerance("bound", reduction_bound(eval(arg, self.namespace(inputs, n))))
        if kind == "ulp":
            return Tolerance("ulp", int(arg))
        if kind == "close":
            return Tolerance("close", float(arg))
        return Tolerance("exact")


_REF_LINE = re.compile(r"^\s*//\s*REF:\s*(?P<body>.*)$")


def _check_tol(tol: str) -> None:
    kind, sep, arg = tol.partition(":")
    if kind not in TOL_KINDS or (kind == "exact") == bool(sep):
        raise ValueError(f"unknown tol {tol!r}; expected exact, ulp:K, reduction:EXPR or close:RTOL")
    if kind == "ulp":
        int(arg)
    elif kind == "close":
        float(arg)


def parse_ref_line(body: str, line: int = 0) -> RefHeader:
    """The header of one REF line's body (the text after `REF:`); ValueError if malformed."""
    head, sep, expr = body.partition(" ref=")
    items = dict(item.split("=", 1) for item in head.split() if "=" in item)
    if not sep or len(items) != len(head.split()) or "kernel" not in items or set(items) - {"kernel", "inputs", "tol"}:
        raise ValueError("expected kernel=@NAME [inputs=...] [tol=...] ref=EXPR")
    tol = items.get("tol", "exact")
    _check_tol(tol)
    specs = tuple(InputSpec.parse(s) for s in items.get("inputs", "").split(";") if s)
    return RefHeader(items["kernel"].lstrip("@"), specs, tol, expr.strip(), line)


def parse_ref_headers(text: str, filename: str = "<input>") -> dict[str, RefHeader]:
    """Every REF line of a program, by kernel name, in line order; RefError names a bad line."""
    headers: dict[str, RefHeader] = {}
    for k, line in enumerate(text.splitlines(), 1):
        m = _REF_LINE.match(line)
        if not m:
            continue
        try:
            header = parse_ref_line(m["body"], k)
        except ValueError as e:
            raise RefError(f"{filename}:{k}: bad REF header: {e}") from None
        headers[header.kernel] = header
    return headers
