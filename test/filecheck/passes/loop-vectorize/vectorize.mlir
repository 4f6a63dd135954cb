// RUN: loop-opt %s -p loop-vectorize --split-input-file | filecheck %s
// RUN: loop-opt %s -p 'loop-vectorize{width=8}' --split-input-file | filecheck %s --check-prefix=W8

// A reassoc float sum with a map: the loop becomes a vecloop of symbolic width with a scalar
// tail; header, accumulator and body are unchanged (the body is lane-wise; the vector
// accumulator's neutral start and horizontal combine are the vecloop's semantics).
// CHECK-LABEL: func.func @map_sum
// W8-LABEL: func.func @map_sum
func.func @map_sum(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %init: f32, %k: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = math.fma %x, %k, %x : f32
    loop.store %y, %o[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %y : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK:         %[[S:.*]] = loop.vecloop %[[I:.*]] in [%[[C0:.*]], %[[N:.*]]) width(W) tail(scalar) accs(%[[ACC:.*]] = %[[INIT:.*]] : f32 add reassoc) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[B:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = math.fma %[[X]], %[[K:.*]], %[[X]] : f32
// CHECK-NEXT:      loop.store %[[Y]], %[[O:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[Y]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32
// W8:            loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(8) tail(scalar) accs(

// -----

// Integer reductions of every kind, horizontally fused on one loop; a uniform load (a
// broadcast) and the loop variable as a value (lane indices) are fine.
// CHECK-LABEL: func.func @int_kinds
func.func @int_kinds(%b: !loop.buf<i32>, %z: i32, %one: i32, %ones: i32, %lo: i32, %hi: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %r:6 = loop.for %i in [%c0, %n) accs(%a = %z : i32 add, %m = %one : i32 mul, %lo_acc = %hi : i32 min, %hi_acc = %lo : i32 max, %an = %ones : i32 and, %or = %z : i32 or) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %first = loop.load %b[0] : !loop.buf<i32>
    %k = arith.index_cast %i : index to i32
    %d = arith.subi %x, %first : i32
    %e = arith.addi %d, %k : i32
    %a2 = arith.addi %a, %e : i32
    %m2 = arith.muli %m, %x : i32
    %l2 = arith.minsi %lo_acc, %x : i32
    %h2 = arith.maxsi %hi_acc, %x : i32
    %n2 = arith.andi %an, %x : i32
    %o2 = arith.ori %or, %x : i32
    loop.yield %a2, %m2, %l2, %h2, %n2, %o2 : i32, i32, i32, i32, i32, i32
  }
  func.return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : i32, i32, i32, i32, i32, i32
}
// CHECK:         loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(W) tail(scalar) accs(%{{.*}} = %{{.*}} : i32 add, %{{.*}} = %{{.*}} : i32 mul, %{{.*}} = %{{.*}} : i32 min, %{{.*}} = %{{.*}} : i32 max, %{{.*}} = %{{.*}} : i32 and, %{{.*}} = %{{.*}} : i32 or) {

// -----

// Float min/max need no reassoc (every order gives the same value); a range_desc loop with
// constant step 1 is contiguous.
// CHECK-LABEL: func.func @float_minmax
func.func @float_minmax(%b: !loop.buf<f64>, %lo: f64, %hi: f64, %start: index) -> (f64, f64) {
  %c1 = arith.constant 1 : index
  %n = loop.dim %b, 0 : !loop.buf<f64>
  %r:2 = loop.for %i in range(%start, %n, %c1) accs(%mn = %hi : f64 min, %mx = %lo : f64 max) {
    %x = loop.load %b[%i] : !loop.buf<f64>
    %a = arith.minimumf %mn, %x : f64
    %c = arith.maximumf %mx, %x : f64
    loop.yield %a, %c : f64, f64
  }
  func.return %r#0, %r#1 : f64, f64
}
// CHECK:         loop.vecloop %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) width(W) tail(scalar) accs(%{{.*}} = %{{.*}} : f64 min, %{{.*}} = %{{.*}} : f64 max) {

// -----

// A zip becomes a vecloop whose body loads each stream at the loop variable.
// CHECK-LABEL: func.func @zip
// W8-LABEL: func.func @zip
func.func @zip(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %s = loop.zip %i in [%c0, %n) streams(%x = %a : !loop.buf<f32>, %y = %b : !loop.buf<f32>) accs(%acc = %z : f32 add reassoc) {
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK:         %[[S:.*]] = loop.vecloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) accs(%[[ACC:.*]] = %{{.*}} : f32 add reassoc) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[A:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = loop.load %[[B:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32
// W8:            loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(8) tail(scalar) accs(

// -----

// A filter (a width-1 predloop) becomes a predloop of width W: pred and body unchanged, the
// mask form still unset.
// CHECK-LABEL: func.func @filter_map_sum
// W8-LABEL: func.func @filter_map_sum
func.func @filter_map_sum(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %cnt, %s = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(unset) accs(%a = %z : f32 max) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %x : f32
    loop.append %y, %o : !loop.buf<f32>
    %t = arith.maximumf %a, %y : f32
    loop.yield %t : f32
  }
  func.return %cnt, %s : index, f32
}
// CHECK:         %[[CNT:.*]], %[[S:.*]] = loop.predloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) mask(unset) accs(%[[A:.*]] = %[[Z:.*]] : f32 max) pred {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[B:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf ogt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      loop.yield %[[P]] : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[X2:.*]] = loop.load %[[B]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X2]], %[[X2]] : f32
// CHECK-NEXT:      loop.append %[[Y]], %{{.*}} : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.maximumf %[[A]], %[[Y]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[CNT]], %[[S]] : index, f32
// W8:            loop.predloop %{{.*}} in [%{{.*}}, %{{.*}}) width(8) tail(scalar) mask(unset)

// -----

// A rank-2 row reduction: only the inner accumulator loop is vectorized, the row loop
// stays a loop.for. An in-place update (load and store at the same index) is no dependence.
// CHECK-LABEL: func.func @row_sums
func.func @row_sums(%m: !loop.buf<f32, 2>, %o: !loop.buf<f32>, %z: f32) {
  %c0 = arith.constant 0 : index
  %r = loop.dim %m, 0 : !loop.buf<f32, 2>
  %c = loop.dim %m, 1 : !loop.buf<f32, 2>
  loop.for %i in [%c0, %r) {
    %s = loop.for %j in [%c0, %c) accs(%a = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %x2 = arith.mulf %x, %x : f32
      loop.store %x2, %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %a, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %o[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[S:.*]] = loop.vecloop %[[J:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) accs(%{{.*}} = %{{.*}} : f32 add reassoc) {
// CHECK-NEXT:        %{{.*}} = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
// CHECK:           }
// CHECK-NEXT:      loop.store %[[S]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
