"""Every corpus kernel, through the df interpreter, equals its numpy reference.

Sizes: empty, one, around a vector width of 8, large and a prime (corpus.SIZES).
Also: every corpus file parses, verifies and round-trips through `loop-opt`.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from corpus import CORPUS_DIR, SIZES, load_corpus

from loopopt.tools.loop_opt import run as loop_opt

CASES = load_corpus()
FILES = sorted(CORPUS_DIR.glob("*.mlir"))


def test_corpus_is_complete():
    """The corpus covers every df op kind and all four numeric dtypes."""
    text = "\n".join(p.read_text() for p in FILES)
    assert len(CASES) >= 30
    for op in ("df.map", "df.filter", "df.select", "df.fold", "df.scan", "df.range",
               "df.make_tuple", "df.get", "df.make_records", "df.field", "df.decl_ref"):
        assert op in text, op
    for kind in ("add", "mul", "min", "max", "and", "or", "custom"):
        assert f"df.reduce {kind}(" in text or f", {kind}(" in text, kind
    for dtype in ("f32", "f64", "i32", "i64"):
        assert sum(case.kernel.endswith(dtype) for case in CASES) >= 5, dtype
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_interpreter_matches_numpy(case):
    for n in SIZES:
        rng = np.random.default_rng(zlib.crc32(f"{case.id}:{n}".encode()))
        inputs = case.make_inputs(n, rng)
        case.compare(case.run(inputs), case.reference(inputs))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_file_round_trips(path, tmp_path, capsys):
    assert loop_opt([str(path)]) == 0
    printed = capsys.readouterr().out
    again = tmp_path / "again.mlir"
    again.write_text(printed)
    assert loop_opt([str(again)]) == 0
    assert capsys.readouterr().out == printed
    assert loop_opt([str(path), "--print-op-generic"]) == 0
    generic = tmp_path / "generic.mlir"
    generic.write_text(capsys.readouterr().out)
    assert loop_opt([str(generic)]) == 0
    assert capsys.readouterr().out == printed


def test_compare_rejects_wrong_results():
    """The comparison is not vacuous: a perturbed result fails for each tolerance kind."""
    by_kernel = {c.kernel: c for c in CASES}
    rng = np.random.default_rng(0)
    for name in ("sum_f32", "affine_f32", "chain_f32", "mean_var_f64", "sum_wrap_i32", "norm2_f32"):
        case = by_kernel[name]
        inputs = case.make_inputs(100, rng)
        got = list(case.run(inputs))
        ref = case.reference(inputs)
        case.compare(got, ref)
        bad = got[0]
        if isinstance(bad, np.ndarray):
            bad = bad.copy()
            bad[3] = bad[3] + bad.dtype.type(1)
        else:
            bad = bad + type(bad)(1)
        with pytest.raises(AssertionError):
            case.compare([bad, *got[1:]], ref)


def test_close_tolerance_accepts_equal_infinities_only():
    """tol=close: the same infinity on both sides matches (inf - inf is NaN, which failed it); an
    infinity against a finite value or the other infinity does not."""
    case = next(c for c in CASES if c.tol.startswith("close"))
    ref = case.reference(case.make_inputs(4, np.random.default_rng(0)))
    r = np.array([np.inf, -np.inf, 1.0], dtype=np.float32)
    case._compare_one("inf", r.copy(), r, ref, 0)
    for bad in ([np.inf, np.inf, 1.0], [1e30, -np.inf, 1.0]):
        with pytest.raises(AssertionError):
            case._compare_one("inf", np.array(bad, dtype=np.float32), r, ref, 0)
