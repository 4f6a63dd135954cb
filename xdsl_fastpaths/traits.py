"""Trait lookups remembered per op class.

Every pass asks an op's class for its traits (`has_trait`, `get_traits_of_type`: the effect
queries of DCE, CSE and the rewriter ask several per op visit), and xDSL answers by scanning
the class's trait set with `isinstance` through `ABCMeta` each time. The answer depends only on
the class and its trait set, so it is remembered per (class, query) and recomputed when the set
changes (`OpTraits.add_trait` makes a new frozenset).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation


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


def install_trait_memos() -> None:
    get_trait = Operation.get_trait.__func__  # type: ignore[attr-defined]
    of_type = Operation.get_traits_of_type.__func__  # type: ignore[attr-defined]
    cached_get = _trait_memo(get_trait, {})
    cached_of_type = _trait_memo(lambda cls, t: tuple(of_type(cls, t)), {})
    Operation.get_trait = classmethod(cached_get)  # type: ignore[method-assign]
    Operation.get_traits_of_type = classmethod(  # type: ignore[method-assign]
        lambda cls, trait_type: list(cached_of_type(cls, trait_type))
    )
