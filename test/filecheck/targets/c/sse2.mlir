// RUN: loop-opt %s -t c | filecheck %s
// RUN: loop-opt %s -t c | filecheck %s --check-prefix=NOSSE4

// SSE2 has no SSE4.1: i32 multiply, blends, integer min and 64-bit compares are emulated,
// fma is a per-lane fmaf (one rounding), compaction is a LUT-driven two-stage shift network
// (a full compress-store ends in one plain store), mask counts use no popcnt instruction.
builtin.module attributes {loop.target = "sse2"} {
  func.func @ops(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %f: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64}, %fo: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"]}, %i: index) -> index attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<i32> -> vector<4xi32>
    %sq = arith.muli %v, %v : vector<4xi32>
    %mn = simd.min %sq, %v : vector<4xi32>
    %m = simd.cmp <sgt> %mn, %v : vector<4xi32> -> vector<4xi1>
    %s = simd.select %m, %mn, %v : vector<4xi1>, vector<4xi32>
    %k = simd.compress_store %s, %m, %out[%i] : vector<4xi32>, vector<4xi1>, !loop.buf<i32>
    %k2 = simd.compress_store %s, %m, %out[%k] full : vector<4xi32>, vector<4xi1>, !loop.buf<i32>
    %pc = simd.mask_popcount %m : vector<4xi1>
    %a = simd.load %f[%i] : !loop.buf<f32> -> vector<4xf32>
    %b = simd.fma %a, %a, %a : vector<4xf32>
    simd.store %b, %fo[%i] aligned nontemporal : vector<4xf32>, !loop.buf<f32>
    simd.store_fence
    %r = arith.addi %k2, %pc : index
    func.return %r : index
  }
}

// CHECK:       #include <emmintrin.h>
// CHECK-DAG:   static inline __m128 lo_fma_f32x4(__m128 av, __m128 bv, __m128 cv)
// CHECK-DAG:   r[k] = fmaf(a[k], b[k], c[k]);
// CHECK-DAG:   static const uint32_t lo_leftpack_net4[16][2][4] = {
// CHECK-DAG:   static inline __m128i lo_leftpack4_sse2(__m128i v, unsigned bits)
// CHECK-DAG:   return _mm_or_si128(_mm_and_si128(s1, _mm_srli_si128(v, 8)), _mm_andnot_si128(s1, v));
// CHECK-DAG:   static inline int64_t lo_compress_full_i32x4(int32_t *p, __m128i v, __m128i m)
// CHECK-DAG:   _mm_storeu_si128((__m128i *)p, packed);
// CHECK-DAG:   static inline __m128i lo_min_i32x4(__m128i a, __m128i b)
// CHECK-DAG:   static inline __m128i lo_mullo_i32x4(__m128i a, __m128i b)
// CHECK-LABEL: int64_t ops(
// CHECK:           __m128i sq = lo_mullo_i32x4(v, v);
// CHECK-NEXT:      __m128i mn = lo_min_i32x4(sq, v);
// CHECK-NEXT:      __m128i m = _mm_cmpgt_epi32(mn, v);
// CHECK-NEXT:      __m128i s = _mm_or_si128(_mm_and_si128(m, mn), _mm_andnot_si128(m, v));
// An exact compress (hand-written IR: the lowering's are `full` or limited) through a spill.
// CHECK-NEXT:      int64_t k;
// CHECK-NEXT:      {
// CHECK-NEXT:          int32_t spill[4];
// CHECK-NEXT:          k = lo_compress_full_i32x4(&spill[0], s, m);
// CHECK-NEXT:          for (int64_t j = 0; j < k; j++) out[(i) + j] = spill[j];
// CHECK-NEXT:      }
// CHECK-NEXT:      int64_t k2 = lo_compress_full_i32x4(&out[k], s, m);
// CHECK-NEXT:      int64_t pc = (int64_t)((0x4332322132212110ull >> (4 * _mm_movemask_ps(_mm_castsi128_ps(m)))) & 15u);
// CHECK:           __m128 b = lo_fma_f32x4(a, a, a);
// CHECK-NEXT:      _mm_stream_ps(&fo[i], b);
// CHECK-NEXT:      _mm_sfence();

// NOSSE4-NOT: __builtin_popcount
// NOSSE4-NOT: lo_compress_store
// NOSSE4-NOT: {{_mm_(blendv|mullo_epi32|min_epi32|max_epi32|cmpeq_epi64|cmpgt_epi64|abs_epi|shuffle_epi8|fmadd|hadd|extract_epi|insert_epi|cvtepi32_epi64|stream_load)}}
