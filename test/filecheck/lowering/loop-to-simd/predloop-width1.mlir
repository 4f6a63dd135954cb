// A predloop left at width 1 (loop-vectorize declines a float sum without reassoc).
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2}' | filecheck %s --check-prefix=AVX2
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=scalar interleave=4}' | filecheck %s --check-prefix=SCALAR

// On a vector target it stays the scalar loop it means (no vector ISA has vector<1xT>),
// with the init first and no reassociation.
// AVX2-LABEL: func.func @fsum
// AVX2-NOT:     vector<1x
// AVX2:         loop.predloop %{{.*}} in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(branch_per_lane) accs(%{{.*}} = %init : f32 add)
// AVX2-NOT:     vector<1x

// On the scalar target: one chain from the init in element order (interleave cannot split
// it), each step kept under the mask; the init is not added after the elements.
// SCALAR-LABEL: func.func @fsum
// SCALAR:         %[[INIT:.*]] = simd.broadcast %init : f32 -> vector<1xf32>
// SCALAR:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %[[INIT]] : vector<1xf32> add)
// SCALAR:           %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<1xf32>
// SCALAR-NEXT:      %[[NEXT:.*]] = simd.select %{{.*}}, %[[SUM]], %[[ACC]] : vector<1xi1>, vector<1xf32>
// SCALAR-NEXT:      loop.yield %[[NEXT]] : vector<1xf32>
// SCALAR:         %[[S:.*]] = simd.hreduce <add> %{{.*}} : vector<1xf32> -> f32
// SCALAR-NOT:     arith.addf %init
// SCALAR:         func.return %[[S]] : f32
func.func @fsum(%x: !loop.buf<f32>, %init: f32) -> f32 {
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.000000e+00 : f32
  %cnt, %s = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) accs(%a = %init : f32 add) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %c = arith.cmpf ogt, %e, %z : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %a, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// A predloop over bf16 (or f16) storage on the scalar target stays the branch-per-lane loop:
// the scalar target has no vector<1xbf16> row (it printed one, a located error at print time,
// until the fuzzer found it in session 21). On a vector target it is the same loop.
// SCALAR-LABEL: func.func @keep_bf16
// SCALAR-NOT:     vector<1x
// SCALAR:         loop.predloop %{{.*}} width(1) tail(scalar) mask(branch_per_lane)
// SCALAR-NOT:     vector<1x
// AVX2-LABEL: func.func @keep_bf16
// AVX2:         loop.predloop %{{.*}} width(1) tail(scalar) mask(branch_per_lane)
func.func @keep_bf16(%x: !loop.buf<bf16>, %out: !loop.buf<bf16>) -> index {
  %n = loop.dim %x, 0 : !loop.buf<bf16>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.000000e+00 : f32
  %cnt = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) pred {
    %e = loop.load %x[%i] : !loop.buf<bf16>
    %w = arith.extf %e : bf16 to f32
    %c = arith.cmpf ogt, %w, %z : f32
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<bf16>
    loop.append %e, %out : !loop.buf<bf16>
  }
  func.return %cnt : index
}
