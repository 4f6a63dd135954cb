"""`loop-opt --jobs N` (loopopt/compile_jobs.py): the module's functions lowered and printed
in forked workers give the C file of `--jobs 1`, byte for byte; a worker's error is reported
as the serial compile reports it; a worker that dies is an internal error, not a hang."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from loopopt import compile_jobs
from loopopt.tools import loop_opt
from loopopt.tools.bench.overhead import generated_module

ROOT = Path(__file__).resolve().parents[3]
PROGRAMS = sorted([*(ROOT / "test" / "corpus" / "df").glob("*.mlir"), *(ROOT / "examples").glob("*.mlir"),
                   *(ROOT / "tools" / "bench" / "programs").glob("*.mlir")])

BAD = """
func.func @ok(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.addf %e, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}
func.func private @decl_a(!df.array<f32, [i]>) -> !df.array<f32, [i]>
func.func @bad_a(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.decl_ref @decl_a(%x) : (!df.array<f32, [i]>) -> !df.array<f32, [i]>
  func.return %y : !df.array<f32, [i]>
}
func.func @ok2(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.addf %e, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}
"""


def opt(capsys, *argv: str) -> tuple[int, str, str]:
    status = loop_opt.run(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def workers(monkeypatch):
    """The shares each `run_workers` call compiled: proof that the jobs path ran."""
    counts: list[int] = []
    run = compile_jobs.run_workers

    def counted(count, job):
        counts.append(count)
        return run(count, job)

    monkeypatch.setattr(compile_jobs, "run_workers", counted)
    return counts


@pytest.mark.parametrize("target", ["avx2", "scalar"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_jobs_2_prints_the_file_of_jobs_1(capsys, workers, program, target):
    pipeline = f"loop-pipeline{{target={target}}}"
    serial = opt(capsys, str(program), "-p", pipeline, "-t", "c")
    assert serial[0] == 0, serial[2]
    assert opt(capsys, str(program), "-p", pipeline, "-t", "c", "--jobs", "2") == serial
    functions = program.read_text().count("func.func @")
    assert workers == ([2] if functions >= 2 else [])


@pytest.mark.parametrize("pipeline", [
    "loop-pipeline{target=avx2}", "loop-pipeline{target=scalar}",
    "loop-pipeline{target=avx2 parallel=-1}",
    "loop-pipeline{target=avx2 parallel=4 filter_block=4096}",  # derive-filter-count adds k__count
])
@pytest.mark.parametrize("jobs", ["2", "3"])
def test_jobs_on_a_generated_module(capsys, tmp_path, workers, pipeline, jobs):
    path = tmp_path / "generated.mlir"
    path.write_text(generated_module(300))
    serial = opt(capsys, str(path), "-p", pipeline, "-t", "c")
    assert serial[0] == 0, serial[2]
    assert opt(capsys, str(path), "-p", pipeline, "-t", "c", "--jobs", jobs) == serial
    assert workers == [int(jobs)]


@pytest.mark.parametrize("program", ["test/corpus/df/filter.mlir", "tools/bench/programs/filter_gt0_scale.mlir"])
def test_jobs_with_parallel_filters_and_their_count_kernels(capsys, workers, program):
    argv = [str(ROOT / program), "-p", "loop-pipeline{target=avx2 parallel=4 filter_block=4096}", "-t", "c"]
    serial = opt(capsys, *argv)
    assert serial[0] == 0 and "__count(" in serial[1] and "__chunk(" in serial[1]
    assert opt(capsys, *argv, "--jobs", "2") == serial


def _map(name: str) -> str:
    return (f"func.func @{name}(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {{\n"
            "  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {\n"
            "  ^bb0(%e: f32):\n    %m = arith.addf %e, %e : f32\n    %n = arith.mulf %m, %e : f32\n"
            "    df.yield %n : f32\n  }\n  func.return %y : !df.array<f32, [i]>\n}\n")


def test_a_users_count_kernel_in_another_share_is_not_derived_twice(capsys, tmp_path, workers):
    """A user function named `<k>__count` far from the filter kernel k: serially derive-filter-count
    sees the name taken and derives nothing; k's worker must see it too (it failed with a second
    `k__count` definition in the file)."""
    src = (ROOT / "tools/bench/programs/filter_gt0_scale.mlir").read_text()
    kernel = src[src.index("func.func @filter_gt0_scale_f32"):src.index("func.func @filter_gt0_scale_i32")]
    path = tmp_path / "count_name.mlir"
    path.write_text(kernel + "".join(_map(f"filler{i}") for i in range(3)) + _map("filter_gt0_scale_f32__count"))
    argv = [str(path), "-p", "loop-pipeline{target=avx2 parallel=4 filter_block=4096}", "-t", "c"]
    serial = opt(capsys, *argv)
    assert serial[0] == 0 and serial[1].count("filter_gt0_scale_f32__count(") == 1
    assert opt(capsys, *argv, "--jobs", "2") == serial
    assert workers == [2]


def test_a_worker_error_is_reported_as_serially(capsys, tmp_path, workers):
    path = tmp_path / "bad.mlir"
    path.write_text(BAD)
    serial = opt(capsys, str(path), "-p", "loop-pipeline{target=avx2}", "-t", "c")
    assert serial[0] == 1 and "df.decl_ref: @decl_a is not a func.func with a body" in serial[2]
    for jobs in ("2", "3"):
        assert opt(capsys, str(path), "-p", "loop-pipeline{target=avx2}", "-t", "c", "--jobs", jobs) == serial
    assert workers == [2, 3]


def test_a_worker_that_dies_is_an_internal_error(capsys, monkeypatch):
    monkeypatch.setattr(loop_opt.LoopOptMain, "_run_pipeline", lambda self, prog: os.kill(os.getpid(), signal.SIGKILL))
    status, out, err = opt(capsys, str(ROOT / "test/corpus/df/map.mlir"), "-p", "loop-pipeline{target=avx2}", "-t", "c",
                           "--jobs", "2")
    assert status == 1 and out == ""
    assert "internal error" in err and "killed by signal 9 (SIGKILL)" in err


@pytest.mark.parametrize("extra", [["-t", "mlir"], ["-t", "c", "--split-input-file"], ["-t", "c", "--time-passes"]])
def test_other_outputs_compile_serially(capsys, workers, extra):
    argv = [str(ROOT / "test/corpus/df/map.mlir"), "-p", "loop-pipeline{target=avx2}", *extra]
    assert opt(capsys, *argv, "--jobs", "2")[0] == 0
    assert workers == []


def test_a_bad_job_count_is_a_command_line_error(capsys):
    status, _, err = opt(capsys, "--jobs", "-1", str(ROOT / "examples/sum_of_squares.mlir"))
    assert status == 2 and "expected a number of processes >= 0" in err


def test_shares_are_contiguous_and_balanced():
    from loopopt.compile import make_context, parse

    module = parse(generated_module(1000), make_context(), "generated")
    names = [f.sym_name.data for f in module.ops]
    shares = compile_jobs.function_shares(module, 3)
    assert [n for s in shares for n in s] == names and len(shares) == 3
    assert max(map(len, shares)) - min(map(len, shares)) <= 1
