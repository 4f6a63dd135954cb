// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @load_element(%b : !loop.buf<f64>, %i : index) {
  %v = simd.load %b[%i] : !loop.buf<f64> -> vector<8xf32>
  func.return
}
// CHECK: buffer element type f64 != vector element type f32

// -----

func.func @store_nontemporal_unaligned(%b : !loop.buf<f32>, %i : index, %v : vector<4xf32>) {
  simd.store %v, %b[%i] nontemporal : vector<4xf32>, !loop.buf<f32>
  func.return
}
// CHECK: a nontemporal store requires 'aligned' (streaming stores fault on unaligned addresses)

// -----

func.func @masked_load_mask_width(%b : !loop.buf<f32>, %i : index, %m : vector<4xi1>, %p : vector<8xf32>) {
  %v = simd.masked_load %b[%i], %m, %p : !loop.buf<f32>, vector<4xi1> -> vector<8xf32>
  func.return
}
// CHECK: mask lanes 4 != vector width 8

// -----

func.func @masked_load_passthru(%b : !loop.buf<f32>, %i : index, %m : vector<8xi1>, %p : vector<8xi32>) {
  %v = "simd.masked_load"(%b, %i, %m, %p) : (!loop.buf<f32>, index, vector<8xi1>, vector<8xi32>) -> vector<8xf32>
  func.return
}
// CHECK: attribute vector<8xi32> expected from variable 'T', but got vector<8xf32>

// -----

func.func @compress_store_element(%b : !loop.buf<i32>, %i : index, %m : vector<8xi1>, %v : vector<8xf32>) {
  %n = simd.compress_store %v, %m, %b[%i] : vector<8xf32>, vector<8xi1>, !loop.buf<i32>
  func.return
}
// CHECK: buffer element type i32 != vector element type f32

// -----

func.func @compress_store_full_limit(%b : !loop.buf<f32>, %i : index, %m : vector<8xi1>, %v : vector<8xf32>) {
  %n = simd.compress_store %v, %m, %b[%i] full limit %i : vector<8xf32>, vector<8xi1>, !loop.buf<f32>
  func.return
}
// CHECK: a `full` compress_store writes all N lanes: it cannot take a `limit`

// -----

func.func @align_offset_alignment(%b : !loop.buf<f64>, %i : index) {
  %p = simd.align_offset %b[%i], 4 : !loop.buf<f64>
  func.return
}
// CHECK: alignment 4 must be a power of two in [8, 64] (the element size of f64 up to a cache line)

// -----

func.func @align_offset_element(%b : !loop.buf<i1>, %i : index) {
  %p = simd.align_offset %b[%i], 64 : !loop.buf<i1>
  func.return
}
// CHECK: expected a buffer of f32, f64, i32 or i64, got !loop.buf<i1>

// -----

func.func @vector_lanes(%x : vector<3xf32>) {
  %y = simd.min %x, %x : vector<3xf32>
  func.return
}
// CHECK: vector<3xf32>: lanes 3 is not one of (1, 2, 4, 8, 16, 32, 64)

// -----

func.func @vector_bits(%x : vector<16xf64>) {
  %y = simd.max %x, %x : vector<16xf64>
  func.return
}
// CHECK: vector<16xf64>: 1024 bits > 512-bit registers

// -----

func.func @vector_rank(%x : vector<2x4xf32>) {
  %y = simd.max %x, %x : vector<2x4xf32>
  func.return
}
// CHECK: expected a rank-1 vector of float or int lanes, got vector<2x4xf32>

// -----

func.func @fma_int(%x : vector<4xi32>) {
  %y = simd.fma %x, %x, %x : vector<4xi32>
  func.return
}
// CHECK: expected a vector of float lanes, got vector<4xi32>

// -----

func.func @broadcast_type(%s : f64) {
  %v = simd.broadcast %s : f64 -> vector<4xf32>
  func.return
}
// CHECK: scalar type f64 != vector element type f32

// -----

func.func @cmp_float_predicate(%x : vector<4xi32>) {
  %m = simd.cmp <olt> %x, %x : vector<4xi32> -> vector<4xi1>
  func.return
}
// CHECK: predicate olt compares floats, got vector<4xi32>

// -----

func.func @cmp_int_predicate(%x : vector<4xf32>) {
  %m = simd.cmp <slt> %x, %x : vector<4xf32> -> vector<4xi1>
  func.return
}
// CHECK: predicate slt compares integers, got vector<4xf32>

// -----

func.func @cmp_mask_width(%x : vector<4xf32>) {
  %m = simd.cmp <olt> %x, %x : vector<4xf32> -> vector<8xi1>
  func.return
}
// CHECK: mask lanes 8 != vector width 4

// -----

func.func @select_mask_width(%m : vector<4xi1>, %x : vector<8xi32>) {
  %y = simd.select %m, %x, %x : vector<4xi1>, vector<8xi32>
  func.return
}
// CHECK: mask lanes 4 != vector width 8

// -----

func.func @hreduce_result(%x : vector<8xf32>) {
  %r = simd.hreduce <add> %x : vector<8xf32> -> f64
  func.return
}
// CHECK: result type f64 != vector element type f32

// -----

func.func @hreduce_and_float(%x : vector<8xf32>) {
  %r = simd.hreduce <and> %x : vector<8xf32> -> f32
  func.return
}
// CHECK: hreduce <and> needs integer lanes, got vector<8xf32>

// -----

func.func @hreduce_umax_float(%x : vector<4xf64>) {
  %r = simd.hreduce <umax> %x : vector<4xf64> -> f64
  func.return
}
// CHECK: hreduce <umax> needs integer lanes, got vector<4xf64>

// -----

func.func @convert_lanes(%x : vector<8xi32>) {
  %r = simd.convert %x : vector<8xi32> -> vector<4xf64>
  func.return
}
// CHECK: result lanes 4 != vector width 8

// -----

func.func @iota_float() {
  %r = simd.iota : vector<4xf32>
  func.return
}
// CHECK: expected a vector of int lanes, got vector<4xf32>

// -----

func.func @popcount_not_mask(%x : vector<4xi32>) {
  %r = simd.mask_popcount %x : vector<4xi32>
  func.return
}
// CHECK: expected a vector of mask lanes, got vector<4xi32>

// -----

func.func @widen_add_not_wider(%a : vector<16xi16>, %x : vector<16xi16>) {
  %y = simd.widen_add %a, %x : vector<16xi16>, vector<16xi16>
  func.return
}
// CHECK: accumulator lanes (vector<16xi16>) must be wider than the added lanes (vector<16xi16>)

// -----

func.func @widen_add_other_register(%a : vector<8xi64>, %x : vector<32xi8>) {
  %y = simd.widen_add %a, %x signed : vector<8xi64>, vector<32xi8>
  func.return
}
// CHECK: vector<8xi64> and vector<32xi8> must fill the same register
