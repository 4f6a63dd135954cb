// RUN: loop-opt %s -p 'loop-parallelize{chunk=1024 min_elements=4096 remarks=true}' 2>&1 | filecheck %s
// A float add whose step is `math.fma a, b, acc` (acc + a*b: what loop-simplify{fma=true}
// makes of a sum of products, e.g. the sum of squares of mean+variance) is split like the add
// it is — with reassoc, as any float add; not when acc is a factor, nor as a scan.

// CHECK: remark: PAR_REJECT_REDUCTION: @acc_is_a_factor stays serial: the carried value's step is not acc add x
// CHECK: remark: PAR_REJECT_FLOAT_ORDER: @fma_without_reassoc stays serial: a float add without reassoc
// CHECK: remark: PAR_REJECT_SCAN: @fma_scan stays serial: a scan whose step is an fma

// CHECK-LABEL: func.func @moments
// CHECK-SAME: loop.parallel = {axis = "i", chunk = 1024 : i64, min_elements = 4096 : i64, threads = 0 : i64, results = ["add", "add", "add"], scans = [], scan_kinds = [], stream_bytes = 0 : i64}
func.func @moments(%x: !loop.buf<f64> {loop.role = "in", loop.axes = ["i"]}) -> (f64, f64, f64) attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f64>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %s, %q, %c = loop.for %i in [%c0, %n) accs(%a0 = %z : f64 add reassoc, %a1 = %z : f64 add reassoc, %a2 = %z : f64 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f64>
    %t0 = arith.addf %a0, %e : f64
    %t1 = math.fma %e, %e, %a1 : f64
    %t2 = arith.addf %a2, %one : f64
    loop.yield %t0, %t1, %t2 : f64, f64, f64
  }
  func.return %s, %q, %c : f64, f64, f64
}

// CHECK-LABEL: func.func @acc_is_a_factor
// CHECK-NOT: loop.parallel
func.func @acc_is_a_factor(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = math.fma %acc, %e, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// CHECK-LABEL: func.func @fma_without_reassoc
// CHECK-NOT: loop.parallel
func.func @fma_without_reassoc(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = math.fma %e, %e, %acc : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// CHECK-LABEL: func.func @fma_scan
// CHECK-NOT: loop.parallel
func.func @fma_scan(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = math.fma %e, %e, %acc : f32
    loop.store %t, %out[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  func.return
}
