// RUN: loop-opt %s -p 'loop-parallelize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: loop-opt %s -p 'loop-parallelize' | filecheck %s --check-prefix=IR
// Hand-written Loop IR whose chunks would not compute their part of the result: the pass
// leaves each serial with a remark at the op at fault.

// IR-NOT: loop.parallel

// CHECK: loop-remarks.mlir:[[# @LINE + 5]]:5: remark: PAR_REJECT_ACCESS: @stencil stays serial: an access not at the loop variable
func.func @stencil(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %a = loop.load %x[%i + 1] : !loop.buf<f32>
    loop.store %a, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK: remark: PAR_REJECT_ACCESS: @position stays serial: the loop variable is used as a value by arith.index_cast
func.func @position(%x: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<i64>
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %a = loop.load %x[%i] : !loop.buf<i64>
    %k = arith.index_cast %i : index to i64
    %s = arith.addi %a, %k : i64
    loop.store %s, %out[%i] : !loop.buf<i64>
  }
  func.return
}

// CHECK: remark: PAR_REJECT_EPILOGUE: @mean stays serial: a length is used as a value (arith.index_cast)
func.func @mean(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %a = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %a : f32
    loop.yield %t : f32
  }
  %k = arith.index_cast %n : index to i64
  %f = arith.sitofp %k : i64 to f32
  %m = arith.divf %s, %f : f32
  func.return %m : f32
}

// CHECK: remark: PAR_REJECT_REDUCTION: @recurrence stays serial: the carried value's step is not acc add x
func.func @recurrence(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %h = arith.constant 0.5 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %a = loop.load %x[%i] : !loop.buf<f32>
    %d = arith.mulf %acc, %h : f32
    %t = arith.addf %d, %a : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// CHECK: remark: PAR_REJECT_AXES: @two_axes stays serial: buffer 'y' is on axis 'j', not 'i'
func.func @two_axes(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<f32> {loop.role = "in", loop.axes = ["j"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %n = loop.dim %y, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %a = loop.load %y[%i] : !loop.buf<f32>
    loop.store %a, %out[%i] : !loop.buf<f32>
  }
  func.return
}
