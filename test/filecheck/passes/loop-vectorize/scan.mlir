// RUN: loop-opt %s -p 'loop-vectorize{remarks=true}' --split-input-file 2>%t.remarks | filecheck %s
// RUN: filecheck %s --check-prefix=REMARK < %t.remarks

// An integer prefix sum: the step `acc + x` becomes `acc + lane_scan(x)` on a `scan` accumulator.
// CHECK-LABEL: func.func @cumsum_i32
// CHECK:         loop.vecloop %{{.*}} width(W) tail(scalar) accs(%[[ACC:.*]] = %{{.*}} : i32 add scan) {
// CHECK-NEXT:      %[[X:.*]] = loop.load
// CHECK-NEXT:      %[[P:.*]] = loop.lane_scan <add> %[[X]] : i32
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      loop.store %[[T]], %{{.*}}[%{{.*}}] : !loop.buf<i32>
// CHECK-NEXT:      loop.yield %[[T]] : i32
func.func @cumsum_i32(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}

// -----

// A float running max is exact: no reassoc needed. The combine keeps its operand order.
// CHECK-LABEL: func.func @cummax_f64
// CHECK:         accs(%[[ACC:.*]] = %{{.*}} : f64 max scan)
// CHECK:           %[[P:.*]] = loop.lane_scan <max> %{{.*}} : f64
// CHECK-NEXT:      arith.maximumf %[[P]], %[[ACC]] : f64
func.func @cummax_f64(%b: !loop.buf<f64>, %o: !loop.buf<f64>, %n: index, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f64 max) {
    %x = loop.load %b[%i] : !loop.buf<f64>
    %t = arith.maximumf %x, %acc : f64
    loop.store %t, %o[%i] : !loop.buf<f64>
    loop.yield %t : f64
  }
  func.return %s : f64
}

// -----

// A float sum scan with reassoc vectorizes; without it, it stays scalar.
// CHECK-LABEL: func.func @cumsum_f32
// CHECK:         accs(%{{.*}} = %{{.*}} : f32 add reassoc scan)
// CHECK:           loop.lane_scan <add>
// CHECK-LABEL: func.func @cumsum_f32_strict
// CHECK:         loop.for
// CHECK-NOT:     lane_scan
// REMARK: scan.mlir:[[# @LINE + 13]]:3: remark: VEC_REJECT_FLOAT_REDUCTION_ORDER: accumulator #0 (add on f32) is not reassoc
func.func @cumsum_f32(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.store %t, %o[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  func.return
}
func.func @cumsum_f32_strict(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.store %t, %o[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  func.return
}

// -----

// Declined shapes: a recurrence, a scan next to a reduction, a custom scan.
// REMARK: scan.mlir:[[# @LINE + 5]]:3: remark: VEC_REJECT_SCAN: accumulator #0 is stored every iteration but is not a scan: the running value is not stepped by one arith.addf or arith.addi of the carried value
// CHECK-LABEL: func.func @decay
// CHECK:         loop.for
func.func @decay(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32, %h: f32) {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %a = arith.mulf %acc, %h : f32
    %t = arith.addf %a, %x : f32
    loop.store %t, %o[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  func.return
}
// REMARK: scan.mlir:[[# @LINE + 5]]:3: remark: VEC_REJECT_SCAN: a scan and a reduction in one loop (each vectorizes on its own)
// CHECK-LABEL: func.func @scan_and_max
// CHECK:         loop.for
func.func @scan_and_max(%b: !loop.buf<i64>, %o: !loop.buf<i64>, %n: index, %z: i64) -> (i64, i64) {
  %c0 = arith.constant 0 : index
  %s:2 = loop.for %i in [%c0, %n) accs(%acc = %z : i64 add, %m = %z : i64 max) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %t = arith.addi %acc, %x : i64
    %u = arith.maxsi %m, %x : i64
    loop.store %t, %o[%i] : !loop.buf<i64>
    loop.yield %t, %u : i64, i64
  }
  func.return %s#0, %s#1 : i64, i64
}

// -----

// filter → scan as lowered (a width-1 predloop appending the running value) gets width W,
// lane_scan and a scan accumulator like a vecloop scan.
// CHECK-LABEL: func.func @kept_cumsum
// CHECK:         loop.predloop %{{.*}} width(W) tail(scalar) mask(unset) accs(%[[ACC:.*]] = %{{.*}} : i32 add scan) pred {
// CHECK:         } body {
// CHECK-NEXT:      %[[X:.*]] = loop.load
// CHECK-NEXT:      %[[P:.*]] = loop.lane_scan <add> %[[X]] : i32
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      loop.append %[[T]], %{{.*}} : !loop.buf<i32>
// CHECK-NEXT:      loop.yield %[[T]] : i32
func.func @kept_cumsum(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) accs(%acc = %z : i32 add) pred {
    %e = loop.load %b[%i] : !loop.buf<i32>
    %c = arith.cmpi sgt, %e, %zero : i32
    loop.yield %c : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.append %t, %o : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %cnt, %s : index, i32
}

// -----

// i8/i16 min/max/umin/umax scans vectorize (the narrow lane slides, session 24); other kinds
// of narrow lanes stay scalar.
// CHECK-LABEL: func.func @cumumax_i8
// CHECK:         accs(%[[ACC:.*]] = %{{.*}} : i8 umax scan)
// CHECK:           %[[P:.*]] = loop.lane_scan <umax> %{{.*}} : i8
// CHECK-NEXT:      arith.maxui %[[ACC]], %[[P]] : i8
// CHECK-LABEL: func.func @cumsum_i16
// CHECK:         loop.for
// CHECK-NOT:     lane_scan
// REMARK: scan.mlir:[[# @LINE + 13]]:3: remark: VEC_REJECT_SCAN: accumulator #0 is stored every iteration but is not a scan: a scan of i16 by add (vector scans take f32, f64, i32 or i64; i8/i16 only min/max/umin/umax)
func.func @cumumax_i8(%b: !loop.buf<i8>, %o: !loop.buf<i8>, %n: index, %z: i8) -> i8 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i8 umax) {
    %x = loop.load %b[%i] : !loop.buf<i8>
    %t = arith.maxui %acc, %x : i8
    loop.store %t, %o[%i] : !loop.buf<i8>
    loop.yield %t : i8
  }
  func.return %s : i8
}
func.func @cumsum_i16(%b: !loop.buf<i16>, %o: !loop.buf<i16>, %n: index, %z: i16) -> i16 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i16 add) {
    %x = loop.load %b[%i] : !loop.buf<i16>
    %t = arith.addi %acc, %x : i16
    loop.store %t, %o[%i] : !loop.buf<i16>
    loop.yield %t : i16
  }
  func.return %s : i16
}
