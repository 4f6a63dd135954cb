"""Inputs for fuzzer kernels: sizes around vector widths, special values, range bounds."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from .program import FLOATS, Input, Kernel, Param

from .evaluate import NP, round_to_bf16

SIZE_CHOICES = ((0,), (1,), (2, 3, 4, 5), (7, 8, 9), (15, 16, 17, 31, 32, 33), (13, 37, 61, 67, 127), (997, 1000, 1003, 1024))
"""One size from each group: 0, 1, around W for W in 4/8/16/32 lanes, a prime, ~1000."""


def sizes(rng: random.Random, small: bool = False) -> list[int]:
    groups = SIZE_CHOICES[:-1] if small else SIZE_CHOICES
    return sorted({rng.choice(g) for g in groups})


def float_values(rng: np.random.Generator, dt: str, shape: tuple[int, ...], special: float) -> np.ndarray:
    t = NP[dt]
    count = int(np.prod(shape)) if shape else 1
    kind = rng.integers(0, 4, count)
    normal = rng.normal(0, 1, count) * rng.choice([1.0, 100.0, 1e-3], count)
    small = rng.integers(-4, 5, count).astype(np.float64)
    wide = np.ldexp(rng.uniform(-1, 1, count), rng.integers(-60, 60, count))
    v = np.where(kind == 0, small, np.where(kind == 1, wide, normal)).astype(t)
    fi = np.finfo(t)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, fi.max, -fi.max, fi.tiny, fi.smallest_subnormal, -1.0, 1.0], t)
    mask = rng.random(count) < special
    v[mask] = rng.choice(specials, int(mask.sum()))
    return v.reshape(shape)


def int_values(rng: np.random.Generator, dt: str, shape: tuple[int, ...], special: float) -> np.ndarray:
    t = NP[dt]
    info = np.iinfo(t)
    count = int(np.prod(shape)) if shape else 1
    kind = rng.integers(0, 4, count)
    small = rng.integers(-10, 11, count)
    medium = rng.integers(-100000, 100001, count)
    full = rng.integers(info.min, info.max, count, dtype=np.int64, endpoint=True)
    v = np.where(kind == 0, small, np.where(kind == 1, medium, np.where(kind == 2, full, small))).astype(t)  # medium wraps on i8/i16
    w = info.bits
    specials = np.array([info.min, info.max, 0, -1, 1, w - 1, w, w + 1, info.min + 1], t)
    mask = rng.random(count) < special
    v[mask] = rng.choice(specials, int(mask.sum()))
    return v.reshape(shape)


def bf16_values(rng: np.random.Generator, shape: tuple[int, ...], special: float) -> np.ndarray:
    """f32 values rounded to bf16, plus bf16 subnormals and the largest finite bf16."""
    v = round_to_bf16(float_values(rng, "f32", shape, special)).copy()
    bits = v.view(np.uint16)
    edge = rng.random(bits.shape) < special / 2
    pick = rng.choice(np.array([0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F, 0x3F81], np.uint16), bits.shape)
    bits[edge] = pick[edge]
    return v


def f16_values(rng: np.random.Generator, shape: tuple[int, ...], special: float) -> np.ndarray:
    """f32 values rounded to f16 (past 65504: inf), plus f16 subnormals and the largest finite f16."""
    with np.errstate(over="ignore"):
        v = float_values(rng, "f32", shape, special).astype(np.float16)
    bits = v.view(np.uint16)
    edge = rng.random(bits.shape) < max(special, 0.05)
    pick = rng.choice(np.array([0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x3C01, 0x7E01], np.uint16), bits.shape)
    bits[edge] = pick[edge]
    return v


def index_values(rng: np.random.Generator, dt: str, shape: tuple[int, ...], length: int) -> np.ndarray:
    """Gather indices: mostly inside [0, length), some negative or past the end, a few extremes."""
    info = np.iinfo(NP[dt])
    count = int(np.prod(shape)) if shape else 1
    inside = rng.integers(0, max(length, 1), count)
    near = rng.integers(-40, length + 41, count)
    far = rng.choice(np.array([info.min, info.max, -1, length, length + 1, 2**31 - 1 if dt == "i64" else -2], np.int64), count)
    kind = rng.random(count)
    return np.where(kind < 0.7, inside, np.where(kind < 0.95, near, far)).astype(NP[dt]).reshape(shape)


def values(rng: np.random.Generator, dt: str, shape: tuple[int, ...], special: float) -> np.ndarray:
    if dt == "bf16":
        return bf16_values(rng, shape, special)
    if dt == "f16":
        return f16_values(rng, shape, special)
    if dt == "i1":
        return rng.random(shape) < 0.5
    if dt in FLOATS:
        return float_values(rng, dt, shape, special)
    return int_values(rng, dt, shape, special)


def make_args(kernel: Kernel, n: int, seed: int) -> tuple[dict[int, Any], list[Any]]:
    """(node index -> value for the evaluator, the df-shaped call inputs in argument order)."""
    rng = np.random.default_rng(seed)
    special = float(rng.choice([0.0, 0.02, 0.2]))
    args: dict[int, Any] = {}
    call: list[Any] = []
    range_start = int(rng.integers(-50, 51))
    range_step = int(rng.choice([1, 1, 2, 3, -1, -3, 7]))
    free_start = int(rng.integers(-100, 101))
    free_step = int(rng.choice([1, 1, 2, 3, -1, -2, 5, -7, 1000]))
    free_end = free_start + int(rng.integers(-5, 1200)) * (1 if rng.random() < 0.8 else -1)
    j_len = n // 2 + int(rng.choice([0, 0, 1, 5, 100, 500]))  # axis j (gather sources); 0 when n < 2
    for i, node in enumerate(kernel.nodes):
        if isinstance(node, Input):
            if node.rank == 2:
                shape = (n, node.cols) if node.rows_n else (node.cols, n)
                v: Any = values(rng, node.dtype, shape, special)
            elif node.axis == "j":
                v = values(rng, node.dtype, (j_len,), special)
            elif node.index:
                v = index_values(rng, node.dtype, (n,), j_len)
            elif node.fields:
                v = {f: values(rng, node.dtype, (n,), special) for f in node.fields}
            else:
                v = values(rng, node.dtype, (n,), special)
            args[i] = v
            call.append(v)
        elif isinstance(node, Param):
            match node.role:
                case "start":
                    p: Any = np.int64(range_start)
                case "step":
                    p = np.int64(range_step)
                case "end":
                    p = np.int64(range_start + n * range_step)
                case "rstart":
                    p = np.int64(free_start)
                case "rstep":
                    p = np.int64(free_step)
                case "rend":
                    p = np.int64(free_end)
                case _:
                    p = values(rng, node.dtype, (), special)[()]
                    p = NP[node.dtype](p)
            args[i] = p
            call.append(p)
    return args, call
