// Tuples: make_tuple / get of scalar results and of arrays.

// REF: kernel=@range_pair_i32 inputs=x:i32[n] ref=(np.int32(x.max(initial=-2147483648)) - np.int32(x.min(initial=2147483647)),)
func.func @range_pair_i32(%x: !df.array<i32, [i]>) -> i32 {
  %lo = arith.constant -2147483648 : i32
  %hi = arith.constant 2147483647 : i32
  %mx = df.reduce max(%x, %lo) over [i] : !df.array<i32, [i]> -> i32
  %mn = df.reduce min(%x, %hi) over [i] : !df.array<i32, [i]> -> i32
  %t = df.make_tuple %mx, %mn : i32, i32 -> tuple<i32, i32>
  %a = df.get %t[0] : tuple<i32, i32> -> i32
  %b = df.get %t[1] : tuple<i32, i32> -> i32
  %d = arith.subi %a, %b : i32
  func.return %d : i32
}

// REF: kernel=@swap_arrays_f64 inputs=x:f64[n];y:f64[n] ref=(y, x)
func.func @swap_arrays_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> (!df.array<f64, [i]>, !df.array<f64, [i]>) {
  %t = df.make_tuple %x, %y : !df.array<f64, [i]>, !df.array<f64, [i]> -> tuple<!df.array<f64, [i]>, !df.array<f64, [i]>>
  %a = df.get %t[1] : tuple<!df.array<f64, [i]>, !df.array<f64, [i]>> -> !df.array<f64, [i]>
  %b = df.get %t[0] : tuple<!df.array<f64, [i]>, !df.array<f64, [i]>> -> !df.array<f64, [i]>
  func.return %a, %b : !df.array<f64, [i]>, !df.array<f64, [i]>
}
