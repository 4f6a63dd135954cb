"""A greedy rewrite walker that starts only from the ops its patterns can act on.

xDSL's `PatternRewriteWalker` pushes every op of the module on its worklist, and again on
every round until nothing changes; each op then pays the applier's dead-code check, its
trait lookups and every pattern's `match_and_rewrite`. On the lowered module half of
`loop-simplify`'s visits and ~80 % of `canonicalize`'s were ops no pattern can match
(docs/compile_time.md). `CandidateRewriteWalker` fills the worklist only
with ops for which `candidate(op)` holds or that are trivially dead (the applier's DCE
erases those); everything the walk pushes while rewriting (users of a replaced op, the
inserted ops, operands that lost a use) is pushed as before.

Skipping an op that is not a candidate and not dead changes nothing: popped, it would
match no pattern. An op that becomes dead during the walk is pushed when its last user is
erased (the walker pushes single-use operands of an erased op), or found dead by the next
round's fill. So the rewrites, and their order, are those of the full walk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnregisteredOp, VectorType
from xdsl.interfaces import _HasFolderInterfaceTrait
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, HasFolder
from xdsl.transforms.canonicalization_patterns.arith import (
    FoldConstConstOp,
    FoldConstsByReassociation,
    SignlessIntegerBinaryOperationConstantProp,
    SignlessIntegerBinaryOperationZeroOrUnitRight,
)
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern

from loopopt.passes.memo_dce import EffectMemo, class_would_be_dead, is_trivially_dead, memo_region_dce, per_class
from loopopt.passes.pattern_dispatch import DispatchApplier


def _every_op(op: Operation) -> bool:
    return True


def _no_class(cls: type[Operation]) -> bool:
    return False


@dataclass(eq=False, repr=False)
class CandidateRewriteWalker(PatternRewriteWalker):
    """`PatternRewriteWalker` whose initial worklist holds the candidates and the dead ops."""

    candidate: Callable[[Operation], bool] = field(default=_every_op, kw_only=True)
    """Whether the pattern may rewrite `op` (a cheap test, typically on the op's class)."""

    never_candidate: Callable[[type[Operation]], bool] = field(default=_no_class, kw_only=True)
    """Whether no op of the class can be a candidate, whatever its operands and types (asked
    once per class and fill: such ops skip `candidate`)."""

    check_graph: bool = field(default=False, kw_only=True)
    """Whether the fill also finds out `graph_is_simple` (CanonicalizeWalker)."""

    graph_is_simple: bool = field(default=False, init=False)
    """With `check_graph`, from the last fill of a region: every region under it has at most one
    block, and every op whose class may be dead (`class_would_be_dead` not False) uses values
    only of ops after it in the fill's order (reverse postorder), i.e. before it in the region:
    the fill's order is a topological order of the use graph among those ops (no use cycle)."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        candidate = self.candidate
        never_candidate = self.never_candidate
        push = self._worklist.push
        dead = EffectMemo().is_trivially_dead  # the fill only reads the IR
        by_class: dict[type[Operation], tuple[bool, bool]] = {}
        """(ask `candidate`, may be dead) per class; traits do not change during the fill."""
        if isinstance(op, Region) and not self.walk_reverse and not self.walk_regions_first:
            ops = reverse_postorder(op)  # the default walkers' order, without xDSL's generators
            check = self.check_graph and op._first_block is op._last_block
        else:
            ops = op.walk(reverse=not self.walk_reverse, region_first=not self.walk_regions_first)
            check = False
        seen: set[int] = set()
        """With `check`: the ids of the ops met so far whose class may be dead."""
        for sub_op in ops:
            cls = type(sub_op)
            ask = by_class.get(cls)
            if ask is None:
                ask = by_class[cls] = (not never_candidate(cls), class_would_be_dead(cls) is not False)
            if check:
                for inner in sub_op.regions:
                    if inner._first_block is not inner._last_block:
                        check = False
                if ask[1]:
                    seen.add(id(sub_op))  # before its operands: an op using its own result is a cycle
                    for operand in sub_op._operands:  # a block argument has no `op`: id(None)
                        if id(getattr(operand, "op", None)) in seen:
                            check = False
            if ask[0] and candidate(sub_op):
                push(sub_op)
                continue
            if not ask[1]:
                continue  # no op of the class is ever trivially dead (memo_dce.class_would_be_dead)
            for result in sub_op.results:
                if result.first_use is not None:
                    break  # used: not dead (dead's own first test, without its call)
            else:
                if dead(sub_op):
                    push(sub_op)
        self.graph_is_simple = check


def reverse_postorder(region: Region) -> list[Operation]:
    """`list(region.walk(reverse=True, region_first=True))` (the order a walker's fill pushes:
    blocks and ops last to first, an op after the ops nested in it), built by one loop per
    block instead of xDSL's three nested generators per op. An op whose class has its own
    `walk` is walked by it, as xDSL's Block.walk would."""
    out: list[Operation] = []
    _reverse_postorder(region, out, Operation.walk)
    return out


def _reverse_postorder(region: Region, out: list[Operation], default_walk) -> None:
    append = out.append
    block = region._last_block  # the linked fields the block and op properties return
    while block is not None:
        op = block._last_op
        while op is not None:
            if type(op).walk is not default_walk:
                out.extend(op.walk(reverse=True, region_first=True))
            else:
                regions = op.regions
                if regions:
                    for inner in reversed(regions):
                        _reverse_postorder(inner, out, default_walk)
                append(op)
            op = op._prev_op
        block = block._prev_block


@dataclass(eq=False, repr=False)
class ClassDeadApplier(GreedyRewritePatternApplier):
    """xDSL's `GreedyRewritePatternApplier` whose dead-op test (asked of every op it visits)
    answers per op class where the class decides it (memo_dce.is_trivially_dead: the same
    answer without asking each op's traits and effects). Build it with `dce_enabled=False`
    (`applier`): the test here replaces xDSL's, in the same place (before folding and the patterns)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if is_trivially_dead(op):
            rewriter.erase(op)
            return
        super().match_and_rewrite(op, rewriter)


def applier(patterns: list, ctx: Context | None = None, folding_enabled: bool = False) -> GreedyRewritePatternApplier:
    """The greedy applier of `patterns` (dead-op erasure first, then folding, then the patterns);
    without folding, each op tries only the patterns rooted at its class (pattern_dispatch)."""
    if not folding_enabled:
        return DispatchApplier(patterns, ctx)
    return ClassDeadApplier(patterns, ctx, folding_enabled=folding_enabled, dce_enabled=False)


_SCALAR_ONLY = "scalar operands only"
_CANONICALIZABLE: dict[type[Operation], bool | str] = {}
"""can_canonicalize's answer per op class (traits belong to the class): True, False or
_SCALAR_ONLY."""


def can_canonicalize(op: Operation) -> bool:
    """Whether xDSL's `canonicalize` may rewrite `op` besides erasing it when dead: the op has
    canonicalization patterns, or a folder and is not a constant (CanonicalizePass's applier).
    arith's float binary ops (no folder) have only patterns that fold `arith.constant` operands
    with a scalar `FloatAttr`; on vectors (their operands have the result's type, and a rewrite
    keeps types) those never match: not candidates (the lowered module's vector `addf`s)."""
    cls = type(op)
    known = _CANONICALIZABLE.get(cls)
    if known is None:
        known = _CANONICALIZABLE[cls] = _canonicalizable(op)
    if known is _SCALAR_ONLY:
        return not isinstance(op.results[0].type, VectorType)
    return known  # type: ignore[return-value]


def never_canonicalized(cls: type[Operation]) -> bool:
    """No op of `cls` is a canonicalize candidate (`can_canonicalize` answered False for the class)."""
    return _CANONICALIZABLE.get(cls) is False


def _canonicalizable(op: Operation) -> bool | str:
    traits = op.get_traits_of_type(HasCanonicalizationPatternsTrait)
    if op.has_trait(HasFolder, value_if_unregistered=False) and not op.has_trait(ConstantLike, value_if_unregistered=True):
        return True
    if not traits:
        return False
    patterns = [p for t in traits for p in t.get_patterns(type(op))]
    if isinstance(op, arith.FloatingPointLikeBinaryOperation) and all(
        type(p) in (FoldConstConstOp, FoldConstsByReassociation) for p in patterns
    ):
        return _SCALAR_ONLY
    return True


_CONSTANT_PATTERNS = (
    SignlessIntegerBinaryOperationConstantProp,
    SignlessIntegerBinaryOperationZeroOrUnitRight,
    FoldConstConstOp,
    FoldConstsByReassociation,
)
"""xDSL canonicalization patterns that do nothing unless an operand is an `arith.constant`'s result."""

_NEEDS_CONSTANT: dict[type[Operation], tuple[Any, bool]] = {}
"""op class -> (its trait set when asked, whether canonicalize can only act on it through a
constant operand)."""


def needs_constant_operand(cls: type[Operation]) -> bool:
    """Whether xDSL's canonicalize (folder and patterns) leaves every op of `cls` alone unless one
    of its operands is defined by a ConstantLike op: its folder is arith's integer binary fold
    (`SignlessIntegerBinaryOperation.fold`: both operands constant, or a constant identity
    operand) or none, and its patterns are among `_CONSTANT_PATTERNS` (each reads an
    `arith.constant` operand first). True for addi/subi/andi/muli/minsi/remsi and scalar addf;
    not for cmpi (`x == x`) or select."""
    return per_class(_NEEDS_CONSTANT, cls, _needs_constant_operand)


def _needs_constant_operand(cls: type[Operation]) -> bool:
    if issubclass(cls, UnregisteredOp) or cls.has_trait(ConstantLike):
        return False
    folder = cls.get_trait(HasFolder)  # the one Folder.try_fold asks
    if folder is not None and (
        type(folder) is not _HasFolderInterfaceTrait
        or getattr(cls, "fold", None) is not arith.SignlessIntegerBinaryOperation.fold
    ):
        return False
    patterns = [p for t in cls.get_traits_of_type(HasCanonicalizationPatternsTrait) for p in t.get_patterns(cls)]
    return all(type(p) in _CONSTANT_PATTERNS for p in patterns)


_IDENTITY_PATTERNS = (SignlessIntegerBinaryOperationConstantProp, SignlessIntegerBinaryOperationZeroOrUnitRight)

_IDENTITY_ONLY: dict[type[Operation], tuple[Any, bool]] = {}
"""op class -> (its trait set when asked, identity_only's answer)."""


def identity_only(cls: type[Operation]) -> bool:
    """Whether `cls` is an arith integer binary op that `needs_constant_operand` and whose patterns
    are among `SignlessIntegerBinaryOperationConstantProp` (acts only with a constant lhs) and
    `...ZeroOrUnitRight` (only on an `arith.constant` rhs that is the class's right zero or
    unit); its folder (both constant, or a right unit) likewise needs more than a constant rhs.
    True for addi/subi/muli/andi/remsi/maxsi/minsi."""
    return per_class(_IDENTITY_ONLY, cls, _identity_only)


def _identity_only(cls: type[Operation]) -> bool:
    if not needs_constant_operand(cls) or not issubclass(cls, arith.SignlessIntegerBinaryOperation):
        return False
    patterns = [p for t in cls.get_traits_of_type(HasCanonicalizationPatternsTrait) for p in t.get_patterns(cls)]
    return all(type(p) in _IDENTITY_PATTERNS for p in patterns)


def _inert_right_constant(op: Operation) -> bool:
    """For an op of an `identity_only` class: its lhs is not a ConstantLike op's result and its rhs
    is an `arith.constant` whose value is not an IntegerAttr or neither the class's right zero
    nor its right unit: xDSL's folder (`SignlessIntegerBinaryOperation.fold`) and patterns read
    exactly these and leave the op alone. Any other constant operand: False (asked)."""
    operands = op._operands
    if len(operands) != 2:
        return False
    lhs, rhs = operands
    owner = lhs.owner
    if isinstance(owner, Operation) and type(owner).has_trait(ConstantLike):  # unregistered: True
        return False
    owner = rhs.owner
    if type(owner) is not arith.ConstantOp:
        return False
    value = owner.value
    if not isinstance(value, IntegerAttr):
        return True
    cls = type(op)
    return not cls.is_right_unit(value) and not cls.is_right_zero(value)  # type: ignore[attr-defined]


def skips_folder_and_patterns(op: Operation) -> bool:
    """Whether `CanonicalizeApplier` leaves out xDSL's folder and patterns for `op` as it is now:
    its class `needs_constant_operand` and it has no constant operand, or its class is
    `identity_only` and its only constant is an inert right one (`_inert_right_constant`)."""
    cls = type(op)
    if not needs_constant_operand(cls):
        return False
    return not _has_constant_operand(op) or (identity_only(cls) and _inert_right_constant(op))


def _has_constant_operand(op: Operation) -> bool:
    for operand in op._operands:
        owner = operand.owner
        if isinstance(owner, Operation) and type(owner).has_trait(ConstantLike):  # unregistered: True
            return True
    return False


@dataclass(eq=False, repr=False)
class CanonicalizeApplier(ClassDeadApplier):
    """canonicalize's applier (xDSL's `CanonicalizationRewritePattern` with folding) that skips,
    at the moment it would try them, the folder and patterns of an op they cannot change: a
    class `needs_constant_operand` without a constant operand now, or an integer op whose only
    constant is a right operand that is neither zero nor unit (`skips_folder_and_patterns`).
    The test is made when the op is popped (not at the fill), so the worklist and the order of
    the rewrites are xDSL's; on the benchmark module it skips ~1,800 of 2,067 visits (index
    `subi`/`addi`/`andi` without a constant, `addi %i, %c8`, `remsi %i, %c4`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if skips_folder_and_patterns(op):
            if is_trivially_dead(op):
                rewriter.erase(op)
            return
        super().match_and_rewrite(op, rewriter)


@dataclass(eq=False, repr=False)
class CanonicalizeWalker(CandidateRewriteWalker):
    """canonicalize's walk: xDSL's rounds (fill, rewrite, `region_dce`, again while anything
    changed), whose `region_dce` is left out after a round that changed nothing when its fill
    showed that `region_dce` would find nothing dead either:

    - every region has one block (so every block is an entry block, none unreachable), and
    - no op of a class that may be dead uses a value of such an op the fill met before it (the
      fill's order, blocks and ops last to first with nested ops before their parent, is then
      a topological order of the use graph among those ops: no use cycle).

    Then `region_dce` deletes nothing: the ops it would delete are ops that would be dead whose
    users are all deleted too; without a use cycle among them, one of them has no user at all,
    i.e. is trivially dead, and the fill pushed every trivially dead op, which the applier
    erases (a change). On the lowered module canonicalize changes nothing and this leaves out
    `region_dce`'s walk and effect tests, ~40 % of the step."""

    def rewrite_region(self, region: Region) -> bool:
        """xDSL's `PatternRewriteWalker.rewrite_region` with `apply_recursively` (the default),
        its `post_walk_func` (`region_dce`: memo_region_dce) after a round only when the round
        changed something or the fill could not rule it out (`check_graph`)."""
        listener = self._get_rewriter_listener()
        result = False
        while True:
            self._populate_worklist(region)
            changed = self._process_worklist(listener)
            if self.post_walk_func is not None and (changed or not self.graph_is_simple):
                changed |= self.post_walk_func(region, listener)
            result |= changed
            if not changed:
                return result


@dataclass(frozen=True)
class CandidateCanonicalizePass(ModulePass):
    """xDSL's `canonicalize` (same patterns, folding, DCE and `region_dce` between rounds, the
    latter with memoized effects: passes/memo_dce.py),
    walking from the ops it can rewrite; loop-pipeline's `canonicalize` step."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = CanonicalizeApplier([CanonicalizationRewritePattern()], ctx, folding_enabled=True, dce_enabled=False)
        CanonicalizeWalker(
            pattern,
            post_walk_func=memo_region_dce,
            candidate=can_canonicalize,
            never_candidate=never_canonicalized,
            check_graph=True,
        ).rewrite_module(op)
