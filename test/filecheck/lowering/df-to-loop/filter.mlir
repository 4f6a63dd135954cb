// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p 'convert-df-to-loop{fuse-filter-map=false}' | filecheck %s --check-prefix=SPLIT

// Filters: loop.predloop (width 1) appending kept elements, its count an index result at
// the array's place, the out buffer carrying loop.capacity and loop.count. filter -> map is
// ONE predloop (unless fuse-filter-map=false); df-fuse's kinded folds keep their kinds, and a
// filtered one (filter -> reduce) is a predloop with accumulators.

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

func.func @sum_positive(%x: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = df.fold(%x) init(%zero) : !df.array<f64, [i]> -> f64 {
  ^bb0(%acc: f64, %e: f64):
    %c = arith.cmpf ogt, %e, %zero : f64
    %n = arith.addf %acc, %e : f64
    %r = arith.select %c, %n, %acc : f64
    df.yield %r : f64
  } attributes {df.kinds = [#df.kind<add>], df.reassoc}
  func.return %s : f64
}

func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.fold(%x) init(%zero) : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %sq = arith.mulf %e, %e : f32
    %n = arith.addf %acc, %sq : f32
    df.yield %n : f32
  } attributes {df.kinds = [#df.kind<add>], df.reassoc}
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

// CHECK-LABEL: func.func @positive_doubled(
// CHECK-SAME:    %[[S:[a-z0-9_]+]]: f32, %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.result = 1 : i64, loop.count = 1 : i64, loop.capacity = "i"})
// CHECK-SAME:    -> (f32, index)
// CHECK-NOT:     loop.alloc
// CHECK:         %[[CNT:[a-z0-9_]+]] = loop.predloop %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) pred {
// CHECK:         } body {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[D:[a-z0-9_]+]] = arith.addf %[[E]], %[[E]] : f32
// CHECK-NEXT:      loop.append %[[D]], %[[OUT]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[CNT]] : f32, index

// SPLIT-LABEL: func.func @positive_doubled(
// SPLIT:         %[[N:[a-z0-9_]+]] = loop.dim
// SPLIT:         %[[P:[a-z0-9_]+]] = loop.alloc(%[[N]]) : !loop.buf<f32>
// SPLIT-NEXT:    %[[CNT:[a-z0-9_]+]] = loop.predloop
// SPLIT:           loop.append %{{.*}}, %[[P]] : !loop.buf<f32>
// SPLIT-NEXT:    }
// SPLIT-NEXT:    loop.for %[[K:[a-z0-9_]+]] in [%{{.*}}, %[[CNT]]) {
// SPLIT-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[P]][%[[K]]] : !loop.buf<f32>
// SPLIT-NEXT:      %[[D:[a-z0-9_]+]] = arith.addf %[[E]], %[[E]] : f32
// SPLIT-NEXT:      loop.store %[[D]], %{{.*}}[%[[K]]] : !loop.buf<f32>
// SPLIT-NEXT:    }
// SPLIT-NEXT:    loop.dealloc %[[P]] : !loop.buf<f32>
// SPLIT-NEXT:    func.return %{{.*}}, %[[CNT]] : f32, index

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

// A fused map -> reduce (kinded fold): ONE loop, the map's body in the Accum step.
// CHECK-LABEL: func.func @sumsq(
// CHECK:         %[[S:[a-z0-9_]+]] = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32 add reassoc) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[SQ:[a-z0-9_]+]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      %[[N:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[SQ]] : f32
// CHECK-NEXT:      loop.yield %[[N]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32
