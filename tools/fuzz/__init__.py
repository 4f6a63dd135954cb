"""loopopt's random-program differential fuzzer (`loop-fuzz`, docs/fuzzing.md).

Random df kernels (`generate`), printed as df MLIR (`printer`), evaluated by an independent
numpy evaluator (`evaluate`), compiled and run for every ISA in crash-isolated batches
(`runner`), compared (`compare`), failures minimized by delta debugging (`minimize`).
"""
