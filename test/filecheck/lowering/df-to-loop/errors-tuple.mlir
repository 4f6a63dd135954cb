// RUN: not loop-opt %s -p convert-df-to-loop 2>&1 | filecheck %s

// A kernel result tuple holding arrays has no place in the calling convention.

func.func @both(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> tuple<!df.array<f32, [i]>, !df.array<f32, [i]>> {
  %t = df.make_tuple %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> tuple<!df.array<f32, [i]>, !df.array<f32, [i]>>
  func.return %t : tuple<!df.array<f32, [i]>, !df.array<f32, [i]>>
}

// CHECK: errors-tuple.mlir:7:3: error: kernel results that are tuples holding arrays are not supported
// CHECK-NOT: Traceback
