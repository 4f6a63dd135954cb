// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen4}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=skylake-x}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=sapphirerapids}' | filecheck %s --check-prefix=WHOLE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=generic}' | filecheck %s --check-prefix=WHOLE

// A map whose data exceeds the L2 loads each 512-bit vector as two 256-bit halves on Zen 4
// (CpuModel.half_load_bytes: 512-bit loads from L3/DRAM were 10-15% slower for out = a*x + y
// at 1 Mi elements, 6-9% at 16 Mi with streaming stores; in L1 the insert costs). The limit is
// the L2 over the bytes an iteration loads and stores: 1 MiB / 12 = 87381 trips for a*x + y,
// 1 MiB / 8 = 131072 for a*x. At run time a select gives the K-block loop with halves every
// whole block (no branch) or none; constant bounds decide here. A streamed output (>= 16 MiB,
// beyond the L2) loads in halves too. Unchanged: AVX2's 256-bit vectors (already one datapath
// wide), the Intel CPUs and generic (not measured), reductions, a map nested in another loop.

func.func @axpy(%x: !loop.buf<f32>, %y: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// The streamed loop (output >= 16 MiB) loads in halves; then the beyond-L2 select and its loop;
// the ordinary K-block, one-block and masked loops keep whole loads.
// ZEN4-LABEL: func.func @axpy
// ZEN4:         %stream = arith.cmpi sge
// ZEN4:         loop.for
// ZEN4:         loop.for
// ZEN4-NEXT:      simd.load %x[%{{.*}}] halves : !loop.buf<f32> -> vector<16xf32>
// ZEN4-NEXT:      simd.load %y[%{{.*}}] halves : !loop.buf<f32> -> vector<16xf32>
// ZEN4:           simd.store {{.*}} aligned nontemporal
// ZEN4:         simd.store_fence
// ZEN4:         %[[MOST:.*]] = arith.constant 87381 : index
// ZEN4-NEXT:    %beyond_l2 = arith.cmpi sgt, %[[LEFT:.*]], %[[MOST]] : index
// ZEN4:         %[[BLOCKS:.*]] = arith.subi %[[LEFT]], %{{.*}} : index
// ZEN4-NEXT:    %[[HALF:.*]] = arith.select %beyond_l2, %[[BLOCKS]], %{{.*}} : index
// ZEN4-NEXT:    %[[END:.*]] = arith.addi %[[START:.*]], %[[HALF]] : index
// ZEN4:         loop.for %{{.*}} in range(%[[START]], %[[END]], %{{.*}}) {
// ZEN4-NEXT:      simd.load %x[%{{.*}}] halves
// ZEN4-NEXT:      simd.load %y[%{{.*}}] halves
// ZEN4-COUNT-3:   simd.load %x[%{{.*}}] halves
// ZEN4:           simd.store %{{.*}}, %out[%{{.*}}] : vector<16xf32>
// ZEN4:         in_l1
// ZEN4:         loop.for %{{.*}} in range(%[[END]]
// ZEN4-NOT:       ] halves
// ZEN4:         func.return

// In the C, two 256-bit loads with the high half inserted; the K-block loop of whole loads after.
// C-LABEL: void axpy(
// C:         _Bool beyond_l2 =
// C:         __m512 e_{{.*}} = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(&x[[[I:.*]]])), _mm256_loadu_ps(&x[([[I]]) + 8]), 1);
// C:         = _mm512_loadu_ps(&x[
// C-LABEL: void iaxpb(
// C:         _mm512_inserti32x8(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)&x[[[J:.*]]])), _mm256_loadu_si256((const __m256i *)&x[([[J]]) + 8]), 1);

// (One input and at most two ops on it, a*x + b, loads in quarters beyond the L1d instead:
// quarter_loads.mlir. A third op keeps the halves, as in sqrt(a*x) + a below.)
func.func @iaxpb(%x: !loop.buf<i32>, %out: !loop.buf<i32>, %a: i32, %b: i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<i32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %b : i32
    %t = arith.xori %s, %b : i32
    loop.store %t, %out[%i] : !loop.buf<i32>
  }
  func.return
}

// ZEN4-LABEL: func.func @iaxpb
// ZEN4:         %[[MOST:.*]] = arith.constant 131072 : index
// ZEN4-NEXT:    %beyond_l2 = arith.cmpi sgt, %{{.*}}, %[[MOST]] : index

// Constant bounds: 1 Mi elements always load in halves (no select), 1000 only in the streamed loop.
func.func @scale_big(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1048576 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = math.sqrt %m : f32
    %t = arith.addf %s, %a : f32
    loop.store %t, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @scale_big
// ZEN4-NOT:     beyond_l2
// ZEN4:         simd.store_fence
// ZEN4:         loop.for
// ZEN4-NEXT:      simd.load %x[%{{.*}}] halves
// ZEN4:         func.return

func.func @scale_1000(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1000 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = math.sqrt %m : f32
    %t = arith.addf %s, %a : f32
    loop.store %t, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// (The streamed loop is there with any bounds; it runs only from 16 MiB.)
// ZEN4-LABEL: func.func @scale_1000
// ZEN4-NOT:     beyond_l2
// ZEN4:         simd.store_fence
// ZEN4-NOT:     halves
// ZEN4:         loop.for
// ZEN4-NEXT:      simd.load %x[%{{.*}}] : !loop.buf<f32> -> vector<16xf32>
// ZEN4-NOT:     halves
// ZEN4:         func.return

// A reduction keeps whole loads (folds gain from 256-bit adds instead: split_folds.mlir).
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
// ZEN4-NOT:     ] halves
// ZEN4:         func.return

// A map nested in another loop (the rows of a matrix): its trips are one row's.
func.func @rows(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %rows: index) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.for %r in [%c0, %rows) {
    loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
      %e = loop.load %x[%i] : !loop.buf<f32>
      %m = arith.mulf %a, %e : f32
      %s = math.sqrt %m : f32
      %t = arith.addf %s, %a : f32
      loop.store %t, %out[%i] : !loop.buf<f32>
    }
  }
  func.return
}

// ZEN4-LABEL: func.func @rows
// ZEN4-NOT:     beyond_l2
// ZEN4:         func.return

// WHOLE-NOT: halves
// WHOLE-NOT: beyond_l2
