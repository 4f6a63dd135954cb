"""`loop-opt -t c` names the `-p` pipeline in the C header when no pass recorded one, so the
header's `pipeline:` line, passed back to `-p`, gives the same file, header included."""

from __future__ import annotations

import re
from pathlib import Path

from loopopt.tools import loop_opt

EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "sum_of_squares.mlir")


def opt(capsys, *argv: str) -> str:
    status = loop_opt.run(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def header_pipeline(c: str) -> str:
    return re.search(r"^ \* pipeline: (.*)$", c, re.M)[1]


def test_the_header_pipeline_reproduces_the_whole_file(capsys):
    c = opt(capsys, EXAMPLE, "-p", "loop-pipeline{target=avx2}", "-t", "c")
    spec = header_pipeline(c)
    assert spec.startswith("df-fuse,convert-df-to-loop,") and spec.endswith(",canonicalize,cse")
    assert opt(capsys, EXAMPLE, "-p", spec, "-t", "c") == c


def test_a_plain_pipeline_is_recorded_and_an_explicit_one_wins(capsys):
    assert header_pipeline(opt(capsys, EXAMPLE, "-p", "df-fuse, convert-df-to-loop", "-t", "c")) == \
        "df-fuse, convert-df-to-loop"
    assert header_pipeline(opt(capsys, EXAMPLE, "-p", "df-fuse,convert-df-to-loop", "-t", "c{pipeline=mine}")) == "mine"
    assert header_pipeline(opt(capsys, EXAMPLE, "-p", "loop-pipeline{target=sse2}", "-t", "c")).count("target=sse2") == 1
    # Only the C target records it: the IR printed without -t is unchanged.
    assert "loop.pipeline" not in opt(capsys, EXAMPLE, "-p", "df-fuse", "--print-op-generic")


def test_c_of_unlowered_df_is_a_located_error_that_says_what_to_add(capsys):
    for argv in (["-t", "c"], ["-p", "convert-loop-to-simd{target=avx2}", "-t", "c"]):
        assert loop_opt.run([EXAMPLE, *argv]) == 1
        _, err = capsys.readouterr()
        assert "sum_of_squares.mlir:9:3: error: df.map has no C form: lower df first, e.g. " \
               "-p 'loop-pipeline{target=avx2}'" in err and "Traceback" not in err
