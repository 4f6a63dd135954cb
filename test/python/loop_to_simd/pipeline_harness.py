"""Compile a df corpus file through loop-pipeline for a target (cached), and the loop IR it
had just before convert-loop-to-simd, to compare the lowering against."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest
from corpus import context
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, f32
from xdsl.parser import Parser

from loopopt.dialects import loop, simd
from loopopt.dialects.simd_targets import TARGETS
from loopopt.passes.pipeline import LoopPipelinePass

TARGET_NAMES = ("scalar", "sse2", "avx2", "avx512", "neon")

slow = pytest.mark.skipif(not os.environ.get("LOOPOPT_SLOW"), reason="slow: set LOOPOPT_SLOW=1")


def lowering_context() -> Context:
    ctx = context()
    ctx.load_dialect(loop.Loop)
    ctx.load_dialect(simd.Simd)
    return ctx


def parse(path: Path, text: str | None = None) -> ModuleOp:
    module = Parser(lowering_context(), text if text is not None else path.read_text(), str(path)).parse_module()
    module.verify()
    return module


@cache
def compiled(path: Path, target: str, stop_before: str | None = None) -> ModuleOp:
    """`path` through loop-pipeline{target} (up to `stop_before`), verified; do not mutate."""
    module = parse(path)
    LoopPipelinePass(target=target).run(lowering_context(), module, stop_before)
    module.verify()
    return module


def sizes(target: str) -> tuple[int, ...]:
    """Sizes around the target's f32 width W: 0, 1, W-1, W, W+1, 2W+3 and 4W+3 (past the
    K = 4 interleaved blocks; 67 on AVX-512 and 19 on SSE2/NEON are prime)."""
    w = TARGETS[target].width(f32)
    return tuple(sorted({0, 1, max(w - 1, 0), w, w + 1, 2 * w + 3, 4 * w + 3}))
