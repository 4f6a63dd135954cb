"""The seed patterns `loop-bench` measures: what each computes, in every implementation.

One row per pattern ties together the kernel library's pattern (same C parameter order),
the df program (tools/bench/programs/, or a test/corpus/df/ program), the plain scalar C loop
gcc gets, numpy's natural unfused expression(s), the bytes the pattern must move, and a
reference result to check every implementation against before it is timed (a wrong kernel
gets no number). Patterns differ in their baselines (`BenchPattern.baselines`): the kernel
library only where it has a hand kernel, BLAS (numpy's `@`) only for matrix products; the
seed patterns are here, the rest of the language's rows in bench/rows.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"

SIZES: dict[str, int] = {"1Ki": 1 << 10, "64Ki": 1 << 16, "1Mi": 1 << 20, "16Mi": 1 << 24}
"""The default sizes (elements): L1, L2, L3 and DRAM working sets for 4-byte elements."""

QUICK_SIZES: dict[str, int] = {"1Ki": 1 << 10, "4Ki": 1 << 12}

DTYPES: tuple[str, ...] = ("f32", "i32")
C_TYPES = {"f32": "float", "i32": "int32_t"}
NP_TYPES = {"f32": np.float32, "i32": np.int32}

A, B = 1.5, 0.5
"""Scalars a and b of the patterns (integers: 3 and 1)."""


def scalars(dtype: str) -> tuple[Any, Any]:
    t = NP_TYPES[dtype]
    return (t(A), t(B)) if dtype == "f32" else (t(3), t(1))


def size_label(n: int) -> str:
    for unit, shift in (("Mi", 20), ("Ki", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def parse_size(text: str) -> int:
    """`1Ki`, `64Ki`, `16Mi` or a plain element count."""
    text = text.strip()
    for unit, shift in (("Ki", 10), ("Mi", 20), ("Gi", 30)):
        if text.endswith(unit):
            return int(text[: -len(unit)]) << shift
    return int(text)


@dataclass(frozen=True)
class NumpyExpr:
    """One numpy spelling of a pattern: a label for the table and a function of the inputs."""

    label: str
    run: Callable[..., Any]


KERNELS, GCC_BASELINE, NUMPY_BASELINE, BLAS = "kernels", "gcc", "numpy", "blas"
BASELINES: tuple[str, ...] = (KERNELS, GCC_BASELINE, NUMPY_BASELINE, BLAS)
"""The baselines a pattern may declare: the hand-written kernel library (per ISA), gcc -O3
-march=native on the plain scalar C, numpy's natural expression, BLAS (numpy's `@`)."""


@dataclass(frozen=True)
class BenchPattern:
    """A pattern. `kind` follows the kernel library's signature kinds (bench/rows.py adds more)."""

    name: str
    """The kernel library's pattern name (also the df program file and kernel name prefix)."""
    seed: str
    """The seed's name for it, used in the table (`map`, `fold`, `map→fold`, ...)."""
    kind: str
    """`map` (x, a, b -> out), `zip_map` (x, y, a -> out), `fold` (x -> T), `filter_map` (x, a -> out, count)."""
    dtypes: tuple[str, ...]
    c_body: str
    """The plain scalar C loop body given to gcc (`x`, `y`, `a`, `b`, `out`, `n`; folds return `s`)."""
    numpy: tuple[NumpyExpr, ...]
    stream: str
    """The STREAM kernel with the same read/write mix, the bandwidth limit of this pattern."""
    reduction: bool = False
    """A float reduction (gcc needs -ffast-math to vectorize it)."""
    baselines: tuple[str, ...] = (KERNELS, GCC_BASELINE, NUMPY_BASELINE)
    """Which of BASELINES this pattern has; the others print "—"."""
    issue11: bool = True
    """Counted in issue 11's targets (the seed patterns)."""
    custom_check: ClassVar[bool] = False
    """Whether `mismatch` checks results (else bench/cells.py's seed-pattern check does)."""

    @property
    def program(self) -> Path:
        return PROGRAMS_DIR / f"{self.name}.mlir"

    def kernel(self, dtype: str) -> str:
        """The df kernel's symbol in the program."""
        return f"{self.name}_{dtype}"

    def has(self, baseline: str) -> bool:
        return baseline in self.baselines

    def shape(self, n: int) -> tuple[int, ...]:
        """The input's shape at size n (rank 1: n elements)."""
        return (n,)

    def size_text(self, n: int) -> str:
        return size_label(n)

    def fits(self, n: int) -> bool:
        """Whether the pattern runs at size n (every seed pattern does)."""
        return True

    def c_signature(self, name: str, dtype: str) -> Any:
        """The C calling convention of the pattern under `name` (gcc's plain loop, hand glue)."""
        from loopopt import kernels
        from loopopt.runtime import KernelSignature

        sig = kernels.signature(self.name, dtype, "scalar")
        return KernelSignature(name, sig.params, sig.results)

    def hand_kernel(self, dtype: str, isa: str) -> tuple[str, str]:
        """(C symbol, glue C or "") of the kernel-library implementation on `isa`."""
        from loopopt import kernels

        return kernels.kernel_name(self.name, dtype, isa), ""

    def out_buffer(self, n: int, dtype: str) -> np.ndarray | None:
        return aligned_empty(n, dtype) if self.has_output() else None

    def c_params(self) -> tuple[str, str, str]:
        """gcc's plain C function: (parameters over T, return type over T, statements silencing unused lengths)."""
        params = {
            "map": "const T *restrict x, int64_t n, T a, T b, T *restrict out, int64_t out_len",
            "zip_map": "const T *restrict x, int64_t n, const T *restrict y, int64_t y_len, T a, T *restrict out, int64_t out_len",
            "fold": "const T *restrict x, int64_t n",
            "filter_map": "const T *restrict x, int64_t n, T a, T *restrict out, int64_t out_len",
        }[self.kind]
        ret = {"map": "void", "zip_map": "void", "fold": "T", "filter_map": "int64_t"}[self.kind]
        unused = {"map": "(void)out_len;", "zip_map": "(void)y_len; (void)out_len;", "fold": "", "filter_map": "(void)out_len;"}
        return params, ret, unused[self.kind]

    def mismatch(self, dtype: str, args: tuple[Any, ...], got: tuple[np.ndarray | None, Any],
                 expected: tuple[np.ndarray | None, Any]) -> str | None:
        """Why `got` is not acceptable, for the patterns whose check is not bench/cells.py's (None: use that)."""
        return None

    def inputs(self, x: np.ndarray, y: np.ndarray, dtype: str) -> tuple[Any, ...]:
        """The inputs in C order (scalars included), without outputs."""
        a, b = scalars(dtype)
        return {"map": (x, a, b), "zip_map": (x, y, a), "fold": (x,), "filter_map": (x, a)}[self.kind]

    def has_output(self) -> bool:
        return self.kind in ("map", "zip_map", "filter_map")

    def bytes_moved(self, n: int, itemsize: int, count: int) -> int:
        """Inputs read + outputs written (a filter writes `count` elements)."""
        reads = 2 * n if self.kind == "zip_map" else n
        writes = {"map": n, "zip_map": n, "fold": 0, "filter_map": count}[self.kind]
        return (reads + writes) * itemsize

    def reference(self, x: np.ndarray, y: np.ndarray, dtype: str) -> tuple[np.ndarray | None, Any]:
        """(expected output or None, expected scalar result or None), computed in float64 / wrapping int."""
        a, b = scalars(dtype)
        t = NP_TYPES[dtype]
        wide = np.float64 if dtype == "f32" else np.int64
        xw, yw = x.astype(wide), y.astype(wide)
        aw, bw = wide(a), wide(b)
        out: np.ndarray | None
        result: Any = None
        if self.name == "axpb":
            out = aw * xw + bw
        elif self.name == "axpy":
            out = aw * xw + yw
        elif self.name == "sqrt_abs_axpb":
            out = np.sqrt(np.abs(aw * xw)) + bw
        elif self.name == "filter_gt0_scale":
            out = aw * xw[x > 0]
            result = len(out)
        else:
            out = None
            terms = {"sum": xw, "sumsq": xw * xw, "filter_gt0_sum": xw[x > 0]}[self.name]
            result = terms.sum()
        if out is not None:
            out = out.astype(t) if dtype == "f32" else out.astype(np.int64).astype(t)
        if result is not None and self.kind == "fold":
            result = t(result) if dtype == "f32" else t(np.int64(result).astype(np.int32))
        return out, result


def _np_sum(v: np.ndarray) -> Any:
    return np.sum(v, dtype=v.dtype)


PATTERNS: dict[str, BenchPattern] = {
    p.name: p
    for p in (
        BenchPattern(
            "axpb", "map", "map", DTYPES,
            "for (int64_t i = 0; i < n; i++) out[i] = a * x[i] + b;",
            (NumpyExpr("a*x+b", lambda x, a, b: a * x + b),),
            "copy",
        ),
        BenchPattern(
            "sum", "fold", "fold", DTYPES,
            "T s = 0; for (int64_t i = 0; i < n; i++) s += x[i]; return s;",
            (NumpyExpr("np.sum(x)", _np_sum),),
            "read", reduction=True,
        ),
        BenchPattern(
            "sumsq", "map→fold", "fold", DTYPES,
            "T s = 0; for (int64_t i = 0; i < n; i++) s += x[i] * x[i]; return s;",
            (NumpyExpr("np.sum(x*x)", lambda x: _np_sum(x * x)),),
            "read", reduction=True,
        ),
        BenchPattern(
            "filter_gt0_scale", "filter→map", "filter_map", DTYPES,
            "int64_t k = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) out[k++] = a * x[i]; return k;",
            (NumpyExpr("x[x>0]*a", lambda x, a: x[x > 0] * a),),
            "copy",
        ),
        BenchPattern(
            "filter_gt0_sum", "filter→fold", "fold", DTYPES,
            "T s = 0; for (int64_t i = 0; i < n; i++) if (x[i] > 0) s += x[i]; return s;",
            (
                NumpyExpr("np.sum(x[x>0])", lambda x: _np_sum(x[x > 0])),
                NumpyExpr("np.sum(x*(x>0))", lambda x: _np_sum(x * (x > 0))),
            ),
            "read", reduction=True,
        ),
        BenchPattern(
            "sqrt_abs_axpb", "map→map", "map", ("f32",),
            "for (int64_t i = 0; i < n; i++) out[i] = sqrtf(fabsf(a * x[i])) + b;",
            (NumpyExpr("np.sqrt(np.abs(a*x))+b", lambda x, a, b: np.sqrt(np.abs(a * x)) + b),),
            "copy",
        ),
        BenchPattern(
            "axpy", "zip→map", "zip_map", DTYPES,
            "for (int64_t i = 0; i < n; i++) out[i] = a * x[i] + y[i];",
            (NumpyExpr("a*x+y", lambda x, y, a: a * x + y),),
            "triad",
        ),
    )
}


def make_data(n: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """x, y: 64-byte aligned; floats standard normal, integers in [-1000, 1000] (half are > 0 either way)."""
    rng = np.random.default_rng(seed)
    x, y = aligned_empty(n, dtype), aligned_empty(n, dtype)
    if dtype == "f32":
        x[:] = rng.standard_normal(n, dtype=np.float32)
        y[:] = rng.standard_normal(n, dtype=np.float32)
    else:
        x[:] = rng.integers(-1000, 1001, n, dtype=np.int32)
        y[:] = rng.integers(-1000, 1001, n, dtype=np.int32)
    return x, y


def aligned_empty(n: int, dtype: str, align: int = 64) -> np.ndarray:
    """An uninitialised array whose data starts on an `align`-byte boundary (every implementation gets the same)."""
    t = np.dtype(NP_TYPES[dtype])
    raw = np.empty(n * t.itemsize + align, np.uint8)
    start = -raw.ctypes.data % align
    return raw[start : start + n * t.itemsize].view(t)


from .rows import ROWS  # noqa: E402  (rows.py builds on the definitions above)

PATTERNS.update({p.name: p for p in ROWS})
