"""Buffer placement per trial: a cell within the LLC reads the median over placements, not one.

Where x, y and out start relative to each other, modulo 4 KiB, moves an in-cache cell by a few
percent: a load whose address agrees with an older in-flight store's in bits 0-11 waits for it
(4 KiB aliasing), and the L1 sets the streams share follow the same bits. Session 30
(results/amd-zen3/analysis.md) saw axpy f32 at 64 Ki read 0.93x of the library's SSE2 loop in
loop-bench and 0.89-0.92x the other way round in a C harness with other offsets. With one
allocation per cell every trial measured the placement numpy's allocator happened to give.

So a cell owns one `Arena`: each buffer has its own 4 KiB-aligned slot with 4 KiB of room, and
before trial t every buffer moves to its offset in `sequence(...)[t]` (a multiple of 64 bytes below
4 KiB from a seeded sequence: the alignment numpy-like arrays promise holds, runs repeat, no two
trials share a placement). bench/cells.py copies the inputs in, checks every implementation
there and runs each once untimed; every implementation of trial t then runs on that placement,
so a per-trial ratio (bench/paired.py) still compares implementations on one placement. A
buffer moves by less than 4 KiB inside its slot, so trial t touches nearly the lines trial t-1
touched: the cache level measured stays the same (moving per call would not).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

STEP = 64
"""Offsets are multiples of this (bytes): every placed buffer keeps 64-byte alignment."""
SPAN = 4096
"""Offsets are below this (bytes): the 4 KiB aliasing period, and the room each slot leaves."""
SEED = 31
"""Seeds the offset sequence (every cell, every run: trial t has the same placement everywhere)."""


def sequence(trials: int, buffers: int, seed: int = SEED) -> list[tuple[int, ...]]:
    """The byte offsets of `buffers` buffers in each of `trials` trials: multiples of STEP below
    SPAN, drawn from one seeded sequence and redrawn on a repeat (distinct while there are
    (SPAN/STEP)**buffers placements)."""
    rng = random.Random(f"{seed}:{buffers}")
    slots = SPAN // STEP
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < trials:
        drawn = tuple(rng.randrange(slots) * STEP for _ in range(buffers))
        if drawn in seen and len(seen) < slots**buffers:
            continue
        seen.add(drawn)
        out.append(drawn)
    return out


def address_mod_span(a: np.ndarray | None) -> int | None:
    """Where `a`'s data starts within its 4 KiB page (what the placement of a buffer is about)."""
    return None if a is None else a.ctypes.data % SPAN


class Arena:
    """One allocation for a cell's buffers (`templates` give their shapes and dtypes): buffer i
    lives in slot i, 4 KiB-aligned and SPAN bytes longer than it, so no offset below SPAN makes
    two buffers overlap or leaves the arena."""

    def __init__(self, templates: Sequence[np.ndarray]):
        self.templates = [(a.shape, a.dtype) for a in templates]
        sizes = [-(-a.nbytes // SPAN) * SPAN + SPAN for a in templates]
        self.raw = np.empty(sum(sizes) + SPAN, np.uint8)
        start = -self.raw.ctypes.data % SPAN
        self.slots: list[tuple[int, int]] = []
        for size in sizes:
            self.slots.append((start, size))
            start += size

    def place(self, offs: Sequence[int]) -> list[np.ndarray]:
        """Views of the buffers at byte offsets `offs` into their slots (uninitialised)."""
        if len(offs) != len(self.templates):
            raise ValueError(f"{len(offs)} offsets for {len(self.templates)} buffers")
        views = []
        for (shape, dtype), (start, size), off in zip(self.templates, self.slots, offs):
            if off % STEP or not 0 <= off < SPAN:
                raise ValueError(f"offset {off} is not a multiple of {STEP} below {SPAN}")
            nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
            assert off + nbytes <= size
            views.append(self.raw[start + off : start + off + nbytes].view(dtype).reshape(shape))
        return views


__all__ = ["SEED", "SPAN", "STEP", "Arena", "address_mod_span", "sequence"]
