// RUN: loop-opt %s -p 'convert-df-to-loop,df-fuse,loop-fuse,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,df-fuse,loop-fuse,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-df-to-loop,df-fuse,loop-fuse,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,df-fuse,loop-fuse,loop-vectorize,convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON

// A scan of 32-bit lanes fused with 64-bit ones runs at the 64-bit lane count W: its vectors
// are part vectors (W lanes in the low half of a register, targets/c_part.py). The carry into
// the next block is lane W - 1 on every lane, not the register's top lane (upper half: zeros
// or garbage; loop-fuzz found AVX-512 carrying lane 15: `[8] want 4.0 got 2.0`).
func.func @runmax_f32(%x: !df.array<f32, [i]>, %y: !df.array<i64, [i]>) -> (!df.array<f32, [i]>, !df.array<i64, [i]>) {
  %z = arith.constant 2.0 : f32
  %p = df.scan max(%x, %z) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  %w = df.map %y : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %d = arith.addi %e, %e : i64
    df.yield %d : i64
  }
  func.return %p, %w : !df.array<f32, [i]>, !df.array<i64, [i]>
}
func.func @cumsum_i32(%x: !df.array<i32, [i]>, %y: !df.array<f64, [i]>) -> (!df.array<i32, [i]>, !df.array<f64, [i]>) {
  %z = arith.constant 0 : i32
  %p = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  %w = df.map %y : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %d = arith.addf %e, %e : f64
    df.yield %d : f64
  }
  func.return %p, %w : !df.array<i32, [i]>, !df.array<f64, [i]>
}

// SSE2-LABEL: void runmax_f32(
// SSE2:         _mm_storel_epi64((__m128i *)&out0[i], _mm_castps_si128([[T:v_[0-9]+]]));
// SSE2:         _mm_shuffle_ps([[T]], [[T]], 0x55);
// SSE2-LABEL: void cumsum_i32(
// SSE2:         _mm_storel_epi64((__m128i *)&out0[i], {{v_[0-9]+}});
// SSE2:         _mm_shuffle_epi32({{v_[0-9]+}}, 0x55);

// AVX2-LABEL: void runmax_f32(
// AVX2:         _mm_storeu_ps(&out0[i], _mm256_castps256_ps128([[T:v_[0-9]+]]));
// AVX2:         _mm256_permutevar8x32_ps([[T]], _mm256_set1_epi32(3));
// AVX2-NOT:     _mm256_set1_epi32(7)
// AVX2-LABEL: void cumsum_i32(
// AVX2:         _mm256_permutevar8x32_epi32({{v_[0-9]+}}, _mm256_set1_epi32(3));

// AVX512-LABEL: void runmax_f32(
// AVX512:         _mm256_storeu_ps(&out0[i], _mm512_castps512_ps256({{v_[0-9]+}}));
// AVX512:         _mm512_permutexvar_ps(_mm512_set1_epi32(7), {{v_[0-9]+}});
// AVX512-NOT:     _mm512_set1_epi32(15)
// AVX512-LABEL: void cumsum_i32(
// AVX512:         _mm512_permutexvar_epi32(_mm512_set1_epi32(7), {{v_[0-9]+}});
// AVX512-NOT:     _mm512_set1_epi32(15)

// NEON-LABEL: void runmax_f32(
// NEON:         vst1_f32(&out0[i], vget_low_f32({{v_[0-9]+}}));
// NEON:         vdupq_laneq_f32({{v_[0-9]+}}, 1);
// NEON-LABEL: void cumsum_i32(
// NEON:         vdupq_laneq_s32({{v_[0-9]+}}, 1);
