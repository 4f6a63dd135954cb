// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 fallback=true remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=avx2}' 2>&1 | filecheck %s

// A compaction of a part vector has no form (f32 kept by an f64 test): the loop stays scalar
// under fallback, with the reason.

func.func @keep_big_squares(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %t: f64) -> index {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %k = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) pred {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %d = arith.extf %e : f32 to f64
    %s = arith.mulf %d, %d : f64
    %c = arith.cmpf ogt, %s, %t : f64
    loop.yield %c : i1
  } body {
    %e = loop.load %x[%i] : !loop.buf<f32>
    loop.append %e, %out : !loop.buf<f32>
  }
  func.return %k : index
}

// CHECK: mixed_widths_append.mlir:{{[0-9]+}}:5: {{.*}}loop.append of f32 in a loop of 64-bit lanes: compaction has no form for a vector that fills part of a register
