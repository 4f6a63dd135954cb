// RUN: loop-opt %s -t c | filecheck %s

// SSE2 has no per-lane variable shift: shl/shrsi/shrui shift by each lane's count with
// _mm_sll/srl_epi64 (one 64-bit count read as unsigned: >= width gives 0) and pick lane k of
// the k-th result; i64 shrsi flips negative lanes around the logical shift; f32 -> i32 fixes up
// cvttps' "integer indefinite" (INT32_MIN ^ all-ones = INT32_MAX on positive overflow, NaN -> 0).
builtin.module attributes {loop.target = "sse2"} {
  func.func @shifts(%x: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %f: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %i: index, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}, %o2: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}) attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i64> -> vector<2xi64>
    %l = arith.shli %v, %v : vector<2xi64>
    %r = arith.shrsi %l, %v : vector<2xi64>
    %u = arith.shrui %r, %v : vector<2xi64>
    simd.store %u, %out[%i] : vector<2xi64>, !loop.buf<i64>
    %g = simd.load %f[%i] : !loop.buf<f32> -> vector<4xf32>
    %c = simd.convert %g : vector<4xf32> -> vector<4xi32>
    simd.store %c, %o2[%i] : vector<4xi32>, !loop.buf<i32>
    func.return
  }
  func.func @sums(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %i: index) -> i64 attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<4xi32>
    %w = simd.load %y[%i] : !loop.buf<i64> -> vector<2xi64>
    %s = simd.hreduce <add> %v : vector<4xi32> -> i32
    %q = simd.hreduce <add> %w : vector<2xi64> -> i64
    %p = simd.hreduce <mul> %v : vector<4xi32> -> i32
    %t = arith.extsi %s : i32 to i64
    %pp = arith.extsi %p : i32 to i64
    %r0 = arith.addi %t, %q : i64
    %r = arith.addi %r0, %pp : i64
    func.return %r : i64
  }
}

// CHECK-LABEL: static inline __m128i lo_shl_i64x2(__m128i a, __m128i b)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i r0 = _mm_sll_epi64(a, b);
// CHECK-NEXT:      __m128i r1 = _mm_sll_epi64(a, _mm_srli_si128(b, 8));
// CHECK-NEXT:      return _mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(r1), _mm_castsi128_pd(r0)));
// CHECK-LABEL: static inline __m128i lo_shrs_i64x2(__m128i a, __m128i b)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i sign = _mm_shuffle_epi32(_mm_srai_epi32(a, 31), _MM_SHUFFLE(3, 3, 1, 1));
// CHECK-NEXT:      return _mm_xor_si128(lo_shru_i64x2(_mm_xor_si128(a, sign), b), sign);
// CHECK-LABEL: static inline __m128i lo_cvt_f32_i32x4(__m128 v)
// CHECK:           return _mm_and_si128(_mm_xor_si128(_mm_cvttps_epi32(v), _mm_castps_si128(_mm_cmpge_ps(v, _mm_set1_ps(0x1p31f)))), _mm_castps_si128(_mm_cmpord_ps(v, v)));

// Integer sums are halving trees within the 128-bit register (wrapping lanes); SSE2 has no
// 32-bit lane multiply (pmulld is SSE4.1), so the product keeps the generic spilled tree.
// CHECK-LABEL: static inline int32_t lo_hreduce_add_i32x4(__m128i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = v;
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 1, 1, 1)));
// CHECK-NEXT:      return _mm_cvtsi128_si32(q);
// CHECK-LABEL: static inline int64_t lo_hreduce_add_i64x2(__m128i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m128i q = v;
// CHECK-NEXT:      q = _mm_add_epi64(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      return _mm_cvtsi128_si64(q);
// CHECK-LABEL: static inline int32_t lo_hreduce_mul_i32x4(__m128i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      int32_t x[4];
// CHECK-NEXT:      _mm_storeu_si128((__m128i *)x, v);
// CHECK-LABEL: void shifts(
// CHECK:           __m128i l = lo_shl_i64x2(v, v);
// CHECK-NEXT:      __m128i r = lo_shrs_i64x2(l, v);
// CHECK-NEXT:      __m128i u = lo_shru_i64x2(r, v);
// CHECK:           __m128i c = lo_cvt_f32_i32x4(g);

// CHECK-LABEL: int64_t sums(
// CHECK:           int32_t s = lo_hreduce_add_i32x4(v);
// CHECK-NEXT:      int64_t q = lo_hreduce_add_i64x2(w);
// CHECK-NEXT:      int32_t p = lo_hreduce_mul_i32x4(v);
