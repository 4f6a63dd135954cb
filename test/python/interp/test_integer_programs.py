"""Integer semantics end to end: loop-simplify's folding, df.map bodies (whole arrays) and
loop.for bodies (one numpy scalar at a time) all give the Python-int reference values
(docs/integer_semantics.md), and division by zero or MIN / -1 in a kernel is a value, not an
interpreter error."""

from __future__ import annotations

import numpy as np
import pytest
from test_integer_semantics import (
    INT_TYPES,
    REF_BINARY,
    REF_CMPI,
    TYPE_IDS,
    corner_values,
    from_numpy,
    signed,
    to_numpy,
    width,
)
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1, i32
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import InterpretationError

from loopopt.compile import parse
from loopopt.interp.runner import run_function
from loopopt.passes.loop_simplify import LoopSimplifyPass

pytestmark = pytest.mark.filterwarnings("error")


def _folding_module(t, pairs):
    """@f() returns every binary op and cmpi predicate of every pair of constants."""
    block = Block()
    results, expected = [], []
    for a, b in pairs:
        ca = arith.ConstantOp(IntegerAttr(a, t))
        cb = arith.ConstantOp(IntegerAttr(b, t))
        block.add_ops([ca, cb])
        for op_class, ref in REF_BINARY.items():
            op = op_class(ca, cb)
            block.add_op(op)
            results.append(op.results[0])
            expected.append((f"{op.name}({a}, {b})", signed(ref(a, b, width(t)), width(t))))
        for pred, ref in REF_CMPI.items():
            op = arith.CmpiOp(ca, cb, pred)
            block.add_op(op)
            results.append(op.results[0])
            expected.append((f"cmpi {pred}({a}, {b})", -1 if ref(a, b, width(t)) else 0))
    block.add_op(func.ReturnOp(*results))
    f = func.FuncOp("f", ([], [r.type for r in results]), Region(block))
    return ModuleOp([f]), f, expected


@pytest.mark.parametrize("t", INT_TYPES, ids=TYPE_IDS)
def test_folding_equals_the_reference(t):
    """loop-simplify folds every op on all pairs of MIN, -1, 0, 1, MAX and the width (a shift
    amount) to exactly the reference value (the other pairs: test_integer_semantics, same path)."""
    w = width(t)
    picks = sorted({signed(v, w) for v in (-(2 ** (w - 1)), -1, 0, 1, 2 ** (w - 1) - 1, w)})
    pairs = [(a, b) for a in picks for b in picks]
    module, f, expected = _folding_module(t, pairs)
    LoopSimplifyPass().apply(Context(), module)
    returned = f.body.block.last_op.operands
    assert len(returned) == len(expected)
    for value, (what, want) in zip(returned, expected):
        owner = value.owner
        assert isinstance(owner, arith.ConstantOp), f"{what} was not folded: {owner.name}"
        got = owner.value.value.data
        if owner.result.type == i1:
            got = -1 if got else 0
        assert got == want, f"{what} : {t} folded to {got}, expected {want}"


DIVISIONS = """
func.func @divs(%a: !df.array<i32, [i]>, %b: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]>) {
  %q = df.map %a, %b : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%x: i32, %y: i32):
    %v = arith.divsi %x, %y : i32
    df.yield %v : i32
  }
  %r = df.map %a, %b : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%x: i32, %y: i32):
    %v = arith.remsi %x, %y : i32
    df.yield %v : i32
  }
  %f = df.map %a, %b : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%x: i32, %y: i32):
    %v = arith.floordivsi %x, %y : i32
    df.yield %v : i32
  }
  %s = df.map %a, %b : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%x: i32, %y: i32):
    %v = arith.shrsi %x, %y : i32
    df.yield %v : i32
  }
  func.return %q, %r, %f, %s : !df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]>
}
"""

LOOP_DIVISIONS = """
func.func @divs(%a: !loop.buf<i32>, %b: !loop.buf<i32>, %q: !loop.buf<i32>, %r: !loop.buf<i32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<i32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    %y = loop.load %b[%i] : !loop.buf<i32>
    %d = arith.divsi %x, %y : i32
    %m = arith.remsi %x, %y : i32
    loop.store %d, %q[%i] : !loop.buf<i32>
    loop.store %m, %r[%i] : !loop.buf<i32>
  }
  func.return
}
"""


def _corner_pairs():
    corners = corner_values(32)
    a = [p for p in corners for _ in corners]
    b = [q for _ in corners for q in corners]
    return a, b


def test_df_map_divisions_on_whole_arrays():
    a, b = _corner_pairs()
    q, r, f, s = run_function(parse(DIVISIONS), "divs", to_numpy(a, i32), to_numpy(b, i32))
    for name, got in (("divsi", q), ("remsi", r), ("floordivsi", f), ("shrsi", s)):
        ref = next(v for k, v in REF_BINARY.items() if k.name == f"arith.{name}")
        assert got.dtype == np.int32
        assert from_numpy(got, i32) == [signed(ref(x, y, 32), 32) for x, y in zip(a, b)], name


def test_loop_for_divisions_one_scalar_at_a_time():
    a, b = _corner_pairs()
    q, r = np.zeros(len(a), np.int32), np.zeros(len(a), np.int32)
    run_function(parse(LOOP_DIVISIONS), "divs", to_numpy(a, i32), to_numpy(b, i32), q, r)
    assert from_numpy(q, i32) == [signed(REF_BINARY[arith.DivSIOp](x, y, 32), 32) for x, y in zip(a, b)]
    assert from_numpy(r, i32) == [signed(REF_BINARY[arith.RemSIOp](x, y, 32), 32) for x, y in zip(a, b)]
    assert -(2**31) in a and -1 in b and 0 in b


def test_out_of_range_argument_is_an_interpretation_error():
    module = parse("func.func @f(%x: i32) -> i32 {\n  func.return %x : i32\n}")
    assert run_function(module, "f", -1) == (np.int32(-1),)
    with pytest.raises(InterpretationError, match=r"@f argument #0 \(i32\)"):
        run_function(module, "f", 2**40)
