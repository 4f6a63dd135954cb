// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=zen4 interleave=4}' | filecheck %s --check-prefix=UNROLLED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 stream_bytes=0 cpu=zen4}' | filecheck %s --check-prefix=UNROLLED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=skylake-x}' | filecheck %s --check-prefix=UNROLLED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=sapphirerapids}' | filecheck %s --check-prefix=UNROLLED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 stream_bytes=0 cpu=generic}' | filecheck %s --check-prefix=UNROLLED

// A map whose data fits the L1d runs one vector block an iteration on a CPU where that is
// faster (CpuModel.short_map_bytes): Zen 4 with 512-bit blocks, which its 256-bit datapath
// issues as two halves anyway (issue 11: axpb f32 at 1000 elements 116 -> 94 TSC cycles,
// the K = 4 body with its stores after its loads at ~0.8x in L1). On Zen 4 this is the fallback
// for a body `loop.split_halves` refuses (here a division): the maps it accepts run 256-bit
// blocks in L1 instead (split_maps.mlir). The limit is the L1d over the bytes an iteration loads
// and stores: 32 KiB / 8 = 4096 trips for out = x / a, 32 KiB / 12 = 2730 for out = x / a + y.
// At run time a select skips the K-block main loop (no branch); with constant bounds the
// decision is made here and the loop is the one-block loop alone.
// (Before these loops a map may run a loop with its loads in halves when its data exceeds the
// L2: half_loads.mlir; the trip count it leaves is what the K-block and one-block loops split.)
// Only a memory-bound body, at most one arithmetic op a load: x / a - b (two per load) keeps K.
// Unchanged: an explicit interleave, AVX2's 256-bit blocks on Zen 4 (one a cycle: unrolled is
// faster, 1.6x at 1000), the Intel CPUs and generic (not measured), and reductions.

func.func @scale(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.divf %e, %a : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// (a*x loads in quarters beyond the L1d first, quarter_loads.mlir: the same 4096 trips; before
// them all the aligning head of data from 32 KiB, align_peel.py: the loops share what it leaves)
// ZEN4-LABEL: func.func @scale
// ZEN4:         %[[TRIPS:.*]] = arith.subi %trips, %head : index
// ZEN4:         %beyond_l1 = arith.cmpi sgt, %[[TRIPS]], %{{.*}} : index
// ZEN4:         %in_l1 = arith.cmpi sle, %[[TRIPS]], %{{.*}} : index
// ZEN4:         %[[WHOLE:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// ZEN4:         %[[MAIN:.*]] = arith.select %in_l1, %{{.*}}, %[[WHOLE]] : index
// ZEN4-NEXT:    %[[END:.*]] = arith.addi %{{.*}}, %[[MAIN]] : index
// ZEN4:         loop.for %{{.*}} in range(%{{.*}}, %[[END]], %{{.*}}) {
// ZEN4-COUNT-4:   simd.store
// ZEN4:         loop.for %{{.*}} in range(%[[END]], %{{.*}}, %{{.*}}) {
// ZEN4-NEXT:      simd.load
// ZEN4-NEXT:      arith.divf
// ZEN4-NEXT:      simd.store
// ZEN4-NEXT:    }

func.func @axpy(%x: !loop.buf<f32>, %y: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %f = loop.load %y[%i] : !loop.buf<f32>
    %m = arith.divf %e, %a : f32
    %s = arith.addf %m, %f : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @axpy
// ZEN4:         %head = arith.select
// ZEN4:         %[[MOST:.*]] = arith.constant 2730 : index
// ZEN4-NEXT:    %in_l1 = arith.cmpi sle, %{{.*}}, %[[MOST]] : index

func.func @divsub(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %b: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.divf %e, %a : f32
    %s = arith.subf %m, %b : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @divsub
// ZEN4-NOT:     in_l1
// ZEN4:         simd.store
// ZEN4-NEXT:    simd.store
// ZEN4-NEXT:    simd.store
// ZEN4-NEXT:    simd.store
// ZEN4:         func.return

func.func @scale_1000(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1000 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.divf %e, %a : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// ZEN4-LABEL: func.func @scale_1000
// ZEN4-NOT:     in_l1
// ZEN4:         loop.for %i in range(%c0, %{{.*}}, %{{.*}}) {
// ZEN4-NEXT:      simd.load
// ZEN4-NEXT:      arith.divf
// ZEN4-NEXT:      simd.store
// ZEN4-NEXT:    }
// ZEN4-NOT:     loop.for %{{.*}} in range(%c0
// ZEN4:         simd.masked_store

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
// ZEN4-NOT:     in_l1
// ZEN4:         func.return

// UNROLLED-NOT: in_l1
// UNROLLED-LABEL: func.func @scale_1000
// UNROLLED:       simd.store
// UNROLLED-NEXT:  simd.store
// UNROLLED-NEXT:  simd.store
// UNROLLED-NEXT:  simd.store
// UNROLLED-NOT: in_l1

// A map nested in another loop (the rows of a matrix) keeps the K-block body: its trips are
// one row's, not the data the nest walks.

func.func @rows(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %rows: index) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.for %r in [%c0, %rows) {
    loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
      %e = loop.load %x[%i] : !loop.buf<f32>
      %m = arith.divf %e, %a : f32
      loop.store %m, %out[%i] : !loop.buf<f32>
    }
  }
  func.return
}

// ZEN4-LABEL: func.func @rows
// ZEN4-NOT:     in_l1
// ZEN4:         simd.store
// ZEN4-NEXT:    simd.store
// ZEN4-NEXT:    simd.store
// ZEN4-NEXT:    simd.store
// ZEN4:         func.return
