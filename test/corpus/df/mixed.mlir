// Mixed element widths (issue 12): loops whose lanes mix 32- and 64-bit types vectorize at the
// 64-bit lane count, their 32-bit vectors filling half a register (targets/c_part.py):
// counts and sums in a wider type than the data, widening and narrowing maps, saturating
// float -> int conversions (docs/integer_semantics.md), masks crossing widths.

// The issue's example: an i64 counter next to f32 data.
// REF: kernel=@count_pos_f32_i64 inputs=x:f32[n] ref=np.int64(np.sum(x > 0))
func.func @count_pos_f32_i64(%x: !df.array<f32, [i]>) -> i64 {
  %z = arith.constant 0 : i64
  %zero = arith.constant 0.0 : f32
  %c = df.map %x : !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: f32):
    %p = arith.cmpf ogt, %e, %zero : f32
    %one = arith.extui %p : i1 to i64
    df.yield %one : i64
  }
  %s = df.reduce add(%c, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// An f32 sum and an i64 count fused into one loop: the f32 accumulator fills half a register.
// REF: kernel=@sum_and_count_f32 inputs=x:f32[n] tol=reduction:x ref=(np.sum(x, dtype=np.float32), np.int64(np.sum(x > 0)))
func.func @sum_and_count_f32(%x: !df.array<f32, [i]>) -> (f32, i64) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %zf) over [i] reassoc : !df.array<f32, [i]> -> f32
  %c = df.map %x : !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: f32):
    %p = arith.cmpf ogt, %e, %zf : f32
    %one = arith.extui %p : i1 to i64
    df.yield %one : i64
  }
  %k = df.reduce add(%c, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s, %k : f32, i64
}

// REF: kernel=@sum_f64_of_f32 inputs=x:f32[n] tol=reduction:x.astype(np.float64) ref=np.sum(x, dtype=np.float64)
func.func @sum_f64_of_f32(%x: !df.array<f32, [i]>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %w = df.map %x : !df.array<f32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f32):
    %v = arith.extf %e : f32 to f64
    df.yield %v : f64
  }
  %s = df.reduce add(%w, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %s : f64
}

// An i32 max next to an i64 sum: integer part-vector reductions.
// REF: kernel=@max_and_wide_sum_i32 inputs=x:i32[n]~-2147483648:2147483647 ref=(np.int32(x.max(initial=-2147483648)), np.sum(x, dtype=np.int64))
func.func @max_and_wide_sum_i32(%x: !df.array<i32, [i]>) -> (i32, i64) {
  %lo = arith.constant -2147483648 : i32
  %z = arith.constant 0 : i64
  %m = df.reduce max(%x, %lo) over [i] : !df.array<i32, [i]> -> i32
  %w = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %v = arith.extsi %e : i32 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%w, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %m, %s : i32, i64
}

// REF: kernel=@map_i32_to_f32 inputs=x:i32[n]~-2147483648:2147483647 ref=x.astype(np.float32)
func.func @map_i32_to_f32(%x: !df.array<i32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i32):
    %v = arith.sitofp %e : i32 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@map_f32_to_f64 inputs=x:f32[n]~-1e30:1e30 ref=x.astype(np.float64)
func.func @map_f32_to_f64(%x: !df.array<f32, [i]>) -> !df.array<f64, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f32):
    %v = arith.extf %e : f32 to f64
    df.yield %v : f64
  }
  func.return %y : !df.array<f64, [i]>
}

// f64 -> f32 rounds once to nearest even (and overflows to inf) on every ISA.
// REF: kernel=@map_f64_to_f32 inputs=x:f64[n]~-1e39:1e39 ref=x.astype(np.float32)
func.func @map_f64_to_f32(%x: !df.array<f64, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f64):
    %v = arith.truncf %e : f64 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// REF: kernel=@narrow_i64_to_i32 inputs=x:i64[n]~-4611686018427387904:4611686018427387904 ref=x.astype(np.int32)
func.func @narrow_i64_to_i32(%x: !df.array<i64, [i]>) -> !df.array<i32, [i]> {
  %y = df.map %x : !df.array<i64, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i64):
    %v = arith.trunci %e : i64 to i32
    df.yield %v : i32
  }
  func.return %y : !df.array<i32, [i]>
}

// REF: kernel=@widen_i32_to_i64 inputs=x:i32[n]~-2147483648:2147483647 ref=x.astype(np.int64)
func.func @widen_i32_to_i64(%x: !df.array<i32, [i]>) -> !df.array<i64, [i]> {
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %v = arith.extsi %e : i32 to i64
    df.yield %v : i64
  }
  func.return %y : !df.array<i64, [i]>
}

// REF: kernel=@map_i32_to_f64 inputs=x:i32[n]~-2147483648:2147483647 ref=x.astype(np.float64)
func.func @map_i32_to_f64(%x: !df.array<i32, [i]>) -> !df.array<f64, [i]> {
  %y = df.map %x : !df.array<i32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: i32):
    %v = arith.sitofp %e : i32 to f64
    df.yield %v : f64
  }
  func.return %y : !df.array<f64, [i]>
}

// i64 -> f32 rounds once (through f64 it would round twice on some values above 2^53).
// REF: kernel=@map_i64_to_f32 inputs=x:i64[n]~-4611686018427387904:4611686018427387904 ref=x.astype(np.float32)
func.func @map_i64_to_f32(%x: !df.array<i64, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<i64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: i64):
    %v = arith.sitofp %e : i64 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// Saturating f64 -> i32: out-of-range values clamp (test/python/loop_to_simd/test_mixed_widths.py adds NaN and inf).
// REF: kernel=@sat_f64_to_i32 inputs=x:f64[n]~-5e9:5e9 ref=np.clip(np.trunc(x), -2147483648, 2147483647).astype(np.int32)
func.func @sat_f64_to_i32(%x: !df.array<f64, [i]>) -> !df.array<i32, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: f64):
    %v = arith.fptosi %e : f64 to i32
    df.yield %v : i32
  }
  func.return %y : !df.array<i32, [i]>
}

// Saturating f32 -> i64 (exact through f64).
// REF: kernel=@sat_f32_to_i64 inputs=x:f32[n]~-2e19:2e19 ref=np.where(x >= 9223372036854775808.0, 9223372036854775807, np.clip(x, -9223372036854775808.0, 9223371487098961920.0).astype(np.int64))
func.func @sat_f32_to_i64(%x: !df.array<f32, [i]>) -> !df.array<i64, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: f32):
    %v = arith.fptosi %e : f32 to i64
    df.yield %v : i64
  }
  func.return %y : !df.array<i64, [i]>
}

// f64 arithmetic on an f32 input, rounded to f32: two loads of different widths, one store.
// REF: kernel=@scale_f32_by_f64 inputs=x:f32[n]~-1000:1000;s:f64[n]~-1000:1000 ref=(x.astype(np.float64) * s + 0.5).astype(np.float32)
func.func @scale_f32_by_f64(%x: !df.array<f32, [i]>, %s: !df.array<f64, [i]>) -> !df.array<f32, [i]> {
  %half = arith.constant 0.5 : f64
  %y = df.map %x, %s : !df.array<f32, [i]>, !df.array<f64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %k: f64):
    %w = arith.extf %e : f32 to f64
    %p = arith.mulf %w, %k : f64
    %q = arith.addf %p, %half : f64
    %v = arith.truncf %q : f64 to f32
    df.yield %v : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// A mask from an f32 compare picks f64 lanes, and one from an f64 compare picks f32 lanes.
// REF: kernel=@masks_cross_widths inputs=x:f32[n];y:f64[n] ref=(np.where(x > 0, y, 0.0), np.where(y > 0, x, np.float32(0)))
func.func @masks_cross_widths(%x: !df.array<f32, [i]>, %y: !df.array<f64, [i]>) -> (!df.array<f64, [i]>, !df.array<f32, [i]>) {
  %zf = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %a = df.map %x, %y : !df.array<f32, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: f32, %d: f64):
    %p = arith.cmpf ogt, %e, %zf : f32
    %v = arith.select %p, %d, %zd : f64
    df.yield %v : f64
  }
  %b = df.map %x, %y : !df.array<f32, [i]>, !df.array<f64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %d: f64):
    %p = arith.cmpf ogt, %d, %zd : f64
    %v = arith.select %p, %e, %zf : f32
    df.yield %v : f32
  }
  func.return %a, %b : !df.array<f64, [i]>, !df.array<f32, [i]>
}

// f16 storage, f32 compute: F16C (AVX2), AVX-512F and NEON convert vectors; SSE2 keeps the loop
// scalar (SIMD_FALLBACK_SCALAR) and the scalar code converts with portable helpers.
// REF: kernel=@scale_f16 inputs=x:f16[n]~-300:300;a:f32~-300:300 ref=(x.astype(np.float32) * a).astype(np.float16)
func.func @scale_f16(%x: !df.array<f16, [i]>, %a: f32) -> !df.array<f16, [i]> {
  %y = df.map %x : !df.array<f16, [i]> -> !df.array<f16, [i]> {
  ^bb0(%e: f16):
    %w = arith.extf %e : f16 to f32
    %m = arith.mulf %w, %a : f32
    %v = arith.truncf %m : f32 to f16
    df.yield %v : f16
  }
  func.return %y : !df.array<f16, [i]>
}

// REF: kernel=@sum_f16_as_f32 inputs=x:f16[n]~-100:100 tol=reduction:x.astype(np.float32) ref=np.sum(x.astype(np.float32), dtype=np.float32)
func.func @sum_f16_as_f32(%x: !df.array<f16, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %w = df.map %x : !df.array<f16, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f16):
    %v = arith.extf %e : f16 to f32
    df.yield %v : f32
  }
  %s = df.reduce add(%w, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// f64 -> f16 rounds once (a 1:4 lane mix: scalar on every ISA).
// REF: kernel=@map_f64_to_f16 inputs=x:f64[n]~-70000:70000 ref=x.astype(np.float16)
func.func @map_f64_to_f16(%x: !df.array<f64, [i]>) -> !df.array<f16, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f16, [i]> {
  ^bb0(%e: f64):
    %v = arith.truncf %e : f64 to f16
    df.yield %v : f16
  }
  func.return %y : !df.array<f16, [i]>
}

// Zero extension i32 -> i64 (arith.extui): the sign extension masked to the low 32 bits.
// REF: kernel=@sum_u32_as_i64 inputs=x:i32[n]~-2147483648:2147483647 ref=np.sum(x.astype(np.uint32).astype(np.int64))
func.func @sum_u32_as_i64(%x: !df.array<i32, [i]>) -> i64 {
  %z = arith.constant 0 : i64
  %w = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %v = arith.extui %e : i32 to i64
    df.yield %v : i64
  }
  %s = df.reduce add(%w, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// bf16 storage, f32 compute: integer SIMD conversions on every vector ISA (SSE2 too), rounding
// as ml_dtypes; the scalar code converts with portable helpers.
// REF: kernel=@axpb_bf16 inputs=x:bf16[n]~-1e30:1e30;a:f32~-300:300;b:f32~-1:1 ref=(x.astype(np.float32) * a + b).astype(bfloat16)
func.func @axpb_bf16(%x: !df.array<bf16, [i]>, %a: f32, %b: f32) -> !df.array<bf16, [i]> {
  %y = df.map %x : !df.array<bf16, [i]> -> !df.array<bf16, [i]> {
  ^bb0(%e: bf16):
    %w = arith.extf %e : bf16 to f32
    %m = arith.mulf %w, %a : f32
    %s = arith.addf %m, %b : f32
    %v = arith.truncf %s : f32 to bf16
    df.yield %v : bf16
  }
  func.return %y : !df.array<bf16, [i]>
}

// REF: kernel=@sum_bf16_as_f32 inputs=x:bf16[n]~-100:100 tol=reduction:x.astype(np.float32) ref=np.sum(x.astype(np.float32), dtype=np.float32)
func.func @sum_bf16_as_f32(%x: !df.array<bf16, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %w = df.map %x : !df.array<bf16, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: bf16):
    %v = arith.extf %e : bf16 to f32
    df.yield %v : f32
  }
  %s = df.reduce add(%w, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// f64 -> bf16 goes through f32, as ml_dtypes casts (a 1:4 lane mix: scalar on every ISA).
// REF: kernel=@map_f64_to_bf16 inputs=x:f64[n]~-1e39:1e39 ref=x.astype(bfloat16)
func.func @map_f64_to_bf16(%x: !df.array<f64, [i]>) -> !df.array<bf16, [i]> {
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<bf16, [i]> {
  ^bb0(%e: f64):
    %v = arith.truncf %e : f64 to bf16
    df.yield %v : bf16
  }
  func.return %y : !df.array<bf16, [i]>
}
