// RUN: loop-opt %s --split-input-file -p df-fuse | filecheck %s
// RUN: loop-opt %s --split-input-file -p 'df-fuse{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// arith and math ops are total in loopopt (docs/integer_semantics.md: x / 0 = 0,
// MIN / -1 = MIN) and effect-free (dialects/effects.py), so neither FUSE_REJECT_SPECULATION
// nor FUSE_REJECT_EFFECTS_UNKNOWN stops them; an op whose division is undefined on zero
// (llvm.sdiv) still may not run on the elements a filter drops.

// filter -> fold with a division by the element: the fold steps on every element and keeps
// the step where the predicate holds; the dropped zeros divide to 0 and are not kept.
func.func @divsi_fold(%x: !df.array<i32, [i]>, %c: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %ne = arith.cmpi ne, %e, %zero : i32
    df.yield %ne : i1
  }
  %q = df.fold(%p) init(%zero) : !df.array<i32, [k]> -> i32 {
  ^bb0(%acc: i32, %e: i32):
    %d = arith.divsi %c, %e : i32
    %r = arith.remui %c, %e : i32
    %f = arith.floordivsi %c, %e : i32
    %g = arith.ceildivui %c, %e : i32
    %s0 = arith.addi %acc, %d : i32
    %s1 = arith.addi %s0, %r : i32
    %s2 = arith.addi %s1, %f : i32
    %s = arith.addi %s2, %g : i32
    df.yield %s : i32
  }
  func.return %q : i32
}
// CHECK-LABEL: func.func @divsi_fold
// CHECK-NOT:     df.filter
// CHECK:         df.fold(%x) init(%zero) : !df.array<i32, [i]> -> i32 {
// CHECK:           %[[NE:.*]] = arith.cmpi ne
// CHECK:           arith.divsi
// CHECK:           arith.remui
// CHECK:           arith.floordivsi
// CHECK:           arith.ceildivui
// CHECK:           %s = arith.addi %s2, %g : i32
// CHECK-NEXT:      %[[K:.*]] = arith.select %[[NE]], %s, %acc : i32
// CHECK-NEXT:      df.yield %[[K]] : i32

// -----

// A reduce that already has a where predicate dividing by the element: the conjunction runs
// the division on every element.
func.func @divui_where(%x: !df.array<i32, [i]>, %zero: i32, %c: i32) -> i32 {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %ne = arith.cmpi ne, %e, %zero : i32
    df.yield %ne : i1
  }
  %q = df.reduce add(%p, %zero) over [k] : !df.array<i32, [k]> -> i32 where {
  ^bb0(%e: i32):
    %d = arith.divui %c, %e : i32
    %pos = arith.cmpi sgt, %d, %zero : i32
    df.yield %pos : i1
  }
  func.return %q : i32
}
// CHECK-LABEL: func.func @divui_where
// CHECK-NOT:     df.filter
// CHECK:         df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32 where {
// CHECK:           arith.divui
// CHECK:           arith.andi

// -----

// Casts, whether xDSL gives them an effect trait (arith.extui) or not (arith.extsi), are
// effect-free: maps of casts fuse into the reductions they feed (which then fuse together).
func.func @casts_sum(%x: !df.array<i32, [i]>, %y: !df.array<f32, [i]>) -> (i64, f64) {
  %zi = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f64
  %w = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %s = arith.extsi %e : i32 to i64
    %u = arith.extui %e : i32 to i64
    %t = arith.trunci %s : i64 to i16
    %t64 = arith.extsi %t : i16 to i64
    %a = arith.addi %s, %u : i64
    %b = arith.addi %a, %t64 : i64
    df.yield %b : i64
  }
  %r = df.reduce add(%w, %zi) over [i] : !df.array<i64, [i]> -> i64
  %v = df.map %x, %y : !df.array<i32, [i]>, !df.array<f32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%e: i32, %f: f32):
    %sf = arith.sitofp %e : i32 to f32
    %uf = arith.uitofp %e : i32 to f32
    %fi = arith.fptosi %f : f32 to i32
    %fu = arith.fptoui %f : f32 to i32
    %fi2 = arith.sitofp %fi : i32 to f32
    %fu2 = arith.uitofp %fu : i32 to f32
    %s1 = arith.addf %sf, %uf : f32
    %s2 = arith.addf %s1, %fi2 : f32
    %s3 = arith.addf %s2, %fu2 : f32
    %d = arith.extf %s3 : f32 to f64
    %h = arith.truncf %d : f64 to f32
    %h64 = arith.extf %h : f32 to f64
    df.yield %h64 : f64
  }
  %q = df.reduce add(%v, %zf) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %r, %q : i64, f64
}
// CHECK-LABEL: func.func @casts_sum
// CHECK-NOT:     df.map
// CHECK:         df.reduce(%x, %y) add(%zi), add(%zf) over [i] reassoc : !df.array<i32, [i]>, !df.array<f32, [i]> -> i64, f64 map {
// CHECK-DAG:       arith.extsi
// CHECK-DAG:       arith.extui
// CHECK-DAG:       arith.trunci
// CHECK-DAG:       arith.uitofp
// CHECK-DAG:       arith.fptosi
// CHECK-DAG:       arith.fptoui
// CHECK-DAG:       arith.extf
// CHECK-DAG:       arith.truncf
// CHECK:           df.yield

// -----

// A referenced declaration made of casts is effect-free too.
func.func @widen(%e: i32) -> i64 {
  %s = arith.extsi %e : i32 to i64
  func.return %s : i64
}
func.func @decl_cast_sum(%x: !df.array<i32, [i]>) -> i64 {
  %zero = arith.constant 0 : i64
  %w = df.map %x : !df.array<i32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i32):
    %v = df.decl_ref @widen(%e) : (i32) -> i64
    df.yield %v : i64
  }
  %r = df.reduce add(%w, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %r : i64
}
// CHECK-LABEL: func.func @decl_cast_sum
// CHECK-NOT:     df.map
// CHECK:         df.reduce(%x) add(%zero) over [i] : !df.array<i32, [i]> -> i64 map {
// CHECK:           df.decl_ref @widen

// -----

// llvm.sdiv is undefined on a zero divisor: it may not run on the zeros the filter drops.
func.func @sdiv_fold(%x: !df.array<i32, [i]>, %c: i32) -> i32 {
  %zero = arith.constant 0 : i32
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
// CHECK-LABEL: func.func @sdiv_fold
// CHECK:         df.filter %x
// CHECK:         df.fold(%p)

// REMARK-NOT: {{(arith|df)\.[a-z_]+ at}}
// REMARK: total-ops.mlir:[[# @LINE - 13]]:3: remark: FUSE_REJECT_SPECULATION: llvm.sdiv at {{.*}}total-ops.mlir:[[# @LINE - 11]]:5 may trap and would run on the elements the filter drops
// REMARK-NOT: remark
