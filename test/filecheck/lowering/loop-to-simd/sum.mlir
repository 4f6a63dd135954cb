// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=2}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 tail=masked interleave=1}' | filecheck %s --check-prefix=MASKED

// A sum: K = 2 interleaved vector accumulators from the neutral element, combined, a
// remainder loop over single blocks, hreduce, the init, then the scalar epilogue.

func.func @sum(%b: !loop.buf<f32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %init : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// CHECK-LABEL: func.func @sum
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[Z:.*]] = simd.broadcast %[[ZERO]] : f32 -> vector<8xf32>
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[R0:.*]], %[[R1:.*]] = loop.for %[[I:.*]] in range(%c0, %[[END16:.*]], %{{.*}}) accs(%[[A0:.*]] = %[[Z]] : vector<8xf32> add reassoc, %[[A1:.*]] = %[[Z]] : vector<8xf32> add reassoc) {
// CHECK-NEXT:      %[[X0:.*]] = simd.load %b[%[[I]]] : !loop.buf<f32> -> vector<8xf32>
// CHECK-NEXT:      %[[T0:.*]] = arith.addf %[[A0]], %[[X0]] : vector<8xf32>
// CHECK-NEXT:      %[[I8:.*]] = arith.addi %[[I]], %[[C8]] : index
// CHECK-NEXT:      %[[X1:.*]] = simd.load %b[%[[I8]]] : !loop.buf<f32> -> vector<8xf32>
// CHECK-NEXT:      %[[T1:.*]] = arith.addf %[[A1]], %[[X1]] : vector<8xf32>
// CHECK-NEXT:      loop.yield %[[T0]], %[[T1]] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = arith.addf %[[R0]], %[[R1]] : vector<8xf32>
// CHECK:         %[[V:.*]] = loop.for %{{.*}} in range(%[[END16]], %[[END8:.*]], %{{.*}}) accs(%{{.*}} = %[[C]] : vector<8xf32> add reassoc) {
// CHECK:           simd.load
// CHECK:         }
// CHECK-NEXT:    %[[H:.*]] = simd.hreduce <add> %[[V]] : vector<8xf32> -> f32
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %init, %[[H]] : f32
// CHECK-NEXT:    %[[S:.*]] = loop.for %[[J:.*]] in [%[[END8]], %n) accs(%[[ACC:.*]] = %[[S0]] : f32 add reassoc) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %b[%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32

// On AVX-512 with tail=masked the leftover iterations are one masked block: a loop.for
// stepping a whole block from the end of the full blocks (it runs once iff any are left),
// a prefix mask of the remaining count, a masked load and a select keeping the
// accumulator's inactive lanes; no scalar epilogue.

// MASKED-LABEL: func.func @sum
// MASKED:         %[[MAIN:.*]] = loop.for %{{.*}} in range(%c0, %[[END:.*]], %[[C16:.*]]) accs(%{{.*}} : vector<16xf32> add reassoc) {
// MASKED:         }
// MASKED:         %[[REST:.*]] = arith.subi %trips, %{{.*}} : index
// MASKED-NEXT:    %[[MASK:.*]] = simd.prefix_mask %[[REST]] : vector<16xi1>
// MASKED:         %[[TAIL:.*]] = loop.for %[[I:.*]] in range(%[[END]], %n, %{{.*}}) accs(%[[A:.*]] = %[[MAIN]] : vector<16xf32> add reassoc) {
// MASKED-NEXT:      %[[X:.*]] = simd.masked_load %b[%[[I]]], %[[MASK]], %{{.*}} : !loop.buf<f32>, vector<16xi1> -> vector<16xf32>
// MASKED-NEXT:      %[[T:.*]] = arith.addf %[[A]], %[[X]] : vector<16xf32>
// MASKED-NEXT:      %[[K:.*]] = simd.select %[[MASK]], %[[T]], %[[A]] : vector<16xi1>, vector<16xf32>
// MASKED-NEXT:      loop.yield %[[K]] : vector<16xf32>
// MASKED-NEXT:    }
// MASKED-NEXT:    %[[H:.*]] = simd.hreduce <add> %[[TAIL]] : vector<16xf32> -> f32
// MASKED-NEXT:    %[[S:.*]] = arith.addf %init, %[[H]] : f32
// MASKED-NEXT:    func.return %[[S]] : f32
