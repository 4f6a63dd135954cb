// RUN: loop-opt %s -p 'loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-vectorize,convert-loop-to-simd{target=neon interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-vectorize,convert-loop-to-simd{target=scalar},canonicalize,cse' -t c | filecheck %s --check-prefix=SCALAR

// A load at an index loaded from another buffer is a simd.gather: the masked gather
// instruction on AVX-512 and AVX2 (every lane on here: the mask is all-ones), scalar loads
// lane by lane in a helper on SSE2 and NEON, the plain load on the scalar target.

// AVX512: __m512 x = _mm512_mask_i32gather_ps(
// AVX512-SAME: , b, 4);
// AVX2: __m256 x = _mm256_mask_i32gather_ps({{.*}}, b, k, _mm256_castsi256_ps(
// AVX2-SAME: ), 4);
// SSE2-LABEL: static inline __m128 lo_gather_f32_by_i32(const float *p, __m128i ix, __m128i m, __m128 passthru)
// SSE2: if (on[k])
// SSE2-NEXT: r[k] = p[i[k]];
// SSE2: __m128 x = lo_gather_f32_by_i32(b, k,
// NEON-LABEL: static inline float32x4_t lo_gather_f32_by_i32(const float *p, int32x4_t ix, uint32x4_t m, float32x4_t passthru)
// NEON: float32x4_t x = lo_gather_f32_by_i32(b, k,
// SCALAR: float x = b[j];
func.func @gsum(%b: !loop.buf<f32> {loop.role = "in", loop.axes = ["j"]}, %idx: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %z: f32) -> f32 attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %n = loop.dim %idx, 0 : !loop.buf<i32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %k = loop.load %idx[%i] : !loop.buf<i32>
    %j = arith.index_cast %k : i32 to index
    %x = loop.load %b[%j] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
