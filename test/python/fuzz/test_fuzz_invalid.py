"""The hostile-input fuzzer (`loopopt.tools.fuzz.invalid`): a fixed-seed slice that must find
nothing, and its oracle, shown to catch what it is there to catch (a traceback, an internal
error, an unlocated error, C that does not compile, a hang, a wrong jit result)."""

from __future__ import annotations

import random
import sys
import time

import numpy as np
import pytest

from loopopt.tools.fuzz import invalid
from loopopt.tools.fuzz.invalid_jit import _same
from loopopt.tools.fuzz.invalid_mutate import MUTATORS, Case, make_case, mutate, seed_texts

SLICE_SEEDS = (20261127, 7)


@pytest.mark.parametrize("seed", SLICE_SEEDS)
def test_fixed_seed_slice_finds_nothing(seed: int) -> None:
    """Five hostile cases a seed (loop-opt, loopopt.compile.emit and jit), no interpreter runs."""
    counts, failures = invalid.fuzz(seed, 5, check_rate=0.0, api_rate=0.3, jit_rate=0.15, timeout=60)
    assert counts["cases"] == 5
    assert not failures, "\n\n".join(f"{sig}\n{f.case.argv('case.mlir')}\n{f.case.text}\n{f.message}"
                                     for sig, f in failures.items())


def test_judge_diagnostic() -> None:
    assert invalid.judge_diagnostic(1, "k.mlir:3:7: error: 'df.map' expects 2 operands") is None
    assert invalid.judge_diagnostic(2, "<stdin>: error: unknown pass 'loop-pipline'") is None
    assert invalid.judge_diagnostic(1, "Traceback (most recent call last):\n  ...\nKeyError: 'x'")[0] == "traceback"
    assert invalid.judge_diagnostic(1, "k.mlir:3:7: internal error: KeyError: 'x' (please report)")[0] == "internal"
    assert invalid.judge_diagnostic(1, "something went wrong")[0] == "unlocated"
    assert invalid.judge_diagnostic(1, "")[0] == "unlocated"


def _raise() -> int:
    raise KeyError("escaped")


def _hang() -> int:
    time.sleep(60)
    return 0


def test_forked_cases_catch_escaping_exceptions_and_hangs() -> None:
    got = invalid.run_forked(_raise, 30)
    assert got.rc == invalid.CHILD_CRASH and "Traceback" in got.err and "KeyError" in got.err
    start = time.monotonic()
    assert invalid.run_forked(_hang, 0.5).rc is None
    assert time.monotonic() - start < 10
    got = invalid.run_forked(lambda: print("out") or print("err", file=sys.stderr) or 3, 30)
    assert (got.rc, got.out, got.err) == (3, "out\n", "err\n")


def test_compile_c_holds_c_to_werror() -> None:
    good = "/*\n * target: avx2 (-mavx2 -mfma)\n */\n#include <immintrin.h>\n__m256 f(__m256 a) { return _mm256_fmadd_ps(a, a, a); }\n"
    assert invalid.compile_c(good) is None
    assert "unused variable" in invalid.compile_c("void f(void) { int x = 1; }\n")
    # the header's flags are the ones used: without -mfma the same C fails
    assert invalid.compile_c(good.replace(" -mfma", "")) is not None


def _case() -> Case:
    text = "func.func @f(%x: !df.array<f32, [i]>) -> f32 {\n  %z = arith.constant 0.0 : f32\n" \
           "  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32\n  func.return %s : f32\n}\n"
    return Case(text, "loop-pipeline{target=avx2}", "c", "avx2", ["none"], "test")


def _crashes(argv: list[str]) -> int:
    raise AttributeError("'NoneType' object has no attribute 'value'")


def _internal(argv: list[str]) -> int:
    print("k.mlir:3:5: internal error: pass 'df-fuse' failed: KeyError: 3 (please report)", file=sys.stderr)
    return 1


def _bad_c(argv: list[str]) -> int:
    print("/*\n * target: scalar (portable C)\n */\nfloat f(const float *x) { float unused = 1; return x[0]; }")
    return 0


def _unlocated(argv: list[str]) -> int:
    print("error", file=sys.stderr)
    return 1


@pytest.mark.parametrize(("fake", "kind", "text", "timeout"), [
    (None, None, "", 60),  # the real loop-opt: fine
    (_crashes, "traceback", "AttributeError", 60),
    (_internal, "internal", "KeyError", 60),
    (_bad_c, "compile_error", "unused", 60),
    (_unlocated, "unlocated", "error", 60),
    (lambda argv: _hang(), "timeout", "", 0.3),
])  # fmt: skip
def test_oracle_catches_injected_failures(monkeypatch: pytest.MonkeyPatch, tmp_path, fake, kind, text, timeout) -> None:  # noqa: ANN001
    """loop-opt replaced by one that raises, reports an internal error, prints C with a warning,
    prints an unlocated error or hangs: each is the failure it should be."""
    from loopopt.tools import loop_opt

    case = _case()
    path = tmp_path / "k.mlir"
    path.write_text(case.text)
    if fake is not None:
        monkeypatch.setattr(loop_opt, "run", fake)
    failure = invalid.check_cli(case, str(path), timeout, 0.0, random.Random(0))
    assert (failure and failure.kind) == kind
    assert failure is None or text in failure.message


def test_jit_comparison_catches_wrong_results() -> None:
    assert _same(np.float32(3.0), np.float32(3.0)) is None
    assert _same(np.array([1, 2], np.int32), np.array([1, 3], np.int32)) is not None
    assert _same((np.float64(np.nan), np.array([True])), (np.float64(np.nan), np.array([True]))) is None
    assert _same(np.array([1.0, 2.0]), np.array([1.0])) is not None
    assert _same(np.float64(1.5), np.int64(1)) is not None


def test_mutations_change_the_program_deterministically() -> None:
    seeds = seed_texts()
    assert len(seeds) > 20
    name, text = seeds[0]
    for mutator in sorted(MUTATORS):
        rng = random.Random(3)
        out = MUTATORS[mutator](rng, text)
        assert out is None or isinstance(out, str), mutator
    assert mutate(random.Random(5), text, 2) == mutate(random.Random(5), text, 2)
    assert mutate(random.Random(5), text, 2)[0] != text
    case = make_case(random.Random(11), seeds, 11)
    assert case.argv("k.mlir")[0] == "k.mlir" and "-t" in case.argv("k.mlir")
