// RUN: LOOPOPT_ROUNDTRIP
// RUN: LOOPOPT_GENERIC_ROUNDTRIP

// CHECK-LABEL: func.func @sources
func.func @sources(%n: i64) -> (!df.array<i64, [i]>, !df.array<f32, [i]>, i1) {
  %c0 = df.constant 0 : i64
  %c1 = df.constant 1 : i64
  %t = df.constant true
  %r = df.range %c0, %n, %c1 : !df.array<i64, [i]>
  %u = df.random %n : !df.array<f32, [i]>
  func.return %r, %u, %t : !df.array<i64, [i]>, !df.array<f32, [i]>, i1
}
// CHECK-NEXT:    %[[C0:.*]] = df.constant 0 : i64
// CHECK-NEXT:    %[[C1:.*]] = df.constant 1 : i64
// CHECK-NEXT:    %[[T:.*]] = df.constant true
// CHECK-NEXT:    %[[R:.*]] = df.range %[[C0]], %{{.*}}, %[[C1]] : !df.array<i64, [i]>
// CHECK-NEXT:    %[[U:.*]] = df.random %{{.*}} : !df.array<f32, [i]>
// CHECK-NEXT:    func.return %[[R]], %[[U]], %[[T]] : !df.array<i64, [i]>, !df.array<f32, [i]>, i1

// CHECK-LABEL: func.func @zip_map
func.func @zip_map(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> (!df.array<f32, [i]>, !df.array<f32, [i]>) {
  %p, %q = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>, !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %s = arith.mulf %e, %a : f32
    %t = arith.addf %s, %f : f32
    df.yield %t, %s : f32, f32
  }
  func.return %p, %q : !df.array<f32, [i]>, !df.array<f32, [i]>
}
// CHECK-NEXT:    %[[P:.*]], %[[Q:.*]] = df.map %{{.*}}, %{{.*}} : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>, !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[F:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[E]], %{{.*}} : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S]], %[[F]] : f32
// CHECK-NEXT:      df.yield %[[T]], %[[S]] : f32, f32
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @filter_select
func.func @filter_select(%x: !df.array<f64, [i]>, %c: !df.array<i1, [i]>, %b: i1) -> (!df.array<f64, [k]>, !df.array<f64, [i]>, !df.array<f64, [i]>) {
  %z = df.constant 0.0 : f64
  %k = df.filter %x : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %p = arith.cmpf ogt, %e, %z : f64
    df.yield %p : i1
  }
  %s = df.select %c, %x, %x : !df.array<i1, [i]>, !df.array<f64, [i]>
  %t = df.select %b, %x, %s : i1, !df.array<f64, [i]>
  func.return %k, %s, %t : !df.array<f64, [k]>, !df.array<f64, [i]>, !df.array<f64, [i]>
}
// CHECK:         %[[K:.*]] = df.filter %{{.*}} : !df.array<f64, [i]> -> !df.array<f64, [k]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f64):
// CHECK-NEXT:      %[[P:.*]] = arith.cmpf ogt, %[[E]], %{{.*}} : f64
// CHECK-NEXT:      df.yield %[[P]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]] = df.select %{{.*}}, %{{.*}}, %{{.*}} : !df.array<i1, [i]>, !df.array<f64, [i]>
// CHECK-NEXT:    %{{.*}} = df.select %{{.*}}, %{{.*}}, %[[S]] : i1, !df.array<f64, [i]>

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: !df.array<i32, [i, j]>, %y: !df.array<i32, [i, j]>) -> (!df.array<i32, [i]>, i32, i32, i32) {
  %z = df.constant 0 : i32
  %o = df.constant -1 : i32
  %r = df.reduce add(%x, %z) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
  %s = df.reduce max(%x, %z) over [i, j] : !df.array<i32, [i, j]> -> i32
  %a, %b = df.reduce and(%x, %o), custom(%y, %z) over [i, j] reassoc : !df.array<i32, [i, j]>, !df.array<i32, [i, j]> -> i32, i32 {
  ^bb0(%acc: i32, %e: i32):
    %m = arith.maxsi %acc, %e : i32
    df.yield %m : i32
  }
  func.return %r, %s, %a, %b : !df.array<i32, [i]>, i32, i32, i32
}
// CHECK-NEXT:    %[[Z:.*]] = df.constant 0 : i32
// CHECK-NEXT:    %[[O:.*]] = df.constant -1 : i32
// CHECK-NEXT:    %{{.*}} = df.reduce add(%{{.*}}, %[[Z]]) over [j] : !df.array<i32, [i, j]> -> !df.array<i32, [i]>
// CHECK-NEXT:    %{{.*}} = df.reduce max(%{{.*}}, %[[Z]]) over [i, j] : !df.array<i32, [i, j]> -> i32
// CHECK-NEXT:    %{{.*}}, %{{.*}} = df.reduce and(%{{.*}}, %[[O]]), custom(%{{.*}}, %[[Z]]) over [i, j] reassoc : !df.array<i32, [i, j]>, !df.array<i32, [i, j]> -> i32, i32 {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i32, %[[E:.*]]: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[ACC]], %[[E]] : i32
// CHECK-NEXT:      df.yield %[[M]] : i32
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @fold_scan
func.func @fold_scan(%x: !df.array<i64, [i]>) -> (i64, i64, !df.array<i64, [i]>, !df.array<i64, [i]>) {
  %z = df.constant 0 : i64
  %a, %b = df.fold(%x) init(%z, %z) : !df.array<i64, [i]> -> i64, i64 {
  ^bb0(%s: i64, %c: i64, %e: i64):
    %s2 = arith.addi %s, %e : i64
    %c2 = arith.addi %c, %s2 : i64
    df.yield %s2, %c2 : i64, i64
  }
  %p = df.scan add(%x, %z) reassoc : !df.array<i64, [i]> -> !df.array<i64, [i]>
  %q = df.scan custom(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%acc: i64, %e: i64):
    %m = arith.maxsi %acc, %e : i64
    df.yield %m : i64
  }
  func.return %a, %b, %p, %q : i64, i64, !df.array<i64, [i]>, !df.array<i64, [i]>
}
// CHECK-NEXT:    %[[Z:.*]] = df.constant 0 : i64
// CHECK-NEXT:    %{{.*}}, %{{.*}} = df.fold(%{{.*}}) init(%[[Z]], %[[Z]]) : !df.array<i64, [i]> -> i64, i64 {
// CHECK-NEXT:    ^bb0(%[[S:.*]]: i64, %[[C:.*]]: i64, %[[E:.*]]: i64):
// CHECK-NEXT:      %[[S2:.*]] = arith.addi %[[S]], %[[E]] : i64
// CHECK-NEXT:      %[[C2:.*]] = arith.addi %[[C]], %[[S2]] : i64
// CHECK-NEXT:      df.yield %[[S2]], %[[C2]] : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = df.scan add(%{{.*}}, %[[Z]]) reassoc : !df.array<i64, [i]> -> !df.array<i64, [i]>
// CHECK-NEXT:    %{{.*}} = df.scan custom(%{{.*}}, %[[Z]]) : !df.array<i64, [i]> -> !df.array<i64, [i]> {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i64, %[[E2:.*]]: i64):
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[ACC]], %[[E2]] : i64
// CHECK-NEXT:      df.yield %[[M]] : i64
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @fused_forms
func.func @fused_forms(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %m: !df.array<i32, [i, j]>) -> (f32, f32, !df.array<i64, [i]>, !df.array<f64, [k]>, !df.array<f32, [i]>) {
  %z = df.constant 0.0 : f32
  %zi = df.constant 0 : i64
  %d = df.reduce(%x, %y) add(%z) over [i] reassoc : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32 map {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    df.yield %p : f32
  }
  %s = df.reduce max(%x, %z) over [i] : !df.array<f32, [i]> -> f32 where {
  ^bb0(%a: f32):
    %c = arith.cmpf ogt, %a, %z : f32
    df.yield %c : i1
  }
  %r = df.reduce(%m) add(%zi) over [j] : !df.array<i32, [i, j]> -> !df.array<i64, [i]> map {
  ^bb0(%a: i32):
    %w = arith.extsi %a : i32 to i64
    df.yield %w : i64
  }
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f64, [k]> {
  ^bb0(%a: f32):
    %c = arith.cmpf ogt, %a, %z : f32
    df.yield %c : i1
  } map {
  ^bb0(%a: f32):
    %w = arith.extf %a : f32 to f64
    df.yield %w : f64
  }
  %q = df.scan(%x, %y) custom(%z) : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> map {
  ^bb0(%a: f32, %b: f32):
    %t = arith.subf %a, %b : f32
    df.yield %t : f32
  } {
  ^bb0(%acc: f32, %v: f32):
    %n = arith.maximumf %acc, %v : f32
    df.yield %n : f32
  }
  func.return %d, %s, %r, %k, %q : f32, f32, !df.array<i64, [i]>, !df.array<f64, [k]>, !df.array<f32, [i]>
}
// CHECK-NEXT:    %[[Z:.*]] = df.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[ZI:.*]] = df.constant 0 : i64
// CHECK-NEXT:    %{{.*}} = df.reduce(%[[X:.*]], %[[Y:.*]]) add(%[[Z]]) over [i] reassoc : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32 map {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      df.yield %[[P]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = df.reduce max(%[[X]], %[[Z]]) over [i] : !df.array<f32, [i]> -> f32 where {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[A]], %[[Z]] : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = df.reduce(%{{.*}}) add(%[[ZI]]) over [j] : !df.array<i32, [i, j]> -> !df.array<i64, [i]> map {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32):
// CHECK-NEXT:      %[[W:.*]] = arith.extsi %[[A]] : i32 to i64
// CHECK-NEXT:      df.yield %[[W]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = df.filter %[[X]] : !df.array<f32, [i]> -> !df.array<f64, [k]> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[A]], %[[Z]] : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    } map {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-NEXT:      df.yield %[[W]] : f64
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = df.scan(%[[X]], %[[Y]]) custom(%[[Z]]) : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> map {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[T:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      df.yield %[[T]] : f32
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: f32, %[[V:.*]]: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      df.yield %[[N]] : f32
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @filtered_mapped_reduce
func.func @filtered_mapped_reduce(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> (i32, i32) {
  %z = df.constant 0 : i32
  %lo = df.constant -100 : i32
  %s, %t = df.reduce(%x, %y) add(%z), custom(%lo) over [i] : !df.array<i32, [i]>, !df.array<i32, [i]> -> i32, i32 where {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi slt, %a, %b : i32
    df.yield %c : i1
  } map {
  ^bb0(%a: i32, %b: i32):
    %p = arith.muli %a, %b : i32
    df.yield %p, %a : i32, i32
  } {
  ^bb0(%acc: i32, %v: i32):
    %n = arith.maxsi %acc, %v : i32
    df.yield %n : i32
  }
  func.return %s, %t : i32, i32
}
// CHECK-NEXT:    %[[Z:.*]] = df.constant 0 : i32
// CHECK-NEXT:    %[[LO:.*]] = df.constant -100 : i32
// CHECK-NEXT:    %{{.*}}, %{{.*}} = df.reduce(%{{.*}}, %{{.*}}) add(%[[Z]]), custom(%[[LO]]) over [i] : !df.array<i32, [i]>, !df.array<i32, [i]> -> i32, i32 where {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi slt, %[[A]], %[[B]] : i32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    } map {
// CHECK-NEXT:    ^bb0(%[[A2:.*]]: i32, %[[B2:.*]]: i32):
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[A2]], %[[B2]] : i32
// CHECK-NEXT:      df.yield %[[P]], %[[A2]] : i32, i32
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i32, %[[V:.*]]: i32):
// CHECK-NEXT:      %[[N:.*]] = arith.maxsi %[[ACC]], %[[V]] : i32
// CHECK-NEXT:      df.yield %[[N]] : i32
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @tuples_records
func.func @tuples_records(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32, %n: i64) -> (!df.array<f32, [i]>, i64) {
  %t = df.make_tuple %a, %n : f32, i64 -> tuple<f32, i64>
  %n2 = df.get %t[1] : tuple<f32, i64> -> i64
  %r = df.make_records %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<!df.record<x: f32, y: f32>, [i]>
  %d = df.map %r : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]> {
  ^bb0(%p: !df.record<x: f32, y: f32>):
    %px = df.field %p["x"] : !df.record<x: f32, y: f32> -> f32
    %py = df.field %p["y"] : !df.record<x: f32, y: f32> -> f32
    %s = arith.addf %px, %py : f32
    df.yield %s : f32
  }
  %ry = df.field %r["y"] : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]>
  func.return %d, %n2 : !df.array<f32, [i]>, i64
}
// CHECK-NEXT:    %[[T:.*]] = df.make_tuple %{{.*}}, %{{.*}} : f32, i64 -> tuple<f32, i64>
// CHECK-NEXT:    %{{.*}} = df.get %[[T]][1] : tuple<f32, i64> -> i64
// CHECK-NEXT:    %[[R:.*]] = df.make_records %{{.*}}, %{{.*}} : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<!df.record<x: f32, y: f32>, [i]>
// CHECK-NEXT:    %{{.*}} = df.map %[[R]] : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[P:.*]]: !df.record<x: f32, y: f32>):
// CHECK-NEXT:      %{{.*}} = df.field %[[P]]["x"] : !df.record<x: f32, y: f32> -> f32
// CHECK-NEXT:      %{{.*}} = df.field %[[P]]["y"] : !df.record<x: f32, y: f32> -> f32
// CHECK:         %{{.*}} = df.field %[[R]]["y"] : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]>

// CHECK-LABEL: func.func @decl
func.func @decl(%x: !df.array<f32, [i]>) -> f32 {
  %m = df.decl_ref @sum(%x) {note = "free attribute"} : (!df.array<f32, [i]>) -> f32
  func.return %m : f32
}
// CHECK-NEXT:    %{{.*}} = df.decl_ref @sum(%{{.*}}) {note = "free attribute"} : (!df.array<f32, [i]>) -> f32

func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = df.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// -----

// Named-axis broadcasting: `v` on [j] is read at every (i, j) of `m` (a matrix-vector product).
// CHECK-LABEL: func.func @matvec_broadcast
// CHECK: df.map %{{.*}}, %{{.*}} : !df.array<f32, [i, j]>, !df.array<f32, [j]> -> !df.array<f32, [i, j]>
func.func @matvec_broadcast(%m: !df.array<f32, [i, j]>, %v: !df.array<f32, [j]>) -> !df.array<f32, [i, j]> {
  %p = df.map %m, %v : !df.array<f32, [i, j]>, !df.array<f32, [j]> -> !df.array<f32, [i, j]> {
  ^bb0(%a: f32, %b: f32):
    %q = arith.mulf %a, %b : f32
    df.yield %q : f32
  }
  func.return %p : !df.array<f32, [i, j]>
}

// Unsigned min/max kinds: integers read as unsigned (docs/df.md), also on scans.
// CHECK-LABEL: func.func @unsigned_kinds
func.func @unsigned_kinds(%x: !df.array<i8, [i]>, %y: !df.array<i64, [i]>) -> (i8, i64, !df.array<i64, [i]>) {
  %z = df.constant 0 : i8
  %o = df.constant -1 : i64
  %m = df.reduce umax(%x, %z) over [i] : !df.array<i8, [i]> -> i8
  %n = df.reduce umin(%y, %o) over [i] : !df.array<i64, [i]> -> i64
  %s = df.scan umax(%y, %o) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %m, %n, %s : i8, i64, !df.array<i64, [i]>
}
// CHECK:         %{{.*}} = df.reduce umax(%{{.*}}, %{{.*}}) over [i] : !df.array<i8, [i]> -> i8
// CHECK-NEXT:    %{{.*}} = df.reduce umin(%{{.*}}, %{{.*}}) over [i] : !df.array<i64, [i]> -> i64
// CHECK-NEXT:    %{{.*}} = df.scan umax(%{{.*}}, %{{.*}}) : !df.array<i64, [i]> -> !df.array<i64, [i]>
