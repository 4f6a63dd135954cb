// Chains that become df's fused forms under df-fuse (a corpus in test/corpus/df's format,
// kept next to the df-fuse tests): map → scan, map → partial reduce, filter → map chains,
// filter → map → reduce / fold, horizontal reduces with prologues and predicates.

// REF: kernel=@scan_of_squares_i64 inputs=x:i64[n]~-1000:1000 ref=np.cumsum(x * x + np.int64(1), dtype=np.int64)
func.func @scan_of_squares_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %sq = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %m = arith.muli %e, %e : i64
    %p = arith.addi %m, %one : i64
    df.yield %p : i64
  }
  %s = df.scan add(%sq, %zero) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %s : !df.array<i64, [i]>
}

// REF: kernel=@row_sumsq_col_max_i32 inputs=m:i32[n,5]~-100:100 ref=(np.sum(m * m, axis=1, dtype=np.int32), np.maximum((m - np.int32(3)).max(axis=0, initial=-2147483648), np.int32(-7)).astype(np.int32))
func.func @row_sumsq_col_max_i32(%m: !df.array<i32, [i, j]>) -> (!df.array<i32, [i]>, !df.array<i32, [j]>) {
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %lo = arith.constant -7 : i32
  %sq = df.map %m : !df.array<i32, [i, j]> -> !df.array<i32, [i, j]> {
  ^bb0(%e: i32):
    %p = arith.muli %e, %e : i32
    df.yield %p : i32
  }
  %r = df.reduce add(%sq, %zero) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  %d = df.map %m : !df.array<i32, [i, j]> -> !df.array<i32, [i, j]> {
  ^bb0(%e: i32):
    %s = arith.subi %e, %three : i32
    df.yield %s : i32
  }
  %c = df.reduce max(%d, %lo) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r, %c : !df.array<i32, [i]>, !df.array<i32, [j]>
}

// REF: kernel=@odd_scaled_shifted_i32 inputs=x:i32[n] ref=x[x % 2 != 0] * np.int32(5) - np.int32(1)
func.func @odd_scaled_shifted_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  %five = arith.constant 5 : i32
  %one = arith.constant 1 : i32
  %odd = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %r = arith.remsi %e, %two : i32
    %c = arith.cmpi ne, %r, %zero : i32
    df.yield %c : i1
  }
  %a = df.map %odd : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %five : i32
    df.yield %m : i32
  }
  %b = df.map %a : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %s = arith.subi %e, %one : i32
    df.yield %s : i32
  }
  func.return %b : !df.array<i32, [k]>
}

// REF: kernel=@gaps_where_below_f64 inputs=x:f64[n];y:f64[n] ref=(y[x < y] - x[x < y], x[x < y])
func.func @gaps_where_below_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> (!df.array<f64, [k]>, !df.array<f64, [k]>) {
  %p, %q = df.filter %x, %y : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [k]>, !df.array<f64, [k]> {
  ^bb0(%a: f64, %b: f64):
    %c = arith.cmpf olt, %a, %b : f64
    df.yield %c : i1
  }
  %g, %lo = df.map %p, %q : !df.array<f64, [k]>, !df.array<f64, [k]> -> !df.array<f64, [k]>, !df.array<f64, [k]> {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %b, %a : f64
    df.yield %d, %a : f64, f64
  }
  func.return %g, %lo : !df.array<f64, [k]>, !df.array<f64, [k]>
}

// REF: kernel=@positive_stats_f32 tol=reduction:np.abs(x[x>0])*2 inputs=x:f32[n] ref=(np.float32(np.sum(x[x > 0] * np.float32(2), dtype=np.float64)), np.float32(np.max(x[x > 0], initial=np.float32(0))))
func.func @positive_stats_f32(%x: !df.array<f32, [i]>) -> (f32, f32) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %d = df.map %p : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %two : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%d, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  %m = df.reduce max(%p, %zero) over [k] : !df.array<f32, [k]> -> f32
  func.return %s, %m : f32, f32
}

// REF: kernel=@sumsq_and_max_product_i64 inputs=x:i64[n]~-1000:1000;y:i64[n]~-1000:1000 ref=(np.sum(x * x, dtype=np.int64), np.int64((x * y).max(initial=-2**62)))
func.func @sumsq_and_max_product_i64(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> (i64, i64) {
  %zero = arith.constant 0 : i64
  %lo = arith.constant -4611686018427387904 : i64
  %sq = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %m = arith.muli %e, %e : i64
    df.yield %m : i64
  }
  %s = df.reduce add(%sq, %zero) over [i] : !df.array<i64, [i]> -> i64
  %xy = df.map %x, %y : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%a: i64, %b: i64):
    %m = arith.muli %a, %b : i64
    df.yield %m : i64
  }
  %m = df.reduce max(%xy, %lo) over [i] : !df.array<i64, [i]> -> i64
  func.return %s, %m : i64, i64
}

// REF: kernel=@below_above_counts_i64 inputs=x:i64[n];t:i64 ref=(np.int64(np.sum(x < t)), np.int64(np.sum(x > t)))
func.func @below_above_counts_i64(%x: !df.array<i64, [i]>, %t: i64) -> (i64, i64) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %b = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c = arith.cmpi slt, %e, %t : i64
    df.yield %c : i1
  }
  %ob = df.map %b : !df.array<i64, [k]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    df.yield %one : i64
  }
  %nb = df.reduce add(%ob, %zero) over [k] : !df.array<i64, [k]> -> i64
  %a = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [l]> {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %t : i64
    df.yield %c : i1
  }
  %oa = df.map %a : !df.array<i64, [l]> -> !df.array<i64, [l]> {
  ^bb0(%e: i64):
    df.yield %one : i64
  }
  %na = df.reduce add(%oa, %zero) over [l] : !df.array<i64, [l]> -> i64
  func.return %nb, %na : i64, i64
}

// REF: kernel=@even_tripled_hash_i64 inputs=x:i64[n] ref=np.int64(fold(lambda a, e: a * np.int64(31) + e * np.int64(3), np.int64(7), x[x % 2 == 0]))
func.func @even_tripled_hash_i64(%x: !df.array<i64, [i]>) -> i64 {
  %two = arith.constant 2 : i64
  %zero = arith.constant 0 : i64
  %three = arith.constant 3 : i64
  %k = arith.constant 31 : i64
  %seed = arith.constant 7 : i64
  %ev = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %r = arith.remsi %e, %two : i64
    %c = arith.cmpi eq, %r, %zero : i64
    df.yield %c : i1
  }
  %t = df.map %ev : !df.array<i64, [k]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %m = arith.muli %e, %three : i64
    df.yield %m : i64
  }
  %h = df.fold(%t) init(%seed) : !df.array<i64, [k]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %m = arith.muli %acc, %k : i64
    %s = arith.addi %m, %e : i64
    df.yield %s : i64
  }
  func.return %h : i64
}

// REF: kernel=@nonzero_custom_max_abs_i32 inputs=x:i32[n] ref=np.int32(fold(lambda a, e: max(a, abs(e)), np.int32(-1), x[x != 0]))
func.func @nonzero_custom_max_abs_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %init = arith.constant -1 : i32
  %nz = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi ne, %e, %zero : i32
    df.yield %c : i1
  }
  %m = df.reduce custom(%nz, %init) over [k] : !df.array<i32, [k]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %a = math.absi %e : i32
    %n = arith.maxsi %acc, %a : i32
    df.yield %n : i32
  }
  func.return %m : i32
}
