// Horner's rule: acc * 10 + x, in element order.
func.func @digits(%x: !df.array<i64, [i]>) -> i64 {
  %z = arith.constant 0 : i64
  %ten = arith.constant 10 : i64
  %v = df.fold(%x) init(%z) : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %t = arith.muli %acc, %ten : i64
    %u = arith.addi %t, %e : i64
    df.yield %u : i64
  }
  func.return %v : i64
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_CUSTOM_REDUCTION.mlir:5:3: remark: VEC_REJECT_CUSTOM_REDUCTION: accumulator #0 is custom: no neutral element to start the lanes from
