"""Compile-time regressions (issue #11, docs/compile_time.md): work that must not grow with
the module faster than linearly, counted rather than timed (CI has 2 noisy cores)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import VectorType, f32, i1, i32

import loopopt.compile as lc
import loopopt.lowering.loop_to_simd.lanes as lanes
import loopopt.targets.c_printer as c_printer
from loopopt.passes import loop_simplify
from loopopt.targets.c import emit_c
from loopopt.tools.bench.overhead import generated_module


def _chain(n: int) -> str:
    """One kernel with n unnamed values (each printed as a `v_k` local)."""
    lines = ["func.func @chain(%a: f32, %b: f32) -> f32 {", "  %0 = arith.addf %a, %b : f32"]
    lines += [f"  %{i} = arith.mulf %{i - 1}, %{i - 1} : f32" for i in range(1, n)]
    lines += [f"  func.return %{n - 1} : f32", "}"]
    return "\n".join(lines)


def _c(text: str, target: str) -> str:
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    lc.run_pipeline(module, f"loop-pipeline{{target={target}}}", ctx)
    return emit_c(module, target)


def test_printer_names_are_linear_in_the_values_of_one_function(monkeypatch):
    """fresh() used to try v_1, v_2, ... from 1 for every new local: n^2/2 name lookups."""
    lookups = 0

    class CountingSet(set):
        def __contains__(self, name):
            nonlocal lookups
            lookups += 1
            return super().__contains__(name)

    init = c_printer.FunctionPrinter.__init__

    def counting_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        self.used_names = CountingSet(self.used_names)

    monkeypatch.setattr(c_printer.FunctionPrinter, "__init__", counting_init)
    n = 600
    c = _c(_chain(n), "scalar")
    assert f"float v_{n - 1} = v_{n - 2} * v_{n - 2};" in c  # the names themselves are unchanged
    assert lookups <= 4 * n, lookups  # was ~n^2/2 = 180,000


def test_printer_names_leave_with_their_loop():
    """A name declared in a loop is free again after it (suffix counters are scoped too)."""
    text = generated_module(40)
    c = _c(text, "avx2")
    assert c == _c(text, "avx2")  # deterministic
    body = c[c.index("k0("):]
    assert "acc_v" in body


def test_vector_types_are_built_once_per_lowering_not_per_op(monkeypatch):
    """The lanes lowering asked for a new VectorType for every op it emitted (~9 per df op)."""
    built = 0
    init = VectorType.__init__

    def counting(self, *args, **kwargs):
        nonlocal built
        built += 1
        init(self, *args, **kwargs)

    monkeypatch.setattr(lanes, "_VECTOR_TYPES", {})
    _c(generated_module(40), "avx2")  # warm: the few vector types this kernel needs
    monkeypatch.setattr(VectorType, "__init__", counting)
    ops = 400
    _c(generated_module(ops), "avx2")
    assert built < ops, built  # was ~3,500 here


def test_cached_vector_type_is_the_type_asked_for():
    assert lanes._vector_type(f32, 8) == VectorType(f32, [8])
    assert lanes._vector_type(i1, 16) == VectorType(i1, [16])
    assert lanes._vector_type(f32, 8) is lanes._vector_type(f32, 8)


def test_foldable_op_cache_agrees_with_isinstance():
    """loop-simplify's per-class answer is the isinstance(op, FOLDABLE) it replaces."""
    from loopopt.dialects import loop, simd

    classes = [*arith.Arith.operations, *math.Math.operations, *loop.Loop.operations, *simd.Simd.operations]
    assert len(classes) > 50
    folded = 0
    for cls in classes:
        op = cls.__new__(cls)
        assert loop_simplify._foldable_op(op) == isinstance(op, loop_simplify.FOLDABLE), cls
        assert loop_simplify._foldable_op(op) == isinstance(op, loop_simplify.FOLDABLE), cls  # cached
        folded += loop_simplify._foldable_op(op)
    assert folded >= 20


def test_foldable_type_cache_agrees():
    from xdsl.dialects.builtin import IndexType, IntegerType, f16, f64

    for t in (f32, f64, f16, i1, i32, IntegerType(3), IntegerType(128), IndexType()):
        assert loop_simplify._foldable_type(t) == loop_simplify._foldable_type_uncached(t)
        assert loop_simplify._foldable_type(t) == loop_simplify._foldable_type(t)


def test_loop_simplify_still_folds_through_the_cache():
    text = """
func.func @f(%x: f32) -> (f32, i32) {
  %a = arith.constant 2.0 : f32
  %b = arith.constant 3.0 : f32
  %c = arith.mulf %a, %b : f32
  %d = arith.addf %x, %c : f32
  %m = arith.constant -2147483648 : i32
  %n = arith.constant -1 : i32
  %q = arith.divsi %m, %n : i32
  func.return %d, %q : f32, i32
}
"""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    lc.run_pipeline(module, "loop-simplify", ctx)
    printed = str(module)
    assert "6.000000e+00" in printed and "-2147483648" in printed
    assert "arith.mulf" not in printed and "arith.divsi" not in printed


def test_affine_decode_unpacks_each_property_triple_once():
    """`affine_indices` is read by every pass for every access; its dense arrays are unpacked
    once per distinct (dim_terms, coeffs, offsets), not on every read."""
    from xdsl.dialects.test import TestOp
    from xdsl.dialects.builtin import IndexType

    from loopopt.dialects import loop_affine
    from loopopt.dialects.loop_affine import Affine, decode, encode

    i, j = TestOp(result_types=[IndexType(), IndexType()]).results
    indices = [Affine(((i, 2), (j, -1)), 3), Affine((), 7)]
    operands, dim_terms, coeffs, offsets = encode(indices)
    loop_affine._values.cache_clear()
    loop_affine._BY_IDENTITY.clear()
    for _ in range(50):
        assert decode(operands, dim_terms, coeffs, offsets) == indices
    info = loop_affine._values.cache_info()
    assert info.misses == 1 and info.hits == 0  # the same objects: found by identity, nothing hashed
    # encode shares the attributes per value (loop_affine.i64_array): found by identity again
    assert decode(*encode(indices)) == indices
    assert loop_affine._values.cache_info().hits == 0
    # equal properties in other objects (e.g. parsed): found by value
    from xdsl.dialects.builtin import DenseArrayBase, i64

    others = [DenseArrayBase.from_list(i64, [int(v) for v in a.get_values()]) for a in (dim_terms, coeffs, offsets)]
    assert all(o == a and o is not a for o, a in zip(others, (dim_terms, coeffs, offsets)))
    assert decode(operands, *others) == indices
    info = loop_affine._values.cache_info()
    assert info.misses == 1 and info.hits == 1
    # same properties, other operands: the values are shared, the operands are not
    k = TestOp(result_types=[IndexType()]).results[0]
    assert decode([k, j], dim_terms, coeffs, offsets) == [Affine(((k, 2), (j, -1)), 3), Affine((), 7)]


def _compile_counting(monkeypatch, min_ops: int) -> dict[str, int]:
    """Compile generated_module(min_ops) to C for avx2, counting ops visited by walks
    (Operation.walk runs once per op it yields) and greedy pattern applications."""
    from xdsl.ir import Operation
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier

    counts = {"walked": 0, "matched": 0}
    walk, match = Operation.walk, GreedyRewritePatternApplier.match_and_rewrite

    def counting_walk(self, *args, **kwargs):
        counts["walked"] += 1
        return walk(self, *args, **kwargs)

    def counting_match(self, op, rewriter):
        counts["matched"] += 1
        return match(self, op, rewriter)

    monkeypatch.setattr(Operation, "walk", counting_walk)
    monkeypatch.setattr(GreedyRewritePatternApplier, "match_and_rewrite", counting_match)
    _c(generated_module(min_ops), "avx2")
    monkeypatch.undo()
    return counts


def test_pipeline_walks_and_pattern_applications_grow_linearly(monkeypatch):
    """The whole compile (parse, loop-pipeline, verification, C printing) of k copies of one
    kernel visits ops and applies patterns k times as often as one copy, plus a constant:
    a pass that re-walks the module per op, or a walk to fixpoint per kernel, breaks this."""
    one, four = (_compile_counting(monkeypatch, 19 * k) for k in (2, 8))  # 2 and 8 kernels
    for key in one:
        per_kernel = (four[key] - one[key]) / 6
        assert four[key] <= 4.15 * one[key], (key, one, four)
        assert per_kernel > 0
        assert abs(one[key] - 2 * per_kernel) <= 0.1 * one[key], (key, one, four)  # no quadratic term


def test_candidate_walker_rewrites_exactly_what_the_full_walk_does(monkeypatch):
    """passes/candidate_walker.py: loop-simplify and canonicalize starting from their
    candidates give the same IR as xDSL's walk over every op (here on the lowered module,
    where most ops are simd ops neither can touch)."""
    from xdsl.pattern_rewriter import PatternRewriteWalker

    from loopopt.passes.candidate_walker import CandidateRewriteWalker

    text = generated_module(60) + _chain(30)
    fast = _c(text, "avx2")
    monkeypatch.setattr(CandidateRewriteWalker, "_populate_worklist", PatternRewriteWalker._populate_worklist)
    assert _c(text, "avx2") == fast


def _lowered(text: str, target: str = "avx2"):
    """`text` through loop-pipeline up to (not including) canonicalize and cse."""
    from loopopt.passes.pipeline import LoopPipelinePass

    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        if step.spelling() in ("canonicalize", "cse"):
            break
        pass_.apply(ctx, module)
    return ctx, module


def test_hashed_cse_is_xdsl_cse(monkeypatch):
    """passes/cached_cse.py: the same IR as xDSL's cse, on the lowered module and on the whole
    pipeline's C."""
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    from loopopt.passes.cached_cse import HashedCSEPass

    # the lowering builds no duplicates any more (test_lowering_builds_once.py): a function
    # with some, for cse to have something to eliminate
    dups = """
func.func @dups(%a: f32, %b: f32) -> (f32, f32) {
  %x = arith.addf %a, %b : f32
  %y = arith.addf %a, %b : f32
  func.return %x, %y : f32, f32
}
"""
    text = generated_module(60) + _chain(30) + dups
    ctx, a = _lowered(text)
    _, b = _lowered(text)
    before = len(list(a.walk()))
    HashedCSEPass().apply(ctx, a)
    CommonSubexpressionElimination().apply(ctx, b)
    assert len(list(a.walk())) < before  # it did eliminate something
    assert str(a) == str(b)
    fast = _c(text, "sse2")
    monkeypatch.setattr(HashedCSEPass, "apply", CommonSubexpressionElimination.apply)
    assert _c(text, "sse2") == fast


_CSE_BUCKETS = """
func.func @f(%a: i32, %b: i32, %c: i1, %m: memref<4xi32>, %i: index) -> (i1, i1, i1, i32, i32, i32, i32, i32) {
  %x = arith.cmpi eq, %a, %b : i32
  %y = arith.cmpi ne, %a, %b : i32
  %z = arith.cmpi ne, %a, %b : i32
  %r = scf.if %c -> (i32) {
    %p = arith.addi %a, %b : i32
    %p2 = arith.addi %a, %b : i32
    %s = arith.muli %p, %p2 : i32
    scf.yield %s : i32
  } else {
    scf.yield %a : i32
  }
  %q = arith.addi %a, %b : i32
  %l1 = memref.load %m[%i] : memref<4xi32>
  memref.store %a, %m[%i] : memref<4xi32>
  %l2 = memref.load %m[%i] : memref<4xi32>
  %l3 = memref.load %m[%i] : memref<4xi32>
  %k1 = arith.constant 1 : i32
  %k2 = arith.constant 2 : i32
  %k3 = arith.constant 1 : i32
  %u = arith.addi %k1, %k3 : i32
  func.return %x, %y, %z, %r, %q, %l1, %l2, %l3 : i1, i1, i1, i32, i32, i32, i32, i32
}
"""
"""Ops filed in one bucket of cached_cse's table (the same operands): cmpi eq / ne (not merged) and
ne / ne (merged); `%p2` merged in the scf.if's scope, `%q` not with `%p` (a nested scope's entries
stay in it); `%l2` not merged with `%l1` (a store between) but stored in its place, so `%l3`
merges with `%l2`; constants (no operands) merged by value."""


def test_bucketed_cse_table_is_xdsls_on_shared_operands():
    from xdsl.dialects import memref, scf
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    from loopopt.passes.cached_cse import HashedCSEPass

    ctx = lc.make_context()
    for dialect in (scf.Scf, memref.MemRef):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    ours = lc.parse(_CSE_BUCKETS, ctx, "t")
    theirs = ours.clone()
    HashedCSEPass().apply(ctx, ours)
    CommonSubexpressionElimination().apply(ctx, theirs)
    assert str(ours) == str(theirs)
    text = str(ours)
    assert "%z" not in text and "%p2" not in text and "%l3" not in text and "%k3" not in text
    assert "%q = arith.addi" in text and "%l2 = memref.load" in text and "%y = arith.cmpi ne" in text


def test_hashed_cse_is_xdsl_cse_on_the_corpus():
    """cached_cse gives xDSL's cse's IR on every df corpus program lowered for avx2 and scalar."""
    from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination

    from loopopt.passes.cached_cse import HashedCSEPass
    from loopopt.tools.bench.c_stable import programs

    corpus = programs()
    compared = 0
    for target in ("avx2", "scalar"):
        for name in sorted(corpus):
            if not name.startswith("test_corpus_df"):
                continue
            try:
                ctx, ours = _lowered(corpus[name], target)
            except Exception:  # noqa: BLE001 - a program this target rejects
                continue
            theirs = ours.clone()
            HashedCSEPass().apply(ctx, ours)
            CommonSubexpressionElimination().apply(ctx, theirs)
            assert str(ours) == str(theirs), (name, target)
            compared += 1
    assert compared > 20


@pytest.mark.parametrize("fixed_traits", [False, True])
def test_effect_memo_answers_as_xdsl(fixed_traits):
    """passes/memo_dce.py: every op's effects and dead-op tests as xDSL's, loops included (also
    with the class answers asked once per class, as cse's memo does)."""
    from xdsl.traits import get_effects
    from xdsl.transforms.dead_code_elimination import is_trivially_dead, would_be_trivially_dead

    from loopopt.passes.memo_dce import EffectMemo

    _, module = _lowered(generated_module(40))
    memo = EffectMemo(fixed_traits)
    ops = list(module.walk())
    assert any(op.regions and get_effects(op) for op in ops)  # loops with nested effects
    for op in ops:
        assert memo.get_effects(op) == get_effects(op)
        assert memo.would_be_trivially_dead(op) == would_be_trivially_dead(op)
        assert memo.is_trivially_dead(op) == is_trivially_dead(op)


def test_effect_memo_class_answers_follow_the_traits():
    """An op class whose effect traits ignore the op is answered per class, and asked again
    when its trait set changes (add_trait)."""
    from xdsl.dialects import arith, test
    from xdsl.dialects.builtin import IntegerAttr, i32
    from xdsl.traits import MemoryWriteEffect, get_effects

    from loopopt.passes.memo_dce import EffectMemo

    add = arith.AddiOp(arith.ConstantOp(IntegerAttr(1, i32)), arith.ConstantOp(IntegerAttr(2, i32)))
    probe = test.TestOp(result_types=[i32])
    memo = EffectMemo()
    assert memo.get_effects(add) == get_effects(add) == set()
    assert memo.get_effects(probe) is get_effects(probe) is None  # no effect trait: unknown
    saved = test.TestOp.traits._traits
    test.TestOp.traits.add_trait(MemoryWriteEffect())
    try:
        assert memo.get_effects(probe) == get_effects(probe) != set()
        assert not memo.would_be_trivially_dead(probe)
    finally:
        test.TestOp.traits._traits = saved
    assert memo.get_effects(probe) is None


def test_memo_region_dce_is_region_dce(monkeypatch):
    from xdsl.transforms.dead_code_elimination import region_dce

    import loopopt.passes.candidate_walker as cw
    from loopopt.passes.memo_dce import memo_region_dce

    _, a = _lowered(generated_module(40))
    _, b = _lowered(generated_module(40))
    assert memo_region_dce(a.body) == region_dce(b.body)
    assert str(a) == str(b)
    text = generated_module(60) + _chain(30)
    fast = _c(text, "avx512")
    monkeypatch.setattr(cw, "memo_region_dce", region_dce)
    assert _c(text, "avx512") == fast


def test_pipeline_pauses_the_cyclic_gc_and_restores_it():
    import gc

    from loopopt.passes.pipeline import cyclic_gc_paused

    assert gc.isenabled()
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with cyclic_gc_paused():
            pass
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_loop_opt_version_imports_no_pass_or_lowering_module():
    """`loop-opt --version` (and listing the registries) imports no pass, lowering or printer
    module: registry.py looks their files up on disk (importlib.util.find_spec imported the
    parent packages, `loopopt.lowering.loop_to_simd` pulling in the whole lowering: 0.5 s)."""
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\n"
        "from loopopt.tools.loop_opt import run\n"
        "with contextlib.redirect_stdout(io.StringIO()): run(['--version'])\n"
        "from loopopt.registry import get_all_passes, get_all_dialects, get_all_targets\n"
        "assert 'loop-simplify' in get_all_passes() and get_all_dialects() and get_all_targets()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('loopopt.lowering', 'loopopt.passes', 'loopopt.targets'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def test_loop_opt_help_explains_disable_verify(capsys):
    """loop-opt verifies after every pass (mlir-opt's --verify-each); --help says how to skip it."""
    from loopopt.tools.loop_opt import run

    assert run(["--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--disable-verify skip verifying the input and the IR after every pass" in help_text


def test_printer_scopes_copy_the_locals_not_the_modules_function_names(monkeypatch):
    """Every loop copied the names in scope, which held every function name of the module:
    printing was quadratic in the number of functions (docs/compile_time.md, fourth round)."""
    from loopopt.targets.c_print_loops import LoopStatements

    largest = 0
    for_ = LoopStatements._for

    def measuring_for(self, op):
        nonlocal largest
        largest = max(largest, len(self.used_names))
        for_(self, op)

    monkeypatch.setattr(LoopStatements, "_for", measuring_for)
    sizes = []
    for kernels in (4, 16):
        largest = 0
        _c(generated_module(19 * kernels), "avx2")
        sizes.append(largest)
    assert sizes[0] == sizes[1] > 0, sizes  # was 4x larger with 4x the functions


def test_a_local_named_like_another_function_is_renamed():
    text = """
func.func @acc(%a: f32) -> f32 {
  %acc = arith.addf %a, %a : f32
  func.return %acc : f32
}
func.func @k(%b: f32) -> f32 {
  %acc = arith.mulf %b, %b : f32
  func.return %acc : f32
}
"""
    c = _c(text, "scalar")
    body = c[c.index(" k("):]
    assert "float acc_1 = b * b;" in body, body


_DEAD_CHAINS = """
func.func @f(%x: f32, %n: index, %out: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %a : f32
  %c = arith.mulf %b, %a : f32
  %p = arith.addf %x, %x : f32
  %q = arith.mulf %p, %p : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %a : f32 add) {
    %t = arith.mulf %acc, %b : f32
    %u = arith.addf %t, %c : f32
    loop.yield %u : f32
  }
  %w = loop.for %i in [%c0, %n) accs(%acc = %x : f32 add) {
    %v = arith.addf %acc, %x : f32
    loop.store %v, %out[%i] : !loop.buf<f32>
    loop.yield %v : f32
  }
  func.return %x : f32
}
"""


def test_memo_region_dce_finds_xdsls_live_set():
    """The one-visit worklist reaches the live set of xDSL's rounds: a chain dead only through
    a dead user, a pure loop whose result is unused (dead; its body's ops count as live, as in
    xDSL, through its terminator), a storing loop; and every op of lowered kernels."""
    from xdsl.transforms.dead_code_elimination import LiveSet

    from loopopt.passes.memo_dce import _MemoLiveSet

    def xdsl_live(region):
        live = LiveSet()
        while live.changed:
            live.changed = False
            live.propagate_region_liveness(region)
        return live._live_ops

    ctx = lc.make_context()
    small = lc.parse(_DEAD_CHAINS, ctx, "t")
    modules = [small, _lowered(generated_module(40))[1], _lowered(generated_module(40), "sse2")[1]]
    for module in modules:
        ours = _MemoLiveSet()
        ours.propagate(module.body)
        assert ours.live_ops() == xdsl_live(module.body)
    dead = {r.name_hint for o in small.walk() if o not in xdsl_live(small.body) for r in o.results}
    assert dead == {"c1", "p", "q", "s"}, dead


_UNREACHABLE_BLOCK = """
func.func @f(%a: i32) -> i32 {
  func.return %a : i32
^bb1:
  %b = arith.addi %a, %a : i32
  func.return %b : i32
}
"""


def test_memo_region_dce_skips_the_delete_walk_only_when_nothing_is_dead(monkeypatch):
    """memo_region_dce answers without delete_dead's walk when every visited op is live and
    every region has one block; an unreachable block (its ops live by xDSL's rules, as
    terminators are never dead, but not visited) or a dead op still gets region_dce's
    deletions."""
    from xdsl.transforms.dead_code_elimination import region_dce

    from loopopt.passes.memo_dce import _MemoLiveSet, memo_region_dce

    walks = []
    real = _MemoLiveSet.delete_dead

    def counted(self, region, listener=None):
        walks.append(region)
        return real(self, region, listener)

    monkeypatch.setattr(_MemoLiveSet, "delete_dead", counted)
    _, a = _lowered(generated_module(40))
    _, b = _lowered(generated_module(40))
    assert memo_region_dce(a.body) is region_dce(b.body) is False and str(a) == str(b)
    assert walks == []  # nothing dead in the lowered kernels: no second walk
    ctx = lc.make_context()
    for text in (_UNREACHABLE_BLOCK, _DEAD_CHAINS):
        a, b = lc.parse(text, ctx, "t"), lc.parse(text, ctx, "t")
        assert memo_region_dce(a.body) is region_dce(b.body) is True
        assert str(a) == str(b)
    assert [r.parent.name for r in walks if r.parent.name == "builtin.module"] == ["builtin.module"] * 2
