// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 cpu=zen4 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen4 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=AVX512
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2 cpu=generic remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %s -p 'loop-pipeline{target=neon cpu=neoverse-n1 remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=NEON
// RUN: loop-opt %s -p 'loop-pipeline{target=scalar remarks=true}' -t c 2>&1 | filecheck %s --check-prefix=SCALAR

// A scan whose combine has no instruction on the target runs slower as the log-step vector
// prefix than as the scalar loop on Zen 4 (Costs.scalar_scans; 1 Mi elements: sse2 max i64
// 3097 vs 853 µs even with the lane-duplicating slides and the serial carry, umax i64 3472
// vs 592 before them). Those stay scalar with a located SIMD_FALLBACK_SCALAR remark. Since
// session 23 the unsigned scans without an unsigned instruction run on x ^ MIN with the
// signed one (loop_to_simd/scan.py) and vectorize: sse2 umax i32 380 vs 570, avx2 umin i64
// 538 vs 639 (both were kept scalar); so do sse2 min i32 (compare and blend), avx2's native
// unsigned i32 and compare-based max i64, every AVX-512 scan.
// generic keeps the SSE2 i64 ones scalar too (session 24: slower on every CPU measured, no
// 64-bit compare instruction: SSE2_I64_MINMAX_SCANS) and vectorizes the rest. NEON and scalar
// are unchanged.

func.func @cumumax_i32(%x: !df.array<i32, [i]>, %init: i32) -> !df.array<i32, [i]> {
  %p = df.scan umax(%x, %init) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}
func.func @cummax_i64(%x: !df.array<i64, [i]>, %init: i64) -> !df.array<i64, [i]> {
  %p = df.scan max(%x, %init) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}
func.func @cumumin_i64(%x: !df.array<i64, [i]>, %init: i64) -> !df.array<i64, [i]> {
  %p = df.scan umin(%x, %init) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}
func.func @cummin_i32(%x: !df.array<i32, [i]>, %init: i32) -> !df.array<i32, [i]> {
  %p = df.scan min(%x, %init) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}

// SSE2-NOT:     scalar_scans.mlir:{{21|33|122}}:3: remark:
// SSE2-DAG:     scalar_scans.mlir:25:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: a max scan of i64 costs more than the scalar loop on zen4 with sse2 (no vector max instruction for i64: Costs.scalar_scans)
// SSE2-DAG:     scalar_scans.mlir:29:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: a umin scan of i64 costs more than the scalar loop on zen4 with sse2 (no vector umin instruction for i64: Costs.scalar_scans)
// SSE2-NOT:     scalar_scans.mlir:{{21|33|122}}:3: remark:
// SSE2-NOT:     lo_maxu_i32x4
// SSE2-NOT:     lo_max_i64x2
// SSE2-NOT:     lo_minu_i64x2
// SSE2-LABEL: void cumumax_i32(
// SSE2:           _mm_shuffle_epi32({{v_[0-9]+}}, 0x90);
// SSE2-NEXT:      lo_max_i32x4(
// SSE2:           int32_t {{v.*}} = (uint32_t)acc > (uint32_t){{v.*}} ? acc : {{v.*}};
// SSE2-LABEL: void cummax_i64(
// SSE2-NOT:     __m128i
// SSE2:           int64_t {{v.*}} = acc > {{v.*}} ? acc : {{v.*}};
// SSE2-LABEL: void cumumin_i64(
// SSE2-NOT:     __m128i
// SSE2:           int64_t {{v.*}} = (uint64_t)acc < (uint64_t){{v.*}} ? acc : {{v.*}};
// SSE2-LABEL: void cummin_i32(
// SSE2:           lo_min_i32x4(

// AVX2-NOT:     remark:
// AVX2-LABEL: void cumumax_i32(
// AVX2:           _mm256_max_epu32(
// AVX2-LABEL: void cummax_i64(
// AVX2:           _mm256_cmpgt_epi64(
// AVX2-LABEL: void cumumin_i64(
// AVX2:           _mm256_set1_epi64x(INT64_MIN);
// AVX2:           _mm256_cmpgt_epi64(
// AVX2-LABEL: void cummin_i32(
// AVX2:           _mm256_min_epi32(

// AVX512-NOT:     remark:
// AVX512-LABEL: void cumumax_i32(
// AVX512:         _mm512_max_epu32(
// AVX512-LABEL: void cummax_i64(
// AVX512:         _mm512_max_epi64(
// AVX512-LABEL: void cumumin_i64(
// AVX512:         _mm512_min_epu64(
// AVX512-LABEL: void cummin_i32(
// AVX512:         _mm512_min_epi32(

// GENERIC-NOT:   scalar_scans.mlir:{{21|33|122}}:3: remark:
// GENERIC-DAG:   scalar_scans.mlir:25:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: a max scan of i64 costs more than the scalar loop on generic with sse2 (no vector max instruction for i64: Costs.scalar_scans)
// GENERIC-DAG:   scalar_scans.mlir:29:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: a umin scan of i64 costs more than the scalar loop on generic with sse2 (no vector umin instruction for i64: Costs.scalar_scans)
// GENERIC-NOT:   scalar_scans.mlir:{{21|33|122}}:3: remark:
// GENERIC-LABEL: void cumumax_i32(
// GENERIC:        _mm_set1_epi32(INT32_MIN);
// GENERIC:        lo_max_i32x4(
// GENERIC-LABEL: void cummax_i64(
// GENERIC-NOT:    lo_max_i64x2(
// GENERIC:        int64_t {{v.*}} = acc > {{v.*}} ? acc : {{v.*}};
// GENERIC-LABEL: void cumumin_i64(
// GENERIC-NOT:    lo_minu_i64x2(
// GENERIC:        (uint64_t)acc < (uint64_t){{v.*}} ? acc : {{v.*}};
// GENERIC-LABEL: void cummin_i32(

// NEON-NOT:     remark:
// NEON-LABEL: void cumumax_i32(
// NEON:           vmaxq_u32(
// NEON-LABEL: void cumumin_i64(
// NEON:           lo_minu_i64x2(

// SCALAR-NOT:     remark:
// SCALAR-LABEL: void cumumax_i32(
// SCALAR-NOT:     alignr
// SCALAR:         int32_t {{v.*}} = (uint32_t)acc > (uint32_t){{v.*}} ? acc : {{v.*}};

// A filter → scan of i8/i16 lanes vectorizes on every x86 ISA: SSE2 compacts its kept lanes
// branch-free (no pshufb: the shift network, targets/c_narrow_compress.py), 2.1-3.6x faster than
// the scalar loop on Zen 4 at 1 Mi (session 25; session 24 had kept it scalar on zen4 and
// generic while that compaction still copied bytes one by one); AVX2 and AVX-512 as before.
// SSE2-LABEL:   int64_t kept_min_i8(
// SSE2:           lo_compress_full_i8x16(
// GENERIC-LABEL: int64_t kept_min_i8(
// GENERIC:        lo_compress_full_i8x16(
// AVX2-LABEL:   int64_t kept_min_i8(
// AVX2:           _mm256_min_epi8(
// AVX2:           lo_compress_full_i8x32(
func.func @kept_min_i8(%x: !df.array<i8, [i]>, %init: i8) -> !df.array<i8, [k]> {
  %zero = arith.constant 0 : i8
  %p = df.filter %x : !df.array<i8, [i]> -> !df.array<i8, [k]> {
  ^bb0(%e: i8):
    %c = arith.cmpi sgt, %e, %zero : i8
    df.yield %c : i1
  }
  %y = df.scan min(%p, %init) : !df.array<i8, [k]> -> !df.array<i8, [k]>
  func.return %y : !df.array<i8, [k]>
}
