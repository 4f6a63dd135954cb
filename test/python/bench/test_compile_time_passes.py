"""Compile time of the passes (issue #11, docs/compile_time.md, sixth round): the answers the
passes now take from an op's class or types are the ones xDSL and the patterns give per op."""

from __future__ import annotations

import pytest
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead as xdsl_is_trivially_dead
from xdsl.transforms.dead_code_elimination import would_be_trivially_dead as xdsl_would_be_trivially_dead

import loopopt.compile as lc
from loopopt.passes import loop_simplify, memo_dce
from loopopt.passes.cached_cse import HashedCSEDriver
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

VECTOR_OPS = """
func.func @v(%a: vector<8xi32>, %b: vector<8xi32>, %c: vector<8xi1>, %f: vector<8xf32>, %x: i32, %m: i1) -> () {
  %and = arith.andi %a, %a : vector<8xi32>
  %sel = "arith.select"(%c, %a, %a) : (vector<8xi1>, vector<8xi32>, vector<8xi32>) -> vector<8xi32>
  %ssel = arith.select %m, %a, %b : vector<8xi32>
  %add = arith.addi %a, %b : vector<8xi32>
  %sub = arith.subi %a, %a : vector<8xi32>
  %abs = math.absf %f : vector<8xf32>
  %zero = arith.constant 0 : i32
  %sadd = arith.addi %x, %zero : i32
  %sabs = math.absi %x : i32
  func.return
}
"""


def _module_after(text: str, target: str, last: str):
    """`text` through loop-pipeline{target} up to and including the first step named `last`."""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        pass_.apply(ctx, module)
        if step.name == last:
            break
    return ctx, module


def _lowered_ops(extra: list[str], target: str):
    """(context, op) for every op (but the module) of `extra` and the df corpus, each lowered
    by loop-pipeline{target} through convert-loop-to-simd (programs the target rejects skipped)."""
    corpus = programs()
    for text in extra + [corpus[k] for k in sorted(corpus) if k.startswith("test_corpus_df")]:
        try:
            ctx, module = _module_after(text, target, "convert-loop-to-simd")
        except Exception:  # noqa: BLE001 - a program this target rejects has no lowered module
            continue
        for op in list(module.walk())[1:]:
            yield ctx, op


def _rewrites(pattern, op) -> bool:
    rewriter = PatternRewriter(op)
    pattern.match_and_rewrite(op, rewriter)
    return rewriter.has_done_action


def _candidates(target: str | None):
    patterns = loop_simplify.populate_loop_simplify_patterns(False, target)
    (rules,) = (p for p in patterns if isinstance(p, loop_simplify.ApplyRules))
    return patterns, loop_simplify._Candidates(rules.by_root, target is not None)


def test_loop_simplify_candidates_keep_vector_ops_a_rule_can_match():
    module = lc.parse(VECTOR_OPS, lc.make_context(), "t")
    _, cands = _candidates("avx2")
    by_name = {op.results[0].name_hint: op for op in module.walk() if op.results}
    may = {name: cands.may_match(op) for name, op in by_name.items()}
    # x&x, select(c, a, a) and select with a scalar (K-able) condition match vectors too
    assert may["and"] and may["sel"] and may["ssel"]
    # a fold needs scalar constants, x+0 a scalar K, x-x an is_scalar `when`
    assert not may["add"] and not may["sub"] and not may["abs"]
    assert may["sadd"] and may["sabs"]  # scalars: rules and folds


@pytest.mark.parametrize("target", ["avx2", "neon", "scalar"])
def test_loop_simplify_leaves_out_only_ops_no_pattern_rewrites(target):
    """Every op of lowered modules (the generated kernels and the df corpus) that the candidate
    test leaves out is left alone by every loop-simplify pattern."""
    patterns, cands = _candidates(target)
    left_out = 0
    for _, op in _lowered_ops([generated_module(60)], target):
        if cands.may_match(op):
            continue
        left_out += 1
        for pattern in patterns:
            assert not _rewrites(pattern, op), (op.name, type(pattern).__name__)
    if target != "scalar":
        assert left_out > 1000  # the vector math is left out


def test_class_dead_answers_are_xdsls():
    """memo_dce.is_trivially_dead / would_be_trivially_dead (per class where the class decides)
    and cse's memoized test answer as xDSL's for every op of lowered modules."""
    corpus = programs()
    texts = [generated_module(40)] + [corpus[k] for k in sorted(corpus) if k.startswith("test_corpus_df")][:12]
    by_class = 0
    for text in texts:
        _, module = _module_after(text, "avx512", "convert-loop-to-simd")
        memo = memo_dce.EffectMemo()
        cse = HashedCSEDriver()
        for op in module.walk():
            want_dead, want_would = xdsl_is_trivially_dead(op), xdsl_would_be_trivially_dead(op)
            assert memo_dce.is_trivially_dead(op) == want_dead, op.name
            assert memo.would_be_trivially_dead(op) == want_would, op.name
            assert cse._is_trivially_dead(op) == want_dead, op.name
            known = memo_dce.class_would_be_dead(type(op))
            assert known is None or known == want_would, op.name
            by_class += known is not None
    assert by_class > 1000


def test_class_dead_answer_follows_the_traits():
    from xdsl.dialects import test
    from xdsl.dialects.builtin import i32
    from xdsl.traits import IsTerminator, NoMemoryEffect

    probe = test.TestOp(result_types=[i32])
    assert memo_dce.class_would_be_dead(test.TestOp) is False  # no effect trait: unknown effects
    saved = test.TestOp.traits._traits
    try:
        test.TestOp.traits.add_trait(NoMemoryEffect())
        assert memo_dce.class_would_be_dead(test.TestOp) is True
        assert memo_dce.is_trivially_dead(probe) == xdsl_is_trivially_dead(probe) is True
        test.TestOp.traits.add_trait(IsTerminator())
        assert memo_dce.class_would_be_dead(test.TestOp) is False
        assert memo_dce.is_trivially_dead(probe) == xdsl_is_trivially_dead(probe) is False
    finally:
        test.TestOp.traits._traits = saved
    assert memo_dce.class_would_be_dead(test.TestOp) is False


@pytest.mark.parametrize("target", ["avx2", "sse2"])
def test_canonicalize_leaves_out_only_ops_it_cannot_rewrite(target):
    """passes/candidate_walker.can_canonicalize: every op of lowered modules it leaves out (the
    vector float arithmetic among them) is left alone by xDSL's canonicalization patterns and
    folders."""
    from xdsl.dialects.builtin import VectorType
    from xdsl.folder import Folder
    from xdsl.traits import ConstantLike, HasFolder
    from xdsl.transforms.canonicalize import CanonicalizationRewritePattern

    from loopopt.passes.candidate_walker import can_canonicalize

    left_out_vectors = 0
    for ctx, op in _lowered_ops([generated_module(40), VECTOR_FLOATS], target):
        if can_canonicalize(op):
            continue
        left_out_vectors += any(isinstance(r.type, VectorType) for r in op.results) and op.name.startswith("arith.")
        assert not _rewrites(CanonicalizationRewritePattern(), op), op.name
        if op.has_trait(HasFolder) and not op.has_trait(ConstantLike):  # the applier folds no constant
            assert Folder(ctx).try_fold(op) is None, op.name
    assert left_out_vectors > 100


VECTOR_FLOATS = """
func.func @f(%a: vector<4xf32>) -> vector<4xf32> {
  %c = arith.constant dense<1.0> : vector<4xf32>
  %d = arith.constant dense<2.0> : vector<4xf32>
  %s = arith.addf %c, %d : vector<4xf32>
  %t = arith.addf %a, %s : vector<4xf32>
  func.return %t : vector<4xf32>
}
"""


def test_canonicalize_candidates_by_type():
    from loopopt.passes.candidate_walker import can_canonicalize

    module = lc.parse(VECTOR_FLOATS + VECTOR_OPS, lc.make_context(), "t")
    by_name = {op.results[0].name_hint: op for op in module.walk() if op.results}
    assert not can_canonicalize(by_name["s"])  # dense vector constants: FoldConstConstOp wants FloatAttrs
    assert can_canonicalize(by_name["add"]) and can_canonicalize(by_name["sadd"])  # integer ops: folders
