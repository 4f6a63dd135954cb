// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1 stream_bytes=1024}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=neon interleave=1 stream_bytes=1024}' | filecheck %s --check-prefix=NEON

// A map whose output is at least stream_bytes at run time streams it: peel (scalar) to the
// output's vector alignment, then whole blocks with aligned nontemporal stores and a fence
// (in a loop that runs once when it streamed: an sfence waits for every earlier store);
// then the ordinary loops. No branch: when the output is smaller, %peel and the streamed
// count are 0 and both loops are empty. NEON has no streaming stores: nothing changes.

func.func @scale(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK-LABEL:  func.func @scale
// CHECK:          %[[BYTES:.*]] = arith.muli %trips, %[[C4:.*]] : index
// CHECK-NEXT:     %[[LIMIT:.*]] = arith.constant 1024 : index
// CHECK-NEXT:     %stream = arith.cmpi sge, %[[BYTES]], %[[LIMIT]] : index
// CHECK-NEXT:     %[[AHEAD:.*]] = simd.align_offset %out[%c0], 64 : !loop.buf<f32>
// CHECK-NEXT:     %[[BOUND:.*]] = arith.minsi %[[AHEAD]], %trips : index
// CHECK-NEXT:     %peel = arith.select %stream, %[[BOUND]], %{{.*}} : index
// CHECK-NEXT:     %[[REST:.*]] = arith.subi %trips, %peel : index
// CHECK-NEXT:     loop.for %[[P:.*]] in [%c0, %peel) {
// CHECK-NEXT:       %[[PE:.*]] = loop.load %x[%[[P]]] : !loop.buf<f32>
// CHECK-NEXT:       %[[PM:.*]] = arith.mulf %a, %[[PE]] : f32
// CHECK-NEXT:       loop.store %[[PM]], %out[%[[P]]] : !loop.buf<f32>
// CHECK-NEXT:     }
// CHECK:          %[[WHOLE:.*]] = arith.subi %[[REST]], %{{.*}} : index
// CHECK-NEXT:     %[[NT:.*]] = arith.select %stream, %[[WHOLE]], %{{.*}} : index
// CHECK-NEXT:     %[[NTEND:.*]] = arith.addi %peel, %[[NT]] : index
// CHECK-NEXT:     %[[LEFT:.*]] = arith.subi %[[REST]], %[[NT]] : index
// CHECK:          loop.for %[[I:.*]] in range(%peel, %[[NTEND]], %{{.*}}) {
// CHECK-NEXT:       %[[E:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<16xf32>
// CHECK-NEXT:       %[[M:.*]] = arith.mulf %{{.*}}, %[[E]] : vector<16xf32>
// CHECK-NEXT:       simd.store %[[M]], %out[%[[I]]] aligned nontemporal : vector<16xf32>, !loop.buf<f32>
// CHECK-NEXT:     }
// CHECK:          %[[FENCES:.*]] = arith.select %stream, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:     loop.for %{{.*}} in [%{{.*}}, %[[FENCES]]) {
// CHECK-NEXT:       simd.store_fence
// CHECK-NEXT:     }
// CHECK:          loop.for %[[J:.*]] in range(%[[NTEND]], %{{.*}}, %{{.*}}) {
// CHECK-NEXT:       simd.load %x[%[[J]]]
// CHECK-NEXT:       arith.mulf
// CHECK-NEXT:       simd.store %{{.*}}, %out[%[[J]]] : vector<16xf32>, !loop.buf<f32>
// CHECK-NEXT:     }

// NEON-LABEL:   func.func @scale
// NEON-NOT:       simd.align_offset
// NEON-NOT:       nontemporal
// NEON-NOT:       simd.store_fence
// NEON:           func.return

// A loop that also reads its output, a loop with two outputs and a reduction do not stream.

func.func @in_place(%x: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %x[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK-LABEL:  func.func @in_place
// CHECK-NOT:      nontemporal
// CHECK:          func.return

func.func @two_outputs(%x: !loop.buf<f32>, %o1: !loop.buf<f32>, %o2: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %o1[%i] : !loop.buf<f32>
    loop.store %e, %o2[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK-LABEL:  func.func @two_outputs
// CHECK-NOT:      nontemporal
// CHECK:          func.return

func.func @total(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %z = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// CHECK-LABEL:  func.func @total
// CHECK-NOT:      simd.store_fence
// CHECK:          func.return
