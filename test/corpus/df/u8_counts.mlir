// Narrow integers: u8 / i8 / u16 / i16 data (signless i8 / i16; the ops say unsigned), counted into
// wide counters without a histogram, and narrow maps. Semantics: docs/integer_semantics.md.

// REF: kernel=@count_u8_in_range inputs=x:u8[n]~0:255;lo:u8=48;hi:u8=57 ref=np.int64(np.count_nonzero((x >= 48) & (x <= 57)))
func.func @count_u8_in_range(%x: !df.array<i8, [i]>, %lo: i8, %hi: i8) -> i64 {
  %zero = arith.constant 0 : i64
  %hit = df.map %x : !df.array<i8, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i8):
    %ge = arith.cmpi uge, %e, %lo : i8
    %le = arith.cmpi ule, %e, %hi : i8
    %in = arith.andi %ge, %le : i1
    %v = arith.extui %in : i1 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%hit, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@count_u8_equal inputs=x:u8[n]~0:255;c:u8=200 ref=np.int64(np.count_nonzero(x == 200))
func.func @count_u8_equal(%x: !df.array<i8, [i]>, %c: i8) -> i64 {
  %zero = arith.constant 0 : i64
  %hit = df.map %x : !df.array<i8, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i8):
    %eq = arith.cmpi eq, %e, %c : i8
    %v = arith.extui %eq : i1 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%hit, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@sum_u8_wide inputs=x:u8[n]~0:255 ref=np.sum(x, dtype=np.uint64).astype(np.int64)
func.func @sum_u8_wide(%x: !df.array<i8, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %w = df.map %x : !df.array<i8, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i8):
    %v = arith.extui %e : i8 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%w, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// REF: kernel=@max_u8 inputs=x:u8[n]~0:255 ref=np.int8(np.int16(np.max(x, initial=0)) - 256 * (np.max(x, initial=0) > 127))
func.func @max_u8(%x: !df.array<i8, [i]>) -> i8 {
  %zero = arith.constant 0 : i8
  %m = df.reduce umax(%x, %zero) over [i] : !df.array<i8, [i]> -> i8
  func.return %m : i8
}

// REF: kernel=@min_u16 inputs=x:u16[n]~30000:65535 ref=np.int16(np.int32(np.min(x, initial=65535)) - 65536 * (np.min(x, initial=65535) > 32767))
func.func @min_u16(%x: !df.array<i16, [i]>) -> i16 {
  %ones = arith.constant -1 : i16
  %m = df.reduce umin(%x, %ones) over [i] : !df.array<i16, [i]> -> i16
  func.return %m : i16
}

// REF: kernel=@u16_scale_clamp inputs=x:u16[n]~0:65535;k:i16=3 ref=np.minimum(x.astype(np.int64) // 3, 20000).astype(np.uint16).astype(np.int16)
func.func @u16_scale_clamp(%x: !df.array<i16, [i]>, %k: i16) -> !df.array<i16, [i]> {
  %cap = arith.constant 20000 : i16
  %y = df.map %x : !df.array<i16, [i]> -> !df.array<i16, [i]> {
  ^bb0(%e: i16):
    %q = arith.divui %e, %k : i16
    %c = arith.minui %q, %cap : i16
    df.yield %c : i16
  }
  func.return %y : !df.array<i16, [i]>
}

// REF: kernel=@i16_sum_of_shifted inputs=x:i16[n]~-32768:32767;s:i16[n]~-1:17 ref=np.sum(np.where((s < 0) | (s >= 16), np.where(x < 0, -1, 0), np.right_shift(x, np.clip(s, 0, 15))).astype(np.int64))
func.func @i16_sum_of_shifted(%x: !df.array<i16, [i]>, %s: !df.array<i16, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %w = df.map %x, %s : !df.array<i16, [i]>, !df.array<i16, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i16, %t: i16):
    %r = arith.shrsi %e, %t : i16
    %v = arith.extsi %r : i16 to i64
    df.yield %v : i64
  }
  %sum = df.reduce add(%w, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %sum : i64
}
