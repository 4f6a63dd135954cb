// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=avx2 remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: loop-opt %s --split-input-file -p 'loop-pipeline{target=sse2 remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=SSE2

// Every reason a vector loop stays scalar with SIMD_FALLBACK_SCALAR that a program can reach
// today, one case each (the table in docs/remarks.md, "SIMD_FALLBACK_SCALAR").

// A bool array read lane by lane: i1 buffers are bytes, lanes hold 32/64-bit masks.
// CHECK: fallback_reasons.mlir:[[# @LINE + 2]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.load: lane-varying accesses to !loop.buf<i1> have no simd form (bool buffers are bytes)
func.func @bool_lanes(%c: !df.array<i1, [i]>, %a: !df.array<f32, [i]>, %b: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %r = df.select %c, %a, %b : !df.array<i1, [i]>, !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// -----

// f16 storage next to f64 arithmetic: a quarter-register f16 vector (and SSE2 has no F16C).
// CHECK: fallback_reasons.mlir:[[# @LINE + 4]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop mixes f16 with 64-bit lanes: an f16 vector would fill a quarter of a avx2 register
// SSE2: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop has f16 lanes: sse2 has no vector f16 <-> f32 conversion (F16C)
func.func @f16_by_f64(%x: !df.array<f16, [i]>) -> f64 {
  %z = arith.constant 0.0 : f64
  %s = df.reduce(%x) add(%z) over [i] reassoc : !df.array<f16, [i]> -> f64 map {
  ^bb0(%e: f16):
    %d = arith.extf %e : f16 to f64
    df.yield %d : f64
  }
  func.return %s : f64
}

// -----

// An accumulator of type index (hand-written Loop IR): lanes hold f32, f64, i32, i64 or i1.
// CHECK: fallback_reasons.mlir:[[# @LINE + 3]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: accumulator #0 of type index has no vector form (lanes hold f32, f64, i32, i64, i1)
func.func @index_accumulator(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %c0 : index add) {
    %t = arith.addi %acc, %i : index
    loop.yield %t : index
  }
  func.return %s : index
}

// -----

// A vector loop casting its variable to a type its lane indices do not take (i8/i16 lanes
// hold data, not the loop's indices).
// CHECK: fallback_reasons.mlir:[[# @LINE + 4]]:5: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: arith.index_cast of the loop variable to i16 has no simd form
func.func @cast_to_i16(%n: index, %o: !loop.buf<i16>) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %k = arith.index_cast %i : index to i16
    loop.store %k, %o[%i] : !loop.buf<i16>
  }
  func.return
}

// -----

// A vector loop (hand-written: loop-vectorize declines column walks) whose row index moves
// with the lanes.
// CHECK: fallback_reasons.mlir:[[# @LINE + 5]]:5: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.load: the row index of a rank-2 buffer moves with the lanes (1 rows per lane); only the last (contiguous) index may (no gather/scatter)
func.func @row_moves(%m: !loop.buf<f32, 2>, %n: index, %c: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.vecloop %j in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 max) {
    %x = loop.load %m[%j, %c] : !loop.buf<f32, 2>
    %t = arith.maximumf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// -----

// A vector loop (hand-written) loading at the variable of a runtime step: strided by an
// unknown amount.
// CHECK: fallback_reasons.mlir:[[# @LINE + 5]]:5: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.load: the index moves by the loop's runtime step per lane (a strided access) has no simd form
func.func @strided_by_runtime_step(%b: !loop.buf<f32>, %n: index, %s: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %r = loop.vecloop %i in range(%c0, %n, %s) width(W) tail(scalar) accs(%acc = %z : f32 max) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.maximumf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %r : f32
}

// -----

// A vector loop (hand-written) gathering at an expression of the computed index.
// CHECK: fallback_reasons.mlir:[[# @LINE + 7]]:5: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.load: a gather's index must be one computed value (b[j], not an expression of it)
func.func @gather_expression(%b: !loop.buf<f32>, %idx: !loop.buf<i64>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %r = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : f32 max) {
    %k = loop.load %idx[%i] : !loop.buf<i64>
    %j = arith.index_cast %k : i64 to index
    %x = loop.load %b[%j + 1] : !loop.buf<f32>
    %t = arith.maximumf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %r : f32
}

// -----

// i8 values widened next to 64-bit lanes by a map (not a widening sum, which vectorizes at the
// i8 lane count: loop_to_simd/widen.py). Next to 16/32-bit lanes i8 fills part of a register
// (targets/c_narrow_part.py); an i8 vector next to i64 would fill an eighth.
// CHECK: fallback_reasons.mlir:[[# @LINE + 2]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop mixes i8 with 64-bit lanes: i8/i16 part vectors fill part of a register next to 16- and 32-bit lanes only (an i8 vector would fill 8/64 of it)
func.func @widen_i8_map(%x: !df.array<i8, [i]>) -> !df.array<i64, [i]> {
  %r = df.map %x : !df.array<i8, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i8):
    %v = arith.extsi %e : i8 to i64
    df.yield %v : i64
  }
  func.return %r : !df.array<i64, [i]>
}

// -----

// A vector loop of i16 lanes given a width other than a whole register's (16 on AVX2).
// CHECK: fallback_reasons.mlir:[[# @LINE + 3]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop width 8: i8/i16 lanes fill whole avx2 registers (16 lanes)
func.func @narrow_width(%n: index, %x: !loop.buf<i16>, %o: !loop.buf<i16>) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(8) tail(scalar) {
    %v = loop.load %x[%i] : !loop.buf<i16>
    loop.store %v, %o[%i] : !loop.buf<i16>
  }
  func.return
}

// -----

// A loop mixing i8 with f32 given a width other than the f32 lane count (8 on AVX2).
// CHECK: fallback_reasons.mlir:[[# @LINE + 3]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.vecloop width 4: a loop mixing i8/i16 with 32-bit lanes runs at 8 lanes on avx2
func.func @narrow_mix_width(%n: index, %x: !loop.buf<i8>, %o: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  loop.vecloop %i in [%c0, %n) width(4) tail(scalar) {
    %v = loop.load %x[%i] : !loop.buf<i8>
    %w = arith.sitofp %v : i8 to f32
    loop.store %w, %o[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// A gather of bytes by i32 indices: the loop would run at the i32 lane count with the bytes in
// part of a register, but no ISA gathers bytes.
// CHECK: fallback_reasons.mlir:[[# @LINE + 2]]:3: remark: SIMD_FALLBACK_SCALAR: vector loop kept scalar: loop.load: a gather of i8 lanes has no simd form (gathers load 32- and 64-bit lanes)
func.func @take_i8_by_i32(%x: !df.array<i8, [j]>, %idx: !df.array<i32, [i]>) -> !df.array<i8, [i]> {
  %g = df.gather %x[%idx] : !df.array<i8, [j]>, !df.array<i32, [i]> -> !df.array<i8, [i]>
  func.return %g : !df.array<i8, [i]>
}
