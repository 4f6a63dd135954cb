"""Compile time, seventh round (docs/compile_time.md): df-fuse moves the bodies of the ops a
fusion erases instead of cloning them, and the pattern walkers offer an op only the patterns
rooted at its class (passes/pattern_dispatch.py). Both must leave the IR (and the use lists
the later passes read) exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

import loopopt.compile as lc
from loopopt.dialects import df, loop
from loopopt.passes import df_fuse
from loopopt.passes.df_fusion import FusionOptions, populate_df_fusion_patterns, rebuild
from loopopt.passes.loop_fuse import FuseWithPreviousLoop
from loopopt.passes.loop_simplify import populate_loop_simplify_patterns
from loopopt.passes.pattern_dispatch import DispatchApplier, pattern_roots
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.fuzz.generate import GenOptions, Generator
from loopopt.tools.fuzz.printer import print_module

ROOT = Path(__file__).resolve().parents[3]


def _df_programs() -> list[str]:
    """The c_stable corpus, every df-fuse FileCheck input (split at `// -----`) and 120 fuzz kernels."""
    texts = list(programs().values())
    for folder in ("test/filecheck/passes/df-fuse", "test/filecheck/remarks/df-fuse"):
        for path in sorted((ROOT / folder).glob("*.mlir")):
            texts += path.read_text().split("// -----")
    everything = GenOptions(exclude=frozenset())
    for seed in range(0, 120, 4):
        texts.append(print_module([Generator(seed + k, everything).kernel(f"k{k}") for k in range(4)]))
    return texts


def _parsed(text: str):
    ctx = lc.make_context()
    try:
        return ctx, lc.parse(text, ctx, "t")
    except Exception:  # noqa: BLE001 - error-test inputs
        return None


def fingerprint(module: Operation) -> tuple[str, list]:
    """The printed IR and, for every value, its users (op position, operand index) in use-list order
    (a user outside the module, e.g. an op a pass dropped without erasing, by its name)."""
    position = {id(op): k for k, op in enumerate(module.walk())}
    values: list[SSAValue] = []
    for op in module.walk():
        for region in op.regions:
            for block in region.blocks:
                values += block.args
        values += op.results
    uses = [[(position.get(id(u.operation), u.operation.name), u.index) for u in v.uses] for v in values]
    return str(module), uses


def _old_df_fuse(module, monkeypatch) -> None:
    """df-fuse as before this round: xDSL's applier, every body cloned."""
    with monkeypatch.context() as m:
        m.setattr(rebuild, "MOVE_BODIES", False)
        patterns = populate_df_fusion_patterns(FusionOptions(8, True, True))
        PatternRewriteWalker(GreedyRewritePatternApplier(list(patterns), dce_enabled=False)).rewrite_module(module)


def test_df_fuse_moving_bodies_gives_the_cloned_ir_and_use_lists(monkeypatch):
    compared = fused = 0
    for text in _df_programs():
        parsed, again = _parsed(text), _parsed(text)
        if parsed is None:
            continue
        (ctx, old), (_, new) = parsed, again
        before = str(old)
        _old_df_fuse(old, monkeypatch)
        df_fuse.DFFusePass().apply(ctx, new)
        assert fingerprint(new) == fingerprint(old), text
        compared += 1
        fused += str(old) != before
    assert compared > 100 and fused > 60  # the corpus exercises the fusions


def test_df_fuse_moves_the_bodies_of_a_chain():
    """map -> map -> reduce whose producers die: one body grows, nothing is cloned."""
    text = """
func.func @k(%x: !df.array<f32, [i]>, %a: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %m1 = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %a, %e : f32
    df.yield %p : f32
  }
  %m2 = df.map %m1 : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %q = arith.addf %e, %a : f32
    df.yield %q : f32
  }
  %t = df.reduce add(%m2, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %t : f32
}
"""
    ctx, module = _parsed(text)
    originals = {op.results[0].name_hint: op for op in module.walk() if isinstance(op, arith.MulfOp | arith.AddfOp)}
    built = []
    init = Operation.__init__

    def counting(self, *args, **kwargs):
        built.append(type(self).__name__)
        init(self, *args, **kwargs)

    Operation.__init__ = counting  # type: ignore[method-assign]
    try:
        df_fuse.DFFusePass().apply(ctx, module)
    finally:
        Operation.__init__ = init  # type: ignore[method-assign]
    (reduce,) = [op for op in module.walk() if isinstance(op, df.ReduceOp)]
    body_ops = list(reduce.map.block.ops)
    assert body_ops[0] is originals["p"] and body_ops[1] is originals["q"]  # moved, not copied
    assert not any(name in ("MulfOp", "AddfOp") for name in built), built


def test_pattern_roots_read_the_roots_attribute_and_op_type_rewrite_pattern():
    class Vec(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: loop.VecLoopOp, rewriter: PatternRewriter) -> None:
            pass

    class Either(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: loop.VecLoopOp | loop.PredLoopOp, rewriter: PatternRewriter) -> None:
            pass

    class Any_(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
            pass

    assert pattern_roots(Vec()) == (loop.VecLoopOp,)
    assert pattern_roots(Either()) == (loop.VecLoopOp, loop.PredLoopOp)
    assert pattern_roots(Any_()) is None
    assert pattern_roots(FuseWithPreviousLoop()) == (loop.LoopLike,)
    roots = {type(p).__name__: pattern_roots(p) for p in populate_df_fusion_patterns(FusionOptions(8, True, True))}
    assert roots["FuseMapIntoMap"] == (df.MapOp,) and None not in roots.values()
    applier = DispatchApplier([Vec(), Any_(), Either()])
    assert [type(p) for p in applier.patterns_for(loop.PredLoopOp)] == [Any_, Either]
    assert [type(p) for p in applier.patterns_for(arith.AddfOp)] == [Any_]
    with pytest.raises(ValueError):
        DispatchApplier([Vec()], folding_enabled=True)


def _acts(pattern: RewritePattern, op: Operation) -> bool:
    rewriter = PatternRewriter(op)
    pattern.match_and_rewrite(op, rewriter)
    return rewriter.has_done_action


def _every_op_through_the_pipeline(texts: list[str], target: str):
    """(step name, op) for every op of each program before every step of loop-pipeline{target}."""
    for text in texts:
        parsed = _parsed(text)
        if parsed is None:
            continue
        ctx, module = parsed
        try:
            for step, pass_ in LoopPipelinePass(target=target).step_passes():
                yield from ((step.name, op) for op in list(module.walk())[1:])
                pass_.apply(ctx, module)
        except Exception:  # noqa: BLE001 - a program the target rejects
            continue


def test_no_pattern_acts_on_an_op_outside_its_roots():
    """What dispatch assumes: a pattern with roots leaves every other op alone (checked on a
    copy of each op's module state: a pattern that acted would have changed the IR)."""
    corpus = programs()
    texts = [corpus[k] for k in sorted(corpus)]
    patterns = {
        "df-fuse": populate_df_fusion_patterns(FusionOptions(8, True, True)),
        "loop-fuse": [FuseWithPreviousLoop()],
        "loop-simplify": populate_loop_simplify_patterns(True, "avx2"),
    }
    checked = 0
    for step, op in _every_op_through_the_pipeline(texts, "avx2"):
        for pattern in patterns.get(step, ()):
            roots = pattern_roots(pattern)
            if roots is not None and not isinstance(op, roots):
                assert not _acts(pattern, op), (step, type(pattern).__name__, op.name)
                checked += 1
    assert checked > 10_000


DISPATCHED = ("df-fuse", "loop-fuse", "loop-simplify")
"""The loop-pipeline steps whose walkers use DispatchApplier."""


@pytest.mark.parametrize("target", ["avx2", "scalar"])
def test_dispatched_pipeline_gives_the_undispatched_ir(monkeypatch, target):
    """Every step of loop-pipeline with the dispatching applier and with all patterns offered
    to every op (xDSL's behaviour): the same IR and use lists after each dispatched step."""
    corpus = programs()
    texts = [corpus[k] for k in sorted(corpus)] + _df_programs()[-8:]
    for text in texts:
        a, b = _parsed(text), _parsed(text)
        if a is None:
            continue
        (ctx_a, mod_a), (ctx_b, mod_b) = a, b
        for step, pass_ in LoopPipelinePass(target=target).step_passes():
            try:
                pass_.apply(ctx_a, mod_a)
            except Exception:  # noqa: BLE001 - a program the target rejects
                break
            with monkeypatch.context() as m:
                m.setattr(DispatchApplier, "patterns_for", lambda self, cls: tuple(self.rewrite_patterns))
                m.setattr(rebuild, "MOVE_BODIES", False)
                pass_.apply(ctx_b, mod_b)
            if step.name in DISPATCHED:
                assert fingerprint(mod_a) == fingerprint(mod_b), (step.name, text[:200])
        assert str(mod_a) == str(mod_b)


def test_dispatch_follows_abc_registration():
    """`issubclass` answers change with an ABC `register`: the per-class lists are rebuilt."""
    import abc

    class Root(abc.ABC):
        pass

    class Rooted(RewritePattern):
        roots = (Root,)

        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
            pass

    applier = DispatchApplier([Rooted()])
    assert applier.patterns_for(arith.AddfOp) == ()
    Root.register(arith.AddfOp)
    assert len(applier.patterns_for(arith.AddfOp)) == 1


def test_fill_order_is_xdsls_reverse_region_first_walk():
    """CandidateRewriteWalker's fill pushes in xDSL's `walk(reverse=True, region_first=True)`
    order (the greedy rewrites' order depends on it): same list on every lowered corpus module,
    and an op class with its own `walk` is walked by it."""
    from loopopt.passes.candidate_walker import reverse_postorder

    corpus = programs()
    compared = 0
    for name in sorted(corpus):
        parsed = _parsed(corpus[name])
        if parsed is None:
            continue
        ctx, module = parsed
        for step, pass_ in LoopPipelinePass(target="avx2").step_passes():
            if step.name in ("loop-vectorize", "cse"):
                got = reverse_postorder(module.body)
                want = list(module.body.walk(reverse=True, region_first=True))
                assert len(got) == len(want) and all(a is b for a, b in zip(got, want, strict=True)), name
                compared += len(want)
            try:
                pass_.apply(ctx, module)
            except Exception:  # noqa: BLE001 - a program the target rejects
                break
    assert compared > 10_000

    class OwnWalk(loop.ForOp):
        def walk(self, *, reverse: bool = False, region_first: bool = False):
            yield self  # hides its body

    ctx, module = _parsed(corpus["examples__sum_of_squares"])
    lc.run_pipeline(module, "df-fuse,convert-df-to-loop", ctx)
    (for_op,) = [op for op in module.walk() if type(op) is loop.ForOp][:1]
    for_op.__class__ = OwnWalk
    got = reverse_postorder(module.body)
    assert [op for op in got if op is for_op] == [for_op]
    assert not any(op.parent_op() is for_op for op in got)
    assert got == list(module.body.walk(reverse=True, region_first=True))


def test_shared_access_and_loop_attributes_equal_fresh_ones():
    """The dense arrays of an access and a loop's properties are shared per value: equal to the
    attributes built fresh, and every op still owns its properties dict."""
    from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, i64

    from loopopt.dialects import loop_affine
    from loopopt.dialects.loop import RangeKind, RangeKindAttr, _loop_props

    for values in [(), (0,), (1,), (1, 2, -3), (2**62, -(2**63))]:
        a = loop_affine.i64_array(values)
        assert a == DenseArrayBase.from_list(i64, values) and a is loop_affine.i64_array(tuple(values))
    with pytest.raises(Exception):  # noqa: B017 - xDSL's own error, every time
        loop_affine.i64_array((2**64,))
    with pytest.raises(Exception):  # noqa: B017
        loop_affine.i64_array((2**64,))
    one, two = _loop_props(RangeKind.INTERVAL, []), _loop_props(RangeKind.INTERVAL, [])
    assert one == {"range_kind": RangeKindAttr(RangeKind.INTERVAL), "accs": ArrayAttr([])} and one is not two
    ctx, module = _parsed(programs()["examples__sum_of_squares"])
    lc.run_pipeline(module, "df-fuse,convert-df-to-loop", ctx)
    loops = [op for op in module.walk() if isinstance(op, loop.LoopLike)]
    assert loops and all(str(op) == str(op.clone()) for op in loops)
    props = [op.properties for op in loops]
    assert len({id(p) for p in props}) == len(props)


def test_fast_lexer_gives_xdsls_tokens():
    """xdsl_fastpaths' `MLIRLexer.lex` (punctuation table built once) lexes every .mlir file of
    the repository (and some malformed text) into xDSL's tokens: same kinds, same spans (built
    without `Span.__init__`: the same fields in the same order), same errors."""
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.lexer import Input
    from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

    fast = MLIRLexer.lex
    slow = fast.__wrapped__  # installed by loopopt.diagnostics' import of xdsl_fastpaths

    def tokens(text: str, lex) -> list:
        lexer, out = MLIRLexer(Input(text, "t")), []
        while True:
            try:
                token = lex(lexer)
            except ParseError as e:
                return [*out, ("error", str(e))]
            span = token.span  # equal fields (line_offset too), set in the dataclass's order
            out.append((token.kind, type(span), span, tuple(vars(span).items())))
            if token.kind == MLIRTokenKind.EOF:
                return out

    texts = []
    paths = [p for folder in ("test", "examples", "tools", "docs") for p in sorted((ROOT / folder).rglob("*.mlir"))]
    for path in paths:
        if "Output" in path.parts:
            continue  # lit's scratch files
        try:
            texts.append(path.read_text())
        except UnicodeDecodeError:  # a test of the parser's encoding errors
            continue
    texts += ["%x = a.b {-# x #-} ... -> : , ( ) } [ ] < > = + / * ? | @f @\"s\" #a !b ^bb0 \"s\" 12 1.5e3 0x1F",
              "..", "`", "@", "&", "x = 1 // comment\n  y", "{-#", "#-}",
              "%", "% x", "!", "^", "%-", "%$a.b", "%12ab", "^bb0:", "!df.array<f32, [i]>", "\u00e9t\u00e9 _x", "x", "%1",
              "x // trailing", "   ", "", "%x#y", "!", "a$b.c\n\t%0"]
    assert len(texts) > 200
    for text in texts:
        assert tokens(text, fast) == tokens(text, slow), text[:200]
