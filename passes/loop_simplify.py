"""`loop-simplify`: constant folding, algebraic identities, power unrolling, optional FMA."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerAttr, IntegerType, ModuleOp, VectorType
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import InterpretationError

from loopopt.interp.dtypes import cast_to, numpy_dtype
from loopopt.interp.lanewise import BINARY, CONVERSIONS, UNARY, LanewiseArithFunctions
from loopopt.passes.candidate_walker import CandidateRewriteWalker, applier
from loopopt.passes.simplify_rules import FMA_RULES, RULES, Emit, Rule, constant_value, is_scalar, match
from loopopt.passes.options import check_options
from loopopt.passes.select_minmax import SelectOfCompareToMinMax, is_integer_not_i1

FOLDABLE: tuple[type[Operation], ...] = (
    *BINARY,
    *UNARY,
    *CONVERSIONS,
    arith.CmpiOp,
    arith.CmpfOp,
    arith.SelectOp,
    math.FmaOp,
)
"""Ops folded when every operand is a constant: those the lane-wise interpreter runs."""


_FOLDABLE_TYPES: dict[Attribute, bool] = {}
"""_foldable_type's answers (types are immutable and hashable; there are few of them)."""

_FOLDABLE_OPS: dict[type[Operation], bool] = {}
"""isinstance(op, FOLDABLE) per op class: an isinstance against a long tuple of xDSL op
classes goes through ABCMeta and cost 70 µs per op (docs/compile_time.md)."""


_FOLDABLE_TYPE_IDS: dict[int, tuple[Attribute, bool]] = {}
"""_foldable_type's answers by the type object's identity (the object kept, so its id stays its
own): a type's hash is a recursive dataclass hash, a vector type's the dearest (its shape)."""


def _foldable_type(t) -> bool:
    """A scalar type the interpreter holds exactly: f32, f64, i1, i8..i64, index."""
    by_id = _FOLDABLE_TYPE_IDS.get(id(t))
    if by_id is not None and by_id[0] is t:
        return by_id[1]
    known = _FOLDABLE_TYPES.get(t)
    if known is None:
        known = _FOLDABLE_TYPES[t] = _foldable_type_uncached(t)
    if len(_FOLDABLE_TYPE_IDS) > 4096:
        _FOLDABLE_TYPE_IDS.clear()  # types built per op (a parser's) would keep growing it
    _FOLDABLE_TYPE_IDS[id(t)] = (t, known)
    return known


def _foldable_type_uncached(t) -> bool:
    if not isinstance(t, AnyFloat | IntegerType | IndexType):
        return False
    try:
        numpy_dtype(t)
    except (ValueError, ImportError):  # ImportError: bf16 without ml_dtypes
        return False  # e.g. i3, i128: left for execution (or the printer's diagnostic)
    return True


def _foldable_op(op: Operation) -> bool:
    cls = type(op)
    known = _FOLDABLE_OPS.get(cls)
    if known is None:
        known = _FOLDABLE_OPS[cls] = issubclass(cls, FOLDABLE)
    return known


class FoldConstant(RewritePattern):
    """An op whose operands are all scalar constants becomes the constant it computes.

    The value comes from the lane-wise interpreter (interp/lanewise.py), so folding is
    exactly what execution gives: f32 arithmetic in f32, and the integer semantics of
    docs/integer_semantics.md (wrap-around, division by zero = 0, divsi(MIN, -1) = MIN,
    shifts >= the width, saturating fptosi). Every integer op is total there, so every
    one folds; an op the interpreter refuses is left alone, never an error.

    `%c = arith.addf %two, %three : f32` -> `%c = arith.constant 5.000000e+00 : f32`
    `%q = arith.divsi %min, %minus_one : i32` -> `%q = arith.constant -2147483648 : i32`
    """

    roots = FOLDABLE
    """The op classes the pattern folds (pattern_dispatch)."""

    def __init__(self) -> None:
        self.interpreter = Interpreter(ModuleOp([]))
        self.interpreter.register_implementations(LanewiseArithFunctions())

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.results) != 1 or not _foldable_op(op) or not _foldable_type(op.results[0].type):
            return
        values = [constant_value(v) for v in op.operands]
        if any(v is None for v in values) or not all(_foldable_type(v.type) for v in op.operands):
            return
        try:
            args = tuple(cast_to(v, o.type) for v, o in zip(values, op.operands))
            (result,) = self.interpreter.run_op(op, args)
        except (InterpretationError, ValueError, OverflowError, ZeroDivisionError, TypeError):
            return
        t = op.results[0].type
        attr = FloatAttr(float(result), t) if isinstance(t, AnyFloat) else IntegerAttr(int(result), t)
        rewriter.replace(op, arith.ConstantOp(attr))


@dataclass
class ApplyRules(RewritePattern):
    """The identities of simplify_rules.py: the first rule whose pattern matches wins."""

    rules: tuple[Rule, ...]
    by_root: dict[type[Operation], list[Rule]] = field(init=False)
    roots: tuple[type[Operation], ...] = field(init=False)
    """The rules' root classes (pattern_dispatch)."""

    def __post_init__(self) -> None:
        self.by_root = defaultdict(list)
        for rule in self.rules:
            self.by_root[rule.root].append(rule)
        self.roots = tuple(self.by_root)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if len(op.results) != 1:
            return
        for rule in self.by_root.get(type(op), ()):
            env: dict[str, SSAValue] = {}
            if not match(rule.pattern, op.results[0], env):
                continue
            if rule.when is not None and not rule.when(**env):
                continue
            replacement = rule.rewrite(Emit(rewriter, op), **env)
            rewriter.replace(op, [], [replacement])
            return


def populate_loop_simplify_patterns(fma: bool = False, target: str | None = None) -> list[RewritePattern]:
    """`target`: the module's `loop.target` (after lowering), which select -> min/max reads."""
    return [FoldConstant(), ApplyRules(RULES + (FMA_RULES if fma else ())), SelectOfCompareToMinMax(target)]


@dataclass(frozen=True)
class LoopSimplifyPass(ModulePass):
    """Simplify scalar arithmetic anywhere in the module (seed 003 "simplification").

    * constant folding with the lane-wise interpreter's semantics (f32 folds in f32);
    * algebraic identities, written as data in passes/simplify_rules.py (`x*1 -> x`,
      `x*0 -> 0` and `x-x -> 0` for integers only, `select(true,a,b) -> a`, ...; float
      rules only where IEEE-exact);
    * integer power unrolling: `math.ipowi` / `math.fpowi` with constant exponent 0..4,
      `math.powf` with exponent 0.0..4.0 (`x**3 -> x*x*x`);
    * after lowering, integer `select(x > c, x, c)` -> `max(x, c)` (and min, unsigned, swapped)
      where the target's min/max is one instruction (passes/select_minmax.py);
    * with `fma=true`, `a + b*c` and `b*c + a` on floats become `math.fma(b, c, a)` when
      the product has no other use. Off by default: SSE2 and scalar targets must not
      contract (the pipeline sets it per target).

    Unused effect-free ops are erased.
    """

    name = "loop-simplify"

    fma: bool = False
    """Contract float multiply-add into math.fma (single rounding)."""

    def __post_init__(self) -> None:
        check_options(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from loopopt.targets.c import module_target  # the printer's tables: not at loop-opt start-up

        target = module_target(op)
        patterns = populate_loop_simplify_patterns(self.fma, target)
        (rules,) = (p for p in patterns if isinstance(p, ApplyRules))
        candidates = _Candidates(rules.by_root, target is not None)
        CandidateRewriteWalker(  # starts only from ops a fold or a rule can match (and dead ops)
            applier(patterns),
            candidate=candidates.may_match,
            never_candidate=candidates.never,
        ).rewrite_module(op)


_VECTOR_FREE: dict[Rule, tuple[int, ...]] = {}
"""Per rule, the root's operand positions that must not be vectors for it to match (`_needs_scalars`)."""


def _needs_scalars(rule: Rule) -> tuple[int, ...]:
    """The root's operand positions where a vector operand makes `rule` fail whatever the IR
    around it: a `K(c)` (only a scalar `arith.constant` has a value for `constant_value`), and
    the operand bound to `x` under `when=is_scalar`."""
    known = _VECTOR_FREE.get(rule)
    if known is None:
        src = rule.pattern.src
        known = _VECTOR_FREE[rule] = tuple(
            i for i, p in enumerate(src) if p.const is not None or (rule.when is is_scalar and p.name == "x")
        )
    return known


@dataclass
class _Candidates:
    """Whether one of loop-simplify's patterns may ever rewrite an op, from what a rewrite in this
    pass never changes: its class, its operand and result types (every replacement has the
    type of what it replaces). On the lowered module this leaves out the vector math (`absf`,
    `sqrt`, `addf` on vectors: a fold needs scalar constants, every addf rule a scalar `K`),
    ~half of the ops the class test alone let in. An op left out is still visited when it is
    dead (the walker's fill) or pushed by a rewrite; popped, it matches nothing."""

    by_root: dict[type[Operation], list[Rule]]
    minmax: bool
    """SelectOfCompareToMinMax can fire (the module names its target)."""

    _roles: dict[type[Operation], tuple[bool, bool, list[tuple[int, tuple[int, ...]]]] | None] = field(
        default_factory=dict
    )
    """Per op class: (a fold may apply, select -> min/max may, per rule its root's operand count
    and `_needs_scalars` positions), None for neither. (A rule's own hash is a dataclass hash of
    its whole pattern tree: looked up here once per class.)"""

    def _role(self, cls: type[Operation]) -> tuple[bool, bool, list[tuple[int, tuple[int, ...]]]] | None:
        fold = issubclass(cls, FOLDABLE)
        minmax = self.minmax and cls in SelectOfCompareToMinMax.roots
        rules = [(len(rule.pattern.src), _needs_scalars(rule)) for rule in self.by_root.get(cls, [])]
        return (fold, minmax, rules) if fold or minmax or rules else None

    def never(self, cls: type[Operation]) -> bool:
        """No op of `cls` may match (no fold, select -> min/max or rule applies to the class)."""
        try:
            role = self._roles[cls]
        except KeyError:
            role = self._roles[cls] = self._role(cls)
        return role is None

    def may_match(self, op: Operation) -> bool:
        cls = type(op)
        try:
            role = self._roles[cls]
        except KeyError:
            role = self._roles[cls] = self._role(cls)
        if role is None:
            return False
        results = op.results
        if len(results) == 1:
            fold, minmax, rules = role
            t = results[0].type
            if fold and _foldable_type(t) and all(_foldable_type(v.type) for v in op.operands):
                return True  # FoldConstant
            if minmax and is_integer_not_i1(t):
                return True
            if rules:
                operands = op._operands
                for count, scalars in rules:
                    if len(operands) == count and not any(isinstance(operands[i].type, VectorType) for i in scalars):
                        return True
        return False
