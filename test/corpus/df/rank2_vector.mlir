// Rank-2 kernels that vectorize (docs/vectorize_codes.md): row reductions and row maps along the
// contiguous axis; column reductions after loop-interchange, across the columns of each row.
// `[7, n]` sweeps the row length (the vector axis) over the differential sizes, `[n, 9]` the rows.

// REF: kernel=@row_sums_f32 tol=reduction:m inputs=m:f32[7,n] ref=np.sum(m, axis=1)
func.func @row_sums_f32(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %r = df.reduce add(%m, %zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// REF: kernel=@row_sums_i32 inputs=m:i32[n,9] ref=np.sum(m, axis=1, dtype=np.int32)
func.func @row_sums_i32(%m: !df.array<i32, [i, j]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %r = df.reduce add(%m, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  func.return %r : !df.array<i32, [i]>
}

// REF: kernel=@row_max_f64 inputs=m:f64[5,n] ref=np.max(m, axis=1, initial=-np.inf)
func.func @row_max_f64(%m: !df.array<f64, [i, j]>) -> !df.array<f64, [i]> {
  %lo = arith.constant 0xFFF0000000000000 : f64
  %r = df.reduce max(%m, %lo) over [j] : !df.array<f64, [i, j]> -> !df.array<f64, [i]>
  func.return %r : !df.array<f64, [i]>
}

// REF: kernel=@row_min_i64 inputs=m:i64[3,n] ref=np.min(m, axis=1, initial=np.int64(9223372036854775807))
func.func @row_min_i64(%m: !df.array<i64, [i, j]>) -> !df.array<i64, [i]> {
  %hi = arith.constant 9223372036854775807 : i64
  %r = df.reduce min(%m, %hi) over [j] : !df.array<i64, [i, j]> -> !df.array<i64, [i]>
  func.return %r : !df.array<i64, [i]>
}

// REF: kernel=@row_axpb_f32 tol=ulp:1 inputs=m:f32[7,n];a:f32;b:f32 ref=m * a + b
func.func @row_axpb_f32(%m: !df.array<f32, [i, j]>, %a: f32, %b: f32) -> !df.array<f32, [i, j]> {
  %r = df.map %m : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %a : f32
    %q = arith.addf %p, %b : f32
    df.yield %q : f32
  }
  func.return %r : !df.array<f32, [i, j]>
}

// REF: kernel=@row_add_i64 inputs=x:i64[n,9];y:i64[n,9] ref=x + y
func.func @row_add_i64(%x: !df.array<i64, [i, j]>, %y: !df.array<i64, [i, j]>) -> !df.array<i64, [i, j]> {
  %r = df.map %x, %y : !df.array<i64, [i, j]>, !df.array<i64, [i, j]> -> !df.array<i64, [i, j]> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    df.yield %s : i64
  }
  func.return %r : !df.array<i64, [i, j]>
}

// REF: kernel=@col_sums_f32 tol=reduction:m inputs=m:f32[7,n] ref=np.sum(m, axis=0)
func.func @col_sums_f32(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [j]> {
  %zero = arith.constant 0.0 : f32
  %r = df.reduce add(%m, %zero) over [i] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [j]>
  func.return %r : !df.array<f32, [j]>
}

// An ordered float sum: every column adds its rows in order, interchanged or not (exact).
// REF: kernel=@col_sums_ordered_f64 inputs=m:f64[n,9] ref=fold(lambda acc, row: acc + row, np.zeros(m.shape[1]), m)
func.func @col_sums_ordered_f64(%m: !df.array<f64, [i, j]>) -> !df.array<f64, [j]> {
  %zero = arith.constant 0.0 : f64
  %r = df.reduce add(%m, %zero) over [i] : !df.array<f64, [i, j]> -> !df.array<f64, [j]>
  func.return %r : !df.array<f64, [j]>
}

// REF: kernel=@col_sums_i64 inputs=m:i64[5,n] ref=np.sum(m, axis=0, dtype=np.int64)
func.func @col_sums_i64(%m: !df.array<i64, [i, j]>) -> !df.array<i64, [j]> {
  %zero = arith.constant 0 : i64
  %r = df.reduce add(%m, %zero) over [i] : !df.array<i64, [i, j]> -> !df.array<i64, [j]>
  func.return %r : !df.array<i64, [j]>
}

// REF: kernel=@col_min_f32 inputs=m:f32[3,n] ref=np.min(m, axis=0, initial=np.inf)
func.func @col_min_f32(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [j]> {
  %hi = arith.constant 0x7F800000 : f32
  %r = df.reduce min(%m, %hi) over [i] : !df.array<f32, [i, j]> -> !df.array<f32, [j]>
  func.return %r : !df.array<f32, [j]>
}

// REF: kernel=@col_max_i32 inputs=m:i32[n,9] ref=np.max(m, axis=0, initial=np.int32(-2147483648))
func.func @col_max_i32(%m: !df.array<i32, [i, j]>) -> !df.array<i32, [j]> {
  %lo = arith.constant -2147483648 : i32
  %r = df.reduce max(%m, %lo) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r : !df.array<i32, [j]>
}
