func.func @ema(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %keep = arith.constant 0.75 : f32
  %p = df.scan custom(%x, %zero) : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%acc: f32, %e: f32):
    %a = arith.mulf %acc, %keep : f32
    %s = arith.addf %a, %e : f32
    df.yield %s : f32
  }
  func.return %p : !df.array<f32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_SCAN.mlir:4:3: remark: VEC_REJECT_SCAN: accumulator #0 is stored every iteration but is not a scan: a custom scan has no neutral element to slide into the lanes
