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
  func.func @sums(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %i: index) -> i64 attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<8xi32>
    %w = simd.load %y[%i] : !loop.buf<i64> -> vector<4xi64>
    %s = simd.hreduce <add> %v : vector<8xi32> -> i32
    %q = simd.hreduce <add> %w : vector<4xi64> -> i64
    %p = simd.hreduce <mul> %v : vector<8xi32> -> i32
    %t = arith.extsi %s : i32 to i64
    %pp = arith.extsi %p : i32 to i64
    %r0 = arith.addi %t, %q : i64
    %r = arith.addi %r0, %pp : i64
    func.return %r : i64
  }
  func.func @extremes(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %i: index) -> i64 attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<8xi32>
    %w = simd.load %y[%i] : !loop.buf<i64> -> vector<4xi64>
    %a = simd.hreduce <min> %v : vector<8xi32> -> i32
    %b = simd.hreduce <umax> %v : vector<8xi32> -> i32
    %c = simd.hreduce <or> %w : vector<4xi64> -> i64
    %d = simd.hreduce <max> %w : vector<4xi64> -> i64
    %e = arith.addi %a, %b : i32
    %f = arith.extsi %e : i32 to i64
    %g = arith.addi %f, %c : i64
    %r = arith.addi %g, %d : i64
    func.return %r : i64
  }
}

// CHECK-LABEL: static inline __m256i lo_shrs_i64x4(__m256i a, __m256i b)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m256i sign = _mm256_cmpgt_epi64(_mm256_setzero_si256(), a);
// CHECK-NEXT:      return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(a, sign), b), sign);

// Integer sums (and the i32 product, vpmulld) are halving trees of vector ops, 256 -> 128 bits
// then within 128 (wrapping lanes; the generic spill-and-add tree became 8 pextrd + 7 adds).
// CHECK-LABEL: static inline int32_t lo_hreduce_add_i32x8(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 1, 1, 1)));
// CHECK-NEXT:      return _mm_cvtsi128_si32(q);
// CHECK-LABEL: static inline int64_t lo_hreduce_add_i64x4(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// CHECK-NEXT:      q = _mm_add_epi64(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      return _mm_cvtsi128_si64(q);
// CHECK-LABEL: static inline int32_t lo_hreduce_mul_i32x8(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_mullo_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// min/max (signed and unsigned, SSE4.1's pminsd/pmaxud) of i32 lanes and bitwise folds of any
// lanes are trees too; AVX2 has no 64-bit lane min/max: the generic tree.
// CHECK-LABEL: static inline int32_t lo_hreduce_min_i32x8(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_min_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// CHECK-NEXT:      q = _mm_min_epi32(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      q = _mm_min_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 1, 1, 1)));
// CHECK-LABEL: static inline int32_t lo_hreduce_umax_i32x8(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// CHECK-LABEL: static inline int64_t lo_hreduce_or_i64x4(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
// CHECK-NEXT:      q = _mm_or_si128(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      return _mm_cvtsi128_si64(q);
// CHECK-LABEL: static inline int64_t lo_hreduce_max_i64x4(__m256i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      int64_t x[4];
// CHECK-LABEL: void shifts(
// CHECK:           __m256i r = lo_shrs_i64x4(v, v);
// CHECK-NEXT:      __m256i u = _mm256_srlv_epi64(r, v);

// CHECK-LABEL: int64_t sums(
// CHECK:           int32_t s = lo_hreduce_add_i32x8(v);
// CHECK-NEXT:      int64_t q = lo_hreduce_add_i64x4(w);
// CHECK-NEXT:      int32_t p = lo_hreduce_mul_i32x8(v);
