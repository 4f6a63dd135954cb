"""loop-unroll-jam (register blocking) through compiled matrix products on every ISA.

The corpus's matrix products (f32 and wrapping i32) and matrix-vector product are compiled
for scalar, sse2, avx2, avx512 (natively, where this CPU runs them) and neon (qemu, one batch
per kernel), once with the default pipeline (loop-unroll-jam{rows=4} on the SIMD targets;
scalar gets loop-interchange and loop-unroll-jam added by hand) and once with the same
pipeline without loop-unroll-jam (scalar: with loop-interchange). Row counts 0, 1, 3, R-1, R+1, 17, 33 and 64 (R = 4) cover
groups with no, one and several rows left over; the other two axes vary with them.

f32 results must be bit-identical with and without the jam (every element is still summed
over j in order: no `reassoc` is used) and close to numpy's float64 product; i32 results
equal numpy's wrapping product exactly. A last test checks that the jam fired, so the
comparisons run the jammed code.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from loopopt.compile import compile, make_context, parse, run_pipeline
from loopopt.dialects import loop
from loopopt.passes.pipeline import JAM_ROWS, LoopPipelinePass, _all_passes
from loopopt.tools.loop_run import run_compiled_batch

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "test" / "corpus" / "df"
ISAS = ("scalar", "sse2", "avx2", "avx512", "neon")
R = 4
ROWS = (0, 1, 3, R - 1, R + 1, 17, 33, 64)
SOURCE = (CORPUS / "matmul.mlir").read_text() + (CORPUS / "matvec.mlir").read_text()


def _pipeline(isa: str, jam: bool) -> str:
    """The default pipeline for `isa` with or without loop-unroll-jam (scalar: with it added)."""
    spelled = LoopPipelinePass(target=isa).spelling(set(_all_passes()))
    if isa == "scalar":
        # interchange in both runs: without it the scalar pipeline sums each element's (reassoc)
        # dot product in loop-unroll's 4 partial sums, another order than the jammed loops'
        jammed = f"loop-unroll-jam{{rows={R}}}," if jam else ""
        return spelled.replace("loop-licm,", f"loop-licm,loop-interchange{{rows=4}},{jammed}", 1)
    if not jam:
        return re.sub(r"loop-unroll-jam\{[^}]*\},", "", spelled)
    return spelled


@functools.cache
def _compiled(isa: str, jam: bool):
    return compile(SOURCE, target=isa, pipeline=_pipeline(isa, jam))


def _matmul_cases(dtype: type) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for n in ROWS:
        rng = np.random.default_rng([n, np.dtype(dtype).itemsize])
        shape_a, shape_b = (n, n % 7 + 2 * n // 3 + 1), (n % 7 + 2 * n // 3 + 1, (n * 5) % 23 + 1)
        if dtype == np.int32:
            a = rng.integers(-(2**31), 2**31, size=shape_a, dtype=np.int64).astype(np.int32)
            b = rng.integers(-(2**31), 2**31, size=shape_b, dtype=np.int64).astype(np.int32)
        else:
            a = rng.standard_normal(shape_a).astype(dtype)
            b = rng.standard_normal(shape_b).astype(dtype)
        out.append((a, b))
    return out


def _run(isa: str, jam: bool, kernel: str, cases: list[tuple[np.ndarray, ...]]) -> list[np.ndarray]:
    return [np.asarray(got[0]) for got in run_compiled_batch(_compiled(isa, jam), kernel, cases)]


def _ref_i32(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The wrapping i32 product (exact in int64 per product, the sum reduced mod 2^32)."""
    prods = a.astype(np.int64)[:, :, None] * b.astype(np.int64)[None, :, :]
    return (prods & 0xFFFFFFFF).sum(axis=1, dtype=np.uint64).astype(np.uint32).view(np.int32)


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in ISAS])
def test_jammed_matmul_f32_is_bit_identical_and_matches_numpy(isa: str) -> None:
    cases = _matmul_cases(np.float32)
    jammed = _run(isa, True, "matmul_f32", cases)
    plain = _run(isa, False, "matmul_f32", cases)
    for (a, b), got, ref in zip(cases, jammed, plain, strict=True):
        where = f"{isa}, a {a.shape} b {b.shape}"
        assert got.shape == (a.shape[0], b.shape[1]), where
        assert got.tobytes() == ref.tobytes(), f"{where}: jammed and plain results differ"
        np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4, err_msg=where)


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in ISAS])
def test_jammed_matmul_i32_wraps_like_numpy(isa: str) -> None:
    cases = _matmul_cases(np.int32)
    for (a, b), got in zip(cases, _run(isa, True, "matmul_i32", cases), strict=True):
        assert np.array_equal(got, _ref_i32(a, b)), f"{isa}, a {a.shape} b {b.shape}"


@pytest.mark.parametrize("isa", [pytest.param(i, marks=pytest.mark.isa(i), id=i) for i in ISAS])
def test_matvec_next_to_the_jam_matches_numpy(isa: str) -> None:
    """The row loop of a matrix-vector product carries a dot product (JAM_REJECT_SHAPE): it
    is left as it is and still right."""
    cases = []
    for n in ROWS:
        rng = np.random.default_rng([n, 2])
        cols = (n * 3) % 37 + 1
        cases.append((rng.standard_normal((n, cols)).astype(np.float32), rng.standard_normal(cols).astype(np.float32)))
    for (m, v), got in zip(cases, _run(isa, True, "matvec_f32", cases), strict=True):
        np.testing.assert_allclose(got, m.astype(np.float64) @ v, rtol=1e-4, atol=1e-4, err_msg=f"{isa} {m.shape}")


def _jammed_stores(module: ModuleOp) -> set[int]:
    """The row offsets (`%i + c`) of the stores in the module's loops."""
    return {s.affine_indices[0].normalized()[1] for s in module.walk() if isinstance(s, loop.StoreOp)
            and s.buf_type.rank.data == 2}  # fmt: skip


@pytest.mark.parametrize("isa", ISAS)
def test_the_jam_fires(isa: str) -> None:
    """Up to loop-vectorize, the matrix product stores rows i .. i + R - 1 of C (so the runs
    above compare jammed code), and the pipeline spells the R of JAM_ROWS."""
    text = (CORPUS / "matmul.mlir").read_text()
    module = parse(text, make_context())
    spelled = _pipeline(isa, True)
    upto = spelled[: spelled.index(",", spelled.index("loop-unroll-jam"))]
    run_pipeline(module, upto, make_context())
    assert _jammed_stores(module) == set(range(R)), isa
    if isa != "scalar":
        assert JAM_ROWS[isa] == R and f"loop-unroll-jam{{rows={R}}}" in spelled
