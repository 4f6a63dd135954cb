// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p convert-df-to-loop | loop-opt | filecheck %s

// df.gather: a loop over the indices that compares each one unsigned against len(x) (a
// negative index is a huge unsigned one), loads at the index clamped to 0 and keeps the
// element only in bounds; the loop runs only when x is not empty, and a second loop writes
// 0 to the rest (all of it when x is empty). i64 indices compare against len(x) itself.

// CHECK-LABEL: func.func @take_f64
// CHECK-SAME:    (%x: !loop.buf<f64> {{.*}}, %idx: !loop.buf<i64> {{.*}}, %out: !loop.buf<f64> {{.*}})
// CHECK:         %[[NX:.*]] = loop.dim %x, 0 : !loop.buf<f64>
// CHECK:         %[[NI:.*]] = loop.dim %idx, 0 : !loop.buf<i64>
// CHECK:         %[[SOME:.*]] = arith.cmpi sgt, %[[NX]], %c0 : index
// CHECK-NEXT:    %[[NOK:.*]] = arith.select %[[SOME]], %[[NI]], %c0 : index
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
