"""The hand-written kernel library (kernels/) wraps integer arithmetic by construction.

Each ISA's source file is built into a standalone program that runs the integer reductions
and maps on overflowing inputs (MAX, MIN, mixed) for lengths that use the vector loop, the
accumulators and the tail, and prints the results; x86 builds use
`-fsanitize=undefined -fno-sanitize-recover=all`, NEON runs under qemu. Results must equal a
Python-int wrapping reference. NEON sources must not use the signed-lane arithmetic
intrinsics (GCC spells `vaddq_s32` as signed C vector addition, undefined on overflow).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from isa_support import isa_params
from int_semantics import wrap

KERNELS = Path(__file__).resolve().parents[3] / "kernels"
FLAGS = {"scalar": [], "sse2": ["-msse2"], "avx2": ["-mavx2", "-mfma"], "neon": []}
EXTREMES = {"i32": (-(2**31), 2**31 - 1), "i64": (-(2**63), 2**63 - 1)}


def _inputs(dt: str) -> list[list[int]]:
    lo, hi = EXTREMES[dt]
    mixed = [hi, hi - 1, lo, -1, 3, hi, 7, lo + 1, hi, 2, -5, hi]
    return [[hi] * n for n in (1, 7, 33, 70)] + [[lo] * 33, (mixed * 6)[:67], [3] * 45, [-3] * 41]


def _c_array(dt: str, xs: list[int]) -> str:
    bits = dt[1:]
    lits = ", ".join(f"INT{bits}_MIN" if x == EXTREMES[dt][0] else f"INT{bits}_C({x})" for x in xs)
    return f"{{{lits}}}"


def _program(isa: str) -> tuple[str, list[int]]:
    lines, want = [], []
    for dt in ("i32", "i64"):
        t = f"int{dt[1:]}_t"
        bits = int(dt[1:])
        for k, xs in enumerate(_inputs(dt)):
            n = len(xs)
            lines.append(f"    {{ static const {t} x[] = {_c_array(dt, xs)}; {t} o[{n}];")
            for p in ("sum", "prod", "sumsq", "filter_gt0_sum"):
                lines.append(f'      printf("%lld\\n", (long long)lo_{p}_{dt}_{isa}(x, {n}));')
            lines.append(f'      printf("%lld\\n", (long long)lo_dot_{dt}_{isa}(x, {n}, x, {n}));')
            lines.append(f"      lo_axpb_{dt}_{isa}(x, {n}, 3, EXTREME, o, {n});".replace("EXTREME", f"INT{bits}_MAX"))
            lines.append(f'      for (int i = 0; i < {n}; i++) printf("%lld\\n", (long long)o[i]);')
            lines.append(f"      lo_axpy_{dt}_{isa}(x, {n}, x, {n}, -7, o, {n});")
            lines.append(f'      for (int i = 0; i < {n}; i++) printf("%lld\\n", (long long)o[i]); }}')
            w = lambda v: wrap(v, bits)  # noqa: E731
            prod = 1
            for x in xs:
                prod = w(prod * x)
            want += [w(sum(xs)), prod, w(sum(x * x for x in xs)), w(sum(x for x in xs if x > 0)), w(sum(x * x for x in xs))]
            want += [w(3 * x + 2 ** (bits - 1) - 1) for x in xs]
            want += [w(-7 * x + x) for x in xs]
    src = "#include <stdint.h>\n#include <stdio.h>\n#include \"loopopt_kernels.h\"\n\nint main(void)\n{\n"
    return src + "\n".join(lines) + "\n    return 0;\n}\n", want


def _build(isa: str, tmp_path: Path, cc: str, extra: list[str]) -> Path:
    if shutil.which(cc) is None:
        pytest.skip(f"{cc} is not installed")
    source, _ = _program(isa)
    main = tmp_path / "main.c"
    main.write_text(source)
    exe = tmp_path / "k"
    cmd = [cc, "-std=c11", "-O2", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror", *FLAGS[isa], *extra,
           f"-I{KERNELS / 'src'}", f"-I{KERNELS / 'include'}", str(KERNELS / "src" / f"{isa}.c"), str(main), "-o", str(exe), "-lm"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:3000]
    return exe


def _check(isa: str, out: str) -> None:
    _, want = _program(isa)
    got = [int(v) for v in out.split()]
    assert len(got) == len(want)
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not bad, f"{isa}: {len(bad)} wrong results, first {bad[:8]}"


@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2")))
def test_x86_kernels_wrap_under_ubsan(isa: str, tmp_path: Path) -> None:
    exe = _build(isa, tmp_path, "gcc", ["-fsanitize=undefined", "-fno-sanitize-recover=all"])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[:3000]
    _check(isa, proc.stdout)


@pytest.mark.parametrize("isa", isa_params(("neon",)))
def test_neon_kernels_wrap_under_qemu(isa: str, tmp_path: Path) -> None:
    exe = _build("neon", tmp_path, "aarch64-linux-gnu-gcc", ["-static"])
    proc = subprocess.run(["qemu-aarch64", str(exe)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[:3000]
    _check("neon", proc.stdout)


def test_neon_source_uses_no_signed_lane_arithmetic() -> None:
    text = (KERNELS / "src" / "neon.c").read_text()
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    banned = re.findall(r"\bv(?:add|sub|mul|mla|mls|neg|abs)q_s(?:32|64)\b", code)
    assert not banned, f"signed-lane arithmetic in kernels/src/neon.c: {sorted(set(banned))}"
