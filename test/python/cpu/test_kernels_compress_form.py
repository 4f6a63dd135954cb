"""The kernel library's AVX-512 filters never compress to memory (vcompressps [mem]{k} is ~80
cycles on Zen 4): an oracle must not be slow on any CPU. Checked on the object code, since
AVX-512 does not run on every CI host."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

KERNELS = Path(__file__).resolve().parents[3] / "kernels"


def test_avx512_filters_compress_in_registers(tmp_path):
    if shutil.which("gcc") is None or shutil.which("objdump") is None:
        pytest.skip("gcc and objdump needed")
    obj = tmp_path / "avx512.o"
    subprocess.run(
        ["gcc", "-O3", "-std=c11", "-ffp-contract=off", "-Wall", "-Werror", f"-I{KERNELS / 'src'}",
         f"-I{KERNELS / 'include'}", "-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma",
         "-c", str(KERNELS / "src" / "avx512.c"), "-o", str(obj)],
        check=True, capture_output=True,
    )  # fmt: skip
    asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)], check=True, capture_output=True, text=True).stdout
    compresses = [line for line in asm.splitlines() if re.search(r"\bv(p?compress)", line)]
    assert compresses, "the filters compress"
    to_memory = [line for line in compresses if re.search(r"\(%|PTR", line)]
    assert not to_memory, "\n".join(to_memory)
