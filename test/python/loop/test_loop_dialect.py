"""The loop dialect's Python API: builders, affine accesses, LoopLike, neutral elements, effects."""

from __future__ import annotations

import math

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, f32, f64, i1, i32, i64
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryEffectKind, get_effects, is_side_effect_free
from xdsl.utils.test_value import create_ssa_value

from loopopt.dialects.loop import (
    AccKind,
    AccumAttr,
    Affine,
    BufType,
    DimOp,
    ForOp,
    LoadOp,
    Loop,
    LoopLike,
    PredLoopOp,
    StoreOp,
    WidthAttr,
    YieldOp,
    ZipOp,
    neutral_attr,
    neutral_element,
)


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, func.Func, Loop):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def printed(op) -> str:
    import io

    out = io.StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


# --------------------------------------------------------------------------- affine


def test_affine_normalized_merges_and_drops():
    i, j = create_ssa_value(IndexType()), create_ssa_value(IndexType())
    a = Affine.var(i, 2) + Affine.var(j) + Affine.var(i, -2) + Affine.var(i) + 3
    assert a.normalized() == ({j: 1, i: 1}, 3)
    assert a.coeff(i) == 1 and a.coeff(j) == 1
    assert Affine.var(i, 0).normalized() == ({}, 0)
    assert (2 * (Affine.var(i) + 1)).normalized() == ({i: 2}, 2)
    assert a.same_as(Affine.var(j) + Affine.var(i) + 3)
    assert not a.same_as(Affine.var(j) + 3)


def test_affine_substitute_and_evaluate():
    i, t, lane = (create_ssa_value(IndexType()) for _ in range(3))
    a = Affine.var(i, 2) + 1
    tiled = a.substitute(i, Affine.var(t, 8) + Affine.var(lane))
    assert tiled.normalized() == ({t: 16, lane: 2}, 1)
    assert tiled.evaluate({t: 3, lane: 5}) == 2 * (3 * 8 + 5) + 1


def test_access_built_in_python_round_trips():
    text = """
    func.func @f(%b: !loop.buf<f32, 2>, %i: index, %j: index) {
      %x = loop.load %b[2 * %i + 1, %j - %i - 4] : !loop.buf<f32, 2>
      loop.store %x, %b[%i, 0] : !loop.buf<f32, 2>
      func.return
    }
    """
    module = parse(text)
    load = next(op for op in module.walk() if isinstance(op, LoadOp))
    store = next(op for op in module.walk() if isinstance(op, StoreOp))
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    b, i, j = fn.body.block.args
    assert load.normalized_indices() == [({i: 2}, 1), ({j: 1, i: -1}, -4)]
    assert store.normalized_indices() == [({i: 1}, 0), ({}, 0)]
    # The builder makes the same op.
    rebuilt = LoadOp(b, [Affine.var(i, 2) + 1, Affine.var(j) + Affine.var(i, -1) + (-4)])
    rebuilt.verify()
    assert rebuilt.result.type == f32
    assert rebuilt.properties == load.properties
    assert list(rebuilt.indices) == list(load.indices)


# --------------------------------------------------------------------------- loops

ALL = """
func.func @f(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %s3: index, %z: f32) -> (f32, index, f32) {
  %c0 = arith.constant 0 : index
  %r:2 = loop.for %i in range(%c0, %n, %s3) accs(%a = %z : f32 add reassoc, %m = %z : f32 max) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
    %t = arith.addf %a, %x : f32
    %u = arith.maximumf %m, %x : f32
    loop.yield %t, %u : f32, f32
  }
  %cnt = loop.predloop %i in [%c0, %n) width(W) tail(masked) mask(unset) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.append %x, %o : !loop.buf<f32>
  }
  %d = loop.zip %i in [%c0, %n) streams(%x = %b : !loop.buf<f32>) accs(%a = %z : f32 mul) {
    %t = arith.mulf %a, %x : f32
    loop.yield %t : f32
  }
  func.return %r#0, %cnt, %d : f32, index, f32
}
"""


def test_looplike_accessors():
    module = parse(ALL)
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    b, o, n, s3, z = fn.body.block.args
    for_op, pred_op, zip_op = (op for op in module.walk() if isinstance(op, LoopLike))
    assert isinstance(for_op, ForOp) and not for_op.is_interval
    assert for_op.upper is n and for_op.step is s3
    assert [(a.kind, a.reassoc, a.init) for a in for_op.accumulators] == [
        (AccKind.ADD, True, z),
        (AccKind.MAX, False, z),
    ]
    accs = for_op.accumulators
    assert accs[0].arg is for_op.body_block.args[1] and accs[0].result is for_op.res[0]
    assert accs[0].next is for_op.yield_op.values[0]
    assert for_op.var is for_op.body_block.args[0]

    assert isinstance(pred_op, PredLoopOp) and pred_op.is_interval and pred_op.step is None
    assert pred_op.width.is_symbolic and pred_op.width.concrete is None
    assert pred_op.count is pred_op.res[0] and pred_op.accumulators == []
    assert pred_op.pred_var is not pred_op.var

    assert isinstance(zip_op, ZipOp)
    assert [a.type for a in zip_op.stream_args] == [f32]
    assert zip_op.accumulators[0].arg is zip_op.body_block.args[2]


def test_effects_name_their_buffers():
    module = parse(ALL)
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    b, o = fn.body.block.args[:2]
    for_op, pred_op, zip_op = (op for op in module.walk() if isinstance(op, LoopLike))
    effects = {(e.kind, e.value) for e in get_effects(for_op)}
    assert effects == {(MemoryEffectKind.READ, b), (MemoryEffectKind.WRITE, o)}
    assert {(e.kind, e.value) for e in get_effects(pred_op)} == {(MemoryEffectKind.READ, b), (MemoryEffectKind.WRITE, o)}
    assert {(e.kind, e.value) for e in get_effects(zip_op)} == {(MemoryEffectKind.READ, b)}
    assert is_side_effect_free(DimOp(b, 0))


def test_for_built_in_python():
    buf = create_ssa_value(BufType(f64))
    lo, hi, init = create_ssa_value(IndexType()), create_ssa_value(IndexType()), create_ssa_value(f64)
    body = Block(arg_types=[IndexType(), f64])
    i, acc = body.args
    load = LoadOp(buf, [Affine.var(i)])
    add = arith.AddfOp(acc, load.result)
    body.add_ops([load, add, YieldOp(add.result)])
    op = ForOp([lo, hi], [init], [AccumAttr(AccKind.ADD, reassoc=True)], body)
    op.verify()
    assert op.res[0].type == f64 and op.is_interval
    assert "accs(%" in printed(op) and "f64 add reassoc" in printed(op)


# --------------------------------------------------------------------------- attributes


@pytest.mark.parametrize(
    "kind,t,value",
    [
        (AccKind.ADD, f32, 0.0),
        (AccKind.MUL, f64, 1.0),
        (AccKind.MIN, f32, math.inf),
        (AccKind.MAX, f64, -math.inf),
        (AccKind.MIN, i32, 2**31 - 1),
        (AccKind.MAX, i64, -(2**63)),
        (AccKind.AND, i32, -1),
        (AccKind.OR, i64, 0),
        (AccKind.AND, i1, True),
        (AccKind.OR, i1, False),
        (AccKind.MIN, IndexType(), 2**63 - 1),
    ],
)
def test_neutral_element(kind, t, value):
    assert neutral_element(kind, t) == value


def test_neutral_element_errors_and_attrs():
    with pytest.raises(ValueError, match="custom"):
        neutral_element(AccKind.CUSTOM, f32)
    with pytest.raises(ValueError, match="and has no neutral element on f32"):
        neutral_element(AccKind.AND, f32)
    assert neutral_attr(AccKind.MAX, f32) == FloatAttr(-math.inf, f32)
    assert neutral_attr(AccKind.AND, i32) == IntegerAttr(-1, i32)
    assert neutral_attr(AccKind.AND, i1) == IntegerAttr(1, i1)


def test_width_attr():
    assert WidthAttr().is_symbolic and WidthAttr().spelling == "W"
    assert WidthAttr(8).concrete == 8 and not WidthAttr(8).is_symbolic
