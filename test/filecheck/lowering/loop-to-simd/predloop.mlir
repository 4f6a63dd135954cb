// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512}' | filecheck %s --check-prefixes=CHECK,AVX512
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2}' | filecheck %s --check-prefixes=CHECK,AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar}' | filecheck %s --check-prefix=SCALAR

// filter -> map with a sum of the kept values: the predicate becomes a mask (simd.cmp),
// the append a compress-store at the running cursor (its count advances the cursor), the
// accumulator a select; the last partial block runs masked. MaskForm from the target.

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
// AVX512:         %[[MAIN:.*]], %[[CUR:.*]] = loop.for %[[I:.*]] in range(%c0, %[[END:.*]], %{{.*}}) accs(%[[A:.*]] = %{{.*}} : vector<16xf32> add reassoc, %[[C:.*]] = %{{.*}} : index add) attributes {loop.mask_form = #loop.mask_form<avx512_mask>} {
// AVX2:           %[[MAIN:.*]], %[[CUR:.*]] = loop.for %[[I:.*]] in range(%c0, %[[END:.*]], %{{.*}}) accs(%[[A:.*]] = %{{.*}} : vector<8xf32> add reassoc, %[[C:.*]] = %{{.*}} : index add) attributes {loop.mask_form = #loop.mask_form<select_blend>} {
// CHECK-NEXT:       %[[E:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<[[W:[0-9]+]]xf32>
// CHECK-NEXT:       %[[MASK:.*]] = simd.cmp <ogt> %[[E]], %{{.*}} : vector<[[W]]xf32> -> vector<[[W]]xi1>
// CHECK-NEXT:       %[[E2:.*]] = simd.load %x[%[[I]]] : !loop.buf<f32> -> vector<[[W]]xf32>
// CHECK-NEXT:       %[[Y:.*]] = arith.mulf %{{.*}}, %[[E2]] : vector<[[W]]xf32>
// CHECK-NEXT:       %[[K:.*]] = simd.compress_store %[[Y]], %[[MASK]], %out[%[[C]]] : vector<[[W]]xf32>, vector<[[W]]xi1>, !loop.buf<f32>
// CHECK-NEXT:       %[[T:.*]] = arith.addf %[[A]], %[[Y]] : vector<[[W]]xf32>
// CHECK-NEXT:       %[[SEL:.*]] = simd.select %[[MASK]], %[[T]], %[[A]] : vector<[[W]]xi1>, vector<[[W]]xf32>
// CHECK-NEXT:       %[[C2:.*]] = arith.addi %[[C]], %[[K]] : index
// CHECK-NEXT:       loop.yield %[[SEL]], %[[C2]] : vector<[[W]]xf32>, index
// CHECK-NEXT:     }
// CHECK:          %[[PM:.*]] = simd.prefix_mask %{{.*}} : vector<[[W]]xi1>
// CHECK:          %[[TAIL:.*]], %cnt = loop.for %[[J:.*]] in range(%[[END]], %n, %{{.*}}) accs(%[[TA:.*]] = %[[MAIN]] : vector<[[W]]xf32> add reassoc, %[[TC:.*]] = %[[CUR]] : index add)
// CHECK-NEXT:       %[[TE:.*]] = simd.masked_load %x[%[[J]]], %[[PM]], %{{.*}} : !loop.buf<f32>, vector<[[W]]xi1> -> vector<[[W]]xf32>
// CHECK-NEXT:       %[[TP:.*]] = simd.cmp <ogt> %[[TE]], %{{.*}}
// CHECK-NEXT:       %[[TM:.*]] = arith.andi %[[TP]], %[[PM]] : vector<[[W]]xi1>
// CHECK:            simd.compress_store %{{.*}}, %[[TM]], %out[%[[TC]]]
// CHECK:          }
// CHECK-NEXT:     %[[H:.*]] = simd.hreduce <add> %[[TAIL]] : vector<[[W]]xf32> -> f32
// CHECK-NEXT:     %[[S:.*]] = arith.addf %z, %[[H]] : f32
// CHECK-NEXT:     func.return %cnt, %[[S]] : index, f32

// The scalar target keeps a width-1 predloop that branches per lane (the C printer's `if`).
// SCALAR:       builtin.module attributes {loop.target = "scalar"}
// SCALAR:         %cnt, %s = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(branch_per_lane)
