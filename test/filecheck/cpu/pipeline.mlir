// RUN: loop-opt %S/../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %S/../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx512 cpu=sapphirerapids}' -t c | filecheck %s --check-prefix=SPR
// RUN: loop-opt %S/../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx512}' -t c | filecheck %s --check-prefix=GENERIC
// RUN: loop-opt %S/../../../examples/sum_of_squares.mlir -p 'loop-pipeline{target=avx2 cpu=zen3}' -t c | filecheck %s --check-prefix=ZEN3

// Issue 11's cases through the whole pipeline. sum(x*x) on AVX-512: the n mod 16 rest is one
// masked block (not a chain of dependent scalar FMAs) and the result is the horizontal sum
// itself (no `0.0f + ...`; on Zen 3 and Zen 4 plus the aligning head's sum, align_peel.py). filter->map on Zen 4 compresses in a register; on Sapphire
// Rapids it keeps vcompressps to memory. The map streams from half the LLC. Without a cpu
// (generic) the ISA defaults stay: scalar tail, memory compress, 4 MiB.

// ZEN4:        convert-loop-to-simd{target=avx512 fallback=true cpu=zen4 tail=auto}
// ZEN4-LABEL:  float sumsq(
// ZEN4:          _mm512_mask_loadu_ps(
// ZEN4:          float [[H:.*]] = _mm512_reduce_add_ps(
// ZEN4-NEXT:     float s = acc + [[H]];
// ZEN4-NEXT:     return s;
// ZEN4-LABEL:  int64_t scale_positive(
// ZEN4:          _mm512_storeu_ps(&out[cursor], _mm512_mask_compress_ps(m, mask, m));
// ZEN4-NOT:      compressstoreu
// ZEN4-LABEL:  void sqrt_abs_axpb(
// ZEN4:          _Bool stream = {{.*}} >= 16777216;

// SPR-LABEL:   float sumsq(
// SPR:           _mm512_mask_loadu_ps(
// SPR:           float s = _mm512_reduce_add_ps(
// SPR-NEXT:      return s;
// SPR-LABEL:   int64_t scale_positive(
// SPR:           _mm512_mask_compressstoreu_ps(&out[cursor], mask, m);
// SPR-NOT:       _mm512_mask_compress_ps
// SPR-LABEL:   void sqrt_abs_axpb(
// SPR:           _Bool stream = v >= 55050240;

// GENERIC:       convert-loop-to-simd{target=avx512 fallback=true}
// GENERIC-LABEL: float sumsq(
// GENERIC-NOT:     _mm512_mask_loadu_ps(
// GENERIC:         float [[H:.*]] = _mm512_reduce_add_ps(
// GENERIC-NEXT:    float s = [[H]];
// GENERIC-NEXT:    for (int64_t i = {{.*}}; i < x_len; i++) {
// GENERIC-LABEL: int64_t scale_positive(
// GENERIC:         _mm512_storeu_ps(&out[cursor], _mm512_mask_compress_ps(m, mask, m));
// GENERIC-LABEL: void sqrt_abs_axpb(
// GENERIC:         _Bool stream = v >= 4194304;

// ZEN3-LABEL:  float sumsq(
// ZEN3:          _mm256_maskload_ps(
// ZEN3:          float [[H:.*]] = lo_hreduce_add_f32x8(
// ZEN3-NEXT:     float s = acc + [[H]];
// ZEN3-NEXT:     return s;
// ZEN3-LABEL:  void sqrt_abs_axpb(
// ZEN3:          _Bool stream = v >= 16777216;
// ZEN3-NOT:      _mm256_maskstore_ps
// ZEN3:          out[i] = s;
