// Maps over several arrays of one domain (zipWith), with captured scalars.

// REF: kernel=@axpy_f32 inputs=a:f32;x:f32[n];y:f32[n] ref=a * x + y
func.func @axpy_f32(%a: f32, %x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

// REF: kernel=@diff_i64 inputs=x:i64[n];y:i64[n] ref=x - y
func.func @diff_i64(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %r = df.map %x, %y : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64, %f: i64):
    %s = arith.subi %e, %f : i64
    df.yield %s : i64
  }
  func.return %r : !df.array<i64, [i]>
}

// REF: kernel=@fma3_f64 inputs=x:f64[n];y:f64[n];z:f64[n] ref=x * y + z
func.func @fma3_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>, %z: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %r = df.map %x, %y, %z : !df.array<f64, [i]>, !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %m, %c : f64
    df.yield %s : f64
  }
  func.return %r : !df.array<f64, [i]>
}

// REF: kernel=@minmax_i32 inputs=x:i32[n];y:i32[n] ref=(np.minimum(x, y), np.maximum(x, y))
func.func @minmax_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i32, [i]>) {
  %lo, %hi = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]>, !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %l = arith.minsi %a, %b : i32
    %h = arith.maxsi %a, %b : i32
    df.yield %l, %h : i32, i32
  }
  func.return %lo, %hi : !df.array<i32, [i]>, !df.array<i32, [i]>
}
