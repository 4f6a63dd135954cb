"""`loop-bench` rows beyond the seed patterns (issue 12): softmax, cumsum, row sum, matvec, matmul.

Their df programs are the corpus's (test/corpus/df/: vmath.mlir's softmax, cumsum.mlir,
rank2_vector.mlir's row sums, matvec.mlir, matmul.mlir), not copies. Their baselines differ:

* kernel library: cumsum is its hand in-register scan (`lo_cumsum_<dt>_<isa>`), row sum its
  `lo_row_sum_<dt>_<isa>` (its `lo_sum` once per row); matvec calls its `lo_dot` once per row
  (4 vector accumulators, glue C below);
  softmax (no vector exp in the library) and matmul have none, so their cells print "—".
* BLAS: matvec and matmul only, numpy's `m @ v` / `a @ b` (OpenBLAS on one thread, bench/blas.py).
* gcc -O3 -march=native on the plain scalar C, and numpy's natural expression, for every row.

Rank-2 rows map the size n to a shape: rows of 1024 (row sum, matvec: 1Mi is 1024×1024), and a
square matmul s×s times s×s with s = √n (64Ki is 256³; larger sizes skip it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .patterns import (
    BLAS,
    GCC_BASELINE,
    KERNELS,
    NUMPY_BASELINE,
    NP_TYPES,
    BenchPattern,
    NumpyExpr,
    aligned_empty,
    size_label,
)

CORPUS = Path(__file__).resolve().parents[2] / "test" / "corpus" / "df"
ROW = 1024
"""Row length of the row-sum and matvec matrices."""
MATMUL_MAX = 256
"""The largest matmul side measured (256³: 2·256³ flops, ~1 ms scalar)."""

HAND_GLUE = {
    "matvec": """
void {name}(const {T} *restrict m, int64_t rows, int64_t cols, const {T} *restrict v, int64_t v_len,
            {T} *restrict out, int64_t out_len)
{{
    for (int64_t r = 0; r < rows && r < out_len; r++) out[r] = lo_dot_{DT}_{ISA}(m + r * cols, cols, v, v_len);
}}
""",
}
"""Hand kernels composed from the kernel library: matvec is one `lo_dot` call per row."""


@dataclass(frozen=True)
class RowPattern(BenchPattern):
    """A pattern whose df program is a corpus program; `kind` is one of
    `unary` (x -> out), `row_fold` (m -> out[rows]), `matvec` (m, v -> out[rows]), `matmul` (a, b -> out)."""

    custom_check: ClassVar[bool] = True
    source: str = ""
    """The corpus file (test/corpus/df/<source>)."""
    symbol: str = ""
    """The df function, `{dt}` for the dtype."""

    @property
    def program(self) -> Path:
        return CORPUS / self.source

    def kernel(self, dtype: str) -> str:
        return self.symbol.format(dt=dtype)

    # ---- shapes and buffers

    def shape(self, n: int) -> tuple[int, ...]:
        if self.kind in ("row_fold", "matvec"):
            return (n // ROW, ROW) if n >= ROW else (1, n)
        if self.kind == "matmul":
            s = math.isqrt(n)
            return (s, s)
        return (n,)

    def fits(self, n: int) -> bool:
        return self.kind != "matmul" or math.isqrt(n) <= MATMUL_MAX

    def size_text(self, n: int) -> str:
        shape = self.shape(n)
        if self.kind == "matmul":
            return f"{shape[0]}³"
        return "×".join(map(str, shape)) if len(shape) == 2 else size_label(n)

    def inputs(self, x: np.ndarray, y: np.ndarray, dtype: str) -> tuple[Any, ...]:
        shape = self.shape(len(x))
        size = math.prod(shape)
        if self.kind == "unary":
            return (x,)
        m = x[:size].reshape(shape)
        if self.kind == "row_fold":
            return (m,)
        if self.kind == "matvec":
            return (m, y[: shape[1]])
        return (m, y[:size].reshape(shape))

    def has_output(self) -> bool:
        return True

    def out_buffer(self, n: int, dtype: str) -> np.ndarray:
        shape = self.shape(n)
        if self.kind == "unary":
            return aligned_empty(n, dtype)
        if self.kind == "matmul":
            return aligned_empty(math.prod(shape), dtype).reshape(shape)
        return aligned_empty(shape[0], dtype)

    def bytes_moved(self, n: int, itemsize: int, count: int) -> int:
        """Inputs read once + outputs written once (matmul: far from its bound, which is the flops)."""
        rows, cols = self.shape(n) if self.kind != "unary" else (1, n)
        elements = {"unary": 2 * n, "row_fold": rows * cols + rows, "matvec": rows * cols + cols + rows,
                    "matmul": 3 * rows * cols}[self.kind]
        return elements * itemsize

    # ---- C conventions

    def c_signature(self, name: str, dtype: str) -> Any:
        from loopopt.runtime import ArrayParam, KernelSignature

        out = {
            "unary": ArrayParam("out", dtype, output=True, axes=("i",)),
            "row_fold": ArrayParam("out", dtype, output=True, axes=("i",)),
            "matvec": ArrayParam("out", dtype, output=True, axes=("i",)),
            "matmul": ArrayParam("out", dtype, 2, output=True, axes=("i", "k")),
        }[self.kind]
        ins = {
            "unary": (ArrayParam("x", dtype, axes=("i",)),),
            "row_fold": (ArrayParam("m", dtype, 2, axes=("i", "j")),),
            "matvec": (ArrayParam("m", dtype, 2, axes=("i", "j")), ArrayParam("v", dtype, axes=("j",))),
            "matmul": (ArrayParam("a", dtype, 2, axes=("i", "j")), ArrayParam("b", dtype, 2, axes=("j", "k"))),
        }[self.kind]
        return KernelSignature(name, (*ins, out))

    def c_params(self) -> tuple[str, str, str]:
        params = {
            "unary": "const T *restrict x, int64_t n, T *restrict out, int64_t out_len",
            "row_fold": "const T *restrict m, int64_t rows, int64_t cols, T *restrict out, int64_t out_len",
            "matvec": "const T *restrict m, int64_t rows, int64_t cols, const T *restrict v, int64_t v_len, "
                      "T *restrict out, int64_t out_len",
            "matmul": "const T *restrict a, int64_t rows, int64_t inner, const T *restrict b, int64_t b_rows, "
                      "int64_t cols, T *restrict out, int64_t out_rows, int64_t out_cols",
        }[self.kind]
        unused = {"unary": "(void)out_len;", "row_fold": "(void)out_len;", "matvec": "(void)v_len; (void)out_len;",
                  "matmul": "(void)b_rows; (void)out_rows; (void)out_cols;"}[self.kind]
        return params, "void", unused

    def hand_kernel(self, dtype: str, isa: str) -> tuple[str, str]:
        from loopopt import kernels

        if self.name in HAND_GLUE:
            name = f"hand_{self.name}_{dtype}_{isa}"
            t = {"f32": "float", "i32": "int32_t"}[dtype]
            return name, HAND_GLUE[self.name].format(name=name, T=t, DT=dtype, ISA=isa)
        return kernels.kernel_name(self.name, dtype, isa), ""

    # ---- reference and check

    def reference(self, x: np.ndarray, y: np.ndarray, dtype: str) -> tuple[np.ndarray | None, Any]:
        """The exact result (float64, or int64 wrapped to the element type)."""
        args = self.inputs(x, y, dtype)
        t = NP_TYPES[dtype]
        wide = [a.astype(np.float64 if dtype == "f32" else np.int64) for a in args]
        if self.name in SOFTMAX_ROWS:
            e = np.exp(wide[0] - wide[0].max()) if len(x) else wide[0]
            out = e / e.sum() if len(x) else e
        elif self.name == "cumsum":
            out = np.cumsum(wide[0])
        elif self.name == "row_sum":
            out = wide[0].sum(axis=1)
        elif self.name == "matvec":
            out = wide[0] @ wide[1]
        else:
            out = wide[0] @ wide[1]
        return (out.astype(t) if dtype == "f32" else out.astype(np.int64).astype(t)), None

    def mismatch(self, dtype: str, args: tuple[Any, ...], got: tuple[np.ndarray | None, Any],
                 expected: tuple[np.ndarray | None, Any]) -> str | None:
        """Integers exact. Float sums: each output within m·eps·Σ|its terms| (m terms; any summation
        order meets it, garbage does not). Softmax: the outputs' ratios to the exact ones agree to
        1e-4 (exp and the division, a few ulps) and their common factor (the sum's error) is within
        n·eps + 1e-5 of 1."""
        out, ref = got[0], expected[0]
        assert out is not None and ref is not None
        if out.shape != ref.shape:
            return f"wrong result: shape {out.shape}, expected {ref.shape}"
        if dtype == "i32":
            bad = np.flatnonzero(out.ravel() != ref.ravel())
            return f"wrong result: out[{bad[0]}] = {out.ravel()[bad[0]]!r}, expected {ref.ravel()[bad[0]]!r}" if bad.size else None
        eps = float(np.finfo(np.float32).eps)
        got64, ref64 = out.astype(np.float64), ref.astype(np.float64)
        if self.name in SOFTMAX_ROWS:
            if ref.size == 0:
                return None
            keep = ref64 > 1e-30
            r = got64[keep] / ref64[keep]
            spread, scale = float(np.ptp(r)), float(np.mean(r))
            if not (spread <= 1e-4 and abs(scale - 1) <= ref.size * eps + 1e-5):
                return f"wrong result: out/exact spans {spread:.3g}, mean {scale!r}"
            return None
        a = [np.abs(v.astype(np.float64)) for v in args]
        terms, m = {
            "cumsum": lambda: (np.cumsum(a[0]), a[0].size),
            "row_sum": lambda: (a[0].sum(axis=1), a[0].shape[1]),
            "matvec": lambda: (a[0] @ a[1], a[0].shape[1]),
            "matmul": lambda: (a[0] @ a[1], a[0].shape[1]),
        }[self.name]()
        bound = m * eps * terms + 1e-6
        bad = np.flatnonzero(~(np.abs(got64 - ref64) <= bound).ravel())
        if bad.size:
            i = bad[0]
            return f"wrong result: out[{i}] = {got64.ravel()[i]!r}, expected {ref64.ravel()[i]!r} ± {bound.ravel()[i]:.3g}"
        return None


SOFTMAX_ROWS = ("softmax", "softmax_afn")
"""Rows computing softmax (one reference and one check)."""


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


_SOFTMAX_C = (
    "T mx = -3.0e38f; for (int64_t i = 0; i < n; i++) mx = x[i] > mx ? x[i] : mx;\n"
    "    T s = 0; for (int64_t i = 0; i < n; i++) { out[i] = expf(x[i] - mx); s += out[i]; }\n"
    "    for (int64_t i = 0; i < n; i++) out[i] = out[i] / s;"
)
"""The softmax rows' plain C (gcc's baseline: -O3 -march=native -ffast-math, so libmvec's expf)."""

ROWS: tuple[RowPattern, ...] = (
    RowPattern(
        "softmax", "max→exp map→sum→scale", "unary", ("f32",),
        _SOFTMAX_C, (NumpyExpr("e=np.exp(x-x.max()); e/e.sum()", _softmax),),
        "copy", reduction=True, baselines=(GCC_BASELINE, NUMPY_BASELINE), issue11=False,
        source="vmath.mlir", symbol="softmax_{dt}",
    ),
    RowPattern(
        # the same program with fastmath<afn> on its exp (c_vmath.AFN_F32), the licence gcc's -ffast-math takes
        "softmax_afn", "softmax, exp fastmath<afn>", "unary", ("f32",),
        _SOFTMAX_C, (NumpyExpr("e=np.exp(x-x.max()); e/e.sum()", _softmax),),
        "copy", reduction=True, baselines=(GCC_BASELINE, NUMPY_BASELINE), issue11=False,
        source="vmath_afn.mlir", symbol="softmax_afn_{dt}",
    ),
    RowPattern(
        "cumsum", "scan", "unary", ("f32", "i32"),
        "T s = 0; for (int64_t i = 0; i < n; i++) { s += x[i]; out[i] = s; }",
        (NumpyExpr("np.cumsum(x, dtype=x.dtype)", lambda x: np.cumsum(x, dtype=x.dtype)),),
        "copy", reduction=True, baselines=(KERNELS, GCC_BASELINE, NUMPY_BASELINE), issue11=False,
        source="cumsum.mlir", symbol="cumsum_{dt}",
    ),
    RowPattern(
        "row_sum", "rank-2 row fold", "row_fold", ("f32",),
        "for (int64_t i = 0; i < rows; i++) { T s = 0; for (int64_t j = 0; j < cols; j++) s += m[i * cols + j]; out[i] = s; }",
        (NumpyExpr("m.sum(axis=1)", lambda m: m.sum(axis=1)),),
        "read", reduction=True, baselines=(KERNELS, GCC_BASELINE, NUMPY_BASELINE), issue11=False,
        source="rank2_vector.mlir", symbol="row_sums_{dt}",
    ),
    RowPattern(
        "matvec", "matrix·vector", "matvec", ("f32",),
        "for (int64_t i = 0; i < rows; i++) { T s = 0; for (int64_t j = 0; j < cols; j++) s += m[i * cols + j] * v[j]; out[i] = s; }",
        (NumpyExpr("(m*v).sum(axis=1)", lambda m, v: (m * v).sum(axis=1)),),
        "read", reduction=True, baselines=(KERNELS, GCC_BASELINE, NUMPY_BASELINE, BLAS), issue11=False,
        source="matvec.mlir", symbol="matvec_{dt}",
    ),
    RowPattern(
        "matmul", "matrix·matrix", "matmul", ("f32",),
        # the i, j, k order (rows of out updated by a row of b): the loop gcc vectorizes without -ffast-math
        "for (int64_t i = 0; i < rows; i++) {\n"
        "        for (int64_t k = 0; k < cols; k++) out[i * cols + k] = 0;\n"
        "        for (int64_t j = 0; j < inner; j++) { T aij = a[i * inner + j];\n"
        "            for (int64_t k = 0; k < cols; k++) out[i * cols + k] += aij * b[j * cols + k]; } }",
        (NumpyExpr("np.einsum('ij,jk->ik', a, b)", lambda a, b: np.einsum("ij,jk->ik", a, b)),),
        None, baselines=(GCC_BASELINE, NUMPY_BASELINE, BLAS), issue11=False,  # type: ignore[arg-type]
        source="matmul.mlir", symbol="matmul_{dt}",
    ),
)

BLAS_EXPRS: dict[str, NumpyExpr] = {
    "matvec": NumpyExpr("m @ v", lambda m, v: m @ v),
    "matmul": NumpyExpr("a @ b", lambda a, b: a @ b),
}
"""BLAS through numpy (OpenBLAS sgemv / sgemm)."""
