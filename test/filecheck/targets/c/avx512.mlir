// RUN: loop-opt %s -t c | filecheck %s

// AVX-512: comparisons give __mmask16, compaction is a compress store, masks count by popcount,
// NaN-propagating min blends the first operand back in, aligned non-temporal stores stream.
builtin.module attributes {loop.target = "avx512"} {
  func.func @compact(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64}, %i: index, %p: index) -> index attributes {loop.kernel} {
    %v = simd.load %x[%i] : !loop.buf<f32> -> vector<16xf32>
    %z = arith.constant dense<0.0> : vector<16xf32>
    %m = simd.cmp <ogt> %v, %z : vector<16xf32> -> vector<16xi1>
    %k = simd.compress_store %v, %m, %out[%p] : vector<16xf32>, vector<16xi1>, !loop.buf<f32>
    func.return %k : index
  }
  func.func @minstream(%x: !loop.buf<f64> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"]}, %i: index) attributes {loop.kernel} {
    %v = simd.load %x[%i] aligned : !loop.buf<f64> -> vector<8xf64>
    %w = simd.load %x[%i] : !loop.buf<f64> -> vector<8xf64>
    %m = simd.min %v, %w : vector<8xf64>
    simd.store %m, %out[%i] aligned nontemporal : vector<8xf64>, !loop.buf<f64>
    func.return
  }
}

// CHECK-NOT:   lo_compress_store
// CHECK-LABEL: int64_t compact(const float *restrict x, int64_t x_len, float *restrict out, int64_t out_len, int64_t i, int64_t p)
// CHECK:           __m512 v = _mm512_loadu_ps(&x[i]);
// CHECK-NEXT:      __m512 z = _mm512_set1_ps(0.0f);
// CHECK-NEXT:      __mmask16 m = _mm512_cmp_ps_mask(v, z, _CMP_GT_OQ);
// CHECK-NEXT:      _mm512_mask_compressstoreu_ps(&out[p], m, v);
// CHECK-NEXT:      int64_t k = (int64_t)__builtin_popcount((unsigned)(m));
// CHECK-NEXT:      return k;

// CHECK-LABEL: void minstream(const double *restrict x, int64_t x_len, double *restrict out, int64_t out_len, int64_t i)
// CHECK:           __m512d v = _mm512_load_pd(&x[i]);
// CHECK-NEXT:      __m512d w = _mm512_loadu_pd(&x[i]);
// CHECK-NEXT:      __m512d m = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q), _mm512_min_pd(v, w), v);
// CHECK-NEXT:      _mm512_stream_pd(&out[i], m);
