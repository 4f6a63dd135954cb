// RUN: loop-opt %s -p loop-fuse --split-input-file | filecheck %s

// map -> map through an allocated intermediate: one loop, the value stays in a register,
// the intermediate (alloc, store, dealloc) is gone.
// CHECK-LABEL: func.func @map_map
func.func @map_map(%a: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %x : f32
    loop.store %y, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %tmp[%i] : !loop.buf<f32>
    %z = arith.addf %y, %y : f32
    loop.store %z, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// CHECK:         %[[N:.*]] = loop.dim %[[A:.*]], 0 : !loop.buf<f32>
// CHECK-NEXT:    loop.for %[[I:.*]] in [%{{.*}}, %[[N]]) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[A]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.addf %[[Y]], %[[Y]] : f32
// CHECK-NEXT:      loop.store %[[Z]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// map -> fold: the fused loop carries the fold's accumulator; three loops become one.
// CHECK-LABEL: func.func @map_map_fold
func.func @map_map_fold(%a: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<i32>
  %t1 = loop.alloc(%n) : !loop.buf<i32>
  %t2 = loop.alloc(%n) : !loop.buf<i32>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<i32>
    %y = arith.muli %x, %x : i32
    loop.store %y, %t1[%i] : !loop.buf<i32>
  }
  loop.for %i in [%c0, %n) {
    %y = loop.load %t1[%i] : !loop.buf<i32>
    %w = arith.addi %y, %y : i32
    loop.store %w, %t2[%i] : !loop.buf<i32>
  }
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %w = loop.load %t2[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %w : i32
    loop.yield %t : i32
  }
  loop.dealloc %t1 : !loop.buf<i32>
  loop.dealloc %t2 : !loop.buf<i32>
  func.return %s : i32
}
// CHECK:         %[[S:.*]] = loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %{{.*}} : i32 add) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[Y:.*]] = arith.muli %[[X]], %[[X]] : i32
// CHECK-NEXT:      %[[W:.*]] = arith.addi %[[Y]], %[[Y]] : i32
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[ACC]], %[[W]] : i32
// CHECK-NEXT:      loop.yield %[[T]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : i32

// -----

// Two folds over one input fuse horizontally; the second load of a[i] reuses the first.
// CHECK-LABEL: func.func @two_folds
func.func @two_folds(%a: !loop.buf<f32>, %z: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  %m = loop.for %i in [%c0, %n) accs(%acc = %z : f32 max) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %t = arith.maximumf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s, %m : f32, f32
}
// CHECK:         %[[S:.*]], %[[M:.*]] = loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) accs(%[[A1:.*]] = %[[Z:.*]] : f32 add reassoc, %[[A2:.*]] = %[[Z]] : f32 max) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[A1]], %[[X]] : f32
// CHECK-NEXT:      %[[U:.*]] = arith.maximumf %[[A2]], %[[X]] : f32
// CHECK-NEXT:      loop.yield %[[T]], %[[U]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[M]] : f32, f32

// -----

// elem0: [1, n+1) reading tmp[i - 1] is j in [0, n) reading tmp[j]; a unit-step
// range_desc is an interval. The second variable becomes i + 1; the load is forwarded.
// CHECK-LABEL: func.func @elem0_shift
func.func @elem0_shift(%a: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %n1 = arith.addi %n, %c1 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in range(%c0, %n, %c1) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c1, %n1) {
    %y = loop.load %tmp[%i - 1] : !loop.buf<f32>
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %z = arith.addf %y, %f : f32
    loop.store %z, %out[%i - 1] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// CHECK:         %{{.*}} = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 1 : index
// CHECK-NEXT:    loop.for %[[I:.*]] in range(%{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[I2:.*]] = arith.addi %[[I]], %[[SHIFT]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[I2]] : index to i32
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[K]] : i32 to f32
// CHECK-NEXT:      %[[Z:.*]] = arith.addf %[[X]], %[[F]] : f32
// CHECK-NEXT:      loop.store %[[Z]], %{{.*}}[%[[I2]] - 1] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Two vecloops of one width and tail; an op between them is moved before the fused loop.
// CHECK-LABEL: func.func @vecloops
func.func @vecloops(%a: !loop.buf<f32>, %out: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %tmp = loop.alloc(%n) : !loop.buf<f32>
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %tmp[%i] : !loop.buf<f32>
  }
  %two = arith.constant 2.0 : f32
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %y = loop.load %tmp[%i] : !loop.buf<f32>
    %z = arith.mulf %y, %two : f32
    loop.store %z, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %tmp : !loop.buf<f32>
  func.return
}
// CHECK:         %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    loop.vecloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Z:.*]] = arith.mulf %[[X]], %[[TWO]] : f32
// CHECK-NEXT:      loop.store %[[Z]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// In-place update of the same output (seed 001 §1): both loops write out[i]; the stored
// value is forwarded to the second loop's load, the output keeps both stores.
// CHECK-LABEL: func.func @in_place
func.func @in_place(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %m: f32, %th: f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    %d = arith.divf %v, %m : f32
    loop.store %d, %out[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %o = loop.load %out[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %o, %th : f32
    %r = arith.select %p, %o, %zero : f32
    loop.store %r, %out[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[V:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[D:.*]] = arith.divf %[[V]], %{{.*}} : f32
// CHECK-NEXT:      loop.store %[[D]], %[[OUT:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf ogt, %[[D]], %{{.*}} : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[P]], %[[D]], %{{.*}} : f32
// CHECK-NEXT:      loop.store %[[R]], %[[OUT]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// A map loop feeding a zip (dot product of a map and an input): the zip's streams become
// loads at the variable, and the load of tmp is forwarded.
// CHECK-LABEL: func.func @map_zip
func.func @map_zip(%a: !loop.buf<f64>, %b: !loop.buf<f64>, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f64>
  %tmp = loop.alloc(%n) : !loop.buf<f64>
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f64>
    %y = arith.negf %x : f64
    loop.store %y, %tmp[%i] : !loop.buf<f64>
  }
  %s = loop.zip %i in [%c0, %n) streams(%t = %tmp : !loop.buf<f64>, %v = %b : !loop.buf<f64>) accs(%acc = %z : f64 add) {
    %p = arith.mulf %t, %v : f64
    %r = arith.addf %acc, %p : f64
    loop.yield %r : f64
  }
  loop.dealloc %tmp : !loop.buf<f64>
  func.return %s : f64
}
// CHECK:         %[[S:.*]] = loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %{{.*}} : f64 add) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      %[[Y:.*]] = arith.negf %[[X]] : f64
// CHECK-NEXT:      %[[V:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[Y]], %[[V]] : f64
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[ACC]], %[[P]] : f64
// CHECK-NEXT:      loop.yield %[[R]] : f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f64
