// An i64 count computed from f32 data.
func.func @count_positive(%x: !df.array<f32, [i]>) -> i64 {
  %z = arith.constant 0 : i64
  %zero = arith.constant 0.0 : f32
  %c = df.map %x : !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: f32):
    %p = arith.cmpf ogt, %e, %zero : f32
    %one = arith.extui %p : i1 to i64
    df.yield %one : i64
  }
  %s = df.reduce add(%c, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}SIMD_FALLBACK_SCALAR.mlir:11:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop mixes element widths (f32 x8, i64 x4 lanes per avx2 register): at 4 lanes the narrower vectors fill part of a register (partial=false)
