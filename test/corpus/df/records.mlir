// Arrays of records (struct of arrays): maps over {x, y} records, building and splitting them.

// REF: kernel=@norm2_f32 inputs=p:{x:f32,y:f32}[n] ref=p["x"] * p["x"] + p["y"] * p["y"]
func.func @norm2_f32(%p: !df.array<!df.record<x: f32, y: f32>, [i]>) -> !df.array<f32, [i]> {
  %d = df.map %p : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: !df.record<x: f32, y: f32>):
    %x = df.field %e["x"] : !df.record<x: f32, y: f32> -> f32
    %y = df.field %e["y"] : !df.record<x: f32, y: f32> -> f32
    %xx = arith.mulf %x, %x : f32
    %yy = arith.mulf %y, %y : f32
    %s = arith.addf %xx, %yy : f32
    df.yield %s : f32
  }
  func.return %d : !df.array<f32, [i]>
}

// REF: kernel=@rotate_f64 inputs=x:f64[n];y:f64[n] ref=(-y, x)
func.func @rotate_f64(%xs: !df.array<f64, [i]>, %ys: !df.array<f64, [i]>) -> (!df.array<f64, [i]>, !df.array<f64, [i]>) {
  %p = df.make_records %xs, %ys : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<!df.record<x: f64, y: f64>, [i]>
  %q = df.map %p : !df.array<!df.record<x: f64, y: f64>, [i]> -> !df.array<!df.record<x: f64, y: f64>, [i]> {
  ^bb0(%e: !df.record<x: f64, y: f64>):
    %x = df.field %e["x"] : !df.record<x: f64, y: f64> -> f64
    %y = df.field %e["y"] : !df.record<x: f64, y: f64> -> f64
    %ny = arith.negf %y : f64
    %r = df.make_records %ny, %x : f64, f64 -> !df.record<x: f64, y: f64>
    df.yield %r : !df.record<x: f64, y: f64>
  }
  %qx = df.field %q["x"] : !df.array<!df.record<x: f64, y: f64>, [i]> -> !df.array<f64, [i]>
  %qy = df.field %q["y"] : !df.array<!df.record<x: f64, y: f64>, [i]> -> !df.array<f64, [i]>
  func.return %qx, %qy : !df.array<f64, [i]>, !df.array<f64, [i]>
}

// REF: kernel=@weighted_total_i64 inputs=r:{qty:i32,price:i64}[n] ref=np.sum(r["qty"].astype(np.int64) * r["price"], dtype=np.int64)
func.func @weighted_total_i64(%r: !df.array<!df.record<qty: i32, price: i64>, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %v = df.map %r : !df.array<!df.record<qty: i32, price: i64>, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: !df.record<qty: i32, price: i64>):
    %q = df.field %e["qty"] : !df.record<qty: i32, price: i64> -> i32
    %p = df.field %e["price"] : !df.record<qty: i32, price: i64> -> i64
    %qw = arith.extsi %q : i32 to i64
    %m = arith.muli %qw, %p : i64
    df.yield %m : i64
  }
  %s = df.reduce add(%v, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
