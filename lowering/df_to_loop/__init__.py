"""convert-df-to-loop (MLIR's Conversion/DFToLoop): df kernels become Loop IR kernels.

    df kernel (func.func over !df.array)
      │ decl_ref        inline df.decl_ref targets
      │ convert         one pattern per df op, program order (pattern: the pattern shape,
      │                 context: per-kernel state, values: what a df value became)
      ├── sources       df.constant, df.range  → constants, range descriptors (trips)
      ├── scalar        scalar / record / tuple ops → no loop   (aggregates: top level)
      ├── map, select   → one loop.for nest writing each element  (nest, body)
      ├── reduce, fold  → loop.for with accumulators              (combine: acc ⊕ x)
      ├── scan          → loop.for storing the running accumulator
      └── filter        → loop.predloop appending kept elements
      │ kernel          signature → the kernel ABI (docs/calling_convention.md)
      ▼
    Loop IR kernel over buffers (loop.for / loop.predloop, arith, memref)

The pass is `ConvertDFToLoopPass` in `convert`.
"""

from loopopt.lowering.df_to_loop.convert import ConvertDFToLoopPass

__all__ = ["ConvertDFToLoopPass"]
