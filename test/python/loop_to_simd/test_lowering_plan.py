"""convert-loop-to-simd decides each body's translation once and replays it per block (issue #11,
docs/compile_time.md, eighth round): lowering/loop_to_simd/plan.py.

The C is unchanged (checked with `tools/bench/c_stable.py` against main); these tests pin the
structure: one plan per source block however many blocks are emitted, and every op built from a
template (`plan.rebuild`) equal to the one its IRDL constructor builds."""

from __future__ import annotations

from typing import Any

import pytest

import loopopt.compile as lc
from loopopt.diagnostics import LoopoptDiagnostic, verify_located
from loopopt.dialects import loop
from loopopt.lowering.loop_to_simd import lanes, plan, range as block_range
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

TARGETS = ["avx2", "avx512", "sse2", "neon", "scalar"]

CORPUS = sorted(k for k in programs() if k.startswith("test_corpus_df"))


def _lower(text: str, target: str) -> Any:
    """`text` through loop-pipeline{target} up to and including convert-loop-to-simd."""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        pass_.apply(ctx, module)
        if step.name == "convert-loop-to-simd":
            return module
    raise AssertionError("no convert-loop-to-simd step")


def _source_blocks(text: str, target: str) -> int:
    """Blocks the lowering translates: each vector loop's body, and a predloop's pred region."""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        if step.name == "convert-loop-to-simd":
            break
        pass_.apply(ctx, module)
    loops = [o for o in module.walk() if isinstance(o, loop.VecLoopOp | loop.PredLoopOp) and o.width.concrete != 1]
    return sum(2 if isinstance(o, loop.PredLoopOp) else 1 for o in loops)


@pytest.mark.parametrize("target", ["avx2", "avx512", "sse2"])
def test_each_source_block_is_planned_once(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark module (map -> map -> filter -> map -> reduce): every vecloop body and
    predloop region is planned once, though each is emitted 3-9 times (K copies, remainder,
    masked tail, streaming and split loops)."""
    planned: list[int] = []
    emitted: list[int] = []
    real_plan, real_run = lanes.body_plan, lanes.BlockEmitter.run

    def counting_plan(block, *args):  # type: ignore[no-untyped-def]
        planned.append(id(block))
        return real_plan(block, *args)

    def counting_run(self, source):  # type: ignore[no-untyped-def]
        emitted.append(id(source))
        return real_run(self, source)

    monkeypatch.setattr(lanes, "body_plan", counting_plan)
    monkeypatch.setattr(lanes.BlockEmitter, "run", counting_run)
    text = generated_module(200)
    _lower(text, target)
    blocks = _source_blocks(text, target)
    assert blocks > 0
    assert len(planned) == len(set(planned)) == blocks
    assert len(emitted) >= 2 * blocks  # replayed: the decisions were not taken per emitted block (the K copies after the first are cloned: copies.py)


@pytest.mark.parametrize("target", TARGETS)
def test_rebuilt_ops_equal_constructed_ones(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every op `plan.rebuild` builds from a template (class, result types, properties and
    attributes of the first op built under its key) equals what the op's constructor gives for
    the same operands, on the df corpus and the benchmark module; the lowered modules verify."""
    real = plan.rebuild
    checked = [0]

    def checking(key, operands, make, regions=[]):  # type: ignore[no-untyped-def]  # noqa: B006
        op = real(key, operands, make, regions)
        if regions:  # a loop.for: `make` would take the same region; the module verification checks it
            return op
        fresh = make()
        assert type(fresh) is type(op), key
        assert [r.type for r in fresh.results] == [r.type for r in op.results], key
        assert fresh.properties == op.properties and fresh.attributes == op.attributes, key
        assert list(fresh.operands) == list(op.operands), key
        fresh.drop_all_references()
        checked[0] += 1
        return op

    monkeypatch.setattr(lanes, "rebuild", checking)
    monkeypatch.setattr(block_range, "rebuild", checking)
    monkeypatch.setattr(plan, "rebuild", checking)  # plan.binary's
    texts = [generated_module(200)] + [programs()[name] for name in CORPUS]
    for text in texts:
        try:
            module = _lower(text, target)
        except LoopoptDiagnostic:  # a corpus program the target rejects: nothing to compare
            continue
        verify_located(module)
    assert checked[0] > 100
