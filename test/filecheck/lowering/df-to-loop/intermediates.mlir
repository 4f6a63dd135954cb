// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s

// Materialized intermediates: a kernel result read again by a later op is written into its
// out buffer and re-read there; an intermediate with several users is loop.alloc'd and
// freed before the return. df.decl_ref inlines the declaration; tuples resolve at compile
// time; a returned kernel input is copied by one loop.

func.func @shared(%x: !df.array<f32, [i]>) -> (!df.array<f32, [i]>, f32) {
  %z = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %t = df.reduce add(%sq, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %sq, %t : !df.array<f32, [i]>, f32
}

func.func @temp(%x: !df.array<i32, [i]>) -> i32 {
  %z = arith.constant 0 : i32
  %d = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %s = arith.addi %e, %e : i32
    df.yield %s : i32
  }
  %a = df.reduce add(%d, %z) over [i] : !df.array<i32, [i]> -> i32
  %b = df.reduce max(%d, %z) over [i] : !df.array<i32, [i]> -> i32
  %r = arith.addi %a, %b : i32
  func.return %r : i32
}

func.func @total(%x: !df.array<f64, [i]>) -> f64 {
  %z = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

func.func @pair(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> f64 {
  %sx = df.decl_ref @total(%x) : (!df.array<f64, [i]>) -> f64
  %sy = df.decl_ref @total(%y) : (!df.array<f64, [i]>) -> f64
  %t = df.make_tuple %sx, %sy : f64, f64 -> tuple<f64, f64>
  %a = df.get %t[1] : tuple<f64, f64> -> f64
  %b = df.get %t[0] : tuple<f64, f64> -> f64
  %d = arith.subf %a, %b : f64
  func.return %d : f64
}

func.func @echo(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  func.return %x : !df.array<f64, [i]>
}

// CHECK-LABEL: func.func @shared(
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) -> f32
// CHECK-NOT:     loop.alloc
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in
// CHECK:           loop.store %{{.*}}, %[[OUT]][%[[I]]] : !loop.buf<f32>
// CHECK:         %[[T:[a-z0-9_]+]] = loop.for %[[J:[a-z0-9_]+]] in
// CHECK-NEXT:      %{{.*}} = loop.load %[[OUT]][%[[J]]] : !loop.buf<f32>
// CHECK:         func.return %[[T]] : f32

// CHECK-LABEL: func.func @temp(
// CHECK:         %[[D:[a-z0-9_]+]] = loop.alloc(%{{.*}}) : !loop.buf<i32>
// CHECK-NEXT:    loop.for
// CHECK:           loop.store %{{.*}}, %[[D]][%{{.*}}] : !loop.buf<i32>
// CHECK:         %[[A:[a-z0-9_]+]] = loop.for {{.*}} accs({{.*}} : i32 add) {
// CHECK-NEXT:      loop.load %[[D]]
// CHECK:         %[[B:[a-z0-9_]+]] = loop.for {{.*}} accs({{.*}} : i32 max) {
// CHECK-NEXT:      loop.load %[[D]]
// CHECK:         %[[R:[a-z0-9_]+]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT:    loop.dealloc %[[D]] : !loop.buf<i32>
// CHECK-NEXT:    func.return %[[R]] : i32

// CHECK-LABEL: func.func @pair(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f64> {{.*}}, %[[Y:[a-z0-9_]+]]: !loop.buf<f64> {{.*}}) -> f64 attributes {loop.kernel} {
// CHECK-NOT:     df.
// CHECK:         %[[SX:[a-z0-9_]+]] = loop.for
// CHECK-NEXT:      loop.load %[[X]]
// CHECK:         %[[SY:[a-z0-9_]+]] = loop.for
// CHECK-NEXT:      loop.load %[[Y]]
// CHECK:         %[[D:[a-z0-9_]+]] = arith.subf %[[SY]], %[[SX]] : f64
// CHECK-NEXT:    func.return %[[D]] : f64

// CHECK-LABEL: func.func @echo(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f64> {{.*}}, %[[OUT:[a-z0-9_]+]]: !loop.buf<f64> {loop.role = "out"
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      loop.store %[[E]], %[[OUT]][%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
