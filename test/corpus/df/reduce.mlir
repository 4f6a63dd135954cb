// df.reduce of every kind over a rank-1 array (an empty array gives the init).

// REF: kernel=@sum_f32 tol=reduction:x inputs=x:f32[n] ref=np.float32(np.sum(x.astype(np.float64)))
func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@sum_wrap_i32 inputs=x:i32[n]~-2147483648:2147483647 ref=np.sum(x, dtype=np.int32)
func.func @sum_wrap_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// REF: kernel=@prod_f64 tol=close:1e-12 inputs=x:f64[n]~0.99:1.01 ref=np.float64(2) * np.prod(x)
func.func @prod_f64(%x: !df.array<f64, [i]>) -> f64 {
  %two = arith.constant 2.0 : f64
  %s = df.reduce mul(%x, %two) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

// REF: kernel=@prod_wrap_i64 inputs=x:i64[n]~-9:9 ref=np.prod(x, dtype=np.int64)
func.func @prod_wrap_i64(%x: !df.array<i64, [i]>) -> i64 {
  %one = arith.constant 1 : i64
  %s = df.reduce mul(%x, %one) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@min_f32 inputs=x:f32[n]~-100:100 ref=np.float32(min(np.float32(1e30), x.min(initial=np.float32(1e30))))
func.func @min_f32(%x: !df.array<f32, [i]>) -> f32 {
  %big = arith.constant 1.0e30 : f32
  %s = df.reduce min(%x, %big) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@max_i32 inputs=x:i32[n] ref=np.int32(x.max(initial=np.int32(-2147483648)))
func.func @max_i32(%x: !df.array<i32, [i]>) -> i32 {
  %lo = arith.constant -2147483648 : i32
  %s = df.reduce max(%x, %lo) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// REF: kernel=@and_i64 inputs=x:i64[n]~-1:1000000000000 ref=np.bitwise_and.reduce(x, initial=np.int64(-1))
func.func @and_i64(%x: !df.array<i64, [i]>) -> i64 {
  %ones = arith.constant -1 : i64
  %s = df.reduce and(%x, %ones) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@or_i32 inputs=x:i32[n]~0:65535 ref=np.bitwise_or.reduce(np.concatenate([[np.int32(256)], x]).astype(np.int32))
func.func @or_i32(%x: !df.array<i32, [i]>) -> i32 {
  %init = arith.constant 256 : i32
  %s = df.reduce or(%x, %init) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// REF: kernel=@all_any_i1 inputs=b:i1[n] ref=(np.bool_(np.all(b)), np.bool_(np.any(b)))
func.func @all_any_i1(%b: !df.array<i1, [i]>) -> (i1, i1) {
  %t = arith.constant true
  %f = arith.constant false
  %all, %any = df.reduce and(%b, %t), or(%b, %f) over [i] : !df.array<i1, [i]>, !df.array<i1, [i]> -> i1, i1
  func.return %all, %any : i1, i1
}

// REF: kernel=@absmax_custom_f32 inputs=x:f32[n] ref=np.float32(np.max(np.abs(x), initial=np.float32(0)))
func.func @absmax_custom_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce custom(%x, %zero) over [i] : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %a = math.absf %e : f32
    %m = arith.maximumf %acc, %a : f32
    df.yield %m : f32
  }
  func.return %s : f32
}

// REF: kernel=@horner_custom_i64 inputs=x:i64[n]~0:9 ref=fold(lambda a, e: a * np.int64(10) + e, np.int64(0), x)
func.func @horner_custom_i64(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %ten = arith.constant 10 : i64
  %s = df.reduce custom(%x, %zero) over [i] : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %m = arith.muli %acc, %ten : i64
    %a = arith.addi %m, %e : i64
    df.yield %a : i64
  }
  func.return %s : i64
}
