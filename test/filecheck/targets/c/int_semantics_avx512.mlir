// RUN: loop-opt %s -t c | filecheck %s

// AVX-512 integer sums and products are wrapping halving trees of _mm*_add_epi*/_mm*_mullo_epi*
// (the header's _mm512_reduce_add_epi32/64 adds signed lanes: undefined on overflow); shrui is
// srlv; unsigned compares are _mm512_cmp_epu*_mask rows; f32 -> i32 fixes up cvtt's "integer
// indefinite" (saturate, NaN -> 0).
builtin.module attributes {loop.target = "avx512"} {
  func.func @sums(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %y: !loop.buf<i64> {loop.role = "in", loop.axes = ["i"]}, %i: index) -> i64 attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<16xi32>
    %w = simd.load %y[%i] : !loop.buf<i64> -> vector<8xi64>
    %s = simd.hreduce <add> %v : vector<16xi32> -> i32
    %p = simd.hreduce <mul> %w : vector<8xi64> -> i64
    %t = arith.extsi %s : i32 to i64
    %r = arith.addi %t, %p : i64
    func.return %r : i64
  }
  func.func @shifts(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %f: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %i: index, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}) attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<16xi32>
    %g = simd.load %f[%i] : !loop.buf<f32> -> vector<16xf32>
    %u = arith.shrui %v, %v : vector<16xi32>
    %c = simd.convert %g : vector<16xf32> -> vector<16xi32>
    %a = arith.addi %u, %c : vector<16xi32>
    simd.store %a, %out[%i] : vector<16xi32>, !loop.buf<i32>
    func.return
  }
}

// CHECK-NOT:   _mm512_reduce_add_epi
// CHECK-NOT:   _mm512_reduce_mul_epi
// CHECK-LABEL: static inline int32_t lo_hreduce_add_i32x16(__m512i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m256i h = _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
// CHECK-NEXT:      __m128i q = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      q = _mm_add_epi32(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(1, 1, 1, 1)));
// CHECK-NEXT:      return _mm_cvtsi128_si32(q);
// CHECK-LABEL: static inline int64_t lo_hreduce_mul_i64x8(__m512i v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m256i h = _mm256_mullo_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
// CHECK-NEXT:      __m128i q = _mm_mullo_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
// CHECK-NEXT:      q = _mm_mullo_epi64(q, _mm_unpackhi_epi64(q, q));
// CHECK-NEXT:      return _mm_cvtsi128_si64(q);
// CHECK-LABEL: static inline __m512i lo_cvt_f32_i32x16(__m512 v)
// CHECK-NEXT:  {
// CHECK-NEXT:      __m512i c = _mm512_cvttps_epi32(v);
// CHECK-NEXT:      c = _mm512_mask_mov_epi32(c, _mm512_cmp_ps_mask(v, _mm512_set1_ps(0x1p31f), _CMP_GE_OQ), _mm512_set1_epi32(INT32_MAX));
// CHECK-NEXT:      return _mm512_maskz_mov_epi32(_mm512_cmp_ps_mask(v, v, _CMP_ORD_Q), c);

// CHECK-LABEL: int64_t sums(
// CHECK:           int32_t s = lo_hreduce_add_i32x16(v);
// CHECK-NEXT:      int64_t p = lo_hreduce_mul_i64x8(w);
// CHECK:           int64_t r = (int64_t)((uint64_t)t + (uint64_t)p);

// CHECK-LABEL: void shifts(
// CHECK:           __m512i u = _mm512_srlv_epi32(v, v);
// CHECK-NEXT:      __m512i c = lo_cvt_f32_i32x16(g);
// CHECK-NEXT:      __m512i a = _mm512_add_epi32(u, c);
