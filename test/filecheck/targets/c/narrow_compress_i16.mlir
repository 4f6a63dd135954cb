// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 interleave=1 remarks=true}' 2>&1 | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SCALAR

// A filter keeping i16 values compacts the word register as bytes (targets/c_narrow_compress.py):
// a word's mask lane sets both its bytes (AVX-512 widens its word mask to a byte mask), the
// 8-byte groups pack whole words, and the byte count halved is the word count. SSE2 (no byte
// shuffle) packs each 4-word half of the register through a shift network row
// (lo_compress_net4x2, _mm_srli_epi64 within the halves: no branch) and stores the halves at the count.

func.func @filter_i16(%x: !df.array<i16, [i]>) -> !df.array<i16, [j]> {
  %r = df.filter %x : !df.array<i16, [i]> -> !df.array<i16, [j]> {
  ^bb0(%e: i16):
    %c3 = arith.constant 3 : i16
    %c = arith.cmpi sgt, %e, %c3 : i16
    df.yield %c : i1
  }
  func.return %r : !df.array<i16, [j]>
}

// IR-NOT:       remark:
// IR:             simd.compress_store %{{.*}}, %{{.*}}, %out[%{{.*}}] full : vector<16xi16>, vector<16xi1>, !loop.buf<i16>

// AVX2-NOT:     remark:
// AVX2:         static inline int64_t lo_compress_full_i8x32(int8_t *p, __m256i v, __m256i m)
// AVX2-LABEL: int64_t filter_i16(
// AVX2:           int64_t {{v_[0-9]+}} = lo_compress_full_i8x32((int8_t *)&out[cursor], {{.*}}, mask) / 2;
// AVX2:           lo_compress_full_i8x32((int8_t *)&out[count], {{.*}}) / 2;
// AVX2:           lo_compress_full_i8x32((int8_t *)&spill[0], {{.*}}) / 2;

// AVX512-NOT:   remark:
// AVX512-LABEL: int64_t filter_i16(
// AVX512:         lo_compress_full_i8x64((int8_t *)&out[cursor], {{.*}}, _mm512_movepi8_mask(_mm512_movm_epi16(mask))) / 2;

// NEON-NOT:     remark:
// NEON-LABEL: int64_t filter_i16(
// NEON:           lo_compress_full_i8x16((int8_t *)&out[cursor], vreinterpretq_s8_s16({{.*}}), vreinterpretq_u8_u16(mask)) / 2;

// SSE2-NOT:     remark:
// SSE2:         static inline int64_t lo_compress_full_i16x8(int16_t *p, __m128i v, __m128i m)
// SSE2-NEXT:    {
// SSE2-NEXT:        unsigned bits = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(m, m)) & 0xFFu;
// SSE2-NEXT:        __m128i s0 = _mm_loadu_si128((const __m128i *)lo_compress_net4x2[bits][0]);
// SSE2-NEXT:        __m128i s1 = _mm_loadu_si128((const __m128i *)lo_compress_net4x2[bits][1]);
// SSE2-NEXT:        v = _mm_xor_si128(v, _mm_and_si128(s0, _mm_xor_si128(v, _mm_srli_epi64(v, 16))));
// SSE2-NEXT:        v = _mm_xor_si128(v, _mm_and_si128(s1, _mm_xor_si128(v, _mm_srli_epi64(v, 32))));
// SSE2-NOT:     for (
// SSE2:             _mm_storel_epi64((__m128i *)p, v);
// SSE2-NEXT:        _mm_storel_epi64((__m128i *)(p + c0), _mm_unpackhi_epi64(v, v));
// SSE2-NOT:     lo_compress_full_i8x16
// SSE2-LABEL: int64_t filter_i16(
// SSE2:           lo_compress_full_i16x8(&out[cursor], {{.*}}, mask);

// SCALAR-NOT:   remark:
// SCALAR-NOT:   lo_compress
