// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s

// Filters: loop.predloop (width 1) appending kept elements, its count an index result at
// the array's place, the out buffer carrying loop.capacity and loop.count. An unfused
// filter -> map is two loops (the filtered intermediate materialized); df-fuse's fused
// forms are one loop each: a filter with a map region is ONE predloop appending the mapped
// values, a reduce with a where predicate a predloop with accumulators (kind and reassoc
// kept), a reduce with a map prologue a loop.for with the map in the Accum step.

func.func @positive(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %p : !df.array<f32, [k]>
}

func.func @positive_doubled(%x: !df.array<f32, [i]>, %s: f32) -> (f32, !df.array<f32, [k]>) {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %d = arith.addf %e, %e : f32
    df.yield %d : f32
  }
  func.return %s, %y : f32, !df.array<f32, [k]>
}

func.func @positive_doubled_fused(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %y = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  } map {
  ^bb0(%e: f32):
    %d = arith.addf %e, %e : f32
    df.yield %d : f32
  }
  func.return %y : !df.array<f32, [k]>
}

func.func @sum_positive(%x: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64 where {
  ^bb0(%e: f64):
    %c = arith.cmpf ogt, %e, %zero : f64
    df.yield %c : i1
  }
  func.return %s : f64
}

func.func @count_and_max_above(%x: !df.array<i64, [i]>, %t: i64) -> (i64, i64) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n, %m = df.reduce(%x) add(%zero), max(%t) over [i] : !df.array<i64, [i]> -> i64, i64 where {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %t : i64
    df.yield %c : i1
  } map {
  ^bb0(%e: i64):
    %d = arith.subi %e, %t : i64
    df.yield %one, %d : i64, i64
  }
  func.return %n, %m : i64, i64
}

func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce(%x) add(%zero) over [i] reassoc : !df.array<f32, [i]> -> f32 map {
  ^bb0(%e: f32):
    %sq = arith.mulf %e, %e : f32
    df.yield %sq : f32
  }
  func.return %s : f32
}

// CHECK-LABEL: func.func @positive(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]},
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.result = 0 : i64, loop.count = 0 : i64, loop.capacity = "i"})
// CHECK-SAME:    -> index attributes {loop.kernel} {
// CHECK:         %[[CNT:[a-z0-9_]+]] = loop.predloop %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) pred {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[C:[a-z0-9_]+]] = arith.cmpf ogt, %[[E]], %{{.*}} : f32
// CHECK-NEXT:      loop.yield %[[C]] : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[E2:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      loop.append %[[E2]], %[[OUT]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[CNT]] : index

// An unfused filter -> map: two loops, the filtered elements in a loop.alloc'd buffer. The map's
// result lies on the filter's axis but the map does not bound its stores by the caller's
// capacity (which may be below the count: docs/calling_convention.md), so it is made in scratch
// too and its first min(count, max(capacity, 0)) elements are copied out (the ABI fuzzer).
// CHECK-LABEL: func.func @positive_doubled(
// CHECK-SAME:    %[[S:[a-z0-9_]+]]: f32, %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.result = 1 : i64, loop.count = 1 : i64, loop.capacity = "i"})
// CHECK-SAME:    -> (f32, index)
// CHECK:         %[[N:[a-z0-9_]+]] = loop.dim
// CHECK:         %[[P:[a-z0-9_]+]] = loop.alloc(%[[N]]) : !loop.buf<f32>
// CHECK-NEXT:    %[[CNT:[a-z0-9_]+]] = loop.predloop
// CHECK:           loop.append %{{.*}}, %[[P]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:[a-z0-9_]+]] = loop.alloc(%[[CNT]]) : !loop.buf<f32>
// CHECK-NEXT:    loop.for %[[K:[a-z0-9_]+]] in [%{{.*}}, %[[CNT]]) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[P]][%[[K]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[D:[a-z0-9_]+]] = arith.addf %[[E]], %[[E]] : f32
// CHECK-NEXT:      loop.store %[[D]], %[[Y]][%[[K]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[CAP:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[ROOM:[a-z0-9_]+]] = arith.maxsi %[[CAP]], %c0 : index
// CHECK-NEXT:    %[[M:[a-z0-9_]+]] = arith.minsi %[[CNT]], %[[ROOM]] : index
// CHECK-NEXT:    loop.for %[[K1:[a-z0-9_]+]] in [%c0, %[[M]]) {
// CHECK-NEXT:      %[[V:[a-z0-9_]+]] = loop.load %[[Y]][%[[K1]]] : !loop.buf<f32>
// CHECK-NEXT:      loop.store %[[V]], %[[OUT]][%[[K1]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.dealloc %[[Y]] : !loop.buf<f32>
// CHECK-NEXT:    loop.dealloc %[[P]] : !loop.buf<f32>
// CHECK-NEXT:    func.return %[[S]], %[[CNT]] : f32, index

// df-fuse's filter with a map region: ONE predloop appending the mapped values, no alloc.
// CHECK-LABEL: func.func @positive_doubled_fused(
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.result = 0 : i64, loop.count = 0 : i64, loop.capacity = "i"})
// CHECK-NOT:     loop.alloc
// CHECK:         %[[CNT:[a-z0-9_]+]] = loop.predloop %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) pred {
// CHECK:         } body {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[D:[a-z0-9_]+]] = arith.addf %[[E]], %[[E]] : f32
// CHECK-NEXT:      loop.append %[[D]], %[[OUT]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[CNT]] : index

// CHECK-LABEL: func.func @sum_positive(
// CHECK:         %{{.*}}, %[[S:[a-z0-9_]+]] = loop.predloop %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f64 add reassoc) pred {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      %[[C:[a-z0-9_]+]] = arith.cmpf ogt, %[[E]], %{{.*}} : f64
// CHECK-NEXT:      loop.yield %[[C]] : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[E2:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      %[[T:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[E2]] : f64
// CHECK-NEXT:      loop.yield %[[T]] : f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f64

// A reduce with a where predicate and a map prologue: one predloop, two accumulators,
// the prologue in the body (active lanes only).
// CHECK-LABEL: func.func @count_and_max_above(
// CHECK:         %{{.*}}, %[[N:[a-z0-9_]+]], %[[M:[a-z0-9_]+]] = loop.predloop %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) accs(%[[A0:[a-z0-9_]+]] = %{{.*}} : i64 add, %[[A1:[a-z0-9_]+]] = %{{.*}} : i64 max) pred {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      %[[C:[a-z0-9_]+]] = arith.cmpi sgt, %[[E]], %[[T:[a-z0-9_]+]] : i64
// CHECK-NEXT:      loop.yield %[[C]] : i1
// CHECK-NEXT:    } body {
// CHECK-NEXT:      %[[E2:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      %[[D:[a-z0-9_]+]] = arith.subi %[[E2]], %[[T]] : i64
// CHECK-NEXT:      %[[S0:[a-z0-9_]+]] = arith.addi %[[A0]], %{{.*}} : i64
// CHECK-NEXT:      %[[S1:[a-z0-9_]+]] = arith.maxsi %[[A1]], %[[D]] : i64
// CHECK-NEXT:      loop.yield %[[S0]], %[[S1]] : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[N]], %[[M]] : i64, i64

// A reduce with a map prologue (df-fuse's map -> reduce): ONE loop, the map's body in the Accum step.
// CHECK-LABEL: func.func @sumsq(
// CHECK:         %[[S:[a-z0-9_]+]] = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32 add reassoc) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[SQ:[a-z0-9_]+]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      %[[N:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK-NEXT:      loop.yield %[[N]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32
