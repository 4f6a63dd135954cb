// df.gather: x[idx] with bounds checks (an index outside [0, x.size) gives 0 and reads
// nothing). Indices range over [-40, 1100] against sources of n//2 + 500 elements, so
// most sizes see negative, in-bounds and too-large indices (and duplicates).

// REF: kernel=@gather_sum_f32 inputs=x:f32[n//2+500];idx:i32[n]~-40:1100 tol=reduction:np.where((idx>=0)&(idx<x.size),x[np.clip(idx,0,x.size-1)],0) ref=np.sum(np.where((idx >= 0) & (idx < x.size), x[np.clip(idx, 0, x.size - 1)], np.float32(0)), dtype=np.float32)
func.func @gather_sum_f32(%x: !df.array<f32, [j]>, %idx: !df.array<i32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %g = df.gather %x[%idx] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %s = df.reduce add(%g, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// REF: kernel=@take_f64 inputs=x:f64[n//2+500];idx:i64[n]~-40:1100 ref=np.where((idx >= 0) & (idx < x.size), x[np.clip(idx, 0, x.size - 1)], np.float64(0))
func.func @take_f64(%x: !df.array<f64, [j]>, %idx: !df.array<i64, [i]>) -> !df.array<f64, [i]> {
  %g = df.gather %x[%idx] : !df.array<f64, [j]>, !df.array<i64, [i]> -> !df.array<f64, [i]>
  func.return %g : !df.array<f64, [i]>
}

// REF: kernel=@gather_max_i32 inputs=x:i32[n//2+500];idx:i32[n]~-40:1100 ref=np.max(np.where((idx >= 0) & (idx < x.size), x[np.clip(idx, 0, x.size - 1)], np.int32(0)), initial=np.int32(-2147483648))
func.func @gather_max_i32(%x: !df.array<i32, [j]>, %idx: !df.array<i32, [i]>) -> i32 {
  %lo = arith.constant -2147483648 : i32
  %g = df.gather %x[%idx] : !df.array<i32, [j]>, !df.array<i32, [i]> -> !df.array<i32, [i]>
  %m = df.reduce max(%g, %lo) over [i] : !df.array<i32, [i]> -> i32
  func.return %m : i32
}

// A gather feeding a map (a table lookup, scaled).
// REF: kernel=@lookup_scale_i64 inputs=x:i64[n//2+500];idx:i64[n]~-40:1100;a:i64 ref=np.where((idx >= 0) & (idx < x.size), x[np.clip(idx, 0, x.size - 1)], np.int64(0)) * a
func.func @lookup_scale_i64(%x: !df.array<i64, [j]>, %idx: !df.array<i64, [i]>, %a: i64) -> !df.array<i64, [i]> {
  %g = df.gather %x[%idx] : !df.array<i64, [j]>, !df.array<i64, [i]> -> !df.array<i64, [i]>
  %y = df.map %g : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %m = arith.muli %e, %a : i64
    df.yield %m : i64
  }
  func.return %y : !df.array<i64, [i]>
}

// Indices from a filter (the result lives on the filter's new axis: a compacted output).
// REF: kernel=@take_positive inputs=x:f32[n+3];idx:i64[n]~-5:1005 ref=np.where((idx[idx > 0] < x.size), x[np.clip(idx[idx > 0], 0, x.size - 1)], np.float32(0))
func.func @take_positive(%x: !df.array<f32, [j]>, %idx: !df.array<i64, [i]>) -> !df.array<f32, [k]> {
  %p = df.filter %idx : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %z = arith.constant 0 : i64
    %c = arith.cmpi sgt, %e, %z : i64
    df.yield %c : i1
  }
  %g = df.gather %x[%p] : !df.array<f32, [j]>, !df.array<i64, [k]> -> !df.array<f32, [k]>
  func.return %g : !df.array<f32, [k]>
}

// A gather from a computed array (the map's result is materialized, then gathered).
// REF: kernel=@gather_of_map inputs=x:f64[n+3];idx:i64[n]~-5:1005 ref=np.where((idx >= 0) & (idx < x.size), 2 * x[np.clip(idx, 0, x.size - 1)], np.float64(0))
func.func @gather_of_map(%x: !df.array<f64, [j]>, %idx: !df.array<i64, [i]>) -> !df.array<f64, [i]> {
  %y = df.map %x : !df.array<f64, [j]> -> !df.array<f64, [j]> {
  ^bb0(%e: f64):
    %m = arith.addf %e, %e : f64
    df.yield %m : f64
  }
  %g = df.gather %y[%idx] : !df.array<f64, [j]>, !df.array<i64, [i]> -> !df.array<f64, [i]>
  func.return %g : !df.array<f64, [i]>
}
