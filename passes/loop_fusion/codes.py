"""Stable rejection codes of loop-fuse (seed 001 §4), one per legality condition.

The values share the `FUSE_REJECT_*` namespace with df-fuse (passes/df_fusion/codes.py):
the same code means the same failed condition at either level. A remark names the code
that stopped a pair of loops; docs/fusion_codes.md lists each with an example, and
test/filecheck/passes/loop-fuse has one remark test per code.
"""

from __future__ import annotations

from enum import StrEnum


class LoopFuseReject(StrEnum):
    DOMAIN_MISMATCH = "FUSE_REJECT_DOMAIN_MISMATCH"
    """The elem0 trip counts differ, a step is not 1, or vector widths/tails differ."""

    INDEXMAP_NOT_IDENTITY = "FUSE_REJECT_INDEXMAP_NOT_IDENTITY"
    """A buffer written by one loop and accessed by the other is not accessed at one and the
    same injective elem0 index by every access (e.g. writes tmp[i], reads tmp[i + 1])."""

    NOALIAS_MISSING = "FUSE_REJECT_NOALIAS_MISSING"
    """A buffer is neither a function argument nor a loop.alloc result: aliasing is unknown."""

    CONTROL_FLOW = "FUSE_REJECT_CONTROL_FLOW"
    """A body holds control flow (scf.if, a nested loop) outside the opt-in simple if-assign."""

    EFFECTS_RNG = "FUSE_REJECT_EFFECTS_RNG"
    """A body draws random numbers: fusing would change the draw order."""

    EFFECTS_UNKNOWN = "FUSE_REJECT_EFFECTS_UNKNOWN"
    """A body holds an op with unknown effects (func.call, an unregistered op)."""

    BROADCAST_ND = "FUSE_REJECT_BROADCAST_ND"
    """An access to a shared buffer is a broadcast (b[0], b[i // k]), not the identity;
    `allow_broadcast_identity` admits the identity-safe ones."""

    GUARD_POLICY = "FUSE_REJECT_GUARD_POLICY"
    """The loops carry different `loop.guard` attributes."""

    NOT_ADJACENT = "FUSE_REJECT_NOT_ADJACENT"
    """An op between the loops touches their buffers (or has unknown effects)."""

    DEPENDENCE = "FUSE_REJECT_DEPENDENCE"
    """The second loop uses a result (a fold's final value) of the first."""

    LOOP_KIND = "FUSE_REJECT_LOOP_KIND"
    """A scalar loop (loop.for, loop.zip) next to a loop.vecloop, or a loop.predloop
    (filters: loop-fuse does not fuse them)."""
