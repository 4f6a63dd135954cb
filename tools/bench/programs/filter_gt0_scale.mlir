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
