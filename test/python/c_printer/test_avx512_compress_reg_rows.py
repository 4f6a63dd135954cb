"""AVX-512 register-compress rows (`compress_store_full_reg`): selected per CPU (Zen 4), checked
here as data and as C that compiles.

Their shape is pinned: the count is popcount(mask) and the row stores one whole vector. The exact
form's register row (`compress_store_reg`) was deleted in session 23: every compress store the
lowering emits is `full` or `limit`ed (the limited one goes through the full row into a spill),
so nothing selected it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from loopopt.runtime.isa import compile_flags
from loopopt.targets.isa_avx512 import AVX512

ELTS = {"f32": ("float", "ps", 16), "f64": ("double", "pd", 8), "i32": ("int32_t", "epi32", 16), "i64": ("int64_t", "epi64", 8)}
KEYS = ("compress_store_full_reg",)
COUNT = "{dst} = (int64_t)__builtin_popcount((unsigned)({mask}));"


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("elt", ELTS)
def test_row_shape(key: str, elt: str) -> None:
    _, s, _ = ELTS[elt]
    row = AVX512.row(key, elt)
    assert row is not None
    assert COUNT in row, "{dst} is the number of lanes written, like compress_store"
    assert f"_mm512_mask_compress_{s}({{value}}, {{mask}}, {{value}})" in row, "merges into the value: no false dependency"
    assert "compressstoreu" not in row, "vcompress to memory is what these rows avoid"
    store = "_mm512_storeu_si512" if elt.startswith("i") else f"_mm512_storeu_{s}"
    assert row.startswith(f"{store}(&{{buf}}[{{idx}}], ")
    assert AVX512.row("compress_store_reg", elt) is None, "deleted: nothing selects an exact register compress"


def _function(key: str, elt: str) -> str:
    """The row as the printer emits it: `{dst} = ` becomes a declaration, one statement a line."""
    ctype, _, lanes = ELTS[elt]
    vtype = {"f32": "__m512", "f64": "__m512d"}.get(elt, "__m512i")
    body = AVX512.row(key, elt).replace("{dst} = ", "int64_t {dst} = ", 1)
    body = body.format(dst="n", buf="buf", idx="i", mask="m", value="v")
    lines = "\n    ".join(s if s.endswith(";") else s + ";" for s in body.split("; "))
    return (
        f"int64_t {key}_{elt}({ctype} *restrict buf, int64_t i, {vtype} v, __mmask{lanes} m) {{\n"
        f"    {lines}\n    return n;\n}}\n"
    )


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_rows_compile_cleanly(compiler: str, tmp_path: Path) -> None:
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not installed")
    source = "#include <stdint.h>\n#include <immintrin.h>\n\n" + "".join(_function(k, e) for k in KEYS for e in ELTS)
    path = tmp_path / "rows.c"
    path.write_text(source)
    flags = [f for f in compile_flags("avx512") if f != "-fPIC"]
    done = subprocess.run([compiler, *flags, "-Werror", "-c", str(path), "-o", str(tmp_path / "rows.o")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
