// RUN: loop-opt %s -t c | filecheck %s

// simd.cmp takes the unsigned predicates on integer lanes (it used to fail verification,
// "predicate ult compares floats"); AVX2 compares unsigned by flipping the sign bits of both
// sides before the signed compare. (The e2e runs: test/python/c_printer/test_unsigned_e2e.py.)
builtin.module attributes {loop.target = "avx2"} {
  func.func @ucmp(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["j"]}, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}, %out2: !loop.buf<i64> {loop.role = "out", loop.axes = ["j"]}) attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %a = simd.load %x[%c0] : !loop.buf<i32> -> vector<8xi32>
    %b = simd.load %y[%c0] : !loop.buf<i64> -> vector<4xi64>
    %k = arith.constant 100 : i32
    %pa = simd.broadcast %k : i32 -> vector<8xi32>
    %lt = simd.cmp <ult> %a, %pa : vector<8xi32> -> vector<8xi1>
    %ge = simd.cmp <uge> %b, %b : vector<4xi64> -> vector<4xi1>
    %sa = simd.select %lt, %a, %pa : vector<8xi1>, vector<8xi32>
    %sb = simd.select %ge, %b, %b : vector<4xi1>, vector<4xi64>
    simd.store %sa, %out[%c0] : vector<8xi32>, !loop.buf<i32>
    simd.store %sb, %out2[%c0] : vector<4xi64>, !loop.buf<i64>
    func.return
  }
}

// CHECK-LABEL: void ucmp(
// CHECK: __m256i lt = _mm256_cmpgt_epi32(_mm256_xor_si256(pa, _mm256_set1_epi32(INT32_MIN)), _mm256_xor_si256(a, _mm256_set1_epi32(INT32_MIN)));
// CHECK: __m256i ge = _mm256_xor_si256(_mm256_cmpgt_epi64(_mm256_xor_si256(b, _mm256_set1_epi64x(INT64_MIN)), _mm256_xor_si256(b, _mm256_set1_epi64x(INT64_MIN))), _mm256_set1_epi32(-1));
