// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked cpu=icelake-server}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 tail=masked cpu=zen4}' -t c | filecheck %s --check-prefix=BF16CPU
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON

// bf16 storage, f32 compute (targets/c_part.py): the bf16 vectors have the f32 lane count in
// 16-bit lanes of their own type on every vector ISA. Widening shifts the bits up 16 (exact);
// narrowing rounds to nearest even with an integer add and makes NaN the quiet NaN of its sign,
// as ml_dtypes does. A CPU with AVX512_BF16 (cpu=zen4) narrows with vcvtneps2bf16 and fixes up
// the lanes where it differs (subnormals, NaN), enabled for gcc and clang by pragmas (closed at the
// end of the file); a generic or Ice Lake AVX-512 does not use it.

func.func @scale(%x: !loop.buf<bf16>, %out: !loop.buf<bf16>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<bf16>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<bf16>
    %w = arith.extf %e : bf16 to f32
    %m = arith.mulf %w, %a : f32
    %h = arith.truncf %m : f32 to bf16
    loop.store %h, %out[%i] : !loop.buf<bf16>
  }
  func.return
}

// SCALAR: static inline float lo_bf16_to_f32(uint16_t h)
// SCALAR: union { uint32_t u; float f; } c = { (uint32_t)h << 16 };
// SCALAR: static inline uint16_t lo_f32_to_bf16(float f)
// SCALAR: return (uint16_t)(((x >> 16) & 0x8000u) | 0x7FC0u);
// SCALAR: return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
// SCALAR-LABEL: void scale(const uint16_t *restrict x, int64_t x_len, uint16_t *restrict out, int64_t out_len, float a)
// SCALAR:         float w = lo_bf16_to_f32(e);
// SCALAR:         uint16_t h = lo_f32_to_bf16(m);

// SSE2: static inline __m128i lo_f32_to_bf16x4(__m128 a)
// SSE2:   __m128i nan = _mm_castps_si128(_mm_cmpunord_ps(a, a));
// SSE2:   return _mm_packs_epi32(r, _mm_setzero_si128());
// SSE2-LABEL: void scale(
// SSE2:         __m128i e = _mm_loadl_epi64((const __m128i *)&x[i]);
// SSE2-NEXT:    __m128 w = _mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), e));
// SSE2:         __m128i h = lo_f32_to_bf16x4(m);
// SSE2-NEXT:    _mm_storel_epi64((__m128i *)&out[i], h);

// AVX2: static inline __m128i lo_f32_to_bf16x8(__m256 a)
// AVX2:   return _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
// AVX2-LABEL: void scale(
// AVX2:         __m128i e = _mm_loadu_si128((const __m128i *)&x[i]);
// AVX2-NEXT:    __m256 w = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(e), 16));
// AVX2:         __m128i h = lo_f32_to_bf16x8(m);
// AVX2-NEXT:    _mm_storeu_si128((__m128i *)&out[i], h);
// AVX2:         __m128i e = lo_masked_load_u16x8(&x[i], {{.*}});
// AVX2:         lo_masked_store_u16x8(&out[i], {{.*}}, h);

// AVX512-NOT: #pragma
// AVX512: static inline __m256i lo_f32_to_bf16x16(__m512 a)
// AVX512-NOT: lo_f32_to_bf16x16_ne
// AVX512-LABEL: void scale(
// AVX512:         __m256i e = _mm256_loadu_si256((const __m256i *)&x[i]);
// AVX512-NEXT:    __m512 w = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(e), 16));
// AVX512:         __m256i h = lo_f32_to_bf16x16(m);
// AVX512:         __m256i e = _mm256_mask_loadu_epi16({{.*}}, {{.*}}, &x[i]);
// AVX512:         _mm256_mask_storeu_epi16(&out[i], {{.*}}, h);

// BF16CPU: target: avx512 ({{.*}}-mavx512bf16)
// BF16CPU: #if defined(__clang__)
// BF16CPU-NEXT: #pragma clang attribute push (__attribute__((target("avx512bf16"))), apply_to = function)
// BF16CPU-NEXT: #else
// BF16CPU-NEXT: #pragma GCC target("avx512bf16")
// BF16CPU-NEXT: #endif
// BF16CPU-NEXT: #include
// BF16CPU: static inline __m256i lo_f32_to_bf16x16_ne(__m512 a)
// BF16CPU:   __m256i r = (__m256i)_mm512_cvtneps_pbh(a);
// BF16CPU-NEXT:   __mmask16 odd = _mm512_fpclass_ps_mask(a, 0xA1);
// BF16CPU-NEXT:   return odd ? _mm256_mask_mov_epi16(r, odd, lo_f32_to_bf16x16(a)) : r;
// BF16CPU-LABEL: void scale(
// BF16CPU:         __m256i h = lo_f32_to_bf16x16_ne(m);
// BF16CPU:      #if defined(__clang__)
// BF16CPU-NEXT: #pragma clang attribute pop
// BF16CPU-NEXT: #endif

// NEON: static inline uint16x4_t lo_f32_to_bf16x4(float32x4_t a)
// NEON:   return vshrn_n_u32(vbslq_u32(vceqq_f32(a, a), r, q), 16);
// NEON-LABEL: void scale(
// NEON:         uint16x4_t e = vld1_u16(&x[i]);
// NEON-NEXT:    float32x4_t w = vreinterpretq_f32_u32(vshll_n_u16(e, 16));
// NEON:         uint16x4_t h = lo_f32_to_bf16x4(m);
// NEON-NEXT:    vst1_u16(&out[i], h);
