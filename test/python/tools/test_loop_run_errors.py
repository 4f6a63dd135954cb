"""loop-run's user errors: one diagnostic, exit status 1, never a traceback or an internal error."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from loopopt.tools import loop_run

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir"


def run(*argv: str) -> int:
    return loop_run.main([*argv], io.StringIO())


@pytest.mark.parametrize(("array", "message"), [
    (np.arange(4, dtype=np.float64), "holds float64, the argument is float32 (only value-preserving"),
    (np.zeros(4, dtype=[("a", "f4")]), "the argument is float32"),
    (np.zeros((2, 2), np.float32), "has rank 2, the argument has rank 1"),
])
def test_npy_of_the_wrong_kind(tmp_path, capsys, array, message):
    np.save(tmp_path / "x.npy", array)
    assert run(str(EXAMPLE), "-t", "scalar", "-k", "sumsq", "--no-time", "-i", f"x={tmp_path / 'x.npy'}") == 1
    err = capsys.readouterr().err
    assert f"loop-run: error: --input x: {tmp_path / 'x.npy'}" in err and message in err and "Traceback" not in err


def test_npy_that_converts_without_loss(tmp_path):
    np.save(tmp_path / "x.npy", np.arange(5, dtype=np.int32))  # int32 -> float32 can round
    assert run(str(EXAMPLE), "-t", "scalar", "-k", "sumsq", "--no-time", "-i", f"x={tmp_path / 'x.npy'}") == 1
    np.save(tmp_path / "x.npy", np.arange(5, dtype=np.int16))
    assert run(str(EXAMPLE), "-t", "scalar", "-k", "sumsq", "--no-time", "-i", f"x={tmp_path / 'x.npy'}") == 0
    np.save(tmp_path / "x.npy", np.arange(5, dtype=np.float16))
    assert run(str(EXAMPLE), "-t", "scalar", "-k", "sumsq", "--no-time", "-i", f"x={tmp_path / 'x.npy'}") == 0


@pytest.mark.parametrize("content", [b"", b"\x93NUMPY\x01\x00garbage", b"not an npy"])
def test_corrupt_npy(tmp_path, capsys, content):
    (tmp_path / "x.npy").write_bytes(content)
    assert run(str(EXAMPLE), "-t", "scalar", "-k", "sumsq", "--no-time", "-i", f"x={tmp_path / 'x.npy'}") == 1
    err = capsys.readouterr().err
    assert "loop-run: error: --input x: cannot load" in err and "Traceback" not in err


@pytest.mark.parametrize(("spec", "message"), [
    ("x:f64[n]", "input x is f64, the argument is !df.array<f32, [i]>"),
    ("x:f32[n,3]", "input x has 2 dims, the argument !df.array<f32, [i]> has rank 1"),
    ("x:f32[n];y:f32[n]", "2 inputs= specs; the kernel has 1 arguments (x)"),
])
def test_ref_inputs_that_do_not_match_the_kernel(tmp_path, capsys, spec, message):
    text = EXAMPLE.read_text().replace("tol=reduction:x*x inputs=x:f32[n]", f"tol=reduction:x*x inputs={spec}")
    assert text != EXAMPLE.read_text()
    (tmp_path / "p.mlir").write_text(text)
    assert run(str(tmp_path / "p.mlir"), "-t", "scalar", "-k", "sumsq", "--n", "50", "--no-time") == 1
    err = capsys.readouterr().err
    assert f"p.mlir:6: error: bad REF header for @sumsq: {message}" in err
    assert "internal error" not in err and "Traceback" not in err


def test_non_utf8_program_is_located(tmp_path, capsys):
    (tmp_path / "p.mlir").write_bytes(EXAMPLE.read_bytes() + b"// \xff\n")
    assert run(str(tmp_path / "p.mlir"), "-t", "scalar") == 1
    assert "p.mlir:" in (err := capsys.readouterr().err) and "is not UTF-8 text" in err and "Traceback" not in err
