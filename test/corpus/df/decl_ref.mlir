// df.decl_ref: one declaration's result used by another.

// REF: kernel=@total_f64 tol=reduction:x inputs=x:f64[n] ref=np.sum(x)
func.func @total_f64(%x: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

// REF: kernel=@centered_f64 tol=close:1e-12 inputs=x:f64[n];len:f64=max(n,1) ref=x - np.sum(x) / len
func.func @centered_f64(%x: !df.array<f64, [i]>, %len: f64) -> !df.array<f64, [i]> {
  %s = df.decl_ref @total_f64(%x) : (!df.array<f64, [i]>) -> f64
  %mean = arith.divf %s, %len : f64
  %c = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %d = arith.subf %e, %mean : f64
    df.yield %d : f64
  }
  func.return %c : !df.array<f64, [i]>
}

// REF: kernel=@count_nonneg_i32 inputs=x:i32[n] ref=np.int32(np.sum(x >= 0))
func.func @count_nonneg_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %flags = df.decl_ref @nonneg_flags(%x) : (!df.array<i32, [i]>) -> !df.array<i32, [i]>
  %s = df.reduce add(%flags, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// REF: kernel=@nonneg_flags inputs=x:i32[n] ref=(x >= 0).astype(np.int32)
func.func @nonneg_flags(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %f = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sge, %e, %zero : i32
    %b = arith.extui %c : i1 to i32
    df.yield %b : i32
  }
  func.return %f : !df.array<i32, [i]>
}
