"""Calling a compiled kernel on df-shaped inputs: checked calls inside canary-guarded buffers, batches
(one qemu run for foreign ISAs), and the preallocated calls and clock that `loop-run` times.

The runtime's kernels take flat C arguments; these functions take the df program's inputs
(records as dicts of arrays), place them, size the outputs as the runtime does, and give the
results back in df order (`loopopt.lowering.abi.df_results`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from loopopt.lowering.abi import flatten_inputs
from loopopt.tools.loop_run_inputs import RunError


@dataclass
class Guarded:
    """A buffer placed `offset` elements into a larger one filled with a canary pattern, so a
    misaligned start is tested and any write outside the buffer is caught."""

    backing: np.ndarray
    view: np.ndarray
    start: int
    stop: int

    PAD = 64
    CANARY = 0xA5

    @classmethod
    def make(cls, shape: Sequence[int], dtype: Any, offset: int) -> Guarded:
        dtype = np.dtype(dtype)
        count = int(np.prod(shape)) if len(shape) else 1
        start = cls.PAD + offset * dtype.itemsize
        raw = np.full(start + count * dtype.itemsize + cls.PAD, cls.CANARY, np.uint8)
        view = raw[start : start + count * dtype.itemsize].view(dtype).reshape(shape)
        return cls(raw, view, start, start + count * dtype.itemsize)

    def intact(self) -> bool:
        return bool(np.all(self.backing[: self.start] == self.CANARY) and np.all(self.backing[self.stop :] == self.CANARY))


def _place(x: np.ndarray, offset: int) -> np.ndarray:
    if offset == 0:
        return x
    g = Guarded.make(x.shape, x.dtype, offset)
    g.view[...] = x
    return g.view


def run_compiled(compiled: Any, name: str, inputs: Sequence[Any], offset: int = 0,
                 extents: Mapping[str, int] | None = None) -> tuple[Any, ...]:
    """Call compiled native kernel `name` on df-shaped inputs; its results in df order.

    Every buffer (inputs and outputs) starts `offset` elements into a canary-filled
    allocation; an output written outside its capacity raises AssertionError. Outputs are
    sized as the runtime sizes them (`KernelSignature.output_shapes`), on an axis no input
    has (a range's) from `extents`.
    """
    from loopopt.lowering.abi import BufferArg, df_results, find_kernel, kernel_args
    from loopopt.runtime.library import results_tuple

    args = kernel_args(find_kernel(compiled.module, name))
    outs = [a for a in args if isinstance(a, BufferArg) and a.output]
    ins = [a for a in args if not (isinstance(a, BufferArg) and a.output)]
    flat = flatten_inputs(inputs)
    if len(flat) != len(ins):
        raise RunError(f"@{name} takes {len(ins)} C inputs, found {len(flat)}")
    sig = compiled.signatures[name]
    values: list[Any] = [None] * len(args)
    for a, x in zip(ins, flat, strict=True):
        values[a.index] = _place(np.asarray(x), offset) if isinstance(a, BufferArg) else x
    guards = [Guarded.make(shape, o.dt.numpy, offset) for o, shape in zip(sig.outputs, sig.output_shapes(flat, extents))]
    for a, g in zip(outs, guards, strict=True):
        values[a.index] = g.view
    results = results_tuple(sig, compiled[name](*values))
    for a, g in zip(outs, guards, strict=True):
        assert g.intact(), f"@{name}: output {a.name} was written outside its {g.view.shape} buffer"
    return df_results(outs, [v.copy() if isinstance(v, np.ndarray) else v for v in values], results)


def run_compiled_batch(compiled: Any, name: str, cases: Sequence[Sequence[Any]],
                       extents: Sequence[Mapping[str, int] | None] | None = None,
                       offsets: Sequence[int] | None = None) -> list[tuple[Any, ...]]:
    """Many calls of a compiled kernel (df-shaped inputs each, and optionally the extents of
    each case's axes no input has, and the elements each case's arrays start into their
    allocations), results in df order.

    Native kernels are called one by one; foreign ones (NEON) go through one qemu run.
    """
    from loopopt.lowering.abi import BufferArg, df_results, find_kernel, kernel_args

    per_case = list(extents) if extents is not None else [None] * len(cases)
    offs = list(offsets) if offsets is not None else [0] * len(cases)
    if compiled.library is not None:
        return [run_compiled(compiled, name, c, o, e) for c, e, o in zip(cases, per_case, offs, strict=True)]
    args = kernel_args(find_kernel(compiled.module, name))
    outs = [a for a in args if isinstance(a, BufferArg) and a.output]
    ran = compiled[name].batch([flatten_inputs(c) for c in cases], per_case, offs)
    regrouped = []
    for outputs, results in ran:
        values: list[Any] = [None] * len(args)
        for a, o in zip(outs, outputs, strict=True):
            values[a.index] = o
        regrouped.append(df_results(outs, values, results))
    return regrouped


def best_time(fn: Callable[[], Any], budget: float = 0.25, repeat: int = 5) -> float:
    """Seconds per call: best of `repeat` rounds of enough calls to fill budget/repeat."""
    fn()
    number, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= budget / repeat / 4 or number >= 1 << 20:
            break
        number *= 4
    best = elapsed / number
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def format_seconds(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def native_call(compiled: Any, name: str, inputs: Sequence[Any], extents: Mapping[str, int]) -> Callable[[], Any]:
    """A zero-argument call of the compiled kernel with preallocated outputs (for timing)."""
    flat = flatten_inputs(inputs)
    sig = compiled.signatures[name]
    outputs = [np.empty(shape, o.dt.numpy) for o, shape in zip(sig.outputs, sig.output_shapes(flat, extents))]
    function = compiled[name]
    values = [*flat, *outputs]
    return lambda: function(*values)
