// RUN: LOOPOPT_ROUNDTRIP
// RUN: LOOPOPT_GENERIC_ROUNDTRIP

// CHECK-LABEL: func.func @buffers
func.func @buffers(%b: !loop.buf<f32>, %m: !loop.buf<i32, 2>) {
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %r = loop.dim %m, 0 : !loop.buf<i32, 2>
  %c = loop.dim %m, 1 : !loop.buf<i32, 2>
  %t = loop.alloc(%n) : !loop.buf<f64>
  %t2 = loop.alloc(%r, %c) : !loop.buf<i1, 2>
  loop.dealloc %t : !loop.buf<f64>
  loop.dealloc %t2 : !loop.buf<i1, 2>
  func.return
}
// CHECK-NEXT:    %[[N:.*]] = loop.dim %[[B:.*]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[R:.*]] = loop.dim %[[M:.*]], 0 : !loop.buf<i32, 2>
// CHECK-NEXT:    %[[C:.*]] = loop.dim %[[M]], 1 : !loop.buf<i32, 2>
// CHECK-NEXT:    %[[T:.*]] = loop.alloc(%[[N]]) : !loop.buf<f64>
// CHECK-NEXT:    %[[T2:.*]] = loop.alloc(%[[R]], %[[C]]) : !loop.buf<i1, 2>
// CHECK-NEXT:    loop.dealloc %[[T]] : !loop.buf<f64>
// CHECK-NEXT:    loop.dealloc %[[T2]] : !loop.buf<i1, 2>
// CHECK-NEXT:    func.return

// The whole call's length, in a kernel a parallel driver splits (docs/threads.md).
// CHECK-LABEL: func.func @call_dim
func.func @call_dim(%b: !loop.buf<f32>) -> index attributes {loop.parallel = {}} {
  %n = loop.call_dim %b : !loop.buf<f32>
  func.return %n : index
}
// CHECK-NEXT:    %[[N:.*]] = loop.call_dim %{{.*}} : !loop.buf<f32>
// CHECK-NEXT:    func.return %[[N]] : index

// Affine indices: coefficients, offsets, negative terms, several variables, constants, rank 2.
// CHECK-LABEL: func.func @access
func.func @access(%b: !loop.buf<f32>, %m: !loop.buf<f32, 2>, %i: index, %j: index) {
  %x = loop.load %b[%i] : !loop.buf<f32>
  %y = loop.load %b[2 * %i + 1] : !loop.buf<f32>
  %z = loop.load %m[%i, %j] : !loop.buf<f32, 2>
  %w = loop.load %m[%i - %j, -1 * %j + 7] : !loop.buf<f32, 2>
  %u = loop.load %b[3] : !loop.buf<f32>
  %v = loop.load %b[-%i - 2] : !loop.buf<f32>
  loop.store %x, %b[%i + 3] : !loop.buf<f32>
  loop.store %y, %m[4 * %i + 2 * %j - 1, 0] : !loop.buf<f32, 2>
  func.return
}
// CHECK-NEXT:    %{{.*}} = loop.load %[[B:.*]][%[[I:.*]]] : !loop.buf<f32>
// CHECK-NEXT:    %[[Y:.*]] = loop.load %[[B]][2 * %[[I]] + 1] : !loop.buf<f32>
// CHECK-NEXT:    %{{.*}} = loop.load %[[M:.*]][%[[I]], %[[J:.*]]] : !loop.buf<f32, 2>
// CHECK-NEXT:    %{{.*}} = loop.load %[[M]][%[[I]] - %[[J]], -1 * %[[J]] + 7] : !loop.buf<f32, 2>
// CHECK-NEXT:    %{{.*}} = loop.load %[[B]][3] : !loop.buf<f32>
// CHECK-NEXT:    %{{.*}} = loop.load %[[B]][-1 * %[[I]] - 2] : !loop.buf<f32>
// CHECK-NEXT:    loop.store %[[X:.*]], %[[B]][%[[I]] + 3] : !loop.buf<f32>
// CHECK-NEXT:    loop.store %[[Y]], %[[M]][4 * %[[I]] + 2 * %[[J]] - 1, 0] : !loop.buf<f32, 2>
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @for_interval_acc
func.func @for_interval_acc(%b: !loop.buf<f32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK:         %[[S:.*]] = loop.for %[[I:.*]] in [%[[C0:.*]], %[[N:.*]]) accs(%[[ACC:.*]] = %[[INIT:.*]] : f32 add reassoc) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32

// A range_desc loop without accumulators (no printed terminator), and a loop nest over rank 2.
// CHECK-LABEL: func.func @for_range_nest
func.func @for_range_nest(%m: !loop.buf<f64, 2>, %o: !loop.buf<f64>, %start: index, %step: index) {
  %c0 = arith.constant 0 : index
  %r = loop.dim %m, 0 : !loop.buf<f64, 2>
  %c = loop.dim %m, 1 : !loop.buf<f64, 2>
  %z = arith.constant 0.0 : f64
  loop.for %i in range(%start, %r, %step) {
    %s:2 = loop.for %j in [%c0, %c) accs(%a = %z : f64 add, %p = %z : f64 mul) {
      %x = loop.load %m[%i, %j] : !loop.buf<f64, 2>
      %t = arith.addf %a, %x : f64
      %q = arith.mulf %p, %x : f64
      loop.yield %t, %q : f64, f64
    }
    loop.store %s#0, %o[%i] : !loop.buf<f64>
  }
  func.return
}
// CHECK:         loop.for %[[I:.*]] in range(%[[START:.*]], %[[R:.*]], %[[STEP:.*]]) {
// CHECK-NEXT:      %[[S:.*]], %{{.*}} = loop.for %[[J:.*]] in [%{{.*}}, %{{.*}}) accs(%[[A:.*]] = %[[Z:.*]] : f64 add, %[[P:.*]] = %[[Z]] : f64 mul) {
// CHECK-NEXT:        %[[X:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f64, 2>
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[A]], %[[X]] : f64
// CHECK-NEXT:        %[[Q:.*]] = arith.mulf %[[P]], %[[X]] : f64
// CHECK-NEXT:        loop.yield %[[T]], %[[Q]] : f64, f64
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[S]], %{{.*}}[%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:    }

// Symbolic and concrete widths, every tail kind, several accumulators (horizontal fusion).
// CHECK-LABEL: func.func @vecloops
func.func @vecloops(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %init: f32, %k: !loop.buf<i32>, %ki: i32) -> (f32, f32, i32) {
  %c0 = arith.constant 0 : index
  %s, %mx = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%a = %init : f32 add reassoc, %m = %init : f32 max) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %a, %x : f32
    %u = arith.maximumf %m, %x : f32
    loop.yield %t, %u : f32, f32
  }
  loop.vecloop %i in [%c0, %n) width(8) tail(masked) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  %c2 = arith.constant 2 : index
  %an = loop.vecloop %i in range(%c0, %n, %c2) width(16) tail(none) accs(%a = %ki : i32 and) {
    %x = loop.load %k[%i] : !loop.buf<i32>
    %t = arith.andi %a, %x : i32
    loop.yield %t : i32
  }
  func.return %s, %mx, %an : f32, f32, i32
}
// CHECK:         %[[S:.*]], %[[MX:.*]] = loop.vecloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) accs(%[[A:.*]] = %[[INIT:.*]] : f32 add reassoc, %[[M:.*]] = %[[INIT]] : f32 max) {
// CHECK-NEXT:      %[[X:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT:      %[[U:.*]] = arith.maximumf %[[M]], %[[X]] : f32
// CHECK-NEXT:      loop.yield %[[T]], %[[U]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.vecloop %[[I2:.*]] in [%{{.*}}, %{{.*}}) width(8) tail(masked) {
// CHECK-NEXT:      %[[X2:.*]] = loop.load %{{.*}}[%[[I2]]] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[X2]], %{{.*}}[%[[I2]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:    %[[AN:.*]] = loop.vecloop %[[I3:.*]] in range(%{{.*}}, %{{.*}}, %{{.*}}) width(16) tail(none) accs(%[[A3:.*]] = %{{.*}} : i32 and) {
// CHECK-NEXT:      %[[X3:.*]] = loop.load %{{.*}}[%[[I3]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[T3:.*]] = arith.andi %[[A3]], %[[X3]] : i32
// CHECK-NEXT:      loop.yield %[[T3]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[MX]], %[[AN]] : f32, f32, i32

// Filter -> map with a running sum; one predloop per mask form; width 1 before vectorization.
// CHECK-LABEL: func.func @predloops
func.func @predloops(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %cnt, %s = loop.predloop %i in [%c0, %n) width(W) tail(scalar) mask(unset) accs(%a = %z : f32 add reassoc) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.mulf %x, %x : f32
    loop.append %y, %o : !loop.buf<f32>
    %t = arith.addf %a, %y : f32
    loop.yield %t : f32
  }
  %c1 = loop.predloop %i in [%c0, %n) width(16) tail(masked) mask(avx512_mask) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf olt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.append %x, %o : !loop.buf<f32>
  }
  %c2 = loop.predloop %i in [%c0, %n) width(8) tail(none) mask(select_blend) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf olt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  %c3 = loop.predloop %i in [%c0, %n) width(1) tail(scalar) mask(branch_per_lane) pred {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %p = arith.cmpf olt, %x, %z : f32
    loop.yield %p : i1
  } body {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.append %x, %o : !loop.buf<f32>
  }
  func.return %cnt, %s : index, f32
}
// CHECK:         %[[CNT:.*]], %[[S:.*]] = loop.predloop %[[I:.*]] in [%{{.*}}, %{{.*}}) width(W) tail(scalar) mask(unset) accs(%[[A:.*]] = %[[Z:.*]] : f32 add reassoc) pred {
// CHECK-NEXT:      %[[X:.*]] = loop.load %[[B:.*]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf ogt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:      loop.yield %[[P]] : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[X2:.*]] = loop.load %[[B]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X2]], %[[X2]] : f32
// CHECK-NEXT:      loop.append %[[Y]], %[[O:.*]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[A]], %[[Y]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = loop.predloop %[[I1:.*]] in [%{{.*}}, %{{.*}}) width(16) tail(masked) mask(avx512_mask) pred {
// CHECK-NEXT:      %{{.*}} = loop.load %[[B]][%[[I1]]] : !loop.buf<f32>
// CHECK-NEXT:      %{{.*}} = arith.cmpf olt, %{{.*}}, %[[Z]] : f32
// CHECK-NEXT:      loop.yield %{{.*}} : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[X3:.*]] = loop.load %[[B]][%[[I1]]] : !loop.buf<f32>
// CHECK-NEXT:      loop.append %[[X3]], %[[O]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK:         loop.predloop %{{.*}} width(8) tail(none) mask(select_blend) pred {
// CHECK:         loop.predloop %{{.*}} width(1) tail(scalar) mask(branch_per_lane) pred {
// CHECK:         func.return %[[CNT]], %[[S]] : index, f32

// Two streams and an accumulator (a dot product), and a struct-of-arrays record map.
// CHECK-LABEL: func.func @zips
func.func @zips(%bx: !loop.buf<f32>, %by: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %d = loop.zip %i in [%c0, %n) streams(%x = %bx : !loop.buf<f32>, %y = %by : !loop.buf<f32>) accs(%a = %z : f32 add) {
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %a, %p : f32
    loop.yield %t : f32
  }
  loop.zip %i in [%c0, %n) streams(%x = %bx : !loop.buf<f32>, %y = %by : !loop.buf<f32>) {
    %s = arith.addf %x, %y : f32
    loop.store %s, %o[%i] : !loop.buf<f32>
  }
  func.return %d : f32
}
// CHECK:         %[[D:.*]] = loop.zip %[[I:.*]] in [%{{.*}}, %{{.*}}) streams(%[[X:.*]] = %[[BX:.*]] : !loop.buf<f32>, %[[Y:.*]] = %[[BY:.*]] : !loop.buf<f32>) accs(%[[A:.*]] = %{{.*}} : f32 add) {
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[A]], %[[P]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.zip %[[I2:.*]] in [%{{.*}}, %{{.*}}) streams(%[[X2:.*]] = %[[BX]] : !loop.buf<f32>, %[[Y2:.*]] = %[[BY]] : !loop.buf<f32>) {
// CHECK-NEXT:      %[[S2:.*]] = arith.addf %[[X2]], %[[Y2]] : f32
// CHECK-NEXT:      loop.store %[[S2]], %{{.*}}[%[[I2]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[D]] : f32

// Attributes on a loop survive the round-trip.
// CHECK-LABEL: func.func @loop_attributes
func.func @loop_attributes(%n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) attributes {tag = "outer"} {
  }
  func.return
}
// CHECK:         loop.for %{{.*}} in [%{{.*}}, %{{.*}}) attributes {tag = "outer"} {
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @unsigned_accumulators
func.func @unsigned_accumulators(%b: !loop.buf<i16>, %n: index, %init: i16) -> (i16, i16) {
  %c0 = arith.constant 0 : index
  %mx, %mn = loop.vecloop %i in [%c0, %n) width(8) tail(scalar) accs(%a = %init : i16 umax, %m = %init : i16 umin) {
    %x = loop.load %b[%i] : !loop.buf<i16>
    %t = arith.maxui %a, %x : i16
    %u = arith.minui %m, %x : i16
    loop.yield %t, %u : i16, i16
  }
  func.return %mx, %mn : i16, i16
}
// CHECK:         %{{.*}}, %{{.*}} = loop.vecloop %{{.*}} in [%{{.*}}, %{{.*}}) width(8) tail(scalar) accs(%{{.*}} = %{{.*}} : i16 umax, %{{.*}} = %{{.*}} : i16 umin) {
// CHECK:           arith.maxui
// CHECK-NEXT:      arith.minui
