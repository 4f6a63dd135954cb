"""Hand-written simd-level kernels (what convert-loop-to-simd produces), one per ISA and element type.

Each kernel has a main vector loop (`loop.for` with step W over simd ops) and a tail (a scalar
loop, or a masked vector step), follows the kernel ABI (docs/calling_convention.md) and comes
with a numpy reference, so the tests can print, compile and run them for every target.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from loopopt.dialects.simd_targets import TARGETS
from loopopt.interp.lanewise import exact_fma

ELTS = ("f32", "f64", "i32", "i64")
DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}


def lanes(isa: str, elt: str) -> int:
    info = TARGETS[isa]
    return 1 if info.vector_bits == 0 else info.vector_bits // int(elt[1:])


def _ins(*names: str) -> list[str]:
    return [f'%{n}: !loop.buf<{{T}}> {{{{loop.role = "in", loop.axes = ["i"]}}}}' for n in names]


OUT = '%out: !loop.buf<{T}> {{loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}}'
FILTER_OUT = '%out: !loop.buf<{T}> {{loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64, loop.result = 0 : i64}}'

_PROLOGUE = """  %c0 = arith.constant 0 : index
  %cW = arith.constant {W} : index
  %n = loop.dim %x, 0 : !loop.buf<{T}>
  %r = arith.remsi %n, %cW : index
  %nv = arith.subi %n, %r : index
"""


def axpy(isa: str, elt: str) -> str:
    """out = a * x + y: fma on floats (simd.fma / math.fma), muli + addi on integers; scalar tail."""
    if elt.startswith("f"):
        vec = "    %f = simd.fma %va, %vx, %vy : {V}\n"
        sca = "    %f = math.fma %a, %sx, %sy : {T}\n"
    else:
        vec = "    %p = arith.muli %va, %vx : {V}\n    %f = arith.addi %p, %vy : {V}\n"
        sca = "    %p = arith.muli %a, %sx : {T}\n    %f = arith.addi %p, %sy : {T}\n"
    return (
        "func.func @axpy_{T}(" + ", ".join([*_ins("x", "y"), "%a: {T}", OUT]) + ") attributes {{loop.kernel}} {{\n"
        + _PROLOGUE
        + "  %va = simd.broadcast %a : {T} -> {V}\n"
        "  loop.for %i in range(%c0, %nv, %cW) {{\n"
        "    %vx = simd.load %x[%i] : !loop.buf<{T}> -> {V}\n"
        "    %vy = simd.load %y[%i] : !loop.buf<{T}> -> {V}\n" + vec
        + "    simd.store %f, %out[%i] : {V}, !loop.buf<{T}>\n"
        "  }}\n"
        "  loop.for %i in [%nv, %n) {{\n"
        "    %sx = loop.load %x[%i] : !loop.buf<{T}>\n"
        "    %sy = loop.load %y[%i] : !loop.buf<{T}>\n" + sca
        + "    loop.store %f, %out[%i] : !loop.buf<{T}>\n"
        "  }}\n"
        "  func.return\n}}\n"
    ).format(T=elt, V=f"vector<{lanes(isa, elt)}x{elt}>", W=lanes(isa, elt))


def reduce(isa: str, elt: str, kind: str) -> str:
    """A fold of x from `init`: vector accumulator, simd.hreduce epilogue, scalar tail."""
    float_ = elt.startswith("f")
    vec_op = {"add": "arith.addf" if float_ else "arith.addi", "min": "simd.min", "max": "simd.max"}[kind]
    sca_op = {"add": "arith.addf" if float_ else "arith.addi",
              "min": "arith.minimumf" if float_ else "arith.minsi",
              "max": "arith.maximumf" if float_ else "arith.maxsi"}[kind]  # fmt: skip
    neutral = {"add": "%zero", "min": "%init", "max": "%init"}[kind]
    zero = "0.0" if float_ else "0"
    return (
        "func.func @reduce_{K}_{T}(" + ", ".join([*_ins("x"), "%init: {T}"]) + ") -> {T} attributes {{loop.kernel}} {{\n"
        + _PROLOGUE
        + f"  %zero = arith.constant {zero} : {{T}}\n"
        f"  %vinit = simd.broadcast {neutral} : {{T}} -> {{V}}\n"
        "  %vacc = loop.for %i in range(%c0, %nv, %cW) accs(%acc = %vinit : {V} {K} reassoc) {{\n"
        "    %vx = simd.load %x[%i] : !loop.buf<{T}> -> {V}\n"
        f"    %t = {vec_op} %acc, %vx : {{V}}\n"
        "    loop.yield %t : {V}\n"
        "  }}\n"
        "  %h = simd.hreduce <{K}> %vacc : {V} -> {T}\n"
        f"  %h2 = {sca_op} %h, %init : {{T}}\n"
        "  %s = loop.for %i in [%nv, %n) accs(%a = %h2 : {T} {K}) {{\n"
        "    %sx = loop.load %x[%i] : !loop.buf<{T}>\n"
        f"    %t = {sca_op} %a, %sx : {{T}}\n"
        "    loop.yield %t : {T}\n"
        "  }}\n"
        "  func.return %s : {T}\n}}\n"
    ).format(T=elt, V=f"vector<{lanes(isa, elt)}x{elt}>", W=lanes(isa, elt), K=kind)


def filter_pos(isa: str, elt: str) -> str:
    """out = x[x > 0] * 2 compacted (compress store); the tail is one masked vector step."""
    W = lanes(isa, elt)
    float_ = elt.startswith("f")
    pred, zero, two = ("ogt", "0.0", "2.0") if float_ else ("sgt", "0", "2")
    mul = "arith.mulf" if float_ else "arith.muli"
    return (
        "func.func @filter_pos_{T}(" + ", ".join([*_ins("x"), FILTER_OUT]) + ") -> index attributes {{loop.kernel}} {{\n"
        + _PROLOGUE
        + f"  %zero = arith.constant {zero} : {{T}}\n"
        f"  %two = arith.constant {two} : {{T}}\n"
        "  %vzero = simd.broadcast %zero : {T} -> {V}\n"
        "  %vtwo = simd.broadcast %two : {T} -> {V}\n"
        "  %pos = loop.for %i in range(%c0, %nv, %cW) accs(%p = %c0 : index add) {{\n"
        "    %vx = simd.load %x[%i] : !loop.buf<{T}> -> {V}\n"
        f"    %m = simd.cmp <{pred}> %vx, %vzero : {{V}} -> {{M}}\n"
        f"    %y = {mul} %vx, %vtwo : {{V}}\n"
        "    %k = simd.compress_store %y, %m, %out[%p] : {V}, {M}, !loop.buf<{T}>\n"
        "    %q = arith.addi %p, %k : index\n"
        "    loop.yield %q : index\n"
        "  }}\n"
        "  %tail = simd.prefix_mask %r : {M}\n"
        "  %vt = simd.masked_load %x[%nv], %tail, %vzero : !loop.buf<{T}>, {M} -> {V}\n"
        f"  %mt = simd.cmp <{pred}> %vt, %vzero : {{V}} -> {{M}}\n"
        "  %ma = arith.andi %mt, %tail : {M}\n"
        f"  %yt = {mul} %vt, %vtwo : {{V}}\n"
        "  %kt = simd.compress_store %yt, %ma, %out[%pos] : {V}, {M}, !loop.buf<{T}>\n"
        "  %total = arith.addi %pos, %kt : index\n"
        "  func.return %total : index\n}}\n"
    ).format(T=elt, V=f"vector<{W}x{elt}>", M=f"vector<{W}xi1>", W=W)


def relu_count(isa: str, elt: str) -> str:
    """out = max(x, 0) by compare + select; returns how many lanes were negative (mask popcount).

    Main loop plus a masked tail (prefix mask, masked load and masked store)."""
    W = lanes(isa, elt)
    float_ = elt.startswith("f")
    pred, zero = ("olt", "0.0") if float_ else ("slt", "0")
    return (
        "func.func @relu_count_{T}(" + ", ".join([*_ins("x"), OUT]) + ") -> index attributes {{loop.kernel}} {{\n"
        + _PROLOGUE
        + f"  %zero = arith.constant {zero} : {{T}}\n"
        "  %vzero = simd.broadcast %zero : {T} -> {V}\n"
        "  %neg = loop.for %i in range(%c0, %nv, %cW) accs(%c = %c0 : index add) {{\n"
        "    %vx = simd.load %x[%i] : !loop.buf<{T}> -> {V}\n"
        f"    %m = simd.cmp <{pred}> %vx, %vzero : {{V}} -> {{M}}\n"
        "    %y = simd.select %m, %vzero, %vx : {M}, {V}\n"
        "    simd.store %y, %out[%i] : {V}, !loop.buf<{T}>\n"
        "    %k = simd.mask_popcount %m : {M}\n"
        "    %c2 = arith.addi %c, %k : index\n"
        "    loop.yield %c2 : index\n"
        "  }}\n"
        "  %tail = simd.prefix_mask %r : {M}\n"
        "  %vt = simd.masked_load %x[%nv], %tail, %vzero : !loop.buf<{T}>, {M} -> {V}\n"
        f"  %mt = simd.cmp <{pred}> %vt, %vzero : {{V}} -> {{M}}\n"
        "  %yt = simd.select %mt, %vzero, %vt : {M}, {V}\n"
        "  simd.masked_store %yt, %out[%nv], %tail : {V}, !loop.buf<{T}>, {M}\n"
        "  %kt = simd.mask_popcount %mt : {M}\n"
        "  %total = arith.addi %neg, %kt : index\n"
        "  func.return %total : index\n}}\n"
    ).format(T=elt, V=f"vector<{W}x{elt}>", M=f"vector<{W}xi1>", W=W)


@dataclass(frozen=True)
class Program:
    """One kernel: its MLIR, its name, inputs for a length n, and the numpy reference."""

    name: str
    mlir: str
    make_inputs: Callable[[int, np.random.Generator], tuple[Any, ...]]
    reference: Callable[..., tuple[Any, ...]]
    exact: bool = True


def _data(elt: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if elt.startswith("f"):
        return rng.standard_normal(n).astype(DTYPES[elt])
    return rng.integers(-1000, 1000, n).astype(DTYPES[elt])


def programs(isa: str, elt: str) -> list[Program]:
    dt = DTYPES[elt]
    float_ = elt.startswith("f")
    out = [
        Program(f"axpy_{elt}", axpy(isa, elt),
                lambda n, rng: (_data(elt, n, rng), _data(elt, n, rng), dt(3)),
                lambda x, y, a: (exact_fma(a, x, y).astype(dt) if float_ else (x * a + y).astype(dt),)),
        Program(f"reduce_add_{elt}", reduce(isa, elt, "add"),
                lambda n, rng: (_data(elt, n, rng), dt(1)),
                lambda x, init: (dt(x.sum(dtype=dt) + init),), exact=not float_),
        Program(f"reduce_min_{elt}", reduce(isa, elt, "min"),
                lambda n, rng: (_data(elt, n, rng), dt(np.inf) if float_ else dt(np.iinfo(dt).max)),
                lambda x, init: (dt(min(x.min(initial=init), init)),)),
        Program(f"reduce_max_{elt}", reduce(isa, elt, "max"),
                lambda n, rng: (_data(elt, n, rng), dt(-np.inf) if float_ else dt(np.iinfo(dt).min)),
                lambda x, init: (dt(max(x.max(initial=init), init)),)),
        Program(f"filter_pos_{elt}", filter_pos(isa, elt),
                lambda n, rng: (_data(elt, n, rng),),
                lambda x: ((x[x > 0] * dt(2)).astype(dt), int((x > 0).sum()))),
        Program(f"relu_count_{elt}", relu_count(isa, elt),
                lambda n, rng: (_data(elt, n, rng),),
                lambda x: (np.where(x < 0, dt(0), x).astype(dt), int((x < 0).sum()))),
    ]
    return out


def module_text(isa: str, elts: tuple[str, ...] = ELTS) -> str:
    """All programs for `isa` in one module."""
    body = "\n".join(p.mlir for elt in elts for p in programs(isa, elt))
    return f'builtin.module attributes {{loop.target = "{isa}"}} {{\n{body}}}\n'
