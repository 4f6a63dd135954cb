// RUN: loop-opt %s -p 'convert-df-to-loop,convert-loop-to-simd{target=scalar fallback=true}' -t c | filecheck %s

// A scratch buffer that cannot be had (docs/calling_convention.md, "Out of memory"): every
// loop.alloc goes through lo_alloc (a negative length is 0, a size past size_t is a failure,
// errno = ENOMEM only on a failure), and on NULL the kernel frees the buffers it already holds
// and returns at once with every scalar result 0; the Python wrapper raises MemoryError.
// (The full pipeline's scratch: negative_lengths.mlir.)

// CHECK:       #include <errno.h>
// CHECK:       static void *lo_alloc(int64_t rows, int64_t cols, size_t size)
// CHECK:         if (c != 0u && r > ((uint64_t)SIZE_MAX - 1u) / size / c) {
// CHECK-NEXT:        errno = ENOMEM;
// CHECK-NEXT:        return NULL;
// CHECK:         const int saved = errno;
// CHECK-NEXT:    void *p = malloc((size_t)(r * c * size + 1u));
// CHECK-NEXT:    errno = p != NULL ? saved : ENOMEM;

// One result: returned as 0.
// CHECK-LABEL: int32_t temp(
// CHECK-NEXT:  {
// CHECK-NEXT:    int32_t *restrict [[D:[a-z0-9_]+]] = lo_alloc(x_len, 1, sizeof(int32_t));
// CHECK-NEXT:    if ([[D]] == NULL) { return 0; }
// CHECK:         free([[D]]);
// CHECK-NEXT:    return
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

// Two buffers: the second's failure frees the first.
// CHECK-LABEL: int64_t pair(
// CHECK:         int64_t *restrict [[D1:[a-z0-9_]+]] = lo_alloc(x_len, 1, sizeof(int64_t));
// CHECK-NEXT:    if ([[D1]] == NULL) { return 0; }
// CHECK:         int64_t *restrict [[D2:[a-z0-9_]+]] = lo_alloc(y_len, 1, sizeof(int64_t));
// CHECK-NEXT:    if ([[D2]] == NULL) { free([[D1]]); return 0; }
func.func @pair(%x: !df.array<i64, [i]>, %y: !df.array<i64, [j]>) -> i64 {
  %z = arith.constant 0 : i64
  %d1 = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %e : i64
    df.yield %s : i64
  }
  %a = df.reduce add(%d1, %z) over [i] : !df.array<i64, [i]> -> i64
  %b = df.reduce max(%d1, %z) over [i] : !df.array<i64, [i]> -> i64
  %d2 = df.map %y : !df.array<i64, [j]> -> !df.array<i64, [j]> {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  %c = df.reduce add(%d2, %z) over [j] : !df.array<i64, [j]> -> i64
  %m = df.reduce min(%d2, %z) over [j] : !df.array<i64, [j]> -> i64
  %r1 = arith.addi %a, %b : i64
  %r2 = arith.addi %c, %m : i64
  %r = arith.addi %r1, %r2 : i64
  func.return %r : i64
}

// No scalar result (void), a rank-2 buffer: rows and columns checked apart before multiplying.
// CHECK-LABEL: void two(
// CHECK:         float *restrict [[D:[a-z0-9_]+]] = lo_alloc(n_i, n_j, sizeof(float));
// CHECK-NEXT:    if ([[D]] == NULL) { return; }
func.func @two(%x: !df.array<f32, [i, j]>) -> (!df.array<f32, [i, j]>, !df.array<f32, [i, j]>) {
  %d = df.map %x : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %a = df.map %d : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32):
    %s = arith.addf %e, %e : f32
    df.yield %s : f32
  }
  %b = df.map %d, %a : !df.array<f32, [i, j]>, !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32, %f: f32):
    %s = arith.subf %e, %f : f32
    df.yield %s : f32
  }
  func.return %a, %b : !df.array<f32, [i, j]>, !df.array<f32, [i, j]>
}

// Two or more scalar results: each written as 0 through its pointer.
// CHECK-LABEL: void keep_sum(
// CHECK:         lo_alloc(x_len, 1, sizeof(int32_t));
// CHECK-NEXT:    if ({{.*}} == NULL) { *ret0 = 0; *ret1 = 0; return; }
func.func @keep_sum(%x: !df.array<i32, [i]>) -> (!df.array<i32, [k]>, i32) {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%a1: i32):
    %z = arith.constant 0 : i32
    %c = arith.cmpi sgt, %a1, %z : i32
    df.yield %c : i1
  }
  %z = arith.constant 0 : i32
  %s = df.reduce add(%p, %z) over [k] : !df.array<i32, [k]> -> i32
  func.return %p, %s : !df.array<i32, [k]>, i32
}
