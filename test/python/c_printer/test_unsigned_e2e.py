"""Unsigned integers end to end: `cmpi ult/ule/ugt/uge` in filters and maps (vectorized through
`simd.cmp`), `fptoui` / `uitofp`, and the signed reading of `i1` (`extsi` / `sitofp` of true is -1),
compiled by the default pipeline for each ISA (NEON under qemu) and run on edge values against
numpy references built on unsigned views (docs/integer_semantics.md).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from isa_support import isa_params
from int_semantics import BINARY
from loopopt.compile import compile

ISAS = isa_params(("scalar", "sse2", "avx2", "avx512", "neon"))
UPREDS = ("ult", "ule", "ugt", "uge")
DT = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}
UDT = {"i32": np.uint32, "i64": np.uint64}
NP_CMP = {"ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal}
# filter pivots: each compares the elements against a constant that is negative when read signed
PIVOTS = {"i32": (100, -2147483648, -1), "i64": (100, -9223372036854775808, -1)}


def _filter(name: str, t: str, pred: str, pivot: int) -> str:
    return (
        f"func.func @{name}(%x: !df.array<{t}, [i]>) -> !df.array<{t}, [j]> {{\n"
        f"  %r = df.filter %x : !df.array<{t}, [i]> -> !df.array<{t}, [j]> {{\n"
        f"  ^bb0(%a: {t}):\n    %c = arith.constant {pivot} : {t}\n"
        f"    %p = arith.cmpi {pred}, %a, %c : {t}\n    df.yield %p : i1\n  }}\n"
        f"  func.return %r : !df.array<{t}, [j]>\n}}\n"
    )


def _map(name: str, ts: list[str], rt: str, body: str) -> str:
    arrays = ", ".join(f"%x{k}: !df.array<{t}, [i]>" for k, t in enumerate(ts))
    operands = ", ".join(f"%x{k}" for k in range(len(ts)))
    types = ", ".join(f"!df.array<{t}, [i]>" for t in ts)
    args = ", ".join(f"%a{k}: {t}" for k, t in enumerate(ts))
    return (
        f"func.func @{name}({arrays}) -> !df.array<{rt}, [i]> {{\n"
        f"  %r = df.map {operands} : {types} -> !df.array<{rt}, [i]> {{\n"
        f"  ^bb0({args}):\n{body}  }}\n  func.return %r : !df.array<{rt}, [i]>\n}}\n"
    )


CONST_DIV = {"div": "arith.divsi", "rem": "arith.remsi", "divu": "arith.divui", "remu": "arith.remui"}
DIVISORS = (8, -8, 7, 1, -2)  # printed as C's `/` and `%` (0 and -1 keep the helpers)


def program() -> str:
    parts = []
    for t in ("i32", "i64"):
        for p in UPREDS:
            for k, pivot in enumerate(PIVOTS[t]):
                parts.append(_filter(f"f_{p}_{t}_{k}", t, p, pivot))
            parts.append(_map(f"m_{p}_{t}", [t, t], t, (
                f"    %c = arith.cmpi {p}, %a0, %a1 : {t}\n"
                f"    %one = arith.constant 1 : {t}\n    %zero = arith.constant 0 : {t}\n"
                f"    %s = arith.select %c, %one, %zero : {t}\n    df.yield %s : {t}\n")))  # fmt: skip
            # the i1 itself, sign-extended: true is -1
            parts.append(_map(f"sext_{p}_{t}", [t, t], t, (
                f"    %c = arith.cmpi {p}, %a0, %a1 : {t}\n"
                f"    %s = arith.extsi %c : i1 to {t}\n    df.yield %s : {t}\n")))  # fmt: skip
        for key, op in CONST_DIV.items():
            for c in DIVISORS:
                parts.append(_map(f"{key}_{t}_{c}".replace("-", "m"), [t], t, (
                    f"    %c = arith.constant {c} : {t}\n"
                    f"    %s = {op} %a0, %c : {t}\n    df.yield %s : {t}\n")))  # fmt: skip
    for f in ("f32", "f64"):
        parts.append(_map(f"sitofp_i1_{f}", [f, f], f, (
            f"    %c = arith.cmpf olt, %a0, %a1 : {f}\n"
            f"    %s = arith.sitofp %c : i1 to {f}\n    df.yield %s : {f}\n")))  # fmt: skip
        parts.append(_map(f"uitofp_i1_{f}", [f, f], f, (
            f"    %c = arith.cmpf olt, %a0, %a1 : {f}\n"
            f"    %s = arith.uitofp %c : i1 to {f}\n    df.yield %s : {f}\n")))  # fmt: skip
        for conv in ("fptosi", "fptoui"):  # to i1: signed true is -1 (x <= -1), unsigned 1 (x >= 1)
            parts.append(
                f"func.func @{conv}_i1_{f}(%x: !df.array<{f}, [i]>) -> !df.array<{f}, [j]> {{\n"
                f"  %r = df.filter %x : !df.array<{f}, [i]> -> !df.array<{f}, [j]> {{\n"
                f"  ^bb0(%a: {f}):\n    %p = arith.{conv} %a : {f} to i1\n    df.yield %p : i1\n  }}\n"
                f"  func.return %r : !df.array<{f}, [j]>\n}}\n"
            )
        for i in ("i32", "i64"):
            parts.append(_map(f"fptoui_{f}_{i}", [f], i, f"    %s = arith.fptoui %a0 : {f} to {i}\n    df.yield %s : {i}\n"))
            parts.append(_map(f"uitofp_{i}_{f}", [i], f, f"    %s = arith.uitofp %a0 : {i} to {f}\n    df.yield %s : {f}\n"))
    return "\n".join(parts)


@functools.cache
def kernels(isa: str):
    return compile(program(), target=isa)


def int_edges(t: str) -> np.ndarray:
    bits = int(t[1:])
    vals = [0, 1, 2, 99, 100, 101, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 2, 2**32 - 1]
    if bits == 64:
        vals += [2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 2, 2**64 - 1, 2**63 + 2**39 + 1]
    vals += list(np.random.default_rng(7).integers(0, 2**bits, 40, dtype=np.uint64 if bits == 64 else np.uint32))
    return np.array([int(v) % 2**bits for v in vals], dtype=UDT[t]).view(DT[t])


def _pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    ev = int_edges(t)
    return np.repeat(ev, len(ev)), np.tile(ev, len(ev))


@pytest.mark.parametrize("isa", ISAS)
@pytest.mark.parametrize("t", ["i32", "i64"])
def test_unsigned_compares_in_filters_and_maps(isa: str, t: str) -> None:
    k = kernels(isa)
    ev = int_edges(t)
    x = np.concatenate([ev, ev[::-1], ev[:7]])  # main vector loop and tail
    for p in UPREDS:
        for j, pivot in enumerate(PIVOTS[t]):
            want = x[NP_CMP[p](x.view(UDT[t]), np.array(pivot, DT[t]).view(UDT[t]))]
            kept, count = k.call_alloc(f"f_{p}_{t}_{j}", x)
            assert int(count) == len(want), f"{isa} filter cmpi {p} {pivot} : {t}: count"
            np.testing.assert_array_equal(kept[: int(count)], want, err_msg=f"{isa} filter cmpi {p} {pivot} : {t}")
        a, b = _pairs(t)
        c = NP_CMP[p](a.view(UDT[t]), b.view(UDT[t]))
        got = k.call_alloc(f"m_{p}_{t}", a, b)
        np.testing.assert_array_equal(got, c.astype(DT[t]), err_msg=f"{isa} map cmpi {p} : {t}")
        got = k.call_alloc(f"sext_{p}_{t}", a, b)
        np.testing.assert_array_equal(got, -c.astype(DT[t]), err_msg=f"{isa} extsi (cmpi {p}) : i1 to {t}")


def fptoui_reference(x: float, bits: int) -> int:
    if math.isnan(x) or x <= -1.0:
        return 0
    if x >= 2.0**bits:
        u = 2**bits - 1
    else:
        u = int(x)
    return u - 2**bits if u >= 2 ** (bits - 1) else u  # the bits, read signed


FLOATS = [0.0, -0.0, 0.5, 0.999, 1.0, -0.5, -0.999, -1.0, -2.0, 2.0**31, 2.0**31 - 1, 2.0**32 - 1, 2.0**32,
          2.0**32 + 1, 2.0**63, 2.0**64, 2.0**64 - 2048.0, 1e30, -1e30, 3e38, math.inf, -math.inf, math.nan,
          4294967040.0, 18446742974197923840.0, 2.0**53, 123456.75]  # fmt: skip


@pytest.mark.parametrize("isa", ISAS)
def test_fptoui_saturates_and_uitofp_rounds(isa: str) -> None:
    k = kernels(isa)
    for f in ("f32", "f64"):
        x = np.array(FLOATS * 2, DT[f])
        for i in ("i32", "i64"):
            got = k.call_alloc(f"fptoui_{f}_{i}", x)
            want = np.array([fptoui_reference(float(v), int(i[1:])) for v in x], DT[i])
            bad = np.nonzero(got != want)[0]
            assert bad.size == 0, f"{isa} fptoui {f}->{i}: " + ", ".join(f"{x[j]!r} -> {got[j]} != {want[j]}" for j in bad[:6])
        for i in ("i32", "i64"):
            v = np.concatenate([int_edges(i)] * 2)
            got = k.call_alloc(f"uitofp_{i}_{f}", v)
            want = v.view(UDT[i]).astype(DT[f])  # the C cast of the unsigned value: round to nearest even
            np.testing.assert_array_equal(got, want, err_msg=f"{isa} uitofp {i}->{f}")
        a = np.array(FLOATS * 3, DT[f])
        b = np.roll(a, 5)
        lt = (a < b).astype(DT[f])
        got = k.call_alloc(f"sitofp_i1_{f}", a, b)
        np.testing.assert_array_equal(got, -lt, err_msg=f"{isa} sitofp i1 -> {f} (true is -1.0)")
        assert not np.signbit(got[lt == 0]).any(), f"{isa} sitofp false must be +0.0"
        for conv, keep in (("fptosi", x <= -1), ("fptoui", x >= 1)):  # NaN: neither
            kept, count = k.call_alloc(f"{conv}_i1_{f}", x)
            np.testing.assert_array_equal(kept[: int(count)], x[keep], err_msg=f"{isa} filter on {conv} {f} to i1")
        got = k.call_alloc(f"uitofp_i1_{f}", a, b)
        np.testing.assert_array_equal(got, lt, err_msg=f"{isa} uitofp i1 -> {f} (true is 1.0)")


@pytest.mark.parametrize("isa", isa_params(("scalar", "avx2")))
@pytest.mark.parametrize("t", ["i32", "i64"])
def test_constant_divisors_print_plain_c_and_stay_exact(isa: str, t: str) -> None:
    k = kernels(isa)
    bits = int(t[1:])
    x = np.concatenate([int_edges(t), -int_edges(t)])
    for key in CONST_DIV:
        for c in DIVISORS:
            got = k.call_alloc(f"{key}_{t}_{c}".replace("-", "m"), x)
            want = np.array([BINARY[key](int(v), c, bits) for v in x], DT[t])
            np.testing.assert_array_equal(got, want, err_msg=f"{isa} {key} by {c} : {t}")
    body = k.c_source.split(f" rem_{t}_8(")[1].split("\n}\n")[0]
    # no non-trapping helper call (`lo_rem_i32(`): C's `%` on scalars, multiply-high (i32) or
    # C's `%` lane by lane (i64) on vectors (targets/c_intvec.py)
    assert "% 8" in body and f"lo_rem_{t}(" not in body, body


def test_interpreter_simd_cmp_u_predicates_unsigned_on_ints_unordered_on_floats() -> None:
    """The oracle: `simd.cmp <ult>` reads integer lanes unsigned, float lanes as unordered IEEE."""
    from loopopt.compile import parse
    from loopopt.interp.runner import run_function

    src = "".join(
        f"func.func @{p}_{e}(%a: vector<4x{e}>, %b: vector<4x{e}>) -> vector<4xi1> {{\n"
        f"  %m = simd.cmp <{p}> %a, %b : vector<4x{e}> -> vector<4xi1>\n  func.return %m : vector<4xi1>\n}}\n"
        for p in UPREDS for e in ("i32", "i64", "f32")
    )
    m = parse(src)
    for e in ("i32", "i64"):
        mn = np.iinfo(DT[e]).min
        a = np.array([-1, 0, 5, mn], DT[e])
        b = np.array([1, -1, 5, -mn - 1], DT[e])
        for p in UPREDS:
            (got,) = run_function(m, f"{p}_{e}", a, b)
            np.testing.assert_array_equal(got, NP_CMP[p](a.view(UDT[e]), b.view(UDT[e])), err_msg=f"simd.cmp {p} {e}")
    fa = np.array([np.nan, 1, 2, 3], np.float32)
    fb = np.array([0, 2, 2, np.nan], np.float32)
    unordered = np.isnan(fa) | np.isnan(fb)
    for p in UPREDS:
        (got,) = run_function(m, f"{p}_f32", fa, fb)
        np.testing.assert_array_equal(got, NP_CMP[p](fa, fb) | unordered, err_msg=f"simd.cmp {p} f32")
