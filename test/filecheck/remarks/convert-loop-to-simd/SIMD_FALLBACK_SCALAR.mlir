// f32 values kept where their f64 square exceeds a bound: the kept f32 vector fills half a register.
func.func @keep_big_squares(%x: !df.array<f32, [i]>, %t: f64) -> !df.array<f32, [k]> {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.extf %e : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.cmpf ogt, %s, %t : f64
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}SIMD_FALLBACK_SCALAR.mlir:3:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.append of f32 in a loop of 64-bit lanes: compaction has no form for a vector that fills part of a register
