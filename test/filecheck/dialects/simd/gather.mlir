// RUN: loop-opt %s --split-input-file | filecheck %s
// RUN: loop-opt %s --split-input-file --print-op-generic | loop-opt --split-input-file | filecheck %s
// simd.gather round-trips, with and without `lanewise`.

// CHECK-LABEL: func.func @gather
// CHECK-NEXT:    %v = simd.gather %b[%i], %m, %p : !loop.buf<f32>, vector<8xi32>, vector<8xi1> -> vector<8xf32>
// CHECK-NEXT:    %w = simd.gather %c[%j], %n, %q lanewise : !loop.buf<i64>, vector<4xi64>, vector<4xi1> -> vector<4xi64>
func.func @gather(%b: !loop.buf<f32>, %i: vector<8xi32>, %m: vector<8xi1>, %p: vector<8xf32>,
                  %c: !loop.buf<i64>, %j: vector<4xi64>, %n: vector<4xi1>, %q: vector<4xi64>) {
  %v = simd.gather %b[%i], %m, %p : !loop.buf<f32>, vector<8xi32>, vector<8xi1> -> vector<8xf32>
  %w = simd.gather %c[%j], %n, %q lanewise : !loop.buf<i64>, vector<4xi64>, vector<4xi1> -> vector<4xi64>
  "test.op"(%v, %w) : (vector<8xf32>, vector<4xi64>) -> ()
  func.return
}
