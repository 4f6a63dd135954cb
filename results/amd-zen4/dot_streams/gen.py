"""Print dot.mlir's C for avx512 cpu=zen4 three ways (issue 11, helper scalarint, session 24):

  old.c       before session 24: a two-input fold never runs as streams (adjacent blocks)
  streams4.c  K = 4 copies as 4 streams (4 per input, 8 read streams in all)
  streams2.c  the library's choice since session 24 (vecloop.fold_stream_count): K = 4 copies as
              2 streams of 2 adjacent blocks (2 per input, 4 read streams)

old and streams4 patch vecloop in this process only (the library is unchanged).
"""

import sys
from pathlib import Path

import loopopt.lowering.loop_to_simd.vecloop as vecloop
from loopopt.tools.loop_opt import main as loop_opt

HERE = Path(__file__).resolve().parent
fold_streams, fold_stream_count = vecloop.fold_streams, vecloop.fold_stream_count


def one_input(lowering, options, k, inputs=1):
    return fold_streams(lowering, options, k, 1)


def k_streams(lowering, options, k):
    return k


for name, streams, count in (("old", one_input, fold_stream_count), ("streams4", fold_streams, k_streams),
                             ("streams2", fold_streams, fold_stream_count)):
    vecloop.fold_streams, vecloop.fold_stream_count = streams, count
    sys.argv = ["loop-opt", str(HERE / "dot.mlir"), "-p", "loop-pipeline{target=avx512 cpu=zen4}", "-t", "c",
                "-o", str(HERE / f"{name}.c")]
    try:
        loop_opt()
    except SystemExit as e:
        if e.code:
            raise
