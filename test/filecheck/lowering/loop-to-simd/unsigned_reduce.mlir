// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s --check-prefix=LOOP
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2 interleave=1},canonicalize,cse' | filecheck %s --check-prefix=SIMD
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=scalar interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=SCALAR
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=sse2 interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx512 interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=neon interleave=1},canonicalize,cse' -t c | filecheck %s --check-prefix=NEON

// Unsigned min/max reductions (umin / umax): a loop accumulator of the same kind, vector lanes
// from the neutral element (0 for umax, all-ones for umin) stepped by arith.maxui / minui on
// vectors, `simd.hreduce <umax>`, then the init (dropped when it is the constant 0 of umax).

func.func @umax_u8(%x: !df.array<i8, [i]>) -> i8 {
  %zero = arith.constant 0 : i8
  %m = df.reduce umax(%x, %zero) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}

func.func @umin_i64(%x: !df.array<i64, [i]>, %init: i64) -> i64 {
  %m = df.reduce umin(%x, %init) over [i] : !df.array<i64, [i]> -> i64
  func.return %m : i64
}

// LOOP-LABEL: func.func @umax_u8
// LOOP:         loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%[[A:.*]] = %{{.*}} : i8 umax) {
// LOOP:           %{{.*}} = arith.maxui %[[A]], %{{.*}} : i8
// LOOP-LABEL: func.func @umin_i64
// LOOP:         accs(%[[B:.*]] = %{{.*}} : i64 umin) {
// LOOP:           %{{.*}} = arith.minui %[[B]], %{{.*}} : i64

// SIMD-LABEL: func.func @umax_u8
// the lanes start from the function's own constant 0 (the lowering builds no second one)
// SIMD:         %zero = arith.constant 0 : i8
// SIMD-NOT:     arith.constant 0 : i8
// SIMD:         %[[V0:.*]] = simd.broadcast %zero : i8 -> vector<32xi8>
// SIMD:         arith.maxui %{{.*}}, %{{.*}} : vector<32xi8>
// SIMD:         %[[H:.*]] = simd.hreduce <umax> %{{.*}} : vector<32xi8> -> i8
// SIMD-NEXT:    loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%{{.*}} = %[[H]] : i8 umax) {
// SIMD-LABEL: func.func @umin_i64
// SIMD:         %[[ONES:.*]] = arith.constant -1 : i64
// SIMD-NEXT:    simd.broadcast %[[ONES]] : i64 -> vector<4xi64>
// SIMD:         arith.minui %{{.*}}, %{{.*}} : vector<4xi64>
// SIMD:         %[[H2:.*]] = simd.hreduce <umin> %{{.*}} : vector<4xi64> -> i64
// SIMD-NEXT:    %[[I2:.*]] = arith.minui %{{.*}}, %[[H2]] : i64
// SIMD-NEXT:    loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%{{.*}} = %[[I2]] : i64 umin) {

// SCALAR-LABEL: int8_t umax_u8(
// SCALAR:         m = (uint8_t)m > (uint8_t)v ? m : v;
// SCALAR-LABEL: int64_t umin_i64(
// SCALAR:         m = (uint64_t)m < (uint64_t)v ? m : v;

// SSE2:         static inline int8_t lo_hreduce_umax_i8x16(__m128i v)
// SSE2:           x[k] = (uint8_t)x[k] > (uint8_t)x[k + w] ? x[k] : x[k + w];
// SSE2:         static inline int64_t lo_hreduce_umin_i64x2(__m128i v)
// SSE2:           x[k] = (uint64_t)x[k] < (uint64_t)x[k + w] ? x[k] : x[k + w];
// SSE2-LABEL: int8_t umax_u8(
// SSE2:         _mm_max_epu8(
// SSE2:         lo_hreduce_umax_i8x16(
// SSE2-LABEL: int64_t umin_i64(
// SSE2:         lo_minu_i64x2(
// SSE2:         lo_hreduce_umin_i64x2(

// AVX512-LABEL: int8_t umax_u8(
// AVX512:         _mm512_max_epu8(
// AVX512:         lo_hreduce_umax_i8x64(
// AVX512-LABEL: int64_t umin_i64(
// AVX512:         _mm512_min_epu64(
// AVX512:         (int64_t)_mm512_reduce_min_epu64(

// NEON-LABEL: int8_t umax_u8(
// NEON:         vmaxq_u8(
// NEON:         int8_t {{.*}} = (int8_t)vmaxvq_u8(vreinterpretq_u8_s8(
// NEON-LABEL: int64_t umin_i64(
// NEON:         lo_minu_i64x2(
// NEON:         lo_hreduce_umin_i64x2(
