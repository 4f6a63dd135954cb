// RUN: loop-opt %s --split-input-file -p 'df-fuse{remarks=true max_recompute_ops=1}' 2>&1 >/dev/null | filecheck %s

// One declined fusion per rejection code (docs/fusion_codes.md), each remark at the
// consumer's (or the later reduction's) file:line:col.

// FUSE_REJECT_DOMAIN_MISMATCH: a row sum and a column sum of one matrix.
func.func @domain(%m: !df.array<i32, [i, j]>, %z: i32) -> (!df.array<i32, [i]>, !df.array<i32, [j]>) {
  %r = df.reduce add(%m, %z) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  %c = df.reduce add(%m, %z) over [i] : !df.array<i32, [i, j]> -> !df.array<i32, [j]>
  func.return %r, %c : !df.array<i32, [i]>, !df.array<i32, [j]>
}
// CHECK: remarks.mlir:[[# @LINE - 3]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: it reduces over [i] but df.reduce at {{.*}}remarks.mlir:[[# @LINE - 4]]:3 over [j]

// -----

// FUSE_REJECT_EFFECTS_RNG: the producer's body calls a declaration that draws random numbers.
func.func @noise(%e: f32) -> f32 {
  %n = arith.constant 4 : i64
  %z = arith.constant 0.0 : f32
  %r = df.random %n : !df.array<f32, [j]>
  %s = df.reduce add(%r, %z) over [j] : !df.array<f32, [j]> -> f32
  %t = arith.addf %s, %e : f32
  func.return %t : f32
}
func.func @rng(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = df.decl_ref @noise(%e) : (f32) -> f32
    df.yield %v : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %w = arith.negf %e : f32
    df.yield %w : f32
  }
  func.return %b : !df.array<f32, [i]>
}
// CHECK: remarks.mlir:[[# @LINE - 7]]:3: remark: FUSE_REJECT_EFFECTS_RNG: df.decl_ref at {{.*}}remarks.mlir:[[# @LINE - 10]]:5 draws random numbers in the fusion region

// -----

// FUSE_REJECT_EFFECTS_UNKNOWN: a func.call in the consumer's body.
func.func private @ext(f32) -> f32
func.func @unknown(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %a = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %w = arith.negf %e : f32
    df.yield %w : f32
  }
  %b = df.map %a : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %v = func.call @ext(%e) : (f32) -> f32
    df.yield %v : f32
  }
  func.return %b : !df.array<f32, [i]>
}
// CHECK: remarks.mlir:[[# @LINE - 7]]:3: remark: FUSE_REJECT_EFFECTS_UNKNOWN: func.call at {{.*}}remarks.mlir:[[# @LINE - 5]]:5 has unknown effects in the fusion region

// -----

// FUSE_REJECT_MULTI_USE: a 2-op producer with another user, max_recompute_ops=1.
func.func @multi_use(%x: !df.array<f32, [i]>, %one: f32) -> (!df.array<f32, [i]>, !df.array<f32, [i]>) {
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    %t = arith.addf %s, %one : f32
    df.yield %t : f32
  }
  %y = df.map %sq : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.negf %e : f32
    df.yield %p : f32
  }
  func.return %sq, %y : !df.array<f32, [i]>, !df.array<f32, [i]>
}
// CHECK: remarks.mlir:[[# @LINE - 7]]:3: remark: FUSE_REJECT_MULTI_USE: producer df.map at {{.*}}remarks.mlir:[[# @LINE - 13]]:3 has 1 other user(s) and 2 body ops > max_recompute_ops=1: it stays materialized

// -----

// FUSE_REJECT_TRANSCENDENTAL: a 1-op producer (within max_recompute_ops=1) with another user, but an exp.
func.func @transcendental(%x: !df.array<f32, [i]>, %z: f32) -> (f32, !df.array<f32, [i]>) {
  %e = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %x1 = math.exp %v : f32
    df.yield %x1 : f32
  }
  %s = df.reduce add(%e, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s, %e : f32, !df.array<f32, [i]>
}
// CHECK: remarks.mlir:[[# @LINE - 3]]:3: remark: FUSE_REJECT_TRANSCENDENTAL: producer df.map at {{.*}}remarks.mlir:[[# @LINE - 8]]:3 has 1 other user(s) and computes math.exp at {{.*}}remarks.mlir:[[# @LINE - 6]]:5: it stays materialized, computed once

// -----

// FUSE_REJECT_ORDER: a reassociable float sum and a sequential one.
func.func @order(%x: !df.array<f32, [i]>, %z: f32) -> (f32, f32) {
  %a = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  %b = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %a, %b : f32, f32
}
// CHECK: remarks.mlir:[[# @LINE - 3]]:3: remark: FUSE_REJECT_ORDER: one candidate may be reassociated

// -----

// FUSE_REJECT_DEPENDENCE: the second reduction reads the first one's result.
func.func @dependence(%x: !df.array<f64, [i]>, %z: f64) -> (f64, f64) {
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f64, [i]> -> f64
  %m = df.reduce max(%x, %s) over [i] : !df.array<f64, [i]> -> f64
  func.return %s, %m : f64, f64
}
// CHECK: remarks.mlir:[[# @LINE - 3]]:3: remark: FUSE_REJECT_DEPENDENCE: it reads the result of df.reduce at {{.*}}remarks.mlir:[[# @LINE - 4]]:3

// -----

// FUSE_REJECT_SPECULATION: the fold divides by its element, which the filter drops when 0,
// with llvm.sdiv (undefined on zero; arith.divsi gives 0 and fuses: total-ops.mlir).
func.func @speculation(%x: !df.array<i32, [i]>, %zero: i32, %c: i32) -> i32 {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %ne = arith.cmpi ne, %e, %zero : i32
    df.yield %ne : i1
  }
  %q = df.fold(%p) init(%zero) : !df.array<i32, [k]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %d = llvm.sdiv %c, %e : i32
    %s = arith.addi %acc, %d : i32
    df.yield %s : i32
  }
  func.return %q : i32
}
// CHECK: remarks.mlir:[[# @LINE - 8]]:3: remark: FUSE_REJECT_SPECULATION: llvm.sdiv at {{.*}}remarks.mlir:[[# @LINE - 6]]:5 may trap and would run on the elements the filter drops

// -----

// FUSE_REJECT_DOMAIN_MISMATCH: two reductions of one array keeping different elements.
func.func @predicates(%x: !df.array<i64, [i]>, %t: i64, %z: i64) -> (i64, i64) {
  %a = df.reduce add(%x, %z) over [i] : !df.array<i64, [i]> -> i64 where {
  ^bb0(%e: i64):
    %c = arith.cmpi slt, %e, %t : i64
    df.yield %c : i1
  }
  %b = df.reduce add(%x, %z) over [i] : !df.array<i64, [i]> -> i64 where {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %t : i64
    df.yield %c : i1
  }
  %c = df.reduce max(%x, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %a, %b : i64, i64
}
// CHECK: remarks.mlir:[[# @LINE - 8]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: its where predicate differs from that of df.reduce at {{.*}}remarks.mlir:[[# @LINE - 13]]:3: the two reduce different elements
// CHECK: remarks.mlir:[[# @LINE - 4]]:3: remark: FUSE_REJECT_DOMAIN_MISMATCH: it reduces every element but df.reduce at {{.*}}remarks.mlir:[[# @LINE - 9]]:3 only where its predicate holds

// -----

// FUSE_REJECT_MULTI_USE: filter -> map cannot recompute the filter (its new axis is defined once).
func.func @filter_shared(%x: !df.array<f32, [i]>, %zero: f32) -> (!df.array<f32, [k]>, !df.array<f32, [k]>) {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %n = arith.negf %e : f32
    df.yield %n : f32
  }
  func.return %p, %y : !df.array<f32, [k]>, !df.array<f32, [k]>
}
// CHECK: remarks.mlir:[[# @LINE - 7]]:3: remark: FUSE_REJECT_MULTI_USE: producer df.filter at {{.*}}remarks.mlir:[[# @LINE - 12]]:3 has 1 other user(s) and defines the new axis k, which one recomputed copy cannot define again: it stays materialized

// -----

// FUSE_REJECT_SPECULATION: a reduce that already has a where predicate: the conjunction would
// evaluate its llvm.sdiv on the elements the filter drops.
func.func @where_speculation(%x: !df.array<i32, [i]>, %zero: i32, %c: i32) -> i32 {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %ne = arith.cmpi ne, %e, %zero : i32
    df.yield %ne : i1
  }
  %q = df.reduce add(%p, %zero) over [k] : !df.array<i32, [k]> -> i32 where {
  ^bb0(%e: i32):
    %d = llvm.sdiv %c, %e : i32
    %pos = arith.cmpi sgt, %d, %zero : i32
    df.yield %pos : i1
  }
  func.return %q : i32
}
// CHECK: remarks.mlir:[[# @LINE - 8]]:3: remark: FUSE_REJECT_SPECULATION: llvm.sdiv at {{.*}}remarks.mlir:[[# @LINE - 6]]:5 may trap and would run on the elements the filter drops
