// RUN: loop-opt %s -t c | filecheck %s

// A select against +0 prints as an AND with the mask: the zero splat it no longer reads is not
// printed (it was an unused variable, an error under -Werror=unused-variable); nor is the
// all-true splat of a `not`.
builtin.module attributes {loop.target = "avx2"} {
  func.func @inc_lt(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}) attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %n = loop.dim %x, 0 : !loop.buf<i32>
    %r = arith.remsi %n, %c8 : index
    %nv = arith.subi %n, %r : index
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %vone = simd.broadcast %one : i32 -> vector<8xi32>
    %vzero = simd.broadcast %zero : i32 -> vector<8xi32>
    %vt = arith.constant dense<true> : vector<8xi1>
    loop.for %i in range(%c0, %nv, %c8) {
      %a = simd.load %x[%i] : !loop.buf<i32> -> vector<8xi32>
      %p = arith.addi %a, %vone : vector<8xi32>
      %lt = simd.cmp <slt> %p, %a : vector<8xi32> -> vector<8xi1>
      %ge = arith.xori %lt, %vt : vector<8xi1>
      %s = simd.select %ge, %vone, %vzero : vector<8xi1>, vector<8xi32>
      simd.store %s, %out[%i] : vector<8xi32>, !loop.buf<i32>
      loop.yield
    }
    func.return
  }
}

// CHECK-LABEL: void inc_lt(
// CHECK-NOT:   _mm256_set1_epi32(0);
// CHECK-NOT:   _mm256_set1_epi32(-1);
// CHECK:       __m256i vone = _mm256_set1_epi32(1);
// CHECK-NOT:   _mm256_set1_epi32(0);
// CHECK:       _mm256_and_si256(
// CHECK-NOT:   _mm256_set1_epi32(0);
// CHECK:       _mm256_storeu_si256(
