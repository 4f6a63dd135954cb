"""canonicalize's applier skips the folder and patterns of an op without a constant operand whose
class needs one (passes/candidate_walker.CanonicalizeApplier, docs/compile_time.md eighth round):
every skipped op is one xDSL's folder and patterns leave alone, and the pass rewrites as xDSL's."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.folder import Folder
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.traits import ConstantLike, HasFolder
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern, CanonicalizePass

import loopopt.compile as lc
from loopopt.passes.candidate_walker import (
    CandidateCanonicalizePass,
    _has_constant_operand,
    identity_only,
    needs_constant_operand,
    skips_folder_and_patterns,
)
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

SCALARS = """
func.func @s(%x: i32, %y: index, %f: f32) -> (i32, i32, i32, index, i1, f32, f32, i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %a = arith.addi %x, %c0 : i32
  %b = arith.muli %c2, %c3 : i32
  %b2 = arith.addi %b, %x : i32
  %d = arith.subi %x, %x : i32
  %i0 = arith.constant 0 : index
  %e = arith.addi %y, %i0 : index
  %e2 = arith.subi %e, %y : index
  %eq = arith.cmpi eq, %x, %x : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %g = arith.addf %one, %two : f32
  %h = arith.addf %f, %f : f32
  %m = arith.minsi %b, %c3 : i32
  func.return %a, %b2, %d, %e2, %eq, %g, %h, %m : i32, i32, i32, index, i1, f32, f32, i32
}
"""


_RIGHT_CASES = [
    ("a", "addi", "%x", "%c7", "i32"),
    ("b", "muli", "%x", "%c1", "i32"),
    ("c", "muli", "%x", "%c0", "i32"),
    ("d", "subi", "%x", "%c0", "i32"),
    ("e", "andi", "%x", "%c7", "i32"),
    ("k", "addi", "%c7", "%x", "i32"),
    ("m", "minsi", "%x", "%c7", "i32"),
    ("n", "muli", "%x", "%c7", "i32"),
    ("f", "remsi", "%i", "%i4", "index"),
    ("g", "maxsi", "%i", "%i1", "index"),
    ("h", "addi", "%i", "%i0", "index"),
]


def _right_constants() -> str:
    consts = [("c0", 0, "i32"), ("c1", 1, "i32"), ("c7", 7, "i32"), ("i0", 0, "index"), ("i1", 1, "index"), ("i4", 4, "index")]
    types = ", ".join(t for *_, t in _RIGHT_CASES)
    lines = [f"func.func @r(%x: i32, %i: index) -> ({types}) {{"]
    lines += [f"  %{name} = arith.constant {value} : {t}" for name, value, t in consts]
    lines += [f"  %{name} = arith.{op} {lhs}, {rhs} : {t}" for name, op, lhs, rhs, t in _RIGHT_CASES]
    lines += ["  func.return " + ", ".join("%" + c[0] for c in _RIGHT_CASES) + " : " + types, "}"]
    return "\n".join(lines)


RIGHT_CONSTANTS = _right_constants()
"""Integer ops with a constant right operand: zero and unit (`%b`-`%d`, `%h`) fold or rewrite;
the others (`%a`, `%e`, `%f`, `%g`, `%m`, `%n`) are left alone; `%k`'s constant lhs is swapped."""


def _module_before_canonicalize(text: str, target: str):
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        if step.name == "canonicalize":
            return ctx, module
        pass_.apply(ctx, module)
    raise AssertionError("no canonicalize step")


def _corpus() -> list[str]:
    corpus = programs()
    return [generated_module(40)] + [corpus[k] for k in sorted(corpus) if k.startswith("test_corpus_df")]


def test_needs_constant_operand_per_class():
    for cls in (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.AndIOp, arith.MinSIOp, arith.RemSIOp, arith.AddfOp):
        assert needs_constant_operand(cls), cls
    for cls in (arith.CmpiOp, arith.SelectOp, arith.ConstantOp):  # cmpi folds x == x; select its own patterns
        assert not needs_constant_operand(cls), cls
    for cls in (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.AndIOp, arith.MinSIOp, arith.MaxSIOp, arith.RemSIOp):
        assert identity_only(cls), cls
    for cls in (arith.AddfOp, arith.CmpiOp, arith.SelectOp):
        assert not identity_only(cls), cls


@pytest.mark.parametrize("target", ["avx2", "scalar"])
def test_skipped_ops_are_left_alone_by_xdsl(target):
    """Every op the applier would skip, in the module canonicalize gets, is rewritten by neither
    xDSL's canonicalization patterns nor its folder (those without a constant operand, and the
    integer ops whose only constant is a right one that is neither zero nor unit)."""
    skipped = right_constant = 0
    ctx = lc.make_context()
    modules = [lc.parse(RIGHT_CONSTANTS, ctx, "r")]
    for text in _corpus():
        try:
            modules.append(_module_before_canonicalize(text, target)[1])
        except Exception:  # noqa: BLE001 - a program this target rejects
            continue
    for module in modules:
        for op in list(module.walk())[1:]:
            if not skips_folder_and_patterns(op):
                continue
            skipped += 1
            right_constant += _has_constant_operand(op)
            rewriter = PatternRewriter(op)
            CanonicalizationRewritePattern().match_and_rewrite(op, rewriter)
            assert not rewriter.has_done_action, op.name
            if op.has_trait(HasFolder) and not op.has_trait(ConstantLike):
                assert Folder(ctx).try_fold(op) is None, op.name
    assert skipped > 100 and right_constant > 50


@pytest.mark.parametrize("target", ["avx2", "scalar"])
def test_canonicalize_rewrites_as_xdsls(target):
    """The pass with the skipping applier gives the IR of xDSL's own `canonicalize` (whole walk,
    no skipping), on the corpus before loop-pipeline's canonicalize step and on scalar folds whose
    constants appear during the walk (`%b` folds, then `%b2` reads a constant)."""
    texts = _corpus() + [SCALARS]
    compared = 0
    for text in texts:
        try:
            ctx, ours = _module_before_canonicalize(text, target)
        except Exception:  # noqa: BLE001 - a program this target rejects
            continue
        theirs = ours.clone()
        CandidateCanonicalizePass().apply(ctx, ours)
        CanonicalizePass().apply(ctx, theirs)
        assert str(ours) == str(theirs)
        compared += 1
    assert compared > 10
    ctx = lc.make_context()
    module = lc.parse(SCALARS, ctx, "t")
    CandidateCanonicalizePass().apply(ctx, module)
    text = str(module)
    assert "arith.muli" not in text and "arith.cmpi" not in text and "%g = arith.constant 3.0" in text  # folded
    assert "%b2 = arith.addi %x, %b" in text  # operands swapped once %b became a constant
    assert "%h = arith.addf %f, %f" in text and "%d = arith.subi %x, %x" in text  # no constant: kept
    ours = lc.parse(RIGHT_CONSTANTS, ctx, "r")
    theirs = ours.clone()
    CandidateCanonicalizePass().apply(ctx, ours)
    CanonicalizePass().apply(ctx, theirs)
    text = str(ours)
    assert text == str(theirs)
    for kept in ("%a = arith.addi %x, %c7", "%e = arith.andi %x, %c7", "%f = arith.remsi %i, %i4", "%n = arith.muli %x, %c7"):
        assert kept in text, kept
    assert "%k = arith.addi %x, %c7" in text  # the constant moved right
    assert "%b = " not in text and "%d = " not in text and "%h = " not in text  # x*1, x-0, i+0 folded


DEAD_CYCLES = """
func.func @cycles(%x: i32) -> i32 {
  %a = arith.addi %b, %x : i32
  %b = arith.addi %a, %x : i32
  %s = arith.muli %s, %x : i32
  func.return %x : i32
}
"""
"""Pure ops dead only as a use cycle (two ops, one op using itself; xDSL's parser takes forward
references): each has a user, so no round finds one trivially dead; only region_dce deletes them."""

UNREACHABLE = """
func.func @g(%x: index) -> index {
  func.return %x : index
^dead:
  %y = arith.muli %x, %x : index
  %z = arith.addi %y, %x : index
  func.return %z : index
}
"""
"""A block no branch reaches (its ops are live by xDSL's rules, as a terminator is never dead,
but region_dce deletes the block)."""


@pytest.mark.parametrize("text", [DEAD_CYCLES, UNREACHABLE])
def test_canonicalize_deletes_what_only_region_dce_finds(text):
    """canonicalize leaves region_dce out after a round that changed nothing only when the fill
    rules out what it could still delete (CanonicalizeWalker): dead use cycles and unreachable
    blocks are deleted as by xDSL's canonicalize."""
    ctx = lc.make_context()
    ours = lc.parse(text, ctx, "t")
    theirs = ours.clone()
    CandidateCanonicalizePass().apply(ctx, ours)
    CanonicalizePass().apply(ctx, theirs)
    assert str(ours) == str(theirs)
    assert "arith.addi" not in str(ours) and "arith.muli" not in str(ours)


def test_canonicalize_runs_region_dce_only_when_it_can_delete(monkeypatch):
    """On a lowered module canonicalize changes nothing and its one round needs no region_dce;
    with a use cycle among pure ops (or a round that changed something) region_dce runs."""
    import loopopt.passes.candidate_walker as cw

    calls: list[bool] = []
    real = cw.memo_region_dce

    def counted(region, listener=None):
        calls.append(True)
        return real(region, listener)

    monkeypatch.setattr(cw, "memo_region_dce", counted)
    ctx, module = _module_before_canonicalize(generated_module(40), "avx2")
    before = str(module)
    CandidateCanonicalizePass().apply(ctx, module)
    assert str(module) == before and calls == []
    for text in (DEAD_CYCLES, UNREACHABLE, SCALARS):
        calls.clear()
        CandidateCanonicalizePass().apply(ctx, lc.parse(text, ctx, "t"))
        assert calls, text
