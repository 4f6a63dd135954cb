// acc * 3 + x labelled `add`: a recurrence, not a sum.
func.func @recurrence(%b: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : i32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.muli %acc, %c3 : i32
    %u = arith.addi %t, %x : i32
    loop.yield %u : i32
  }
  func.return %s : i32
}

// RUN: loop-opt %s -p 'loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_NOT_A_REDUCTION.mlir:8:5: remark: VEC_REJECT_NOT_A_REDUCTION: accumulator #0: the carried value feeds arith.muli, a add reduction needs arith.addf or arith.addi
