"""Building ops: `irdl_op_init`, `Operation.__init__`, `IRDLOperation.__post_init__`, name hints.

`irdl_op_init` (every `SomeOp(...)` built through its `__init__`) turns each operand and
result argument into a list, asking `isinstance(arg, Sequence)` (an ABC: `ABCMeta` in Python),
`isinstance(def, OptionalDef)` per definition, and formats an error prefix it rarely uses:
~15 µs per op beyond `Op.create`. For an op definition without options (no segment sizes),
regions or successors the same lists are built from the definitions' kinds (remembered per
`OpDef`) and a per-type answer to the `Sequence` test (forgotten when `abc`'s cache token
changes, i.e. after any `register`); anything the fast path does not build the same way —
a None for a required argument, a wrong count, regions — goes to xDSL's function, which
raises its own error.

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
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import operations as irdl_operations
from xdsl.ir import core as ir_core
from xdsl.irdl.operations import OpDef, OptionalDef, VariadicDef


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


def install_op_init() -> None:
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


_XDSL_OPERATION_INIT = Operation.__init__
"""xDSL's own Operation.__init__ (the fallback; tests compare against it)."""


def install_operation_init() -> None:
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


def install_name_memo() -> None:
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


def install_irdl_post_init() -> None:
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
