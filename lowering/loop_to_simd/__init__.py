"""convert-loop-to-simd (MLIR's Conversion/LoopToSimd): vector loops at one ISA's width.

    Loop IR after loop-vectorize (loop.vecloop, loop.predloop at abstract width W)
      │ convert         the pass; target and options (lowering/target.py)
      │ width           W → a concrete lane count per loop
      ├── vecloop       interleaved main loop over full blocks (range: block boundaries)
      │     ├── accum   vector accumulators, their combine and horizontal epilogue
      │     └── tail    the n mod W rest: scalar epilogue or one masked block
      └── predloop      lane mask from the `pred` region, compaction at a cursor
      │ lanes           each lane-wise scalar op → simd ops, by table (the op table)
      ▼
    simd dialect at concrete width (load/store, masked, compress, fma, hreduce …) → C printer

The pass is `ConvertLoopToSimdPass` in `convert`.
"""

from loopopt.lowering.loop_to_simd.convert import ConvertLoopToSimdPass

__all__ = ["ConvertLoopToSimdPass"]
