// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize{remarks=true},convert-loop-to-simd{target=avx2 interleave=1},canonicalize,cse' 2>&1 | filecheck %s --check-prefix=SIMD
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// Unsigned running max / min (df.scan umax / umin) vectorize like the signed ones: the
// log-step prefix with the kind's neutral element sliding in (0 for umax, all-ones for umin),
// stepped by arith.maxui / minui on vectors (the printer's maxu / minu rows: native on
// AVX2 / AVX-512 / NEON, SSE2's sign-flip helper for i32, a compare helper for i64), the
// carried last lane, a scalar tail in the unsigned order. No VEC_REJECT_SCAN remark.
func.func @cumumax_i32(%x: !df.array<i32, [i]>, %init: i32) -> !df.array<i32, [i]> {
  %p = df.scan umax(%x, %init) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}
func.func @cumumin_i64(%x: !df.array<i64, [i]>, %init: i64) -> !df.array<i64, [i]> {
  %p = df.scan umin(%x, %init) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

// SIMD-NOT:     remark
// SIMD-LABEL: func.func @cumumax_i32
// SIMD:         %[[Z:.*]] = arith.constant 0 : i32
// SIMD-NEXT:    %[[ZV:.*]] = simd.broadcast %[[Z]] : i32 -> vector<8xi32>
// SIMD:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %{{.*}} : vector<8xi32> custom) {
// SIMD-NEXT:      %[[X:.*]] = simd.load
// SIMD-NEXT:      %[[S1:.*]] = simd.slide_up %[[X]], %[[ZV]] by 1 : vector<8xi32>
// SIMD-NEXT:      %[[P1:.*]] = arith.maxui %[[S1]], %[[X]] : vector<8xi32>
// SIMD-NEXT:      %[[S2:.*]] = simd.slide_up %[[P1]], %[[ZV]] by 2 : vector<8xi32>
// SIMD-NEXT:      %[[P2:.*]] = arith.maxui %[[S2]], %[[P1]] : vector<8xi32>
// SIMD-NEXT:      %[[S4:.*]] = simd.slide_up %[[P2]], %[[ZV]] by 4 : vector<8xi32>
// SIMD-NEXT:      %[[P4:.*]] = arith.maxui %[[S4]], %[[P2]] : vector<8xi32>
// SIMD-NEXT:      %[[T:.*]] = arith.maxui %[[ACC]], %[[P4]] : vector<8xi32>
// SIMD-NEXT:      simd.store %[[T]]
// SIMD-NEXT:      %[[L:.*]] = simd.splat_last %[[P4]] : vector<8xi32>
// SIMD-NEXT:      %[[N:.*]] = arith.maxui %[[ACC]], %[[L]] : vector<8xi32>
// SIMD-NEXT:      loop.yield %[[N]] : vector<8xi32>
// SIMD:         simd.first_lane
// SIMD:         accs(%{{.*}} = %{{.*}} : i32 umax scan) {
// SIMD:           loop.lane_scan <umax>
// SIMD-LABEL: func.func @cumumin_i64
// SIMD:         %[[ONES:.*]] = arith.constant -1 : i64
// SIMD-NEXT:    %[[OV:.*]] = simd.broadcast %[[ONES]] : i64 -> vector<4xi64>
// SIMD:           simd.slide_up %{{.*}}, %[[OV]] by 1 : vector<4xi64>
// SIMD-NEXT:      arith.minui %{{.*}}, %{{.*}} : vector<4xi64>
// SIMD:           simd.slide_up %{{.*}}, %[[OV]] by 2 : vector<4xi64>

// SSE2:         static inline __m128i lo_maxu_i32x4(__m128i a, __m128i b)
// SSE2-NEXT:    {
// SSE2-NEXT:        __m128i gt = _mm_cmpgt_epi32(_mm_xor_si128(a, _mm_set1_epi32(INT32_MIN)), _mm_xor_si128(b, _mm_set1_epi32(INT32_MIN)));
// SSE2:         static inline __m128i lo_minu_i64x2(__m128i a, __m128i b)
// SSE2-LABEL: void cumumax_i32(
// SSE2:         __m128i [[S:v_[0-9]+]] = (_mm_or_si128(_mm_slli_si128(([[X:v_[0-9]+]]), 4), _mm_srli_si128(({{v_[0-9]+}}), 12)));
// SSE2-NEXT:    lo_maxu_i32x4([[S]], [[X]]);
// SSE2:         _mm_shuffle_epi32({{v_[0-9]+}}, 0xFF);
// SSE2-NEXT:    lo_maxu_i32x4(acc_v, {{v_[0-9]+}});
// SSE2:         int32_t {{v_[0-9]+}} = (uint32_t)acc > (uint32_t){{v_[0-9]+}} ? acc : {{v_[0-9]+}};
// SSE2-LABEL: void cumumin_i64(
// SSE2:         lo_minu_i64x2(
// SSE2:         _mm_shuffle_epi32({{v_[0-9]+}}, 0xEE);
// SSE2:         int64_t {{v_[0-9]+}} = (uint64_t)acc < (uint64_t){{v_[0-9]+}} ? acc : {{v_[0-9]+}};

// AVX2-LABEL: void cumumax_i32(
// AVX2:         _mm256_alignr_epi8(
// AVX2:         _mm256_max_epu32(
// AVX2-LABEL: void cumumin_i64(
// AVX2:         _mm256_alignr_epi8(
// AVX2:         lo_minu_i64x4(

// AVX512-LABEL: void cumumax_i32(
// AVX512:       _mm512_alignr_epi32(
// AVX512:       _mm512_max_epu32(
// AVX512-LABEL: void cumumin_i64(
// AVX512:       __m512i [[O:v_[0-9]+]] = _mm512_set1_epi64((-1));
// AVX512:       __m512i [[S:v_[0-9]+]] = (_mm512_alignr_epi64(({{v_[0-9]+}}), ([[O]]), 7));
// AVX512-NEXT:  _mm512_min_epu64([[S]], {{v_[0-9]+}});
// AVX512:       _mm512_permutexvar_epi64(_mm512_set1_epi64(7),

// NEON-LABEL: void cumumax_i32(
// NEON:         vextq_s32(
// NEON:         vreinterpretq_s32_u32(vmaxq_u32(
// NEON-LABEL: void cumumin_i64(
// NEON:         vextq_s64(
// NEON:         lo_minu_i64x2(

// SCALAR-LABEL: void cumumax_i32(
// SCALAR-NOT:   alignr
// SCALAR:         int32_t {{v.*}} = (uint32_t)acc > (uint32_t)v ? acc : v;
// SCALAR-LABEL: void cumumin_i64(
// SCALAR:         int64_t {{v.*}} = (uint64_t)acc < (uint64_t)v ? acc : v;
