// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 fallback=true remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SSE2

// f16 storage, f32 compute (targets/c_part.py): the f16 vectors have the f32 lane count in half
// a register of 16-bit lanes, converted by F16C (AVX2), AVX-512F or NEON; masked tails load
// f16 lanes with AVX-512BW's 16-bit masked loads or lane by lane. SSE2 has no conversion: the
// loop stays scalar and converts with the portable helpers.

func.func @scale(%x: !loop.buf<f16>, %out: !loop.buf<f16>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f16>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f16>
    %w = arith.extf %e : f16 to f32
    %m = arith.mulf %w, %a : f32
    %h = arith.truncf %m : f32 to f16
    loop.store %h, %out[%i] : !loop.buf<f16>
  }
  func.return
}

// AVX2-LABEL: void scale(const uint16_t *restrict x, int64_t x_len, uint16_t *restrict out, int64_t out_len, float a)
// AVX2:         __m128i e = _mm_loadu_si128((const __m128i *)&x[i]);
// AVX2-NEXT:    __m256 w = _mm256_cvtph_ps(e);
// AVX2-NEXT:    __m256 m = _mm256_mul_ps(w, {{.*}});
// AVX2-NEXT:    __m128i h = _mm256_cvtps_ph(m, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
// AVX2-NEXT:    _mm_storeu_si128((__m128i *)&out[i], h);
// AVX2:         __m128i e = lo_masked_load_u16x8(&x[i], {{.*}});
// AVX2:         lo_masked_store_u16x8(&out[i], {{.*}}, h);

// AVX512-LABEL: void scale(
// AVX512:         __m256i e = _mm256_loadu_si256((const __m256i *)&x[i]);
// AVX512-NEXT:    __m512 w = _mm512_cvtph_ps(e);
// AVX512:         __m256i h = _mm512_cvtps_ph(m, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
// AVX512:         __m256i e = _mm256_mask_loadu_epi16({{.*}}, {{.*}}, &x[i]);
// AVX512:         _mm256_mask_storeu_epi16(&out[i], {{.*}}, h);

// NEON-LABEL: void scale(
// NEON:         uint16x4_t e = vld1_u16(&x[i]);
// NEON-NEXT:    float32x4_t w = vcvt_f32_f16(vreinterpret_f16_u16(e));
// NEON:         uint16x4_t h = vreinterpret_u16_f16(vcvt_f16_f32(m));
// NEON-NEXT:    vst1_u16(&out[i], h);

// SSE2: f16_storage_c.mlir:14:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop has f16 lanes: sse2 has no vector f16 <-> f32 conversion (F16C)
// SSE2: static inline float lo_f16_to_f32(uint16_t h)
// SSE2: static inline uint16_t lo_f32_to_f16(float f)
// SSE2-LABEL: void scale(
// SSE2:         float w = lo_f16_to_f32(e);
// SSE2:         uint16_t h = lo_f32_to_f16(m);
