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
      [-1000, 1000] clipped to the dtype, i1 random booleans). `u8`/`u16` make uint8/uint16
      data for an i8/i16 argument (integers are signless; the kernel's ops read them unsigned).
* `tol=...`  how float results are compared (integer results are always exact):
    - `exact` (the default): bit-exact, NaNs equal;
    - `ulp:K`: within K units in the last place of the reference (elementwise math);
    - `reduction:EXPR`: |got - ref| <= 2 (m + 1) eps sum|t| + tiny, with t = EXPR evaluated on
      the inputs (the reduced terms) and m their count: the bound of any summation order;
    - `close:RTOL`: |got - ref| <= RTOL (1 + |ref|) (compound formulas such as a variance).
* `ref=EXPR`  an expression over the inputs (by name), `n`, `np` and the helpers
  `fold(fn, init, *arrays)` and `scan(fn, init, x)`; a tuple for several results.

Expressions (`ref=`, `tol=reduction:`, input values and dims) are never given to a bare
`eval`: `SafeExpr` parses them with `ast` and accepts only a small grammar (arithmetic,
comparisons, subscripts, allow-listed `np.` names and array methods, lambdas as the first
argument of fold/scan; no name or attribute starting with `_`, no builtins but min, max,
abs). docs/ref_header.md has the grammar.

`loop-run` uses the headers for its inputs and numpy timings, the corpus tests
(test/python/df/corpus.py) for their inputs, references and tolerances.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

DTYPES: dict[str, type[np.generic]] = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i8": np.int8,
    "i16": np.int16,
    "u8": np.uint8,  # an i8 argument given as unsigned data (i8 and i16 are signless)
    "u16": np.uint16,
    "i32": np.int32,
    "i64": np.int64,
    "i1": np.bool_,
}
"""The element types a spec can name, as numpy scalar types (and bf16: `scalar_type`)."""


def scalar_type(dtype: str) -> type[np.generic]:
    """The numpy scalar type of a spec dtype; bf16 is ml_dtypes.bfloat16 (ImportError without it)."""
    if dtype == "bf16":
        from loopopt.interp.dtypes import bfloat16_dtype

        return bfloat16_dtype().type
    return DTYPES[dtype]


def _bfloat16_names() -> dict[str, Any]:
    """`bfloat16` for REF expressions (`x.astype(bfloat16)`) when ml_dtypes is installed."""
    try:
        import ml_dtypes
    except ImportError:
        return {}
    return {"bfloat16": ml_dtypes.bfloat16}


class RefError(ValueError):
    """A malformed REF line, or one whose expression fails: the message is a located
    diagnostic, `file:line:col: error: ...`."""


class ExprError(ValueError):
    """An expression outside the REF grammar; `offset` is the column (0-based) in its text."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


NUMPY_NAMES = frozenset(
    """
    abs absolute add all amax amin any arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh
    argmax argmin array asarray bitwise_and bitwise_not bitwise_or bitwise_xor bool_ cbrt ceil clip
    concatenate copysign cos cosh count_nonzero cumprod cumsum divide dot e equal exp exp2 expm1 fabs
    bitwise_count float16 float32 float64 floor floor_divide fmax fmin fmod full greater greater_equal hypot inf int8
    int16 int32 int64 invert isfinite isinf isnan left_shift less less_equal log log10 log1p log2
    logical_and logical_not logical_or logical_xor max maximum mean min minimum mod multiply nan
    negative nonzero not_equal ones pi positive power prod remainder right_shift rint round sign
    signbit sin sinh sqrt square std subtract sum tan tanh true_divide trunc uint8 uint16 uint32
    uint64 var where zeros
    """.split()
)
"""What `np.NAME` may name: math, reductions, dtypes, constants and array constructors (no
I/O such as np.load/np.save, no np.vectorize/frompyfunc, no modules such as np.lib)."""

ARRAY_METHODS = frozenset(
    "T accumulate all any argmax argmin astype copy cumprod cumsum max mean min ndim prod ravel "
    "reduce reshape shape size sum".split()
)
"""The attributes allowed on any other value: array methods and ufunc `.reduce`/`.accumulate`."""

KEYWORDS = frozenset({"axis", "dtype", "initial", "keepdims"})
"""The keyword arguments a call may pass."""

SAFE_BUILTINS: dict[str, Any] = {"min": min, "max": max, "abs": abs}
_FRAME_BUILTINS: dict[str, Any] = {"__import__": __import__}

_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr,
           ast.BitXor, ast.LShift, ast.RShift)
_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_UNOPS = (ast.UAdd, ast.USub, ast.Not, ast.Invert)
MAX_EXPONENT = 64
"""`**`, `<<` and `>>` take a constant right operand of at most this magnitude (Python
integers make `9**9**9` a hang)."""
MAX_INT_LITERAL = 2**64


class SafeExpr:
    """A REF expression checked against the REF grammar, evaluated without builtins.

    `SafeExpr(text)` raises `ExprError` (with the column) for anything outside the grammar;
    `expr(namespace)` evaluates it with only the names of `namespace` (and min/max/abs).
    """

    def __init__(self, text: str, helpers: frozenset[str] = frozenset({"fold", "scan"})):
        self.text = text
        self.helpers = helpers
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as e:
            raise ExprError(f"invalid syntax in {text.strip()!r}", max((e.offset or 1) - 1, 0)) from None
        self._check(tree.body, frozenset())
        self.code = compile(tree, "<REF>", "eval")

    def __call__(self, namespace: Mapping[str, Any]) -> Any:
        # numpy's C code imports lazily through the calling frame's __import__: keep only that
        # (no expression can name it: names starting with _ are refused).
        return eval(self.code, {**SAFE_BUILTINS, **namespace, "__builtins__": _FRAME_BUILTINS})  # noqa: S307

    # ------------------------------------------------------------------ the grammar

    def _reject(self, node: ast.AST, what: str) -> ExprError:
        return ExprError(what, getattr(node, "col_offset", 0))

    def _check(self, node: ast.AST, params: frozenset[str], subscript: bool = False) -> None:
        check = self._check
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, str) and subscript:
                return
            if isinstance(v, bool) or v is None or v is Ellipsis or isinstance(v, float):
                return
            if isinstance(v, int):
                if abs(v) > MAX_INT_LITERAL:
                    raise self._reject(node, f"integer literal {v} is too large")
                return
            raise self._reject(node, f"constant {v!r} is not allowed (numbers only; strings only as a record field subscript)")
        if isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise self._reject(node, f"name '{node.id}' is not allowed (names starting with _ are not)")
            return
        if isinstance(node, ast.Attribute):  # the value first: errors come in reading order
            numpy = isinstance(node.value, ast.Name) and node.value.id == "np" and "np" not in params
            if not numpy:
                check(node.value, params)
            at = ExprError("", (node.end_col_offset or 0) - len(node.attr))
            if node.attr.startswith("_"):
                raise ExprError(f"attribute '{node.attr}' is not allowed (names starting with _ are not)", at.offset)
            if numpy and node.attr not in NUMPY_NAMES:
                raise ExprError(f"np.{node.attr} is not allowed (docs/ref_header.md lists the numpy names)", at.offset)
            if not numpy and node.attr not in ARRAY_METHODS:
                raise ExprError(f"attribute '.{node.attr}' is not allowed (allowed: {', '.join(sorted(ARRAY_METHODS))})",
                                at.offset)
            return
        if isinstance(node, ast.Call):
            f = node.func
            helper = isinstance(f, ast.Name) and f.id in self.helpers and f.id not in params
            if isinstance(f, ast.Name):
                check(f, params)
                if f.id not in SAFE_BUILTINS and not helper or f.id in params:
                    raise self._reject(f, f"'{f.id}' cannot be called (only np.NAME functions, array methods, "
                                          f"{', '.join(sorted(self.helpers | set(SAFE_BUILTINS)))})")
            elif isinstance(f, ast.Attribute):
                check(f, params)
            else:
                raise self._reject(f, "only named functions can be called")
            for k, arg in enumerate(node.args):
                if isinstance(arg, ast.Starred):
                    raise self._reject(arg, "*arguments are not allowed")
                if isinstance(arg, ast.Lambda):
                    if not (helper and k == 0):
                        raise self._reject(arg, "a lambda is only allowed as the first argument of fold or scan")
                    self._check_lambda(arg, params)
                else:
                    check(arg, params)
            for kw in node.keywords:
                if kw.arg is None or kw.arg not in KEYWORDS:
                    raise self._reject(kw.value, f"keyword argument {kw.arg or '**'!s} is not allowed "
                                                 f"(allowed: {', '.join(sorted(KEYWORDS))})")
                check(kw.value, params)
            return
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, _BINOPS):
                raise self._reject(node, f"operator {type(node.op).__name__} is not allowed")
            if isinstance(node.op, ast.Pow | ast.LShift | ast.RShift):
                self._check_small_constant(node.right)
            check(node.left, params)
            check(node.right, params)
            return
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNOPS):
                raise self._reject(node, f"operator {type(node.op).__name__} is not allowed")
            check(node.operand, params)
            return
        if isinstance(node, ast.BoolOp):
            for v in node.values:
                check(v, params)
            return
        if isinstance(node, ast.Compare):
            if not all(isinstance(op, _CMPOPS) for op in node.ops):
                raise self._reject(node, "only ==, !=, <, <=, >, >= comparisons are allowed")
            for v in (node.left, *node.comparators):
                check(v, params)
            return
        if isinstance(node, ast.IfExp):
            for v in (node.test, node.body, node.orelse):
                check(v, params)
            return
        if isinstance(node, ast.Subscript):
            check(node.value, params)
            check(node.slice, params, subscript=True)
            return
        if isinstance(node, ast.Slice):
            for v in (node.lower, node.upper, node.step):
                if v is not None:
                    check(v, params)
            return
        if isinstance(node, ast.Tuple | ast.List):
            if not isinstance(node.ctx, ast.Load):
                raise self._reject(node, "assignment is not allowed")
            for v in node.elts:
                if isinstance(v, ast.Starred):
                    raise self._reject(v, "*unpacking is not allowed")
                check(v, params, subscript)
            return
        if isinstance(node, ast.Lambda):
            raise self._reject(node, "a lambda is only allowed as the first argument of fold or scan")
        raise self._reject(node, f"{type(node).__name__} expressions are not allowed in a REF expression")

    def _check_lambda(self, node: ast.Lambda, params: frozenset[str]) -> None:
        a = node.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.kw_defaults or a.posonlyargs:
            raise self._reject(node, "a lambda takes plain positional parameters only")
        names = [p.arg for p in a.args]
        for name in names:
            if name.startswith("_"):
                raise self._reject(node, f"parameter '{name}' is not allowed (names starting with _ are not)")
        self._check(node.body, params | frozenset(names))

    def _check_small_constant(self, node: ast.AST) -> None:
        inner = node.operand if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd) else node
        if not (isinstance(inner, ast.Constant) and isinstance(inner.value, int | float)
                and not isinstance(inner.value, bool) and abs(inner.value) <= MAX_EXPONENT):
            raise self._reject(node, f"the right operand of **, << and >> must be a number constant of at most {MAX_EXPONENT}")


def safe_eval(text: str, namespace: Mapping[str, Any]) -> Any:
    """Check `text` against the REF grammar and evaluate it over `namespace` (no builtins)."""
    return SafeExpr(text)(namespace)


def random_values(
    dtype: str, shape: tuple[int, ...], rng: np.random.Generator, low: float | None = None, high: float | None = None
) -> np.ndarray:
    """Floats uniform in [-1, 1), integers in [-1000, 1000], booleans fair (or in [low, high])."""
    dt = scalar_type(dtype)
    if dt is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.floating) or dtype == "bf16":
        lo, hi = (low, high) if low is not None else (-1.0, 1.0)
        return rng.uniform(lo, hi, shape).astype(dt)
    info = np.iinfo(dt)
    lo, hi = (low, high) if low is not None else (max(-1000, info.min), min(1000, info.max))
    # a range is parsed as floats: 9223372036854775807 reads as 2^63, so clamp to the dtype
    return rng.integers(max(int(lo), info.min), min(int(hi), info.max), shape, dtype=dt, endpoint=True)


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
        r"^(?P<name>\w+):(?:(?P<dtype>f16|bf16|f32|f64|i8|i16|u8|u16|i32|i64|i1)|\{(?P<fields>[^}]*)\})"
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
        for e in (*dims, *([m["value"]] if m["value"] else [])):
            try:
                SafeExpr(e, helpers=frozenset())
            except ExprError as err:
                raise ValueError(f"input spec {text.strip()!r}: {err}") from None
        try:
            lo, hi = (float(m["lo"]), float(m["hi"])) if m["lo"] else (None, None)
        except ValueError:
            raise ValueError(f"bad value range in input spec {text!r}") from None
        if m["dtype"] is None and m["value"] is not None:
            raise ValueError(f"input spec {text!r}: a record cannot have a value")
        return cls(m["name"], m["dtype"], fields, dims, m["value"], lo, hi)

    def make(self, n: int, rng: np.random.Generator) -> Any:
        """A value of size n: the spec's expression, or random values in its range."""
        if self.value is not None:
            return scalar_type(self.dtype)(SafeExpr(self.value, frozenset())({"np": np, "n": n}))  # type: ignore[index]
        shape = tuple(int(SafeExpr(d, frozenset())({"n": n})) for d in self.dims)
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
    filename: str = "<input>"

    def make_inputs(self, n: int, rng: np.random.Generator) -> dict[str, Any]:
        """Inputs of size n by argument name, in argument order."""
        return {s.name: s.make(n, rng) for s in self.inputs}

    def namespace(self, inputs: Mapping[str, Any], n: int) -> dict[str, Any]:
        """What `ref=` and `tol=reduction:` expressions see: the inputs by name, n, np, fold, scan
        (and bfloat16, ml_dtypes' type, when installed)."""
        return {"np": np, "fold": fold, "scan": scan, "n": n, **_bfloat16_names(), **inputs}

    def compiled_ref(self) -> SafeExpr:
        """The checked `ref=` expression (call it with `namespace(...)`)."""
        return SafeExpr(self.expr)

    def evaluate(self, text: str, inputs: Mapping[str, Any], n: int, what: str = "ref=") -> Any:
        """A checked expression of this header over the inputs; RefError naming the line on failure."""
        try:
            expr = SafeExpr(text)
            with np.errstate(all="ignore"):
                return expr(self.namespace(inputs, n))
        except ExprError as e:
            raise RefError(f"{self.filename}:{self.line}: error: bad REF header: {what}: {e}") from None
        except Exception as e:  # a name that is not an input, a numpy error, ...
            raise RefError(f"{self.filename}:{self.line}: error: REF {what} failed: {type(e).__name__}: {e}") from None

    def reference(self, inputs: Mapping[str, Any], n: int) -> tuple[Any, ...]:
        """numpy's results (a tuple, one item per kernel result).

        Under `tol=ulp:K` the bound is against the true value, so f64 inputs are evaluated in long
        double and the results rounded once to f64: numpy's own f64 transcendentals are up to a
        few ulp off where it dispatches to SIMD implementations (AVX-512 here), which would eat
        the kernel's budget. Everything else is numpy in the inputs' own precision."""
        if self.tol.partition(":")[0] == "ulp":
            value = _round_extended(self.evaluate(self.expr, _extended(inputs), n))
        else:
            value = self.evaluate(self.expr, inputs, n)
        return value if isinstance(value, tuple) else (value,)

    def tolerance(self, inputs: Mapping[str, Any], n: int) -> Tolerance:
        """The `tol=` for these inputs (a reduction's bound depends on its terms)."""
        kind, _, arg = self.tol.partition(":")
        if kind == "reduction":
            return Tolerance("bound", reduction_bound(self.evaluate(arg, inputs, n, "tol=reduction")))
        if kind == "ulp":
            return Tolerance("ulp", int(arg))
        if kind == "close":
            return Tolerance("close", float(arg))
        return Tolerance("exact")


def _extended(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The inputs with every f64 array or scalar (records too) widened to long double."""

    def widen(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: widen(x) for k, x in v.items()}
        if isinstance(v, np.ndarray | np.floating) and v.dtype == np.float64:
            return v.astype(np.longdouble)
        return v

    return {k: widen(v) for k, v in inputs.items()}


def _round_extended(value: Any) -> Any:
    """A result evaluated by `_extended`, long doubles rounded once to f64."""
    if isinstance(value, tuple):
        return tuple(_round_extended(v) for v in value)
    if isinstance(value, dict):
        return {k: _round_extended(v) for k, v in value.items()}
    if isinstance(value, np.ndarray | np.floating) and value.dtype == np.longdouble:
        return value.astype(np.float64)
    return value


_REF_LINE = re.compile(r"^\s*//\s*REF:\s*(?P<body>.*)$")


def _check_tol(tol: str) -> None:
    kind, sep, arg = tol.partition(":")
    if kind not in TOL_KINDS or (kind == "exact") == bool(sep):
        raise ValueError(f"unknown tol {tol!r}; expected exact, ulp:K, reduction:EXPR or close:RTOL")
    if kind == "ulp":
        int(arg)
    elif kind == "close":
        float(arg)
    elif kind == "reduction":
        try:
            SafeExpr(arg)
        except ExprError as e:
            raise ExprError(f"tol=reduction: {e}", len("tol=reduction:") + e.offset) from None


def parse_ref_line(body: str, line: int = 0, filename: str = "<input>") -> RefHeader:
    """The header of one REF line's body (the text after `REF:`); ValueError if malformed
    (an `ExprError`, with the column in `body`, for an expression outside the grammar)."""
    head, sep, expr = body.partition(" ref=")
    items = dict(item.split("=", 1) for item in head.split() if "=" in item)
    if not sep or len(items) != len(head.split()) or "kernel" not in items or set(items) - {"kernel", "inputs", "tol"}:
        raise ValueError("expected kernel=@NAME [inputs=...] [tol=...] ref=EXPR")
    tol = items.get("tol", "exact")
    try:
        _check_tol(tol)
    except ExprError as e:
        raise ExprError(str(e), body.index("tol=") + e.offset) from None
    specs = tuple(InputSpec.parse(s) for s in items.get("inputs", "").split(";") if s)
    start = len(head) + len(sep) + len(expr) - len(expr.lstrip())
    try:
        SafeExpr(expr)
    except ExprError as e:
        raise ExprError(f"ref=: {e}", start + e.offset) from None
    return RefHeader(items["kernel"].lstrip("@"), specs, tol, expr.strip(), line, filename)


def parse_ref_headers(text: str, filename: str = "<input>") -> dict[str, RefHeader]:
    """Every REF line of a program, by kernel name, in line order; RefError names a bad line."""
    headers: dict[str, RefHeader] = {}
    for k, line in enumerate(text.splitlines(), 1):
        m = _REF_LINE.match(line)
        if not m:
            continue
        try:
            header = parse_ref_line(m["body"], k, filename)
        except ExprError as e:
            raise RefError(f"{filename}:{k}:{m.start('body') + e.offset + 1}: error: bad REF header: {e}") from None
        except ValueError as e:
            raise RefError(f"{filename}:{k}: error: bad REF header: {e}") from None
        headers[header.kernel] = header
    return headers
