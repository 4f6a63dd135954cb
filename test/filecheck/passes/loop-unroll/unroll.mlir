// RUN: loop-opt %s -p 'loop-unroll{factor=4 full_threshold=4}' --split-input-file | filecheck %s

// Runtime bounds, factor 4: a range_desc main loop with four body copies at %i, %i + 1, ...
// (affine offsets; a non-access use of the variable gets an arith.addi), the accumulator
// threaded through the copies, then a remainder loop for the last n mod 4. From a constant 0
// the trip count is n itself (no `n - 0`).
// CHECK-LABEL: func.func @sum
func.func @sum(%b: !loop.buf<i64>, %z: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<i64>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i64 add) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %k = arith.index_cast %i : index to i64
    %p = arith.muli %x, %k : i64
    %t = arith.addi %acc, %p : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}
// CHECK:         %[[N:.*]] = loop.dim %[[B:.*]], 0 : !loop.buf<i64>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remsi %[[N]], %[[C4]] : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[N]], %[[REM]] : index
// CHECK-NEXT:    %[[M:.*]] = loop.for %[[I:.*]] in range(%c0, %[[SPLIT]], %[[C4]]) accs(%[[A:.*]] = %[[Z:.*]] : i64 add) {
// CHECK-NEXT:      %[[X0:.*]] = loop.load %[[B]][%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      %[[K0:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[P0:.*]] = arith.muli %[[X0]], %[[K0]] : i64
// CHECK-NEXT:      %[[T0:.*]] = arith.addi %[[A]], %[[P0]] : i64
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT:      %[[X1:.*]] = loop.load %[[B]][%[[I]] + 1] : !loop.buf<i64>
// CHECK-NEXT:      %[[K1:.*]] = arith.index_cast %[[I1]] : index to i64
// CHECK-NEXT:      %[[P1:.*]] = arith.muli %[[X1]], %[[K1]] : i64
// CHECK-NEXT:      %[[T1:.*]] = arith.addi %[[T0]], %[[P1]] : i64
// CHECK:           %{{.*}} = loop.load %[[B]][%[[I]] + 2] : !loop.buf<i64>
// CHECK:           %{{.*}} = loop.load %[[B]][%[[I]] + 3] : !loop.buf<i64>
// CHECK:           %[[T3:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:      loop.yield %[[T3]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = loop.for %[[J:.*]] in [%[[SPLIT]], %[[N]]) accs(%[[A2:.*]] = %[[M]] : i64 add) {
// CHECK-NEXT:      %{{.*}} = loop.load %[[B]][%[[J]]] : !loop.buf<i64>
// CHECK:         func.return %[[R]] : i64

// -----

// Constant bounds above the full threshold: 10 iterations = two unrolled iterations of 4
// plus a remainder [8, 10); with 12 iterations there is no remainder.
// CHECK-LABEL: func.func @constant_trips
func.func @constant_trips(%b: !loop.buf<f32>, %o: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  loop.for %i in [%c0, %c10) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %c12) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    loop.for %[[I:.*]] in range(%{{.*}}, %[[SPLIT]], %[[C4]]) {
// CHECK-NEXT:      %[[X0:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[X0]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[X1:.*]] = loop.load %{{.*}}[%[[I]] + 1] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[X1]], %{{.*}}[%[[I]] + 1] : !loop.buf<f32>
// CHECK-NEXT:      %[[X2:.*]] = loop.load %{{.*}}[%[[I]] + 2] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[X2]], %{{.*}}[%[[I]] + 2] : !loop.buf<f32>
// CHECK-NEXT:      %[[X3:.*]] = loop.load %{{.*}}[%[[I]] + 3] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[X3]], %{{.*}}[%[[I]] + 3] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.for %{{.*}} in [%[[SPLIT]], %{{.*}}) {
// CHECK:         %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[END:.*]] = arith.constant 12 : index
// CHECK-NEXT:    loop.for %[[I2:.*]] in range(%{{.*}}, %[[END]], %[[C4B]]) {
// CHECK:           loop.store %{{.*}}, %{{.*}}[%[[I2]] + 3] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Full unrolling (3 iterations <= threshold 4): no loop, constant indices, the accumulator
// threaded from the init to the last copy.
// CHECK-LABEL: func.func @full
func.func @full(%b: !loop.buf<i32>, %z: i32) -> i32 {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = loop.for %i in [%c1, %c4) accs(%acc = %z : i32 max) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.maxsi %acc, %x : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}
// CHECK:         %[[X1:.*]] = loop.load %[[B:.*]][1] : !loop.buf<i32>
// CHECK-NEXT:    %[[T1:.*]] = arith.maxsi %[[Z:.*]], %[[X1]] : i32
// CHECK-NEXT:    %[[X2:.*]] = loop.load %[[B]][2] : !loop.buf<i32>
// CHECK-NEXT:    %[[T2:.*]] = arith.maxsi %[[T1]], %[[X2]] : i32
// CHECK-NEXT:    %[[X3:.*]] = loop.load %[[B]][3] : !loop.buf<i32>
// CHECK-NEXT:    %[[T3:.*]] = arith.maxsi %[[T2]], %[[X3]] : i32
// CHECK-NEXT:    func.return %[[T3]] : i32

// -----

// An empty constant loop disappears, its results are its inits; a fully unrolled inner loop
// makes its parent innermost, which is then fully unrolled too (2 x 2 constant nest).
// CHECK-LABEL: func.func @empty_and_nest
func.func @empty_and_nest(%m: !loop.buf<f64, 2>, %o: !loop.buf<f64>, %z: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = loop.for %i in [%c2, %c0) accs(%acc = %z : f64 add) {
    %t = arith.addf %acc, %acc : f64
    loop.yield %t : f64
  }
  loop.for %i in [%c0, %c2) {
    %s = loop.for %j in [%c0, %c2) accs(%acc = %z : f64 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f64, 2>
      %t = arith.addf %acc, %x : f64
      loop.yield %t : f64
    }
    loop.store %s, %o[%i] : !loop.buf<f64>
  }
  func.return %e : f64
}
// CHECK-NOT:     loop.for
// CHECK:         %[[X00:.*]] = loop.load %[[M:.*]][0, 0] : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[Z:.*]], %[[X00]] : f64
// CHECK-NEXT:    %[[X01:.*]] = loop.load %[[M]][0, 1] : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %[[X01]] : f64
// CHECK-NEXT:    loop.store %[[S1]], %[[O:.*]][0] : !loop.buf<f64>
// CHECK-NEXT:    %[[X10:.*]] = loop.load %[[M]][1, 0] : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[Z]], %[[X10]] : f64
// CHECK-NEXT:    %[[X11:.*]] = loop.load %[[M]][1, 1] : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[S3:.*]] = arith.addf %[[S2]], %[[X11]] : f64
// CHECK-NEXT:    loop.store %[[S3]], %[[O]][1] : !loop.buf<f64>
// CHECK-NEXT:    func.return %[[Z]] : f64

// -----

// A zip is unrolled with its streams as explicit loads; range_desc loops, vector loops and
// loops with nested loops are not unrolled.
// CHECK-LABEL: func.func @zip_and_others
func.func @zip_and_others(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  loop.zip %i in [%c0, %n) streams(%x = %a : !loop.buf<f32>, %y = %b : !loop.buf<f32>) {
    %p = arith.mulf %x, %y : f32
    loop.store %p, %o[%i] : !loop.buf<f32>
  }
  loop.for %i in range(%c0, %n, %s) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in range(%{{.*}}, %[[SPLIT:.*]], %{{.*}}) {
// CHECK-NEXT:      %[[X0:.*]] = loop.load %[[A:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y0:.*]] = loop.load %[[B:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[P0:.*]] = arith.mulf %[[X0]], %[[Y0]] : f32
// CHECK-NEXT:      loop.store %[[P0]], %[[O:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[X1:.*]] = loop.load %[[A]][%[[I]] + 1] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y1:.*]] = loop.load %[[B]][%[[I]] + 1] : !loop.buf<f32>
// CHECK:         }
// CHECK-NEXT:    loop.zip %{{.*}} in [%[[SPLIT]], %{{.*}}) streams(
// CHECK:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      loop.store
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.vecloop

// -----

// A use of the variable nested in a region (here an scf.if) reads the copy's own index.
// CHECK-LABEL: func.func @nested_use
func.func @nested_use(%b: !loop.buf<f32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = scf.if %p -> (f32) {
      %y = loop.load %b[%i] : !loop.buf<f32>
      scf.yield %y : f32
    } else {
      %z = arith.constant 0.0 : f32
      scf.yield %z : f32
    }
    loop.store %x, %b[%i] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in range(
// CHECK-NEXT:      %{{.*}} = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:        %{{.*}} = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK:           %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT:      %{{.*}} = scf.if %{{.*}} -> (f32) {
// CHECK-NEXT:        %{{.*}} = loop.load %{{.*}}[%[[I1]]] : !loop.buf<f32>
