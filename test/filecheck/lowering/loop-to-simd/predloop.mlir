// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1}' | filecheck %s --check-prefixes=CHECK,AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | filecheck %s --check-prefixes=CHECK,AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512}' | filecheck %s --check-prefix=K4
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar}' | filecheck %s --check-prefix=SCALAR

// filter -> map with a sum of the kept values: the predicate becomes a mask (simd.cmp),
// the append a compress-store at the running cursor (its count advances the cursor), the
// accumulator `acc + select(mask, y, 0.0)` (only the add is loop-carried; the lanes start at
// +0.0 and so never hold -0.0, the one value adding +0.0 would change). The body reuses
// the vector the pred region loaded. The main loop
// stores whole vectors at the cursor (`full`) while a vector past it is inside %out: its
// blocks end at min(whole blocks of the trips, whole blocks of dim(%out)). The rest runs
// one block per iteration with exact compress-stores, the lanes past the end masked off.

func.func @scale_positive(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32, %z: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %z : f32 add reassoc) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %y = arith.mulf %a, %e : f32
    loop.append %y, %out : !loop.buf<f32>
    %t = arith.addf %acc, %y : f32
    loop.yield %t : f32
  }
  func.return %cnt, %s : index, f32
}

// CHECK-LABEL:  func.func @scale_positive
// the lanes' start and the select's neutral element are one vector (built once)
// CHECK:          %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:     %[[NEUTRAL:.*]] = simd.broadcast %[[ZERO]] : f32 -> vector<[[W:[0-9]+]]xf32>
// CHECK-NOT:      arith.constant -0.000000e+00
// CHECK:          %[[LEN:.*]] = loop.dim %out, 0 : !loop.buf<f32>
// A C caller's negative capacity holds nothing: clamped at 0 before the loops split at it.
// CHECK:          %[[CAP:.*]] = arith.maxsi %[[LEN]], %{{.*}} : index
// CHECK:          %[[CAPREM:.*]] = arith.remsi %[[CAP]], %{{.*}} : index
// CHECK-NEXT:     %[[CAPFULL:.*]] = arith.subi %[[CAP]], %[[CAPREM]] : index
// CHECK-NEXT:     %[[END:.*]] = arith.minsi %{{.*}}, %[[CAPFULL]] : index
// CHECK-NOT:      arith.addi %c0
// AVX512:         %[[MAIN:.*]], %[[CUR:.*]] = loop.for %[[I:.*]] in range(%c0, %[[END]], %{{.*}}) accs(%[[A:.*]] = %[[NEUTRAL]] : vector<16xf32> add reassoc, %[[C:.*]] = %{{.*}} : index add) attributes {loop.mask_form = #loop.mask_form<avx512_mask>} {
// AVX2:           %[[MAIN:.*]], %[[CUR:.*]] = loop.for %[[I:.*]] in range(%c0, %[[END]], %{{.*}}) accs(%[[A:.*]] = %[[NEUTRAL]] : vector<8xf32> add reassoc, %[[C:.*]] = %{{.*}} : index add) attributes {loop.mask_form = #loop.mask_form<select_blend>} {
// CHECK-NEXT:       %[[E:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<[[W]]xf32>
// CHECK-NEXT:       %[[MASK:.*]] = simd.cmp <ogt> %[[E]], %{{.*}} : vector<[[W]]xf32> -> vector<[[W]]xi1>
// CHECK-NEXT:       %[[Y:.*]] = arith.mulf %{{.*}}, %[[E]] : vector<[[W]]xf32>
// CHECK-NEXT:       %[[K:.*]] = simd.compress_store %[[Y]], %[[MASK]], %out[%[[C]]] full{{( \{simd.compress_in_register\})?}} : vector<[[W]]xf32>, vector<[[W]]xi1>, !loop.buf<f32>
// CHECK-NEXT:       %[[SEL:.*]] = simd.select %[[MASK]], %[[Y]], %[[NEUTRAL]] : vector<[[W]]xi1>, vector<[[W]]xf32>
// CHECK-NEXT:       %[[T:.*]] = arith.addf %[[A]], %[[SEL]] : vector<[[W]]xf32>
// CHECK-NEXT:       %[[C2:.*]] = arith.addi %[[C]], %[[K]] : index
// CHECK-NEXT:       loop.yield %[[T]], %[[C2]] : vector<[[W]]xf32>, index
// CHECK-NEXT:     }
// CHECK:          %[[TAIL:.*]], %cnt = loop.for %[[J:.*]] in range(%[[END]], %n, %{{.*}}) accs(%[[TA:.*]] = %[[MAIN]] : vector<[[W]]xf32> add reassoc, %[[TC:.*]] = %[[CUR]] : index add)
// CHECK-NEXT:       %[[DONE:.*]] = arith.subi %[[J]], %c0 : index
// CHECK-NEXT:       %[[LEFT:.*]] = arith.subi %trips, %[[DONE]] : index
// CHECK-NEXT:       %[[PM:.*]] = simd.prefix_mask %[[LEFT]] : vector<[[W]]xi1>
// CHECK-NEXT:       %[[TE:.*]] = simd.masked_load %x[%[[J]]], %[[PM]], %{{.*}} : !loop.buf<f32>, vector<[[W]]xi1> -> vector<[[W]]xf32>
// CHECK-NEXT:       %[[TP:.*]] = simd.cmp <ogt> %[[TE]], %{{.*}}
// CHECK-NEXT:       %[[TM:.*]] = arith.andi %[[TP]], %[[PM]] : vector<[[W]]xi1>
// the exact tail writes at most the room left at the cursor, max(max(len, 0) - cursor, 0):
// a caller's capacity below the count is never written past
// CHECK:            %[[TL:.*]] = arith.subi %[[ROOM0:.*]], %[[TC]] : index
// CHECK-NEXT:       %[[TLIM:.*]] = arith.maxsi %[[TL]], %{{.*}} : index
// CHECK-NEXT:       simd.compress_store %{{.*}}, %[[TM]], %out[%[[TC]]] limit %[[TLIM]]{{( \{simd.compress_in_register\})?}} : vector<[[W]]xf32>, vector<[[W]]xi1>, !loop.buf<f32>
// CHECK:          }
// CHECK-NEXT:     %[[H:.*]] = simd.hreduce <add> %[[TAIL]] : vector<[[W]]xf32> -> f32
// CHECK-NEXT:     %[[S:.*]] = arith.addf %z, %[[H]] : f32
// CHECK-NEXT:     func.return %cnt, %[[S]] : index, f32

// K4-LABEL:     func.func @scale_positive
// K4:             loop.for %{{.*}} accs(%{{.*}} : vector<16xf32> add reassoc, %{{.*}} : vector<16xf32> add reassoc, %{{.*}} : vector<16xf32> add reassoc, %{{.*}} : vector<16xf32> add reassoc, %[[C0:.*]] = %{{.*}} : index add)
// K4:             %[[N1:.*]] = simd.compress_store %{{.*}}, %{{.*}}, %out[%[[C0]]] full
// K4:             %[[C1:.*]] = arith.addi %[[C0]], %[[N1]] : index
// K4:             simd.compress_store %{{.*}}, %{{.*}}, %out[%[[C1]]] full

// The scalar target lowers the predloop at width 1, 4 blocks per iteration (the sum allows
// reassociation): the append stores unconditionally at the cursor (printed `out[k] = v;
// k += c;`), then an exact loop for what the capacity does not cover.
// SCALAR-LABEL: func.func @scale_positive
// SCALAR:         loop.for %{{.*}} in range(%c0, %{{.*}}, %{{.*}}) accs(%{{.*}} = %{{.*}} : vector<1xf32> add reassoc, %{{.*}} = %{{.*}} : vector<1xf32> add reassoc, %{{.*}} = %{{.*}} : vector<1xf32> add reassoc, %{{.*}} = %{{.*}} : vector<1xf32> add reassoc, %[[SC:.*]] = %{{.*}} : index add) attributes {loop.mask_form = #loop.mask_form<branch_per_lane>} {
// SCALAR:           simd.compress_store %{{.*}}, %{{.*}}, %out[%[[SC]]] full : vector<1xf32>, vector<1xi1>, !loop.buf<f32>
// SCALAR:         %[[SEND:.*]] = arith.minsi %trips, %{{.*}} : index
// SCALAR:         loop.for
// SCALAR:         loop.for
// SCALAR:           simd.compress_store %{{.*}}, %{{.*}}, %out[%{{.*}}] limit %{{.*}} : vector<1xf32>, vector<1xi1>, !loop.buf<f32>

// -----

// A filtered sum whose count is unused: no cursor is carried, K = 4 independent accumulators
// on AVX-512, each step `acc + select(mask, x, 0.0)`, combined pairwise after the loop.

func.func @positive_sum(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %zero : f32 add reassoc) pred {
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

// K4-LABEL:     func.func @positive_sum
// K4:             %[[A:.*]], %[[B:.*]], %[[C:.*]], %[[D:.*]] = loop.for %[[I:.*]] in range(%c0, %{{.*}}, %{{.*}}) accs(%[[A0:.*]] = %{{.*}} : vector<16xf32> add reassoc, %[[A1:.*]] = %{{.*}} : vector<16xf32> add reassoc, %[[A2:.*]] = %{{.*}} : vector<16xf32> add reassoc, %[[A3:.*]] = %{{.*}} : vector<16xf32> add reassoc) attributes {loop.mask_form = #loop.mask_form<avx512_mask>} {
// K4-NEXT:          %[[E0:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<16xf32>
// K4-NEXT:          %[[M0:.*]] = simd.cmp <ogt> %[[E0]], %{{.*}} : vector<16xf32> -> vector<16xi1>
// K4-NEXT:          %[[S0:.*]] = simd.select %[[M0]], %[[E0]], %{{.*}} : vector<16xi1>, vector<16xf32>
// K4-NEXT:          %[[T0:.*]] = arith.addf %[[A0]], %[[S0]] : vector<16xf32>
// K4-NEXT:          %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// K4:               %[[T1:.*]] = arith.addf %[[A1]], %{{.*}} : vector<16xf32>
// K4:               %[[T2:.*]] = arith.addf %[[A2]], %{{.*}} : vector<16xf32>
// K4:               %[[T3:.*]] = arith.addf %[[A3]], %{{.*}} : vector<16xf32>
// K4-NEXT:          loop.yield %[[T0]], %[[T1]], %[[T2]], %[[T3]] : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// K4-NEXT:        }
// The remainder blocks and the masked tail keep the four copies apart (each block steps the
// first and rotates it to the back); they are merged once, pairwise, after the last block.
// K4:             %[[R0:.*]], %[[R1:.*]], %[[R2:.*]], %[[R3:.*]] = loop.for %{{.*}} accs(%[[B0:.*]] = %[[A]] : vector<16xf32> add reassoc, %[[B1:.*]] = %[[B]] : vector<16xf32> add reassoc, %[[B2:.*]] = %[[C]] : vector<16xf32> add reassoc, %[[B3:.*]] = %[[D]] : vector<16xf32> add reassoc)
// K4:               %[[U:.*]] = arith.addf %[[B0]], %{{.*}} : vector<16xf32>
// K4-NEXT:          loop.yield %[[B1]], %[[B2]], %[[B3]], %[[U]] : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
// K4:             %[[W0:.*]], %[[W1:.*]], %[[W2:.*]], %[[W3:.*]] = loop.for %{{.*}} accs(%{{.*}} = %[[R0]] : vector<16xf32> add reassoc, %{{.*}} = %[[R1]] : vector<16xf32> add reassoc, %{{.*}} = %[[R2]] : vector<16xf32> add reassoc, %{{.*}} = %[[R3]] : vector<16xf32> add reassoc)
// K4:               simd.masked_load
// K4:             }
// K4-NEXT:        %[[AB:.*]] = arith.addf %[[W0]], %[[W1]] : vector<16xf32>
// K4-NEXT:        %[[CD:.*]] = arith.addf %[[W2]], %[[W3]] : vector<16xf32>
// K4-NEXT:        %[[ALL:.*]] = arith.addf %[[AB]], %[[CD]] : vector<16xf32>
// K4-NOT:         simd.mask_popcount
// K4:             func.return

// -----

// A step that is not `acc <kind> x` (here a contracted x*x + acc) keeps the blend.

func.func @positive_sumsq(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%acc = %zero : f32 add reassoc) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %zero : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = math.fma %e, %e, %acc : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// AVX512-LABEL: func.func @positive_sumsq
// AVX512:         loop.for %{{.*}} accs(%[[A:.*]] = %{{.*}} : vector<16xf32> add reassoc)
// AVX512:           %[[M:.*]] = simd.cmp <ogt>
// AVX512:           %[[F:.*]] = simd.fma %{{.*}}, %{{.*}}, %[[A]] : vector<16xf32>
// AVX512-NEXT:      %[[B:.*]] = simd.select %[[M]], %[[F]], %[[A]] : vector<16xi1>, vector<16xf32>
// AVX512-NEXT:      loop.yield %[[B]] : vector<16xf32>
