"""The printed C compiles without a single warning, with gcc and clang, for every ISA and its flags."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cprint_programs import module_text
from loopopt.compile import make_context, parse, run_pipeline
from loopopt.targets.c import emit_c

WERROR = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-c", "-o", "/dev/null"]

# (ISA, compiler command prefix)
COMPILERS = [
    ("scalar", ["gcc"]),
    ("scalar", ["clang"]),
    ("sse2", ["gcc", "-msse2"]),
    ("sse2", ["clang", "-msse2"]),
    ("avx2", ["gcc", "-mavx2", "-mfma"]),
    ("avx2", ["clang", "-mavx2", "-mfma"]),
    ("avx512", ["gcc", "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma"]),
    ("avx512", ["clang", "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq"]),
    ("neon", ["aarch64-linux-gnu-gcc"]),
    ("neon", ["clang", "--target=aarch64-linux-gnu"]),
]

FILECHECK_INPUTS = Path(__file__).parents[2] / "filecheck" / "targets" / "c"
_RUN_PIPELINE = re.compile(r"^// RUN: loop-opt %s -p '([^']*)' -t c\b", re.MULTILINE)


def _compile(tmp_path: Path, command: list[str], source: str) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    path = tmp_path / "k.c"
    path.write_text(source)
    proc = subprocess.run([*command, *WERROR, str(path)], capture_output=True, text=True)
    if proc.returncode != 0 and "--target=" in " ".join(command) and "fatal error" in proc.stderr:
        pytest.skip(f"{' '.join(command)} lacks a target sysroot: {proc.stderr.splitlines()[0]}")
    assert proc.returncode == 0, f"{' '.join(command)} rejected the printed C:\n{proc.stderr}\n{source}"


@pytest.mark.parametrize(("isa", "command"), COMPILERS, ids=[f"{i}-{c[0]}" for i, c in COMPILERS])
def test_simd_programs_compile_without_warnings(tmp_path: Path, isa: str, command: list[str]) -> None:
    source = emit_c(parse(module_text(isa)))
    assert f"target: {isa}" in source
    _compile(tmp_path, command, source)


@pytest.mark.parametrize(("isa", "command"), COMPILERS, ids=[f"{i}-{c[0]}" for i, c in COMPILERS])
def test_filecheck_inputs_compile_without_warnings(tmp_path: Path, isa: str, command: list[str]) -> None:
    """The FileCheck inputs of this ISA (and the scalar Loop IR one, on every ISA); an input whose
    RUN lines compile it with `-p 'loop-pipeline{target=ISA}'` is printed through that pipeline."""
    for path in sorted(FILECHECK_INPUTS.glob("*.mlir")):
        if path.name.startswith("error_"):
            continue
        whole = path.read_text()
        pipelines = _RUN_PIPELINE.findall(whole)
        for text in _SPLIT_INPUT.split(whole):  # --split-input-file: each part a module
            _compile_filecheck_input(tmp_path, isa, command, path, text, pipelines)


_SPLIT_INPUT = re.compile(r"^// -----$", re.MULTILINE)


def _compile_filecheck_input(tmp_path: Path, isa: str, command: list[str], path: Path, text: str,
                             pipelines: list[str]) -> None:  # fmt: skip
    """One module of a FileCheck input, printed as its file's RUN lines print it for `isa`."""
    module = parse(text, name=str(path))
    if pipelines:
        for pipeline in (p for p in pipelines if f"target={isa}" in p):
            module = parse(text, name=str(path))
            run_pipeline(module, pipeline, make_context())
            _compile(tmp_path, command, emit_c(module))
        return
    recorded = module.attributes.get("loop.target")
    if recorded is not None and recorded.data != isa:  # type: ignore[attr-defined]
        return
    _compile(tmp_path, command, emit_c(module, target=isa))
