"""convert-loop-to-simd clones a loop body's K copies (and the remainder loop's one block) from
the first copy instead of translating the body again (issue #11, docs/compile_time.md, twelfth
round): lowering/loop_to_simd/copies.py.

The IR must be exactly what translating every copy gives: these tests compare the module right
after the lowering, cloning on and off (`Trace.holds` refusing every trace), on the df corpus
and the benchmark module, for every target, two CPU models (zen4 takes the split, half-load and
stream-fold loops) and the masked tail; and check that the copies are cloned at all."""

from __future__ import annotations

import pytest

import loopopt.compile as lc
from loopopt.lowering.loop_to_simd import copies
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

MACHINES = [("avx2", "zen3"), ("avx2", "zen4"), ("avx512", "zen4"), ("sse2", "zen3"), ("neon", "neoverse-n1"),
            ("scalar", "zen3")]
"""(target, cpu): every target, with a CPU model that has it (zen4 takes the split, half-load and stream-fold loops)."""

CORPUS = {k: v for k, v in programs().items() if k.startswith("test_corpus_df")}
CORPUS["generated_200"] = generated_module(200)


def _ir(text: str, target: str, cpu: str, tail: str = "") -> str:
    """The module right after convert-loop-to-simd in loop-pipeline{target cpu tail} (not after
    the pipeline: cse would merge an op a clone emitted twice)."""
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    try:
        for step, pass_ in LoopPipelinePass(target=target, cpu=cpu, tail=tail).step_passes():
            pass_.apply(ctx, module)
            if step.name == "convert-loop-to-simd":
                return str(module)
    except Exception as e:  # noqa: BLE001 - a diagnostic must be the same too
        return f"ERROR {type(e).__name__}: {e}"
    raise AssertionError("no convert-loop-to-simd step")


@pytest.mark.parametrize(("target", "cpu"), MACHINES)
def test_cloned_copies_equal_translated_ones(target: str, cpu: str, monkeypatch: pytest.MonkeyPatch) -> None:
    masked = ["generated_200", "test_corpus_df__filter", "test_corpus_df__rank2"]
    cases = [(name, "") for name in CORPUS] + [(name, "masked") for name in masked]
    cloned = {(name, tail): _ir(CORPUS[name], target, cpu, tail) for name, tail in cases}
    monkeypatch.setattr(copies.Trace, "holds", lambda self, volatile: False)
    for (name, tail), ir in cloned.items():
        assert _ir(CORPUS[name], target, cpu, tail) == ir, f"{name} {target} {cpu} {tail}: the cloned copies differ from the translated ones"


@pytest.mark.parametrize(("target", "cpu"), MACHINES)
def test_copies_are_cloned(target: str, cpu: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark module's kernels (a map vecloop and a filtered-sum predloop, K = 2-4):
    every main loop's copies after the first and every remainder block are clones."""
    calls: list[bool] = []
    real = copies.clone_copy

    def counting(trace, block, inputs, fresh=False):  # type: ignore[no-untyped-def]
        calls.append(fresh)
        return real(trace, block, inputs, fresh)

    monkeypatch.setattr(copies, "clone_copy", counting)  # (copies.Copies, which both loops use, calls it)
    kernels = 10
    assert not _ir(generated_module(19 * kernels), target, cpu).startswith("ERROR")
    if target == "scalar":  # the vecloop is a scalar loop; the predloop keeps K = 4 width-1 blocks
        assert calls.count(True) == kernels and calls.count(False) == 3 * kernels
        return
    assert calls.count(True) == 2 * kernels  # the vecloop's and the predloop's remainder block
    assert calls.count(False) >= 2 * kernels  # the main loops' copies after the first (K >= 2)
