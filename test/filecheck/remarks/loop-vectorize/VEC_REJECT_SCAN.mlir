func.func @cumsum(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %z = arith.constant 0 : i32
  %p = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_SCAN.mlir:3:3: remark: VEC_REJECT_SCAN: accumulator #0 is stored every iteration (a scan; parallel prefix is not supported)
