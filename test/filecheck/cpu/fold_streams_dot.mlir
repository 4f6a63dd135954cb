// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen4}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen3}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 cpu=zen3}' | filecheck %s --check-prefix=NARROW
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=generic}' | filecheck %s --check-prefix=ADJ
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=sapphirerapids}' | filecheck %s --check-prefix=ADJ

// A two-input fold (a dot) beyond the LLC on Zen 4 with 512-bit vectors (32 MiB / 8 bytes an
// iteration: beyond 4194304 trips) walks its K = 4 copies as 2 streams of 2 adjacent blocks:
// stream g folds the g-th half of the whole K-block iterations (`per_stream` = whole / 2), so
// 4 read streams run side by side as for a one-input fold (fold_streams.mlir). 4 streams per
// input (8 in all) lost on 2 MiB pages (0.86-0.94x), 2 per input did not (0.98-1.05x; 4 KiB
// pages 1.06-1.22x): vecloop.fold_stream_count, results/amd-zen4/dot_streams. The f32 stream
// loop splits into 256-bit halves, the i32 one (a multiply) loads in quarters. AVX2 and SSE2
// stream too, loading whole vectors (session 26, Zen 3: avx2 dot f32/i32 1.16-1.19x from 4 KiB
// pages, sse2 1.17-1.21x; results/amd-zen3/fold_streams). Three inputs (4 // 3 = 1 stream
// each), the Intel CPUs and generic keep adjacent blocks.

func.func @dot(%x: !loop.buf<f32>, %y: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %t = math.fma %e, %f, %acc : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// ZEN4-LABEL: func.func @dot
// ZEN4:         %head = arith.select %{{.*}}, %{{.*}}, %c0 : index
// ZEN4-NEXT:    %[[LEFT:.*]] = arith.subi %trips, %head : index
// ZEN4:         %[[LIMIT:.*]] = arith.constant 4194304 : index
// ZEN4-NEXT:    %beyond_llc = arith.cmpi sgt, %[[LEFT]], %[[LIMIT]] : index
// ZEN4:         %[[WHOLE:.*]] = arith.select %beyond_llc, %{{.*}}, %c0 : index
// ZEN4-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// ZEN4-NEXT:    %per_stream = arith.divsi %[[WHOLE]], %[[TWO]] : index
// ZEN4:         %[[STOP:.*]] = arith.addi %head, %per_stream : index
// ZEN4-NEXT:    %[[GROUP:.*]] = arith.constant 32 : index
// ZEN4-NEXT:    %[[BLOCK:.*]] = arith.constant 16 : index
// ZEN4-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = loop.for %[[I:i.*]] in range(%head, %[[STOP]], %[[GROUP]]) accs({{.*}}) attributes {loop.split_halves} {
// ZEN4-NEXT:      simd.load %x[%[[I]]]
// ZEN4-NEXT:      simd.load %y[%[[I]]]
// ZEN4-NEXT:      simd.fma
// ZEN4-NEXT:      %[[B1:.*]] = arith.addi %[[I]], %[[BLOCK]] : index
// ZEN4-NEXT:      simd.load %x[%[[B1]]]
// ZEN4-NEXT:      simd.load %y[%[[B1]]]
// ZEN4-NEXT:      simd.fma
// ZEN4-NEXT:      %[[S1:.*]] = arith.addi %[[I]], %per_stream : index
// ZEN4-NEXT:      simd.load %x[%[[S1]]]
// ZEN4-NEXT:      simd.load %y[%[[S1]]]
// ZEN4-NEXT:      simd.fma
// ZEN4-NEXT:      %[[B3:.*]] = arith.addi %[[S1]], %[[BLOCK]] : index
// ZEN4-NEXT:      simd.load %x[%[[B3]]]
// ZEN4-NEXT:      simd.load %y[%[[B3]]]
// ZEN4-NEXT:      simd.fma
// ZEN4-NEXT:      loop.yield
// ZEN4:         %beyond_l2 = arith.cmpi sgt
// ZEN4:         func.return

func.func @dot_i32(%x: !loop.buf<i32>, %y: !loop.buf<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  %zero = arith.constant 0 : i32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : i32 add) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %f = loop.load %y[%i] : !loop.buf<i32>
    %m = arith.muli %e, %f : i32
    %t = arith.addi %acc, %m : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}

// ZEN4-LABEL: func.func @dot_i32
// ZEN4:         %per_stream = arith.divsi %{{.*}}, %{{.*}} : index
// ZEN4:         loop.for %[[I:i.*]] in range(%head, %{{.*}}, %{{.*}}) accs({{.*}}) {
// ZEN4-NEXT:      simd.load %x[%[[I]]] quarters
// ZEN4-NEXT:      simd.load %y[%[[I]]] quarters
// ZEN4:           arith.addi %[[I]], %per_stream : index
// ZEN4:         func.return

func.func @dot3(%x: !loop.buf<f32>, %y: !loop.buf<f32>, %z: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %g = loop.load %z[%i] : !loop.buf<f32>
    %p = arith.mulf %e, %f : f32
    %t = math.fma %p, %g, %acc : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// NARROW-LABEL: func.func @dot
// NARROW:         %beyond_llc = arith.cmpi sgt, %{{.*}}, %{{.*}} : index
// NARROW:         %[[TWO:.*]] = arith.constant 2 : index
// NARROW-NEXT:    %per_stream = arith.divsi %{{.*}}, %[[TWO]] : index
// NARROW:         loop.for %[[I:i.*]] in range(%{{.*}}, %{{.*}}, %{{.*}}) accs({{[^)]*}}) {
// NARROW-NEXT:      simd.load %x[%[[I]]] : !loop.buf<f32>
// NARROW-NEXT:      simd.load %y[%[[I]]] : !loop.buf<f32>
// NARROW:           arith.addi %[[I]], %per_stream : index
// NARROW-LABEL: func.func @dot_i32
// NARROW:         %per_stream = arith.divsi
// NARROW:         loop.for %[[I:i.*]] in range(%{{.*}}, %{{.*}}, %{{.*}}) accs({{[^)]*}}) {
// NARROW-NEXT:      simd.load %x[%[[I]]] : !loop.buf<i32>
// NARROW-LABEL: func.func @dot3
// NARROW-NOT:     per_stream
// NARROW:         func.return

// ZEN4-LABEL: func.func @dot3
// ZEN4-NOT:     per_stream
// ZEN4:         func.return

// C-LABEL: float dot(
// C:         _Bool beyond_llc = {{.*}} > 4194304;
// C:         int64_t per_stream = {{.*}} / 2;
// C:         for (
// C-NEXT:      __m256 {{.*}} = _mm256_loadu_ps(&x[i]);
// C-LABEL: int32_t dot_i32(
// C:         int64_t per_stream = {{.*}} / 2;

// ADJ-LABEL: func.func @dot
// ADJ-NOT:     per_stream
// ADJ-LABEL: func.func @dot_i32
// ADJ-NOT:     per_stream
// ADJ:         func.return
