// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize,loop-parallelize{chunk=1024 min_elements=4096 threads=2}' | filecheck %s
// loop-parallelize records a plan on every kernel that splits along its axis: maps (no
// results), folds (one combiner per result), filters (the count), scans (the output).

// CHECK-LABEL: func.func @axpy
// CHECK-SAME: loop.parallel = {axis = "i", chunk = 1024 : i64, min_elements = 4096 : i64, threads = 2 : i64, results = [], scans = [], scan_kinds = [], stream_bytes = 0 : i64}
func.func @axpy(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @sum_max
// CHECK-SAME: results = ["add", "max"], scans = [], scan_kinds = []
func.func @sum_max(%x: !df.array<f32, [i]>) -> (f32, f32) {
  %z = arith.constant 0.0 : f32
  %m = arith.constant 0xFF800000 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  %t = df.reduce max(%x, %m) over [i] : !df.array<f32, [i]> -> f32
  func.return %s, %t : f32, f32
}

// CHECK-LABEL: func.func @positive
// CHECK-SAME: results = ["count"], scans = [], scan_kinds = []
func.func @positive(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %p : !df.array<i32, [k]>
}

// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: results = [], scans = [1 : i64], scan_kinds = ["add"]
func.func @cumsum(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant 0 : i64
  %p = df.scan add(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}
