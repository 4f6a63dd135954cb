// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON

// Part vectors (targets/c_part.py): in a loop of 64-bit lanes the f32 vectors fill the low half
// of a register. Loads zero the upper half, stores write the low half, an f32 compare's mask is
// widened to the 64-bit lanes' layout and narrowed back for an f32 select or masked access, and
// the f32 sum fills the upper lanes with -0.0 before the whole register's reduction.

func.func @mixed(%x: !loop.buf<f32>, %y: !loop.buf<f64>, %out: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zf = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zf : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %d = loop.load %y[%i] : !loop.buf<f64>
    %w = arith.extf %e : f32 to f64
    %p = arith.mulf %w, %d : f64
    %pos = arith.cmpf ogt, %p, %zd : f64
    %q = arith.truncf %p : f64 to f32
    %r = arith.select %pos, %q, %e : f32
    loop.store %r, %out[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %r : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// SSE2-LABEL: float mixed(
// SSE2:         __m128 e = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)&x[i]));
// SSE2-NEXT:    __m128d d = _mm_loadu_pd(&y[i]);
// SSE2-NEXT:    __m128d w = _mm_cvtps_pd(e);
// SSE2:         __m128 q = _mm_cvtpd_ps(p);
// SSE2-NEXT:    __m128 r = _mm_or_ps(_mm_and_ps(_mm_castsi128_ps(_mm_move_epi64(_mm_shuffle_epi32(pos, _MM_SHUFFLE(2, 0, 2, 0))))
// SSE2-NEXT:    _mm_storel_epi64((__m128i *)&out[i], _mm_castps_si128(r));
// SSE2-NEXT:    {{.*}} = _mm_add_ps(
// SSE2:         lo_hreduce_add_f32x4(_mm_castpd_ps(_mm_unpacklo_pd(_mm_castps_pd({{.*}}), _mm_castps_pd(_mm_set1_ps(-0.0f)))))

// AVX2-LABEL: float mixed(
// AVX2:         __m256 e = _mm256_zextps128_ps256(_mm_loadu_ps(&x[i]));
// AVX2:         __m256d w = _mm256_cvtps_pd(_mm256_castps256_ps128(e));
// AVX2:         __m256 q = _mm256_zextps128_ps256(_mm256_cvtpd_ps(p));
// AVX2-NEXT:    __m256 r = _mm256_blendv_ps(e, q, _mm256_castsi256_ps(_mm256_zextsi128_si256(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(pos,
// AVX2-NEXT:    _mm_storeu_ps(&out[i], _mm256_castps256_ps128(r));
// AVX2:         _mm256_maskload_ps(&x[{{.*}}], _mm256_zextsi128_si256(
// AVX2:         _mm256_maskstore_ps(&out[{{.*}}], _mm256_zextsi128_si256(
// AVX2:         lo_hreduce_add_f32x8(_mm256_insertf128_ps({{.*}}, _mm_set1_ps(-0.0f), 1))

// AVX512-LABEL: float mixed(
// AVX512:         __m512 e = _mm512_zextps256_ps512(_mm256_loadu_ps(&x[i]));
// AVX512:         __m512d w = _mm512_cvtps_pd(_mm512_castps512_ps256(e));
// AVX512:         __mmask8 pos = _mm512_cmp_pd_mask(p, {{.*}}, _CMP_GT_OQ);
// AVX512:         __m512 r = _mm512_mask_blend_ps((__mmask16)(pos), e, q);
// AVX512-NEXT:    _mm256_storeu_ps(&out[i], _mm512_castps512_ps256(r));
// AVX512:         _mm512_mask_loadu_ps({{.*}}, (__mmask16)(
// AVX512:         _mm512_mask_storeu_ps(&out[{{.*}}], (__mmask16)(
// AVX512:         _mm512_mask_mov_ps(_mm512_set1_ps(-0.0f), 0xFF,

// NEON-LABEL: float mixed(
// NEON:         float32x4_t e = vcombine_f32(vld1_f32(&x[i]), vdup_n_f32(0.0f));
// NEON:         float64x2_t w = vcvt_f64_f32(vget_low_f32(e));
// NEON:         float32x4_t q = vcombine_f32(vcvt_f32_f64(p), vdup_n_f32(0.0f));
// NEON-NEXT:    float32x4_t r = vbslq_f32(vcombine_u32(vmovn_u64(pos), vdup_n_u32(0)), q, e);
// NEON-NEXT:    vst1_f32(&out[i], vget_low_f32(r));
// NEON:         vcombine_f32(vget_low_f32({{.*}}), vdup_n_f32(-0.0f))
