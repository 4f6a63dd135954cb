// RUN: not loop-opt %s -p 'loop-parallelize{chunk=100}' 2>&1 | filecheck %s --check-prefix=CHUNK
// RUN: not loop-opt %s -p 'loop-parallelize{threads=-1}' 2>&1 | filecheck %s --check-prefix=THREADS
// RUN: not loop-opt %s -p 'loop-pipeline{parallel=2000}' 2>&1 | filecheck %s --check-prefix=PIPE
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 parallel=1}' | filecheck %s --check-prefix=ONE

// CHUNK: error: loop-parallelize: option chunk=100 is not a power of two in [64, 16777216]
// THREADS: error: loop-parallelize: option threads=-1 is out of range [0, 1024]
// PIPE: error: loop-pipeline: option parallel=2000 is out of range [-1, 1024]
// parallel=1 (one thread) marks nothing.
// ONE-NOT: loop.parallel
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
