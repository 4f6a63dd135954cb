"""Memoized or lighter forms of xDSL 0.74 per-op costs, answering exactly as xDSL does.

Every pass asks an op's class for its traits (`has_trait`, `get_traits_of_type`: the effect
queries of DCE, CSE and the rewriter ask several per op visit), and xDSL answers by scanning
the class's trait set with `isinstance` through `ABCMeta` each time. The answer depends only on
the class and its trait set, so it is remembered per (class, query) and recomputed when the set
changes (`OpTraits.add_trait` makes a new frozenset).

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

`irdl_op_init` (every `SomeOp(...)` built through its `__init__`) turns each operand and
result argument into a list, asking `isinstance(arg, Sequence)` (an ABC: `ABCMeta` in Python),
`isinstance(def, OptionalDef)` per definition, and formats an error prefix it rarely uses:
~15 µs per op beyond `Op.create`. For an op definition without options (no segment sizes),
regions or successors the same lists are built from the definitions' kinds (remembered per
`OpDef`) and a per-type answer to the `Sequence` test (forgotten when `abc`'s cache token
changes, i.e. after any `register`); anything the fast path does not build the same way —
a None for a required argument, a wrong count, regions — goes to xDSL's function, which
raises its own error.

Reading IR goes through small Python layers that each cost a call: a named operand or result
(`op.lhs`: an accessor that matches on the construct kind, builds an `OpOperands` view and
indexes it through `SSAValues.__getitem__`'s `isinstance` and `super()`), the block and region
iterators (a property per step), and `_unknown_loc` (an import statement per op built). The
same values are read directly: the accessor of a single operand or result indexes the op's
operand tuple or result tuple (what the view indexes), `SSAValues[int]` is the tuple's item,
the iterators read the linked fields their properties return, and the unknown location is
xDSL's one `UNKNOWN_LOC` object. Any other argument (a slice, a variadic accessor, a region or
successor accessor, the class instead of an op) takes xDSL's own code.

`Operation.__init__` (every op built, parsed or cloned) assigns its operands and successors
through their property setters (a generator of `Use`s, a loop detaching the previous uses,
`add_use` per operand) and its results through a generator. For a class that keeps xDSL's
`operands` / `successors` properties and has nothing but `object.__init__` after `Operation`
in its MRO, an op built for the first time (no operands, successors or regions yet) and given
no successors gets the same fields, in the same order, with the same `Use` objects
linked at the head of each operand's use list as `add_use` links them, and its regions added
one by one through `add_region` as xDSL adds them; anything else runs xDSL's `__init__`.

`IRDLOperation.__post_init__` (every op built, parsed or cloned) walks the class's property and
attribute definitions, asking each whether it is optional and has a default, to fill the missing
defaults. The (name, default) pairs are remembered per class (with its `OpDef`; definitions are
immutable) and filled in the same order; then the next `__post_init__` of the MRO runs, looked up
at each call as xDSL's `super()` call does (xDSL's `ImplicitBuilder` replaces Operation's for
the duration of a `with` block, to insert each op built into its block).

Every name hint set (`value.name_hint = ...`: each SSA name parsed, each result cloned or named
by a builder, ~8,500 per 1,000 df ops) runs `IRWithName.extract_valid_name`: a regular expression
to validate the name and a second one to strip a `_<digits>` suffix. Its answer for a valid name
reads only the string, so it is remembered per (exact `str`) name; an invalid one runs xDSL's
check, which raises its error (naming the class) every time.

Every op added to a block (`add_op`, `insert_op_before/after`; ~11,000 in convert-loop-to-simd
per 1,000 df ops) is checked by `Block._attach_op` not to contain the block, a walk up the
block's ancestors; an op without regions contains no block, so that walk is skipped for it
(an op with regions is walked as before), and `add_op` links the op at the end itself (the
same fields and errors as xDSL's). `_unknown_loc` (each block argument built) returns xDSL's
`UNKNOWN_LOC` without its import statement.

Every attribute built runs `Attribute.__post_init__`: for a `ParametrizedAttribute` its IRDL
definition's parameter constraints (a fresh constraint context) and its own `verify`, then an
`isinstance(self, Data | ParametrizedAttribute)` through `ABCMeta`; `IndexType()` costs ~15 µs,
`IntegerType(32)` ~35 µs, and a 1,000-op compilation builds ~21,000 attributes, most of them
equal to one built before. For a class that keeps xDSL's `_verify` the checks read only the
class and the parameter values, so a (class, parameters) pair that verified is remembered and
an equal one is not checked again; a new pair (or unhashable parameters) runs xDSL's
`__post_init__`, so a bad attribute raises xDSL's error every time. For a `Data` class that
keeps `_verify` the `isinstance` answer is remembered per class (until an ABC `register`);
its `verify` still runs.

The dataclass `__hash__` of an attribute class hashes every field, nested attributes again,
on every call; the first time an instance of the class is built its generated hash is wrapped
to compute once per instance and keep the value in the instance's `__dict__` (the same value:
attributes never change). Copies and pickles leave it out (`__getstate__`), as a string's hash
differs between processes.

`Operation.walk` in its default order runs three generators per nesting level (the op's, its
region's, its block's); one generator per op with regions yields the same ops, reading an op's
regions after yielding it and a successor when an op is produced, as xDSL's do. `reverse`,
`region_first` and classes with a `walk` of their own take xDSL's code.

`MLIRLexer.lex` (every token parsed) builds a 15-entry dict of single-character punctuation per
token before looking the character up, and reaches the token through a chain of small methods
(`_consume_whitespace`, `_get_chars`, `Input.slice`, `_consume_regex`, `_form_token`). For an
`MLIRLexer` over text the same regular expressions run inline: whitespace, then a bare
identifier, one of those characters (the table built once) or a `%`/`^`/`!` identifier give the
token xDSL builds (same kind, same span, the position after it); anything else, the end of
the input and every error are lexed by xDSL's own `lex` from the same position. A subclass,
bytes input or a lexer given its own expressions takes xDSL's steps. The token's `Span` (a frozen
dataclass: its `__init__` sets each field through `object.__setattr__`) gets the same fields in
the same order written into its dict, while `Span.__init__` is xDSL's.

The parser reads and consumes tokens through `_current_token` and `lexer` properties, and
compares a token's text through three more (`Token.text`, `Span.text`, `Span.content`, which
slices the input): `_consume_token`, `_parse_optional_token`, `parse_optional_characters`,
`parse_optional_punctuation` and `parse_punctuation` read the parser state's fields directly and
compare the text in place (a string input; bytes are decoded as xDSL does), with xDSL's asserts
and error messages.

`IsolatedFromAbove.verify` (once per `func.func`) asks `op.is_ancestor(owner)` of every operand in
the function, each a walk up the owner's parents (~20,000 per 1,000 df ops). It now walks the same
ops in the same order keeping the ids of the blocks and ops met so far (all strictly inside `op`,
alive while it verifies): an operand defined by one of them passes at once, any other is asked
xDSL's question, so the same operand fails first with xDSL's message.

`Operation.verify` (every op verified) reads its operands, parent and the parent region's block
count through properties (`len(region.blocks)` walks the blocks), compares the block's last op
with `==` (a Python `__eq__` that is `is`) and asks `isinstance(operand, ErasedSSAValue)` through
`ABCMeta` per operand. The same checks, in the same order and with the same errors, read the
linked fields, compare with `is` and remember the `ErasedSSAValue` answer per operand type (until
an ABC `register`); an op with successors takes xDSL's code.

`DenseArrayBase.get_values` unpacks the array's bytes with `struct` (a format string built from
the element type) on every call; every accessor of an op with variadic operand segments (a
loop's `bounds`, `inits`, ...) reads its `operandSegmentSizes` through it, ~10 times per loop
verified. The tuple is remembered in the attribute's `__dict__` (its bytes never change; copies
and pickles leave it out, as the remembered hash).

`install()` is idempotent; loopopt.diagnostics calls it, so it is on in every loopopt process
that imports our dialects' verification. `LOOPOPT_NO_FASTPATHS=1` in the environment (read at
install time) leaves xDSL's classes untouched: the pipeline then runs on xDSL's own code, for a
user who patches the same methods or wants to rule the memos out.
"""

from __future__ import annotations

import abc
import dis
import operator
import os
from collections.abc import Sequence
from typing import Any

from xdsl.ir import Attribute, Data, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import operations as irdl_operations
from xdsl.ir import core as ir_core
from xdsl.irdl.operations import (
    AfterVariadicSingleAccessor,
    BeforeVariadicSingleAccessor,
    OpDef,
    OptionalDef,
    VariadicDef,
    VarIRConstruct,
)
from xdsl.traits import IsolatedFromAbove, SameOperandsAndResultType
from xdsl.utils.exceptions import VerifyException

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


def _install_signature_cache() -> None:
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


def _install_isolated_check() -> None:
    if IsolatedFromAbove.verify is not _XDSL_ISOLATED_VERIFY:
        return  # replaced by someone else: left alone

    def verify(self: IsolatedFromAbove, op: Operation) -> None:
        seen: set[int] = set()  # ids of the blocks and ops strictly inside `op` met so far
        regions: list[Region] = list(op.regions)
        while regions:
            region = regions.pop()
            block = region._first_block
            while block is not None:
                seen.add(id(block))
                child = block._first_op
                while child is not None:
                    seen.add(id(child))
                    for operand in child._operands:
                        owner = operand.owner
                        if id(owner) not in seen and (not op.is_ancestor(owner) or owner is op):
                            raise VerifyException(
                                f"Operation using value defined out of its IsolatedFromAbove parent: {child}"
                            )
                    if child.regions and not child.has_trait(IsolatedFromAbove):
                        regions += child.regions
                    child = child._next_op
                block = block._next_block

    IsolatedFromAbove.verify = verify  # type: ignore[method-assign]


def _install_operation_verify() -> None:
    from xdsl.ir.core import ErasedSSAValue
    from xdsl.traits import IsTerminator, NoTerminator

    original = Operation.verify
    if original is not _XDSL_OPERATION_VERIFY:
        return  # replaced by someone else: left alone
    erased: dict[type, bool] = {}
    """isinstance(operand, ErasedSSAValue) per operand type, until an ABC `register`."""
    token = [abc.get_cache_token()]

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        if self._successors:
            original(self, verify_nested_ops)  # the successor checks: xDSL's
            return
        if abc.get_cache_token() != token[0]:
            erased.clear()
            token[0] = abc.get_cache_token()
        for operand in self._operands:
            kind = type(operand)
            is_erased = erased.get(kind)
            if is_erased is None:
                is_erased = erased[kind] = isinstance(operand, ErasedSSAValue)
            if is_erased:
                raise ValueError("Erased SSA value is used by the operation")
        parent_block = self.parent
        parent_region = None if parent_block is None else parent_block.parent
        if parent_region is not None and parent_block._last_op is self:  # type: ignore[union-attr]
            first = parent_region._first_block  # not None: it holds parent_block
            if first is parent_region._last_block:  # one block
                parent_op = parent_region.parent
                if parent_op is not None and not parent_op.has_trait(NoTerminator) and not self.has_trait(IsTerminator):
                    raise VerifyException(
                        f"Operation {self.name} terminates block in single-block region but is not a terminator"
                    )
            elif not self.has_trait(IsTerminator):
                raise VerifyException(
                    f"Operation {self.name} terminates block in multi-block region but is not a terminator"
                )
        if verify_nested_ops:
            for region in self.regions:
                region.verify()
        try:
            self.verify_()
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)

    Operation.verify = verify  # type: ignore[method-assign]


_XDSL_OPERATION_VERIFY = Operation.verify
"""xDSL's own Operation.verify (the fallback; tests compare against it)."""

_XDSL_ISOLATED_VERIFY = IsolatedFromAbove.verify
"""xDSL's own IsolatedFromAbove.verify (the fallback check's model; tests compare against it)."""


_SINGLE, _OPTIONAL, _VARIADIC = 0, 1, 2


def _kinds(defs: Sequence[tuple[str, Any]]) -> tuple[int, ...]:
    return tuple(
        _OPTIONAL if isinstance(d, OptionalDef) else _VARIADIC if isinstance(d, VariadicDef) else _SINGLE
        for _, d in defs
    )


_ANSWERS: dict[type, tuple[bool, bool, bool]] = {}
"""type -> (is a Sequence, an SSAValue, an Operation): exact for ABCs until a `register` call,
which changes `abc.get_cache_token()` (ABCMeta's own caches are invalidated the same way)."""
_answers_token: list[object] = [abc.get_cache_token()]


def _answers(x: object) -> tuple[bool, bool, bool]:
    t = type(x)
    answer = _ANSWERS.get(t)
    if answer is None:
        answer = _ANSWERS[t] = (isinstance(x, Sequence), isinstance(x, SSAValue), isinstance(x, Operation))
    return answer


def _build(args: Sequence[Any], kinds: tuple[int, ...]) -> tuple[list[Any], list[int]] | None:
    """irdl_build_arg_list's lists for operand values or result types, or None where xDSL
    would raise (it is then called to raise its own error)."""
    if len(args) != len(kinds):
        return None
    built: list[Any] = []
    sizes: list[int] = []
    for arg, kind in zip(args, kinds):
        if arg is None:
            if kind != _OPTIONAL:
                return None
            sizes.append(0)
        elif _answers(arg)[0]:
            n = len(arg)
            if (kind == _SINGLE and n != 1) or (kind == _OPTIONAL and n > 1):
                return None
            built.extend(arg)
            sizes.append(n)
        else:
            built.append(arg)
            sizes.append(1)
    return built, sizes


def _operand_arg(operand: Any) -> Any:
    """xDSL's irdl_build_operations_arg, with the type tests answered per type."""
    if operand is None:
        return []
    _, is_value, is_op = _answers(operand)
    if is_value:
        return operand
    if is_op:
        return SSAValue.get(operand)
    # SSAValue.get returns a value itself (type=Attribute): asked only of the others
    return [o if _answers(o)[1] else SSAValue.get(o) for o in operand]


def _plain_regions(regions: Any) -> bool:
    """Whether every region argument is a `Region` itself (no list of ops or blocks, no None):
    xDSL's irdl_build_regions_arg returns such a region as it is, and irdl_build_arg_list
    takes it as one region, as `_build` does (a Region is not a Sequence)."""
    for region in regions:
        if type(region) is not Region:
            return False
    return True


_XDSL_OP_INIT = irdl_operations.irdl_op_init
"""xDSL's own builder (the fallback; tests compare against it)."""


def _install_op_init() -> None:
    original = _XDSL_OP_INIT
    shapes: dict[int, tuple[OpDef, tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None] = {}
    """id(op_def) -> (op_def, operand kinds, result kinds, region kinds); None: options or successors."""

    def irdl_op_init(self: Any, op_def: OpDef, *, operands: Any, result_types: Any, properties: Any,
                     attributes: Any, successors: Any, regions: Any) -> None:  # fmt: skip
        if _answers_token[0] != abc.get_cache_token():
            _ANSWERS.clear()
            _answers_token[0] = abc.get_cache_token()
        key = id(op_def)
        if key not in shapes or (shapes[key] is not None and shapes[key][0] is not op_def):
            simple = not (op_def.options or op_def.successors)
            shapes[key] = (op_def, _kinds(op_def.operands), _kinds(op_def.results), _kinds(op_def.regions)) if simple else None
        shape = shapes[key]
        built = results = built_regions = None
        if shape is not None and shape[0] is op_def and not successors and _plain_regions(regions):
            built = _build([_operand_arg(o) for o in operands], shape[1])
            results = _build(result_types, shape[2]) if built is not None else None
            built_regions = _build(regions, shape[3]) if results is not None else None
        if built_regions is None:
            return original(self, op_def, operands=operands, result_types=result_types, properties=properties,
                            attributes=attributes, successors=successors, regions=regions)  # fmt: skip
        Operation.__init__(
            self,
            operands=built[0],
            result_types=results[0],
            properties={k: v for k, v in properties.items() if v is not None},
            attributes={k: v for k, v in attributes.items() if v is not None},
            successors=[],
            regions=built_regions[0],
        )

    irdl_operations.irdl_op_init = irdl_op_init


_XDSL_READERS = (
    ir_core.SSAValues.__getitem__,
    BeforeVariadicSingleAccessor.__get__,
    AfterVariadicSingleAccessor.__get__,
    ir_core._unknown_loc,
)
"""xDSL's own readers (the fallbacks; tests compare against them)."""

_OPERAND, _RESULT = VarIRConstruct.OPERAND, VarIRConstruct.RESULT
_item = tuple.__getitem__


def _install_readers() -> None:
    values_getitem, before_get, after_get, _ = _XDSL_READERS

    def getitem(self: tuple[Any, ...], idx: Any) -> Any:
        if type(idx) is int:
            return _item(self, idx)
        return values_getitem(self, idx)

    def accessor(original: Any, after_variadic: bool) -> Any:
        def get(self: Any, obj: Any, objtype: Any = None) -> Any:
            if obj is not None:
                construct = self.construct
                at = self.idx - self.num_defs if after_variadic else self.idx
                if construct is _OPERAND:
                    return _item(obj._operands, at)
                if construct is _RESULT:
                    return _item(obj.results, at)
            return original(self, obj, objtype)

        return get

    ir_core.SSAValues.__getitem__ = getitem  # type: ignore[method-assign,assignment]
    BeforeVariadicSingleAccessor.__get__ = accessor(before_get, False)  # type: ignore[method-assign]
    AfterVariadicSingleAccessor.__get__ = accessor(after_get, True)  # type: ignore[method-assign]

    from xdsl.dialects.builtin import UNKNOWN_LOC

    ir_core._unknown_loc = lambda: UNKNOWN_LOC

    def forward_ops(self: Any) -> Any:
        op = self.next_op
        if op is None:
            raise StopIteration
        self.next_op = op._next_op
        return op

    def backward_ops(self: Any) -> Any:
        op = self.prev_op
        if op is None:
            raise StopIteration
        self.prev_op = op._prev_op
        return op

    def forward_blocks(self: Any) -> Any:
        block = self.next_block
        if block is None:
            raise StopIteration
        self.next_block = block._next_block
        return block

    ir_core._BlockOpsIterator.__next__ = forward_ops  # type: ignore[method-assign]
    ir_core._BlockOpsReverseIterator.__next__ = backward_ops  # type: ignore[method-assign]
    ir_core._RegionBlocksIterator.__next__ = forward_blocks  # type: ignore[method-assign]


_XDSL_OPERATION_INIT = Operation.__init__
"""xDSL's own Operation.__init__ (the fallback; tests compare against it)."""


def _install_operation_init() -> None:
    original = _XDSL_OPERATION_INIT
    plain_classes: dict[type, bool] = {}
    operands_property = Operation.__dict__["operands"]
    successors_property = Operation.__dict__["successors"]
    add_use = ir_core.IRWithUses.add_use
    plain_values: dict[type, bool] = {}
    new = object.__new__
    use_cls, values_cls, result_cls = ir_core.Use, ir_core.SSAValues, ir_core.OpResult
    from xdsl.dialects.builtin import UNKNOWN_LOC

    def plain(cls: type) -> bool:
        mro = cls.__mro__

        def defined(name: str, classes: Any) -> Any:
            return next(c.__dict__[name] for c in classes if name in c.__dict__)

        return (
            defined("operands", mro) is operands_property
            and defined("successors", mro) is successors_property
            and defined("__init__", mro[mro.index(Operation) + 1:]) is object.__init__
        )

    def init(self: Operation, *, operands: Any = (), result_types: Any = (), properties: Any = {},
             attributes: Any = {}, location: Any = None, successors: Any = (), regions: Any = ()) -> None:  # fmt: skip
        cls = type(self)
        known = plain_classes.get(cls)
        if known is None:
            known = plain_classes[cls] = plain(cls)
        if not known or successors or self._operands or self._successors or self.regions:
            return original(self, operands=operands, result_types=result_types, properties=properties,
                            attributes=attributes, location=location, successors=successors, regions=regions)  # fmt: skip
        values = values_cls(operands)
        uses = []
        for idx, value in enumerate(values):
            value_cls = type(value)
            known_value = plain_values.get(value_cls)
            if known_value is None:
                known_value = plain_values[value_cls] = getattr(value_cls, "add_use", None) is add_use
            use = new(use_cls)
            use._operation = self
            use._index = idx
            use._prev_use = None
            use._next_use = None
            if known_value:
                first = value.first_use
                use._next_use = first
                if first is not None:
                    first._prev_use = use
                value.first_use = use
            else:
                value.add_use(use)
            uses.append(use)
        self._operands = values
        self._operand_uses = tuple(uses)
        self.results = values_cls([result_cls(t, self, idx) for idx, t in enumerate(result_types)])
        self.properties = dict(properties)
        self.attributes = dict(attributes)
        self.location = UNKNOWN_LOC if location is None else location
        self._successors = ()
        self._successor_uses = ()
        self.regions = ()
        for region in regions:  # as xDSL's: its checks, a class's own add_region
            self.add_region(region)
        self.__post_init__()

    Operation.__init__ = init  # type: ignore[method-assign]


_XDSL_EXTRACT_VALID_NAME = ir_core.IRWithName.__dict__["extract_valid_name"]
"""xDSL's own name-hint check (a classmethod object; the fallback, tests compare against it)."""

_NAMES_MAX = 65536
"""Remembered valid name hints (cleared when full)."""


def _install_name_memo() -> None:
    with_name = ir_core.IRWithName
    if with_name.__dict__["extract_valid_name"] is not _XDSL_EXTRACT_VALID_NAME:
        return  # replaced by someone else: left alone
    check = _XDSL_EXTRACT_VALID_NAME.__func__
    valid: dict[str, str] = {}
    """a valid name hint -> what xDSL's check returns for it (it reads only the string)."""

    def extract_valid_name(cls: Any, name: Any) -> Any:
        if name is None:
            return None
        plain = type(name) is str  # a str subclass may compare or hash otherwise: not remembered
        if plain:
            known = valid.get(name)
            if known is not None:
                return known
        out = check(cls, name)  # an invalid name raises xDSL's error (naming cls) every time
        if plain:
            if len(valid) >= _NAMES_MAX:
                valid.clear()
            valid[name] = out
        return out

    extract_valid_name.__wrapped__ = check  # type: ignore[attr-defined]
    with_name.extract_valid_name = classmethod(extract_valid_name)  # type: ignore[method-assign,assignment]


_XDSL_IRDL_POST_INIT = irdl_operations.IRDLOperation.__post_init__
"""xDSL's own IRDLOperation.__post_init__ (the fallback; tests compare against it)."""


def _defaults(defs: Any) -> tuple[tuple[str, Attribute], ...]:
    """The (name, default) pairs IRDLOperation.__post_init__ fills in, in its order."""
    return tuple(
        (name, d.default_value)
        for name, d in defs.items()
        if not isinstance(d, OptionalDef) and d.default_value is not None
    )


def _install_irdl_post_init() -> None:
    original = _XDSL_IRDL_POST_INIT
    irdl_op = irdl_operations.IRDLOperation
    if irdl_op.__post_init__ is not original:
        return  # replaced by someone else: left alone
    known: dict[type, tuple[OpDef, tuple[tuple[str, Attribute], ...], tuple[tuple[str, Attribute], ...]]] = {}
    """class -> (its OpDef, default properties, default attributes)."""

    def post_init(self: Any) -> None:
        cls = type(self)
        op_def = cls.get_irdl_definition()
        entry = known.get(cls)
        if entry is None or entry[0] is not op_def:
            entry = known[cls] = (op_def, _defaults(op_def.properties), _defaults(op_def.attributes))
        _, props, attrs = entry
        if props:
            own = self.properties
            for name, value in props:
                if name not in own:
                    own[name] = value
        if attrs:
            own = self.attributes
            for name, value in attrs:
                if name not in own:
                    own[name] = value
        # looked up at every call, as xDSL's super() call does: xDSL's ImplicitBuilder swaps
        # Operation.__post_init__ for one that inserts the op into the builder's block
        super(irdl_op, self).__post_init__()

    post_init.__wrapped__ = original  # type: ignore[attr-defined]
    irdl_op.__post_init__ = post_init  # type: ignore[method-assign]


_XDSL_ATTRIBUTE_POST_INIT = Attribute.__post_init__
"""xDSL's own attribute verification on construction (the fallback; tests compare against it)."""

_ATTRIBUTES_MAX = 65536
"""Remembered verified (class, parameters) pairs (cleared when full)."""


def _install_attribute_memo() -> None:
    original = _XDSL_ATTRIBUTE_POST_INIT
    attribute_verify = Attribute._verify
    parametrized_verify = ParametrizedAttribute._verify
    kinds: dict[type, tuple[int, Any]] = {}
    """class -> (_XDSL, None) | (_PARAMETRIZED, parameter field names) | (_DATA, None)"""
    verified: set[tuple[Any, ...]] = set()
    token = [abc.get_cache_token()]

    def kind_of(cls: type) -> tuple[int, Any]:
        if not isinstance(cls, type) or not issubclass(cls, Data | ParametrizedAttribute):
            return _XDSL, None
        if issubclass(cls, ParametrizedAttribute) and cls._verify is parametrized_verify:
            return _PARAMETRIZED, tuple(f for f, _ in cls.get_irdl_definition().parameters)
        if issubclass(cls, Data) and cls._verify is attribute_verify:
            return _DATA, None
        return _XDSL, None

    def post_init(self: Attribute) -> None:
        if token[0] != abc.get_cache_token():  # a register() may change the isinstance answers
            kinds.clear()
            token[0] = abc.get_cache_token()
        cls = type(self)
        kind = kinds.get(cls)
        if kind is None:
            kind = kinds[cls] = kind_of(cls)
            _remember_hashes(cls)
        if kind[0] == _PARAMETRIZED:
            key = (cls, *[getattr(self, f) for f in kind[1]])
            try:
                known = key in verified
            except TypeError:  # an unhashable parameter: no memo
                original(self)
                return
            if not known:
                original(self)  # raises xDSL's error for a bad attribute
                if len(verified) >= _ATTRIBUTES_MAX:
                    verified.clear()
                verified.add(key)
            return
        if kind[0] == _DATA:
            self.verify()
            return
        original(self)

    Attribute.__post_init__ = post_init  # type: ignore[method-assign]


_XDSL, _PARAMETRIZED, _DATA = 0, 1, 2

_HASH_KEY = "_loopopt_hash"
_XDSL_HASHES: dict[type, Any] = {}
"""class -> the dataclass-generated __hash__ replaced on it (tests compare against it)."""


def _remember_hashes(cls: type) -> None:
    """Give `cls` a __hash__ that computes the dataclass one once per instance (the fields of
    an attribute never change; a nested attribute hashed every field, recursively, each time)."""
    generated = cls.__dict__.get("__hash__")
    code = getattr(generated, "__code__", None)
    if cls in _XDSL_HASHES or getattr(code, "co_qualname", "") != "__create_fn__.<locals>.__hash__":
        return  # not dataclass-generated (or already replaced)
    _XDSL_HASHES[cls] = generated

    def __hash__(self: Any) -> int:
        d = self.__dict__
        try:
            return d[_HASH_KEY]
        except KeyError:
            h = d[_HASH_KEY] = generated(self)
            return h

    cls.__hash__ = __hash__  # type: ignore[method-assign]
    if getattr(cls, "__getstate__", None) is object.__getstate__:  # type: ignore[attr-defined]
        cls.__getstate__ = _state_without_hash  # type: ignore[attr-defined]


def _state_without_hash(self: Any) -> dict[str, Any]:
    """What pickle and copy take of an attribute: its fields, not the remembered hash (a
    string's hash differs between processes)."""
    return {k: v for k, v in self.__dict__.items() if k not in _REMEMBERED_KEYS}


_VALUES_KEY = "_loopopt_values"
_REMEMBERED_KEYS = frozenset({_HASH_KEY, _VALUES_KEY})


def _install_dense_array_values() -> None:
    from xdsl.dialects.builtin import DenseArrayBase

    original = DenseArrayBase.get_values
    if original is not _XDSL_GET_VALUES:
        return  # replaced by someone else: left alone

    def get_values(self: Any) -> Any:
        d = self.__dict__
        try:
            return d[_VALUES_KEY]
        except KeyError:
            values = d[_VALUES_KEY] = original(self)  # a tuple: callers cannot change it
            return values

    DenseArrayBase.get_values = get_values  # type: ignore[method-assign]


def _xdsl_get_values() -> Any:
    from xdsl.dialects.builtin import DenseArrayBase

    return DenseArrayBase.get_values


_XDSL_GET_VALUES = _xdsl_get_values()
"""xDSL's own DenseArrayBase.get_values (the fallback; tests compare against it)."""


_XDSL_BLOCK_INSERTION = (ir_core.Block._attach_op, ir_core.Block.add_op, ir_core._unknown_loc)
"""xDSL's own op attachment, block append and unknown location (tests compare against them)."""


def _install_block_insertion() -> None:
    """Every op added to a block (`add_op`, `insert_op_before/after`) is checked by
    `_attach_op` not to contain the block: a walk up the block's ancestors (5-7 steps in a
    lowered kernel) per op. An op without regions contains no block, so for it that walk
    cannot find the op and is skipped; an op with regions is walked as xDSL walks it.
    `add_op` appends as xDSL's does (the same fields, the same errors). `_unknown_loc` (each
    block argument built: an import statement per call) returns the same object directly."""
    block_cls = ir_core.Block
    if (block_cls._attach_op, block_cls.add_op) != _XDSL_BLOCK_INSERTION[:2]:
        return  # replaced by someone else: left alone
    from xdsl.dialects.builtin import UNKNOWN_LOC

    def attach_op(self: Any, operation: Operation) -> None:
        if operation.parent:
            raise ValueError("Can't add to a block an operation already attached to a block.")
        if operation.regions and operation.is_ancestor(self):
            raise ValueError("Can't add an operation to a block contained in the operation.")
        operation.parent = self

    def add_op(self: Any, operation: Operation) -> None:
        attach_op(self, operation)
        last = self._last_op
        if last is None:
            self._first_op = operation
        else:  # last._next_op is None: it is the last op
            operation._prev_op = last
            operation._next_op = None
            last._next_op = operation
        self._last_op = operation

    def unknown_loc() -> Any:
        return UNKNOWN_LOC

    block_cls._attach_op = attach_op  # type: ignore[method-assign]
    block_cls.add_op = add_op  # type: ignore[method-assign]
    ir_core._unknown_loc = unknown_loc  # type: ignore[assignment]


_XDSL_WALK = Operation.walk
"""xDSL's own Operation.walk (the fallback; tests compare against it)."""


def _install_walk() -> None:
    original = _XDSL_WALK

    def walk(self: Operation, *, reverse: bool = False, region_first: bool = False) -> Any:
        if reverse or region_first:
            return original(self, reverse=reverse, region_first=region_first)
        return forward(self)

    def forward(op: Operation) -> Any:
        yield op
        if op.regions:
            yield from nested(op)

    def nested(op: Operation) -> Any:
        # Operation.walk -> Region.walk -> Block.walk -> Operation.walk, one generator per op
        # with regions instead of three per level; each read happens when xDSL's would (the
        # regions after the op is yielded, a block's or op's successor when it is produced)
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if type(child).walk is not walk:  # a class with a walk of its own
                        yield from child.walk()
                        continue
                    yield child
                    if child.regions:
                        yield from nested(child)

    Operation.walk = walk  # type: ignore[method-assign]


def _install_lexer() -> None:
    from xdsl.utils.lexer import Span, Token
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    original = MLIRLexer.lex
    eof = MLIRTokenKind.EOF
    punctuation = {  # xDSL 0.74's `single_char_punctuation` in MLIRLexer.lex
        ":": MLIRTokenKind.COLON,
        ",": MLIRTokenKind.COMMA,
        "(": MLIRTokenKind.L_PAREN,
        ")": MLIRTokenKind.R_PAREN,
        "}": MLIRTokenKind.R_BRACE,
        "[": MLIRTokenKind.L_SQUARE,
        "]": MLIRTokenKind.R_SQUARE,
        "<": MLIRTokenKind.LESS,
        ">": MLIRTokenKind.GREATER,
        "=": MLIRTokenKind.EQUAL,
        "+": MLIRTokenKind.PLUS,
        "/": MLIRTokenKind.SLASH,
        "*": MLIRTokenKind.STAR,
        "?": MLIRTokenKind.QUESTION,
        "|": MLIRTokenKind.VERTICAL_BAR,
    }

    prefixed = {"%": MLIRTokenKind.PERCENT_IDENT, "^": MLIRTokenKind.CARET_IDENT, "!": MLIRTokenKind.EXCLAMATION_IDENT}
    whitespace = MLIRLexer._whitespace_regex.match
    bare_suffix = MLIRLexer.bare_identifier_suffix_regex.match
    suffix_id = MLIRLexer._suffix_id.match
    bare = MLIRTokenKind.BARE_IDENT
    own = frozenset({"_whitespace_regex", "bare_identifier_suffix_regex", "_suffix_id"})
    """The class's expressions used inline: a lexer given its own takes xDSL's steps."""

    new = object.__new__
    plain_span = Span.__init__ is _XDSL_SPAN_INIT  # else (replaced by someone else) through it

    def span(start: int, end: int, inp: Any) -> Any:
        """`Span(start, end, inp)`: the fields its frozen dataclass `__init__` sets (through
        `object.__setattr__`, one call each), in the same order, into the new span's dict."""
        if not plain_span:
            return Span(start, end, inp)
        s = new(Span)
        d = s.__dict__
        d["start"] = start
        d["end"] = end
        d["input"] = inp
        d["line_offset"] = 0
        return s

    def lex(self: Any) -> Any:
        if type(self) is not MLIRLexer or type(content := self.input.content) is not str or not own.isdisjoint(self.__dict__):
            return lex_steps(self)
        inp = self.input
        pos = whitespace(content, self.pos).end()  # the pattern matches empty text too
        if pos >= inp.len:
            self.pos = pos
            return original(self)  # end of input: xDSL's token
        c = content[pos]
        if c.isalpha() or c == "_":
            end = bare_suffix(content, pos + 1).end()  # `[...]*`: always matches
            self.pos = end
            return Token(bare, span(pos, end, inp))
        kind = punctuation.get(c)
        if kind is not None:
            self.pos = pos + 1
            return Token(kind, span(pos, pos + 1, inp))
        kind = prefixed.get(c)
        if kind is not None and (m := suffix_id(content, pos + 1)) is not None:
            self.pos = m.end()
            return Token(kind, span(pos, self.pos, inp))
        self.pos = pos  # anything else (and every error) by xDSL's code, from the same position
        return original(self)

    def lex_steps(self: Any) -> Any:
        """A subclass or bytes input: xDSL's steps (its methods, which a subclass may override)."""
        self._consume_whitespace()
        start_pos = self.pos
        current_char = self._get_chars()
        if current_char is None:
            return self._form_token(eof, start_pos)
        if current_char.isalpha() or current_char == "_":
            return self._lex_bare_identifier(start_pos)
        kind = punctuation.get(current_char)
        if kind is not None:
            return self._form_token(kind, start_pos)
        self.pos = start_pos  # the rest from the same position, by xDSL's code
        return original(self)

    lex.__wrapped__ = original  # type: ignore[attr-defined]
    MLIRLexer.lex = lex  # type: ignore[method-assign]


def _xdsl_span_init() -> Any:
    from xdsl.utils.lexer import Span

    return Span.__init__


_XDSL_SPAN_INIT = _xdsl_span_init()
"""xDSL's dataclass `Span.__init__` (the lexer builds spans without it only while it is in place)."""


def _install_parser_tokens() -> None:
    from xdsl.parser.base_parser import BaseParser
    from xdsl.parser.generic_parser import GenericParser
    from xdsl.utils.mlir_lexer import KIND_BY_PUNCTUATION_SPELLING

    if (GenericParser._consume_token, GenericParser._parse_optional_token, GenericParser.parse_optional_characters,
            BaseParser.parse_optional_punctuation, BaseParser.parse_punctuation) != _XDSL_PARSER_TOKENS:  # fmt: skip
        return  # replaced by someone else: left alone

    def _consume_token(self: Any, expected_kind: Any = None) -> Any:
        state = self._parser_state
        consumed_token = state.current_token
        assert expected_kind is None or consumed_token.kind == expected_kind, (
            f"Unexpected token {consumed_token}, expected {expected_kind}"
        )
        state.current_token = state.lexer.lex()
        return consumed_token

    def _parse_optional_token(self: Any, expected_kind: Any) -> Any:
        state = self._parser_state
        consumed_token = state.current_token
        if consumed_token.kind == expected_kind:
            state.current_token = state.lexer.lex()
            return consumed_token
        return None

    def parse_optional_characters(self: Any, text: str) -> str | None:
        state = self._parser_state
        span = state.current_token.span
        content = span.input.content
        if type(content) is str:
            same = span.end - span.start == len(text) and content.startswith(text, span.start)
        else:
            same = span.text == text  # bytes input: xDSL's decoding
        if same:
            state.current_token = state.lexer.lex()
            return text
        return None

    def parse_optional_punctuation(self: Any, punctuation: Any) -> Any:
        assert punctuation in KIND_BY_PUNCTUATION_SPELLING, (
            "'parse_optional_punctuation' must be called with a valid punctuation"
        )
        if _parse_optional_token(self, KIND_BY_PUNCTUATION_SPELLING[punctuation]) is not None:
            return punctuation
        return None

    def parse_punctuation(self: Any, punctuation: Any, context_msg: str = "") -> Any:
        assert punctuation in KIND_BY_PUNCTUATION_SPELLING, "'parse_punctuation' must be called with a valid punctuation"
        if _parse_optional_token(self, KIND_BY_PUNCTUATION_SPELLING[punctuation]) is None:
            self.raise_error(f"Expected '{punctuation}'" + context_msg, self._current_token.span)
        return punctuation

    GenericParser._consume_token = _consume_token  # type: ignore[method-assign]
    GenericParser._parse_optional_token = _parse_optional_token  # type: ignore[method-assign]
    GenericParser.parse_optional_characters = parse_optional_characters  # type: ignore[method-assign]
    BaseParser.parse_optional_punctuation = parse_optional_punctuation  # type: ignore[method-assign]
    BaseParser.parse_punctuation = parse_punctuation  # type: ignore[method-assign]


def _xdsl_parser_tokens() -> tuple[Any, ...]:
    from xdsl.parser.base_parser import BaseParser
    from xdsl.parser.generic_parser import GenericParser

    return (GenericParser._consume_token, GenericParser._parse_optional_token, GenericParser.parse_optional_characters,
            BaseParser.parse_optional_punctuation, BaseParser.parse_punctuation)  # fmt: skip


_XDSL_PARSER_TOKENS = _xdsl_parser_tokens()
"""xDSL's own token readers of the parser (the fallback; tests compare against them)."""


def install() -> None:
    """Install the fast paths into xDSL's classes (once per process), unless opted out."""
    global _installed
    if _installed or opted_out():
        return
    _installed = True
    _install_trait_memos()
    _install_signature_cache()
    _install_isolated_check()
    _install_operation_verify()
    _install_dense_array_values()
    _install_op_init()
    _install_readers()
    _install_operation_init()
    _install_irdl_post_init()
    _install_name_memo()
    _install_attribute_memo()
    _install_walk()
    _install_block_insertion()
    _install_lexer()
    _install_parser_tokens()
    from loopopt import parse_fastpaths

    parse_fastpaths.install()
