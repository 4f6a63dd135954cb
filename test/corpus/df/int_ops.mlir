// Integer ops that vectorize on every SIMD ISA (targets/c_intvec.py): division and remainder
// by a constant (i32: multiply-high with magic numbers) and by a variable (lane by lane, by
// zero gives 0, MIN / -1 = MIN), unsigned min/max, popcount, unsigned compares, shifts.
// Semantics: docs/integer_semantics.md.

// REF: kernel=@divu_by_7_i32 inputs=x:i32[n]~-2147483648:2147483647 ref=(x.astype(np.uint32) // np.uint32(7)).astype(np.int32)
func.func @divu_by_7_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %d = arith.constant 7 : i32
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %r = arith.divui %e, %d : i32
    df.yield %r : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// REF: kernel=@div_rem_by_minus_10_i32 inputs=x:i32[n]~-2147483648:2147483647 ref=(np.sign(x.astype(np.int64)) * -(np.abs(x.astype(np.int64)) // 10)).astype(np.int32), (x.astype(np.int64) - 10 * np.sign(x.astype(np.int64)) * (np.abs(x.astype(np.int64)) // 10)).astype(np.int32)
func.func @div_rem_by_minus_10_i32(%x: !df.array<i32, [i]>) -> (!df.array<i32, [i]>, !df.array<i32, [i]>) {
  %d = arith.constant -10 : i32
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %r = arith.divsi %e, %d : i32
    df.yield %r : i32
  }
  %m = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %r = arith.remsi %e, %d : i32
    df.yield %r : i32
  }
  func.return %q, %m : !df.array<i32, [i]>, !df.array<i32, [i]>
}

// REF: kernel=@remu_by_1000_i64 inputs=x:i64[n]~-9223372036854775808:9223372036854775807 ref=(x.astype(np.uint64) % np.uint64(1000)).astype(np.int64)
func.func @remu_by_1000_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %d = arith.constant 1000 : i64
  %q = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %r = arith.remui %e, %d : i64
    df.yield %r : i64
  }
  func.return %q : !df.array<i64, [i]>
}

// REF: kernel=@div_var_i32 inputs=x:i32[n]~-2147483648:2147483647;y:i32[n]~-3:3 ref=np.where(y == 0, 0, np.where(y == -1, (-x.astype(np.int64)).astype(np.int32), (np.sign(x.astype(np.int64)) * np.sign(y) * (np.abs(x.astype(np.int64)) // np.abs(np.where(y == 0, 1, y)))).astype(np.int32)))
func.func @div_var_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %q = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %r = arith.divsi %a, %b : i32
    df.yield %r : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// REF: kernel=@remu_var_i64 inputs=x:i64[n]~-9223372036854775808:9223372036854775807;y:i64[n]~0:5 ref=np.where(y == 0, 0, (x.astype(np.uint64) % np.where(y == 0, 1, y).astype(np.uint64)).astype(np.int64))
func.func @remu_var_i64(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %q = df.map %x, %y : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%a: i64, %b: i64):
    %r = arith.remui %a, %b : i64
    df.yield %r : i64
  }
  func.return %q : !df.array<i64, [i]>
}

// REF: kernel=@popcount_sum_i64 inputs=x:i64[n]~-9223372036854775808:9223372036854775807 ref=np.sum(np.bitwise_count(x.astype(np.uint64)), dtype=np.int64)
func.func @popcount_sum_i64(%x: !df.array<i64, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %c = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %p = math.ctpop %e : i64
    df.yield %p : i64
  }
  %s = df.reduce add(%c, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@clamp_u32 inputs=x:i32[n]~-2147483648:2147483647;lo:i32=1000;hi:i32=-1000 ref=np.minimum(np.maximum(x.astype(np.uint32), np.uint32(1000)), np.uint32(4294966296)).astype(np.int32)
func.func @clamp_u32(%x: !df.array<i32, [i]>, %lo: i32, %hi: i32) -> !df.array<i32, [i]> {
  %q = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %a = arith.maxui %e, %lo : i32
    %b = arith.minui %a, %hi : i32
    df.yield %b : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// REF: kernel=@count_above_u32 inputs=x:i32[n]~-2147483648:2147483647;t:i32=-5 ref=np.int64(np.count_nonzero(x.astype(np.uint32) > np.uint32(4294967291)))
func.func @count_above_u32(%x: !df.array<i32, [i]>, %t: i32) -> i64 {
  %zero = arith.constant 0 : i64
  %c = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %gt = arith.cmpi ugt, %e, %t : i32
    %v = arith.extui %gt : i1 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%c, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@shifts_i32 inputs=x:i32[n]~-2147483648:2147483647;s:i32[n]~-2:40 ref=np.where((s < 0) | (s >= 32), 0, np.right_shift(x.astype(np.uint32), np.clip(s, 0, 31).astype(np.uint32)).astype(np.int32) ^ np.left_shift(x, np.clip(s, 0, 31)))
func.func @shifts_i32(%x: !df.array<i32, [i]>, %s: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %q = df.map %x, %s : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %r = arith.shrui %a, %b : i32
    %l = arith.shli %a, %b : i32
    %x2 = arith.xori %r, %l : i32
    df.yield %x2 : i32
  }
  func.return %q : !df.array<i32, [i]>
}

// REF: kernel=@divu_remsi_var_wide_i32 inputs=x:i32[n]~-2147483648:2147483647;y:i32[n]~-2147483648:2147483647 ref=np.where(y == 0, 0, (x.astype(np.uint32) // np.where(y == 0, 1, y).astype(np.uint32)).astype(np.int32)) ^ np.where(y == 0, 0, (x.astype(np.int64) - np.where(y == 0, 1, y).astype(np.int64) * (np.sign(x.astype(np.int64)) * np.sign(np.where(y == 0, 1, y).astype(np.int64)) * (np.abs(x.astype(np.int64)) // np.abs(np.where(y == 0, 1, y).astype(np.int64))))).astype(np.int32))
func.func @divu_remsi_var_wide_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %q = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %d = arith.divui %a, %b : i32
    %r = arith.remsi %a, %b : i32
    %x2 = arith.xori %d, %r : i32
    df.yield %x2 : i32
  }
  func.return %q : !df.array<i32, [i]>
}
