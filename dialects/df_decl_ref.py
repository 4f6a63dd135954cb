"""`df.decl_ref`: the result(s) of another kernel (a `func.func`) applied to some arguments.

Its verifier looks the declaration up in the symbol table and checks the signature; its effects
are the effects of the declaration's body (unknown for a recursive or missing one), so a
reference to an effectful kernel blocks fusion like the kernel's own ops would.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FlatSymbolRefAttr, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, traits_def, var_operand_def, var_result_def
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    SymbolTable,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from loopopt.dialects.df_verify import types_text
from loopopt.dialects.effects import effects_of


class DeclRefSymbolUse(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, DeclRefOp)
        callee = SymbolTable.lookup_symbol(op, op.decl)
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"df.decl_ref: {op.decl} is not a func.func in the symbol table")
        ft = callee.function_type
        found_in, found_out = list(op.args.types), list(op.outputs.types)
        if list(ft.inputs) != found_in:
            raise VerifyException(
                f"df.decl_ref {op.decl} arguments have types {types_text(found_in)}, "
                f"expected {types_text(ft.inputs)}"
            )
        if list(ft.outputs) != found_out:
            raise VerifyException(
                f"df.decl_ref {op.decl} results have types {types_text(found_out)}, "
                f"expected {types_text(ft.outputs)}"
            )


class DeclRefEffects(MemoryEffect):
    """A decl_ref has the effects of the body of the declaration it references."""

    _in_progress: set[int] = set()
    """Declarations whose effects are being computed (a cycle means unknown effects)."""

    @classmethod
    def get_effects(cls, op: Operation):
        assert isinstance(op, DeclRefOp)
        callee = SymbolTable.lookup_symbol(op, op.decl)
        if not isinstance(callee, FuncOp) or id(callee) in cls._in_progress:
            return None  # unknown declaration, or recursion: unknown effects
        cls._in_progress.add(id(callee))
        try:
            effects: set[EffectInstance] = set()
            for block in callee.body.blocks:
                for inner in block.ops:  # nested ops count through their parents' effects
                    if inner.has_trait(IsTerminator):
                        continue
                    e = effects_of(inner)
                    if e is None:
                        return None
                    effects |= set(e)
            return frozenset(effects)
        finally:
            cls._in_progress.discard(id(callee))


@irdl_op_definition
class DeclRefOp(IRDLOperation):
    """The result(s) of another declaration (a func.func kernel) applied to `args`.

    `%m = df.decl_ref @mean(%x) : (!df.array<f32, [i]>) -> f32`
    """

    name = "df.decl_ref"

    decl = prop_def(SymbolRefAttr)
    """The referenced func.func."""
    args = var_operand_def()
    outputs = var_result_def()

    traits = traits_def(DeclRefSymbolUse(), DeclRefEffects())

    assembly_format = "$decl `(` $args `)` attr-dict `:` functional-type($args, $outputs)"

    def __init__(self, decl: str | SymbolRefAttr, args: Sequence[SSAValue], result_types: Sequence[Attribute]):
        ref = FlatSymbolRefAttr(decl) if isinstance(decl, str) else decl
        super().__init__(operands=[args], result_types=[result_types], properties={"decl": ref})
