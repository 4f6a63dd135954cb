func.func @sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
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
func.func @filter_gt0_sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %s = df.reduce add(%pos, %zero) over [k] : !df.array<i32, [k]> -> i32
  func.return %s : i32
}
func.func @max_i32(%x: !df.array<i32, [i]>) -> i32 {
  %lo = arith.constant -2147483648 : i32
  %s = df.reduce max(%x, %lo) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
