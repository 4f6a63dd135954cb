// RUN: not loop-opt %s -p convert-df-to-loop --split-input-file 2>&1 | filecheck %s

// Unsupported constructs stop the lowering with a located error, never a traceback.

func.func @noise(%n: i64) -> !df.array<f32, [i]> {
  %r = df.random %n : !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// CHECK: errors.mlir:6:3: error: df.random has no Loop IR lowering (Loop IR has no random source); pass the random array in as a kernel argument
// CHECK-NOT: Traceback
