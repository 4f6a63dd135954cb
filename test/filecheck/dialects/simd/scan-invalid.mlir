// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @slide_not_power_of_two(%v: vector<8xi32>) {
  %s = simd.slide_up %v, %v by 3 : vector<8xi32>
  func.return
}
// CHECK: slide_up by 3 lanes: expected a power of two below 8 (the vector's lanes)

// -----

func.func @slide_whole_vector(%v: vector<4xf32>) {
  %s = simd.slide_up %v, %v by 4 : vector<4xf32>
  func.return
}
// CHECK: slide_up by 4 lanes: expected a power of two below 4 (the vector's lanes)

// -----

func.func @slide_dup_not_power_of_two(%v: vector<8xi32>) {
  %s = simd.slide_up_dup %v by 6 : vector<8xi32>
  func.return
}
// CHECK: slide_up_dup by 6 lanes: expected a power of two below 8 (the vector's lanes)

// -----

func.func @slide_dup_whole_vector(%v: vector<2xf64>) {
  %s = simd.slide_up_dup %v by 2 : vector<2xf64>
  func.return
}
// CHECK: slide_up_dup by 2 lanes: expected a power of two below 2 (the vector's lanes)

// -----

func.func @slide_dup_zero(%v: vector<4xi32>) {
  %s = simd.slide_up_dup %v by 0 : vector<4xi32>
  func.return
}
// CHECK: slide_up_dup by 0 lanes: expected a power of two below 4 (the vector's lanes)

// -----

func.func @slide_dup_mask(%v: vector<4xi1>) {
  %s = simd.slide_up_dup %v by 1 : vector<4xi1>
  func.return
}
// CHECK: expected a vector of float or int lanes, got vector<4xi1>

// -----

func.func @first_lane_type(%v: vector<4xf32>) {
  %s = simd.first_lane %v : vector<4xf32> -> f64
  func.return
}
// CHECK: result type f64 != vector element type f32

// -----

func.func @lane_scan_custom(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = loop.lane_scan <custom> %x : f32
  }
  func.return
}
// CHECK: loop.lane_scan needs a kind with a neutral element, found custom

// -----

func.func @lane_scan_bool(%b: !loop.buf<i1>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<i1>
    %p = loop.lane_scan <or> %x : i1
  }
  func.return
}
// CHECK: loop.lane_scan takes f32, f64, i8, i16, i32 or i64 lanes, found i1

// -----

func.func @lane_scan_and_float(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = loop.lane_scan <and> %x : f32
  }
  func.return
}
// CHECK: a and scan needs integer lanes, found f32
