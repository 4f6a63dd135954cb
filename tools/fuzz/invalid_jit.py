"""Hostile calls of `loopopt.jit` for `loopopt.tools.fuzz.invalid`: random numpy-style
expressions (supported, unsupported and ill-typed) on random arguments (good arrays, other
dtypes and ranks, empty, strided, mismatched lengths, Python objects).

The oracle: the call returns what numpy returns for the same function (integers and bools
equal, floats within a summation's rounding), or raises numpy's own error kind for the
arguments (`ValueError`, `TypeError`, `IndexError`) or a `JitError` (`file:line:col: error:`);
never another exception from inside loopopt (AttributeError, KeyError, AssertionError, an
`internal error`), never a crash or a hang.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

EXPRS = (
    "x + y", "x * a", "np.sum(x)", "np.sum(x * y)", "np.where(x > 0, x, y)", "x[x > 0]", "np.cumsum(x)",
    "np.max(x)", "x.astype(np.int8)", "x // y", "x % y", "x ** 2", "x ** a", "np.sqrt(x)", "-x", "~x",
    "x & y", "x << y", "x >> 3", "np.minimum(x, y)", "np.clip(x, a, y)", "x[y]", "np.take(x, y)",
    "np.sum(x[x > a])", "x.mean()", "np.all(x > y)", "(x + y, np.sum(x))", "{'s': np.sum(x)}",
    # unsupported or ill-typed: each must be a located error (or numpy's error), not a crash
    "np.sort(x)", "x[::2]", "x[1:]", "x @ y", "x.T", "np.sum(x, axis=0)", "np.sum(x, axis=5)", "x.reshape(-1, 1)",
    "x[0]", "len(x)", "x if x else y", "bool(x > 0)", "float(np.sum(x))", "int(a)", "x.astype('complex64')",
    "x.astype(object)", "np.concatenate([x, y])", "np.dot(x, y)", "x + 'a'", "x + None", "np.sum(x) + x[x > 0]",
    "x[x > 0] + y", "x[x > 0] + x[y > 0]", "np.exp(x) * 2", "x / 0", "x // 0", "x % 0",
    "np.arange(3) + x", "np.zeros_like(x)", "x.sum(dtype=np.float32)", "np.cumsum(x)[x > 0]", "x[y > 0][0]",
    "[x for _ in range(2)]", "print(x)", "x.shape", "np.where(x)", "np.sum(x > 0, initial=5)", "x ** -1",
    "x ** y", "np.power(x, 0.5)", "np.fmod(x, y)", "np.sign(x)", "np.isnan(x)", "np.nan_to_num(x)",
)

ARRAY_DTYPES = ("float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "bool", "float16")


def _array(rng: random.Random, n: int, dtype: str) -> np.ndarray:
    g = np.random.default_rng(rng.randrange(2**32))
    if dtype == "bool":
        return g.random(n) < 0.5
    if dtype.startswith("float"):
        v = g.normal(0, 10, n)
        if n and rng.random() < 0.3:
            v[g.integers(0, n, max(1, n // 4))] = rng.choice((np.nan, np.inf, -np.inf, 0.0, -0.0))
        return v.astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = (max(info.min, -100), min(info.max, 100)) if rng.random() < 0.7 else (info.min, info.max)
    return g.integers(lo, hi, n, endpoint=True, dtype=dtype)


def random_argument(rng: random.Random, n: int) -> Any:
    """An argument: usually a rank-1 array of a supported dtype, sometimes anything else."""
    r = rng.random()
    if r < 0.65:
        return _array(rng, n, rng.choice(ARRAY_DTYPES))
    if r < 0.75:
        return rng.choice((np.float32(2.5), np.int32(3), 2, 2.5, True, np.uint8(200), np.float64("nan"), -1))
    if r < 0.8:
        return _array(rng, 2 * n, "float32")[::2]  # a strided view
    if r < 0.85:
        return _array(rng, n + rng.choice((1, -1 if n else 1, 5)), rng.choice(ARRAY_DTYPES))  # other length
    return rng.choice((np.zeros((2, 2), np.float32), np.array(["a", "b"]), np.zeros(3, np.complex64), None, "x",
                       [1.0, 2.0], np.zeros(0, np.float32), np.zeros(3, object), np.float32(1)[()],
                       np.zeros(3, [("a", np.float32), ("b", np.int32)]), {"a": np.zeros(3, np.float32)}))


@dataclass
class JitCase:
    expr: str
    args: tuple[Any, ...]
    target: str

    def describe(self) -> str:
        def arg(a: Any) -> str:
            if isinstance(a, np.ndarray):
                return f"ndarray({a.dtype}, shape={a.shape}, contiguous={a.flags.c_contiguous})"
            return f"{type(a).__name__}({a!r})"[:80]

        return f"def f(x, y, a): return {self.expr}  # target={self.target}; args: " + ", ".join(map(arg, self.args))


def make_jit_case(rng: random.Random, isa: str) -> JitCase:
    n = rng.choice((0, 1, 3, 7, 8, 9, 16, 17, 33, 100))
    return JitCase(rng.choice(EXPRS), tuple(random_argument(rng, n) for _ in range(3)), isa if isa != "neon" else "scalar")


ALLOWED = (ValueError, TypeError, IndexError, ZeroDivisionError, OverflowError)
"""numpy's own error kinds for bad arguments: a jitted function may raise them too."""


def _function(expr: str):  # noqa: ANN202
    namespace: dict[str, Any] = {"np": np}
    exec(f"def f(x, y, a):\n    return {expr}\n", namespace)  # noqa: S102 - the fuzzer's own fixed strings
    return namespace["f"]


def _same(got: Any, ref: Any) -> str | None:
    """None when `got` matches numpy's `ref` (structure, dtype kind, values), else why not."""
    if isinstance(ref, tuple | list):
        if not isinstance(got, tuple | list) or len(got) != len(ref):
            return f"got {type(got).__name__}, numpy {type(ref).__name__} of {len(ref)}"
        return next((w for w in map(_same, got, ref) if w), None)
    if isinstance(ref, dict):
        if not isinstance(got, dict) or set(got) != set(ref):
            return "dict keys differ"
        return next((w for w in (_same(got[k], ref[k]) for k in ref) if w), None)
    g, r = np.asarray(got), np.asarray(ref)
    if g.shape != r.shape:
        return f"shape {g.shape} != numpy's {r.shape}"
    if r.dtype.kind in "biu" or g.dtype.kind in "biu":
        if r.dtype.kind == "f" or g.dtype.kind == "f":
            return f"dtype {g.dtype} where numpy gives {r.dtype}"
        same = np.array_equal(g.astype(object), r.astype(object))  # any widths and signs, exactly
        return None if same else f"values differ: {g.ravel()[:8]} vs numpy {r.ravel()[:8]}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r64 = r.astype(np.float64)
        finite = np.abs(r64[np.isfinite(r64)])
        scale = float(finite.max()) if finite.size else 0.0  # a sum's rounding: relative to its largest term
        ok = np.isclose(g.astype(np.float64), r64, rtol=1e-3, atol=1e-3 * (1 + scale), equal_nan=True)
    return None if np.all(ok) else f"values differ: {g.ravel()[:8]} vs numpy {r.ravel()[:8]}"


def run_jit_case(case: JitCase) -> tuple[str, str] | None:
    """Run in the forked child: None when the call behaved, else (failure class, message)."""
    import loopopt
    from loopopt.diagnostics import InternalError, LoopoptDiagnostic

    f = _function(case.expr)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            # a Python bool is numpy's bool to the jit (`~True` is False, not Python's -2)
            ref: Any = f(*(np.bool_(v) if isinstance(v, bool) else v for v in case.args))
            ref_error: BaseException | None = None
        except Exception as e:  # noqa: BLE001 - numpy's verdict on these arguments
            ref, ref_error = None, e
        try:
            got = loopopt.jit(f, target=case.target)(*case.args)
        except InternalError as e:
            return "internal", f"{type(e).__name__}: {e}"
        except LoopoptDiagnostic as e:
            text = str(e)
            return None if ":" in text or getattr(e, "op", None) is not None else ("unlocated", text)
        except ALLOWED as e:
            if "internal error" in str(e):
                return "internal", f"{type(e).__name__}: {e}"
            return None
        except Exception as e:  # noqa: BLE001 - anything else escaping is the bug we look for
            import traceback

            return "traceback", "".join(traceback.format_exception(e)[-6:])
    if ref_error is not None:
        return None  # loopopt accepted what numpy rejects (e.g. a Python list): not wrong code
    if isinstance(ref, np.ndarray) and ref.dtype.kind not in "biuf":
        return None
    floats = any(isinstance(v, np.ndarray | np.floating | float) and np.asarray(v).dtype.kind == "f" for v in case.args)
    if floats and ".astype(np.int" in case.expr:
        # a float past the integer's range (or NaN) converts as the platform does in numpy, saturated
        # in loopopt (docs/integer_semantics.md): only the structure is compared
        ref = np.zeros_like(ref) if isinstance(ref, np.ndarray | np.generic) else ref
        got = np.zeros_like(got) if isinstance(got, np.ndarray | np.generic) else got
    why = _same(got, ref)
    return ("mismatch", why) if why else None
