// i8/i16 lanes next to wider ones (issue 12): the widest type decides the lane count and the
// narrow vectors fill part of a register (targets/c_narrow_part.py); conversions with a narrow
// side go through i32 (loop_to_simd/narrow_convert.py). Semantics: docs/integer_semantics.md.

// u8 pixels scaled to f32 (`x.astype(np.float32) * a`).
// REF: kernel=@u8_scale_f32 inputs=x:u8[n]~0:255;a:f32=0.5 ref=x.astype(np.float32) * np.float32(0.5)
func.func @u8_scale_f32(%x: !df.array<i8, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i8, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i8):
    %w = arith.uitofp %e : i8 to f32
    %m = arith.mulf %w, %a : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// i32 -> i16 keeps the low 16 bits.
// REF: kernel=@trunc_i32_i16 inputs=x:i32[n]~-2147483648:2147483647 ref=x.astype(np.int16)
func.func @trunc_i32_i16(%x: !df.array<i32, [i]>) -> !df.array<i16, [i]> {
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<i16, [i]> {
  ^bb0(%e: i32):
    %t = arith.trunci %e : i32 to i16
    df.yield %t : i16
  }
  func.return %y : !df.array<i16, [i]>
}

// f32 -> u8 saturates: truncated toward zero, clamped to [0, 255] (negative values give 0).
// REF: kernel=@f32_to_u8_sat inputs=x:f32[n]~-400:400 ref=np.clip(np.trunc(x), 0, 255).astype(np.uint8).astype(np.int8)
func.func @f32_to_u8_sat(%x: !df.array<f32, [i]>) -> !df.array<i8, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<i8, [i]> {
  ^bb0(%e: f32):
    %t = arith.fptoui %e : f32 to i8
    df.yield %t : i8
  }
  func.return %y : !df.array<i8, [i]>
}

// A zip of u8 and f32 data: an i8 compare selects f32 lanes, an f32 compare selects i8 lanes.
// REF: kernel=@zip_u8_f32 inputs=x:u8[n]~0:255;y:f32[n]~-10:10 ref=(np.where(x < 128, y * x.astype(np.float32), y), np.where(y < 0, x, np.uint8(0)).astype(np.int8))
func.func @zip_u8_f32(%x: !df.array<i8, [i]>, %y: !df.array<f32, [i]>) -> (!df.array<f32, [i]>, !df.array<i8, [i]>) {
  %lim = arith.constant -128 : i8
  %z8 = arith.constant 0 : i8
  %zf = arith.constant 0.0 : f32
  %r:2 = df.map %x, %y : !df.array<i8, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>, !df.array<i8, [i]> {
  ^bb0(%u: i8, %f: f32):
    %small = arith.cmpi ult, %u, %lim : i8
    %w = arith.uitofp %u : i8 to f32
    %m = arith.mulf %f, %w : f32
    %s = arith.select %small, %m, %f : f32
    %neg = arith.cmpf olt, %f, %zf : f32
    %b = arith.select %neg, %u, %z8 : i8
    df.yield %s, %b : f32, i8
  }
  func.return %r#0, %r#1 : !df.array<f32, [i]>, !df.array<i8, [i]>
}

// A filter keeping bytes: compaction by 8-byte groups (targets/c_narrow_compress.py).
// REF: kernel=@filter_u8_below inputs=x:u8[n]~0:255;lim:u8=100 ref=x[x < 100].astype(np.int8)
func.func @filter_u8_below(%x: !df.array<i8, [i]>, %lim: i8) -> !df.array<i8, [j]> {
  %r = df.filter %x : !df.array<i8, [i]> -> !df.array<i8, [j]> {
  ^bb0(%e: i8):
    %c = arith.cmpi ult, %e, %lim : i8
    df.yield %c : i1
  }
  func.return %r : !df.array<i8, [j]>
}
