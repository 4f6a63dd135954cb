"""i8 and i16 lanes (targets/c_narrow.py) and widening sums (loop_to_simd/widen.py), run.

Each kernel is compiled by the default pipeline for each ISA and must (1) really be a vector
loop of narrow lanes (`vector<Wxi8>` in its simd IR, W the register's byte lanes) and (2) agree
with Python-int references of docs/integer_semantics.md (int_semantics.py): every i8 pair
(65536 of them) and i16 edge pairs plus random ones for the lane-wise ops, shifts by every
constant amount, and widening sums/counts against numpy at sizes 0, 1, W-1, W, W+1, primes
and 1 Mi, at an odd (unaligned) address.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from int_semantics import BINARY, COMPARE, UNARY, edge_values, wrap
from isa_support import isa_params
from test_int_semantics_e2e import ARITH, CMPS, _map
from loopopt.compile import compile

ISAS = isa_params(("scalar", "sse2", "avx2", "avx512", "neon"))
DT = {"i8": np.int8, "i16": np.int16}
REGISTER_BITS = {"scalar": 0, "sse2": 128, "avx2": 256, "avx512": 512, "neon": 128}
SHIFTS = (0, 1, 3, 7, 8, 9, 15, 16, 17, 200)


def lanes(isa: str, elt: str) -> int:
    return max(REGISTER_BITS[isa] // int(elt[1:]), 1)


def program(elt: str) -> str:
    parts = [_map(f"k_{key}", elt, f"    %s = {op} %a0, %a1 : {elt}\n    df.yield %s : {elt}\n") for key, op in ARITH.items()]
    for p in CMPS:
        parts.append(_map(f"k_cmp_{p}", elt, (
            f"    %c = arith.cmpi {p}, %a0, %a1 : {elt}\n"
            f"    %s = arith.select %c, %a0, %a1 : {elt}\n    df.yield %s : {elt}\n")))  # fmt: skip
    parts.append(_map("k_neg", elt, f"    %z = arith.constant 0 : {elt}\n    %s = arith.subi %z, %a0 : {elt}\n    df.yield %s : {elt}\n", ins=1))
    parts.append(_map("k_abs", elt, f"    %s = math.absi %a0 : {elt}\n    df.yield %s : {elt}\n", ins=1))
    parts.append(_map("k_ctpop", elt, f"    %s = math.ctpop %a0 : {elt}\n    df.yield %s : {elt}\n", ins=1))
    for k in SHIFTS:
        for key, op in (("shl", "arith.shli"), ("shr", "arith.shrsi"), ("shru", "arith.shrui")):
            parts.append(_map(f"k_{key}_{k}", elt, (
                f"    %k = arith.constant {k} : {elt}\n    %s = {op} %a0, %k : {elt}\n    df.yield %s : {elt}\n"), ins=1))
    for d in (3, -7, 10):
        parts.append(_map(f"k_divc_{abs(d)}", elt, (
            f"    %d = arith.constant {d} : {elt}\n    %s = arith.divsi %a0, %d : {elt}\n    df.yield %s : {elt}\n"), ins=1))
    for acc in ("i32", "i64"):
        for ext in ("extui", "extsi"):
            parts.append(
                f"func.func @k_sum_{ext}_{acc}(%x: !df.array<{elt}, [i]>) -> {acc} {{\n"
                f"  %z = arith.constant 0 : {acc}\n"
                f"  %w = df.map %x : !df.array<{elt}, [i]> -> !df.array<{acc}, [i]> {{\n"
                f"  ^bb0(%e: {elt}):\n    %v = arith.{ext} %e : {elt} to {acc}\n    df.yield %v : {acc}\n  }}\n"
                f"  %s = df.reduce add(%w, %z) over [i] : !df.array<{acc}, [i]> -> {acc}\n  func.return %s : {acc}\n}}\n"
            )
    # a count: compares of narrow lanes, and-ed, summed as 0/1 (extui) and as 0/-1 (extsi)
    for ext in ("extui", "extsi"):
        parts.append(
            f"func.func @k_count_{ext}(%x: !df.array<{elt}, [i]>, %lo: {elt}, %hi: {elt}) -> i64 {{\n"
            f"  %z = arith.constant 0 : i64\n"
            f"  %w = df.map %x : !df.array<{elt}, [i]> -> !df.array<i64, [i]> {{\n"
            f"  ^bb0(%e: {elt}):\n    %a = arith.cmpi uge, %e, %lo : {elt}\n    %b = arith.cmpi sle, %e, %hi : {elt}\n"
            f"    %c = arith.andi %a, %b : i1\n    %v = arith.{ext} %c : i1 to i64\n    df.yield %v : i64\n  }}\n"
            f"  %s = df.reduce add(%w, %z) over [i] : !df.array<i64, [i]> -> i64\n  func.return %s : i64\n}}\n"
        )
    for name, pred, c in (("gt3", "sgt", 3), ("ult200", "ult", 200)):  # compaction (i8: c_narrow_compress)
        parts.append(
            f"func.func @k_filter_{name}(%x: !df.array<{elt}, [i]>) -> !df.array<{elt}, [j]> {{\n"
            f"  %r = df.filter %x : !df.array<{elt}, [i]> -> !df.array<{elt}, [j]> {{\n"
            f"  ^bb0(%e: {elt}):\n    %c = arith.constant {c} : {elt}\n    %p = arith.cmpi {pred}, %e, %c : {elt}\n"
            f"    df.yield %p : i1\n  }}\n  func.return %r : !df.array<{elt}, [j]>\n}}\n"
        )
    parts.append(
        f"func.func @k_reduce_max(%x: !df.array<{elt}, [i]>) -> {elt} {{\n"
        f"  %z = arith.constant {-(1 << (int(elt[1:]) - 1))} : {elt}\n"
        f"  %s = df.reduce max(%x, %z) over [i] : !df.array<{elt}, [i]> -> {elt}\n  func.return %s : {elt}\n}}\n"
    )
    return "\n".join(parts)


@functools.cache
def kernels(isa: str, elt: str, tail: str = "scalar"):
    pipeline = None if tail == "scalar" else f"loop-pipeline{{target={isa} tail={tail}}}"
    return compile(program(elt), target=isa, pipeline=pipeline)


def _pairs(elt: str) -> tuple[np.ndarray, np.ndarray]:
    """i8: every pair (and 37 more, so the tail runs); i16: edge pairs and random pairs."""
    if elt == "i8":
        v = np.arange(-128, 128, dtype=np.int64)
        a, b = np.repeat(v, 256), np.tile(v, 256)
    else:
        ev = np.array(edge_values("i16") + [8, 9, 15, 16, 17, 127, 128, 255, 256, -129, 0x5555, -0x5556], np.int64)
        rng = np.random.default_rng(16)
        a = np.concatenate([np.repeat(ev, len(ev)), rng.integers(-32768, 32768, 20000)])
        b = np.concatenate([np.tile(ev, len(ev)), rng.integers(-32768, 32768, 20000)])
    a, b = np.concatenate([a, a[:37]]), np.concatenate([b, b[5:42]])
    return a.astype(DT[elt]), b.astype(DT[elt])


def _check(got: np.ndarray, want: list[int], a: np.ndarray, b: np.ndarray | None, what: str, elt: str) -> None:
    want_a = np.array(want, np.int64).astype(DT[elt])
    bad = np.nonzero(got != want_a)[0]
    detail = ", ".join(f"({a[i]}{'' if b is None else f', {b[i]}'}) -> {got[i]} != {want_a[i]}" for i in bad[:6])
    assert bad.size == 0, f"{what}: {bad.size} wrong: {detail}"


@pytest.mark.parametrize("elt", ["i8", "i16"])
@pytest.mark.parametrize("isa", ISAS)
def test_loops_run_at_the_narrow_lane_count(isa: str, elt: str) -> None:
    """The maps and the widening sums are vector loops of narrow lanes, not scalar fallbacks."""
    if isa == "scalar":
        pytest.skip("one lane")
    k = kernels(isa, elt)
    ir = str(k.module)
    w = lanes(isa, elt)
    assert f"vector<{w}x{elt}>" in ir
    assert "simd.widen_add" in ir
    c = k.c_source
    assert "SIMD_FALLBACK_SCALAR" not in ir and "lo_lane_add" not in c


@pytest.mark.parametrize("elt", ["i8", "i16"])
@pytest.mark.parametrize("isa", ISAS)
def test_binary_ops_and_compares(isa: str, elt: str) -> None:
    k = kernels(isa, elt)
    a, b = _pairs(elt)
    bits = int(elt[1:])
    ai, bi = a.astype(np.int64).tolist(), b.astype(np.int64).tolist()
    for key in ARITH:
        _check(k.call_alloc(f"k_{key}", a, b), [BINARY[key](x, y, bits) for x, y in zip(ai, bi)], a, b, f"{isa} {key} {elt}", elt)
    for p in CMPS:
        want = [x if COMPARE[p](x, y, bits) else y for x, y in zip(ai, bi)]
        _check(k.call_alloc(f"k_cmp_{p}", a, b), want, a, b, f"{isa} cmpi {p} {elt}", elt)


@pytest.mark.parametrize("elt", ["i8", "i16"])
@pytest.mark.parametrize("isa", ISAS)
def test_unary_ops_and_constant_shifts(isa: str, elt: str) -> None:
    k = kernels(isa, elt)
    a, _ = _pairs(elt)
    a = np.ascontiguousarray(a[::7]) if elt == "i8" else a
    bits = int(elt[1:])
    ai = a.astype(np.int64).tolist()
    for key in ("neg", "abs", "ctpop"):
        _check(k.call_alloc(f"k_{key}", a), [wrap(UNARY[key](x, bits), bits) for x in ai], a, None, f"{isa} {key} {elt}", elt)
    for s in SHIFTS:
        sw = wrap(s, bits)
        for key in ("shl", "shr", "shru"):
            want = [BINARY[key](x, sw, bits) for x in ai]
            _check(k.call_alloc(f"k_{key}_{s}", a), want, a, None, f"{isa} {key} by {s} {elt}", elt)
    for d in (3, -7, 10):
        want = [BINARY["div"](x, wrap(d, bits), bits) for x in ai]
        _check(k.call_alloc(f"k_divc_{abs(d)}", a), want, a, None, f"{isa} divsi by {d} {elt}", elt)


def _sizes(isa: str, elt: str) -> list[int]:
    w = lanes(isa, elt)
    return sorted({0, 1, max(w - 1, 1), w, w + 1, 4 * w - 1, 4 * w + 1, 97, 1009, 65537, 1 << 20})


@pytest.mark.parametrize("elt", ["i8", "i16"])
@pytest.mark.parametrize("isa", ISAS)
def test_widening_sums_and_counts_match_numpy(isa: str, elt: str) -> None:
    """Sums into i32 (wrapping) and i64, zero- and sign-extended, and 0/1 and 0/-1 counts, at
    an unaligned address (element 1 of the allocation)."""
    k = kernels(isa, elt)
    rng = np.random.default_rng(8)
    info = np.iinfo(DT[elt])
    lo, hi = DT[elt](5), DT[elt](info.max // 2)
    for n in _sizes(isa, elt):
        base = rng.integers(info.min, info.max + 1, n + 1).astype(DT[elt])
        if n > 100:
            base[1:50] = info.max  # runs of MAX/MIN: the widest lane sums
            base[50:100] = info.min
        x = base[1:]
        u = x.view(f"u{x.itemsize}").astype(np.uint64)
        s = x.astype(np.int64)
        for acc, dt in (("i32", np.int32), ("i64", np.int64)):
            want_u = int(u.sum(dtype=np.uint64)) & ((1 << int(acc[1:])) - 1)
            want_s = int(s.sum(dtype=np.int64))
            got_u = int(k.call_alloc(f"k_sum_extui_{acc}", x))
            got_s = int(k.call_alloc(f"k_sum_extsi_{acc}", x))
            assert got_u == wrap(want_u, int(acc[1:])), f"{isa} {elt} n={n}: zero-extended sum into {acc}"
            assert got_s == wrap(want_s, int(acc[1:])), f"{isa} {elt} n={n}: sign-extended sum into {acc}"
        hit = (x.view(f"u{x.itemsize}") >= np.uint64(lo)) & (x <= hi)
        assert int(k.call_alloc("k_count_extui", x, lo, hi)) == int(hit.sum()), f"{isa} {elt} n={n}: count"
        assert int(k.call_alloc("k_count_extsi", x, lo, hi)) == -int(hit.sum()), f"{isa} {elt} n={n}: -count"
        if n:
            assert int(k.call_alloc("k_reduce_max", x)) == int(x.max()), f"{isa} {elt} n={n}: max"


@pytest.mark.parametrize("tail", ["scalar", "masked"])
@pytest.mark.parametrize("elt", ["i8", "i16"])
@pytest.mark.parametrize("isa", ISAS)
def test_filters_keep_the_narrow_values_numpy_keeps(isa: str, elt: str, tail: str) -> None:
    """Filters of i8 compact by 8-byte groups (targets/c_narrow_compress.py; i16 ones as the
    bytes of their register): signed and unsigned predicates, sizes around W, primes, 1 Mi, an unaligned input,
    MAX/MIN runs (all kept / none kept), scalar and masked tails."""
    k = kernels(isa, elt, tail)
    if isa != "scalar":
        ir = str(k.module)
        assert "simd.compress_store" in ir and f"vector<{lanes(isa, elt)}x{elt}>" in ir
    rng = np.random.default_rng(12)
    info = np.iinfo(DT[elt])
    for n in _sizes(isa, elt):
        base = rng.integers(info.min, info.max + 1, n + 1).astype(DT[elt])
        if n > 300:
            base[1:150] = info.max
            base[150:300] = info.min
        x = base[1:]
        for name, keep in (("gt3", x > 3), ("ult200", x.view(f"u{x.itemsize}") < 200)):
            got, count = k.call_alloc(f"k_filter_{name}", x)  # the kept values and their count
            assert count == np.count_nonzero(keep), f"{isa} {elt} n={n}: filter {name} count"
            np.testing.assert_array_equal(got, x[keep], err_msg=f"{isa} {elt} n={n}: filter {name}")
