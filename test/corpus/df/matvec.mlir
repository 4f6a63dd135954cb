// Matrix-vector products in df: a map over the matrix with the vector broadcast along the
// rows by axis name (`v` on [j] next to `m` on [i, j]), reduced over the shared axis.
// df-fuse makes each one pass: a row dot product (contiguous, vectorized along j), or for
// `x^T M` a column reduction that loop-interchange turns into contiguous row updates.

// REF: kernel=@matvec_f32 tol=reduction:m*v inputs=m:f32[n,37];v:f32[37] ref=np.sum(m.astype(np.float64) * v, axis=1).astype(np.float32)
func.func @matvec_f32(%m: !df.array<f32, [i, j]>, %v: !df.array<f32, [j]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %p = df.map %m, %v : !df.array<f32, [i, j]>, !df.array<f32, [j]> -> !df.array<f32, [i, j]> {
  ^bb0(%a: f32, %b: f32):
    %q = arith.mulf %a, %b : f32
    df.yield %q : f32
  }
  %r = df.reduce add(%p, %zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// REF: kernel=@matvec_wide_f64 tol=reduction:m*v inputs=m:f64[5,n];v:f64[n] ref=np.sum(m * v, axis=1)
func.func @matvec_wide_f64(%m: !df.array<f64, [i, j]>, %v: !df.array<f64, [j]>) -> !df.array<f64, [i]> {
  %zero = arith.constant 0.0 : f64
  %p = df.map %m, %v : !df.array<f64, [i, j]>, !df.array<f64, [j]> -> !df.array<f64, [i, j]> {
  ^bb0(%a: f64, %b: f64):
    %q = arith.mulf %a, %b : f64
    df.yield %q : f64
  }
  %r = df.reduce add(%p, %zero) over [j] reassoc : !df.array<f64, [i, j]> -> !df.array<f64, [i]>
  func.return %r : !df.array<f64, [i]>
}

// REF: kernel=@matvec_i32 inputs=m:i32[3,n];v:i32[n] ref=np.sum(m * v, axis=1, dtype=np.int32)
func.func @matvec_i32(%m: !df.array<i32, [i, j]>, %v: !df.array<i32, [j]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.map %m, %v : !df.array<i32, [i, j]>, !df.array<i32, [j]> -> !df.array<i32, [i, j]> {
  ^bb0(%a: i32, %b: i32):
    %q = arith.muli %a, %b : i32
    df.yield %q : i32
  }
  %r = df.reduce add(%p, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  func.return %r : !df.array<i32, [i]>
}

// x^T M: the vector is on the rows' axis, the reduction runs down the columns.
// REF: kernel=@xt_m_f32 tol=reduction:m*x[:,None] inputs=m:f32[6,n];x:f32[6] ref=np.sum(m.astype(np.float64) * x[:, None], axis=0).astype(np.float32)
func.func @xt_m_f32(%m: !df.array<f32, [i, j]>, %x: !df.array<f32, [i]>) -> !df.array<f32, [j]> {
  %zero = arith.constant 0.0 : f32
  %p = df.map %m, %x : !df.array<f32, [i, j]>, !df.array<f32, [i]> -> !df.array<f32, [i, j]> {
  ^bb0(%a: f32, %b: f32):
    %q = arith.mulf %a, %b : f32
    df.yield %q : f32
  }
  %r = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [j]>
  func.return %r : !df.array<f32, [j]>
}

// Each row minus its own offset: a row map with an [i] input broadcast along j.
// REF: kernel=@row_center_f64 inputs=m:f64[n,9];c:f64[n] ref=m - c[:, None]
func.func @row_center_f64(%m: !df.array<f64, [i, j]>, %c: !df.array<f64, [i]>) -> !df.array<f64, [i, j]> {
  %r = df.map %m, %c : !df.array<f64, [i, j]>, !df.array<f64, [i]> -> !df.array<f64, [i, j]> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %a, %b : f64
    df.yield %d : f64
  }
  func.return %r : !df.array<f64, [i, j]>
}
