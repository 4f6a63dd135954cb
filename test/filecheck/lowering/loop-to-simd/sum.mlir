// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=2}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 tail=masked interleave=1}' | filecheck %s --check-prefix=MASKED
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 tail=masked interleave=4}' | filecheck %s --check-prefix=MASKED4

// A sum: K = 2 interleaved vector accumulators from the neutral element; a remainder loop
// over single blocks that keeps the K accumulators apart (each block steps the first and
// rotates it to the back, so the < K remainder blocks never wait on each other); the K
// merged once, pairwise; hreduce, the init, then the scalar epilogue.

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
// CHECK:         %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
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
// CHECK:         %[[V0:.*]], %[[V1:.*]] = loop.for %{{.*}} in range(%[[END16]], %[[END8:.*]], %{{.*}}) accs(%[[B0:.*]] = %[[R0]] : vector<8xf32> add reassoc, %[[B1:.*]] = %[[R1]] : vector<8xf32> add reassoc) {
// CHECK-NEXT:      %[[X2:.*]] = simd.load %b[%{{.*}}] : !loop.buf<f32> -> vector<8xf32>
// CHECK-NEXT:      %[[T2:.*]] = arith.addf %[[B0]], %[[X2]] : vector<8xf32>
// CHECK-NEXT:      loop.yield %[[B1]], %[[T2]] : vector<8xf32>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[V:.*]] = arith.addf %[[V0]], %[[V1]] : vector<8xf32>
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

// With K = 4 the remainder loop carries all four accumulators (rotating), the masked block
// steps the first (which no remainder block reached: there are fewer than K of them), and
// the four are merged once, pairwise, after it.

// MASKED4-LABEL: func.func @sum
// MASKED4:         %[[M0:.*]], %[[M1:.*]], %[[M2:.*]], %[[M3:.*]] = loop.for %{{.*}} in range(%c0, %[[END64:.*]], %{{.*}}) accs(
// MASKED4:         %[[R0:.*]], %[[R1:.*]], %[[R2:.*]], %[[R3:.*]] = loop.for %{{.*}} in range(%[[END64]], %[[END16:.*]], %{{.*}}) accs(%[[A0:.*]] = %[[M0]] : vector<16xf32> add reassoc, %[[A1:.*]] = %[[M1]] : vector<16xf32> add reassoc, %[[A2:.*]] = %[[M2]] : vector<16xf32> add reassoc, %[[A3:.*]] = %[[M3]] : vector<16xf32> add reassoc) {
// MASKED4-NEXT:      %[[X:.*]] = simd.load
// MASKED4-NEXT:      %[[T:.*]] = arith.addf %[[A0]], %[[X]] : vector<16xf32>
// MASKED4-NEXT:      loop.yield %[[A1]], %[[A2]], %[[A3]], %[[T]] : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// MASKED4-NEXT:    }
// MASKED4:         %[[MASK:.*]] = simd.prefix_mask
// MASKED4:         %[[TAIL:.*]] = loop.for %{{.*}} in range(%[[END16]], %n, %{{.*}}) accs(%{{.*}} = %[[R0]] : vector<16xf32> add reassoc) {
// MASKED4:           simd.masked_load
// MASKED4:         }
// MASKED4-NEXT:    %[[P0:.*]] = arith.addf %[[TAIL]], %[[R1]] : vector<16xf32>
// MASKED4-NEXT:    %[[P1:.*]] = arith.addf %[[R2]], %[[R3]] : vector<16xf32>
// MASKED4-NEXT:    %[[ALL:.*]] = arith.addf %[[P0]], %[[P1]] : vector<16xf32>
// MASKED4-NEXT:    %[[H:.*]] = simd.hreduce <add> %[[ALL]] : vector<16xf32> -> f32
// MASKED4-NEXT:    %[[S:.*]] = arith.addf %init, %[[H]] : f32
// MASKED4-NEXT:    func.return %[[S]] : f32
