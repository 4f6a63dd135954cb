// RUN: not loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen3}' 2>&1 | filecheck %s --check-prefix=ISA
// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=neon cpu=sapphirerapids}' 2>&1 | filecheck %s --check-prefix=ISA2
// RUN: not loop-opt %s -p 'loop-pipeline{target=avx2 cpu=pentium4}' 2>&1 | filecheck %s --check-prefix=NAME
// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=avx2 tail=fast}' 2>&1 | filecheck %s --check-prefix=TAIL

// A cpu must run the target, and be a tabled name: one located error line, no traceback.

func.func @f(%x: !loop.buf<f32>) {
  func.return
}

// ISA: error: cpu 'zen3' does not run target 'avx512' (it runs sse2, avx2, scalar)
// ISA-NOT: Traceback
// ISA2: error: cpu 'sapphirerapids' does not run target 'neon' (it runs sse2, avx2, avx512, scalar)
// ISA2-NOT: Traceback
// NAME: error: loop-pipeline: option cpu=pentium4 is an unknown cpu 'pentium4', expected one of "", generic, zen3, zen4, skylake-x, icelake-server, sapphirerapids, neoverse-n1, native
// TAIL: error: convert-loop-to-simd: option tail=fast is invalid: tail must be scalar or masked, or auto
