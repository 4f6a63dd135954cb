"""df programs with integer edge cases, compiled by the default pipeline for each ISA and run.

Each kernel maps two arrays lane-wise (the main vector loop and the scalar tail both run:
lengths are not multiples of the width) and must agree with the Python-int references of
int_semantics.py, which implement docs/integer_semantics.md (not the interpreter). A division
by zero must return 0, not kill the process with SIGFPE; NEON runs under qemu, where the old
signed `vaddq_s32` let gcc fold `(x + 1) < x` to false.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from isa_support import isa_params
from int_semantics import BINARY, COMPARE, FLOAT_EDGES, edge_values, fptosi_reference, wrap
from loopopt.compile import compile

ISAS = isa_params(("scalar", "sse2", "avx2", "avx512", "neon"))
DT = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
ARITH = {
    "add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli", "min": "arith.minsi", "max": "arith.maxsi",
    "minu": "arith.minui", "maxu": "arith.maxui",
    "shl": "arith.shli", "shr": "arith.shrsi", "shru": "arith.shrui", "div": "arith.divsi", "rem": "arith.remsi",
    "divu": "arith.divui", "remu": "arith.remui", "floordiv": "arith.floordivsi", "ceildiv": "arith.ceildivsi",
    "ceildivu": "arith.ceildivui",
}  # fmt: skip
CMPS = ("slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "eq", "ne")


def _map(name: str, t: str, body: str, rt: str | None = None, ins: int = 2) -> str:
    rt = rt or t
    arrays = ", ".join(f"%x{k}: !df.array<{t}, [i]>" for k in range(ins))
    operands = ", ".join(f"%x{k}" for k in range(ins))
    types = ", ".join(f"!df.array<{t}, [i]>" for _ in range(ins))
    args = ", ".join(f"%a{k}: {t}" for k in range(ins))
    return (
        f"func.func @{name}({arrays}) -> !df.array<{rt}, [i]> {{\n"
        f"  %r = df.map {operands} : {types} -> !df.array<{rt}, [i]> {{\n"
        f"  ^bb0({args}):\n{body}"
        f"  }}\n  func.return %r : !df.array<{rt}, [i]>\n}}\n"
    )


def program(elt: str) -> str:
    parts = []
    for key, op in ARITH.items():
        parts.append(_map(f"k_{key}", elt, f"    %s = {op} %a0, %a1 : {elt}\n    df.yield %s : {elt}\n"))
    for p in CMPS:
        parts.append(_map(f"k_cmp_{p}", elt, (
            f"    %c = arith.cmpi {p}, %a0, %a1 : {elt}\n"
            f"    %one = arith.constant 1 : {elt}\n    %zero = arith.constant 0 : {elt}\n"
            f"    %s = arith.select %c, %one, %zero : {elt}\n    df.yield %s : {elt}\n")))  # fmt: skip
    parts.append(_map("k_abs", elt, f"    %s = math.absi %a0 : {elt}\n    df.yield %s : {elt}\n", ins=1))
    # (x + 1) < x is true exactly for MAX: an optimizer that assumes no signed overflow says never
    parts.append(_map("k_inc_lt", elt, (
        f"    %one = arith.constant 1 : {elt}\n    %zero = arith.constant 0 : {elt}\n"
        f"    %p = arith.addi %a0, %one : {elt}\n    %c = arith.cmpi slt, %p, %a0 : {elt}\n"
        f"    %s = arith.select %c, %one, %zero : {elt}\n    df.yield %s : {elt}\n"), ins=1))  # fmt: skip
    parts.append(
        f"func.func @k_sum(%x: !df.array<{elt}, [i]>) -> {elt} {{\n"
        f"  %z = arith.constant 0 : {elt}\n"
        f"  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<{elt}, [i]> -> {elt}\n"
        f"  func.return %s : {elt}\n}}\n"
    )
    if elt == "i32":
        parts.append(_map("k_zext", elt, "    %s = arith.extui %a0 : i32 to i64\n    df.yield %s : i64\n", rt="i64", ins=1))
    ft = "f32" if elt == "i32" else "f64"
    parts.append(_map("k_fptosi", ft, f"    %s = arith.fptosi %a0 : {ft} to {elt}\n    df.yield %s : {elt}\n", rt=elt, ins=1))
    return "\n".join(parts)


@functools.cache
def kernels(isa: str, elt: str):
    return compile(program(elt), target=isa)


def _pairs(elt: str) -> tuple[np.ndarray, np.ndarray]:
    ev = edge_values(elt)
    a = np.array([x for x in ev for _ in ev], DT[elt])
    b = np.array([y for _ in ev for y in ev], DT[elt])
    return a, b


@pytest.mark.parametrize("elt", ["i32", "i64"])
@pytest.mark.parametrize("isa", ISAS)
def test_binary_ops_on_edge_values(isa: str, elt: str) -> None:
    k = kernels(isa, elt)
    a, b = _pairs(elt)
    bits = int(elt[1:])
    for key in ARITH:
        got = k.call_alloc(f"k_{key}", a, b)
        want = np.array([BINARY[key](int(x), int(y), bits) for x, y in zip(a, b)], DT[elt])
        bad = np.nonzero(got != want)[0]
        assert bad.size == 0, f"{isa} {key} {elt}: " + ", ".join(f"({a[i]}, {b[i]}) -> {got[i]} != {want[i]}" for i in bad[:8])
    for p in CMPS:
        got = k.call_alloc(f"k_cmp_{p}", a, b)
        want = np.array([int(COMPARE[p](int(x), int(y), bits)) for x, y in zip(a, b)], DT[elt])
        bad = np.nonzero(got != want)[0]
        assert bad.size == 0, f"{isa} cmpi {p} {elt}: " + ", ".join(f"({a[i]}, {b[i]}) -> {got[i]}" for i in bad[:8])


@pytest.mark.parametrize("elt", ["i32", "i64"])
@pytest.mark.parametrize("isa", ISAS)
def test_unary_overflow_and_sums(isa: str, elt: str) -> None:
    k = kernels(isa, elt)
    bits = int(elt[1:])
    ev = np.array(edge_values(elt) * 3, DT[elt])
    got = k.call_alloc("k_abs", ev)
    np.testing.assert_array_equal(got, np.array([wrap(abs(int(x)), bits) for x in ev], DT[elt]))
    if elt == "i32":
        got = k.call_alloc("k_zext", ev)
        np.testing.assert_array_equal(got, ev.astype(np.int64) & 0xFFFFFFFF, err_msg=f"{isa}: extui")
    got = k.call_alloc("k_inc_lt", ev)
    np.testing.assert_array_equal(got, (ev == np.iinfo(DT[elt]).max).astype(DT[elt]), err_msg=f"{isa}: (x+1) < x")
    for n in (len(ev), 67):
        x = np.full(n, np.iinfo(DT[elt]).max, DT[elt])
        got = k.call_alloc("k_sum", x)
        assert int(got) == wrap(n * int(np.iinfo(DT[elt]).max), bits), f"{isa} wrapping sum of {n} MAX"
    got = k.call_alloc("k_sum", ev)
    assert int(got) == wrap(sum(int(v) for v in ev), bits)


@pytest.mark.parametrize("elt", ["i32", "i64"])
@pytest.mark.parametrize("isa", ISAS)
def test_fptosi_saturates_nan_to_zero(isa: str, elt: str) -> None:
    k = kernels(isa, elt)
    ft = "f32" if elt == "i32" else "f64"
    x = np.array(FLOAT_EDGES[(ft, elt)] * 2, DT[ft])
    got = k.call_alloc("k_fptosi", x)
    want = np.array([fptosi_reference(float(v), int(elt[1:])) for v in x], DT[elt])
    np.testing.assert_array_equal(got, want, err_msg=f"{isa} fptosi {ft}->{elt}")


def _ubsan_main(elt: str) -> tuple[str, list[int]]:
    """A C main calling the generated kernels on the edge pairs; the expected printed values."""
    t = f"int{elt[1:]}_t"
    bits = int(elt[1:])
    a, b = _pairs(elt)
    n = len(a)

    def arr(xs) -> str:
        return ", ".join(f"INT{bits}_MIN" if int(x) == -(2 ** (bits - 1)) else f"INT{bits}_C({int(x)})" for x in xs)

    lines = [f"static const {t} A[{n}] = {{{arr(a)}}};", f"static const {t} B[{n}] = {{{arr(b)}}};",
             "int main(void)", "{", f"    static {t} out[{n}];"]  # fmt: skip
    want: list[int] = []
    for key in ARITH:
        lines.append(f"    k_{key}(A, {n}, B, {n}, out, {n});")
        lines.append(f'    for (int i = 0; i < {n}; i++) printf("%lld\\n", (long long)out[i]);')
        want += [BINARY[key](int(x), int(y), bits) for x, y in zip(a, b)]
    for p in CMPS:
        lines.append(f"    k_cmp_{p}(A, {n}, B, {n}, out, {n});")
        lines.append(f'    for (int i = 0; i < {n}; i++) printf("%lld\\n", (long long)out[i]);')
        want += [int(COMPARE[p](int(x), int(y), bits)) for x, y in zip(a, b)]
    lines.append(f'    printf("%lld\\n", (long long)k_sum(A, {n}));')
    want.append(wrap(sum(int(x) for x in a), bits))
    ft = "float" if elt == "i32" else "double"
    fv = FLOAT_EDGES[("f32", "i32") if elt == "i32" else ("f64", "i64")]
    lits = ", ".join("NAN" if np.isnan(v) else ("INFINITY" if v > 0 else "-INFINITY") if np.isinf(v) else float(v).hex() for v in fv)
    lines.append(f"    static const {ft} F[{len(fv)}] = {{{lits}}};")
    lines.append(f"    k_fptosi(F, {len(fv)}, out, {len(fv)});")
    lines.append(f'    for (int i = 0; i < {len(fv)}; i++) printf("%lld\\n", (long long)out[i]);')
    want += [fptosi_reference(float(v), bits) for v in fv]
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n", want


@pytest.mark.parametrize("elt", ["i32", "i64"])
@pytest.mark.parametrize("isa", isa_params(("scalar", "sse2", "avx2")))
def test_generated_c_under_ubsan(isa: str, elt: str, tmp_path) -> None:
    """The printer's whole output for these kernels, built with UBSan, on the edge values."""
    import subprocess

    from int_semantics import compile_c

    main, want = _ubsan_main(elt)
    flags = {"scalar": [], "sse2": ["-msse2"], "avx2": ["-mavx2", "-mfma"]}[isa]
    source = "#include <stdio.h>\n" + kernels(isa, elt).c_source + "\n" + main
    exe = compile_c(["gcc"], source, tmp_path, ["-O2", *flags, "-fsanitize=undefined", "-fno-sanitize-recover=all"])
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, f"{isa} {elt}: {proc.stderr[:3000]}"
    got = [int(v) for v in proc.stdout.split()]
    assert got == want


@pytest.mark.parametrize("elt", ["i32", "i64"])
def test_avx512_generated_c_compiles(elt: str, tmp_path) -> None:
    """Where AVX-512 cannot run, the default pipeline's C for these kernels must still build
    warning-free with the AVX-512 flags and never call the signed-lane reductions."""
    from int_semantics import compile_c
    from loopopt.compile import default_pipeline, make_context, parse, run_pipeline
    from loopopt.targets.c import emit_c

    module = parse(program(elt))
    run_pipeline(module, default_pipeline("avx512"), make_context())
    source = emit_c(module, "avx512")
    assert "_mm512_reduce_add_epi" not in source and "_mm512_reduce_mul_epi" not in source
    assert "_mm512_add_epi" in source  # the vector path really is AVX-512
    flags = ["-O2", "-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl"]
    compile_c(["gcc"], source, tmp_path, flags, link=False)
