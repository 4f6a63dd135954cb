"""Attributes: verified (class, parameters) pairs, hashes and dense array values remembered.

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

`DenseArrayBase.get_values` unpacks the array's bytes with `struct` (a format string built from
the element type) on every call; every accessor of an op with variadic operand segments (a
loop's `bounds`, `inits`, ...) reads its `operandSegmentSizes` through it, ~10 times per loop
verified. The tuple is remembered in the attribute's `__dict__` (its bytes never change; copies
and pickles leave it out, as the remembered hash).
"""

from __future__ import annotations

import abc
from typing import Any

from xdsl.ir import Attribute, Data, ParametrizedAttribute


_XDSL_ATTRIBUTE_POST_INIT = Attribute.__post_init__
"""xDSL's own attribute verification on construction (the fallback; tests compare against it)."""

_ATTRIBUTES_MAX = 65536
"""Remembered verified (class, parameters) pairs (cleared when full)."""


def install_attribute_memo() -> None:
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


def install_dense_array_values() -> None:
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
