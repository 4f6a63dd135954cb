// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s

// Zen 4 splits an f32 sum of squares into two 256-bit halves that use `_mm256_fmadd_ps`: gcc's
// -mavx512f does not imply -mfma, so the header names -mavx2 -mfma as the runtime builds it
// (a hand build with the header's flags failed: "inlining failed ... target specific option
// mismatch"; found by the hostile-input fuzzer). test_c_warnings compiles this file.

func.func @sumsq_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }
  %q = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %q : f32
}

// CHECK: target: avx512 (-mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma)
// CHECK: _mm256_fmadd_ps
