"""Target resolution for lowering: an option value (`avx2`, `native`, ...) -> its TargetInfo.

`native` is the best ISA this CPU runs (loopopt.runtime.isa.best_isa()); every other name
is looked up in the simd TARGETS table. Kept apart from the table so that the table stays
free of host probing.
"""

from __future__ import annotations

from loopopt.dialects.simd_targets import TARGETS, TargetInfo

NATIVE = "native"
"""The option value meaning "this machine's best ISA"."""


def resolve_target_name(name: str) -> str:
    """`native` -> this CPU's best ISA; any other name unchanged (checked by `resolve_target`)."""
    if name == NATIVE:
        from loopopt.runtime.isa import best_isa

        return best_isa()
    return name


def resolve_target(name: str) -> TargetInfo:
    """The TargetInfo for an option value; ValueError naming the known targets otherwise."""
    resolved = resolve_target_name(name)
    try:
        return TARGETS[resolved]
    except KeyError:
        known = ", ".join([*TARGETS, NATIVE])
        raise ValueError(f"unknown target '{name}', expected one of {known}") from None
