"""Hand-written Loop IR programs run by the loop interpreter and compared with numpy.

Sizes sweep across the vector width (0, 1, W-1, W, W+1, 1000) so that full blocks, scalar
and masked tails and empty loops all run; float reductions that allow reassociation are
compared with a tolerance, everything else exactly.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, math
from xdsl.interpreter import Interpreter
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.parser import Parser
from xdsl.utils.exceptions import InterpretationError

from loopopt.dialects.loop import Loop
from loopopt.interp.lanewise import LanewiseArithFunctions
from loopopt.interp.loop import LoopFunctions

RNG = np.random.default_rng(0)


def parse(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, arith.Arith, math.Math, func.Func, Loop):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def run(text: str, name: str, *args, width: int = 4):
    """Call @name with `args`; a symbolic width runs with `width` lanes."""
    interpreter = Interpreter(parse(text))
    for functions in (LanewiseArithFunctions(), FuncFunctions(), BuiltinFunctions(), LoopFunctions(width)):
        interpreter.register_implementations(functions)
    return interpreter.call_op(name, args)


def sizes(w: int) -> list[int]:
    return sorted({0, 1, w - 1, w, w + 1, 1000})


# --------------------------------------------------------------------------- loop.for

SUM_FOR = """
func.func @sum(%b: !loop.buf<f32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
"""


@pytest.mark.parametrize("n", [0, 1, 7, 100])
def test_for_sum_is_sequential(n):
    x = RNG.standard_normal(n).astype(np.float32)
    (s,) = run(SUM_FOR, "sum", x, np.float32(0.5))
    expected = np.add.accumulate(np.concatenate([[np.float32(0.5)], x]))[-1]
    assert isinstance(s, np.float32)
    assert s == expected


MAP_FOR = """
func.func @map(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %a : f32
    %z = arith.addf %y, %a : f32
    loop.store %z, %o[%i] : !loop.buf<f32>
  }
  func.return
}
"""


def test_for_map_store():
    x = RNG.standard_normal(37).astype(np.float32)
    o = np.zeros_like(x)
    run(MAP_FOR, "map", x, o, np.float32(3))
    np.testing.assert_array_equal(o, x * np.float32(3) + np.float32(3))


CALL_DIM = """
func.func @whole(%b: !loop.buf<f32>) -> index attributes {loop.parallel = {}} {
  %n = loop.call_dim %b : !loop.buf<f32>
  func.return %n : index
}
"""


@pytest.mark.parametrize("n", [0, 1, 37])
def test_call_dim_is_the_length_when_run_unsplit(n):
    """The interpreter runs a parallel kernel as one call: the whole call's length is the buffer's."""
    (got,) = run(CALL_DIM, "whole", np.zeros(n, np.float32))
    assert got == n


RANGE_STEP = """
func.func @strided(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %start: index, %end: index, %step: index) -> i32 {
  %z = arith.constant 0 : i32
  %s = loop.for %i in range(%start, %end, %step) accs(%acc = %z : i32 add) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    loop.store %x, %o[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}
"""


@pytest.mark.parametrize("start,end,step", [(0, 20, 3), (1, 20, 3), (2, 3, 3), (5, 5, 3), (19, -1, -3), (0, 20, -3)])
def test_range_desc_step(start, end, step):
    x = np.arange(100, 120, dtype=np.int32)
    o = np.zeros_like(x)
    (s,) = run(RANGE_STEP, "strided", x, o, np.int64(start), np.int64(end), np.int64(step))
    idx = list(range(start, end, step))
    assert s == x[idx].sum(dtype=np.int32)
    expected = np.zeros_like(x)
    expected[idx] = x[idx]
    np.testing.assert_array_equal(o, expected)


ROWS = """
func.func @row_sums(%m: !loop.buf<i64, 2>, %o: !loop.buf<i64>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %r = loop.dim %m, 0 : !loop.buf<i64, 2>
  %c = loop.dim %m, 1 : !loop.buf<i64, 2>
  loop.for %i in [%c0, %r) {
    %s = loop.vecloop %j in [%c0, %c) width(W) tail(scalar) accs(%acc = %z : i64 add) {
      %x = loop.load %m[%i, %j] : !loop.buf<i64, 2>
      %t = arith.addi %acc, %x : i64
      loop.yield %t : i64
    }
    loop.store %s, %o[%i] : !loop.buf<i64>
  }
  func.return
}
"""


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (5, 9), (4, 16)])
def test_rank2_row_reduction(shape):
    m = RNG.integers(-1000, 1000, shape).astype(np.int64)
    o = np.zeros(shape[0], np.int64)
    run(ROWS, "row_sums", m, o, width=4)
    np.testing.assert_array_equal(o, m.sum(axis=1))


# --------------------------------------------------------------------------- loop.vecloop

VEC_SUM = """
func.func @vsum(%b: !loop.buf<f32>, %init: f32) -> f32 {{
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.vecloop %i in [%c0, %n) width({width}) tail({tail}) accs(%acc = %init : f32 add reassoc) {{
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }}
  func.return %s : f32
}}
"""


@pytest.mark.parametrize("tail", ["scalar", "masked"])
@pytest.mark.parametrize("w", [4, 8])
def test_vecloop_sum_tails(tail, w):
    for n in sizes(w):
        x = RNG.standard_normal(n).astype(np.float32)
        (s,) = run(VEC_SUM.format(width=w, tail=tail), "vsum", x, np.float32(1))
        assert isinstance(s, np.float32)
        np.testing.assert_allclose(s, np.float32(1) + x.sum(dtype=np.float64), rtol=1e-5, atol=1e-4)


def test_vecloop_lane_order_and_init():
    # W = 4, 10 elements: two full blocks, then a scalar tail of 2. The lanes start at 0 and
    # hold x[k] + x[k+4]; they are summed in lane order, added to the init, and the tail
    # continues from there: ((0.5 + (0 + 2 + 2 + 2)) + 2) + 3 = 11.5. A sequential f32 sum
    # would absorb the small terms into 1e8 and give 8.
    x = np.array([1e8, 1, 1, 1, -1e8, 1, 1, 1, 2, 3], np.float32)
    (s,) = run(VEC_SUM.format(width=4, tail="scalar"), "vsum", x, np.float32(0.5))
    assert s == np.float32(11.5)
    (masked,) = run(VEC_SUM.format(width=4, tail="masked"), "vsum", x, np.float32(0.5))
    # masked tail: lanes (0 + 2, 2 + 3, 2, 2) then the init: 0.5 + 11
    assert masked == np.float32(11.5)
    (seq,) = run(SUM_FOR, "sum", x, np.float32(0.5))
    assert seq == np.float32(8)


def test_vecloop_tail_none():
    x = np.ones(8, np.float32)
    (s,) = run(VEC_SUM.format(width=4, tail="none"), "vsum", x, np.float32(0))
    assert s == 8
    with pytest.raises(InterpretationError, match="not a multiple of the width 4"):
        run(VEC_SUM.format(width=4, tail="none"), "vsum", np.ones(9, np.float32), np.float32(0))


VEC_MAP = """
func.func @vmap(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %k: f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %m = arith.subi %n, %c1 : index
  loop.vecloop %i in [%c0, %m) width({width}) tail({tail}) {{
    %x = loop.load %b[%i + 1] : !loop.buf<f32>
    %first = loop.load %b[0] : !loop.buf<f32>
    %d = arith.subf %x, %first : f32
    %y = math.fma %d, %k, %x : f32
    loop.store %y, %o[%i] : !loop.buf<f32>
  }}
  func.return
}}
"""


@pytest.mark.parametrize("tail", ["scalar", "masked"])
def test_vecloop_map_with_uniform_load(tail):
    for n in [1, 2, 8, 9, 10, 1000]:
        x = RNG.standard_normal(n).astype(np.float32)
        o = np.full(n, np.nan, np.float32)
        run(VEC_MAP.format(width=8, tail=tail), "vmap", x, o, np.float32(0.25))
        d = x[1:] - x[0]
        expected = (d.astype(np.float64) * 0.25 + x[1:]).astype(np.float32)  # exact fma, one rounding
        np.testing.assert_array_equal(o[: n - 1], expected)
        assert np.isnan(o[n - 1 :]).all()


GATHER = """
func.func @gather(%b: !loop.buf<i32>, %o: !loop.buf<i32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %o, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %x = loop.load %b[2 * %i + 1] : !loop.buf<i32>
    loop.store %x, %o[-1 * %i + 7] : !loop.buf<i32>
  }
  func.return
}
"""


def test_vecloop_gather_scatter():
    b = np.arange(100, 116, dtype=np.int32)
    o = np.zeros(8, np.int32)
    run(GATHER, "gather", b, o, width=3)
    np.testing.assert_array_equal(o, b[1::2][::-1])


MULTI = """
func.func @stats(%b: !loop.buf<f32>, %inf: f32, %ninf: f32) -> (f32, f32, i64, f32) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %mn, %mx, %pos, %sq = loop.vecloop %i in [%c0, %n) width(W) tail(scalar)
      accs(%a = %inf : f32 min, %m = %ninf : f32 max, %c = %zi : i64 add, %s = %z : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %a2 = arith.minimumf %a, %x : f32
    %m2 = arith.maximumf %m, %x : f32
    %p = arith.cmpf ogt, %x, %z : f32
    %inc = arith.extui %p : i1 to i64
    %c2 = arith.addi %c, %inc : i64
    %x2 = arith.mulf %x, %x : f32
    %s2 = arith.addf %s, %x2 : f32
    loop.yield %a2, %m2, %c2, %s2 : f32, f32, i64, f32
  }
  func.return %mn, %mx, %pos, %sq : f32, f32, i64, f32
}
"""


@pytest.mark.parametrize("w", [1, 3, 4, 8])
def test_several_accumulators(w):
    for n in sizes(max(w, 2)):
        x = RNG.standard_normal(n).astype(np.float32)
        mn, mx, pos, sq = run(MULTI, "stats", x, np.float32(np.inf), np.float32(-np.inf), width=w)
        assert mn == (x.min() if n else np.inf)
        assert mx == (x.max() if n else -np.inf)
        assert pos == np.count_nonzero(x > 0)
        np.testing.assert_allclose(sq, (x.astype(np.float64) ** 2).sum(), rtol=1e-5)


INT_AND = """
func.func @allbits(%b: !loop.buf<i32>, %init: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %r:2 = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%a = %init : i32 and, %o = %init : i32 or) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %a2 = arith.andi %a, %x : i32
    %o2 = arith.ori %o, %x : i32
    loop.yield %a2, %o2 : i32, i32
  }
  func.return %r#0, %r#1 : i32, i32
}
"""


@pytest.mark.parametrize("w", [1, 2, 4, 7])
def test_results_do_not_depend_on_symbolic_width(w):
    x = RNG.integers(0, 2**31 - 1, 13).astype(np.int32) | np.int32(0x11)
    a, o = run(INT_AND, "allbits", x, np.int32(0x7FFF), width=w)
    assert a == np.bitwise_and.reduce(x) & 0x7FFF
    assert o == np.bitwise_or.reduce(x) | 0x7FFF


BOOL_PARITY = """
func.func @parity(%b: !loop.buf<i1>) -> i1 {
  %c0 = arith.constant 0 : index
  %f = arith.constant false
  %n = loop.dim %b, 0 : !loop.buf<i1>
  %r = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%a = %f : i1 add) {
    %x = loop.load %b[%i] : !loop.buf<i1>
    %a2 = arith.xori %a, %x : i1
    loop.yield %a2 : i1
  }
  func.return %r : i1
}
"""


@pytest.mark.parametrize("w", [2, 4])
def test_bool_add_accumulator_lanes_combine_as_xor(w):
    # an i1 `add` accumulator adds modulo 2 (the lowering combines lanes with xori): lanes
    # holding true and true combine to false, not to true (numpy's add on bools is or)
    for n in (2, 3, 4, 5, 8, 9):
        x = np.ones(n, np.bool_)
        (r,) = run(BOOL_PARITY, "parity", x, width=w)
        assert bool(r) == bool(n % 2)


# --------------------------------------------------------------------------- loop.predloop

FILTER = """
func.func @filter(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %z: f32) -> (index, f32) {{
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %cnt, %s = loop.predloop %i in [%c0, %n) width({width}) tail({tail}) mask(unset) accs(%acc = %z : f32 add reassoc) pred {{
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %x, %z : f32
    loop.yield %p : i1
  }} body {{
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %x : f32
    loop.append %y, %o : !loop.buf<f32>
    %t = arith.addf %acc, %y : f32
    loop.yield %t : f32
  }}
  func.return %cnt, %s : index, f32
}}
"""


@pytest.mark.parametrize("width,tail", [(1, "scalar"), (8, "scalar"), (8, "masked"), ("W", "scalar")])
def test_predloop_filter_map(width, tail):
    w = width if isinstance(width, int) else 4
    for n in sizes(max(w, 2)):
        x = RNG.standard_normal(n).astype(np.float32)
        o = np.full(n, np.nan, np.float32)
        cnt, s = run(FILTER.format(width=width, tail=tail), "filter", x, o, np.float32(0))
        kept = x[x > 0] * x[x > 0]
        assert isinstance(cnt, np.int64) and cnt == len(kept)
        np.testing.assert_array_equal(o[:cnt], kept)
        assert np.isnan(o[cnt:]).all()
        np.testing.assert_allclose(s, kept.sum(dtype=np.float64), rtol=1e-5, atol=1e-6)


def test_predloop_width1_is_sequential():
    x = RNG.standard_normal(50).astype(np.float32)
    o = np.zeros(50, np.float32)
    _, s = run(FILTER.format(width=1, tail="scalar"), "filter", x, o, np.float32(0))
    kept = x[x > 0] * x[x > 0]
    assert s == np.add.accumulate(np.concatenate([[np.float32(0)], kept]))[-1]


SOA_FILTER = """
func.func @split(%b: !loop.buf<i32>, %keys: !loop.buf<i32>, %idx: !loop.buf<i64>) -> index {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %cnt = loop.predloop %i in [%c0, %n) width(8) tail(masked) mask(avx512_mask) pred {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %r = arith.remsi %x, %two : i32
    %p = arith.cmpi eq, %r, %zero : i32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %k = arith.index_cast %i : index to i64
    loop.append %x, %keys : !loop.buf<i32>
    loop.append %k, %idx : !loop.buf<i64>
  }
  func.return %cnt : index
}
"""


def test_predloop_two_appends_share_the_cursor():
    x = RNG.integers(-50, 50, 29).astype(np.int32)
    keys, idx = np.zeros(29, np.int32), np.zeros(29, np.int64)
    (cnt,) = run(SOA_FILTER, "split", x, keys, idx)
    where = np.flatnonzero(x % 2 == 0)
    assert cnt == len(where)
    np.testing.assert_array_equal(keys[:cnt], x[where])
    np.testing.assert_array_equal(idx[:cnt], where)


def test_append_overflow_is_an_error():
    x = np.ones(10, np.float32)
    with pytest.raises(InterpretationError, match="out of bounds of a buffer of length 3"):
        run(FILTER.format(width=8, tail="scalar"), "filter", x, np.zeros(3, np.float32), np.float32(0))


# --------------------------------------------------------------------------- loop.zip

ZIP = """
func.func @dot(%bx: !loop.buf<f64>, %by: !loop.buf<f64>, %o: !loop.buf<f64>) -> f64 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  %n = loop.dim %bx, 0 : !loop.buf<f64>
  %d = loop.zip %i in [%c0, %n) streams(%x = %bx : !loop.buf<f64>, %y = %by : !loop.buf<f64>) accs(%a = %z : f64 add) {
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %x, %y : f64
    loop.store %s, %o[%i] : !loop.buf<f64>
    %t = arith.addf %a, %p : f64
    loop.yield %t : f64
  }
  func.return %d : f64
}
"""


@pytest.mark.parametrize("n", [0, 1, 33])
def test_zip_two_buffers(n):
    x, y = RNG.standard_normal(n), RNG.standard_normal(n)
    o = np.zeros(n)
    (d,) = run(ZIP, "dot", x, y, o)
    np.testing.assert_array_equal(o, x + y)
    assert d == np.add.accumulate(np.concatenate([[0.0], x * y]))[-1]


# --------------------------------------------------------------------------- errors and buffers

OOB = """
func.func @oob(%b: !loop.buf<f32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(4) tail(scalar) accs(%a = %z : f32 add reassoc) {
    %x = loop.load %b[%i - 1] : !loop.buf<f32>
    %t = arith.addf %a, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
"""


def test_out_of_bounds_load_is_an_error():
    with pytest.raises(InterpretationError, match=r"index -1 out of bounds of dimension 0 \(length 8\)"):
        run(OOB, "oob", np.ones(8, np.float32), np.int64(8))


RACE = """
func.func @race(%b: !loop.buf<f32>, %o: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(4) tail(scalar) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[0] : !loop.buf<f32>
  }
  func.return
}
"""


def test_varying_store_to_uniform_index_is_an_error():
    with pytest.raises(InterpretationError, match="lane-varying value stored to a uniform index"):
        run(RACE, "race", np.ones(8, np.float32), np.zeros(1, np.float32))


ALLOC = """
func.func @twice(%b: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %t = loop.alloc(%n) : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.addf %x, %x : f32
    loop.store %y, %t[%i] : !loop.buf<f32>
  }
  %s = loop.for %i in [%c0, %n) accs(%a = %z : f32 max) {
    %y = loop.load %t[%i] : !loop.buf<f32>
    %m = arith.maximumf %a, %y : f32
    loop.yield %m : f32
  }
  loop.dealloc %t : !loop.buf<f32>
  func.return %s : f32
}
"""


def test_alloc_materialized_intermediate():
    x = RNG.standard_normal(11).astype(np.float32)
    (s,) = run(ALLOC, "twice", x)
    assert s == max(0.0, (x + x).max())


def test_buffer_dtype_is_checked():
    with pytest.raises(InterpretationError, match="buffer dtype float64 != element type float32"):
        run(SUM_FOR, "sum", np.ones(3), np.float32(0))


def test_runner_registers_the_loop_interpreter():
    from loopopt.interp.runner import make_interpreter

    x = np.arange(10, dtype=np.float32)
    (s,) = make_interpreter(parse(VEC_SUM.format(width="W", tail="scalar"))).call_op("vsum", (x, np.float32(0)))
    assert s == 45
