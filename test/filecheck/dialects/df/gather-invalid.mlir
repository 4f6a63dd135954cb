// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s
// df.gather's verifier: source rank and elements, index type and rank, result type and axes.

func.func @source_rank2(%x: !df.array<f32, [j, k]>, %i: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %g = df.gather %x[%i] : !df.array<f32, [j, k]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  func.return %g : !df.array<f32, [i]>
}
// CHECK: df.gather source must be a rank-1 array, found rank 2

// -----

func.func @float_indices(%x: !df.array<f32, [j]>, %i: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return %g : !df.array<f32, [i]>
}
// CHECK: df.gather indices must be an i32 or i64 array, found !df.array<f32, [i]>

// -----

func.func @bool_indices(%x: !df.array<f32, [j]>, %i: !df.array<i1, [i]>) -> !df.array<f32, [i]> {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i1, [i]> -> !df.array<f32, [i]>
  func.return %g : !df.array<f32, [i]>
}
// CHECK: df.gather indices must be an i32 or i64 array, found !df.array<i1, [i]>

// -----

func.func @indices_rank2(%x: !df.array<f32, [j]>, %i: !df.array<i64, [i, k]>) -> !df.array<f32, [i, k]> {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i64, [i, k]> -> !df.array<f32, [i, k]>
  func.return %g : !df.array<f32, [i, k]>
}
// CHECK: df.gather indices must be a rank-1 array, found rank 2

// -----

func.func @result_element(%x: !df.array<f32, [j]>, %i: !df.array<i32, [i]>) -> !df.array<f64, [i]> {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f64, [i]>
  func.return %g : !df.array<f64, [i]>
}
// CHECK: df.gather result element type f64 differs from the source's f32

// -----

func.func @result_axes(%x: !df.array<f32, [j]>, %i: !df.array<i32, [i]>) -> !df.array<f32, [j]> {
  %g = df.gather %x[%i] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [j]>
  func.return %g : !df.array<f32, [j]>
}
// CHECK: df.gather result has axes [j], expected the indices' axes [i]

// -----

func.func @record_source(%x: !df.array<!df.record<a: f32>, [j]>, %i: !df.array<i32, [i]>) -> !df.array<!df.record<a: f32>, [i]> {
  %g = df.gather %x[%i] : !df.array<!df.record<a: f32>, [j]>, !df.array<i32, [i]> -> !df.array<!df.record<a: f32>, [i]>
  func.return %g : !df.array<!df.record<a: f32>, [i]>
}
// CHECK: df.gather source elements must be scalars
