// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize{remarks=true},convert-loop-to-simd{target=avx2 interleave=1},canonicalize,cse' 2>&1 | filecheck %s --check-prefix=SIMD
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1 cpu=zen3}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=neon interleave=1}' -t c | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=scalar}' -t c | filecheck %s --check-prefix=SCALAR

// SSE2 with cpu=zen3, a CPU without Costs.scalar_scans data: the vector SSE2 i64 min/max scan
// printed here (cpu=generic and zen4 keep it scalar, slower: cpu/scalar_scans.mlir).

// Unsigned running max / min (df.scan umax / umin) vectorize like the signed ones: the
// log-step prefix (on SSE2/AVX2 by simd.slide_up_dup: max/min are idempotent, so the low
// lanes keep their own value instead of a neutral sliding in; AVX-512 / NEON slide the
// neutral in, 0 for umax, all-ones for umin), the carried last lane, a scalar tail in the
// unsigned order. Where the target has no unsigned vector min/max of the width (SSE2 i32,
// AVX2 i64: TargetInfo.flipped_unsigned_minmax) the whole vector loop runs on
// x ^ MIN with the signed simd.min / simd.max (unsigned order = signed order of the flipped
// values): one xor at the load, one at the store, the carry flipped once before the loop and
// back before the tail. Elsewhere arith.maxui / minui on vectors (native on AVX2 i32,
// AVX-512, NEON i32; SSE2's and NEON's i64 compare helpers). No VEC_REJECT_SCAN remark.
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
// SIMD-NOT:     arith.xori
// SIMD:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %{{.*}} : vector<8xi32> custom) {
// SIMD-NEXT:      %[[X:.*]] = simd.load
// SIMD-NEXT:      %[[S1:.*]] = simd.slide_up_dup %[[X]] by 1 : vector<8xi32>
// SIMD-NEXT:      %[[P1:.*]] = arith.maxui %[[S1]], %[[X]] : vector<8xi32>
// SIMD-NEXT:      %[[S2:.*]] = simd.slide_up_dup %[[P1]] by 2 : vector<8xi32>
// SIMD-NEXT:      %[[P2:.*]] = arith.maxui %[[S2]], %[[P1]] : vector<8xi32>
// SIMD-NEXT:      %[[S4:.*]] = simd.slide_up_dup %[[P2]] by 4 : vector<8xi32>
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
// SIMD:         %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// SIMD-NEXT:    %[[SIGN:.*]] = simd.broadcast %[[MIN]] : i64 -> vector<4xi64>
// SIMD-NEXT:    %[[I:.*]] = simd.broadcast %init : i64 -> vector<4xi64>
// SIMD-NEXT:    %[[FI:.*]] = arith.xori %[[I]], %[[SIGN]] : vector<4xi64>
// SIMD:         %[[R:.*]] = loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %[[FI]] : vector<4xi64> min scan) {
// SIMD-NEXT:      %[[X:.*]] = simd.load
// SIMD-NEXT:      %[[FX:.*]] = arith.xori %[[X]], %[[SIGN]] : vector<4xi64>
// SIMD-NEXT:      %[[S1:.*]] = simd.slide_up_dup %[[FX]] by 1 : vector<4xi64>
// SIMD-NEXT:      %[[P1:.*]] = simd.min %[[S1]], %[[FX]] : vector<4xi64>
// SIMD-NEXT:      %[[S2:.*]] = simd.slide_up_dup %[[P1]] by 2 : vector<4xi64>
// SIMD-NEXT:      %[[P2:.*]] = simd.min %[[S2]], %[[P1]] : vector<4xi64>
// SIMD-NEXT:      %[[T:.*]] = simd.min %[[ACC]], %[[P2]] : vector<4xi64>
// SIMD-NEXT:      %[[OUT:.*]] = arith.xori %[[T]], %[[SIGN]] : vector<4xi64>
// SIMD-NEXT:      simd.store %[[OUT]]
// SIMD-NEXT:      %[[L:.*]] = simd.splat_last %[[P2]] : vector<4xi64>
// SIMD-NEXT:      %[[N:.*]] = simd.min %[[ACC]], %[[L]] : vector<4xi64>
// SIMD-NEXT:      loop.yield %[[N]] : vector<4xi64>
// SIMD:         %[[BACK:.*]] = arith.xori %[[R]], %[[SIGN]] : vector<4xi64>
// SIMD-NEXT:    simd.first_lane %[[BACK]] : vector<4xi64> -> i64
// SIMD:         accs(%{{.*}} = %{{.*}} : i64 umin scan) {

// SSE2:         static inline __m128i lo_max_i32x4(__m128i a, __m128i b)
// SSE2-NOT:     lo_maxu_i32x4
// SSE2:         static inline __m128i lo_minu_i64x2(__m128i a, __m128i b)
// SSE2-LABEL: void cumumax_i32(
// SSE2:         __m128i [[SIGN:v(_[0-9]+)?]] = _mm_set1_epi32(INT32_MIN);
// SSE2-NEXT:    __m128i [[I:v_[0-9]+]] = _mm_set1_epi32(init);
// SSE2-NEXT:    __m128i [[FI:v_[0-9]+]] = _mm_xor_si128([[I]], [[SIGN]]);
// SSE2:         __m128i acc_v = [[FI]];
// SSE2:         __m128i [[X:v_[0-9]+]] = _mm_loadu_si128(
// SSE2-NEXT:    __m128i [[FX:v_[0-9]+]] = _mm_xor_si128([[X]], [[SIGN]]);
// SSE2-NEXT:    __m128i [[S1:v_[0-9]+]] = _mm_shuffle_epi32([[FX]], 0x90);
// SSE2-NEXT:    __m128i [[P1:v_[0-9]+]] = lo_max_i32x4([[S1]], [[FX]]);
// SSE2-NEXT:    __m128i [[S2:v_[0-9]+]] = _mm_shuffle_epi32([[P1]], 0x44);
// SSE2-NEXT:    __m128i [[P2:v_[0-9]+]] = lo_max_i32x4([[S2]], [[P1]]);
// SSE2-NEXT:    __m128i [[T:v_[0-9]+]] = lo_max_i32x4(acc_v, [[P2]]);
// SSE2-NEXT:    __m128i [[OUT:v_[0-9]+]] = _mm_xor_si128([[T]], [[SIGN]]);
// SSE2-NEXT:    _mm_storeu_si128((__m128i *)&out[i], [[OUT]]);
// SSE2-NEXT:    acc_v = _mm_shuffle_epi32([[T]], 0xFF);
// SSE2-NEXT:  }
// SSE2-NEXT:  lo_in_register(acc_v);
// SSE2-NEXT:  __m128i [[B:v_[0-9]+]] = _mm_xor_si128(acc_v, [[SIGN]]);
// SSE2-NEXT:  int32_t {{v_[0-9]+}} = _mm_cvtsi128_si32([[B]]);
// SSE2:         int32_t {{v_[0-9]+}} = (uint32_t)acc > (uint32_t){{v_[0-9]+}} ? acc : {{v_[0-9]+}};
// SSE2-LABEL: void cumumin_i64(
// SSE2-NOT:     INT64_MIN
// SSE2:         __m128i [[S:v_[0-9]+]] = _mm_shuffle_epi32([[X:v_[0-9]+]], 0x44);
// SSE2-NEXT:    __m128i [[P:v_[0-9]+]] = lo_minu_i64x2([[S]], [[X]]);
// SSE2:         __m128i [[L:v_[0-9]+]] = _mm_shuffle_epi32([[P]], 0xEE);
// SSE2-NEXT:    lo_minu_i64x2(acc_v, [[L]]);
// SSE2:         int64_t {{v_[0-9]+}} = (uint64_t)acc < (uint64_t){{v_[0-9]+}} ? acc : {{v_[0-9]+}};

// AVX2-LABEL: void cumumax_i32(
// AVX2-NOT:     INT32_MIN
// AVX2:         _mm256_permutevar8x32_epi32({{v_[0-9]+}}, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
// AVX2:         _mm256_max_epu32(
// AVX2:         _mm256_permute4x64_epi64({{v_[0-9]+}}, 0x90);
// AVX2:         _mm256_permute4x64_epi64({{v_[0-9]+}}, 0x44);
// AVX2-LABEL: void cumumin_i64(
// AVX2:         _mm256_set1_epi64x(INT64_MIN);
// AVX2:         _mm256_permute4x64_epi64({{v_[0-9]+}}, 0x90);
// AVX2-NEXT:    _mm256_cmpgt_epi64(
// AVX2-NOT:     lo_minu_i64x4(

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
