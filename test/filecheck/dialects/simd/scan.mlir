// RUN: loop-opt %s | loop-opt | filecheck %s

// The scan ops round-trip.
// CHECK-LABEL: func.func @scan_ops
// CHECK-NEXT:    %s = simd.slide_up %v, %fill by 4 : vector<8xf32>
// CHECK-NEXT:    %c = simd.splat_last %s : vector<8xf32>
// CHECK-NEXT:    %f = simd.first_lane %c : vector<8xf32> -> f32
// CHECK-NEXT:    %i = simd.slide_up %w, %w by 1 : vector<2xi64>
// CHECK-NEXT:    %d = simd.slide_up_dup %v by 2 : vector<8xf32>
// CHECK-NEXT:    %e = simd.slide_up_dup %w by 1 : vector<2xi64>
func.func @scan_ops(%v: vector<8xf32>, %fill: vector<8xf32>, %w: vector<2xi64>) -> (f32, vector<2xi64>, vector<8xf32>, vector<2xi64>) {
  %s = simd.slide_up %v, %fill by 4 : vector<8xf32>
  %c = simd.splat_last %s : vector<8xf32>
  %f = simd.first_lane %c : vector<8xf32> -> f32
  %i = simd.slide_up %w, %w by 1 : vector<2xi64>
  %d = simd.slide_up_dup %v by 2 : vector<8xf32>
  %e = simd.slide_up_dup %w by 1 : vector<2xi64>
  func.return %f, %i, %d, %e : f32, vector<2xi64>, vector<8xf32>, vector<2xi64>
}

// loop.lane_scan and a scan accumulator round-trip.
// CHECK-LABEL: func.func @lane_scan
// CHECK:         loop.vecloop %{{.*}} accs(%{{.*}} = %z : i64 max scan) {
// CHECK:           loop.lane_scan <max> %{{.*}} : i64
// CHECK:         loop.for %{{.*}} accs(%{{.*}} = %y : f32 add reassoc scan) {
// CHECK:           loop.lane_scan <add> %{{.*}} : f32
func.func @lane_scan(%b: !loop.buf<i64>, %o: !loop.buf<i64>, %c: !loop.buf<f32>, %n: index, %z: i64, %y: f32) -> (i64, f32) {
  %c0 = arith.constant 0 : index
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i64 max scan) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %p = loop.lane_scan <max> %x : i64
    %t = arith.maxsi %acc, %p : i64
    loop.store %t, %o[%i] : !loop.buf<i64>
    loop.yield %t : i64
  }
  %r = loop.for %i in [%c0, %n) accs(%a = %y : f32 add reassoc scan) {
    %x = loop.load %c[%i] : !loop.buf<f32>
    %p = loop.lane_scan <add> %x : f32
    %t = arith.addf %a, %p : f32
    loop.yield %t : f32
  }
  func.return %s, %r : i64, f32
}
