"""loop-opt / loop-run as command-line tools (docs/cli.md): help, exit statuses, streams,
`-o`, and the C header's pipeline line passed back to `-p` / `pipeline=`."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

import loopopt
from loopopt.tools import loop_opt, loop_run

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir"


def opt(capsys, *argv: str) -> tuple[int, str, str]:
    status = loop_opt.run(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_help_leads_with_loopopt_passes(capsys):
    status, out, _ = opt(capsys, "--help")
    assert status == 0
    ours = out.index("loopopt passes")
    assert ours < out.index("options:")
    assert "  loop-unroll " in out and "  df-fuse " in out
    assert "convert-linalg-to-loops" not in out  # xDSL's passes: --list-passes all
    assert "exit status: 0 success, 1 an error in the input program, 2 a command-line error" in out


def test_list_passes(capsys):
    status, out, _ = opt(capsys, "--list-passes")
    assert status == 0 and "loop-pipeline" in out and "xDSL passes" not in out
    status, out, _ = opt(capsys, "--list-passes", "all")
    assert status == 0 and "xDSL passes:" in out and "  canonicalize" in out


def test_help_pass_shows_ranges_defaults_and_docs(capsys):
    status, out, _ = opt(capsys, "--help-pass", "loop-unroll")
    assert status == 0
    assert "factor: int = 4" in out and "valid: [1, 64]" in out
    assert "Body copies per iteration" in out
    status, out, _ = opt(capsys, "--help-pass", "loop-pipeline")
    assert "target: str = 'native'" in out and "valid: sse2 | avx2 | avx512 | neon | scalar | native" in out
    status, _, err = opt(capsys, "--help-pass", "df-fus")
    assert status == 2 and "did you mean df-fuse?" in err


def test_llvm_target_not_offered_without_llvmlite(capsys):
    pytest.importorskip("xdsl")
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        status, _, err = opt(capsys, str(EXAMPLE), "-t", "llvm")
        assert status == 2 and "invalid choice: 'llvm'" in err and "Traceback" not in err
    else:
        pytest.skip("llvmlite is installed: the llvm target works here")


@pytest.mark.parametrize(("argv", "status"), [
    (["--no-such-flag"], 2),
    (["-p", "df-fus"], 2),
    (["-p", "df-fuse{"], 2),
    (["-p", "loop-unroll{factor=100000}"], 2),
    (["-t", "c{"], 2),
    (["-t", "c{bogus=1}"], 2),
    (["-t", "no-such-target"], 2),
])
def test_loop_opt_command_line_errors_exit_2(capsys, argv, status):
    got, _, err = opt(capsys, str(EXAMPLE), *argv)
    assert got == status and "error" in err and "Traceback" not in err


def test_loop_opt_input_errors_exit_1(tmp_path, capsys):
    (tmp_path / "bad.mlir").write_text("func.func @f() {\n  %x = arith.addf %y, %y : f32\n}\n")
    status, _, err = opt(capsys, str(tmp_path / "bad.mlir"))
    assert status == 1 and "bad.mlir:2:" in err


def test_time_passes_on_stderr_and_loop_pipeline_expanded(capsys):
    status, plain, _ = opt(capsys, str(EXAMPLE), "-p", "loop-pipeline{target=sse2}", "-t", "c")
    assert status == 0
    status, out, err = opt(capsys, str(EXAMPLE), "-p", "loop-pipeline{target=sse2}", "-t", "c", "--time-passes")
    assert status == 0 and out == plain  # stdout is still exactly the C
    assert re.search(r"^Pass convert-loop-to-simd took [0-9.e-]+ seconds$", err, re.M)
    assert "Pass df-fuse took" in err and "Pass cse took" in err


def test_print_between_passes_shows_loop_pipeline_steps(capsys):
    status, out, _ = opt(capsys, str(EXAMPLE), "-p", "loop-pipeline{target=scalar}", "--print-between-passes")
    steps = re.findall(r"^IR after (\S+):$", out, re.M)
    assert status == 0
    assert steps[:3] == ["df-fuse", "convert-df-to-loop", "loop-fuse"] and "convert-loop-to-simd" in steps


def test_header_pipeline_round_trips(capsys):
    status, c, _ = opt(capsys, str(EXAMPLE), "-p", "loop-pipeline{target=sse2}", "-t", "c")
    assert status == 0
    spec = re.search(r"^ \* pipeline: (.*)$", c, re.M)[1]
    assert "canonicalize" in spec and "cse" in spec
    status, again, err = opt(capsys, str(EXAMPLE), "-p", spec, "-t", "c")
    assert status == 0, err
    assert again.split("*/", 1)[1] == c.split("*/", 1)[1]  # the same C after the header
    text = EXAMPLE.read_text()
    kernels = loopopt.compile(text, target="sse2", pipeline=spec)
    assert kernels.c_source.split("*/", 1)[1] == c.split("*/", 1)[1]
    assert loop_run.main([str(EXAMPLE), "-t", "scalar", "-p", spec.replace("sse2", "scalar"), "--n", "64",
                          "--no-time"], io.StringIO()) == 0


def lrun(*argv: str) -> int:
    return loop_run.main(list(argv), io.StringIO())


@pytest.mark.parametrize("argv", [
    ["--no-such-flag"], ["-p", "df-fus"], ["-t", "avx9"], ["--input", "nope=1"], ["--n", "-1"],
    ["-o", "out.txt"], ["--input", "x"],
])
def test_loop_run_command_line_errors_exit_2(capsys, argv):
    assert lrun(str(EXAMPLE), "-t", "scalar", "--no-time", "--n", "8", *argv) == loop_run.EXIT_USAGE == 2
    assert "Traceback" not in capsys.readouterr().err


def test_loop_run_input_errors_exit_1(tmp_path, capsys):
    assert lrun(str(tmp_path / "missing.mlir"), "-t", "scalar") == loop_run.EXIT_ERROR == 1
    assert lrun(str(EXAMPLE), "-t", "scalar", "-o", str(tmp_path / "no" / "r.npz")) == 1
    assert "its directory does not exist" in capsys.readouterr().err
    assert loop_run.EXIT_MISMATCH == 3


def test_loop_run_saves_results(tmp_path):
    out = tmp_path / "r.npz"
    assert lrun(str(EXAMPLE), "-t", "scalar", "--no-time", "--n", "40", "-o", str(out)) == 0
    saved = np.load(out)
    x = saved["sqrt_abs_axpb.in.x"]
    a, b = saved["sqrt_abs_axpb.in.a"], saved["sqrt_abs_axpb.in.b"]
    assert x.shape == (40,) and x.dtype == np.float32
    np.testing.assert_allclose(saved["sqrt_abs_axpb.0"], np.sqrt(np.abs(a * x)) + b, rtol=1e-6)
    np.testing.assert_allclose(saved["sumsq.0"], np.sum(saved["sumsq.in.x"] ** 2, dtype=np.float64), rtol=1e-5)
    xs = saved["scale_positive.in.x"]
    np.testing.assert_array_equal(saved["scale_positive.0"], saved["scale_positive.in.a"] * xs[xs > 0])


NOT_REASSOC = """\
func.func @total(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""


def test_remarks_on_stderr_and_stdout_is_valid_c(tmp_path, capsys):
    import shutil
    import subprocess

    (tmp_path / "k.mlir").write_text(NOT_REASSOC)
    status, out, err = opt(capsys, str(tmp_path / "k.mlir"), "-p", "loop-pipeline{target=sse2,remarks=true}", "-t", "c",
                           "--time-passes")
    assert status == 0
    assert "remark: VEC_REJECT_FLOAT_REDUCTION_ORDER" in err, err
    assert "remark:" not in out and "Pass " not in out
    (tmp_path / "k.c").write_text(out)
    cc = shutil.which("gcc") or shutil.which("clang")
    if cc is not None:
        done = subprocess.run([cc, "-fsyntax-only", "-msse2", str(tmp_path / "k.c")], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
