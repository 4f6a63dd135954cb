"""Stable rejection codes of df-fuse, one per legality condition.

A code names the condition that failed, never the pattern that checked it, so the same
code means the same thing for every pattern (and for loop-fuse, which shares the
`FUSE_REJECT_*` namespace of seed 001). Each code is documented with an example in
docs/fusion_codes.md; the test suite has one remark test per code.
"""

from __future__ import annotations

from enum import StrEnum


class FuseReject(StrEnum):
    DOMAIN_MISMATCH = "FUSE_REJECT_DOMAIN_MISMATCH"
    """Producer and consumer (or two horizontal candidates) iterate different axes."""

    EFFECTS_RNG = "FUSE_REJECT_EFFECTS_RNG"
    """A body or the producer draws random numbers: fusing would change the draw order/count."""

    EFFECTS_UNKNOWN = "FUSE_REJECT_EFFECTS_UNKNOWN"
    """A body holds an op whose effects are unknown (a call, an op of another dialect)."""

    MULTI_USE = "FUSE_REJECT_MULTI_USE"
    """The producer has other users and is too costly (or not allowed) to recompute: it stays materialized."""

    TRANSCENDENTAL = "FUSE_REJECT_TRANSCENDENTAL"
    """The producer has other users and computes a transcendental (exp, log, sin, ...): recomputing
    it in each consumer would repeat the costliest op, so it stays materialized and is computed once."""

    ORDER = "FUSE_REJECT_ORDER"
    """Fusing would change the evaluation order of a non-reassociative reduction."""

    DEPENDENCE = "FUSE_REJECT_DEPENDENCE"
    """Horizontal candidates depend on each other: one reads the other's result."""

    SPECULATION = "FUSE_REJECT_SPECULATION"
    """The fused form would run a body on elements a filter drops, and the body may trap."""
