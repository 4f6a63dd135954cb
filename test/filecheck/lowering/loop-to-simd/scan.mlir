// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2}' | filecheck %s --check-prefix=K2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar}' | filecheck %s --check-prefix=SCALAR

// A scan vecloop: per block of 16 lanes, log2(16) = 4 slide-and-combine steps with the
// neutral element (0) sliding in, the carry added on every lane; the next carry is the
// carry plus the prefix's last lane (the running value's last lane, with the permute off the
// carried chain); lane 0 of the carry continues in the scalar tail (lane_scan: one lane).
// CHECK-LABEL: func.func @cumsum_i32
// CHECK:         %[[INIT:.*]] = simd.broadcast %z : i32 -> vector<16xi32>
// CHECK:         %[[ZERO:.*]] = simd.broadcast %{{.*}} : i32 -> vector<16xi32>
// CHECK:         %[[C:.*]] = loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[CARRY:.*]] = %[[INIT]] : vector<16xi32> add scan) {
// CHECK-NEXT:      %[[X:.*]] = simd.load %b[%{{.*}}] : !loop.buf<i32> -> vector<16xi32>
// CHECK-NEXT:      %[[S1:.*]] = simd.slide_up %[[X]], %[[ZERO]] by 1 : vector<16xi32>
// CHECK-NEXT:      %[[P1:.*]] = arith.addi %[[S1]], %[[X]] : vector<16xi32>
// CHECK-NEXT:      %[[S2:.*]] = simd.slide_up %[[P1]], %[[ZERO]] by 2 : vector<16xi32>
// CHECK-NEXT:      %[[P2:.*]] = arith.addi %[[S2]], %[[P1]] : vector<16xi32>
// CHECK-NEXT:      %[[S4:.*]] = simd.slide_up %[[P2]], %[[ZERO]] by 4 : vector<16xi32>
// CHECK-NEXT:      %[[P4:.*]] = arith.addi %[[S4]], %[[P2]] : vector<16xi32>
// CHECK-NEXT:      %[[S8:.*]] = simd.slide_up %[[P4]], %[[ZERO]] by 8 : vector<16xi32>
// CHECK-NEXT:      %[[P8:.*]] = arith.addi %[[S8]], %[[P4]] : vector<16xi32>
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[CARRY]], %[[P8]] : vector<16xi32>
// CHECK-NEXT:      simd.store %[[T]], %o[%{{.*}}] : vector<16xi32>, !loop.buf<i32>
// CHECK-NEXT:      %[[LAST:.*]] = simd.splat_last %[[P8]] : vector<16xi32>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[CARRY]], %[[LAST]] : vector<16xi32>
// CHECK-NEXT:      loop.yield %[[NEXT]] : vector<16xi32>
// CHECK:         %[[RUNNING:.*]] = simd.first_lane %[[C]] : vector<16xi32> -> i32
// CHECK:         %[[S:.*]] = loop.for %{{.*}} in [%{{.*}}, %n) accs(%{{.*}} = %[[RUNNING]] : i32 add scan) {
// CHECK:           loop.lane_scan <add> %{{.*}} : i32
// CHECK:         func.return %[[S]] : i32

// Two blocks per iteration (the avx2 default): the second block starts from the first's carry.
// K2-LABEL: func.func @cumsum_i32
// K2:         loop.for %{{.*}} accs(%[[CARRY:.*]] = %{{.*}} : vector<8xi32> add scan) {
// K2:           simd.slide_up %{{.*}}, %{{.*}} by 4 : vector<8xi32>
// K2-NEXT:      %[[P0:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<8xi32>
// K2-NEXT:      %[[T0:.*]] = arith.addi %[[CARRY]], %[[P0]] : vector<8xi32>
// K2:           %[[L0:.*]] = simd.splat_last %[[P0]] : vector<8xi32>
// K2-NEXT:      %[[C0:.*]] = arith.addi %[[CARRY]], %[[L0]] : vector<8xi32>
// K2:           %[[T1:.*]] = arith.addi %[[C0]], %{{.*}} : vector<8xi32>
// K2:           %[[C1:.*]] = arith.addi %[[C0]], %{{.*}} : vector<8xi32>
// K2-NEXT:      loop.yield %[[C1]] : vector<8xi32>
// K2:         loop.for {{.*}} accs({{.*}} : vector<8xi32> add scan)
// K2:         simd.first_lane

// The scalar target runs the loop it means at width 1: lane_scan stays (one lane, the value).
// SCALAR-LABEL: func.func @cumsum_i32
// SCALAR:         loop.for %{{.*}} accs(%{{.*}} : i32 add scan) {
// SCALAR:           loop.lane_scan <add>
func.func @cumsum_i32(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i32 add scan) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <add> %x : i32
    %t = arith.addi %acc, %p : i32
    loop.store %t, %o[%i] : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %s : i32
}

// A running min of f64 on avx512 (8 lanes): +inf slides in, simd.min combines.
// CHECK-LABEL: func.func @cummin_f64
// CHECK:         %[[INF:.*]] = arith.constant 0x7ff0000000000000 : f64
// CHECK:         %[[FILL:.*]] = simd.broadcast %[[INF]] : f64 -> vector<8xf64>
// CHECK:         simd.slide_up %{{.*}}, %[[FILL]] by 1 : vector<8xf64>
// CHECK-NEXT:    simd.min
// CHECK:         simd.slide_up %{{.*}}, %[[FILL]] by 4 : vector<8xf64>
// CHECK-NEXT:    %[[P:.*]] = simd.min
// CHECK-NEXT:    simd.min %{{.*}}, %[[P]] : vector<8xf64>
func.func @cummin_f64(%b: !loop.buf<f64>, %o: !loop.buf<f64>, %n: index, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f64 min scan) {
    %x = loop.load %b[%i] : !loop.buf<f64>
    %p = loop.lane_scan <min> %x : f64
    %t = arith.minimumf %acc, %p : f64
    loop.store %t, %o[%i] : !loop.buf<f64>
    loop.yield %t : f64
  }
  func.return %s : f64
}

// filter → scan: a predloop whose scan accumulator is appended. Per block the dropped lanes
// enter the prefix as the neutral element, the running value is compress-stored at the
// kept lanes, and its last lane (which includes every kept one) is the carry.
// CHECK-LABEL: func.func @kept_cumsum
// CHECK:         loop.for %{{.*}} accs(%[[CARRY:.*]] = %{{.*}} : vector<16xi32> add scan, %[[CUR:.*]] = %{{.*}} : index add)
// CHECK:           %[[X:.*]] = simd.load %b[%{{.*}}]
// CHECK-NEXT:      %[[M:.*]] = simd.cmp <sgt> %[[X]], %{{.*}} : vector<16xi32> -> vector<16xi1>
// CHECK-NEXT:      %[[K:.*]] = simd.select %[[M]], %[[X]], %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK-NEXT:      simd.slide_up %[[K]], %{{.*}} by 1 : vector<16xi32>
// CHECK:           simd.slide_up %{{.*}}, %{{.*}} by 8 : vector<16xi32>
// CHECK-NEXT:      %[[P:.*]] = arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[CARRY]], %[[P]] : vector<16xi32>
// CHECK-NEXT:      %[[N:.*]] = simd.compress_store %[[T]], %[[M]], %o[%[[CUR]]] full
// CHECK-NEXT:      %[[LAST:.*]] = simd.splat_last %[[P]] : vector<16xi32>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[CARRY]], %[[LAST]] : vector<16xi32>
// CHECK:           loop.yield %[[NEXT]], %{{.*}} : vector<16xi32>, index
// CHECK:         simd.first_lane %{{.*}} : vector<16xi32> -> i32
func.func @kept_cumsum(%b: !loop.buf<i32>, %o: !loop.buf<i32>, %n: index, %z: i32) -> (index, i32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %z : i32 add scan) pred {
    %e = loop.load %b[%i] : !loop.buf<i32>
    %c = arith.cmpi sgt, %e, %zero : i32
    loop.yield %c : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %p = loop.lane_scan <add> %x : i32
    %t = arith.addi %acc, %p : i32
    loop.append %t, %o : !loop.buf<i32>
    loop.yield %t : i32
  }
  func.return %cnt, %s : index, i32
}

// A scan of a loop-invariant value (a map yielding a parameter): the lane_scan is not hoisted
// with the invariant ops (its lanes differ: 1x, 2x, ... the value), so the log-step scan runs
// in the loop on the broadcast and the tail's lane_scan stays in its loop (it was hoisted to
// the preheader once, invalid IR: found by the fuzzer, session 21).
// CHECK-LABEL: func.func @cumsum_invariant
// CHECK:         %[[V:.*]] = simd.broadcast %v : i64 -> vector<8xi64>
// CHECK:         loop.for %{{.*}} accs(%{{.*}} : vector<8xi64> add scan) {
// CHECK:           simd.slide_up %[[V]], %{{.*}} by 1 : vector<8xi64>
// CHECK:         loop.for %{{.*}} accs(%{{.*}} : i64 add scan) {
// CHECK-NEXT:      loop.lane_scan <add> %v : i64
// K2-LABEL: func.func @cumsum_invariant
// K2:           loop.lane_scan <add> %v : i64
// SCALAR-LABEL: func.func @cumsum_invariant
// SCALAR:         loop.for %{{.*}} accs(%{{.*}} : i64 add scan) {
// SCALAR-NEXT:      loop.lane_scan <add> %v : i64
func.func @cumsum_invariant(%o: !loop.buf<i64>, %n: index, %v: i64, %z: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i64 add scan) {
    %p = loop.lane_scan <add> %v : i64
    %t = arith.addi %acc, %p : i64
    loop.store %t, %o[%i] : !loop.buf<i64>
    loop.yield %t : i64
  }
  func.return %s : i64
}
