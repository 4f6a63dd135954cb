// RUN: not loop-opt %s -p 'loop-pipeline{target=sse2}' -t c 2>&1 | filecheck %s
// RUN: not loop-opt %s -t c 2>&1 | filecheck %s
// RUN: not loop-opt %s -p 'df-fuse' 2>&1 | filecheck %s

// A function whose body lost its terminator (an empty block) is a located error. With a
// pipeline it was accepted and printed as a C function that returns nothing (gcc: "control
// reaches end of non-void function"); without one the error had no line (found by the
// hostile-input fuzzer).

func.func @k(%x: i64) -> i64 attributes {loop.kernel} {
}

// CHECK:     empty-body.mlir:10:1: error: 'func.func' has an empty block: its single-block region must end with a terminator
// CHECK-NOT: int64_t k(
