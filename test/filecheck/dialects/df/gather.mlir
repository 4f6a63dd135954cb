// RUN: loop-opt %s | filecheck %s
// RUN: loop-opt %s --print-op-generic | loop-opt | filecheck %s
// df.gather round-trips: i32 and i64 indices, every source element type class.

// CHECK-LABEL: func.func @gather
// CHECK-NEXT:    %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
// CHECK-NEXT:    %h = df.gather %y[%k] : !df.array<i64, [m]>, !df.array<i64, [i]> -> !df.array<i64, [i]>
func.func @gather(%x: !df.array<f32, [j]>, %i: !df.array<i32, [i]>, %y: !df.array<i64, [m]>, %k: !df.array<i64, [i]>)
    -> (!df.array<f32, [i]>, !df.array<i64, [i]>) {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %h = df.gather %y[%k] : !df.array<i64, [m]>, !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %g, %h : !df.array<f32, [i]>, !df.array<i64, [i]>
}
