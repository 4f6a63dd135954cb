"""loop-run end to end: the README example matches; a wrong kernel result is a MISMATCH (exit 2);
--input arrays and scalars are used; user errors exit 1 without a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from loopopt.tools import loop_run

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return loop_run.main([*argv], out), out.getvalue()


@pytest.mark.isa("scalar")
def test_example_matches():
    status, text = run(str(EXAMPLE), "-t", "scalar", "--n", "300", "--no-time")
    assert status == 0, text
    for name in ("sumsq", "scale_positive", "sqrt_abs_axpb"):
        assert f"{name}: matches the interpreter (n=300)" in text


@pytest.mark.isa("scalar")
def test_wrong_result_is_a_mismatch(monkeypatch):
    real = loop_run.run_compiled

    def wrong_last(compiled, name, inputs, offset=0, extents=None):
        results = real(compiled, name, inputs, offset, extents)
        if name != "sqrt_abs_axpb" or not len(results[0]):
            return results
        out = results[0].copy()
        out[-1] += np.float32(1)
        return (out,)

    monkeypatch.setattr(loop_run, "run_compiled", wrong_last)
    status, text = run(str(EXAMPLE), "-t", "scalar", "--n", "50", "--no-time", "-k", "sqrt_abs_axpb")
    assert status == loop_run.EXIT_MISMATCH
    assert "sqrt_abs_axpb: MISMATCH against the interpreter (n=50)" in text
    assert "1 of 50 elements off; first at [49]" in text


@pytest.mark.isa("scalar")
def test_given_inputs(tmp_path):
    x = np.array([1.0, -2.0, 3.0], np.float32)
    np.save(tmp_path / "x.npy", x)
    status, text = run(str(EXAMPLE), "-t", "scalar", "-k", "scale_positive", "--no-time",
                       "--input", f"x={tmp_path / 'x.npy'}", "--input", "a=2.5")
    assert status == 0 and "scale_positive: matches the interpreter (n=3)" in text


RANGES = EXAMPLE.parents[1] / "test" / "corpus" / "df" / "range.mlir"


@pytest.mark.isa("scalar")
def test_scalar_inputs_report_the_size_they_were_made_for():
    """A kernel of scalars only (df.range bounds from the REF spec `end=2*n+5`) ran at the
    requested n: the check and the timing line say so (they said n=0, and numpy's reference
    was timed at n=0)."""
    status, text = run(str(RANGES), "-t", "scalar", "--n", "400", "--check-n", "30", "-k", "sum_range_i64",
                       "-k", "squares_of_range_i32")
    assert status == 0, text
    for name in ("sum_range_i64", "squares_of_range_i32"):
        assert f"{name}: matches the interpreter (n=30)" in text, text
    assert text.count("  n=400: loopopt ") == 2, text


@pytest.mark.isa("scalar")
def test_given_scalars_only_have_no_size():
    status, text = run(str(RANGES), "-t", "scalar", "--no-time", "-k", "sum_range_i64",
                       "--input", "start=0", "--input", "end=10", "--input", "step=1")
    assert status == 0 and "sum_range_i64: matches the interpreter (n=0)" in text, text


def test_user_errors(tmp_path, capsys):
    assert run(str(tmp_path / "missing.mlir"))[0] == loop_run.EXIT_ERROR
    assert run(str(EXAMPLE), "-k", "nope")[0] == loop_run.EXIT_ERROR
    assert run(str(EXAMPLE), "--input", "x=nothere.npy", "-k", "sumsq")[0] == loop_run.EXIT_ERROR
    err = capsys.readouterr().err
    assert "loop-run: error: cannot read" in err and "no kernel 'nope'" in err
    assert "--input x: cannot load 'nothere.npy'" in err and "Traceback" not in err
