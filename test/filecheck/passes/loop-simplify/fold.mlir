// RUN: loop-opt %s -p loop-simplify --split-input-file | filecheck %s
// RUN: loop-opt %s -p 'loop-simplify{fma=true}' --split-input-file | filecheck %s --check-prefix=FMA

// f32 folds in f32: 2^24 + 1 rounds to 2^24 (0x4B800000), as execution gives.
// CHECK-LABEL: func.func @fold_f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0x4B800000 : f32
// CHECK-NEXT:    func.return %[[C]] : f32
func.func @fold_f32() -> f32 {
  %a = arith.constant 16777216.0 : f32
  %b = arith.constant 1.0 : f32
  %r = arith.addf %a, %b : f32
  func.return %r : f32
}

// -----

// Integers wrap; C division truncates; comparisons and conversions fold; chains fold.
// CHECK-LABEL: func.func @fold_int
// CHECK-NEXT:    %[[W:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %[[P:.*]] = arith.constant true
// CHECK-NEXT:    %[[F:.*]] = arith.constant -3.000000e+00 : f64
// CHECK-NEXT:    func.return %[[W]], %[[D]], %[[P]], %[[F]] : i32, i32, i1, f64
func.func @fold_int() -> (i32, i32, i1, f64) {
  %max = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  %w = arith.addi %max, %one : i32
  %m7 = arith.constant -7 : i32
  %two = arith.constant 2 : i32
  %d = arith.divsi %m7, %two : i32
  %p = arith.cmpi slt, %d, %one : i32
  %f = arith.sitofp %d : i32 to f64
  func.return %w, %d, %p, %f : i32, i32, i1, f64
}

// -----

// Division by zero is defined (docs/integer_semantics.md): it folds to 0.
// CHECK-LABEL: func.func @fold_div_zero
// CHECK-NEXT:    %[[R:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[R]] : i32
func.func @fold_div_zero() -> i32 {
  %a = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %r = arith.divsi %a, %z : i32
  func.return %r : i32
}

// -----

// Float identities that are not IEEE-exact stay: x+0.0 (x = -0.0), x*0.0 (NaN, inf), x-x.
// CHECK-LABEL: func.func @inexact_float
// CHECK:         %[[A:.*]] = arith.addf %x, %[[Z:.*]] : f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %x, %[[Z]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.subf %x, %x : f32
// CHECK-NEXT:    func.return %[[A]], %[[M]], %[[S]] : f32, f32, f32
func.func @inexact_float(%x: f32) -> (f32, f32, f32) {
  %z = arith.constant 0.0 : f32
  %a = arith.addf %x, %z : f32
  %m = arith.mulf %x, %z : f32
  %s = arith.subf %x, %x : f32
  func.return %a, %m, %s : f32, f32, f32
}

// -----

// Inside a loop body: identities, folding and powers; fma only with fma=true.
// CHECK-LABEL: func.func @in_loop
// CHECK:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[SQ]], %[[X]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[P]], %[[S:.*]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[M]], %[[X]] : f32
// CHECK-NEXT:      loop.store %[[R]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// FMA-LABEL: func.func @in_loop
// FMA:           %[[SQ:.*]] = arith.mulf %[[X:.*]], %[[X]] : f32
// FMA-NEXT:      %[[P:.*]] = arith.mulf %[[SQ]], %[[X]] : f32
// FMA-NEXT:      %[[R:.*]] = math.fma %[[P]], %{{.*}}, %[[X]] : f32
// FMA-NEXT:      loop.store %[[R]]
func.func @in_loop(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %h = arith.constant 1.5 : f32
  %two = arith.constant 2.0 : f32
  %s = arith.mulf %h, %two : f32
  %one = arith.constant 1.0 : f32
  %e = arith.constant 3.0 : f32
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %x1 = arith.mulf %x, %one : f32
    %p = math.powf %x1, %e : f32
    %m = arith.mulf %p, %s : f32
    %r = arith.addf %m, %x : f32
    loop.store %r, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// a + b*c and b*c + a contract with fma=true; a product with another use does not.
// CHECK-LABEL: func.func @fma
// CHECK-NOT:     math.fma
// FMA-LABEL: func.func @fma
// FMA-NEXT:      %[[F1:.*]] = math.fma %b, %c, %a : f64
// FMA-NEXT:      %[[F2:.*]] = math.fma %b, %c, %a : f64
// FMA-NEXT:      %[[M:.*]] = arith.mulf %a, %b : f64
// FMA-NEXT:      %[[S:.*]] = arith.addf %c, %[[M]] : f64
// FMA-NEXT:      func.return %[[F1]], %[[F2]], %[[S]], %[[M]] : f64, f64, f64, f64
func.func @fma(%a: f64, %b: f64, %c: f64) -> (f64, f64, f64, f64) {
  %m1 = arith.mulf %b, %c : f64
  %r1 = arith.addf %a, %m1 : f64
  %m2 = arith.mulf %b, %c : f64
  %r2 = arith.addf %m2, %a : f64
  %m3 = arith.mulf %a, %b : f64
  %r3 = arith.addf %c, %m3 : f64
  func.return %r1, %r2, %r3, %m3 : f64, f64, f64, f64
}
