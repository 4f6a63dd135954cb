"""NEON kernels under qemu-aarch64, checked against the same numpy oracle as the native ISAs.

qemu start-up dominates a single call, so each dtype gets one test binary: a
multiplexer kernel (`lo_test_mux_<dt>`) that calls the kernel chosen by `which`
on the inputs starting `off` elements in (unaligned), and all cases of that
dtype go through one emulator run.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from kernels_data import scalars, values
from kernels_oracle import NP, check, edge_sizes, lanes, row_shape
from loopopt import kernels, runtime
from loopopt.runtime import ArrayParam, KernelSignature, ScalarParam

NEON_OK, WHY = runtime.neon_runner_available()
pytestmark = pytest.mark.skipif(not NEON_OK, reason=f"NEON not exercised: {WHY}")

SPECIALS = {"f32": [np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -2.5], "f64": [np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -2.5]}


def mux_source(dtype: str) -> tuple[str, KernelSignature, list[str]]:
    t = {"f32": "float", "f64": "double", "i32": "int32_t", "i64": "int64_t"}[dtype]
    patterns = [p for p, d in kernels.kernels() if d == dtype]
    cases = []
    for k, p in enumerate(patterns):
        f = f"lo_{p}_{dtype}_neon"
        kind = kernels.PATTERNS[p].kind
        call = {
            "map": f"{f}(xs, m, a, b, os, m);",
            "zip_map": f"{f}(xs, m, ys, m, a, os, m);",
            "fold": f"*ret0 = {f}(xs, m);",
            "zip_fold": f"*ret0 = {f}(xs, m, ys, m);",
            "filter_map": f"*ret1 = {f}(xs, m, a, os, m);",
            "scan": f"{f}(xs, m, os, m);",
            "row_fold": f"{f}(xs, rows, rows ? m / rows : 0, os, m);",
        }[kind]
        cases.append(f"    case {k}: {call} break;")
    src = "\n".join(
        [
            kernels.isa_source("neon"),
            f"void lo_test_mux_{dtype}(const {t} *restrict x, int64_t x_len, const {t} *restrict y, int64_t y_len,",
            f"                         {t} a, {t} b, int64_t which, int64_t off, {t} *restrict out, int64_t out_len,",
            f"                         {t} *restrict ret0, int64_t *restrict ret1) {{",
            "    (void)y_len; (void)out_len;",
            f"    const {t} *xs = x + off, *ys = y + off; {t} *os = out + off; int64_t m = x_len - off;",
            "    *ret0 = 0; *ret1 = 0;",
            "    const int64_t rows = m == 0 ? 0 : m % 3 == 0 ? 3 : 1; (void)rows; /* kernels_oracle.row_shape */",
            "    switch (which) {",
            *cases,
            "    }",
            "}",
        ]
    )
    sig = KernelSignature(
        f"lo_test_mux_{dtype}",
        (
            ArrayParam("x", dtype, axes=("n",)),
            ArrayParam("y", dtype, axes=("n",)),
            ScalarParam("a", dtype),
            ScalarParam("b", dtype),
            ScalarParam("which", "i64"),
            ScalarParam("off", "i64"),
            ArrayParam("out", dtype, output=True, axes=("n",)),
        ),
        (dtype, "i64"),
    )
    return src, sig, patterns


def make_cases(dtype: str, patterns: list[str]):
    rng = np.random.default_rng(zlib.crc32(dtype.encode()))
    t = NP[dtype]
    cases = []
    for which, pattern in enumerate(patterns):
        for n in edge_sizes(lanes("neon", dtype)):
            off = n % 4 if n < 5000 else 1
            x = values(rng, pattern, dtype, n + off)
            y = values(rng, pattern, dtype, n + off)
            a, b = scalars(rng, dtype)
            cases.append((pattern, which, x, y, a, b, off))
        if dtype in SPECIALS:  # NaN / ±Inf / ±0 in every pattern (min/max NaN propagation, filters)
            for n in (1, 5, 9, 33, 200):
                x = rng.choice(np.array(SPECIALS[dtype], t), n).astype(t)
                cases.append((pattern, which, x, x[::-1].copy(), t(2), t(0.5), 0))
            for p in (0, 3, 17, 31):  # one NaN among ordinary values
                x = np.linspace(-3, 3, 32).astype(t)
                x[p] = np.nan
                cases.append((pattern, which, x, x.copy(), t(2), t(0.5), 0))
        else:
            info = np.iinfo(t)
            for fill in (info.max, info.min):
                x = np.full(37, fill, t)
                cases.append((pattern, which, x, x.copy(), t(info.max), t(info.min), 0))
    return cases


@pytest.mark.parametrize("dtype", kernels.DTYPES)
def test_neon_kernels_under_qemu(dtype):
    src, sig, patterns = mux_source(dtype)
    cases = make_cases(dtype, patterns)
    runs = runtime.run_foreign_batch(src, sig, [(x, y, a, b, which, off) for _, which, x, y, a, b, off in cases], isa="neon")
    for (pattern, _, x, y, a, b, off), ((out,), (result, count)) in zip(cases, runs):
        xs, ys = x[off:], y[off:]
        kind = kernels.PATTERNS[pattern].kind
        if kind in ("map", "zip_map", "scan"):
            got = out[off:]
        elif kind == "filter_map":
            got = out[off : off + count]
        elif kind == "row_fold":
            got = out[off : off + row_shape(xs.size)[0]]
        else:
            got = result
        check(pattern, dtype, "neon", got, xs, ys, a, b, what=f"off={off} (qemu)")
