// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=zen4}' -t c | filecheck %s --check-prefix=ZEN4
// RUN: loop-opt %s -p 'loop-pipeline{target=avx2 cpu=zen3}' -t c | filecheck %s --check-prefix=ZEN3
// RUN: loop-opt %s -p 'loop-pipeline{target=avx512 cpu=sapphirerapids}' -t c | filecheck %s --check-prefix=SPR
// RUN: loop-opt %s -p 'loop-pipeline{target=sse2}' -t c | filecheck %s --check-prefix=SSE2
// RUN: loop-opt %s -p 'loop-pipeline{target=neon cpu=neoverse-n1}' -t c | filecheck %s --check-prefix=NEON

// What `@loopopt.jit` traces for `x[idx] * 2` with f32 x: with i32 indices (take_i32) the
// index is wrapped in i32 (len(x) truncated: the jit guarantees len(x) < 2**31), so the
// gather has 32-bit lanes and the CPU model picks the ISA's 32-bit gather (Zen 4, Zen 3,
// Sapphire Rapids: cheaper per lane than scalar loads); SSE2 and NEON have none and load
// lane by lane at their full f32 width. With i64 indices (take_i64, also what the jit traces
// for x longer than 2**31 - 1) the gather has i64 lanes and the f32 lanes are loaded one by one.
// `np.take(x, idx).mean()` (take_mean_i32) counts in i64 in the gather's loop: it runs at the
// 64-bit lane count, and its i32 indices are sign-extended to i64 lanes before the gather
// (the C has 32-bit gathers of whole registers only).

// ZEN4-LABEL: void take_i32(
// ZEN4: _mm512_mask_i32gather_ps(
// ZEN4-NOT: lo_gather_f32_by_i64(
// ZEN4-LABEL: void take_i64(
// ZEN4: lo_gather_f32_by_i64(
// ZEN4-LABEL: void take_mean_i32(
// ZEN4: [[IX:v_[0-9]+]] = _mm512_cvtepi32_epi64(
// ZEN4-NEXT: lo_gather_f32_by_i64(x, [[IX]],
// ZEN3-LABEL: void take_i32(
// ZEN3: _mm256_mask_i32gather_ps(
// ZEN3-LABEL: void take_i64(
// ZEN3-NOT: _mm256_mask_i32gather_ps(
// SPR-LABEL: void take_i32(
// SPR: _mm512_mask_i32gather_ps(
// SSE2-LABEL: void take_i32(
// SSE2: lo_gather_f32_by_i32(x,
// NEON-LABEL: void take_i32(
// NEON: lo_gather_f32_by_i32(x,

  func.func @take_i32(%x: !df.array<f32, [i]>, %idx: !df.array<i32, [i1]>, %len_x: i64) -> (!df.array<f32, [i1]>, i1, i32) {
    %0 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i32, [i1]> {
    ^bb0(%1: i32):
      %2 = arith.constant 0 : i32
      %3 = arith.cmpi slt, %1, %2 : i32
      %4 = arith.trunci %len_x : i64 to i32
      %5 = arith.addi %1, %4 : i32
      %6 = arith.select %3, %5, %1 : i32
      df.yield %6 : i32
    }
    %7 = df.gather %x[%0] : !df.array<f32, [i]>, !df.array<i32, [i1]> -> !df.array<f32, [i1]>
    %8 = df.map %7 : !df.array<f32, [i1]> -> !df.array<f32, [i1]> {
    ^bb0(%9: f32):
      %10 = arith.constant 2.000000e+00 : f32
      %11 = arith.mulf %9, %10 : f32
      df.yield %11 : f32
    }
    %12 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i1, [i1]> {
    ^bb0(%13: i32):
      %14 = arith.constant 0 : i32
      %15 = arith.cmpi slt, %13, %14 : i32
      %16 = arith.trunci %len_x : i64 to i32
      %17 = arith.addi %13, %16 : i32
      %18 = arith.select %15, %17, %13 : i32
      %19 = arith.cmpi uge, %18, %16 : i32
      df.yield %19 : i1
    }
    %20 = arith.constant false
    %21 = df.reduce or(%12, %20) over [i1] : !df.array<i1, [i1]> -> i1
    %22 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i32, [i1]> {
    ^bb0(%23: i32):
      %24 = arith.constant 0 : i32
      %25 = arith.cmpi slt, %23, %24 : i32
      %26 = arith.trunci %len_x : i64 to i32
      %27 = arith.addi %23, %26 : i32
      %28 = arith.select %25, %27, %23 : i32
      df.yield %28 : i32
    }
    %29 = arith.constant 0 : i32
    %30 = df.reduce umax(%22, %29) over [i1] : !df.array<i32, [i1]> -> i32
    func.return %8, %21, %30 : !df.array<f32, [i1]>, i1, i32
  }
  func.func @take_i64(%x: !df.array<f32, [i]>, %idx: !df.array<i32, [i1]>, %len_x: i64) -> (!df.array<f32, [i1]>, i1, i64) {
    %0 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i64, [i1]> {
    ^bb0(%1: i32):
      %2 = arith.extsi %1 : i32 to i64
      %3 = arith.constant 0 : i64
      %4 = arith.cmpi slt, %2, %3 : i64
      %5 = arith.addi %2, %len_x : i64
      %6 = arith.select %4, %5, %2 : i64
      df.yield %6 : i64
    }
    %7 = df.gather %x[%0] : !df.array<f32, [i]>, !df.array<i64, [i1]> -> !df.array<f32, [i1]>
    %8 = df.map %7 : !df.array<f32, [i1]> -> !df.array<f32, [i1]> {
    ^bb0(%9: f32):
      %10 = arith.constant 2.000000e+00 : f32
      %11 = arith.mulf %9, %10 : f32
      df.yield %11 : f32
    }
    %12 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i1, [i1]> {
    ^bb0(%13: i32):
      %14 = arith.extsi %13 : i32 to i64
      %15 = arith.constant 0 : i64
      %16 = arith.cmpi slt, %14, %15 : i64
      %17 = arith.addi %14, %len_x : i64
      %18 = arith.select %16, %17, %14 : i64
      %19 = arith.cmpi uge, %18, %len_x : i64
      df.yield %19 : i1
    }
    %20 = arith.constant false
    %21 = df.reduce or(%12, %20) over [i1] : !df.array<i1, [i1]> -> i1
    %22 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i64, [i1]> {
    ^bb0(%23: i32):
      %24 = arith.extsi %23 : i32 to i64
      %25 = arith.constant 0 : i64
      %26 = arith.cmpi slt, %24, %25 : i64
      %27 = arith.addi %24, %len_x : i64
      %28 = arith.select %26, %27, %24 : i64
      df.yield %28 : i64
    }
    %29 = arith.constant 0 : i64
    %30 = df.reduce umax(%22, %29) over [i1] : !df.array<i64, [i1]> -> i64
    func.return %8, %21, %30 : !df.array<f32, [i1]>, i1, i64
  }
  func.func @take_mean_i32(%x: !df.array<f32, [i]>, %idx: !df.array<i32, [i1]>, %len_x: i64) -> (f32, i1, i32) {
    %0 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i32, [i1]> {
    ^bb0(%1: i32):
      %2 = arith.constant 0 : i32
      %3 = arith.cmpi slt, %1, %2 : i32
      %4 = arith.trunci %len_x : i64 to i32
      %5 = arith.addi %1, %4 : i32
      %6 = arith.select %3, %5, %1 : i32
      df.yield %6 : i32
    }
    %7 = df.gather %x[%0] : !df.array<f32, [i]>, !df.array<i32, [i1]> -> !df.array<f32, [i1]>
    %8 = arith.constant 0.000000e+00 : f32
    %9 = df.reduce add(%7, %8) over [i1] reassoc : !df.array<f32, [i1]> -> f32
    %10 = df.map %7 : !df.array<f32, [i1]> -> !df.array<i64, [i1]> {
    ^bb0(%11: f32):
      %12 = arith.constant 1 : i64
      df.yield %12 : i64
    }
    %13 = arith.constant 0 : i64
    %14 = df.reduce add(%10, %13) over [i1] : !df.array<i64, [i1]> -> i64
    %15 = arith.sitofp %14 : i64 to f32
    %16 = arith.divf %9, %15 : f32
    %17 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i1, [i1]> {
    ^bb0(%18: i32):
      %19 = arith.constant 0 : i32
      %20 = arith.cmpi slt, %18, %19 : i32
      %21 = arith.trunci %len_x : i64 to i32
      %22 = arith.addi %18, %21 : i32
      %23 = arith.select %20, %22, %18 : i32
      %24 = arith.cmpi uge, %23, %21 : i32
      df.yield %24 : i1
    }
    %25 = arith.constant false
    %26 = df.reduce or(%17, %25) over [i1] : !df.array<i1, [i1]> -> i1
    %27 = df.map %idx : !df.array<i32, [i1]> -> !df.array<i32, [i1]> {
    ^bb0(%28: i32):
      %29 = arith.constant 0 : i32
      %30 = arith.cmpi slt, %28, %29 : i32
      %31 = arith.trunci %len_x : i64 to i32
      %32 = arith.addi %28, %31 : i32
      %33 = arith.select %30, %32, %28 : i32
      df.yield %33 : i32
    }
    %34 = arith.constant 0 : i32
    %35 = df.reduce umax(%27, %34) over [i1] : !df.array<i32, [i1]> -> i32
    func.return %16, %26, %35 : f32, i1, i32
  }
