// RUN: loop-opt %s -p 'loop-tile{size=8}' --split-input-file | filecheck %s

// Runtime bounds with an accumulator: the tile loop walks tile starts by 8, the inner lane
// loop is the original body over [t, t + 8), the remainder loop runs the last n mod 8; the
// accumulator threads init -> tiles -> lanes -> remainder.
// CHECK-LABEL: func.func @sum
func.func @sum(%b: !loop.buf<f32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK:         %[[N:.*]] = loop.dim %[[B:.*]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[TRIPS:.*]] = arith.subi %[[N]], %[[C0:.*]] : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remsi %[[TRIPS]], %[[C8]] : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.subi %[[N]], %[[REM]] : index
// CHECK-NEXT:    %[[TILES:.*]] = loop.for %[[T:.*]] in range(%[[C0]], %[[SPLIT]], %[[C8]]) accs(%[[A0:.*]] = %[[INIT:.*]] : f32 add reassoc) {
// CHECK-NEXT:      %[[TEND:.*]] = arith.addi %[[T]], %[[C8]] : index
// CHECK-NEXT:      %[[LANES:.*]] = loop.for %[[I:.*]] in [%[[T]], %[[TEND]]) accs(%[[A:.*]] = %[[A0]] : f32 add reassoc) {
// CHECK-NEXT:        %[[X:.*]] = loop.load %[[B]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT:        loop.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.yield %[[LANES]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = loop.for %[[I2:.*]] in [%[[SPLIT]], %[[N]]) accs(%[[A2:.*]] = %[[TILES]] : f32 add reassoc) {
// CHECK-NEXT:      %[[X2:.*]] = loop.load %[[B]][%[[I2]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[S2:.*]] = arith.addf %[[A2]], %[[X2]] : f32
// CHECK-NEXT:      loop.yield %[[S2]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : f32

// -----

// Constant bounds, 8 divides the trip count (24): the split is a constant and there is no
// remainder loop.
// CHECK-LABEL: func.func @exact_tiles
func.func @exact_tiles(%b: !loop.buf<i32>, %o: !loop.buf<i32>) {
  %c0 = arith.constant 0 : index
  %c24 = arith.constant 24 : index
  loop.for %i in [%c0, %c24) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    loop.store %x, %o[%i] : !loop.buf<i32>
  }
  func.return
}
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.constant 24 : index
// CHECK-NEXT:    loop.for %[[T:.*]] in range(%{{.*}}, %[[SPLIT]], %[[C8]]) {
// CHECK-NEXT:      %[[TEND:.*]] = arith.addi %[[T]], %[[C8]] : index
// CHECK-NEXT:      loop.for %[[I:.*]] in [%[[T]], %[[TEND]]) {
// CHECK-NEXT:        %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:        loop.store %[[X]], %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// Constant bounds [2, 21): 19 iterations, two tiles [2, 18) and a remainder [18, 21).
// CHECK-LABEL: func.func @constant_remainder
func.func @constant_remainder(%b: !loop.buf<i32>, %o: !loop.buf<i32>) {
  %c2 = arith.constant 2 : index
  %c21 = arith.constant 21 : index
  loop.for %i in [%c2, %c21) {
    %x = loop.load %b[%i - 2] : !loop.buf<i32>
    loop.store %x, %o[%i] : !loop.buf<i32>
  }
  func.return
}
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C21:.*]] = arith.constant 21 : index
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SPLIT:.*]] = arith.constant 18 : index
// CHECK-NEXT:    loop.for %[[T:.*]] in range(%[[C2]], %[[SPLIT]], %[[C8]]) {
// CHECK-NEXT:      %[[TEND:.*]] = arith.addi %[[T]], %[[C8]] : index
// CHECK-NEXT:      loop.for %{{.*}} in [%[[T]], %[[TEND]]) {
// CHECK-NEXT:        loop.load
// CHECK-NEXT:        loop.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.for %[[I:.*]] in [%[[SPLIT]], %[[C21]]) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]] - 2] : !loop.buf<i32>
// CHECK-NEXT:      loop.store %[[X]], %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// -----

// A zip is tiled like a loop.for: the lane loop and the remainder are zips over the same streams.
// CHECK-LABEL: func.func @zip
func.func @zip(%a: !loop.buf<f32>, %b: !loop.buf<f32>, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %s = loop.zip %i in [%c0, %n) streams(%x = %a : !loop.buf<f32>, %y = %b : !loop.buf<f32>) accs(%acc = %z : f32 add) {
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %acc, %p : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK:         %[[TILES:.*]] = loop.for %[[T:.*]] in range(%{{.*}}, %[[SPLIT:.*]], %{{.*}}) accs(%[[A0:.*]] = %{{.*}} : f32 add) {
// CHECK-NEXT:      %[[TEND:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK-NEXT:      %[[LANES:.*]] = loop.zip %{{.*}} in [%[[T]], %[[TEND]]) streams(%{{.*}} = %[[A:.*]] : !loop.buf<f32>, %{{.*}} = %[[B:.*]] : !loop.buf<f32>) accs(%{{.*}} = %[[A0]] : f32 add) {
// CHECK:           loop.yield %[[LANES]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = loop.zip %{{.*}} in [%[[SPLIT]], %{{.*}}) streams(%{{.*}} = %[[A]] : !loop.buf<f32>, %{{.*}} = %[[B]] : !loop.buf<f32>) accs(%{{.*}} = %[[TILES]] : f32 add) {
// CHECK:         func.return %[[R]] : f32

// -----

// In a nest only the innermost loop is tiled; range_desc loops and vector loops are left alone.
// CHECK-LABEL: func.func @nest_and_others
func.func @nest_and_others(%m: !loop.buf<f32, 2>, %o: !loop.buf<f32, 2>, %v: !loop.buf<f32>, %s: index) {
  %c0 = arith.constant 0 : index
  %r = loop.dim %m, 0 : !loop.buf<f32, 2>
  %c = loop.dim %m, 1 : !loop.buf<f32, 2>
  loop.for %i in [%c0, %r) {
    loop.for %j in [%c0, %c) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      loop.store %x, %o[%i, %j] : !loop.buf<f32, 2>
    }
  }
  loop.for %k in range(%c0, %r, %s) {
    %x = loop.load %v[%k] : !loop.buf<f32>
    loop.store %x, %v[%k] : !loop.buf<f32>
  }
  loop.vecloop %k in [%c0, %r) width(W) tail(scalar) {
    %x = loop.load %v[%k] : !loop.buf<f32>
    loop.store %x, %v[%k] : !loop.buf<f32>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %{{.*}} = arith.constant 8 : index
// CHECK:           loop.for %[[T:.*]] in range(
// CHECK:             loop.for %[[J:.*]] in [%[[T]], %{{.*}}) {
// CHECK-NEXT:          %[[X:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
// CHECK:           loop.for %[[J2:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:        %{{.*}} = loop.load %{{.*}}[%[[I]], %[[J2]]] : !loop.buf<f32, 2>
// CHECK:         loop.for %{{.*}} in range(%{{.*}}, %{{.*}}, %{{.*}}) {
// CHECK-NEXT:      loop.load
// CHECK-NEXT:      loop.store
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.vecloop
