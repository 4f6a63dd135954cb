"""Rotating buffer sets: a cell whose working set is beyond the LLC reads a different copy each call.

Timing one buffer call after call re-reads the same bytes at a reuse distance of one working
set. Past the LLC that is meant to measure DRAM, but a last-level cache that does not replace
strictly LRU (Zen 4's 32 MiB victim L3) keeps a fraction of a 64 MiB array from one call to the
next, and how much each loop gains from those hits then shows up in the ratios. So a cell (or
STREAM kernel) that moves more bytes than the LLC holds cycles through `copies()` identical sets
of its buffers, one call per set: the reuse distance becomes ≥ REUSE_LLCS × the LLC, where even
random replacement keeps ~2% of the data. Every implementation — C, numpy, STREAM — gets the
same rotation, and the Python call per repetition costs ~1 µs against a call of ≥ 1 ms there.
Cells within the LLC keep one buffer set: they are meant to be cache-resident.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .timing import Runner

REUSE_LLCS = 4
"""Reuse distance to reach, in LLC sizes (random replacement keeps e^-4(1-h) ≈ 2% of a cyclic set)."""

MAX_EXTRA_BYTES = 1 << 30
"""At most this many bytes of extra copies per cell, whatever the LLC (CI machines are small)."""


def llc_bytes() -> int:
    """The last-level cache loopopt's CPU model reads for this machine (lowering/target.py: sysfs, else its table)."""
    from loopopt.lowering.target import native_cpu

    return native_cpu().caches.llc


def copies(working_set: int, llc: int, cap: int = MAX_EXTRA_BYTES) -> int:
    """How many buffer sets a cell moving `working_set` bytes per call rotates through: 1 within
    the LLC, else enough that k·working_set ≥ REUSE_LLCS·llc, with at most `cap` extra bytes."""
    if working_set <= llc:
        return 1
    wanted = -(-REUSE_LLCS * llc // working_set)
    return max(1, min(wanted, 1 + cap // working_set))


def rotating(runs: Sequence[Runner]) -> Runner:
    """A runner doing each repetition with the next of `runs` (each bound to its own buffer set), round-robin across calls."""
    if len(runs) == 1:
        return runs[0]
    turn = itertools.cycle(runs)

    def run(reps: int) -> None:
        for _ in range(reps):
            next(turn)(1)

    return run


__all__ = ["MAX_EXTRA_BYTES", "REUSE_LLCS", "copies", "llc_bytes", "rotating"]
