"""xDSL's dead-op tests with each op's memory effects computed once per read-only walk.

xDSL 0.74's `get_effects` of a loop (`RecursiveMemoryEffect`) walks the loop's whole body, so
asking it of every op of a nest walks each op once per enclosing loop, and `region_dce`
asks it of every op on every round of its liveness fixpoint. While nothing is rewritten
the effects cannot change: `EffectMemo` answers `get_effects` / `is_trivially_dead` /
`would_be_trivially_dead` exactly as xDSL does (same traits, same order, same None for
unknown effects), remembering each op's effects for the life of the memo.
`memo_region_dce` is xDSL's `region_dce` with one memo, and its liveness fixpoint (rounds over
the whole region until no op turns live: at least two) computed in one visit plus a worklist
that marks the defining ops of a live op's operands — the same least fixpoint (an op is live
when it would not be dead or one of its users is live), so the same deletions in the same
order. Use a memo only while the IR does not change.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from typing import Any

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.post_order import PostOrderIterator
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryAllocEffect,
    MemoryEffect,
    MemoryEffectKind,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.transforms.dead_code_elimination import LiveSet
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead as _xdsl_would_be_trivially_dead

_RECURSIVE = RecursiveMemoryEffect.get_effects.__func__  # type: ignore[attr-defined]


class EffectMemo:
    """`get_effects` and the dead-op tests built on it, remembered per op."""

    def __init__(self, fixed_traits: bool = False) -> None:
        self._effects: dict[Operation, Set[EffectInstance] | None] = {}
        self._constants: dict[type[Operation], Any] | None = {} if fixed_traits else None
        """With `fixed_traits` (no class's trait set changes in the memo's life, e.g. one cse
        run): `_class_constant` per class, asked once; else asked every time (it follows
        `add_trait`)."""

    def get_effects(self, op: Operation) -> Set[EffectInstance] | None:
        cls, constants = type(op), self._constants
        constant = _class_constant(cls) if constants is None else constants.get(cls, _UNKNOWN)
        if constant is _UNKNOWN:
            constant = constants[cls] = _class_constant(cls)  # type: ignore[index]  (constants is a dict here)
        if constant is not _PER_OP:
            return constant
        try:
            return self._effects[op]
        except KeyError:
            pass
        effects: set[EffectInstance] | None = None
        interfaces = op.get_traits_of_type(MemoryEffect)
        if interfaces:
            effects = set()
            for it in interfaces:
                found = self._nested(op) if _is_recursive(it) else it.get_effects(op)
                if found is None:
                    effects = None
                    break
                effects.update(found)
        self._effects[op] = effects
        return effects

    def _nested(self, op: Operation) -> set[EffectInstance] | None:
        """RecursiveMemoryEffect.get_effects, its children's effects from the memo."""
        effects: set[EffectInstance] = set()
        for r in op.regions:
            for b in r.blocks:
                for child in b.ops:
                    found = self.get_effects(child)
                    if found is None:
                        return None
                    effects.update(found)
        return effects

    def would_be_trivially_dead(self, op: Operation) -> bool:
        known = class_would_be_dead(type(op))
        if known is not None:
            return known
        return (
            not op.has_trait(IsTerminator, value_if_unregistered=False)
            and not op.has_trait(SymbolOpInterface, value_if_unregistered=False)
            and self._result_only_effects(op)
        )

    def is_trivially_dead(self, op: Operation) -> bool:
        for result in op.results:
            if result.first_use is not None:
                return False
        return self.would_be_trivially_dead(op)

    def _result_only_effects(self, root: Operation) -> bool:
        """xDSL's `result_only_effects(root)`: `root`'s effects are known and each is a read or
        the allocation of a value inside `root`. Decided effect set by effect set (each op's own,
        a recursive op's children's in order) without building their union, so a loop whose
        body writes stops at the write: every set must pass, and any unknown set (None) fails,
        as it makes the union None (so the order of the sets does not matter)."""
        return self._only_reads_or_own_allocs(root, root)

    def _only_reads_or_own_allocs(self, op: Operation, root: Operation) -> bool:
        cls, constants = type(op), self._constants
        constant = _class_constant(cls) if constants is None else constants.get(cls, _UNKNOWN)
        if constant is _UNKNOWN:
            constant = constants[cls] = _class_constant(cls)  # type: ignore[index]
        if constant is not _PER_OP:
            return constant is not None and _reads_or_own_allocs(constant, root)
        known = self._effects.get(op, _UNKNOWN)
        if known is not _UNKNOWN:
            return known is not None and _reads_or_own_allocs(known, root)
        interfaces = op.get_traits_of_type(MemoryEffect)
        if not interfaces:
            return False  # unknown effects
        for it in interfaces:
            if _is_recursive(it):
                for r in op.regions:
                    b = r._last_block
                    while b is not None:  # last to first: a body's write (a store) is near its end
                        child = b._last_op
                        while child is not None:
                            if not self._only_reads_or_own_allocs(child, root):
                                return False
                            child = child._prev_op
                        b = b._prev_block
            else:
                found = it.get_effects(op)
                if found is None or not _reads_or_own_allocs(found, root):
                    return False
        return True


def _reads_or_own_allocs(effects: Set[EffectInstance], root: Operation) -> bool:
    for e in effects:
        kind = e.kind
        if kind == MemoryEffectKind.READ:
            continue
        if kind == MemoryEffectKind.ALLOC and isinstance(v := e.value, SSAValue) and root.is_ancestor(v.owner):
            continue
        return False
    return True


_CONSTANT_GETTERS = frozenset(
    t.get_effects.__func__  # type: ignore[attr-defined]
    for t in (NoMemoryEffect, MemoryReadEffect, MemoryWriteEffect, MemoryAllocEffect, MemoryFreeEffect)
)
"""xDSL's `get_effects` that return one set whatever the op (no region walk, no operand)."""

_PER_OP: Any = object()
"""`_class_effects`' answer for a class whose effects depend on the op."""

_CLASS_EFFECTS: dict[type, tuple[Any, Any]] = {}
"""op class -> (its trait set when asked, its effects or _PER_OP)."""


def per_class(memo: dict[type, tuple[Any, Any]], cls: type[Operation], compute: Callable[[type[Operation]], Any]) -> Any:
    """`compute(cls)` for an answer that reads only the class and its traits, remembered in `memo`
    until the class's trait set changes (`add_trait` makes a new frozenset)."""
    traits = cls.traits.traits
    known = memo.get(cls)
    if known is None or known[0] is not traits:
        known = memo[cls] = (traits, compute(cls))
    return known[1]


def _class_constant(cls: type[Operation]) -> Any:
    return per_class(_CLASS_EFFECTS, cls, _class_effects)


def _class_effects(cls: type[Operation]) -> Any:
    """The effects every op of `cls` has, when its memory-effect traits say so without looking at
    the op (none: unknown, None; all constant: their union, as get_effects builds it), else _PER_OP."""
    interfaces = cls.get_traits_of_type(MemoryEffect)
    if not interfaces:
        return None
    if not all(getattr(type(it).get_effects, "__func__", None) in _CONSTANT_GETTERS for it in interfaces):
        return _PER_OP
    effects: set[EffectInstance] = set()
    for it in interfaces:
        effects.update(it.get_effects(None))  # type: ignore[arg-type]  (constant getters ignore the op)
    return frozenset(effects)


_CLASS_DEAD: dict[type, tuple[Any, bool | None]] = {}
"""op class -> (its trait set when asked, class_would_be_dead's answer)."""


def class_would_be_dead(cls: type[Operation]) -> bool | None:
    """xDSL's `would_be_trivially_dead` for every op of `cls` when its traits decide it without
    looking at the op (a terminator or symbol: False; effects the class answers, `_class_effects`,
    without an allocation: whether they are all reads), else None. Holds while the IR changes
    (it reads only the class), recomputed when the class's trait set changes."""
    return per_class(_CLASS_DEAD, cls, _class_would_be_dead)


def _class_would_be_dead(cls: type[Operation]) -> bool | None:
    if issubclass(cls, UnregisteredOp):
        return None  # has_trait's value_if_unregistered: left to xDSL
    if cls.has_trait(IsTerminator) or cls.has_trait(SymbolOpInterface):
        return False
    effects = _class_effects(cls)
    if effects is _PER_OP:
        return None
    if effects is None:
        return False  # unknown effects: observable
    if any(e.kind == MemoryEffectKind.ALLOC for e in effects):
        return None  # dead only if it allocates a value of its own: asks the op
    return all(e.kind == MemoryEffectKind.READ for e in effects)


def is_trivially_dead(op: Operation) -> bool:
    """xDSL's `is_trivially_dead`, answered per class where `class_would_be_dead` can; without a
    memo, so it holds while the IR changes (the greedy rewriter's dead-op test)."""
    for result in op.results:
        if result.first_use is not None:
            return False
    known = class_would_be_dead(type(op))
    return _xdsl_would_be_trivially_dead(op) if known is None else known


def _is_recursive(trait: Any) -> bool:
    get = getattr(type(trait).get_effects, "__func__", None)
    return get is _RECURSIVE


class _MemoLiveSet(LiveSet):
    """xDSL's LiveSet asking an EffectMemo whether an op would be dead, its fixpoint found by
    one visit and a worklist (`propagate`). Ops are kept by id (`_live`, `visited`): an op's
    own hash is a Python call (xDSL's `__hash__`), and every op stays in the IR, so its id is
    its own, until `delete_dead` has read the set."""

    def __init__(self) -> None:
        super().__init__()
        self.memo = EffectMemo()
        self._live: dict[int, Operation] = {}
        self._by_class: dict[type[Operation], bool | None] = {}
        self.visited_ops = 0
        """How many ops `propagate` visited."""
        self.single_blocks = True
        """Whether every region `propagate` met has at most one block (all of it reachable)."""

    def is_live(self, op: Operation) -> bool:
        return id(op) in self._live

    def live_ops(self) -> set[Operation]:
        """The live ops (xDSL's `_live_ops`)."""
        return set(self._live.values())

    def propagate(self, region: Region) -> None:
        """The live set xDSL's rounds of `propagate_region_liveness` reach: the ops it visits
        (blocks reachable from each region's entry, nested regions included) that would not
        be dead, and every visited op defining an operand of a live op."""
        visited: set[int] = set()
        work: list[Operation] = []
        self._seed(region, visited, work)
        self.visited_ops = len(visited)
        live = self._live
        while work:
            op = work.pop()
            for operand in op._operands:  # the tuple `operands` views (a view object per call)
                owner = operand.owner
                key = id(owner)
                if key not in live and key in visited:  # a block argument's owner is never visited
                    live[key] = owner  # type: ignore[assignment]
                    work.append(owner)  # type: ignore[arg-type]

    def _seed(self, region: Region, visited: set[int], work: list[Operation]) -> None:
        first = region.first_block
        if first is None:
            return
        if first is not region._last_block:
            self.single_blocks = False
        live = self._live
        by_class = self._by_class
        for block in PostOrderIterator(first):
            for op in block.ops:
                visited.add(id(op))
                for inner in op.regions:
                    self._seed(inner, visited, work)
                cls = type(op)
                dead = by_class.get(cls, _UNKNOWN)
                if dead is _UNKNOWN:  # asked once per class and visit: no trait changes during it
                    dead = by_class[cls] = class_would_be_dead(cls)
                if dead is None:
                    dead = self.memo.would_be_trivially_dead(op)
                if not dead:
                    live[id(op)] = op
                    work.append(op)


_UNKNOWN: Any = object()


def memo_region_dce(region: Region, listener: PatternRewriterListener | None = None) -> bool:
    """xDSL's `region_dce` (same live set, same deletions in the same order)."""
    live_set = _MemoLiveSet()
    live_set.propagate(region)
    live_set.changed = False
    if live_set.single_blocks and len(live_set._live) == live_set.visited_ops:
        # every op live and every block the first of its region: delete_dead would erase
        # no block (only a non-first one without live ops) and no op (only a dead one), and
        # recurse into every region (of live ops): nothing to walk again
        return False
    live_set.delete_dead(region, listener)
    return live_set.changed
