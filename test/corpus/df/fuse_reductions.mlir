// Filtered reductions and horizontal fusion: filter -> reduce / fold, independent
// reductions of one domain (one pass), and the pairs that must stay apart.

// REF: kernel=@positive_sum_f32 tol=reduction:np.where(x>0,x,0) inputs=x:f32[n] ref=np.float32(np.sum(x[x > 0], dtype=np.float64))
func.func @positive_sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %s : f32
}

// REF: kernel=@even_count_max_i32 inputs=x:i32[n] ref=(np.int64(np.sum(x % 2 == 0)), np.int32(x[x % 2 == 0].max(initial=-2147483648)))
func.func @even_count_max_i32(%x: !df.array<i32, [i]>) -> (i64, i32) {
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %lo = arith.constant -2147483648 : i32
  %ev = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %r = arith.remsi %e, %two : i32
    %c = arith.cmpi eq, %r, %zero : i32
    df.yield %c : i1
  }
  %n = df.fold(%ev) init(%c0) : !df.array<i32, [k]> -> i64 {
  ^bb0(%acc: i64, %e: i32):
    %a = arith.addi %acc, %c1 : i64
    df.yield %a : i64
  }
  %m = df.reduce max(%ev, %lo) over [k] : !df.array<i32, [k]> -> i32
  func.return %n, %m : i64, i32
}

// REF: kernel=@mean_var_f32 tol=close:1e-4 inputs=x:f32[n]~-10:10;len:f32=max(n,1) ref=(np.float32(np.sum(x, dtype=np.float64) / len), np.float32(np.sum(x.astype(np.float64) ** 2) / len - (np.sum(x, dtype=np.float64) / len) ** 2))
func.func @mean_var_f32(%x: !df.array<f32, [i]>, %len: f32) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %mean = arith.divf %s, %len : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }
  %q = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %ex2 = arith.divf %q, %len : f32
  %m2 = arith.mulf %mean, %mean : f32
  %var = arith.subf %ex2, %m2 : f32
  func.return %mean, %var : f32, f32
}

// REF: kernel=@min_max_sum_i64 inputs=x:i64[n];y:i64[n] ref=(np.int64(x.min(initial=2**62)), np.int64(y.max(initial=-2**62)), np.int64(np.sum(x + y)))
func.func @min_max_sum_i64(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> (i64, i64, i64) {
  %hi = arith.constant 4611686018427387904 : i64
  %lo = arith.constant -4611686018427387904 : i64
  %zero = arith.constant 0 : i64
  %a = df.reduce min(%x, %hi) over [i] : !df.array<i64, [i]> -> i64
  %b = df.reduce max(%y, %lo) over [i] : !df.array<i64, [i]> -> i64
  %c:2 = df.reduce add(%x, %zero), add(%y, %zero) over [i] : !df.array<i64, [i]>, !df.array<i64, [i]> -> i64, i64
  %d = arith.addi %c#0, %c#1 : i64
  func.return %a, %b, %d : i64, i64, i64
}

// REF: kernel=@var_two_pass_f64 tol=close:1e-9 inputs=x:f64[n]~-10:10;len:f64=max(n,1) ref=np.float64(np.sum((x - np.sum(x) / len) ** 2) / len)
func.func @var_two_pass_f64(%x: !df.array<f64, [i]>, %len: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %mean = arith.divf %s, %len : f64
  %d = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %c = arith.subf %e, %mean : f64
    %p = arith.mulf %c, %c : f64
    df.yield %p : f64
  }
  %q = df.reduce add(%d, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %v = arith.divf %q, %len : f64
  func.return %v : f64
}

// REF: kernel=@row_col_sums_i32 inputs=m:i32[n,3] ref=(np.sum(m, axis=1, dtype=np.int32), np.sum(m, axis=0, dtype=np.int32))
func.func @row_col_sums_i32(%m: !df.array<i32, [i, j]>) -> (!df.array<i32, [i]>, !df.array<i32, [j]>) {
  %zero = arith.constant 0 : i32
  %r = df.reduce add(%m, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  %c = df.reduce add(%m, %zero) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r, %c : !df.array<i32, [i]>, !df.array<i32, [j]>
}

// REF: kernel=@ordered_and_free_sums_f32 tol=reduction:x inputs=x:f32[n] ref=(np.float32(np.sum(x, dtype=np.float64)), np.float32(np.sum(x, dtype=np.float64)))
func.func @ordered_and_free_sums_f32(%x: !df.array<f32, [i]>) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %a = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  %b = df.reduce add(%x, %zero) over [i] : !df.array<f32, [i]> -> f32
  func.return %a, %b : f32, f32
}
