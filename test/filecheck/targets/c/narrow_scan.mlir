// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR


// i8/i16 min/max/umin/umax scans (session 24): the log-step prefix of scan.py at 16/32/64 byte
// lanes or 8/16/32 word lanes. Slides by whole 32-bit lanes keep the low lanes' own values
// (slide_up_dup, SSE2 pshufd / AVX2 vpermd, vpermq) where TargetInfo.dup_slides; narrower ones
// slide the neutral in (a byte shift: SSE2 pslldq | psrldq, AVX2 vperm2i128 + vpalignr,
// AVX-512 valignd + vpalignr, NEON ext). SSE2 has pmaxub/pminub and pmaxsw/pminsw only: a
// signed i8 scan runs as umax/umin on x ^ 0x80 and an unsigned i16 one as max/min on
// x ^ 0x8000 (TargetInfo.flipped_signed_minmax / flipped_unsigned_minmax): init and loads
// flipped, the running value flipped back for the store and the tail, the carry never.

// SSE2-LABEL: void max_i8(
// SSE2:         __m128i [[SIGN:v[_0-9]*]] = _mm_set1_epi8((char)(-128));
// SSE2:         __m128i [[INIT:v[_0-9]*]] = _mm_set1_epi8((char)(-7));
// SSE2-NEXT:    __m128i [[FINIT:v[_0-9]*]] = _mm_xor_si128([[INIT]], [[SIGN]]);
// SSE2:         __m128i [[ZERO:v[_0-9]*]] = _mm_set1_epi8((char)0);
// SSE2-NEXT:    __m128i acc_v = [[FINIT]];
// SSE2:           __m128i [[X:v[_0-9]*]] = _mm_loadu_si128((const __m128i *)&x[i]);
// SSE2-NEXT:      __m128i [[FX:v[_0-9]*]] = _mm_xor_si128([[X]], [[SIGN]]);
// SSE2-NEXT:      __m128i [[S1:v[_0-9]*]] = (_mm_or_si128(_mm_slli_si128(([[FX]]), 1), _mm_srli_si128(([[ZERO]]), 15)));
// SSE2-NEXT:      __m128i [[P1:v[_0-9]*]] = _mm_max_epu8([[S1]], [[FX]]);
// SSE2-NEXT:      __m128i [[S2:v[_0-9]*]] = (_mm_or_si128(_mm_slli_si128(([[P1]]), 2), _mm_srli_si128(([[ZERO]]), 14)));
// SSE2-NEXT:      __m128i [[P2:v[_0-9]*]] = _mm_max_epu8([[S2]], [[P1]]);
// SSE2-NEXT:      __m128i [[S4:v[_0-9]*]] = _mm_shuffle_epi32([[P2]], 0x90);
// SSE2-NEXT:      __m128i [[P4:v[_0-9]*]] = _mm_max_epu8([[S4]], [[P2]]);
// SSE2-NEXT:      __m128i [[S8:v[_0-9]*]] = _mm_shuffle_epi32([[P4]], 0x44);
// SSE2-NEXT:      __m128i [[P8:v[_0-9]*]] = _mm_max_epu8([[S8]], [[P4]]);
// SSE2-NEXT:      __m128i [[T:v[_0-9]*]] = _mm_max_epu8(acc_v, [[P8]]);
// SSE2-NEXT:      __m128i [[OUT:v[_0-9]*]] = _mm_xor_si128([[T]], [[SIGN]]);
// SSE2-NEXT:      _mm_storeu_si128((__m128i *)&out[i], [[OUT]]);
// SSE2-NEXT:      __m128i [[L:v[_0-9]*]] = _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_unpackhi_epi8([[P8]], [[P8]]), 0xFF), 0xFF);
// SSE2-NEXT:      acc_v = _mm_max_epu8(acc_v, [[L]]);
// SSE2:         __m128i [[BACK:v[_0-9]*]] = _mm_xor_si128(acc_v, [[SIGN]]);
// SSE2-NEXT:    int8_t [[R:v[_0-9]*]] = (int8_t)_mm_cvtsi128_si32([[BACK]]);
// SSE2-NEXT:    int8_t acc = [[R]];

// umin of bytes is native (pminub): no flip, 0xFF slid in.
// SSE2-LABEL: void umin_i8(
// SSE2-NOT:     _mm_xor_si128
// SSE2:         __m128i [[ONES:v[_0-9]*]] = _mm_set1_epi8((char)(-1));
// SSE2:           _mm_or_si128(_mm_slli_si128(({{.*}}), 1), _mm_srli_si128(([[ONES]]), 15))
// SSE2-NEXT:      _mm_min_epu8(
// SSE2-NOT:       _mm_xor_si128
// SSE2:           _mm_shuffle_epi32({{.*}}, 0x44);
// SSE2-LABEL: void min_i16(
// SSE2-NOT:     _mm_xor_si128
// SSE2:         __m128i [[TOP:v[_0-9]*]] = _mm_set1_epi16((short)32767);
// SSE2:           _mm_or_si128(_mm_slli_si128(({{.*}}), 2), _mm_srli_si128(([[TOP]]), 14))
// SSE2-NEXT:      _mm_min_epi16(
// SSE2-NEXT:      _mm_shuffle_epi32({{.*}}, 0x90);
// SSE2-NEXT:      _mm_min_epi16(
// SSE2-NEXT:      _mm_shuffle_epi32({{.*}}, 0x44);
// SSE2:           _mm_shuffle_epi32(_mm_shufflehi_epi16({{.*}}, 0xFF), 0xFF);
// SSE2:         (int16_t)_mm_cvtsi128_si32(acc_v);
// SSE2-LABEL: void umax_i16(
// SSE2:         __m128i [[SIGN16:v[_0-9]*]] = _mm_set1_epi16((short)(-32768));
// SSE2:           __m128i [[X16:v[_0-9]*]] = _mm_loadu_si128(
// SSE2-NEXT:      __m128i [[FX16:v[_0-9]*]] = _mm_xor_si128([[X16]], [[SIGN16]]);
// SSE2-NEXT:      _mm_or_si128(_mm_slli_si128(([[FX16]]), 2), _mm_srli_si128(([[SIGN16]]), 14))
// SSE2-NEXT:      _mm_max_epi16(
// SSE2-NOT:       _mm_max_epu16
// SSE2:           _mm_xor_si128({{.*}}, [[SIGN16]]);
// SSE2-NEXT:      _mm_storeu_si128(

// On AVX2, native min/max of every kind; bytes and words slide across the halves by vperm2i128 +
// vpalignr, whole dwords by vpermd / vpermq; the last lane by vpshufb / vpshufhw + vpermd.
// AVX2-LABEL: void max_i8(
// AVX2-NOT:     _mm256_xor_si256
// AVX2:         __m256i [[LOW:v[_0-9]*]] = _mm256_set1_epi8((char)(-128));
// AVX2:           __m256i [[X:v[_0-9]*]] = _mm256_loadu_si256(
// AVX2-NEXT:      __m256i [[S1:v[_0-9]*]] = (_mm256_alignr_epi8(([[X]]), _mm256_permute2x128_si256(([[X]]), ([[LOW]]), 0x03), 15));
// AVX2-NEXT:      __m256i [[P1:v[_0-9]*]] = _mm256_max_epi8([[S1]], [[X]]);
// AVX2-NEXT:      __m256i [[S2:v[_0-9]*]] = (_mm256_alignr_epi8(([[P1]]), _mm256_permute2x128_si256(([[P1]]), ([[LOW]]), 0x03), 14));
// AVX2-NEXT:      __m256i [[P2:v[_0-9]*]] = _mm256_max_epi8([[S2]], [[P1]]);
// AVX2-NEXT:      __m256i [[S4:v[_0-9]*]] = _mm256_permutevar8x32_epi32([[P2]], _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
// AVX2-NEXT:      __m256i [[P4:v[_0-9]*]] = _mm256_max_epi8([[S4]], [[P2]]);
// AVX2-NEXT:      __m256i [[S8:v[_0-9]*]] = _mm256_permute4x64_epi64([[P4]], 0x90);
// AVX2-NEXT:      __m256i [[P8:v[_0-9]*]] = _mm256_max_epi8([[S8]], [[P4]]);
// AVX2-NEXT:      __m256i [[S16:v[_0-9]*]] = _mm256_permute4x64_epi64([[P8]], 0x44);
// AVX2-NEXT:      __m256i [[P16:v[_0-9]*]] = _mm256_max_epi8([[S16]], [[P8]]);
// AVX2-NEXT:      __m256i [[T:v[_0-9]*]] = _mm256_max_epi8(acc_v, [[P16]]);
// AVX2-NEXT:      _mm256_storeu_si256((__m256i *)&out[i], [[T]]);
// AVX2-NEXT:      _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8([[P16]], _mm256_set1_epi8(15)), _mm256_set1_epi32(7));
// AVX2:         (int8_t)_mm256_cvtsi256_si32(acc_v);
// AVX2-LABEL: void umin_i8(
// AVX2:           _mm256_min_epu8(
// AVX2-LABEL: void min_i16(
// AVX2:           (_mm256_alignr_epi8(({{.*}}), _mm256_permute2x128_si256(({{.*}}), ({{.*}}), 0x03), 14));
// AVX2-NEXT:      _mm256_min_epi16(
// AVX2-NEXT:      _mm256_permutevar8x32_epi32({{.*}}, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
// AVX2:           _mm256_permutevar8x32_epi32(_mm256_shufflehi_epi16({{.*}}, 0xFF), _mm256_set1_epi32(7));
// AVX2-LABEL: void umax_i16(
// AVX2-NOT:       _mm256_xor_si256
// AVX2:           _mm256_max_epu16(

// AVX-512 (BW): no lane-duplicating slides; valignd for whole dwords, valignd by a 128-bit
// lane + vpalignr below; the top word by vpermw.
// AVX512-LABEL: void max_i8(
// AVX512:         __m512i [[LOW:v[_0-9]*]] = _mm512_set1_epi8((char)(-128));
// AVX512:           __m512i [[X:v[_0-9]*]] = _mm512_loadu_si512(&x[i]);
// AVX512-NEXT:      __m512i [[S1:v[_0-9]*]] = _mm512_alignr_epi8([[X]], _mm512_alignr_epi32([[X]], [[LOW]], 12), 15);
// AVX512-NEXT:      __m512i [[P1:v[_0-9]*]] = _mm512_max_epi8([[S1]], [[X]]);
// AVX512-NEXT:      __m512i [[S2:v[_0-9]*]] = _mm512_alignr_epi8([[P1]], _mm512_alignr_epi32([[P1]], [[LOW]], 12), 14);
// AVX512-NEXT:      __m512i [[P2:v[_0-9]*]] = _mm512_max_epi8([[S2]], [[P1]]);
// AVX512-NEXT:      __m512i [[S4:v[_0-9]*]] = _mm512_alignr_epi32([[P2]], [[LOW]], 15);
// AVX512-NEXT:      __m512i [[P4:v[_0-9]*]] = _mm512_max_epi8([[S4]], [[P2]]);
// AVX512-NEXT:      _mm512_alignr_epi32([[P4]], [[LOW]], 14);
// AVX512-NEXT:      _mm512_max_epi8(
// AVX512-NEXT:      _mm512_alignr_epi32({{.*}}, [[LOW]], 12);
// AVX512-NEXT:      _mm512_max_epi8(
// AVX512-NEXT:      _mm512_alignr_epi32({{.*}}, [[LOW]], 8);
// AVX512-NEXT:      __m512i [[P32:v[_0-9]*]] = _mm512_max_epi8(
// AVX512-NEXT:      _mm512_max_epi8(acc_v, [[P32]]);
// AVX512-NEXT:      _mm512_storeu_si512(
// AVX512-NEXT:      _mm512_permutexvar_epi32(_mm512_set1_epi32(15), _mm512_shuffle_epi8([[P32]], _mm512_set1_epi8(15)));
// AVX512:         (int8_t)_mm512_cvtsi512_si32(acc_v);
// AVX512-LABEL: void umax_i16(
// AVX512:           _mm512_alignr_epi8({{.*}}, _mm512_alignr_epi32({{.*}}, {{.*}}, 12), 14);
// AVX512-NEXT:      _mm512_max_epu16(
// AVX512:           _mm512_permutexvar_epi16(_mm512_set1_epi16(31), {{.*}});
// AVX512:         (int16_t)_mm512_cvtsi512_si32(acc_v);

// On NEON vext slides the neutral in at every width; the last lane by vdup lane.
// NEON-LABEL: void umin_i8(
// NEON:         int8x16_t [[ONES:v[_0-9]*]] = vdupq_n_s8((-1));
// NEON:           int8x16_t [[X:v[_0-9]*]] = vld1q_s8(&x[i]);
// NEON-NEXT:      int8x16_t [[S1:v[_0-9]*]] = vextq_s8([[ONES]], [[X]], 15);
// NEON-NEXT:      vminq_u8(vreinterpretq_u8_s8([[S1]]), vreinterpretq_u8_s8([[X]]))
// NEON-NEXT:      vextq_s8([[ONES]], {{.*}}, 14);
// NEON-NEXT:      vminq_u8(
// NEON-NEXT:      vextq_s8([[ONES]], {{.*}}, 12);
// NEON-NEXT:      vminq_u8(
// NEON-NEXT:      vextq_s8([[ONES]], {{.*}}, 8);
// NEON-NEXT:      int8x16_t [[P:v[_0-9]*]] = vreinterpretq_s8_u8(vminq_u8(
// NEON:           vdupq_laneq_s8([[P]], 15);
// NEON:         vgetq_lane_s8(acc_v, 0);
// NEON-LABEL: void umax_i16(
// NEON:           vextq_s16({{.*}}, {{.*}}, 7);
// NEON-NEXT:      vmaxq_u16(
// NEON:           vdupq_laneq_s16({{.*}}, 7);

// The scalar target keeps the sequential loop.
// SCALAR-LABEL: void max_i8(
// SCALAR:         int8_t acc = (-7);
// SCALAR-NEXT:    for (int64_t i = 0; i < n_i; i++) {

func.func @max_i8(%x: !df.array<i8, [i]>) -> !df.array<i8, [i]> {
  %z = arith.constant -7 : i8
  %p = df.scan max(%x, %z) : !df.array<i8, [i]> -> !df.array<i8, [i]>
  func.return %p : !df.array<i8, [i]>
}

func.func @umin_i8(%x: !df.array<i8, [i]>) -> !df.array<i8, [i]> {
  %z = arith.constant -1 : i8
  %p = df.scan umin(%x, %z) : !df.array<i8, [i]> -> !df.array<i8, [i]>
  func.return %p : !df.array<i8, [i]>
}

func.func @min_i16(%x: !df.array<i16, [i]>) -> !df.array<i16, [i]> {
  %z = arith.constant 300 : i16
  %p = df.scan min(%x, %z) : !df.array<i16, [i]> -> !df.array<i16, [i]>
  func.return %p : !df.array<i16, [i]>
}

func.func @umax_i16(%x: !df.array<i16, [i]>) -> !df.array<i16, [i]> {
  %z = arith.constant 9 : i16
  %p = df.scan umax(%x, %z) : !df.array<i16, [i]> -> !df.array<i16, [i]>
  func.return %p : !df.array<i16, [i]>
}
