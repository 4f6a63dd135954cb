// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// A loop built by convert-df-to-loop carries the location of the df op it came from, so a
// remark about the loop points at that op's line (here the df.fold, line 9), not at the
// function's.

// CHECK: remark-location-from-df.mlir:9:3: remark: VEC_REJECT_CUSTOM_REDUCTION:
func.func @k(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %p = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %m = arith.mulf %acc, %e : f32
    %a = arith.addf %m, %e : f32
    df.yield %a : f32
  }
  func.return %p : f32
}
