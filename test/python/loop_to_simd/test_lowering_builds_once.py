"""convert-loop-to-simd builds each value once per block (issue #11, docs/compile_time.md, seventh
round): a predloop's body recomputes what its pred region computed, and the lowering used to
emit both copies for `cse` to erase afterwards (2,014 ops per 1,000 df ops)."""

from __future__ import annotations

from collections import Counter

import pytest
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation

import loopopt.compile as lc
from loopopt.dialects import loop
from loopopt.lowering.loop_to_simd.lanes import numberable, op_key
from loopopt.passes.cached_cse import HashedCSEPass
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

TARGETS = ["avx2", "avx512", "sse2", "neon", "scalar"]

CORPUS = sorted(k for k in programs() if k.startswith("test_corpus_df"))


def _lowered(text: str, target: str):
    """`text` through loop-pipeline{target} up to and including convert-loop-to-simd."""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        pass_.apply(ctx, module)
        if step.name == "convert-loop-to-simd":
            return ctx, module
    raise AssertionError("no convert-loop-to-simd step")


def _duplicates(module) -> list[str]:
    """Ops of a lowered vector loop body (an innermost loop with a vector value; scalar tails and
    fallbacks are the source's body as it was) equal to an earlier op of the same body: what
    cse would erase."""
    out = []
    for op in module.walk():
        ops = op.body.block.ops if isinstance(op, loop.ForOp) else ()
        if not any(isinstance(r.type, VectorType) for o in ops for r in o.results) or any(o.regions for o in ops):
            continue  # not a block the lowering built (a scalar loop, or one holding lowered loops)
        seen: set = set()
        for inner in op.body.block.ops:
            if not numberable(inner):
                continue
            key = op_key(inner, tuple(map(id, inner.operands)))
            if key in seen:
                out.append(str(inner))
            seen.add(key)
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_generated_module_bodies_have_no_duplicates(target: str) -> None:
    """The compile-time benchmark's kernel (map -> map -> filter -> map -> reduce, fused into a
    predloop whose pred and body both compute the maps): no lowered loop body computes a value twice."""
    _, module = _lowered(generated_module(19 * 3), target)
    assert _duplicates(module) == []


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_bodies_have_no_duplicates(name: str, target: str) -> None:
    try:
        _, module = _lowered(programs()[name], target)
    except Exception:  # noqa: BLE001 - a program this target rejects has no lowered module
        pytest.skip(f"{name} does not lower on {target}")
    assert _duplicates(module) == []


@pytest.mark.parametrize("target", ["avx2", "avx512", "sse2"])
def test_cse_erases_nothing_after_the_lowering(target: str) -> None:
    """On the benchmark module cse finds nothing left to merge after convert-loop-to-simd: not in
    the lowered loops, nor the preheader constants, broadcasts and trip counts that the loops of
    one function share (they were built once per loop: 2,014 erased per 1,000 df ops before)."""
    ctx, module = _lowered(generated_module(19 * 3), target)
    before = Counter(o.name for o in module.walk())
    HashedCSEPass().apply(ctx, module)
    assert before - Counter(o.name for o in module.walk()) == Counter()


def test_numberable_is_per_class_and_excludes_effects() -> None:
    """Loads, stores and appends are never merged by value (a store between them matters)."""
    ctx, module = _lowered(generated_module(19), "avx2")
    kinds = {type(o): numberable(o) for o in module.walk() if isinstance(o, Operation)}
    assert not any(v for k, v in kinds.items() if k.__name__ in ("LoadOp", "StoreOp", "CompressStoreOp", "ForOp", "YieldOp"))
    assert any(v for k, v in kinds.items() if k.__name__ in ("AddfOp", "FmaOp"))


@pytest.mark.parametrize("target", ["avx2", "avx512", "sse2", "scalar", "neon"])
def test_loop_simplify_rewrites_nothing_after_the_lowering(target: str) -> None:
    """The loop-simplify step after convert-loop-to-simd leaves the benchmark module as it is: the
    lowering no longer emits the `0 + done` of a block boundary (a range from a constant 0) nor
    loop-unroll the `hi - 0` of a trip count, which were its only rewrites there and made it walk
    the whole lowered module a second time (docs/compile_time.md, ninth round), nor, on neon (no
    fence loop to read it), the trip count's unused `1 : index` step (tenth round)."""
    ctx = lc.make_context()
    module = lc.parse(generated_module(19 * 3), ctx, "t")
    steps = LoopPipelinePass(target=target).step_passes()
    at = next(i for i, (step, _) in enumerate(steps) if step.name == "convert-loop-to-simd")
    for _, pass_ in steps[: at + 1]:
        pass_.apply(ctx, module)
    step, simplify = steps[at + 1]
    assert step.name == "loop-simplify"
    before = str(module)
    simplify.apply(ctx, module)
    assert str(module) == before
