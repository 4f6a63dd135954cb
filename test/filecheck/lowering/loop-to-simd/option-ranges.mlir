// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=avx9}' 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not loop-opt %s -p 'convert-loop-to-simd{stream_bytes=-2}' 2>&1 | filecheck %s --check-prefix=STREAM
// RUN: not loop-opt %s -p 'convert-loop-to-simd{interleave=1000}' 2>&1 | filecheck %s --check-prefix=INTERLEAVE
// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=scalar pipeline="x */ int evil; /*"}' 2>&1 | filecheck %s --check-prefix=PIPE

// TARGET: error: convert-loop-to-simd: option target=avx9 is an unknown target 'avx9', expected one of sse2, avx2, avx512, neon, scalar, native
// STREAM: error: convert-loop-to-simd: option stream_bytes=-2 is out of range [-1, 281474976710656]
// INTERLEAVE: error: convert-loop-to-simd: option interleave=1000 is out of range [0, 16]
// The recorded pipeline is printed in a C comment: no comment terminator gets through.
// PIPE: error: convert-loop-to-simd: option pipeline='x */ int evil; /*' has characters other than
func.func @f() {
  func.return
}
