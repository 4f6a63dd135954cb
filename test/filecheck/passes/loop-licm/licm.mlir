// RUN: loop-opt %s -p loop-licm --split-input-file | filecheck %s
// RUN: loop-opt %s -p 'loop-licm{speculate_loads=true}' --split-input-file | filecheck %s --check-prefix=SPEC

// Invariant arithmetic leaves the loop; the invariant load stays unless the loop is known
// to run (it might read past an empty buffer) or speculate_loads=true.
// CHECK-LABEL: func.func @scale
// CHECK:         %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[S:.*]] = loop.load %{{.*}}[0] : !loop.buf<f32>
// CHECK-NEXT:      %[[K:.*]] = arith.mulf %[[S]], %[[TWO]] : f32
// SPEC-LABEL: func.func @scale
// SPEC:          %[[S:.*]] = loop.load %{{.*}}[0] : !loop.buf<f32>
// SPEC-NEXT:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// SPEC-NEXT:     %[[K:.*]] = arith.mulf %[[S]], %[[TWO]] : f32
// SPEC-NEXT:     loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// SPEC-NEXT:       %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// SPEC-NEXT:       %[[Y:.*]] = arith.mulf %[[X]], %[[K]] : f32
func.func @scale(%a: !loop.buf<f32>, %scale: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %s = loop.load %scale[0] : !loop.buf<f32>
    %two = arith.constant 2.0 : f32
    %k = arith.mulf %s, %two : f32
    %x = loop.load %a[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %k : f32
    loop.store %y, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// A constant trip count >= 1: the invariant load and what uses it are hoisted.
// CHECK-LABEL: func.func @known_trip
// CHECK:         %[[S:.*]] = loop.load %{{.*}}[0] : !loop.buf<i32>
// CHECK-NEXT:    %[[K:.*]] = arith.muli %[[S]], %[[S]] : i32
// CHECK-NEXT:    loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      loop.store %[[K]], %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:    }
func.func @known_trip(%scale: !loop.buf<i32>, %out: !loop.buf<i32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  loop.for %i in [%c0, %c8) {
    %s = loop.load %scale[0] : !loop.buf<i32>
    %k = arith.muli %s, %s : i32
    loop.store %k, %out[%i] : !loop.buf<i32>
  }
  func.return
}

// -----

// A load of a buffer the loop stores to depends on the loop: not hoisted, even with
// speculate_loads=true (it reads what the previous iteration wrote).
// CHECK-LABEL: func.func @store_in_loop
// CHECK:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[S:.*]] = loop.load %[[B:.*]][0] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S]], %{{.*}} : f32
// CHECK-NEXT:      loop.store %[[T]], %[[B]][0] : !loop.buf<f32>
// SPEC-LABEL: func.func @store_in_loop
// SPEC:          loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// SPEC-NEXT:       %[[S:.*]] = loop.load %[[B:.*]][0] : !loop.buf<f32>
func.func @store_in_loop(%b: !loop.buf<f32>, %n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %s = loop.load %b[0] : !loop.buf<f32>
    %t = arith.addf %s, %x : f32
    loop.store %t, %b[0] : !loop.buf<f32>
  }
  func.return
}

// -----

// Provably in bounds: a[i] with i in [0, dim(a, 0)) leaves the inner j loop; the
// product with the j-dependent load stays. The outer-invariant constant leaves both.
// CHECK-LABEL: func.func @in_bounds
// CHECK:         %[[Z:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[A:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[AZ:.*]] = arith.mulf %[[A]], %[[Z]] : f32
// CHECK-NEXT:      loop.for %[[J:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:        %[[B:.*]] = loop.load %{{.*}}[%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[AZ]], %[[B]] : f32
// CHECK-NEXT:        loop.store %[[P]], %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
func.func @in_bounds(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %o: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %m = loop.dim %b, 0 : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    loop.for %j in [%c0, %m) {
      %x = loop.load %a[%i] : !loop.buf<f32>
      %three = arith.constant 3.0 : f32
      %ax = arith.mulf %x, %three : f32
      %y = loop.load %b[%j] : !loop.buf<f32>
      %p = arith.mulf %ax, %y : f32
      loop.store %p, %o[%i, %j] : !loop.buf<f32, 2>
    }
  }
  func.return
}

// -----

// Division is total in loopopt (x / 0 = 0), so a division by a value that may be zero
// hoists like a division by a constant. Accumulator updates depend on the loop.
// CHECK-LABEL: func.func @division_and_acc
// CHECK:         %[[D:.*]] = arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %{{.*}}, %[[C2:.*]] : i32
// CHECK-NEXT:    %{{.*}} = loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %{{.*}} : i32 add) {
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[D]] : i32
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[S]], %[[Q]] : i32
// CHECK-NEXT:      loop.yield %[[T]] : i32
func.func @division_and_acc(%x: i32, %y: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : i32
  %z = arith.constant 0 : i32
  %r = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %d = arith.divsi %x, %y : i32
    %q = arith.divsi %x, %c2 : i32
    %s = arith.addi %acc, %d : i32
    %t = arith.addi %s, %q : i32
    loop.yield %t : i32
  }
  func.return %r : i32
}

// -----

// Vecloop bodies too: the invariant value becomes a uniform operand.
// CHECK-LABEL: func.func @vecloop
// CHECK:         %[[K:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    loop.vecloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = arith.addf %[[X]], %[[K]] : f32
func.func @vecloop(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index, %u: f32, %v: f32) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %k = arith.mulf %u, %v : f32
    %x = loop.load %a[%i] : !loop.buf<f32>
    %y = arith.addf %x, %k : f32
    loop.store %y, %out[%i] : !loop.buf<f32>
  }
  func.return
}
