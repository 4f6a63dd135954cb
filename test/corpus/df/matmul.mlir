// Matrix products in df: a map over the three axes of C[i, k] = Σ_j A[i, j] B[j, k], whose
// inputs are broadcast by axis name (A on [i, j], B on [j, k]), reduced over [j]. df-fuse makes
// the rank-3 products a map prologue of the reduction (they are never stored); the loop nest is
// i, k, j, which loop-interchange turns into rows of C updated four rows of B at a time,
// vectorized along k.

// REF: kernel=@matmul_f32 tol=close:1e-4 inputs=a:f32[n,19];b:f32[19,23] ref=np.sum(a.astype(np.float64)[:, None, :] * b.T[None, :, :], axis=2).astype(np.float32)
func.func @matmul_f32(%a: !df.array<f32, [i, j]>, %b: !df.array<f32, [j, k]>) -> !df.array<f32, [i, k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.map %a, %b : !df.array<f32, [i, j]>, !df.array<f32, [j, k]> -> !df.array<f32, [i, k, j]> {
  ^bb0(%x: f32, %y: f32):
    %q = arith.mulf %x, %y : f32
    df.yield %q : f32
  }
  %c = df.reduce add(%p, %zero) over [j] reassoc : !df.array<f32, [i, k, j]> -> !df.array<f32, [i, k]>
  func.return %c : !df.array<f32, [i, k]>
}

// The shared axis swept over the differential sizes (0, 1, W-1, W, W+1, primes, large).
// REF: kernel=@matmul_inner_f64 tol=close:1e-9 inputs=a:f64[5,n];b:f64[n,7] ref=np.sum(a[:, None, :] * b.T[None, :, :], axis=2)
func.func @matmul_inner_f64(%a: !df.array<f64, [i, j]>, %b: !df.array<f64, [j, k]>) -> !df.array<f64, [i, k]> {
  %zero = arith.constant 0.0 : f64
  %p = df.map %a, %b : !df.array<f64, [i, j]>, !df.array<f64, [j, k]> -> !df.array<f64, [i, k, j]> {
  ^bb0(%x: f64, %y: f64):
    %q = arith.mulf %x, %y : f64
    df.yield %q : f64
  }
  %c = df.reduce add(%p, %zero) over [j] reassoc : !df.array<f64, [i, k, j]> -> !df.array<f64, [i, k]>
  func.return %c : !df.array<f64, [i, k]>
}

// Integers wrap; C's columns swept over the sizes (the vector axis).
// REF: kernel=@matmul_i32 inputs=a:i32[3,4];b:i32[4,n] ref=np.sum(a[:, None, :] * b.T[None, :, :], axis=2, dtype=np.int32)
func.func @matmul_i32(%a: !df.array<i32, [i, j]>, %b: !df.array<i32, [j, k]>) -> !df.array<i32, [i, k]> {
  %zero = arith.constant 0 : i32
  %p = df.map %a, %b : !df.array<i32, [i, j]>, !df.array<i32, [j, k]> -> !df.array<i32, [i, k, j]> {
  ^bb0(%x: i32, %y: i32):
    %q = arith.muli %x, %y : i32
    df.yield %q : i32
  }
  %c = df.reduce add(%p, %zero) over [j] : !df.array<i32, [i, k, j]> -> !df.array<i32, [i, k]>
  func.return %c : !df.array<i32, [i, k]>
}

// A transposed operand is read by axis name: C = A^T B with A stored [j, i].
// REF: kernel=@matmul_at_b_f32 tol=close:1e-4 inputs=at:f32[11,n];b:f32[11,6] ref=np.sum(at.T.astype(np.float64)[:, None, :] * b.T[None, :, :], axis=2).astype(np.float32)
func.func @matmul_at_b_f32(%at: !df.array<f32, [j, i]>, %b: !df.array<f32, [j, k]>) -> !df.array<f32, [i, k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.map %at, %b : !df.array<f32, [j, i]>, !df.array<f32, [j, k]> -> !df.array<f32, [i, k, j]> {
  ^bb0(%x: f32, %y: f32):
    %q = arith.mulf %x, %y : f32
    df.yield %q : f32
  }
  %c = df.reduce add(%p, %zero) over [j] reassoc : !df.array<f32, [i, k, j]> -> !df.array<f32, [i, k]>
  func.return %c : !df.array<f32, [i, k]>
}
