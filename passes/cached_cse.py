"""xDSL's `cse`, hashing each op once.

xDSL 0.74's CSE keys its scoped table with `OperationInfo(op)`, whose `__hash__` hashes the
op's name, attributes, properties, result types and operands again on every use: once for the
lookup, once for the insertion, twice per equality check of a hit and once per user of a
replaced value (`wasVisited`): ~2.3 hashes per op, half of `cse`'s time (docs/compile_time.md).
Here the driver is xDSL's over a table (`_BucketedKnownOps`) that files an op with operands
under its name and its operands' identities, comparing attributes, properties and types only
with the ops that share them (on the lowered module, where cse merges nothing, hardly ever);
an op without operands (a constant) is keyed by an `OperationInfo` that hashes at creation
(each attribute object hashed once per run). One lookup per visited op finds it or stores it.

The effects of each op (is it side-effect free, does it only read, would it be dead) are
computed once (passes/memo_dce.py); the dead-op test of an op with an allocation among its
effects, which looks at the allocated value, is xDSL's.

Why caching is exact: a key's op never changes while it is in a live table. The only
mutation before the final erasures is `_replace_and_delete`, which rewires the users of a
replaced op only if none of them is in the table (`wasVisited`), so no key's operands change.
"""

from __future__ import annotations

from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.traits import IsolatedFromAbove, IsTerminator, MemoryEffectKind
from xdsl.transforms.common_subexpression_elimination import (
    CSEDriver,
    KnownOps,
    OperationInfo,
    has_other_side_effecting_op_in_between,
)
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from loopopt.passes.memo_dce import EffectMemo, class_would_be_dead


_ATTRIBUTE_HASHES: dict[int, tuple[Attribute, int]] = {}
"""hash() per attribute object during one cse run (the object kept: its id stays its own)."""


def _attribute_hash(a: Attribute) -> int:
    known = _ATTRIBUTE_HASHES.get(id(a))
    if known is None or known[0] is not a:
        known = _ATTRIBUTE_HASHES[id(a)] = (a, hash(a))
    return known[1]


def _items_hash(named: dict[str, Attribute]) -> int:
    """`sum(hash((k, _attribute_hash(v))) for k, v in named.items())`, the lookup inline."""
    hashes = _ATTRIBUTE_HASHES
    total = 0
    for k, v in named.items():
        known = hashes.get(id(v))
        if known is None or known[0] is not v:
            known = hashes[id(v)] = (v, hash(v))
        total += hash((k, known[1]))
    return total


class _HashedInfo(OperationInfo):
    """`OperationInfo` with its hash computed once, from remembered attribute hashes. Not the
    number xDSL computes, but equal for equal ops (equal attributes hash alike), which is all
    the table needs: its lookups and its order (insertion order) are the same."""

    def __init__(self, op: Operation):
        self.op = op
        h = _attribute_hash
        attributes, properties = op.attributes, op.properties
        self._hash = hash(
            (
                op.name,
                _items_hash(attributes) if attributes else 0,
                _items_hash(properties) if properties else 0,
                tuple([h(r.type) for r in op.results]),
                tuple(map(id, op._operands)),  # equal operands are the same objects (SSAValue's hash is a Python call); the tuple `operands` views
            )
        )

    def __hash__(self) -> int:
        return self._hash


class _BucketedKnownOps(KnownOps):
    """xDSL's `KnownOps` (a table from ops to the known equal op), keyed cheaply.

    An op with operands is filed under (name, its operands' ids): ops equal by xDSL's
    `OperationInfo` have the same name and the same operand objects, so an equal op can only
    be in that bucket, which holds the few ops that share the operands (usually none): the
    lookup compares them as `OperationInfo.__eq__` does, without hashing any attribute or
    type. An op without operands (constants) is keyed by `_HashedInfo` as before (sharing
    the empty operand tuple, all constants would share one bucket).

    A bucket is a tuple, replaced on insertion, so a nested scope's copy of the table (a
    shallow `dict` copy, as xDSL's) never changes its parent's buckets. Storing an op equal to
    a stored one replaces it in its bucket, as the dict replaces the value of an equal key
    (the stored op and the key's op are equal, so lookups find the same value)."""

    def __init__(self, known_ops: KnownOps | None = None):
        self._known_ops = {} if known_ops is None else dict(known_ops._known_ops)

    def get(self, k: Operation, default=None):  # type: ignore[override]
        operands = k._operands  # the tuple `operands` views
        if not operands:
            return self._known_ops.get(_HashedInfo(k), default)
        bucket = self._known_ops.get((k.name, *map(id, operands)))
        if bucket is not None:
            for known in bucket:
                if _equal_given_operands(known, k):
                    return known
        return default

    def find_or_add(self, k: Operation) -> Operation | None:
        """The stored op equal to `k` (`get`), or None after storing `k` (`self[k] = k`): one
        key and one bucket lookup for both."""
        table = self._known_ops
        operands = k._operands
        if not operands:
            info = _HashedInfo(k)
            found = table.get(info)
            if found is None:
                table[info] = k
            return found
        key = (k.name, *map(id, operands))
        bucket = table.get(key)
        if bucket is None:
            table[key] = (k,)
            return None
        for known in bucket:
            if _equal_given_operands(known, k):
                return known
        table[key] = (*bucket, k)
        return None

    def __getitem__(self, k: Operation) -> Operation:
        found = self.get(k)
        if found is None:
            raise KeyError(k)
        return found

    def __contains__(self, k: Operation) -> bool:
        return self.get(k) is not None

    def __setitem__(self, k: Operation, v: Operation) -> None:
        operands = k._operands
        if not operands:
            self._known_ops[_HashedInfo(k)] = v
            return
        key = (k.name, *map(id, operands))
        bucket = self._known_ops.get(key, ())
        for i, known in enumerate(bucket):
            if _equal_given_operands(known, k):
                self._known_ops[key] = (*bucket[:i], v, *bucket[i + 1 :])
                return
        self._known_ops[key] = (*bucket, v)

    def pop(self, k: Operation) -> Operation:
        operands = k._operands
        if not operands:
            return self._known_ops.pop(_HashedInfo(k))
        key = (k.name, *map(id, operands))
        bucket = self._known_ops.get(key, ())
        for i, known in enumerate(bucket):
            if _equal_given_operands(known, k):
                rest = (*bucket[:i], *bucket[i + 1 :])
                if rest:
                    self._known_ops[key] = rest
                else:
                    del self._known_ops[key]
                return known
        raise KeyError(k)


def _equal_given_operands(a: Operation, b: Operation) -> bool:
    """`OperationInfo(a) == OperationInfo(b)` for ops with the same operands and class name:
    name (an unregistered op's own), attributes, properties, result types and regions' structure.
    (xDSL's also compares the two hashes, which equal components make equal.)"""
    if isinstance(a, UnregisteredOp) or isinstance(b, UnregisteredOp):
        return OperationInfo(a) == OperationInfo(b)
    return (
        a.name == b.name
        and a.attributes == b.attributes
        and a.properties == b.properties
        and a.result_types == b.result_types
        and all(s.is_structurally_equivalent(o) for s, o in zip(a.regions, b.regions, strict=True))
    )


_UNASKED: Any = object()


class HashedCSEDriver(CSEDriver):
    """xDSL's `CSEDriver` (same walk, same decisions) over `_BucketedKnownOps`."""

    def __init__(self) -> None:
        super().__init__(_known_ops=_BucketedKnownOps())
        self._visited: set[int] = set()
        """The ids of the ops `_simplify_operation` was given (every key of the table is one):
        ids, as an op's hash is a Python call; every op stays alive until the final erasures."""
        self._terminator: dict[type[Operation], bool] = {}
        """has_trait(IsTerminator) per op class (traits do not change during a run)."""
        self._class_dead: dict[type[Operation], bool | None] = {}
        """class_would_be_dead per op class, asked once per run (as the terminator test)."""
        self._effects = EffectMemo(fixed_traits=True)
        """Whether an op has effects, and of which kinds: asked of every op, for a loop a walk of
        its body. Rewiring uses (all this driver changes before its final erasures) changes
        the values effects name, never their kinds, so these answers hold for the whole run; the
        class answers are asked once per class, as the two above."""

    def _replace_and_delete(self, op: Operation, existing: Operation) -> None:
        """xDSL's, without its table lookups when none can hit. It rewires `op`'s uses only if no
        user is in the table (`wasVisited`): a key equal to a user has the user's operands, the
        replaced result among them, so it is a user itself, and every key is an op this driver
        visited. With no user visited yet (the usual case: users follow their operand) every
        lookup would miss."""
        visited = self._visited
        if any(id(use.operation) in visited for result in op.results for use in result.uses):
            return super()._replace_and_delete(op, existing)
        for old, new in zip(op.results, existing.results, strict=True):
            old.replace_all_uses_with(new)
        self._mark_erasure(op)

    def _simplify_operation(self, op: Operation) -> None:
        # xDSL's _simplify_operation, with one table lookup for the lookup and the insertion
        self._visited.add(id(op))
        cls = type(op)
        terminator = self._terminator.get(cls)
        if terminator is None:
            terminator = self._terminator[cls] = cls.has_trait(IsTerminator)
        if terminator:
            return
        if self._is_trivially_dead(op):
            self._mark_erasure(op)
            return
        if op.regions and any(len(region.blocks) > 1 for region in op.regions):
            return
        table: _BucketedKnownOps = self._known_ops  # type: ignore[assignment]  (every scope's table is one)
        effects = self._effects.get_effects(op)
        if effects is None or effects:  # not is_side_effect_free(op)
            if effects is None or any(e.kind != MemoryEffectKind.READ for e in effects):
                return  # not only_has_effect(op, READ)
            if existing := table.find_or_add(op):  # not found: stored, as xDSL stores it
                if op.parent_block() is existing.parent_block() and not has_other_side_effecting_op_in_between(
                    existing, op
                ):
                    self._replace_and_delete(op, existing)
                    return
                table[op] = op  # in the place of the equal one
            return
        if existing := table.find_or_add(op):
            self._replace_and_delete(op, existing)

    def _is_trivially_dead(self, op: Operation) -> bool:
        """xDSL's `is_trivially_dead`, the effects from the memo: only an allocation's value
        (which rewiring may change) makes the answer depend on more than the effects' kinds,
        so an op with an allocation among its effects is asked through xDSL."""
        for result in op.results:
            if result.first_use is not None:
                return False
        cls = type(op)
        known = self._class_dead.get(cls, _UNASKED)
        if known is _UNASKED:
            known = self._class_dead[cls] = class_would_be_dead(cls)
        if known is not None:
            return known
        effects = self._effects.get_effects(op)
        if effects is not None and any(e.kind == MemoryEffectKind.ALLOC for e in effects):
            return is_trivially_dead(op)
        return self._effects.would_be_trivially_dead(op)

    def _simplify_block(self, block: Block) -> None:
        for op in block.ops:
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=True):
                    old_scope = self._known_ops
                    self._known_ops = _BucketedKnownOps()
                    for region in op.regions:
                        self._simplify_region(region)
                    self._known_ops = old_scope
                else:
                    for region in op.regions:
                        self._simplify_region(region)
            self._simplify_operation(op)

    def _simplify_region(self, region: Region) -> None:
        if len(region.blocks) == 1:
            old_scope = self._known_ops
            self._known_ops = _BucketedKnownOps(self._known_ops)
            self._simplify_block(region.block)
            self._known_ops = old_scope


class HashedCSEPass(ModulePass):
    """xDSL's `cse` through `HashedCSEDriver`: loop-pipeline's `cse` step."""

    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _ATTRIBUTE_HASHES.clear()
        try:
            HashedCSEDriver().simplify(op)
        finally:
            _ATTRIBUTE_HASHES.clear()
