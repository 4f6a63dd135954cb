"""Every loopopt pass leaves verified IR on every corpus program.

Each corpus file (test/corpus/df) is parsed whole and run through chains of passes that
reach every pass at the IR level it takes (df, Loop IR fused or not, vectorized Loop IR);
`module.verify()` runs after every single pass. A pass may refuse a construct with a
located `LoopoptDiagnostic` (convert-loop-to-simd without `fallback`); any other exception
or unverifiable IR fails. No execution here: the corpus tests in test/python/loop_passes,
loop_transforms and loop_to_simd compare results.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes as xdsl_passes

from loopopt.compile import make_context
from loopopt.diagnostics import LocatedParser, LoopoptDiagnostic
from loopopt.registry import get_all_passes

CORPUS = sorted((Path(__file__).resolve().parents[2] / "corpus" / "df").glob("*.mlir"))

Step = tuple[str, dict[str, object]]

LOWER: list[Step] = [("convert-df-to-loop", {})]
FUSED: list[Step] = [("df-fuse", {}), *LOWER]
TARGETS = ("scalar", "sse2", "avx2", "avx512", "neon")

CHAINS: dict[str, list[Step]] = {
    "df-fuse": [("df-fuse", {"remarks": False})],
    "df-fuse-norecompute": [("df-fuse", {"recompute": False, "horizontal": False})],
    "convert-df-to-loop": LOWER,
    "fused-lowering": FUSED,
    "loop-fuse": [*LOWER, ("loop-fuse", {"allow_control_flow_simple": True, "allow_broadcast_identity": True})],
    "loop-tile": [*FUSED, ("loop-tile", {"size": 8})],
    "loop-tile-unfused": [*LOWER, ("loop-tile", {"size": 3})],
    "loop-unroll": [*FUSED, ("loop-unroll", {"factor": 3, "full_threshold": 64})],
    "loop-unroll-unfused": [*LOWER, ("loop-unroll", {})],
    "loop-simplify": [*FUSED, ("loop-simplify", {}), ("loop-simplify", {"fma": True})],
    "loop-licm": [*LOWER, ("loop-licm", {"speculate_loads": True})],
    "loop-vectorize": [*FUSED, ("loop-fuse", {}), ("loop-vectorize", {})],
    "loop-inplace": [*FUSED, ("loop-inplace", {"remarks": False}), ("loop-vectorize", {}), ("loop-inplace", {}),
                     ("convert-loop-to-simd", {"target": "avx2", "fallback": True})],
    "loop-vectorize-8": [*LOWER, ("loop-vectorize", {"width": 8})],
    "loop-interchange": [*FUSED, ("loop-interchange", {"rows": 3, "columns": 16}), ("loop-vectorize", {}),
                         ("convert-loop-to-simd", {"target": "avx512", "fallback": True})],
    "loop-unroll-jam": [*FUSED, ("loop-interchange", {"rows": 2}), ("loop-unroll-jam", {"rows": 3}), ("loop-vectorize", {}),
                        ("convert-loop-to-simd", {"target": "avx512", "fallback": True})],
    "tile-then-vectorize": [*FUSED, ("loop-tile", {"size": 16}), ("loop-vectorize", {}),
                            ("convert-loop-to-simd", {"target": "avx512", "fallback": True})],
    "unroll-then-vectorize": [*FUSED, ("loop-unroll", {"factor": 2}), ("loop-vectorize", {}),
                              ("convert-loop-to-simd", {"target": "avx2", "fallback": True})],
    **{
        f"convert-loop-to-simd-{t}": [*FUSED, ("loop-vectorize", {}), ("convert-loop-to-simd", {"target": t, "fallback": True})]
        for t in TARGETS
    },
    **{
        f"convert-loop-to-simd-strict-{t}": [*FUSED, ("loop-vectorize", {}),
                                             ("convert-loop-to-simd", {"target": t, "tail": "masked", "interleave": 1})]
        for t in ("scalar", "avx2", "avx512")
    },
    "loop-parallelize": [*FUSED, ("loop-vectorize", {}), ("loop-parallelize", {"min_elements": 0, "chunk": 64}),
                         ("convert-loop-to-simd", {"target": "avx2", "fallback": True}), ("derive-filter-count", {})],
    "convert-loop-to-simd-unvectorized": [*FUSED, ("convert-loop-to-simd", {"target": "avx2"})],
    **{f"loop-pipeline-{t}": [("loop-pipeline", {"target": t})] for t in TARGETS},
}


def _factories() -> dict[str, type[ModulePass]]:
    ours = {name: factory() for name, factory in get_all_passes().items()}
    return {"canonicalize": xdsl_passes()["canonicalize"](), "cse": xdsl_passes()["cse"](), **ours}


@cache
def _source(path: Path) -> str:
    return path.read_text()


_PREFIXES: dict[tuple[str, str], ModuleOp] = {}
"""Verified modules after a chain's prefix (the lowering steps many chains share)."""


def run_chain(path: Path, chain: list[Step]) -> ModuleOp:
    ctx = make_context()
    start = max((k for k in range(len(chain) + 1) if (path.name, repr(chain[:k])) in _PREFIXES), default=0)
    if start:
        module = _PREFIXES[(path.name, repr(chain[:start]))].clone()
    else:
        module = LocatedParser(ctx, _source(path), path.name).parse_module()
        module.verify()
    passes = _factories()
    for k, (name, options) in enumerate(chain[start:], start + 1):
        try:
            passes[name](**options).apply(ctx, module)
        except LoopoptDiagnostic as e:
            if name == "convert-loop-to-simd" and not options.get("fallback"):
                return module  # a located refusal is allowed where there is no fallback
            if name == "convert-df-to-loop" and "rank-3 arrays are only supported fused" in str(e):
                return module  # a matrix product's rank-3 products are never stored: unfused, a located refusal
            raise AssertionError(f"{name}{options} refused {path.name}: {e}") from e
        try:
            module.verify()
        except Exception as e:  # noqa: BLE001 - report which pass broke the IR
            raise AssertionError(f"{name}{options} left invalid IR on {path.name}: {e}") from e
        if name in ("df-fuse", "convert-df-to-loop"):
            _PREFIXES[(path.name, repr(chain[:k]))] = module.clone()
    return module


def test_every_registered_pass_is_covered():
    covered = {name for chain in CHAINS.values() for name, _ in chain}
    assert set(get_all_passes()) <= covered


@pytest.mark.parametrize("chain", list(CHAINS))
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_pass_leaves_verified_ir(path: Path, chain: str):
    run_chain(path, CHAINS[chain])
