// Elementwise maps, map∘map chains, multi-result maps (one domain, no reduction).

// REF: kernel=@affine_f32 inputs=x:f32[n] ref=x * np.float32(2) + np.float32(1)
func.func @affine_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %two : f32
    %a = arith.addf %m, %one : f32
    df.yield %a : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@square_f64 inputs=x:f64[n]~-1e3:1e3 ref=x * x
func.func @square_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %m = arith.mulf %e, %e : f64
    df.yield %m : f64
  }
  func.return %y : !df.array<f64, [i]>
}

// REF: kernel=@poly_i32 inputs=x:i32[n]~-100000:100000 ref=x * x * np.int32(3) - x + np.int32(7)
func.func @poly_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %three = df.constant 3 : i32
  %seven = df.constant 7 : i32
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %sq = arith.muli %e, %e : i32
    %t = arith.muli %sq, %three : i32
    %u = arith.subi %t, %e : i32
    %v = arith.addi %u, %seven : i32
    df.yield %v : i32
  }
  func.return %y : !df.array<i32, [i]>
}

// REF: kernel=@chain_f32 tol=ulp:2 inputs=x:f32[n]~-4:4 ref=np.sqrt(x * x + np.float32(1)) * np.float32(0.5)
func.func @chain_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    %s = arith.addf %m, %one : f32
    df.yield %s : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %r = math.sqrt %e : f32
    df.yield %r : f32
  }
  %c = df.map %b : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %h = arith.mulf %e, %half : f32
    df.yield %h : f32
  }
  func.return %c : !df.array<f32, [i]>
}

// REF: kernel=@divmod_i64 inputs=x:i64[n]~-1000000:1000000 ref=(np.trunc(x / 7).astype(np.int64), x - np.trunc(x / 7).astype(np.int64) * 7)
func.func @divmod_i64(%x: !df.array<i64, [i]>) -> (!df.array<i64, [i]>, !df.array<i64, [i]>) {
  %seven = arith.constant 7 : i64
  %q, %r = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]>, !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %d = arith.divsi %e, %seven : i64
    %m = arith.remsi %e, %seven : i64
    df.yield %d, %m : i64, i64
  }
  func.return %q, %r : !df.array<i64, [i]>, !df.array<i64, [i]>
}

// REF: kernel=@widen_i32_f64 inputs=x:i32[n] ref=x.astype(np.float64) * 0.25
func.func @widen_i32_f64(%x: !df.array<i32, [i]>) -> !df.array<f64, [i]> {
  %q = arith.constant 0.25 : f64
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: i32):
    %f = arith.sitofp %e : i32 to f64
    %m = arith.mulf %f, %q : f64
    df.yield %m : f64
  }
  func.return %y : !df.array<f64, [i]>
}
