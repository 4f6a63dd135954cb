// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true},convert-loop-to-simd{target=avx2 interleave=1 remarks=true},canonicalize,cse' 2>&1 | filecheck %s --check-prefix=SIMD
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon interleave=1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SCALAR

// An i8/i16 reduction in a loop of wider lanes (loop_to_simd/narrow_acc.py) is carried in the
// loop's integer width: init extended before the loop, each value extended (extsi; extui for
// umin/umax) into a vector of the loop's W wide lanes, the result truncated after it. Same
// bits: wrapping add/mul/and/or keep their low bits, min/max compare the extended values in
// the narrow order. A vecloop of f32 lanes (i8 max), of i16 lanes (i8 umin: i16 accumulator),
// and a predloop of f32 lanes (filter -> i16 sum). No SIMD_FALLBACK_SCALAR remark.

func.func @max_i8_next_to_f32(%x: !df.array<i8, [i]>, %y: !df.array<f32, [i]>) -> i8 {
  %z = arith.constant -128 : i8
  %zf = arith.constant 0.0 : f32
  %v = df.map %x, %y : !df.array<i8, [i]>, !df.array<f32, [i]> -> !df.array<i8, [i]> {
  ^bb0(%e: i8, %f: f32):
    %p = arith.cmpf ogt, %f, %zf : f32
    %s = arith.select %p, %e, %z : i8
    df.yield %s : i8
  }
  %m = df.reduce max(%v, %z) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}
func.func @umin_i8_next_to_i16(%x: !df.array<i8, [i]>, %y: !df.array<i16, [i]>) -> i8 {
  %z = arith.constant -1 : i8
  %zy = arith.constant 0 : i16
  %v = df.map %x, %y : !df.array<i8, [i]>, !df.array<i16, [i]> -> !df.array<i8, [i]> {
  ^bb0(%e: i8, %f: i16):
    %p = arith.cmpi sgt, %f, %zy : i16
    %s = arith.select %p, %e, %z : i8
    df.yield %s : i8
  }
  %m = df.reduce umin(%v, %z) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}
func.func @sum_kept_i16(%x: !df.array<i16, [i]>, %b: f32) -> i16 {
  %z = arith.constant 0 : i16
  %k = df.filter %x : !df.array<i16, [i]> -> !df.array<i16, [j]> {
  ^bb0(%e: i16):
    %f = arith.sitofp %e : i16 to f32
    %h = arith.mulf %f, %f : f32
    %c = arith.cmpf ogt, %h, %b : f32
    df.yield %c : i1
  }
  %m = df.reduce add(%k, %z) over [j] : !df.array<i16, [j]> -> i16
  func.return %m : i16
}

// SIMD-NOT:     remark:
// SIMD-LABEL: func.func @max_i8_next_to_f32
// SIMD:         %[[Z:.*]] = arith.constant -128 : i8
// SIMD:         %[[ZW:.*]] = arith.extsi %[[Z]] : i8 to i32
// SIMD:         loop.for %{{.*}} accs(%[[ACC:.*]] = %{{.*}} : vector<8xi32> max) {
// SIMD:           %[[S:.*]] = simd.select %{{.*}} : vector<8xi1>, vector<8xi8>
// SIMD-NEXT:      %[[SW:.*]] = simd.convert %[[S]] : vector<8xi8> -> vector<8xi32>
// SIMD-NEXT:      %[[T:.*]] = simd.max %[[ACC]], %[[SW]] : vector<8xi32>
// SIMD-NEXT:      loop.yield %[[T]] : vector<8xi32>
// SIMD:         simd.hreduce <max> %{{.*}} : vector<8xi32> -> i32
// SIMD:         %[[M:.*]] = loop.for %{{.*}} accs(%{{.*}} = %{{.*}} : i32 max) {
// SIMD:           arith.extsi %{{.*}} : i8 to i32
// SIMD:         %[[R:.*]] = arith.trunci %[[M]] : i32 to i8
// SIMD-NEXT:    func.return %[[R]] : i8
// SIMD-LABEL: func.func @umin_i8_next_to_i16
// SIMD:         arith.extui %{{.*}} : i8 to i16
// SIMD:         loop.for %{{.*}} accs(%[[ACC:.*]] = %{{.*}} : vector<16xi16> custom) {
// SIMD:           %[[SW:.*]] = simd.convert %{{.*}} : vector<16xi8> -> vector<16xi16>
// SIMD-NEXT:      %[[Z:.*]] = arith.andi %[[SW]], %{{.*}} : vector<16xi16>
// SIMD-NEXT:      arith.minui %[[ACC]], %[[Z]] : vector<16xi16>
// SIMD:         simd.hreduce <umin> %{{.*}} : vector<16xi16> -> i16
// SIMD:         arith.trunci %{{.*}} : i16 to i8
// SIMD-LABEL: func.func @sum_kept_i16
// SIMD:         loop.for %{{.*}} accs(%[[ACC:.*]] = %{{.*}} : vector<8xi32> add) attributes {loop.mask_form = #loop.mask_form<select_blend>} {
// SIMD:           %[[XW:.*]] = simd.convert %{{.*}} : vector<8xi16> -> vector<8xi32>
// SIMD:           %[[K:.*]] = simd.select %{{.*}}, %[[XW]], %{{.*}} : vector<8xi1>, vector<8xi32>
// SIMD-NEXT:      arith.addi %[[ACC]], %[[K]] : vector<8xi32>
// SIMD:         %[[M:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// SIMD-NEXT:    arith.trunci %[[M]] : i32 to i16

// SSE2-NOT:     remark:
// SSE2-LABEL: int8_t max_i8_next_to_f32(
// SSE2:           __m128i [[W:v_[0-9]+]] = lo_sext_i8x4_i32(
// SSE2-NEXT:      lo_max_i32x4(acc_v, [[W]]);
// SSE2:         int32_t {{v_[0-9]+}} = lo_hreduce_max_i32x4(acc_v);
// SSE2:         int8_t {{v_[0-9]+}} = (int8_t)m;
// SSE2-LABEL: int8_t umin_i8_next_to_i16(
// SSE2:           _mm_min_epi16(_mm_xor_si128(acc_v,
// SSE2:         lo_hreduce_umin_i16x8(acc_v);
// SSE2-LABEL: int16_t sum_kept_i16(
// SSE2:           _mm_add_epi32(acc_v,
// SSE2:         int16_t {{v_[0-9]+}} = (int16_t)m;

// AVX2-NOT:     remark:
// AVX2-LABEL: int8_t max_i8_next_to_f32(
// AVX2:           _mm256_max_epi32(acc_v,
// AVX2:         lo_hreduce_max_i32x8(acc_v);
// AVX2-LABEL: int8_t umin_i8_next_to_i16(
// AVX2:           _mm256_min_epu16(acc_v,
// AVX2-LABEL: int16_t sum_kept_i16(
// AVX2:           _mm256_add_epi32(acc_v,

// AVX512-NOT:   remark:
// AVX512-LABEL: int8_t max_i8_next_to_f32(
// AVX512:         _mm512_max_epi32(acc_v,
// AVX512:       _mm512_reduce_max_epi32(acc_v);
// AVX512-LABEL: int8_t umin_i8_next_to_i16(
// AVX512:         _mm512_min_epu16(acc_v,
// AVX512-LABEL: int16_t sum_kept_i16(
// AVX512:         _mm512_add_epi32(acc_v,

// NEON-NOT:     remark:
// NEON-LABEL: int8_t max_i8_next_to_f32(
// NEON:           vmaxq_s32(acc_v,
// NEON:         vmaxvq_s32(acc_v);
// NEON-LABEL: int8_t umin_i8_next_to_i16(
// NEON:           vminq_u16(vreinterpretq_u16_s16(acc_v),
// NEON-LABEL: int16_t sum_kept_i16(
// NEON:           vaddq_u32(vreinterpretq_u32_s32(acc_v),

// SCALAR-NOT:   remark:
// SCALAR-LABEL: int8_t max_i8_next_to_f32(
// SCALAR-NOT:     int32_t
// SCALAR:         acc = acc > s ? acc : s;
// SCALAR:         m = m > s ? m : s;
