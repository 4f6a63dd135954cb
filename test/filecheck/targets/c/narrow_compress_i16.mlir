// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 interleave=1 remarks=true}' 2>&1 | filecheck %s --check-prefix=IR
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SCALAR

// A filter keeping i16 values compacts the word register as bytes (targets/c_narrow_compress.py):
// a word's mask lane sets both its bytes (AVX-512 widens its word mask to a byte mask), the
// 8-byte groups pack whole words, and the byte count halved is the word count; SSE2 (no byte
// shuffle) copies each group's kept bytes one by one.

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
// SSE2:             for (uint64_t r = b; r; r &= r - 1) *q++ = x[8 * g + __builtin_ctzll(r)];
// SSE2-LABEL: int64_t filter_i16(
// SSE2:           lo_compress_full_i8x16((int8_t *)&out[cursor], {{.*}}, mask) / 2;

// SCALAR-NOT:   remark:
// SCALAR-NOT:   lo_compress
