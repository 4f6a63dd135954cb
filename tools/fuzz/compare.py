"""Compare a compiled kernel's results with the evaluator's references.

Integers and booleans: equal. Floats: bit-exact up to NaN payloads (any NaN equals any NaN;
+0.0 and -0.0 differ), except tainted lanes (not compared; a result whose length a tainted filter decided is not compared at
all) and reassociated sums (within the
reference's bound). With an FMA-contracting target, each element may match the unfused or
the fused reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .evaluate import Ref


def element_ok(ref: Ref, got: np.ndarray) -> np.ndarray:
    want = np.asarray(ref.value)
    got = np.asarray(got)
    if want.dtype.kind == "V":  # bf16 (ml_dtypes): compared through its exact f32 values
        want = want.astype(np.float32)
        got = got.astype(np.float32) if got.dtype.kind == "V" else got
    if want.dtype.kind == "f":
        got = got.astype(want.dtype)
        with np.errstate(all="ignore"):
            same = ((want == got) & (np.signbit(want) == np.signbit(got))) | (np.isnan(want) & np.isnan(got))
            if ref.bound is not None:
                same = same | (np.abs(want.astype(np.float64) - got.astype(np.float64)) <= ref.bound)
                same = same | ((want == got) & (want == 0))
    else:
        same = want == got
    return np.asarray(same | ref.taint)


def describe(want: Any, got: Any, bad: np.ndarray) -> str:
    want, got = np.asarray(want), np.asarray(got)
    if want.shape == ():
        return f"want {want!r} got {got!r}"
    idx = np.argwhere(~bad)[:3]
    parts = [f"[{', '.join(map(str, i))}] want {want[tuple(i)]!r} got {got[tuple(i)]!r}" for i in idx]
    return f"{int((~bad).sum())} of {bad.size} elements differ: " + "; ".join(parts)


def compare_results(refs: list[Ref], alt: list[Ref] | None, got: tuple[Any, ...]) -> str | None:
    """None when `got` matches, else what differs."""
    if len(got) != len(refs):
        return f"{len(got)} results, expected {len(refs)}"
    for k, ref in enumerate(refs):
        if ref.open:
            continue
        g = np.asarray(got[k])
        w = np.asarray(ref.value)
        if g.shape != w.shape:
            return f"result {k}: shape {g.shape}, expected {w.shape}"
        if w.dtype.kind in "iub" and g.dtype.kind not in "iub":
            return f"result {k}: dtype {g.dtype}, expected {w.dtype}"
        ok = element_ok(ref, g)
        if alt is not None:
            ok = ok | element_ok(alt[k], g)
        if not np.all(ok):
            return f"result {k} ({w.dtype}): " + describe(ref.value, g, ok)
    return None
