// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p convert-df-to-loop | loop-opt | filecheck %s

// df.gather: a loop over the indices that compares each one unsigned against len(x) (a
// negative index is a huge unsigned one), loads at the index clamped to 0 and keeps the
// element only in bounds; the loop runs only when x is not empty, and a second loop writes
// 0 to the rest (all of it when x is empty). i64 indices compare against len(x) itself. A C
// caller's negative length is clamped at 0 first (the ABI fuzzer: the rest loop started at
// `&out[n]` with n near INT64_MIN, a pointer overflow).

// CHECK-LABEL: func.func @take_f64
// CHECK-SAME:    (%x: !loop.buf<f64> {{.*}}, %idx: !loop.buf<i64> {{.*}}, %out: !loop.buf<f64> {{.*}})
// CHECK:         %[[NX:.*]] = loop.dim %x, 0 : !loop.buf<f64>
// CHECK:         %[[LI:.*]] = loop.dim %idx, 0 : !loop.buf<i64>
// CHECK-NEXT:    %[[LO:.*]] = loop.dim %out, 0 : !loop.buf<f64>
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi sle, %[[LI]], %[[LO]] : index
// CHECK:         %[[NI:.*]] = arith.select %[[FITS]], %[[LI]], %c0 : index
// CHECK:         %[[SOME:.*]] = arith.cmpi sgt, %[[NX]], %c0 : index
// CHECK-NEXT:    %[[TRIPS:.*]] = arith.maxsi %[[NI]], %c0 : index
// CHECK-NEXT:    %[[NOK:.*]] = arith.select %[[SOME]], %[[TRIPS]], %c0 : index
// CHECK-NEXT:    %[[B:.*]] = arith.index_cast %[[NX]] : index to i64
// CHECK-NEXT:    loop.for %i in [%c0, %[[NOK]]) {
// CHECK-NEXT:      %[[K:.*]] = loop.load %idx[%i] : !loop.buf<i64>
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi ult, %[[K]], %[[B]] : i64
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[IN]], %[[K]], %[[Z]] : i64
// CHECK-NEXT:      %[[J:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK-NEXT:      %[[V:.*]] = loop.load %x[%[[J]]] : !loop.buf<f64>
// CHECK-NEXT:      %[[ZF:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[IN]], %[[V]], %[[ZF]] : f64
// CHECK-NEXT:      loop.store %[[R]], %out[%i] : !loop.buf<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.for %[[I1:.*]] in [%[[NOK]], %[[NI]]) {
// CHECK-NEXT:      %[[ZF1:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:      loop.store %[[ZF1]], %out[%[[I1]]] : !loop.buf<f64>
// CHECK-NEXT:    }
func.func @take_f64(%x: !df.array<f64, [j]>, %idx: !df.array<i64, [i]>) -> !df.array<f64, [i]> {
  %g = df.gather %x[%idx] : !df.array<f64, [j]>, !df.array<i64, [i]> -> !df.array<f64, [i]>
  func.return %g : !df.array<f64, [i]>
}

// i32 indices compare against min(len(x), 2**31) as an unsigned i32.
// CHECK-LABEL: func.func @take_i32
// CHECK:         %[[CAP:.*]] = arith.minsi %{{.*}}, %c2147483648 : index
// CHECK-NEXT:    %[[B:.*]] = arith.index_cast %[[CAP]] : index to i32
// CHECK:           arith.cmpi ult, %{{.*}}, %[[B]] : i32
func.func @take_i32(%x: !df.array<i32, [j]>, %idx: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %g = df.gather %x[%idx] : !df.array<i32, [j]>, !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %g : !df.array<i32, [i]>
}

// Indices from a df.range: the element start + k*step, compared like any other.
// CHECK-LABEL: func.func @every_other
// CHECK:         loop.for %i in [%c0, %{{.*}}) {
// CHECK-NEXT:      %[[E:.*]] = arith.index_cast %i : index to i64
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[E]], %two : i64
// CHECK-NEXT:      arith.cmpi ult, %[[M]], %{{.*}} : i64
func.func @every_other(%x: !df.array<f32, [j]>, %len: i64) -> !df.array<f32, [i]> {
  %zero = arith.constant 0 : i64
  %two = arith.constant 2 : i64
  %r = df.range %zero, %len, %two : !df.array<i64, [i]>
  %g = df.gather %x[%r] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  func.return %g : !df.array<f32, [i]>
}

// gather -> reduce fuses: the gather's one user is a full reduction, so nothing holds the
// gathered array; the reduction's loop over [0, n_ok) reads x[idx[i]] with the same bounds
// check, and a second loop over [n_ok, n) combines a 0 per element without reading x (it runs
// only when x is empty). A gather with another user is stored as above.
// CHECK-LABEL: func.func @gather_max
// CHECK-NOT:     loop.alloc
// CHECK:         %[[TRIPS:.*]] = arith.maxsi %[[NI:.*]], %c0 : index
// CHECK-NEXT:    %[[NOK:.*]] = arith.select %{{.*}}, %[[TRIPS]], %c0 : index
// CHECK:         %[[B:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[M:.*]] = loop.for %i in [%c0, %[[NOK]]) accs(%[[A:.*]] = %lo : i32 max) {
// CHECK-NEXT:      %[[K:.*]] = loop.load %idx[%i] : !loop.buf<i32>
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi ult, %[[K]], %[[B]] : i32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[IN]], %[[K]], %[[Z]] : i32
// CHECK-NEXT:      %[[J:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK-NEXT:      %[[V:.*]] = loop.load %x[%[[J]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[IN]], %[[V]], %[[Z2]] : i32
// CHECK-NEXT:      %[[N:.*]] = arith.maxsi %[[A]], %[[R]] : i32
// CHECK-NEXT:      loop.yield %[[N]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[T:.*]] = loop.for %{{.*}} in [%[[NOK]], %[[NI]]) accs(%[[A2:.*]] = %[[M]] : i32 max) {
// CHECK-NEXT:      %[[Z3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[N2:.*]] = arith.maxsi %[[A2]], %[[Z3]] : i32
// CHECK-NEXT:      loop.yield %[[N2]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[T]] : i32
func.func @gather_max(%x: !df.array<i32, [j]>, %idx: !df.array<i32, [i]>) -> i32 {
  %lo = arith.constant -2147483648 : i32
  %g = df.gather %x[%idx] : !df.array<i32, [j]>, !df.array<i32, [i]> -> !df.array<i32, [i]>
  %m = df.reduce max(%g, %lo) over [i] : !df.array<i32, [i]> -> i32
  func.return %m : i32
}

// CHECK-LABEL: func.func @gather_sum_and_take
// CHECK:         loop.store %{{.*}}, %out[%i] : !loop.buf<i64>
// CHECK:         loop.load %out[%{{.*}}] : !loop.buf<i64>
func.func @gather_sum_and_take(%x: !df.array<i64, [j]>, %idx: !df.array<i64, [i]>) -> (i64, !df.array<i64, [i]>) {
  %z = arith.constant 0 : i64
  %g = df.gather %x[%idx] : !df.array<i64, [j]>, !df.array<i64, [i]> -> !df.array<i64, [i]>
  %s = df.reduce add(%g, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s, %g : i64, !df.array<i64, [i]>
}

// gather -> map fuses too: the map's two loops read the gather (the second, for an empty x,
// maps the zero element).
// CHECK-LABEL: func.func @lookup_scaled
// CHECK-NOT:     loop.alloc
// CHECK:         loop.for %i in [%c0, %[[NOK:.*]]) {
// CHECK:           %[[V:.*]] = loop.load %x[%{{.*}}] : !loop.buf<f32>
// CHECK:           %[[E:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[E]], %k : f32
// CHECK-NEXT:      loop.store %[[M]], %out[%i] : !loop.buf<f32>
// CHECK:         loop.for %[[I2:.*]] in [%[[NOK]], %{{.*}}) {
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[M2:.*]] = arith.mulf %[[Z]], %k : f32
// CHECK-NEXT:      loop.store %[[M2]], %out[%[[I2]]] : !loop.buf<f32>
func.func @lookup_scaled(%x: !df.array<f32, [j]>, %idx: !df.array<i64, [i]>, %k: f32) -> !df.array<f32, [i]> {
  %g = df.gather %x[%idx] : !df.array<f32, [j]>, !df.array<i64, [i]> -> !df.array<f32, [i]>
  %m = df.map %g : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %k : f32
    df.yield %s : f32
  }
  func.return %m : !df.array<f32, [i]>
}
