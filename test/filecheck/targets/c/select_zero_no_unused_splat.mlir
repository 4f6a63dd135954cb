// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2

// A select against +0 prints as an AND with the mask: the zero splat it no longer reads is not
// printed (it was an unused variable, an error under -Werror=unused-variable).
func.func @k_inc_lt(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %r = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32):
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %p = arith.addi %a, %one : i32
    %c = arith.cmpi slt, %p, %a : i32
    %s = arith.select %c, %one, %zero : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}

// AVX2-LABEL: void k_inc_lt(
// AVX2-NOT:   _mm256_set1_epi32(0);
// AVX2:       _mm256_and_si256(
// AVX2-NOT:   _mm256_set1_epi32(0);

// SSE2-LABEL: void k_inc_lt(
// SSE2-NOT:   _mm_set1_epi32(0);
// SSE2:       _mm_and_si128(
// SSE2-NOT:   _mm_set1_epi32(0);
