// RUN: loop-opt %s -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=neon}' -t c | filecheck %s --check-prefix=NEON

// The filtered sum steps `acc + select(x > 0, x, 0)`; loop-simplify (passes/select_minmax.py)
// makes the select `max(x, 0)` where the target's max is one instruction (vpmaxsd, vpmaxsq,
// smax), as gcc does for `if (x > 0) s += x`. SSE2 i32 and AVX2/NEON i64 have no such
// instruction: there the select stays a compare and an AND (or a bsl).

// AVX512-LABEL: int32_t filter_gt0_sum_i32(
// AVX512:         __m512i v_3 = _mm512_max_epi32(x_1, v);
// AVX512-NEXT:    acc_v = _mm512_add_epi32(acc_v, v_3);
// AVX512-LABEL: int64_t filter_gt0_sum_i64(
// AVX512:         __m512i v_3 = _mm512_max_epi64(x_1, v);
// AVX512-NEXT:    acc_v = _mm512_add_epi64(acc_v, v_3);

// AVX2-LABEL: int32_t filter_gt0_sum_i32(
// AVX2:         __m256i v_3 = _mm256_max_epi32(x_1, v);
// AVX2-NEXT:    acc_v = _mm256_add_epi32(acc_v, v_3);
// AVX2-LABEL: int64_t filter_gt0_sum_i64(
// AVX2:         __m256i mask = _mm256_cmpgt_epi64(x_1, v);
// AVX2-NEXT:    __m256i v_3 = _mm256_and_si256(mask, x_1);

// SSE2-LABEL: int32_t filter_gt0_sum_i32(
// SSE2-NOT:     lo_max_i32x4
// SSE2:         __m128i mask = _mm_cmpgt_epi32(x_1, v);
// SSE2-NEXT:    __m128i v_3 = _mm_and_si128(mask, x_1);

// NEON-LABEL: int32_t filter_gt0_sum_i32(
// NEON:         int32x4_t v_3 = vmaxq_s32(x_1, v);
// NEON-LABEL: int64_t filter_gt0_sum_i64(
// NEON:         uint64x2_t mask = vcgtq_s64(x_1, v);
// NEON-NEXT:    int64x2_t v_3 = vbslq_s64(mask, x_1, v);

func.func @filter_gt0_sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] : !df.array<i32, [k]> -> i32
  func.return %s : i32
}

func.func @filter_gt0_sum_i64(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %p = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %zero : i64
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] : !df.array<i64, [k]> -> i64
  func.return %s : i64
}
