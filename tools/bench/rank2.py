"""Rank-2 kernels against numpy and BLAS: row sum, column sum, matrix-vector, matrix multiply.

    python -m loopopt.tools.bench.rank2 [--target avx512] [--trials 15]

`loop-bench` has the row sum, matvec and matmul rows too (bench/rows.py, against the kernel
library, gcc, numpy and BLAS); this script keeps the shapes it sweeps, the column sums and the
`loop-interchange{rows=R}` jam-factor comparison.

Each row times loopopt's kernel from the df corpus (test/corpus/df/rank2_vector.mlir,
matvec.mlir, matmul.mlir) built by `loop-pipeline{target}` (and, where the jam factor of
`loop-interchange{rows=R}` matters, with other R) against numpy, interleaved
(tools/bench/timing.py: this thread's CPU time, median of the trials). The matrix-vector rows
also time a hand-written AVX-512 / AVX2 row-dot kernel (four accumulators per row, gcc -O3
-march=native) next to numpy's `m @ v` (OpenBLAS sgemv); the matrix multiply is compared with
numpy's `a @ b` (OpenBLAS sgemm; run with OPENBLAS_NUM_THREADS=1 for a like-for-like ratio,
and without OPENBLAS_CORETYPE so OpenBLAS picks its Zen kernels).

The matrix multiply is `map(a[i,j], b[j,k]) -> [i,k,j]` reduced over `j` (named-axis
broadcasting, docs/df.md): the nest i, k, j, which `loop-interchange{rows=4}` turns into rows of
C updated 4 rows of B at a time, vectorized along k, and `loop-unroll-jam{rows=R}` into R rows
of C per pass (register blocking: an R x 4 block of A broadcast in registers, each B vector
loaded once for R rows, R x 4 FMAs per 4 B loads and R loads and stores of C). Its rows time
the default pipeline (R = 4, passes/pipeline.py JAM_ROWS) against other R and R = 1 (no jam,
the pipeline before loop-unroll-jam); docs/rank2.md has the measurements.
"""

from __future__ import annotations

import argparse
import ctypes
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np

import loopopt
from loopopt.tools.bench import env
from loopopt.tools.bench.timing import TimingConfig, python_loop, time_group

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "test" / "corpus" / "df"

HAND_MATVEC = r"""
#include <immintrin.h>
#include <stdint.h>
/* y[i] = sum_j m[i*cols + j] * v[j]: four vector accumulators per row, a scalar tail. */
void hand_matvec(const float *restrict m, const float *restrict v, float *restrict y, int64_t rows, int64_t cols)
{
    for (int64_t i = 0; i < rows; i++) {
        const float *r = m + i * cols;
        int64_t j = 0;
#ifdef __AVX512F__
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (; j + 64 <= cols; j += 64) {
            a0 = _mm512_fmadd_ps(_mm512_loadu_ps(r + j), _mm512_loadu_ps(v + j), a0);
            a1 = _mm512_fmadd_ps(_mm512_loadu_ps(r + j + 16), _mm512_loadu_ps(v + j + 16), a1);
            a2 = _mm512_fmadd_ps(_mm512_loadu_ps(r + j + 32), _mm512_loadu_ps(v + j + 32), a2);
            a3 = _mm512_fmadd_ps(_mm512_loadu_ps(r + j + 48), _mm512_loadu_ps(v + j + 48), a3);
        }
        float s = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
#else
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (; j + 32 <= cols; j += 32) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(r + j), _mm256_loadu_ps(v + j), a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(r + j + 8), _mm256_loadu_ps(v + j + 8), a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(r + j + 16), _mm256_loadu_ps(v + j + 16), a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(r + j + 24), _mm256_loadu_ps(v + j + 24), a3);
        }
        __m256 t = _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3));
        __m128 h = _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
        h = _mm_add_ps(h, _mm_movehl_ps(h, h));
        float s = _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
#endif
        for (; j < cols; j++)
            s += r[j] * v[j];
        y[i] = s;
    }
}
"""


def hand_matvec() -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    """The hand-written kernel, built with gcc -O3 -march=native into a temporary library."""
    tmp = Path(tempfile.mkdtemp(prefix="lo_rank2_"))
    (tmp / "hand.c").write_text(HAND_MATVEC)
    subprocess.run(["gcc", "-O3", "-march=native", "-shared", "-fPIC", "-o", str(tmp / "hand.so"), str(tmp / "hand.c")],
                   check=True)
    fn = ctypes.CDLL(str(tmp / "hand.so")).hand_matvec
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
    return fn


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


def kernel_runner(fn, *args):
    """A runner calling a compiled kernel `reps` times (one Python call each: ~1 µs, negligible
    against these sizes)."""
    return python_loop(fn, *args)


def rows(target: str, config: TimingConfig) -> list[tuple[str, str, dict[str, float], str]]:
    """(kernel, shape, {implementation: seconds}, check) per benchmark row."""
    rng = np.random.default_rng(0)
    out = []
    vec = loopopt.compile((CORPUS / "rank2_vector.mlir").read_text(), target=target)
    mv = loopopt.compile((CORPUS / "matvec.mlir").read_text(), target=target)

    for shape in ((4096, 1024), (1024, 37)):
        m = rng.standard_normal(shape).astype(np.float32)
        y = np.empty(shape[0], np.float32)
        vec.row_sums_f32(m, y)
        ok = np.allclose(y, m.astype(np.float64).sum(axis=1), rtol=1e-3, atol=1e-3)
        t = time_group({"loopopt": kernel_runner(vec.row_sums_f32, m, y),
                        "numpy m.sum(axis=1)": python_loop(np.sum, m, 1)}, config)
        out.append(("row sum f32", f"{shape[0]}x{shape[1]}", {k: v.median for k, v in t.items()}, "ok" if ok else "WRONG"))

    for shape in ((4096, 1024), (64, 65536)):
        m = rng.standard_normal(shape).astype(np.float32)
        y = np.empty(shape[1], np.float32)
        runners = {}
        for r in (1, 4):
            k = loopopt.compile((CORPUS / "rank2_vector.mlir").read_text(), target=target,
                                pipeline=_pipeline_with_rows(target, r))
            runners[f"loopopt rows={r}"] = kernel_runner(k.col_sums_f32, m, y)
        vec.col_sums_f32(m, y)
        ok = np.allclose(y, m.astype(np.float64).sum(axis=0), rtol=1e-3, atol=1e-3)
        runners["numpy m.sum(axis=0)"] = python_loop(np.sum, m, 0)
        t = time_group(runners, config)
        out.append(("col sum f32", f"{shape[0]}x{shape[1]}", {k: v.median for k, v in t.items()}, "ok" if ok else "WRONG"))

    hand = hand_matvec()
    for shape in ((4096, 1024), (1024, 4096), (256, 256)):
        m = rng.standard_normal(shape).astype(np.float32)
        v = rng.standard_normal(shape[1]).astype(np.float32)
        y = np.empty(shape[0], np.float32)
        yh = np.empty(shape[0], np.float32)
        mv.matvec_f32(m, v, y)
        hand(_ptr(m), _ptr(v), _ptr(yh), shape[0], shape[1])
        ref = m.astype(np.float64) @ v
        ok = np.allclose(y, ref, rtol=1e-3, atol=1e-2) and np.allclose(yh, ref, rtol=1e-3, atol=1e-2)
        t = time_group({"loopopt": kernel_runner(mv.matvec_f32, m, v, y),
                        "hand C": python_loop(hand, _ptr(m), _ptr(v), _ptr(yh), shape[0], shape[1]),
                        "numpy m @ v": python_loop(np.matmul, m, v)}, config)
        out.append(("matvec f32", f"{shape[0]}x{shape[1]}", {k: v.median for k, v in t.items()}, "ok" if ok else "WRONG"))

    out.append(matmul_row(target, config, rng))
    return out


def matmul_row(target: str, config: TimingConfig, rng: np.random.Generator) -> tuple[str, str, dict[str, float], str]:
    """256x256x256 f32: the default pipeline, other jam factors, numpy's `a @ b`."""
    n = 256
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.empty((n, n), np.float32)
    runners = {}
    ok = True
    for r in (4, 1, 2, 8):
        k = loopopt.compile((CORPUS / "matmul.mlir").read_text(), target=target, pipeline=_pipeline_with_jam(target, r))
        k.matmul_f32(a, b, c)
        ok = ok and np.allclose(c, a.astype(np.float64) @ b, rtol=1e-3, atol=1e-3)
        runners["loopopt (default, jam 4)" if r == 4 else f"loopopt jam {r}"] = kernel_runner(k.matmul_f32, a, b, c)
    runners["numpy a @ b"] = python_loop(np.matmul, a, b)
    t = time_group(runners, config)
    return ("matmul f32", f"{n}x{n}x{n}", {k: v.median for k, v in t.items()}, "ok" if ok else "WRONG")


def _pipeline_with_rows(target: str, rows: int) -> str:
    """loop-pipeline's passes with `loop-interchange{rows=R}` (to compare the jam factors)."""
    from loopopt.passes.pipeline import LoopPipelinePass, _all_passes

    spelled = LoopPipelinePass(target=target).spelling(set(_all_passes()))
    return re.sub(r"loop-interchange(\{[^}]*\})?", f"loop-interchange{{rows={rows}}}", spelled, count=1)


def _pipeline_with_jam(target: str, rows: int) -> str:
    """loop-pipeline's passes with `loop-unroll-jam{rows=R}` (R = 1: without the pass)."""
    from loopopt.passes.pipeline import LoopPipelinePass, _all_passes

    spelled = LoopPipelinePass(target=target).spelling(set(_all_passes()))
    step = f"loop-unroll-jam{{rows={rows}}}," if rows > 1 else ""
    return re.sub(r"loop-unroll-jam(\{[^}]*\})?,", step, spelled, count=1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="avx512")
    parser.add_argument("--trials", type=int, default=15)
    parser.add_argument("--only", choices=("matmul",), help="time only the matrix multiply rows")
    args = parser.parse_args(argv)
    config = TimingConfig(trials=args.trials)
    print(f"CPU: {env.cpu_model()}; target {args.target}; load average at start {env.load_average()}")
    print("| kernel | shape | implementation | time | vs numpy | check |")
    print("|---|---|---|---|---|---|")
    table = [matmul_row(args.target, config, np.random.default_rng(0))] if args.only else rows(args.target, config)
    for kernel, shape, times, check in table:
        base = next(v for k, v in times.items() if k.startswith("numpy"))
        for name, sec in times.items():
            print(f"| {kernel} | {shape} | {name} | {sec * 1e6:.1f} µs | {base / sec:.2f}x | {check} |")
    print(f"load average at end {env.load_average()}")


if __name__ == "__main__":
    main()
