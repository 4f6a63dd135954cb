// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON

// Vector integer division (targets/c_intvec.py). By a constant i32: multiply-high with the
// Granlund-Montgomery magic numbers (7 unsigned: m = 613566757, s1 = 1, s2 = 2; -10 signed:
// m = 3435973837 (M - 2^32), s = 3, negated); the high half of the 32x32 product comes from
// _mm*_mul_epu32 on even and odd lanes (x86) or vmull_u32 (NEON). By a variable: lane by lane
// through the non-trapping scalar helper. Unsigned min: native where the ISA has it.

func.func @divu7(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %d = arith.constant 7 : i32
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %r = arith.divui %e, %d : i32
    df.yield %r : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// AVX2-LABEL: static inline __m256i lo_mulhi_u32x8(__m256i a, __m256i b)
// AVX2:         __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32);
// AVX2-LABEL: void divu7(
// AVX2:         lo_divu_magic_i32x8({{.*}}, 613566757u, 1, 2);
// SSE2-LABEL: void divu7(
// SSE2:         lo_divu_magic_i32x4({{.*}}, 613566757u, 1, 2);
// AVX512-LABEL: void divu7(
// AVX512:       lo_divu_magic_i32x16({{.*}}, 613566757u, 1, 2);
// NEON-LABEL: static inline uint32x4_t lo_mulhi_u32x4(uint32x4_t a, uint32x4_t b)
// NEON:         uint64x2_t hi = vmull_high_u32(a, b);
// NEON-LABEL: void divu7(
// NEON:         lo_divu_magic_i32x4({{.*}}, 613566757u, 1, 2);

func.func @rem_minus10(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %d = arith.constant -10 : i32
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %r = arith.remsi %e, %d : i32
    df.yield %r : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// AVX2-LABEL: void rem_minus10(
// AVX2:         lo_rem_magic_i32x8({{.*}}, (-10), 3435973837u, 3);
// SSE2-LABEL: void rem_minus10(
// SSE2:         lo_rem_magic_i32x4({{.*}}, (-10), 3435973837u, 3);

func.func @div_var_i64(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %q = df.map %x, %y : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%a: i64, %b: i64):
    %r = arith.divsi %a, %b : i64
    %m = arith.minui %r, %b : i64
    df.yield %m : i64
  }
  func.return %q : !df.array<i64, [i]>
}

// AVX2-LABEL: void div_var_i64(
// AVX2:         lo_div_i64x4(
// AVX2:         lo_minu_i64x4(
// AVX512-LABEL: void div_var_i64(
// AVX512:       lo_div_i64x8(
// AVX512:       _mm512_min_epu64(
// NEON-LABEL: void div_var_i64(
// NEON:         lo_div_i64x2(
// NEON:         lo_minu_i64x2(

// A shift by a constant uses the x86 immediate form (SSE2 has no per-lane variable shift),
// whatever the amount: 40 gives the sign fill, -1 (4294967295 unsigned) is clamped to 255 and
// gives 0; no splat of the amount is printed.
func.func @shift_const(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %k = arith.constant 3 : i32
  %big = arith.constant 40 : i32
  %neg = arith.constant -1 : i32
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %a = arith.shli %e, %k : i32
    %b = arith.shrsi %e, %big : i32
    %c = arith.shrui %e, %neg : i32
    %d = arith.xori %a, %b : i32
    %f = arith.xori %d, %c : i32
    df.yield %f : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// SSE2-LABEL: void shift_const(
// SSE2-NOT:     _mm_set1_epi32(40)
// SSE2:         _mm_slli_epi32({{.*}}, 3);
// SSE2-NEXT:    _mm_srai_epi32({{.*}}, 40);
// SSE2-NEXT:    _mm_srli_epi32({{.*}}, 255);
