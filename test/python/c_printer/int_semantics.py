"""The defined integer semantics (docs/integer_semantics.md) as Python-int references, edge
values, and a standalone C harness that runs ISA table rows on those values.

The harness instantiates each row of an ISA table (`targets/isa_*.py`) the way the C printer
does (`{dst}`, `{a}`, `{b}` and the `lo_*` helpers it calls), on vectors loaded from constant
arrays, and prints one result per lane: `key elt index value`. Tests compare that with the
references here, which implement the semantics from scratch (not via the interpreter).
"""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from loopopt.targets.c_helpers import LaneIO, all_helpers, required_helpers
from loopopt.targets.c_isa import ELEMENT_C_TYPES, IsaTable
from loopopt.targets.isa_avx2 import AVX2
from loopopt.targets.isa_avx512 import AVX512
from loopopt.targets.isa_neon import NEON
from loopopt.targets.isa_scalar import SCALAR
from loopopt.targets.isa_sse2 import SSE2

TABLES: dict[str, IsaTable] = {"scalar": SCALAR, "sse2": SSE2, "avx2": AVX2, "avx512": AVX512, "neon": NEON}
BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def wrap(x: int, bits: int) -> int:
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _u(x: int, bits: int) -> int:
    return x & ((1 << bits) - 1)


def _nonzero(f: Callable[[int, int, int], int]) -> Callable[[int, int, int], int]:
    return lambda a, b, n: 0 if b == 0 else f(a, b, n)


BINARY: dict[str, Callable[[int, int, int], int]] = {
    "add": lambda a, b, n: wrap(a + b, n),
    "sub": lambda a, b, n: wrap(a - b, n),
    "mul": lambda a, b, n: wrap(a * b, n),
    "min": lambda a, b, n: min(a, b),
    "max": lambda a, b, n: max(a, b),
    "minu": lambda a, b, n: a if _u(a, n) < _u(b, n) else b,
    "maxu": lambda a, b, n: a if _u(a, n) > _u(b, n) else b,
    "shl": lambda a, b, n: 0 if _u(b, n) >= n else wrap(a << _u(b, n), n),
    "shr": lambda a, b, n: (-1 if a < 0 else 0) if _u(b, n) >= n else a >> _u(b, n),
    "shru": lambda a, b, n: 0 if _u(b, n) >= n else wrap(_u(a, n) >> _u(b, n), n),
    "div": _nonzero(lambda a, b, n: wrap(_trunc_div(a, b), n)),
    "rem": _nonzero(lambda a, b, n: a - b * _trunc_div(a, b)),
    "divu": _nonzero(lambda a, b, n: wrap(_u(a, n) // _u(b, n), n)),
    "remu": _nonzero(lambda a, b, n: wrap(_u(a, n) % _u(b, n), n)),
    "floordiv": _nonzero(lambda a, b, n: wrap(a // b, n)),
    "ceildiv": _nonzero(lambda a, b, n: wrap(-(-a // b), n)),
    "ceildivu": _nonzero(lambda a, b, n: wrap(-(-_u(a, n) // _u(b, n)), n)),
}
UNARY: dict[str, Callable[[int, int], int]] = {
    "neg": lambda a, n: wrap(-a, n),
    "abs": lambda a, n: wrap(abs(a), n),
    "ctpop": lambda a, n: bin(_u(a, n)).count("1"),
}
COMPARE: dict[str, Callable[[int, int, int], bool]] = {
    "eq": lambda a, b, n: a == b,
    "ne": lambda a, b, n: a != b,
    "slt": lambda a, b, n: a < b,
    "sle": lambda a, b, n: a <= b,
    "sgt": lambda a, b, n: a > b,
    "sge": lambda a, b, n: a >= b,
    "ult": lambda a, b, n: _u(a, n) < _u(b, n),
    "ule": lambda a, b, n: _u(a, n) <= _u(b, n),
    "ugt": lambda a, b, n: _u(a, n) > _u(b, n),
    "uge": lambda a, b, n: _u(a, n) >= _u(b, n),
}


def edge_values(elt: str) -> list[int]:
    n = BITS[elt]
    lo, hi = -(1 << (n - 1)), (1 << (n - 1)) - 1
    return [lo, lo + 1, -65, -64, -33, -32, -1, 0, 1, 2, 7, 31, 32, 33, 63, 64, 65, hi - 1, hi]


def fptosi_reference(x: float, bits: int) -> int:
    """Truncate toward zero, saturate, NaN -> 0."""
    if math.isnan(x):
        return 0
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if math.isinf(x):
        return hi if x > 0 else lo
    return max(lo, min(hi, int(x)))


FLOAT_EDGES = {
    # (float element, int element): values exactly representable in the float type
    ("f32", "i32"): [math.nan, -math.nan, math.inf, -math.inf, 2.0**31, -(2.0**31), 2147483520.0, -2147483904.0,
                     3e9, -3e9, 1e20, -1e20, 0.5, -0.5, -1.75, 1.75, 0.0, -0.0, 16777216.0, -123456.0],
    ("f64", "i64"): [math.nan, -math.nan, math.inf, -math.inf, 2.0**63, -(2.0**63), 9223372036854774784.0,
                     -9223372036854777856.0, 1e19, -1e19, 1e300, 0.5, -0.5, -1.75, 2.0**62, -(2.0**53) - 2, 0.0],
}  # fmt: skip


def int_literal(v: int, elt: str) -> str:
    n = BITS[elt]
    if v == -(1 << (n - 1)):
        return f"INT{n}_MIN"
    return f"INT{n}_C({v})"


def float_literal(v: float, elt: str) -> str:
    f = "f" if elt == "f32" else ""
    if math.isnan(v):
        return "(-NAN)" if math.copysign(1, v) < 0 else "NAN"
    if math.isinf(v):
        return "INFINITY" if v > 0 else "-INFINITY"
    return f"{v.hex()}{f}"


@dataclass
class Case:
    """One row applied to `count` lanes of inputs; `want` is the expected output per lane."""

    key: str
    elt: str
    a: list
    b: list | None
    want: list[int]
    out_elt: str  # C type key of the result lanes as printed


def _pad(values: list, n: int) -> list:
    """`values` repeated cyclically up to a multiple of n lanes (4 mask pairs fill 16 lanes)."""
    if not values:
        return values
    return [values[k % len(values)] for k in range(len(values) + (-len(values)) % n)]


def int_cases(isa: IsaTable, elt: str) -> list[Case]:
    """Every integer row of `isa` on `elt` that has a reference, over all pairs of edge values."""
    n = lanes(isa, elt)
    bits = BITS[elt]
    ev = edge_values(elt)
    pa = _pad([a for a in ev for _ in ev], n)
    pb = _pad([b for _ in ev for b in ev], n)
    cases = []
    for key, f in BINARY.items():
        if isa.row(key, elt) is not None:
            cases.append(Case(key, elt, pa, pb, [f(a, b, bits) for a, b in zip(pa, pb)], elt))
    for key, g in UNARY.items():
        if isa.row(key, elt) is not None:
            a = _pad(ev, n)
            cases.append(Case(key, elt, a, None, [g(x, bits) for x in a], elt))
    for pred, c in COMPARE.items():
        key = f"cmp.{pred}"
        if isa.row(key, elt) is not None:
            cases.append(Case(key, elt, pa, pb, [int(c(a, b, bits)) for a, b in zip(pa, pb)], "bool"))
    return cases


def lanes(isa: IsaTable, elt: str) -> int:
    return 1 if isa.name == "scalar" else isa.lanes[elt]


def _load(isa: IsaTable, elt: str, ptr: str) -> str:
    return f"*({ptr})" if isa.name == "scalar" else LaneIO(isa).load(elt, ptr)


def _store(isa: IsaTable, elt: str, ptr: str, v: str) -> str:
    return f"*({ptr}) = {v};" if isa.name == "scalar" else LaneIO(isa).store(elt, ptr, v)


def _vtype(isa: IsaTable, elt: str) -> str:
    return isa.vector_types[elt] if isa.name != "scalar" else ELEMENT_C_TYPES[elt]


def _apply(template: str, **fields: str) -> str:
    return template.format(**fields)


def build_program(isa: IsaTable, cases: list[Case], hreduce: list[Case], converts: list[Case],
                  mask_cases: list[Case]) -> str:  # fmt: skip
    """A C program printing `i value` per lane for every case, in order."""
    body: list[str] = []
    data: list[str] = []
    for ci, c in enumerate(cases + hreduce + converts + mask_cases):
        kind = "mask" if c in mask_cases else "conv" if c in converts else "red" if c in hreduce else "op"
        t = ELEMENT_C_TYPES.get(c.elt, "_Bool")
        lit = float_literal if c.elt.startswith("f") else int_literal
        n = 1 if isa.name == "scalar" else (isa.lanes[c.elt] if kind != "mask" else len(c.a) and _mask_lanes(c))
        if kind == "mask":
            data.append(f"static const _Bool A{ci}[] = {{{', '.join(str(int(x)) for x in c.a)}}};")
            data.append(f"static const _Bool B{ci}[] = {{{', '.join(str(int(x)) for x in c.b or [])}}};")
        else:
            data.append(f"static const {t} A{ci}[] = {{{', '.join(lit(x, c.elt) for x in c.a)}}};")
            if c.b is not None:
                data.append(f"static const {t} B{ci}[] = {{{', '.join(lit(x, c.elt) for x in c.b)}}};")
        step = 1 if kind == "red" and isa.name == "scalar" else n
        loop = [f"for (int i = 0; i < {len(c.a)}; i += {step}) {{"]
        template = isa.row(c.key, c.elt if kind != "mask" else _mask_key(isa, c)) or ""
        assert template, (isa.name, c.key, c.elt)
        if kind == "mask":
            if isa.name == "scalar":
                loop.append(f"    _Bool a = A{ci}[i], b = B{ci}[i]; _Bool v;")
                loop.append("    " + _apply(template, dst="v", a="a", b="b"))
                loop.append('    printf("%d\\n", (int)v);')
            else:
                io = LaneIO(isa)
                mt = io.mtype(n)
                loop.append(f"    {mt} a = {io.bools_to_mask(n, f'&A{ci}[i]')}; {mt} b = {io.bools_to_mask(n, f'&B{ci}[i]')}; {mt} v;")
                loop.append("    " + _apply(template, dst="v", a="a", b="b"))
                loop.append("    " + io.mask_to_bools(n, "v", "on"))
                loop.append(f'    for (int k = 0; k < {n}; k++) printf("%d\\n", (int)on[k]);')
        else:
            vt = _vtype(isa, c.elt)
            loop.append(f"    {vt} a = {_load(isa, c.elt, f'&A{ci}[i]')};")
            if c.b is not None:
                loop.append(f"    {vt} b = {_load(isa, c.elt, f'&B{ci}[i]')};")
            if kind == "red":
                loop.append(f"    {t} v;")
                loop.append("    " + _apply(template, dst="v", a="a", T=t))
                loop.append('    printf("%lld\\n", (long long)v);')
            elif c.out_elt == "bool":
                if isa.name == "scalar":
                    loop.append("    _Bool v;")
                    loop.append("    " + _apply(template, dst="v", a="a", b="b", T=t))
                    loop.append('    printf("%d\\n", (int)v);')
                else:
                    io = LaneIO(isa)
                    loop.append(f"    {io.mtype(n)} v;")
                    loop.append("    " + _apply(template, dst="v", a="a", b="b", T=t))
                    loop.append("    " + io.mask_to_bools(n, "v", "on"))
                    loop.append(f'    for (int k = 0; k < {n}; k++) printf("%d\\n", (int)on[k]);')
            else:
                ot = ELEMENT_C_TYPES[c.out_elt]
                loop.append(f"    {_vtype(isa, c.out_elt)} v;")
                loop.append("    " + _apply(template, dst="v", a="a", b="b", T=t))
                loop.append(f"    {ot} r[{n}]; {_store(isa, c.out_elt, 'r', 'v')}")
                loop.append(f'    for (int k = 0; k < {n}; k++) printf("%lld\\n", (long long)r[k]);')
        loop.append("}")
        body.append(f"    /* {c.key} {c.elt} */\n" + "\n".join("    " + x for x in loop))
    code = "\n".join(data) + "\n\nint main(void)\n{\n" + "\n".join(body) + "\n    return 0;\n}\n"
    helpers = required_helpers(isa, code, all_helpers(isa))
    includes = "".join(f"#include <{h}>\n" for h in ("stdint.h", "stdbool.h", "stdio.h", "math.h", *isa.includes))
    return includes + "\n" + "\n".join(h.code for h in helpers) + "\n" + code


def _mask_lanes(c: Case) -> int:
    return int(c.elt[3:])  # elt is "i1x<N>" for mask cases


def _mask_key(isa: IsaTable, c: Case) -> str:
    return "i1" if isa.name == "scalar" else c.elt


def hreduce_cases(isa: IsaTable, elt: str) -> list[Case]:
    """Sum, product, signed and unsigned min/max and bitwise reductions over vectors of edge
    values (overflowing; umin/umax compare the lanes' unsigned bits)."""
    n = lanes(isa, elt)
    if isa.name == "scalar":
        return []
    bits = BITS[elt]
    ev = edge_values(elt)
    out = []
    u = (1 << bits) - 1

    def unsigned(f):
        return lambda p, q: wrap(f(p & u, q & u), bits)

    step = {"add": lambda p, q: wrap(p + q, bits), "mul": lambda p, q: wrap(p * q, bits), "min": min, "max": max,
            "umin": unsigned(min), "umax": unsigned(max), "and": lambda p, q: p & q, "or": lambda p, q: p | q}  # fmt: skip
    for kind in step:
        key = f"hreduce.{kind}"
        if isa.row(key, elt) is None:
            continue
        a: list[int] = []
        want: list[int] = []
        for start in range(len(ev)):  # every window of n edge values (wrapping around), plus all-MAX
            group = [ev[(start + k) % len(ev)] for k in range(n)]
            a += group
        a += [ev[-1]] * n + [ev[0]] * n
        for g in range(0, len(a), n):
            group = a[g: g + n]
            acc = group[0]
            for x in group[1:]:
                acc = step[kind](acc, x)
            want.append(acc)
        out.append(Case(key, elt, a, None, want, elt))
    return out


def convert_cases(isa: IsaTable) -> list[Case]:
    out = []
    for (fe, ie), values in FLOAT_EDGES.items():
        key = f"convert.{ie}"
        if isa.row(key, fe) is None:
            continue
        n = lanes(isa, fe)
        if isa.name != "scalar" and isa.lanes[ie] != n:
            continue
        a = _pad(values, n)
        out.append(Case(key, fe, a, None, [fptosi_reference(x, BITS[ie]) for x in a], ie))
    return out


def mask_cases(isa: IsaTable) -> list[Case]:
    """Integer compares of i1 values / masks: true is -1 signed, 1 unsigned."""
    out = []
    ns = [1] if isa.name == "scalar" else sorted(isa.mask_types)
    for n in ns:
        pairs = [(a, b) for a in (0, 1) for b in (0, 1)]
        pa = _pad([a for a, _ in pairs], n)
        pb = _pad([b for _, b in pairs], n)
        for pred, c in COMPARE.items():
            key = f"cmp.{pred}"
            mk = "i1" if isa.name == "scalar" else f"i1x{n}"
            if isa.row(key, mk) is None:
                continue
            want = [int(c(-a, -b, 1)) if pred[0] != "u" else int(c(a, b, 1)) for a, b in zip(pa, pb)]
            out.append(Case(key, f"i1x{n}", pa, pb, want, "bool"))
    return out


def all_cases(isa: IsaTable) -> tuple[list[Case], list[Case], list[Case], list[Case]]:
    elts = ("i8", "i16", "i32", "i64") if isa.name == "scalar" else ("i32", "i64")  # i8/i16 lanes: scalar C only
    ops = [c for e in elts for c in int_cases(isa, e)]
    red = [c for e in ("i32", "i64") for c in hreduce_cases(isa, e)]
    return ops, red, convert_cases(isa), mask_cases(isa)


def expected_lines(groups: tuple[list[Case], ...]) -> list[tuple[str, str, int, int]]:
    out = []
    for group in groups:
        for c in group:
            out += [(c.key, c.elt, i, w) for i, w in enumerate(c.want)]
    return out


def compile_c(compiler: list[str], source: str, workdir: Path, flags: list[str], link: bool = True) -> Path:
    if shutil.which(compiler[0]) is None:
        raise FileNotFoundError(compiler[0])
    src = workdir / "t.c"
    src.write_text(source)
    exe = workdir / ("t" if link else "t.o")
    cmd = [*compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", *flags, str(src), "-o", str(exe)]
    if not link:
        cmd.append("-c")
    else:
        cmd.append("-lm")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed:\n{proc.stderr[:4000]}")
    return exe
