// RUN: not loop-opt %s -p 'loop-pipeline{target=avx9}' 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not loop-opt %s -p 'loop-pipeline{stream_bytes=-2}' 2>&1 | filecheck %s --check-prefix=STREAM
// RUN: not loop-opt %s -p 'loop-pipeline{interleave=17}' 2>&1 | filecheck %s --check-prefix=INTERLEAVE
// RUN: not loop-opt %s -p 'loop-pipeline{tail=none}' 2>&1 | filecheck %s --check-prefix=TAIL

// An unknown target lists the valid ones, native included.
// TARGET: error: loop-pipeline: option target=avx9 is an unknown target 'avx9', expected one of sse2, avx2, avx512, neon, scalar, native
// STREAM: error: loop-pipeline: option stream_bytes=-2 is out of range [-1, 281474976710656]
// INTERLEAVE: error: loop-pipeline: option interleave=17 is out of range [0, 16]
// TAIL: error: loop-pipeline: option tail=none is invalid: tail must be scalar or masked
func.func @f() {
  func.return
}
