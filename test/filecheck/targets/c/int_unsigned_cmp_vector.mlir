// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' -t c | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2}' | filecheck %s --check-prefix=SIMD

// A filter on `cmpi ult` vectorizes: simd.cmp takes the unsigned predicates on integer lanes
// (it used to fail verification, "predicate ult compares floats"), and AVX2 compares unsigned
// by flipping the sign bits of both sides before the signed compare.
func.func @below(%x: !df.array<i32, [i]>) -> !df.array<i32, [j]> {
  %r = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [j]> {
  ^bb0(%a: i32):
    %c = arith.constant 100 : i32
    %p = arith.cmpi ult, %a, %c : i32
    df.yield %p : i1
  }
  func.return %r : !df.array<i32, [j]>
}

// SIMD:     simd.cmp <ult> %{{.*}}, %{{.*}} : vector<8xi32> -> vector<8xi1>
// AVX2-LABEL: int64_t below(
// AVX2:     _mm256_cmpgt_epi32(_mm256_xor_si256({{.*}}, _mm256_set1_epi32(INT32_MIN)), _mm256_xor_si256({{.*}}, _mm256_set1_epi32(INT32_MIN)));
