"""convert-loop-to-simd on hand-written vector loops: width choice, accumulators, ranges,
tails, masks, fallback and options, each run by the interpreter against the source loop."""

from __future__ import annotations

import numpy as np
import pytest
from pipeline_harness import lowering_context
from xdsl.dialects.builtin import ModuleOp, StringAttr, VectorType
from xdsl.ir import BlockArgument
from xdsl.parser import Parser

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.dialects import loop, simd
from loopopt.interp.runner import run_function
from loopopt.lowering.loop_to_simd.convert import ConvertLoopToSimdPass
from loopopt.runtime.isa import best_isa

VECTOR_TARGETS = ("sse2", "avx2", "avx512", "neon")


def parse(text: str) -> ModuleOp:
    module = Parser(lowering_context(), text).parse_module()
    module.verify()
    return module


def lower(text: str, **options) -> ModuleOp:
    module = parse(text)
    ConvertLoopToSimdPass(**options).apply(lowering_context(), module)
    module.verify()
    return module


def vector_lanes(module: ModuleOp) -> set[int]:
    return {
        r.type.get_shape()[0] for op in module.walk() for r in op.results if isinstance(r.type, VectorType)
    }


def same_results(text: str, name: str, make_args, sizes=(0, 1, 3, 4, 5, 8, 9, 17, 33, 70), **options) -> ModuleOp:
    """The lowered kernel gives the source kernel's results (and buffer contents) on every size."""
    source, lowered = parse(text), lower(text, **options)
    for n in sizes:
        a, b = make_args(n), make_args(n)
        expected = run_function(source, name, *a)
        got = run_function(lowered, name, *b)
        for x, y in zip((*expected, *a), (*got, *b), strict=True):
            np.testing.assert_allclose(np.asarray(y), np.asarray(x), rtol=1e-5, atol=1e-5, err_msg=f"n={n}")
    return lowered


MIXED = """
func.func @widen_sum(%x: !loop.buf<f32>, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f64 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %w = arith.extf %e : f32 to f64
    %t = arith.addf %acc, %w : f64
    loop.yield %t : f64
  }
  func.return %s : f64
}
"""


@pytest.mark.parametrize("target,lanes", [("sse2", 2), ("avx2", 4), ("avx512", 8), ("neon", 2)])
def test_widest_element_type_decides_the_width(target, lanes):
    lowered = same_results(MIXED, "widen_sum", lambda n: (np.arange(n, dtype=np.float32), np.float64(0.5)), target=target)
    assert vector_lanes(lowered) - {lanes} <= {1} and lanes in vector_lanes(lowered)


ALL_ANY = """
func.func @all_any(%x: !loop.buf<i32>, %t: i1, %f: i1) -> (i1, i1) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  %zero = arith.constant 0 : i32
  %all, %any = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%a = %t : i1 and, %o = %f : i1 or) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %p = arith.cmpi sgt, %e, %zero : i32
    %a2 = arith.andi %a, %p : i1
    %o2 = arith.ori %o, %p : i1
    loop.yield %a2, %o2 : i1, i1
  }
  func.return %all, %any : i1, i1
}
"""


@pytest.mark.parametrize("target", VECTOR_TARGETS)
@pytest.mark.parametrize("tail", ["scalar", "masked"])
def test_bool_accumulators_are_masks_folded_by_popcount(target, tail):
    def args(n):
        x = np.ones(n, np.int32)
        if n > 5:
            x[5] = -1
        return x, np.bool_(True), np.bool_(False)

    lowered = same_results(ALL_ANY, "all_any", args, target=target, tail=tail)
    assert any(isinstance(op, simd.MaskPopcountOp) for op in lowered.walk())


STRIDED = """
func.func @reverse_index(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %hi: index) {
  %c0 = arith.constant 0 : index
  %cm1 = arith.constant -1 : index
  %cm = arith.constant -1 : index
  loop.vecloop %i in range(%hi, %cm1, %cm) width(W) tail(scalar) {
    %e = loop.load %x[-1 * %i + 100] : !loop.buf<f32>
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %m = arith.mulf %e, %f : f32
    loop.store %m, %out[-1 * %i + 100] : !loop.buf<f32>
  }
  func.return
}
"""


@pytest.mark.parametrize("target", VECTOR_TARGETS)
def test_negative_constant_step_keeps_contiguous_accesses_and_iota_lanes(target):
    def args(n):
        return np.arange(101, dtype=np.float32), np.zeros(101, np.float32), np.int64(n)

    lowered = same_results(STRIDED, "reverse_index", args, sizes=(-1, 0, 1, 4, 9, 17, 40, 99), target=target)
    assert any(isinstance(op, simd.LoadOp) for op in lowered.walk())
    assert any(isinstance(op, simd.IotaOp) for op in lowered.walk())


COUNT_ONLY = """
func.func @count(%x: !loop.buf<i64>, %lim: i64) -> index {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i64>
  %cnt = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) pred {
    %e = loop.load %x[%i] : !loop.buf<i64>
    %p = arith.cmpi slt, %e, %lim : i64
    loop.yield %p : i1
  } body {
  }
  func.return %cnt : index
}
"""


@pytest.mark.parametrize("target", VECTOR_TARGETS)
def test_predloop_without_append_counts_with_popcount(target):
    same_results(COUNT_ONLY, "count", lambda n: (np.arange(n, dtype=np.int64) % 7, np.int64(3)), target=target)


INT_POW = """
func.func @div(%x: !loop.buf<i32>, %out: !loop.buf<i32>, %d: i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %two = arith.constant 2 : i32
    %t = arith.muli %e, %two : i32
    %q = math.ipowi %t, %d : i32
    loop.store %q, %out[%i] : !loop.buf<i32>
  }
  func.return
}
"""


def test_unsupported_op_is_a_located_error_and_leaves_the_loop_alone():
    module = parse(INT_POW)
    before = str(module)
    with pytest.raises(LoopoptDiagnostic, match="math.ipowi on lane-varying operands") as info:
        ConvertLoopToSimdPass(target="avx2").apply(lowering_context(), module)
    assert info.value.op is not None and info.value.op.name == "math.ipowi"
    module.attributes.pop("loop.target", None)
    assert str(module) == before, "a failed lowering must not leave half-lowered IR behind"


def test_fallback_keeps_the_scalar_loop_it_means():
    lowered = same_results(INT_POW, "div", lambda n: (np.arange(n, dtype=np.int32) - 5, np.zeros(n, np.int32), np.int32(3)),
                           target="avx2", fallback=True)  # fmt: skip
    assert not any(isinstance(op, loop.VecLoopOp) or op.dialect_name() == "simd" for op in lowered.walk())


def test_masked_tail_falls_back_to_scalar_without_masked_memory_ops():
    text = MIXED.replace("tail(scalar)", "tail(masked)")
    lowered = lower(text, target="sse2")
    assert not any(isinstance(op, simd.MaskedLoadOp) for op in lowered.walk())
    assert any(isinstance(op, loop.LoadOp) for op in lowered.walk())  # the scalar epilogue
    assert any(isinstance(op, simd.MaskedLoadOp) for op in lower(text, target="avx512").walk())


@pytest.mark.parametrize("interleave,copies", [(1, 1), (3, 3), (0, 4)])
def test_interleave_sets_the_number_of_vector_accumulators(interleave, copies):
    lowered = lower(MIXED, target="avx2", interleave=interleave)
    main = next(op for op in lowered.walk() if isinstance(op, loop.ForOp))
    assert len(main.inits) == copies


def test_native_resolves_to_this_cpu_and_unknown_targets_are_errors():
    assert lower(MIXED, target="native").attributes["loop.target"] == StringAttr(best_isa())
    with pytest.raises(LoopoptDiagnostic, match="unknown target 'avx9'"):
        lower(MIXED, target="avx9")
    with pytest.raises(LoopoptDiagnostic, match="tail must be scalar or masked"):
        lower(MIXED, target="avx2", tail="none")


def test_a_module_lowered_for_one_target_is_not_relowered_for_another():
    module = lower(MIXED, target="avx2")
    with pytest.raises(LoopoptDiagnostic, match="already lowered for target 'avx2'"):
        ConvertLoopToSimdPass(target="neon").apply(lowering_context(), module)


def test_partial_false_rejects_mixed_widths_and_fallback_keeps_them_scalar():
    with pytest.raises(LoopoptDiagnostic, match="mixes element widths"):
        lower(MIXED, target="avx2", partial=False)
    lowered = lower(MIXED, target="avx2", partial=False, fallback=True)
    assert not vector_lanes(lowered)


# ----------------------------------------------------------------- streaming stores

SCALE = """
func.func @scale(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}
"""


def shifted(values: np.ndarray, alignment: int, shift: int) -> np.ndarray:
    """A copy of `values` starting `shift` elements past an `alignment`-byte boundary."""
    raw = np.zeros(len(values) + alignment, values.dtype)
    start = (-raw.ctypes.data % alignment) // values.itemsize + shift
    out = raw[start : start + len(values)]
    out[:] = values
    return out


@pytest.mark.parametrize("target", ["sse2", "avx2", "avx512"])
@pytest.mark.parametrize("shift", [0, 1, 3])
def test_streaming_map_peels_to_the_output_alignment(target, shift):
    """Above stream_bytes the output is peeled to the vector alignment and streamed (the
    interpreter faults an unaligned `aligned` store); below it nothing streams."""
    lowered = lower(SCALE, target=target, stream_bytes=64)
    assert any(isinstance(op, simd.StoreOp) and op.nontemporal is not None for op in lowered.walk())
    assert any(isinstance(op, simd.StoreFenceOp) for op in lowered.walk())
    for n in (0, 1, 15, 16, 17, 40, 67, 131, 300):
        x = np.arange(n, dtype=np.float32) - 7
        out = shifted(np.full(n, np.nan, np.float32), 64, shift)
        run_function(lowered, "scale", shifted(x, 64, 0), out, np.float32(1.5))
        np.testing.assert_array_equal(out, x * np.float32(1.5), err_msg=f"n={n}")


def test_no_streaming_where_the_target_has_no_streaming_stores():
    for target in ("neon", "scalar"):
        assert not any(isinstance(op, simd.StoreFenceOp | simd.AlignOffsetOp) for op in lower(SCALE, target=target, stream_bytes=64).walk())


# ----------------------------------------------------------------- compaction and masked steps

SCALE_POSITIVE = """
func.func @scale_positive(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %z: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %z : f32 add reassoc) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %y = arith.mulf %a, %e : f32
    loop.append %y, %out : !loop.buf<f32>
    %t = arith.addf %acc, %y : f32
    loop.yield %t : f32
  }
  func.return %cnt, %s : index, f32
}
"""


@pytest.mark.parametrize("target", ["scalar", "sse2", "avx2", "avx512", "neon"])
@pytest.mark.parametrize("capacity", ["input", "count"])
def test_compaction_with_whole_vector_stores_stays_inside_the_output(target, capacity):
    """Whole-vector stores at the cursor only while a vector past it is inside the output: with
    a capacity of exactly the count, the rest runs as exact blocks (the interpreter faults a
    store past the buffer)."""
    lowered = lower(SCALE_POSITIVE, target=target)
    assert any(isinstance(op, simd.CompressStoreOp) and op.full is not None for op in lowered.walk())
    source = parse(SCALE_POSITIVE)
    for n in (0, 1, 3, 4, 5, 8, 17, 33, 70, 131):
        x = (np.arange(n, dtype=np.float32) * 7 % 11) - 5
        cap = n if capacity == "input" else int(np.count_nonzero(x > 0))
        expected_out, out = np.zeros(cap, np.float32), np.zeros(cap, np.float32)
        expected = run_function(source, "scale_positive", x, expected_out, np.float32(2), np.float32(0.5))
        got = run_function(lowered, "scale_positive", x, out, np.float32(2), np.float32(0.5))
        assert got[0] == expected[0] == np.count_nonzero(x > 0), f"n={n}"
        np.testing.assert_allclose(got[1], expected[1], rtol=1e-6, err_msg=f"n={n}")
        np.testing.assert_array_equal(out[: got[0]], expected_out[: got[0]], err_msg=f"n={n}")


FILTERED_EXTREMES = """
func.func @stats(%x: !loop.buf<i32>) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  %zero = arith.constant 0 : i32
  %lo = arith.constant 2147483647 : i32
  %hi = arith.constant -2147483648 : i32
  %cnt, %mn, %mx, %sum = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%a = %lo : i32 min, %b = %hi : i32 max, %c = %zero : i32 add) pred {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %p = arith.cmpi sgt, %e, %zero : i32
    loop.yield %p : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %t = arith.minsi %a, %e : i32
    %u = arith.maxsi %e, %b : i32
    %v = arith.addi %c, %e : i32
    loop.yield %t, %u, %v : i32, i32, i32
  }
  func.return %mn, %mx, %sum : i32, i32, i32
}
"""


@pytest.mark.parametrize("target", ["scalar", "sse2", "avx2", "avx512", "neon"])
def test_masked_steps_select_the_neutral_element_and_drop_the_unused_count(target):
    lowered = same_results(FILTERED_EXTREMES, "stats", lambda n: ((np.arange(n, dtype=np.int32) * 37 % 23) - 11,),
                           target=target)  # fmt: skip
    assert not any(isinstance(op, simd.MaskPopcountOp) for op in lowered.walk()), "the count is unused"
    # acc <op> select(mask, x, neutral): no select keeps a loop-carried accumulator (a block argument)
    selects = [op for op in lowered.walk() if isinstance(op, simd.SelectOp)]
    assert selects and not any(isinstance(op.false_value, BlockArgument) for op in selects)
