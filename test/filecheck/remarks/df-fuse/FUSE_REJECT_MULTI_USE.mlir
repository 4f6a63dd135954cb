// The filtered array is returned and also mapped: a filter is never computed twice.
func.func @kept_and_scaled(%x: !df.array<f32, [i]>, %a: f32) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %a : f32
    df.yield %m : f32
  }
  func.return %p, %y : !df.array<f32, [k]>, !df.array<f32, [k]>
}

// RUN: loop-opt %s -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}FUSE_REJECT_MULTI_USE.mlir:9:3: remark: FUSE_REJECT_MULTI_USE: producer df.filter at {{.*}}FUSE_REJECT_MULTI_USE.mlir:4:3 has 1 other user(s) and defines the new axis k, which one recomputed copy cannot define again: it stays materialized
