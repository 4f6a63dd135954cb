// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s
// simd.gather's verifier: index lanes, mask lanes, element types, buffer rank.

func.func @index_lanes(%b: !loop.buf<f32>, %i: vector<4xi32>, %m: vector<8xi1>, %p: vector<8xf32>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f32>, vector<4xi32>, vector<8xi1> -> vector<8xf32>
  func.return
}
// CHECK: index lanes 4 != vector width 8

// -----

func.func @mask_lanes(%b: !loop.buf<f32>, %i: vector<8xi32>, %m: vector<4xi1>, %p: vector<8xf32>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f32>, vector<8xi32>, vector<4xi1> -> vector<8xf32>
  func.return
}
// CHECK: mask lanes 4 != vector width 8

// -----

func.func @element(%b: !loop.buf<f64>, %i: vector<8xi32>, %m: vector<8xi1>, %p: vector<8xf32>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f64>, vector<8xi32>, vector<8xi1> -> vector<8xf32>
  func.return
}
// CHECK: buffer element type f64 != vector element type f32

// -----

func.func @float_index(%b: !loop.buf<f32>, %i: vector<8xf32>, %m: vector<8xi1>, %p: vector<8xf32>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f32>, vector<8xf32>, vector<8xi1> -> vector<8xf32>
  func.return
}
// CHECK: expected a vector of int lanes, got vector<8xf32>

// -----

func.func @rank2(%b: !loop.buf<f32, 2>, %i: vector<8xi32>, %m: vector<8xi1>, %p: vector<8xf32>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f32, 2>, vector<8xi32>, vector<8xi1> -> vector<8xf32>
  func.return
}
// CHECK: simd.gather reads a rank-1 buffer, found rank 2
