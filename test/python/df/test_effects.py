"""Effects that fusion legality relies on: pure df nodes, df.random, bodies, decl_ref."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.traits import is_speculatable as xdsl_is_speculatable

from loopopt.dialects.df import DF

PROGRAM = """
func.func private @ext(f32) -> f32
func.func @pure(%x: !df.array<f32, [i]>) -> f32 {
  %z = df.constant 0.0 : f32
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %d = arith.mulf %e, %e : f32
    df.yield %d : f32
  }
  %s = df.reduce add(%m, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @calls(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %d = func.call @ext(%e) : (f32) -> f32
    df.yield %d : f32
  }
  func.return %m : !df.array<f32, [i]>
}
func.func @rng(%n: i64) -> !df.array<f32, [i]> {
  %r = df.random %n : !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}
func.func @refs(%x: !df.array<f32, [i]>, %n: i64) -> (f32, !df.array<f32, [i]>) {
  %a = df.decl_ref @pure(%x) : (!df.array<f32, [i]>) -> f32
  %b = df.decl_ref @rng(%n) : (i64) -> !df.array<f32, [i]>
  func.return %a, %b : f32, !df.array<f32, [i]>
}
"""


def _module():
    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, DF):
        ctx.load_dialect(d)
    module = Parser(ctx, PROGRAM).parse_module()
    module.verify()
    return module


def _ops(module, name):
    return [op for op in module.walk() if op.name == name]


def test_pure_nodes_and_bodies_are_side_effect_free():
    pure = next(op for op in _module().walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "pure")
    df_ops = [op for op in pure.walk() if op.name.startswith("df.")]
    assert {op.name for op in df_ops} == {"df.constant", "df.map", "df.reduce", "df.yield"}
    assert all(is_side_effect_free(op) for op in df_ops)


def test_random_reads_and_writes_the_rng():
    (rnd,) = _ops(_module(), "df.random")
    kinds = {e.kind for e in get_effects(rnd)}
    assert kinds == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}


def test_a_call_in_a_body_is_an_unknown_effect():
    m = _module()
    map_with_call = next(op for op in _ops(m, "df.map") if _ops(op, "func.call"))
    assert get_effects(map_with_call) is None


def test_decl_ref_has_the_effects_of_its_declaration():
    pure_ref, rng_ref = _ops(_module(), "df.decl_ref")
    assert is_side_effect_free(pure_ref)
    assert {e.kind for e in get_effects(rng_ref)} == {MemoryEffectKind.READ, MemoryEffectKind.WRITE}


CASTS_AND_DIVISIONS = """
func.func @widen(%e: i32) -> i64 {
  %s = arith.extsi %e : i32 to i64
  func.return %s : i64
}
func.func @ops(%a: i32, %b: i32) -> (i64, i32, i32, i32, i64) {
  %s = arith.extsi %a : i32 to i64
  %r = arith.remui %a, %b : i32
  %d = arith.divsi %a, %b : i32
  %u = arith.ceildivui %a, %b : i32
  %w = df.decl_ref @widen(%a) : (i32) -> i64
  func.return %s, %r, %d, %u, %w : i64, i32, i32, i32, i64
}
"""


def test_arith_is_effect_free_and_never_traps_in_loopopt():
    """xDSL gives arith.extsi and arith.remui no effect trait and calls the divisions
    unspeculatable; loopopt's arith is total (docs/integer_semantics.md), so
    dialects/effects.py says effect-free and speculatable, for a decl_ref through its body too."""
    from loopopt.dialects.effects import effects_of, is_speculatable

    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, DF):
        ctx.load_dialect(d)
    module = Parser(ctx, CASTS_AND_DIVISIONS).parse_module()
    module.verify()
    ops = {op.name: op for op in module.walk() if op.name.startswith(("arith.", "df."))}
    assert get_effects(ops["arith.extsi"]) is None and not xdsl_is_speculatable(ops["arith.divsi"])
    for name in ("arith.extsi", "arith.remui", "arith.divsi", "arith.ceildivui", "df.decl_ref"):
        assert effects_of(ops[name]) == frozenset(), name
    for name in ("arith.extsi", "arith.remui", "arith.divsi", "arith.ceildivui"):
        assert is_speculatable(ops[name]), name


def test_a_foreign_division_stays_unspeculatable():
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import i32
    from xdsl.utils.test_value import create_ssa_value

    from loopopt.dialects.effects import effects_of, is_speculatable

    sdiv = llvm.SDivOp(create_ssa_value(i32), create_ssa_value(i32))
    assert effects_of(sdiv) == frozenset() and not is_speculatable(sdiv)
