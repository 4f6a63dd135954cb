// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1 stream_bytes=0}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 stream_bytes=0}' | filecheck %s --check-prefix=UNROLL

// A map: uniform operands are broadcast once before the loop, contiguous loads/stores
// become simd.load/simd.store at the block's first index, the rest runs as the source body.
// By default a map is unrolled like a reduction is interleaved (4 blocks per iteration on
// AVX2: the four blocks' loads first, their stores last, so no load follows a store that
// may 4K-alias it), then one block per iteration, then the scalar tail.

func.func @axpb(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %one : f32
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK:       builtin.module attributes {loop.target = "avx2"} {
// CHECK-LABEL:   func.func @axpb
// CHECK:           %[[TRIPS:.*]] = arith.maxsi
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[REM:.*]] = arith.remsi %[[TRIPS]], %[[C8:.*]] : index
// CHECK:           %[[END:.*]] = arith.subi %[[TRIPS]], %[[REM]] : index
// CHECK-NOT:       arith.addi %c0
// CHECK:           %[[A:.*]] = simd.broadcast %a : f32 -> vector<8xf32>
// CHECK:           %[[ONES:.*]] = simd.broadcast %[[ONE]] : f32 -> vector<8xf32>
// CHECK:           loop.for %[[I:.*]] in range(%c0, %[[END]], %{{.*}}) {
// CHECK-NEXT:        %[[E:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<8xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[A]], %[[E]] : vector<8xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[M]], %[[ONES]] : vector<8xf32>
// CHECK-NEXT:        simd.store %[[S]], %out[%[[I]]] : vector<8xf32>, !loop.buf<f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.for %[[J:.*]] in [%[[END]], %n) {
// CHECK-NEXT:        %[[E2:.*]] = loop.load %x[%[[J]]] : !loop.buf<f32>
// CHECK:             loop.store %{{.*}}, %out[%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      func.return

// UNROLL-LABEL:   func.func @axpb
// UNROLL:           %[[R32:.*]] = arith.remsi %[[TRIPS:.*]], %[[C32:.*]] : index
// UNROLL-NEXT:      %[[END32:.*]] = arith.subi %[[TRIPS]], %[[R32]] : index
// UNROLL-NOT:       arith.addi %c0
// UNROLL:           loop.for %[[I:.*]] in range(%c0, %[[END32]], %{{.*}}) {
// UNROLL-NEXT:        %[[E0:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<8xf32>
// UNROLL-NEXT:        arith.mulf
// UNROLL-NEXT:        arith.addf
// UNROLL-NEXT:        %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// UNROLL-NEXT:        %[[E1:.*]] = simd.load %x[%[[I1]]] : !loop.buf<f32> -> vector<8xf32>
// UNROLL-NEXT:        arith.mulf
// UNROLL-NEXT:        arith.addf
// UNROLL-NEXT:        %[[I2:.*]] = arith.addi %[[I]], %{{.*}} : index
// UNROLL-NEXT:        simd.load %x[%[[I2]]]
// UNROLL-NEXT:        arith.mulf
// UNROLL-NEXT:        arith.addf
// UNROLL-NEXT:        %[[I3:.*]] = arith.addi %[[I]], %{{.*}} : index
// UNROLL-NEXT:        simd.load %x[%[[I3]]]
// UNROLL-NEXT:        arith.mulf
// UNROLL-NEXT:        arith.addf
// UNROLL-NEXT:        simd.store %{{.*}}, %out[%[[I]]] : vector<8xf32>, !loop.buf<f32>
// UNROLL-NEXT:        simd.store %{{.*}}, %out[%[[I1]]] : vector<8xf32>, !loop.buf<f32>
// UNROLL-NEXT:        simd.store %{{.*}}, %out[%[[I2]]] : vector<8xf32>, !loop.buf<f32>
// UNROLL-NEXT:        simd.store %{{.*}}, %out[%[[I3]]] : vector<8xf32>, !loop.buf<f32>
// UNROLL-NEXT:      }
// UNROLL:           %[[END8:.*]] = arith.subi %[[TRIPS]], %{{.*}} : index
// UNROLL:           loop.for %[[J:.*]] in range(%[[END32]], %[[END8]], %{{.*}}) {
// UNROLL-NEXT:        simd.load %x[%[[J]]] : !loop.buf<f32> -> vector<8xf32>
// UNROLL-NEXT:        arith.mulf
// UNROLL-NEXT:        arith.addf
// UNROLL-NEXT:        simd.store %{{.*}}, %out[%[[J]]] : vector<8xf32>, !loop.buf<f32>
// UNROLL-NEXT:      }
// UNROLL-NEXT:      loop.for %[[T:.*]] in [%[[END8]], %n) {
// UNROLL-NEXT:        loop.load %x[%[[T]]] : !loop.buf<f32>
