// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen4}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=C
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 cpu=zen4}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 cpu=zen3}' | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=sse2 cpu=zen3}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=sapphirerapids}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=skylake-x}' | filecheck %s --check-prefix=NONE
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 cpu=generic}' | filecheck %s --check-prefix=NONE

// Zen 4 (Costs.align_loads_from_bytes = 32 KiB): a vector loop whose data is from 32 KiB to the
// LLC first runs a scalar head up to its first input's boundary of the vector's size (64 bytes for
// avx512, 32 for avx2), so numpy's arrays (16 or 32 bytes past a line) load whole lines
// (lowering/loop_to_simd/align_peel.py; folds 1.3-1.5x in L1, 1.02-1.09x in L2/L3 on Zen 4,
// results/amd-zen4/align_s25). A select on the trip count, no branch. A fold's head carries its
// accumulators and the epilogue combines them; a map's head is the streamed peel's count when its
// output is too small to stream. Zen 3 (session 26): from 16 KiB (its 256-bit loads at 16 mod 32
// cost maps and dots 1.1-1.4x from 2 Ki elements, results/amd-zen3/align). Not for 128-bit vectors (16-byte loads of numpy's 16-byte aligned
// arrays never span lines), the Intel CPUs and generic (not measured), a strict (ordered) float
// fold, a constant trip count below 32 KiB.

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
// ZEN4:         %trips = arith.maxsi %n, %c0 : index
// ZEN4-NEXT:    %[[FROM:.*]] = arith.constant 8191 : index
// ZEN4-NEXT:    %aligned = arith.cmpi sgt, %trips, %[[FROM]] : index
// ZEN4-NEXT:    %[[LLC:.*]] = arith.constant 8388608 : index
// ZEN4-NEXT:    %in_llc = arith.cmpi sle, %trips, %[[LLC]] : index
// ZEN4-NEXT:    %[[WHEN:.*]] = arith.andi %aligned, %in_llc : i1
// ZEN4-NEXT:    %[[AHEAD:.*]] = simd.align_offset %x[%c0], 64 : !loop.buf<f32>
// ZEN4-NEXT:    %[[MOST:.*]] = arith.minsi %[[AHEAD]], %trips : index
// ZEN4-NEXT:    %head = arith.select %[[WHEN]], %[[MOST]], %c0 : index
// ZEN4-NEXT:    %{{.*}} = arith.subi %trips, %head : index
// ZEN4-NEXT:    %[[HEAD:.*]] = loop.for %i in [%c0, %head) accs(%acc = %zero : f32 add reassoc) {
// ZEN4-NEXT:      loop.load %x[%i]
// ZEN4-NEXT:      arith.addf
// ZEN4-NEXT:      loop.yield
// ZEN4-NEXT:    }
// ZEN4:         loop.for %{{.*}} in range(%head, {{.*}}) accs({{.*}}) attributes {loop.split_halves} {
// ZEN4:         %[[H:.*]] = simd.hreduce <add>
// ZEN4-NEXT:    %[[S:.*]] = arith.addf %[[HEAD]], %[[H]] : f32
// ZEN4-NEXT:    func.return %[[S]] : f32

// AVX2-LABEL: func.func @sum
// AVX2:         simd.align_offset %x[%c0], 32 : !loop.buf<f32>
// AVX2:         loop.for %i in [%c0, %head) accs(

// C-LABEL: float sum(
// C:         int64_t [[A:.*]] = (int64_t)(((0u - (uintptr_t)&x[0]) & (64u - 1u)) / sizeof(x[0]));
// C:         int64_t head = ({{.*}}) ? {{.*}} : 0;
// C:         for (int64_t i = 0; i < head; i++) {

// ZEN3-LABEL: func.func @sum
// ZEN3:         %[[FROM:.*]] = arith.constant 4095 : index
// ZEN3-NEXT:    %aligned = arith.cmpi sgt, %trips, %[[FROM]] : index
// ZEN3-NEXT:    %[[LLC:.*]] = arith.constant 8388608 : index
// ZEN3-NEXT:    %in_llc = arith.cmpi sle, %trips, %[[LLC]] : index
// ZEN3:         simd.align_offset %x[%c0], 32 : !loop.buf<f32>
// ZEN3:         loop.for %i in [%c0, %head) accs(

// NONE-LABEL: func.func @sum
// NONE-NOT:     align_offset
// NONE:         func.return

func.func @axpb(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %b: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(masked) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// a map: the streamed peel (to the output's line) when it streams, else the head (to x's)
// ZEN4-LABEL: func.func @axpb
// ZEN4:         %stream = arith.cmpi sge
// ZEN4:         %[[OUT:.*]] = simd.align_offset %out[%c0], 64 : !loop.buf<f32>
// ZEN4:         %[[X:.*]] = simd.align_offset %x[%c0], 64 : !loop.buf<f32>
// ZEN4:         %head = arith.select %{{.*}}, %{{.*}}, %c0 : index
// ZEN4-NEXT:    %peel = arith.select %stream, %{{.*}}, %head : index
// ZEN4:         loop.for %i in [%c0, %peel) {

// NONE-LABEL: func.func @axpb
// NONE-NOT:     %head
// NONE:         func.return

// constant trips: 1000 f32 (4000 bytes: below Zen 3's 16 KiB and Zen 4's 32 KiB) has no head; 100000 (400 KB) has one without a size test
func.func @small_and_big(%x: !loop.buf<f32>, %y: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1000 = arith.constant 1000 : index
  %c100000 = arith.constant 100000 : index
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %c1000) width(W) tail(masked) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  %r = loop.vecloop %i in [%c0, %c100000) width(W) tail(masked) accs(%acc = %s : f32 add reassoc) {
    %e = loop.load %y[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %r : f32
}

// ZEN3-LABEL: func.func @small_and_big
// ZEN3-NOT:     simd.align_offset %x
// ZEN3:         simd.align_offset %y[%c0], 32 : !loop.buf<f32>

// ZEN4-LABEL: func.func @small_and_big
// ZEN4-NOT:     simd.align_offset %x
// ZEN4:         %[[AHEAD:.*]] = simd.align_offset %y[%c0], 64 : !loop.buf<f32>
// ZEN4-NEXT:    %head = arith.minsi %[[AHEAD]], %{{.*}} : index
// ZEN4:         loop.for %i{{.*}} in [%c0, %head) accs(%acc{{.*}} = %{{.*}} : f32 add reassoc) {

// an ordered float sum: no head (its steps run in element order)
func.func @ordered(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %zero : f32 add) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// ZEN4-LABEL: func.func @ordered
// ZEN4-NOT:     align_offset
// ZEN4:         func.return
