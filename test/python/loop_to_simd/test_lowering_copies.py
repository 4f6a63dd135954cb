"""convert-loop-to-simd clones a loop body's K copies (and the remainder loop's one block) from
the first copy instead of translating the body again (issue #11, docs/compile_time.md, twelfth
round): lowering/loop_to_simd/copies.py.

The IR must be exactly what translating every copy gives: these tests compare the module after
the whole pipeline, cloning on and off (`Trace.holds` refusing every trace), on the df corpus
and the benchmark module, for every target, two CPU models (zen4 takes the split, half-load and
stream-fold loops) and the masked tail; and check that the copies are cloned at all."""

from __future__ import annotations

import pytest

import loopopt.compile as lc
from loopopt.lowering.loop_to_simd import copies, predloop, vecloop
from loopopt.tools.bench.c_stable import programs
from loopopt.tools.bench.overhead import generated_module

TARGETS = ["avx2", "avx512", "sse2", "neon", "scalar"]

CORPUS = {k: v for k, v in programs().items() if k.startswith("test_corpus_df")}
CORPUS["generated_200"] = generated_module(200)


def _ir(text: str, spec: str) -> str:
    ctx = lc.make_context()
    module = lc.parse(text, ctx, "t")
    try:
        lc.run_pipeline(module, spec, ctx)
    except Exception as e:  # noqa: BLE001 - a diagnostic must be the same too
        return f"ERROR {type(e).__name__}: {e}"
    return str(module)


@pytest.mark.parametrize("cpu", ["zen3", "zen4"])
@pytest.mark.parametrize("target", TARGETS)
def test_cloned_copies_equal_translated_ones(target: str, cpu: str, monkeypatch: pytest.MonkeyPatch) -> None:
    specs = [f"loop-pipeline{{target={target} cpu={cpu}}}", f"loop-pipeline{{target={target} cpu={cpu} tail=masked}}"]
    cloned = {(name, spec): _ir(text, spec) for name, text in CORPUS.items() for spec in specs}
    monkeypatch.setattr(copies.Trace, "holds", lambda self, volatile: False)
    for (name, spec), ir in cloned.items():
        assert _ir(CORPUS[name], spec) == ir, f"{name} {spec}: the cloned copies differ from the translated ones"


@pytest.mark.parametrize("target", ["avx2", "avx512", "sse2", "neon"])
def test_copies_are_cloned(target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark module's kernels (a map vecloop and a filtered-sum predloop, K = 4 or 2):
    every main loop's copies after the first and every remainder block are clones."""
    calls: list[bool] = []
    real = copies.clone_copy

    def counting(trace, block, inputs, fresh=False):  # type: ignore[no-untyped-def]
        calls.append(fresh)
        return real(trace, block, inputs, fresh)

    monkeypatch.setattr(vecloop, "clone_copy", counting)
    monkeypatch.setattr(predloop, "clone_copy", counting)
    kernels = 10
    _ir(generated_module(19 * kernels), f"loop-pipeline{{target={target} cpu=zen3}}")
    k = 4 if target in ("avx2", "avx512") else 2
    assert calls.count(True) == 2 * kernels  # the vecloop's and the predloop's remainder block
    assert calls.count(False) >= 2 * (k - 1) * kernels  # the main loops' copies after the first
