"""`loop-bench` and the benchmarks run by hand (the CLI is tools/loop_bench.py).

    patterns, programs/   what is measured: df programs, sizes, dtypes, data, each pattern's baselines
    rows                  rows beyond the seed patterns (softmax, cumsum, row sum, matvec, matmul:
                          corpus programs, rank-2 shapes, hand glue over the kernel library)
    impls                 every implementation compared: generated (loopopt's C per ISA),
                          kernels/ library, gcc -O3, numpy, BLAS; built with harness wrappers
    blas                  numpy's OpenBLAS pinned to one thread (timing counts this thread)
    timing, cells         interleaved timing of every implementation per cell
    rotation, placement   buffer copies per call beyond the LLC; buffer offsets per trial within it
    baselines, env        STREAM baselines, the machine (CPU model, caches, load)
    overhead              per-call and compile overheads
    report, plot          the markdown / JSON tables and plots

By hand: compile_time (ops/s through the pipeline), c_stable (generated C unchanged by a
refactor), jit (loopopt.jit vs numpy), dask_scaling (loopopt.dask per-chunk cost).
"""
