"""Integer arithmetic in the generated C is defined and wraps by construction, on every ISA.

Every integer row of every ISA table (add/sub/mul/neg/abs, shl/shrsi/shrui, div/rem and the
unsigned/floor/ceil variants, signed and unsigned compares, i1 compares, sum/product/min/max
reductions, float -> int conversions) runs in a standalone C program over edge values (MIN,
-1, 0, MAX, shift amounts 31/32/33/63/64/65/-1, division by 0 and MIN / -1, NaN and
out-of-range floats) and must give what a Python-int reference of docs/integer_semantics.md
gives. x86 programs are built with `-fsanitize=undefined -fno-sanitize-recover=all`, so any
undefined behaviour in a row or helper aborts the run; AVX-512 is compiled with -Werror (and
run where the CPU has it); NEON runs under qemu.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from isa_support import isa_params, isa_unavailable
from int_semantics import TABLES, all_cases, build_program, compile_c, expected_lines

X86_FLAGS = {"scalar": [], "sse2": ["-msse2"], "avx2": ["-mavx2", "-mfma"],
             "avx512": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl"]}  # fmt: skip
UBSAN = ["-fsanitize=undefined", "-fno-sanitize-recover=all"]
REQUIRED = [f"{op}" for op in ("add", "sub", "mul", "neg", "abs", "shl", "shr", "shru")] + [
    f"cmp.{p}" for p in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
]


def _check(isa: str, output: str) -> None:
    groups = all_cases(TABLES[isa])
    want = expected_lines(groups)
    got = output.split()
    assert len(got) == len(want), f"{isa}: {len(got)} results, expected {len(want)}"
    bad = [f"{k} {e} #{i}: got {g}, want {w}" for (k, e, i, w), g in zip(want, got) if int(g) != w]
    assert not bad, f"{isa}: {len(bad)} wrong lanes, first ones:\n" + "\n".join(bad[:20])


@pytest.mark.parametrize("isa", ["scalar", "sse2", "avx2", "avx512", "neon"])
def test_every_isa_has_the_integer_rows(isa: str) -> None:
    """Shifts (SSE2 too, i64 shrsi on AVX2), unsigned compares and i1 compares exist everywhere."""
    table = TABLES[isa]
    missing = [(k, e) for k in REQUIRED for e in ("i32", "i64") if table.row(k, e) is None]
    masks = ["i1"] if isa == "scalar" else [f"i1x{n}" for n in table.mask_types]
    missing += [(f"cmp.{p}", m) for p in ("slt", "sle", "sgt", "sge", "ult", "uge") for m in masks
                if table.row(f"cmp.{p}", m) is None]  # fmt: skip
    missing += [(f"hreduce.{k}", e) for k in ("add", "mul") for e in ("i32", "i64") if table.row(f"hreduce.{k}", e) is None]
    assert not missing, f"{isa} lacks rows {missing}"


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2")))
def test_rows_on_edge_values_under_ubsan(isa: str, tmp_path: Path) -> None:
    source = build_program(TABLES[isa], *all_cases(TABLES[isa]))
    exe = compile_c(["gcc"], source, tmp_path, ["-O2", *X86_FLAGS[isa], *UBSAN])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"{isa}: the harness failed (UBSan?):\n{proc.stderr[:3000]}"
    _check(isa, proc.stdout)


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_avx512_rows_compile(compiler: str, tmp_path: Path) -> None:
    """No AVX-512 on this CPU maybe: the rows and helpers must still compile warning-free,
    and never use `_mm512_reduce_add_epi32/64` or `_mm512_reduce_mul_epi32/64` (signed UB)."""
    source = build_program(TABLES["avx512"], *all_cases(TABLES["avx512"]))
    for banned in ("_mm512_reduce_add_epi", "_mm512_reduce_mul_epi"):
        assert banned not in source
    try:
        compile_c([compiler], source, tmp_path, ["-O2", *X86_FLAGS["avx512"]], link=False)
    except FileNotFoundError:
        pytest.skip(f"{compiler} is not installed")
    if isa_unavailable("avx512") is None:
        exe = compile_c([compiler], source, tmp_path, ["-O2", *X86_FLAGS["avx512"]])
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        _check("avx512", proc.stdout)


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_rows_on_edge_values(isa: str, tmp_path: Path) -> None:
    source = build_program(TABLES["neon"], *all_cases(TABLES["neon"]))
    exe = compile_c(["aarch64-linux-gnu-gcc"], source, tmp_path, ["-O2", "-static"])
    proc = subprocess.run(["qemu-aarch64", str(exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    _check("neon", proc.stdout)


def test_reference_sanity() -> None:
    """The references encode the lead's decisions (spot checks, independent of C)."""
    from int_semantics import BINARY, UNARY, fptosi_reference

    m = -(2**31)
    assert BINARY["div"](m, -1, 32) == m and BINARY["rem"](m, -1, 32) == 0
    assert BINARY["div"](7, 0, 32) == 0 and BINARY["remu"](7, 0, 32) == 0
    assert BINARY["shl"](1, 32, 32) == 0 and BINARY["shl"](1, -1, 32) == 0 and BINARY["shl"](1, 31, 32) == m
    assert BINARY["shr"](-5, 33, 32) == -1 and BINARY["shru"](-1, 31, 32) == 1
    assert UNARY["abs"](m, 32) == m
    assert fptosi_reference(float("nan"), 32) == 0 and fptosi_reference(3e9, 32) == 2**31 - 1
    assert np.int32(fptosi_reference(-3e9, 32)) == m


def test_avx512_mask_compare_rows_evaluated() -> None:
    """AVX-512 cannot run here: evaluate its `__mmask` compare rows (C integer expressions on
    one lane) in Python against the i1 reference (signed true = -1, unsigned true = 1)."""
    from int_semantics import COMPARE

    for n in (8, 16):
        for p, c in COMPARE.items():
            row = TABLES["avx512"].rows[(f"cmp.{p}", f"i1x{n}")]
            expr = row.split("= ", 1)[1].rstrip(";").replace(f"(__mmask{n})", "")
            expr = expr.replace("~{a}", "(1^{a})").replace("~{b}", "(1^{b})").replace("~(", "1^(")
            for a in (0, 1):
                for b in (0, 1):
                    got = eval(expr.format(a=a, b=b)) & 1
                    want = int(c(a, b, 1)) if p[0] == "u" else int(c(-a, -b, 1))
                    assert got == want, f"cmp.{p} i1x{n} ({a}, {b}): {got} != {want}"
