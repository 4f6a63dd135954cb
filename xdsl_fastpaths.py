"""Memoized forms of two xDSL 0.74 per-op costs that are pure functions of their inputs.

Every pass asks an op's class for its traits (`has_trait`, `get_traits_of_type`: the effect
queries of DCE, CSE and the rewriter ask several per op visit), and xDSL answers by scanning
the class's trait set with `isinstance` through `ABCMeta` each time. The answer depends only on
the class and its trait set, so it is remembered per (class, query) and recomputed when the set
changes (`OpTraits.add_trait` makes a new frozenset).

`OpDef.verify` checks an op's operand and result types, properties and attributes against its
IRDL constraints (a fresh type-variable context per op) before its traits: for an op without
regions or successors that part depends only on the op's definition and those attribute values,
and the lowered module has ~100 distinct such signatures in 10,000 ops. A signature that passed
is remembered; the traits still run for every op (but SameOperandsAndResultType, a check of the
signature's types), and a failing or new signature runs xDSL's
own code (same checks, same order, same message). Attributes are immutable values, so equal
signatures verify alike (docs/compile_time.md, third round).

`install()` is idempotent; loopopt.diagnostics calls it, so it is on in every loopopt process
that imports our dialects' verification. `LOOPOPT_NO_FASTPATHS=1` in the environment (read at
install time) leaves xDSL's classes untouched: the pipeline then runs on xDSL's own code, for a
user who patches the same methods or wants to rule the memos out.
"""

from __future__ import annotations

import os
from typing import Any

from xdsl.ir import Operation
from xdsl.irdl.operations import OpDef
from xdsl.traits import SameOperandsAndResultType

_SIGNATURES_MAX = 4096
"""Remembered verified signatures (cleared when full: a module has a few hundred)."""

_TYPE_ONLY_TRAITS: frozenset[type] = frozenset({SameOperandsAndResultType})
"""Traits whose `verify` reads only the op's operand and result types: part of a signature."""

_installed = False

OPT_OUT_VARIABLE = "LOOPOPT_NO_FASTPATHS"
"""Set to anything but "" or "0" to keep xDSL's classes unpatched."""


def opted_out() -> bool:
    """Whether the environment asks for xDSL's own trait lookups and verification."""
    return os.environ.get(OPT_OUT_VARIABLE, "") not in ("", "0")


def _trait_memo(original: Any, memo: dict[tuple[type, Any], tuple[frozenset, Any]]) -> Any:
    def lookup(cls: type[Operation], trait: Any) -> Any:
        current = cls.traits.traits
        try:
            hit = memo.get((cls, trait))
        except TypeError:  # an unhashable trait instance: ask xDSL
            return original(cls, trait)
        if hit is not None and hit[0] is current:
            return hit[1]
        answer = original(cls, trait)
        memo[(cls, trait)] = (current, answer)
        return answer

    return lookup


def _install_trait_memos() -> None:
    get_trait = Operation.get_trait.__func__  # type: ignore[attr-defined]
    of_type = Operation.get_traits_of_type.__func__  # type: ignore[attr-defined]
    cached_get = _trait_memo(get_trait, {})
    cached_of_type = _trait_memo(lambda cls, t: tuple(of_type(cls, t)), {})
    Operation.get_trait = classmethod(cached_get)  # type: ignore[method-assign]
    Operation.get_traits_of_type = classmethod(  # type: ignore[method-assign]
        lambda cls, trait_type: list(cached_of_type(cls, trait_type))
    )


def _install_signature_cache() -> None:
    original = OpDef.verify
    verified: set[tuple[Any, ...]] = set()

    def verify(self: OpDef, op: Operation) -> None:
        if op.regions or op.successors:
            original(self, op)
            return
        key = (
            id(self),
            tuple(o.type for o in op.operands),
            tuple(r.type for r in op.results),
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
        )
        try:
            known = key in verified
        except TypeError:  # an unhashable attribute: no memo
            original(self, op)
            return
        if not known:
            original(self, op)  # all of it, traits included; raises as xDSL does
            if len(verified) >= _SIGNATURES_MAX:
                verified.clear()
            verified.add(key)
            return
        for trait in self.traits:
            if type(trait) not in _TYPE_ONLY_TRAITS:
                trait.verify(op)

    OpDef.verify = verify  # type: ignore[method-assign]


def install() -> None:
    """Install both memos into xDSL's classes (once per process), unless opted out."""
    global _installed
    if _installed or opted_out():
        return
    _installed = True
    _install_trait_memos()
    _install_signature_cache()
