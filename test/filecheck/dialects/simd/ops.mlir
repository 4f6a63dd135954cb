// RUN: LOOPOPT_ROUNDTRIP
// RUN: LOOPOPT_GENERIC_ROUNDTRIP

// A rank-2 buffer is addressed by its flat row-major element offset (row * cols + col).
// CHECK-LABEL: func.func @memory_rank2
func.func @memory_rank2(%b : !loop.buf<f32, 2>, %i : index) {
  // CHECK:      %[[V:.*]] = simd.load %{{.*}}[%{{.*}}] : !loop.buf<f32, 2> -> vector<8xf32>
  // CHECK-NEXT: simd.store %[[V]], %{{.*}}[%{{.*}}] : vector<8xf32>, !loop.buf<f32, 2>
  %v = simd.load %b[%i] : !loop.buf<f32, 2> -> vector<8xf32>
  simd.store %v, %b[%i] : vector<8xf32>, !loop.buf<f32, 2>
  func.return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%b : !loop.buf<f32>, %i : index, %m : vector<8xi1>, %p : vector<8xf32>) -> index {
  // CHECK:      %[[V:.*]] = simd.load %{{.*}}[%{{.*}}] : !loop.buf<f32> -> vector<8xf32>
  // CHECK-NEXT: %[[A:.*]] = simd.load %{{.*}}[%{{.*}}] aligned : !loop.buf<f32> -> vector<8xf32>
  // CHECK-NEXT: simd.store %[[V]], %{{.*}}[%{{.*}}] : vector<8xf32>, !loop.buf<f32>
  // CHECK-NEXT: simd.store %[[A]], %{{.*}}[%{{.*}}] aligned nontemporal : vector<8xf32>, !loop.buf<f32>
  // CHECK-NEXT: %[[ML:.*]] = simd.masked_load %{{.*}}[%{{.*}}], %{{.*}}, %{{.*}} : !loop.buf<f32>, vector<8xi1> -> vector<8xf32>
  // CHECK-NEXT: simd.masked_store %[[ML]], %{{.*}}[%{{.*}}], %{{.*}} : vector<8xf32>, !loop.buf<f32>, vector<8xi1>
  // CHECK-NEXT: %[[N:.*]] = simd.compress_store %[[ML]], %{{.*}}, %{{.*}}[%{{.*}}] : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  // CHECK-NEXT: %[[F:.*]] = simd.compress_store %[[ML]], %{{.*}}, %{{.*}}[%[[N]]] full : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  // CHECK-NEXT: %{{.*}} = simd.compress_store %[[ML]], %{{.*}}, %{{.*}}[%[[F]]] limit %[[N]] : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  // CHECK-NEXT: %[[P:.*]] = simd.align_offset %{{.*}}[%[[F]]], 32 : !loop.buf<f32>
  // CHECK-NEXT: simd.store_fence
  // CHECK-NEXT: func.return %[[P]] : index
  %v = simd.load %b[%i] : !loop.buf<f32> -> vector<8xf32>
  %a = simd.load %b[%i] aligned : !loop.buf<f32> -> vector<8xf32>
  simd.store %v, %b[%i] : vector<8xf32>, !loop.buf<f32>
  simd.store %a, %b[%i] aligned nontemporal : vector<8xf32>, !loop.buf<f32>
  %ml = simd.masked_load %b[%i], %m, %p : !loop.buf<f32>, vector<8xi1> -> vector<8xf32>
  simd.masked_store %ml, %b[%i], %m : vector<8xf32>, !loop.buf<f32>, vector<8xi1>
  %n = simd.compress_store %ml, %m, %b[%i] : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  %f = simd.compress_store %ml, %m, %b[%n] full : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  %lim = simd.compress_store %ml, %m, %b[%f] limit %n : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  %ao = simd.align_offset %b[%f], 32 : !loop.buf<f32>
  simd.store_fence
  func.return %ao : index
}

// CHECK-LABEL: func.func @lanes
func.func @lanes(%s : f64, %n : index, %x : vector<4xf64>, %y : vector<4xf64>) -> vector<4xf64> {
  // CHECK:      %[[B:.*]] = simd.broadcast %{{.*}} : f64 -> vector<4xf64>
  // CHECK-NEXT: %[[I:.*]] = simd.iota : vector<4xi64>
  // CHECK-NEXT: %[[PM:.*]] = simd.prefix_mask %{{.*}} : vector<4xi1>
  // CHECK-NEXT: %[[F:.*]] = simd.fma %{{.*}}, %{{.*}}, %[[B]] : vector<4xf64>
  // CHECK-NEXT: %[[MIN:.*]] = simd.min %[[F]], %{{.*}} : vector<4xf64>
  // CHECK-NEXT: %[[MAX:.*]] = simd.max %[[MIN]], %{{.*}} : vector<4xf64>
  // CHECK-NEXT: %[[C:.*]] = simd.cmp <ult> %[[MAX]], %{{.*}} : vector<4xf64> -> vector<4xi1>
  // CHECK-NEXT: %[[CI:.*]] = simd.cmp <sge> %[[I]], %[[I]] : vector<4xi64> -> vector<4xi1>
  // CHECK-NEXT: %[[S:.*]] = simd.select %[[C]], %[[MAX]], %{{.*}} : vector<4xi1>, vector<4xf64>
  // CHECK-NEXT: %[[CV:.*]] = simd.convert %[[I]] : vector<4xi64> -> vector<4xf64>
  // CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[S]], %[[CV]] : vector<4xf64>
  // CHECK-NEXT: func.return %[[SUM]] : vector<4xf64>
  %b = simd.broadcast %s : f64 -> vector<4xf64>
  %i = simd.iota : vector<4xi64>
  %pm = simd.prefix_mask %n : vector<4xi1>
  %f = simd.fma %x, %y, %b : vector<4xf64>
  %min = simd.min %f, %x : vector<4xf64>
  %max = simd.max %min, %y : vector<4xf64>
  %c = simd.cmp <ult> %max, %x : vector<4xf64> -> vector<4xi1>
  %ci = simd.cmp <sge> %i, %i : vector<4xi64> -> vector<4xi1>
  %s2 = simd.select %c, %max, %y : vector<4xi1>, vector<4xf64>
  %cv = simd.convert %i : vector<4xi64> -> vector<4xf64>
  %sum = arith.addf %s2, %cv : vector<4xf64>
  func.return %sum : vector<4xf64>
}

// CHECK-LABEL: func.func @horizontal
func.func @horizontal(%v : vector<16xi32>, %m : vector<16xi1>) -> (i32, i32, index) {
  // CHECK:      %[[R:.*]] = simd.hreduce <add> %{{.*}} : vector<16xi32> -> i32
  // CHECK-NEXT: %[[O:.*]] = simd.hreduce <or> %{{.*}} : vector<16xi32> -> i32
  // CHECK-NEXT: %[[P:.*]] = simd.mask_popcount %{{.*}} : vector<16xi1>
  // CHECK-NEXT: func.return %[[R]], %[[O]], %[[P]] : i32, i32, index
  %r = simd.hreduce <add> %v : vector<16xi32> -> i32
  %o = simd.hreduce <or> %v : vector<16xi32> -> i32
  %p = simd.mask_popcount %m : vector<16xi1>
  func.return %r, %o, %p : i32, i32, index
}

// simd.widen_add: narrow lanes extended and added into a register of wider lanes.
// CHECK-LABEL: func.func @widen_add
// CHECK: %{{.*}} = simd.widen_add %a, %x : vector<4xi64>, vector<32xi8>
// CHECK: %{{.*}} = simd.widen_add %b, %w signed : vector<4xi32>, vector<8xi16>
func.func @widen_add(%a : vector<4xi64>, %x : vector<32xi8>, %b : vector<4xi32>, %w : vector<8xi16>) {
  %s = simd.widen_add %a, %x : vector<4xi64>, vector<32xi8>
  %t = simd.widen_add %b, %w signed : vector<4xi32>, vector<8xi16>
  func.return
}

// CHECK-LABEL: func.func @horizontal_unsigned
func.func @horizontal_unsigned(%v : vector<16xi8>, %w : vector<2xi64>) -> (i8, i64) {
  // CHECK:      %{{.*}} = simd.hreduce <umax> %{{.*}} : vector<16xi8> -> i8
  // CHECK-NEXT: %{{.*}} = simd.hreduce <umin> %{{.*}} : vector<2xi64> -> i64
  %r = simd.hreduce <umax> %v : vector<16xi8> -> i8
  %o = simd.hreduce <umin> %w : vector<2xi64> -> i64
  func.return %r, %o : i8, i64
}
