// RUN: loop-opt %s -t c | filecheck %s

// AVX2 has no 64-bit arithmetic shift: shrsi on i64 flips negative lanes, shifts logically
// (srlv gives 0 for amounts >= 64, read as unsigned) and flips back, so large amounts give the
// sign fill; shrui is srlv; f32 -> i32 saturates with NaN -> 0.
builtin.module attributes {loop.target = "avx2"} {
  func.func @shifts(%x: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %i: index, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}) attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i64> -> vector<4xi64>
    %r = arith.shrsi %v, %v : vector<4xi64>
    %u = arith.shrui %r, %v : vector<4xi64>
    simd.store %u, %out[%i] : vector<4xi64>, !loop.buf<i64>
    func.return
  }
}

// CHECK-LABEL: static inline __m256i lo_shrs_i64x4(__m256i a, __m256i b)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), a);
// CHECK-NEXT:      return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(a, sign), b), sign);

// CHECK-LABEL: void shifts(
// CHECK:           __m256i r = lo_shrs_i64x4(v, v);
// CHECK-NEXT:      __m256i u = _mm256_srlv_epi64(r, v);
