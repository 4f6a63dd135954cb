// Producer -> consumer chains df-fuse fuses: map ∘ map, zip of maps, map -> reduce / fold,
// a cheap multi-use producer (recomputed) and a costly one (kept materialized).

// REF: kernel=@map_chain_f32 tol=ulp:2 inputs=x:f32[n] ref=np.sqrt(np.abs(x * np.float32(2) + np.float32(1)))
func.func @map_chain_f32(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %two : f32
    df.yield %m : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.addf %e, %one : f32
    df.yield %p : f32
  }
  %c = df.map %b : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = math.absf %e : f32
    %r = math.sqrt %v : f32
    df.yield %r : f32
  }
  func.return %c : !df.array<f32, [i]>
}

// REF: kernel=@zip_of_maps_i32 inputs=x:i32[n];y:i32[n] ref=(x * np.int32(3)) - (y + np.int32(7)) * x
func.func @zip_of_maps_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %fx = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %three : i32
    df.yield %m : i32
  }
  %gy = df.map %y : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %p = arith.addi %e, %seven : i32
    df.yield %p : i32
  }
  %h = df.map %fx, %gy, %x : !df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %bc = arith.muli %b, %c : i32
    %d = arith.subi %a, %bc : i32
    df.yield %d : i32
  }
  func.return %h : !df.array<i32, [i]>
}

// REF: kernel=@dot_f64 tol=reduction:x*y inputs=x:f64[n];y:f64[n] ref=np.float64(np.dot(x, y)) if n else np.float64(0)
func.func @dot_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %p = df.map %x, %y : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64):
    %m = arith.mulf %a, %b : f64
    df.yield %m : f64
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

// REF: kernel=@max_abs_i64 inputs=x:i64[n] ref=np.int64(np.abs(x).max(initial=0))
func.func @max_abs_i64(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %a = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %r = math.absi %e : i64
    df.yield %r : i64
  }
  %m = df.reduce max(%a, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %m : i64
}

// REF: kernel=@hash_fold_i64 inputs=x:i64[n] ref=np.int64(fold(lambda a, e: a * np.int64(31) + (e ^ np.int64(5)), np.int64(17), x))
func.func @hash_fold_i64(%x: !df.array<i64, [i]>) -> i64 {
  %five = arith.constant 5 : i64
  %k = arith.constant 31 : i64
  %seed = arith.constant 17 : i64
  %t = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %r = arith.xori %e, %five : i64
    df.yield %r : i64
  }
  %h = df.fold(%t) init(%seed) : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %m = arith.muli %acc, %k : i64
    %s = arith.addi %m, %e : i64
    df.yield %s : i64
  }
  func.return %h : i64
}

// REF: kernel=@shared_square_f32 tol=reduction:x*x inputs=x:f32[n] ref=(x * x + np.float32(1), np.float32(np.sum(x.astype(np.float64) * x)))
func.func @shared_square_f32(%x: !df.array<f32, [i]>) -> (!df.array<f32, [i]>, f32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %y = df.map %sq : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.addf %e, %one : f32
    df.yield %p : f32
  }
  %r = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %y, %r : !df.array<f32, [i]>, f32
}

// REF: kernel=@costly_shared_f64 tol=close:1e-14 inputs=x:f64[n]~0.5:2 ref=(np.exp(np.log(x) * 3.0 + 1.0) / (x + 2.0) - x, np.sqrt(np.exp(np.log(x) * 3.0 + 1.0) / (x + 2.0) - x + 10.0))
func.func @costly_shared_f64(%x: !df.array<f64, [i]>) -> (!df.array<f64, [i]>, !df.array<f64, [i]>) {
  %three = arith.constant 3.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %ten = arith.constant 10.0 : f64
  %c = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %l = math.log %e : f64
    %m = arith.mulf %l, %three : f64
    %a = arith.addf %m, %one : f64
    %x2 = math.exp %a : f64
    %d = arith.addf %e, %two : f64
    %q = arith.divf %x2, %d : f64
    %r = arith.subf %q, %e : f64
    %n0 = arith.negf %r : f64
    %n1 = arith.negf %n0 : f64
    df.yield %n1 : f64
  }
  %s = df.map %c : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f64):
    %a = arith.addf %e, %ten : f64
    %r = math.sqrt %a : f64
    df.yield %r : f64
  }
  func.return %c, %s : !df.array<f64, [i]>, !df.array<f64, [i]>
}
