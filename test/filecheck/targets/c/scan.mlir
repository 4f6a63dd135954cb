// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1 cpu=zen3}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// SSE2 with cpu=zen3, a CPU without Costs.scalar_scans data: the vector SSE2 i64 min/max scan
// printed here (cpu=generic and zen4 keep it scalar, slower: cpu/scalar_scans.mlir).

// The C of a vectorized scan on each ISA: log2(W) lane slides with the neutral element
// (0.0f, INT64_MIN) filling the low lanes, the carry added, the last lane broadcast, lane 0
// handed to the scalar tail. A max scan on SSE2/AVX2 slides by lane duplication instead
// (pshufd / vpermq: max is idempotent, no neutral needed); on SSE2, whose i64 max is a
// helper of several instructions, the carry is the running value's last lane.
func.func @cumsum_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %z = arith.constant 0.0 : f32
  %p = df.scan add(%x, %z) reassoc : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return %p : !df.array<f32, [i]>
}
func.func @cummax_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant -9223372036854775808 : i64
  %p = df.scan max(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

// SSE2-LABEL: void cumsum_f32(
// SSE2:         __m128 [[S1:v_[0-9]+]] = _mm_castsi128_ps(_mm_or_si128(_mm_slli_si128(_mm_castps_si128([[X:v_[0-9]+]]), 4), _mm_srli_si128(_mm_castps_si128([[Z:v_[0-9]+]]), 12)));
// SSE2:         _mm_castsi128_ps(_mm_or_si128(_mm_slli_si128(_mm_castps_si128({{v_[0-9]+}}), 8), _mm_srli_si128(_mm_castps_si128([[Z]]), 8)));
// SSE2:         __m128 [[T:v_[0-9]+]] = _mm_add_ps(acc_v, {{v_[0-9]+}});
// SSE2:         _mm_storeu_ps(&out[i], [[T]]);
// SSE2-NEXT:    __m128 [[L:v_[0-9]+]] = _mm_shuffle_ps([[P:v_[0-9]+]], [[P]], 0xFF);
// SSE2-NEXT:    acc_v = _mm_add_ps(acc_v, [[L]]);
// SSE2:         float {{v_[0-9]+}} = _mm_cvtss_f32(acc_v);
// SSE2-LABEL: void cummax_i64(
// SSE2-NOT:     _mm_slli_si128
// SSE2:         __m128i [[S:v_[0-9]+]] = _mm_shuffle_epi32([[X:v_[0-9]+]], 0x44);
// SSE2-NEXT:    __m128i [[P:v_[0-9]+]] = lo_max_i64x2([[S]], [[X]]);
// SSE2-NEXT:    __m128i [[T:v_[0-9]+]] = lo_max_i64x2(acc_v, [[P]]);
// SSE2-NEXT:    _mm_storeu_si128((__m128i *)&out[i], [[T]]);
// SSE2-NEXT:    _mm_shuffle_epi32([[T]], 0xEE);
// SSE2:         int64_t {{v_[0-9]+}} = _mm_cvtsi128_si64(acc_v);

// AVX2-LABEL: void cumsum_f32(
// AVX2:         _mm256_alignr_epi8(_mm256_castps_si256([[X:v_[0-9]+]]), _mm256_permute2x128_si256(_mm256_castps_si256([[X]]), _mm256_castps_si256([[Z:v_[0-9]+]]), 0x03), 12)
// AVX2:         _mm256_alignr_epi8(_mm256_castps_si256({{v_[0-9]+}}), _mm256_permute2x128_si256({{.*}}, _mm256_castps_si256([[Z]]), 0x03), 8)
// AVX2:         _mm256_castsi256_ps(_mm256_permute2x128_si256(_mm256_castps_si256({{v_[0-9]+}}), _mm256_castps_si256([[Z]]), 0x03));
// AVX2:         __m256 [[T:v_[0-9]+]] = _mm256_add_ps(acc_v, {{v_[0-9]+}});
// AVX2:         _mm256_permutevar8x32_ps({{v_[0-9]+}}, _mm256_set1_epi32(7));
// AVX2:         float {{v_[0-9]+}} = _mm256_cvtss_f32(acc_v);
// AVX2-LABEL: void cummax_i64(
// AVX2-NOT:     _mm256_alignr_epi8
// AVX2:         _mm256_permute4x64_epi64({{v_[0-9]+}}, 0x90);
// AVX2:         _mm256_permute4x64_epi64({{v_[0-9]+}}, 0x44);
// AVX2:         __m256i [[L:v_[0-9]+]] = _mm256_permute4x64_epi64({{v_[0-9]+}}, 0xFF);
// AVX2-NEXT:    _mm256_blendv_epi8(acc_v, [[L]], _mm256_cmpgt_epi64([[L]], acc_v));
// AVX2:         int64_t {{v_[0-9]+}} = _mm_cvtsi128_si64(_mm256_castsi256_si128(acc_v));

// AVX512-LABEL: void cumsum_f32(
// AVX512:         _mm512_alignr_epi32(_mm512_castps_si512({{v_[0-9]+}}), _mm512_castps_si512([[Z:v_[0-9]+]]), 15)
// AVX512:         _mm512_alignr_epi32(_mm512_castps_si512({{v_[0-9]+}}), _mm512_castps_si512([[Z]]), 14)
// AVX512:         _mm512_alignr_epi32(_mm512_castps_si512({{v_[0-9]+}}), _mm512_castps_si512([[Z]]), 12)
// AVX512:         _mm512_alignr_epi32(_mm512_castps_si512({{v_[0-9]+}}), _mm512_castps_si512([[Z]]), 8)
// AVX512:         __m512 [[T:v_[0-9]+]] = _mm512_add_ps(acc_v, {{v_[0-9]+}});
// AVX512:         _mm512_permutexvar_ps(_mm512_set1_epi32(15), {{v_[0-9]+}});
// AVX512:         float {{v_[0-9]+}} = _mm512_cvtss_f32(acc_v);
// AVX512-LABEL: void cummax_i64(
// AVX512:         _mm512_alignr_epi64(({{v(_[0-9]+)?}}), ({{v(_[0-9]+)?}}), 7)
// AVX512:         _mm512_alignr_epi64(({{v(_[0-9]+)?}}), ({{v(_[0-9]+)?}}), 4)
// AVX512:         _mm512_permutexvar_epi64(_mm512_set1_epi64(7), {{v_[0-9]+}});
// AVX512:         int64_t {{v_[0-9]+}} = _mm_cvtsi128_si64(_mm512_castsi512_si128(acc_v));

// NEON-LABEL: void cumsum_f32(
// NEON:         vextq_f32([[Z:v_[0-9]+]], {{v_[0-9]+}}, 3);
// NEON:         vextq_f32([[Z]], {{v_[0-9]+}}, 2);
// NEON:         float32x4_t [[T:v_[0-9]+]] = vaddq_f32(acc_v, {{v_[0-9]+}});
// NEON:         vdupq_laneq_f32({{v_[0-9]+}}, 3);
// NEON:         float {{v_[0-9]+}} = vgetq_lane_f32(acc_v, 0);
// NEON-LABEL: void cummax_i64(
// NEON:         vextq_s64({{v(_[0-9]+)?}}, {{v(_[0-9]+)?}}, 1);
// NEON:         vdupq_laneq_s64({{v(_[0-9]+)?}}, 1);
// NEON:         int64_t {{v_[0-9]+}} = vgetq_lane_s64(acc_v, 0);

// One lane: the sequential loop, lane_scan printing as its operand.
// SCALAR-LABEL: void cumsum_f32(
// SCALAR:         float acc = 0.0f;
// SCALAR:           float [[T:v_[0-9]+]] = acc + {{v(_[0-9]+)?}};
// SCALAR-NEXT:      out[i] = [[T]];
// SCALAR-NEXT:      acc = [[T]];
