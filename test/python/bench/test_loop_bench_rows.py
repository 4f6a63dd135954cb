"""`loop-bench` rows whose baselines differ (bench/rows.py): declared baselines, "—" cells, checks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from loopopt.tools.bench.patterns import BLAS, KERNELS, PATTERNS, make_data
from loopopt.tools.bench.rows import ROWS
from loopopt.tools.loop_bench import main

ROW_NAMES = ("softmax", "softmax_afn", "cumsum", "row_sum", "matvec", "matmul")


def _row(table: str, pattern: str, dtype: str) -> list[str]:
    line = next(l for l in table.splitlines() if f"`{pattern}` | {dtype} |" in l)
    return [c.strip() for c in line.strip("|").split("|")]


def test_rows_declare_their_baselines():
    assert {p.name for p in ROWS} == set(ROW_NAMES)
    assert not any(PATTERNS[p].has(KERNELS) for p in ("softmax", "softmax_afn", "matmul"))
    assert all(PATTERNS[p].has(KERNELS) for p in ("cumsum", "row_sum", "matvec"))
    assert {p.name for p in PATTERNS.values() if p.has(BLAS)} == {"matvec", "matmul"}
    assert all(p.program.is_file() and "test/corpus/df" in str(p.program) for p in ROWS)


def test_rank2_shapes_and_sizes():
    assert PATTERNS["row_sum"].shape(1 << 20) == (1024, 1024) and PATTERNS["matvec"].size_text(1 << 16) == "64×1024"
    assert PATTERNS["matmul"].size_text(1 << 16) == "256³"
    assert PATTERNS["matmul"].fits(1 << 16) and not PATTERNS["matmul"].fits(1 << 20)
    x, y = make_data(1 << 12, "f32")
    a, b = PATTERNS["matmul"].inputs(x, y, "f32")
    assert a.shape == b.shape == (64, 64)


@pytest.mark.parametrize("name", ["cumsum", "row_sum", "matvec", "matmul", "softmax", "softmax_afn"])
def test_checks_reject_wrong_results(name):
    """The checks accept the reference and reject one output off by 1% + 1 (the any-order summation
    bound is loose: 4096·eps·Σ|x| is ~0.8 for the middle prefix of a cumsum, so 1% alone passes)."""
    p = PATTERNS[name]
    x, y = make_data(1 << 12, "f32")
    args = p.inputs(x, y, "f32")
    ref = p.reference(x, y, "f32")
    assert p.mismatch("f32", args, (ref[0].copy(), None), ref) is None
    bad = ref[0].copy()
    flat = bad.reshape(-1)
    flat[len(flat) // 2] = flat[len(flat) // 2] * 1.01 + 1
    assert "wrong result" in p.mismatch("f32", args, (bad, None), ref)


def test_cumsum_i32_is_exact_and_wraps():
    p = PATTERNS["cumsum"]
    x = np.array([2**31 - 1, 1, 5], np.int32)
    ref = p.reference(x, x, "i32")[0]
    assert ref.tolist() == [2**31 - 1, -(2**31), -(2**31) + 5]
    off = ref.copy()
    off[2] += 1
    assert "wrong result" in p.mismatch("i32", (x,), (off, None), (ref, None))


def test_quick_run_has_the_rows_and_dash_cells(tmp_path):
    """A tiny run: every row measured, "—" where a pattern has no such baseline, no baseline failing."""
    argv = ["--quick", "--patterns", ",".join(ROW_NAMES), "--sizes", "4Ki", "--no-compile-time", "--out", str(tmp_path)]
    assert main(argv) == 0
    table = (tmp_path / "README.md").read_text()
    header = next(l for l in table.splitlines() if l.startswith("| pattern | dtype | size | loopopt GB/s"))
    assert "÷kernels/" in header and "÷BLAS" in header and "BLAS GB/s" in header
    cols = [c.strip() for c in header.strip("|").split("|")]
    k, blas, rblas = cols.index("kernels GB/s"), cols.index("BLAS GB/s"), cols.index("÷BLAS")
    rk = next(i for i, c in enumerate(cols) if c.startswith("÷kernels/"))
    for name in ("softmax", "matmul"):
        row = _row(table, name, "f32")
        assert row[k] == "—" and row[rk] == "—", row
    for name in ("cumsum", "row_sum"):
        row = _row(table, name, "f32")
        assert row[blas] == "—" and row[rblas] == "—" and row[k] not in ("—", "✗"), row
    for name in ("matvec", "matmul"):
        assert _row(table, name, "f32")[blas] not in ("—", "✗")
    assert _row(table, "matmul", "f32")[2] == "64³"
    assert _row(table, "matvec", "f32")[2] == "4×1024"
    data = json.loads((tmp_path / "bench.json").read_text())
    cells = {(c["pattern"], c["dtype"]) for c in data["cells"]}
    assert cells == {(p, d) for p in ROW_NAMES for d in PATTERNS[p].dtypes}
    for c in data["cells"]:
        # Every row compiles today (softmax with the max-reduce kernel it df.decl_refs), and every baseline agrees.
        assert c["errors"] == {}, (c["pattern"], c["dtype"], c["errors"])
        labels = set(c["timings"])
        assert ("BLAS" in labels) == PATTERNS[c["pattern"]].has(BLAS)
        assert any(l.startswith("kernels/") for l in labels) == PATTERNS[c["pattern"]].has(KERNELS)
    assert "1 thread" in data["env"]["blas"]
