// map: out[i] = a*x[i] + b  (kernel library: lo_axpb_<T>_<isa>; same parameter order x, a, b -> out)

func.func @axpb_f32(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %r = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @axpb_i32(%x: !df.array<i32, [i]>, %a: i32, %b: i32) -> !df.array<i32, [i]> {
  %r = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %b : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}
// zip -> map: out[i] = a*x[i] + y[i]  (lo_axpy_<T>_<isa>; same parameter order x, y, a -> out)

func.func @axpy_f32(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @axpy_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>, %a: i32) -> !df.array<i32, [i]> {
  %r = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32, %f: i32):
    %m = arith.muli %a, %e : i32
    %s = arith.addi %m, %f : i32
    df.yield %s : i32
  }
  func.return %r : !df.array<i32, [i]>
}
// filter -> map (compaction): out[k++] = a*x[i] for each x[i] > 0; the count is returned
// (lo_filter_gt0_scale_<T>_<isa>; same parameter order x, a -> out, count)

func.func @filter_gt0_scale_f32(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [k]>
}

func.func @filter_gt0_scale_i32(%x: !df.array<i32, [i]>, %a: i32) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<i32, [k]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %m = arith.muli %a, %e : i32
    df.yield %m : i32
  }
  func.return %y : !df.array<i32, [k]>
}
// filter -> fold: the sum of the x > 0  (lo_filter_gt0_sum_<T>_<isa>)

func.func @filter_gt0_sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %s : f32
}

func.func @filter_gt0_sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] : !df.array<i32, [k]> -> i32
  func.return %s : i32
}
// map -> map: out[i] = sqrt(|a*x[i]|) + b, float only  (lo_sqrt_abs_axpb_<T>_<isa>; x, a, b -> out)

func.func @sqrt_abs_axpb_f32(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %ax = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %n = math.absf %m : f32
    df.yield %n : f32
  }
  %y = df.map %ax : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %r = math.sqrt %e : f32
    %s = arith.addf %r, %b : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}
// fold: the sum of x (float: reassociated like the kernel library; i32 wraps)  (lo_sum_<T>_<isa>)

func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
// map -> fold: the sum of x*x  (lo_sumsq_<T>_<isa>)

func.func @sumsq_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @sumsq_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %sq = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %e : i32
    df.yield %m : i32
  }
  %s = df.reduce add(%sq, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
