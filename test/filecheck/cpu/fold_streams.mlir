// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen4}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen3}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 cpu=zen3}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen3}' -t c | filecheck %s --check-prefix=C256
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=sapphirerapids}' | filecheck %s --check-prefix=ADJ
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 cpu=generic}' | filecheck %s --check-prefix=ADJ
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=sapphirerapids}' | filecheck %s --check-prefix=ADJ
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=skylake-x}' | filecheck %s --check-prefix=ADJ
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=generic}' | filecheck %s --check-prefix=ADJ

// A one-input fold whose data exceeds the LLC on Zen 4 with 512-bit vectors (32 MiB / 4 bytes:
// beyond 8388608 trips) runs its whole K-block iterations first as K streams: copy c of the
// body folds the c-th quarter of them (`per_stream` iterations on from copy c-1), one block an
// iteration, so K hardware prefetch streams restart at the 4 KiB page boundaries side by side
// (Costs.fold_streams_beyond_llc; after the aligning head of data up to the LLC, align_peel.py; from 4 KiB pages 1.07-1.43x, from 2 MiB pages 1.00-1.03x,
// results/amd-zen4/fold_gap/pages4k-2026-11-27.md). The stream loop is split into 256-bit
// halves where the fold splits (split_folds.mlir), else it loads in quarters (an integer
// multiply). The L2's split loop, the K-block loop, remainder blocks and masked tail continue.
// Vectors as wide as the datapath or narrower (AVX2, SSE2) stream too, loading whole vectors
// (session 26: on Zen 3 avx2 sum/sumsq f32/i32 1.49-1.64x from 4 KiB pages, 1.25-1.31x from
// 2 MiB ones; sse2 1.52-1.61x / 1.33-1.45x; results/amd-zen3/fold_streams). Unchanged: the
// Intel CPUs and generic (not measured), a fold that stores. Two inputs (a dot):
// fold_streams_dot.mlir. A float filter streams whole (its select does not split); filters
// stream only where their vectors split (Zen 4's 512-bit ones).

func.func @sum(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// ZEN4-LABEL: func.func @sum
// ZEN4:         %in_llc = arith.cmpi sle, %trips, %{{.*}} : index
// ZEN4:         %head = arith.select %{{.*}}, %{{.*}}, %c0 : index
// ZEN4-NEXT:    %[[LEFT:.*]] = arith.subi %trips, %head : index
// ZEN4:         %[[MOST:.*]] = arith.constant 8388608 : index
// ZEN4-NEXT:    %beyond_llc = arith.cmpi sgt, %[[LEFT]], %[[MOST]] : index
// ZEN4:         %[[WHOLE:.*]] = arith.select %beyond_llc, %{{.*}}, %{{.*}} : index
// ZEN4:         %per_stream = arith.divsi %[[WHOLE]], %{{.*}} : index
// ZEN4:         loop.for %[[I:i.*]] in range(%{{.*}}, %{{.*}}, %[[BLOCK:.*]]) accs({{.*}}) attributes {loop.split_halves} {
// ZEN4-NEXT:      simd.load %x[%[[I]]]
// ZEN4-NEXT:      arith.addf
// ZEN4-NEXT:      %[[S1:.*]] = arith.addi %[[I]], %per_stream : index
// ZEN4-NEXT:      simd.load %x[%[[S1]]]
// ZEN4-NEXT:      arith.addf
// ZEN4-NEXT:      %[[S2:.*]] = arith.addi %[[S1]], %per_stream : index
// ZEN4-NEXT:      simd.load %x[%[[S2]]]
// ZEN4-NEXT:      arith.addf
// ZEN4-NEXT:      %[[S3:.*]] = arith.addi %[[S2]], %per_stream : index
// ZEN4-NEXT:      simd.load %x[%[[S3]]]
// ZEN4:         %beyond_l2 = arith.cmpi sgt
// ZEN4:         loop.for {{.*}} attributes {loop.split_halves} {
// ZEN4:         func.return

// NARROW-LABEL: func.func @sum
// NARROW:         %beyond_llc = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// NARROW:         %per_stream = arith.divsi %{{.*}}, %{{.*}} : index
// NARROW:         loop.for %[[I:i.*]] in range(%{{.*}}, %{{.*}}, %{{.*}}) accs({{[^)]*}}) {
// NARROW-NEXT:      simd.load %x[%[[I]]] : !loop.buf<f32>
// NARROW-NEXT:      arith.addf
// NARROW-NEXT:      %[[S1:.*]] = arith.addi %[[I]], %per_stream : index
// NARROW-NEXT:      simd.load %x[%[[S1]]] : !loop.buf<f32>
// NARROW:         func.return

// C256-LABEL: float sum(
// C256:         _Bool beyond_llc = {{.*}} > 8388608;
// C256:         int64_t per_stream = {{.*}} / 4;
// C256:         for (int64_t i = head, {{.*}} / 8ull) : -1; {{.*}} + 8ull)) {
// C256-NEXT:      __m256 {{.*}} = _mm256_loadu_ps(&x[i]);
// C256:           int64_t [[S1:.*]] = i + per_stream;
// C256-NEXT:      __m256 {{.*}} = _mm256_loadu_ps(&x[[[S1]]]);

// ADJ-LABEL: func.func @sum
// ADJ-NOT:     beyond_llc
// ADJ-NOT:     per_stream
// ADJ:         func.return

// C-LABEL: float sum(
// C:         _Bool beyond_llc = {{.*}} > 8388608;
// C:         _Bool beyond_l2 =
// C-NEXT:    if (!aligned && !beyond_llc && !beyond_l2) {
// C:         } else {
// C:         int64_t per_stream = [[WHOLE:.*]] / 4;
// C:         for (int64_t i = head, i_left = ({{.*}}) > i ? {{.*}} / 16ull) : -1; {{.*}} + 16ull)) {
// C-NEXT:      __m256 e = _mm256_loadu_ps(&x[i]);
// C-NEXT:      __m256 e_1 = _mm256_loadu_ps(&x[(i) + 8]);
// C:           int64_t [[S1:.*]] = i + per_stream;
// C-NEXT:      __m256 e_2 = _mm256_loadu_ps(&x[[[S1]]]);
// C:           int64_t [[S2:.*]] = [[S1]] + per_stream;
// C:           int64_t [[S3:.*]] = [[S2]] + per_stream;
// C:         }
// C:         return

// An integer multiply does not split: the stream loop loads each vector in four quarters.
func.func @sumsq_i32(%x: !loop.buf<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  %zero = arith.constant 0 : i32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : i32 add) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %m = arith.muli %e, %e : i32
    %t = arith.addi %acc, %m : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}

// ZEN4-LABEL: func.func @sumsq_i32
// ZEN4:         %beyond_llc = arith.cmpi sgt, %{{.*}}
// ZEN4:         loop.for %[[I:i.*]] in range({{[^)]*}}) accs({{[^)]*}} add) {
// ZEN4-NEXT:      simd.load %x[%[[I]]] quarters
// ZEN4:           arith.addi %[[I]], %per_stream : index
// ZEN4:         func.return

// C-LABEL: int32_t sumsq_i32(
// C:         int64_t per_stream =
// C:         for (
// C-NEXT:      __m512i e = _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)&x[i])),
// C:           _mm512_mullo_epi32(

// A filtered integer sum (a predloop, max(x, 0) when split) streams the same way.
func.func @sum_positive_i32(%x: !loop.buf<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  %zero = arith.constant 0 : i32
  %k, %s = loop.predloop %i in [%c0, %n) width(W) tail(masked) mask(unset) accs(%acc = %zero : i32 add) pred {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %c = arith.cmpi sgt, %e, %zero : i32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %e : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}

// ZEN4-LABEL: func.func @sum_positive_i32
// ZEN4:         %beyond_llc = arith.cmpi sgt, %{{.*}}
// ZEN4:         %per_stream = arith.divsi
// ZEN4:         loop.for {{.*}} attributes {{{.*}}loop.split_halves{{.*}}} {
// ZEN4:           simd.max
// ZEN4:           arith.addi %{{i.*}}, %per_stream : index
// ZEN4:         %beyond_l2 = arith.cmpi sgt
// ZEN4:         func.return

// ADJ-LABEL: func.func @sum_positive_i32
// ADJ-NOT:     per_stream
// ADJ:         func.return

// A float filter's select does not split: its stream loop runs whole (512-bit loads).
func.func @sum_positive_f32(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %k, %s = loop.predloop %i in [%c0, %n) width(W) tail(masked) mask(unset) accs(%acc = %zero : f32 add reassoc) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// ZEN4-LABEL: func.func @sum_positive_f32
// ZEN4:         %per_stream = arith.divsi
// ZEN4:         loop.for %[[I:i.*]] in range({{[^)]*}}) accs({{[^)]*}} add reassoc) attributes {loop.mask_form = #loop.mask_form<avx512_mask>} {
// ZEN4:           arith.addi %[[I]], %per_stream : index
// ZEN4:         func.return

// C-LABEL: float sum_positive_f32(
// C:         int64_t per_stream =
// C:         for (
// C-NEXT:      __m512 {{.*}} = _mm512_loadu_ps(&x[i]);
