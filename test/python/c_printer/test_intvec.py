"""Vector division by a constant (targets/c_intvec.py): the magic numbers against exact integer
division, and the C rows of every ISA on edge dividends for many divisors (UBSan on x86, qemu
for NEON), against a Python-int reference of docs/integer_semantics.md."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from isa_support import isa_params
from int_semantics import TABLES, _trunc_div, compile_c, int_literal, wrap
from loopopt.targets.c_helpers import LaneIO, all_helpers, required_helpers
from loopopt.targets.c_intvec import div_by_magic, divu_by_magic, magic_signed, magic_unsigned
from loopopt.targets.c_print_arith import _const_division
from xdsl.dialects.builtin import VectorType, i32, i64

X86_FLAGS = {"sse2": ["-msse2"], "avx2": ["-mavx2", "-mfma"], "avx512": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl"]}
UBSAN = ["-fsanitize=undefined", "-fno-sanitize-recover=all"]

U32 = st.integers(0, 2**32 - 1)
EDGE_DIVIDENDS = [-(2**31), -(2**31) + 1, -(2**30), -65, -7, -1, 0, 1, 6, 7, 8, 2**30, 2**31 - 2, 2**31 - 1,
                  123456789, -987654321, 1 << 16, (1 << 16) + 1]  # fmt: skip
DIVISORS = [1, 2, 3, 5, 6, 7, 10, 16, 25, 100, 641, 1 << 16, 65537, 2**30, 2**31 - 1, -2, -3, -7, -(2**31),
            -(2**31) + 1, -1000000007, 0x7FFFFFF1]  # fmt: skip


@given(U32, st.integers(1, 2**32 - 1))
def test_unsigned_magic_is_exact(n: int, d: int) -> None:
    assert divu_by_magic(n, *magic_unsigned(d)) == n // d


@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1).filter(lambda d: abs(d) >= 2))
def test_signed_magic_is_exact(n: int, d: int) -> None:
    m, s = magic_signed(d)
    assert div_by_magic(n, m, s, d < 0) == wrap(_trunc_div(n, d), 32)


@pytest.mark.parametrize("d", [2, 3, 7, 2**31, 2**32 - 1, 2**31 + 1, 641, 6700417])
def test_unsigned_magic_corners(d: int) -> None:
    for n in (0, 1, d - 1, d, d + 1, 2**32 - 1, 2**32 - 2, 2**31, 2**31 - 1):
        if 0 <= n < 2**32:
            assert divu_by_magic(n, *magic_unsigned(d)) == n // d, (n, d)


def _reference(key: str, a: int, d: int, bits: int) -> int:
    mask = (1 << bits) - 1
    if key == "div":
        return wrap(_trunc_div(a, d), bits)
    if key == "rem":
        return wrap(a - d * _trunc_div(a, d), bits)
    if key == "divu":
        return wrap((a & mask) // (d & mask), bits)
    return wrap((a & mask) % (d & mask), bits)


def _program(isa_name: str) -> tuple[str, list[int]]:
    """A C program printing every (op, divisor, dividend) lane; the expected lines."""
    isa = TABLES[isa_name]
    io = LaneIO(isa)
    body, want = [], []
    for elt, t, bits in (("i32", i32, 32), ("i64", i64, 64)):
        n = isa.lanes[elt]
        dividends = [x for x in EDGE_DIVIDENDS] + ([-(2**63), 2**63 - 1, 2**40 + 3] if bits == 64 else [])
        dividends += dividends[: (-len(dividends)) % n]
        data = ", ".join(int_literal(x, elt) for x in dividends)
        ct = f"int{bits}_t"
        body.append(f"    {{ static const {ct} A[] = {{{data}}};")
        for key in ("div", "rem", "divu", "remu"):
            for d in DIVISORS:
                row_key, fields = _const_division(key, d, VectorType(t, [n]))
                template = isa.row(row_key, elt)
                assert template is not None, (isa_name, row_key, elt)
                stmt = template.format(dst="v", a="x", b="dv", **fields).replace("v = ", f"{isa.vector_types[elt]} v = ", 1)
                body.append(f"      for (int i = 0; i < {len(dividends)}; i += {n}) {{")
                body.append(f"        {isa.vector_types[elt]} x = {io.load(elt, '&A[i]')};")
                body.append(f"        {isa.vector_types[elt]} dv = {io.load(elt, f'(const {ct}[]){{' + ', '.join([int_literal(d, elt)] * n) + '}')};")
                body.append(f"        {stmt} (void)dv;")
                body.append(f"        {ct} r[{n}]; {io.store(elt, 'r', 'v')}")
                body.append(f'        for (int k = 0; k < {n}; k++) printf("%lld\\n", (long long)r[k]);')
                body.append("      }")
                want += [_reference(key, a, d, bits) for a in dividends]
        body.append("    }")
    code = "int main(void)\n{\n" + "\n".join(body) + "\n    return 0;\n}\n"
    helpers = required_helpers(isa, code, all_helpers(isa))
    includes = "".join(f"#include <{h}>\n" for h in ("stdint.h", "stdbool.h", "stdio.h", "math.h", *isa.includes))
    return includes + "\n".join(h.code for h in helpers) + "\n" + code, want


def _run(isa_name: str, exe: Path, runner: list[str]) -> None:
    proc = subprocess.run([*runner, str(exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[:3000]
    _, want = _program(isa_name)
    got = [int(x) for x in proc.stdout.split()]
    assert len(got) == len(want)
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not bad, f"{isa_name}: {len(bad)} wrong lanes, first: {bad[:10]}"


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
def test_constant_division_rows_x86(isa: str, tmp_path: Path) -> None:
    source, _ = _program(isa)
    flags = ["-O2", *X86_FLAGS[isa], *(UBSAN if isa != "avx512" else [])]
    _run(isa, compile_c(["gcc"], source, tmp_path, flags), [])


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_constant_division_rows_neon(isa: str, tmp_path: Path) -> None:
    source, _ = _program("neon")
    exe = compile_c(["aarch64-linux-gnu-gcc"], source, tmp_path, ["-O2", "-static"])
    _run("neon", exe, ["qemu-aarch64"])


SHIFT_AMOUNTS = [0, 1, 5, 31, 32, 33, 40, 63, 64, 65, 200, 255]
"""Immediate amounts (the printer clamps larger constants to 255: same result, every rule saturates)."""


def _shift_program(isa_name: str) -> tuple[str, list[int]]:
    from int_semantics import BINARY, edge_values

    isa = TABLES[isa_name]
    io = LaneIO(isa)
    body, want = [], []
    for elt, bits in (("i32", 32), ("i64", 64)):
        n = isa.lanes[elt]
        values = edge_values(elt)
        values += values[: (-len(values)) % n]
        ct = f"int{bits}_t"
        body.append(f"    {{ static const {ct} A[] = {{{', '.join(int_literal(x, elt) for x in values)}}};")
        for key in ("shl", "shr", "shru"):
            template = isa.row(f"{key}_const", elt)
            if template is None:
                continue
            for k in SHIFT_AMOUNTS:
                stmt = template.format(dst="v", a="x", k=k).replace("v = ", f"{isa.vector_types[elt]} v = ", 1)
                body.append(f"      for (int i = 0; i < {len(values)}; i += {n}) {{")
                body.append(f"        {isa.vector_types[elt]} x = {io.load(elt, '&A[i]')};")
                body.append(f"        {stmt}")
                body.append(f"        {ct} r[{n}]; {io.store(elt, 'r', 'v')}")
                body.append(f'        for (int j = 0; j < {n}; j++) printf("%lld\\n", (long long)r[j]);')
                body.append("      }")
                want += [BINARY[key](a, k, bits) for a in values]
        body.append("    }")
    code = "int main(void)\n{\n" + "\n".join(body) + "\n    return 0;\n}\n"
    includes = "".join(f"#include <{h}>\n" for h in ("stdint.h", "stdio.h", *isa.includes))
    return includes + code, want


@pytest.mark.parametrize("isa", isa_params(("sse2", "avx2", "avx512")))
def test_constant_shift_rows_x86(isa: str, tmp_path: Path) -> None:
    """`shl_const` / `shr_const` / `shru_const`: x86 immediate shifts give 0 (or the sign fill)
    for every count >= the width, as docs/integer_semantics.md defines shifts."""
    source, want = _shift_program(isa)
    exe = compile_c(["gcc"], source, tmp_path, ["-O2", *X86_FLAGS[isa], *(UBSAN if isa != "avx512" else [])])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[:3000]
    got = [int(x) for x in proc.stdout.split()]
    assert got == want
