"""Effects and speculatability of ops under loopopt's semantics, where xDSL's traits say less.

xDSL leaves a few arith ops without any effect trait (`arith.extsi`, `arith.remui`: read as
"unknown effects") and calls integer division unspeculatable (it traps in C and LLVM). In
loopopt every arith and math op is total (docs/integer_semantics.md: `x / 0 = 0`,
`MIN / -1 = MIN`; float ops are IEEE with the exceptions masked): none touches memory and
none traps. Ops of other dialects keep xDSL's answer (`llvm.sdiv` stays unspeculatable).
"""

from __future__ import annotations

from collections.abc import Set

from xdsl.ir import Operation
from xdsl.traits import EffectInstance, MemoryEffect, RecursiveMemoryEffect, RecursivelySpeculatable
from xdsl.traits import is_speculatable as xdsl_is_speculatable

EFFECT_FREE_DIALECTS = ("arith", "math")
"""Dialects whose region-free ops never touch memory and never trap in loopopt."""


def is_total(op: Operation) -> bool:
    """An arith/math op without regions: defined for every input, no effects."""
    return not op.regions and op.name.split(".")[0] in EFFECT_FREE_DIALECTS


def effects_of(op: Operation) -> Set[EffectInstance] | None:
    """xDSL's `get_effects`, with arith/math ops effect-free, also inside region ops.
    None means unknown effects."""
    if is_total(op):
        return frozenset()
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits:
        return None
    effects: set[EffectInstance] = set()
    for trait in traits:
        if isinstance(trait, RecursiveMemoryEffect):
            for region in op.regions:
                for child in (o for block in region.blocks for o in block.ops):
                    inner = effects_of(child)
                    if inner is None:
                        return None
                    effects |= inner
            continue
        own = trait.get_effects(op)
        if own is None:
            return None
        effects |= own
    return effects


def is_effect_free(op: Operation) -> bool:
    effects = effects_of(op)
    return effects is not None and not effects


def is_speculatable(op: Operation) -> bool:
    """Whether `op` may run where the program never ran it (on an element a filter drops):
    it cannot trap. Total ops can; an op speculatable when its body is (df's region ops)
    asks the same of every nested op; the rest keep xDSL's answer."""
    if is_total(op):
        return True
    if op.has_trait(RecursivelySpeculatable):
        return all(is_speculatable(inner) for region in op.regions for block in region.blocks
                   for inner in block.ops)
    return xdsl_is_speculatable(op)
