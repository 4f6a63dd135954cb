"""IRDL signature checks remembered per op signature.

`OpDef.verify` checks an op's operand and result types, properties and attributes against its
IRDL constraints (a fresh type-variable context per op) before its traits: for an op without
successors that part depends only on the op's definition, those attribute values and its
regions' block counts and entry argument types, and the lowered module has ~100 distinct such
signatures in 10,000 ops. A signature that passed
is remembered; the traits still run for every op (but SameOperandsAndResultType, a check of the
signature's types, and traits whose class's `verify` only returns None, such as `Pure`: ~15,000
calls per 1,000 df ops; the rest in the trait set's order), and a failing or new signature runs xDSL's
own code (same checks, same order, same message). Attributes are immutable values, so equal
signatures verify alike (docs/compile_time.md, third round).
"""

from __future__ import annotations

import dis
import operator
from typing import Any

from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl.operations import OpDef
from xdsl.traits import SameOperandsAndResultType


_SIGNATURES_MAX = 4096
"""Remembered verified signatures (cleared when full: a module has a few hundred)."""

_TYPE_ONLY_TRAITS: frozenset[type] = frozenset({SameOperandsAndResultType})
"""Traits whose `verify` reads only the op's operand and result types: part of a signature."""
def _returns_none_at_once(fn: Any) -> bool:
    """Whether `fn` is a plain function whose body only returns None (`pass`, `return`): the
    bytecode RESUME, LOAD_CONST None, RETURN_VALUE (RETURN_CONST None from Python 3.12)."""
    code = getattr(fn, "__code__", None)
    if code is None or type(fn) is not type(_returns_none_at_once):
        return False
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code)]
    return steps in ([("RESUME", 0), ("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RESUME", 0), ("RETURN_CONST", None)])


_NOOP_VERIFY: dict[type, bool] = {}
"""trait class -> whether its `verify` does nothing (`_returns_none_at_once`)."""


def _verifying_traits(traits: frozenset[Any]) -> tuple[Any, ...]:
    """The traits of `traits` whose `verify` the signature cache runs per op, in the frozenset's
    iteration order: not the type-only ones (part of the signature) and not those whose
    `verify` does nothing (a class's `verify` that only returns, with no instance override)."""
    run = []
    for trait in traits:
        cls = type(trait)
        if cls in _TYPE_ONLY_TRAITS:
            continue
        noop = _NOOP_VERIFY.get(cls)
        if noop is None:
            noop = _NOOP_VERIFY[cls] = _returns_none_at_once(getattr(cls, "verify", None))
        if noop and "verify" not in getattr(trait, "__dict__", ()):
            continue
        run.append(trait)
    return tuple(run)


def install_signature_cache() -> None:
    original = OpDef.verify
    verified: set[tuple[Any, ...]] = set()
    to_run: dict[int, tuple[OpDef, frozenset[Any], tuple[Any, ...]]] = {}
    """id(op_def) -> (op_def, its trait set when asked, `_verifying_traits` of it)."""

    def verify(self: OpDef, op: Operation) -> None:
        if op._successors:
            original(self, op)
            return
        regions = op.regions
        key = (  # `map`: no list comprehension's frame per op (three per op were ~4 % of verifying)
            id(self),
            tuple(map(_type_of, op._operands)),
            tuple(map(_type_of, op.results)),
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
            tuple(map(_region_shape, regions)) if regions else (),
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
        current = self.traits.traits
        run = to_run.get(id(self))
        if run is None or run[0] is not self or run[1] is not current:
            run = to_run[id(self)] = (self, current, _verifying_traits(current))
        for trait in run[2]:
            trait.verify(op)

    OpDef.verify = verify  # type: ignore[method-assign]


_type_of = operator.attrgetter("type")
"""`value.type` (through the property, as xDSL's verifier reads it), called from C by `map`."""


def _region_shape(region: Region) -> tuple[int, tuple[Attribute, ...] | None]:
    """What `irdl_op_verify_regions` reads of a region: its block count and entry argument types."""
    first = region._first_block
    if first is None:
        return 0, None
    return (1 if first is region._last_block else len(region.blocks)), first.arg_types
