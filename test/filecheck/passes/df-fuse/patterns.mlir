// RUN: loop-opt %s --split-input-file -p df-fuse | filecheck %s

// map ∘ map: the producer's body is inlined before the consumer's.
func.func @map_map(%x: !df.array<f32, [i]>, %w: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %z = df.map %y, %w : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    df.yield %t : f32
  }
  func.return %z : !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @map_map
// CHECK-NEXT:    %[[Z:.*]] = df.map %x, %w : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S]], %[[B]] : f32
// CHECK-NEXT:      df.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Z]]

// -----

// zip -> map: a map over two maps (and a shared input) is one map over the sources.
func.func @zip_map(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %fx = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %e : i32
    df.yield %m : i32
  }
  %gy = df.map %y : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %n = arith.subi %e, %e : i32
    df.yield %n : i32
  }
  %h = df.map %fx, %gy, %x : !df.array<i32, [i]>, !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %d = arith.addi %a, %b : i32
    %r = arith.addi %d, %c : i32
    df.yield %r : i32
  }
  func.return %h : !df.array<i32, [i]>
}

// CHECK-LABEL: func.func @zip_map
// CHECK-NEXT:    %[[H:.*]] = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[N:.*]] = arith.subi %[[B]], %[[B]] : i32
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:      %[[D:.*]] = arith.addi %[[M]], %[[N]] : i32
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[D]], %[[A]] : i32
// CHECK-NEXT:      df.yield %[[R]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[H]]

// -----

// map -> reduce: the map becomes the reduce's map prologue; kind and reassoc stay properties.
func.func @map_reduce(%x: !df.array<f32, [i]>, %zero: f32) -> f32 {
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %r = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %r : f32
}

// CHECK-LABEL: func.func @map_reduce
// CHECK-NEXT:    %[[R:.*]] = df.reduce(%x) add(%zero) over [i] reassoc : !df.array<f32, [i]> -> f32 map {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      df.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// map -> fold: the map's body runs before the fold's step, in order.
func.func @map_fold(%x: !df.array<i64, [i]>, %seed: i64, %k: i64) -> i64 {
  %t = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %r = arith.xori %e, %k : i64
    df.yield %r : i64
  }
  %h = df.fold(%t) init(%seed) : !df.array<i64, [i]> -> i64 {
  ^bb0(%acc: i64, %e: i64):
    %m = arith.muli %acc, %k : i64
    %s = arith.addi %m, %e : i64
    df.yield %s : i64
  }
  func.return %h : i64
}

// CHECK-LABEL: func.func @map_fold
// CHECK-NEXT:    %[[H:.*]] = df.fold(%x) init(%seed) : !df.array<i64, [i]> -> i64 {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i64, %[[E:.*]]: i64):
// CHECK-NEXT:      %[[R:.*]] = arith.xori %[[E]], %k : i64
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[ACC]], %k : i64
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[M]], %[[R]] : i64
// CHECK-NEXT:      df.yield %[[S]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[H]]

// -----

// filter -> reduce: one pass over the unfiltered input, reducing where the predicate holds.
func.func @filter_reduce(%x: !df.array<f32, [i]>, %zero: f32) -> f32 {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce max(%p, %zero) over [k] : !df.array<f32, [k]> -> f32
  func.return %s : f32
}

// CHECK-LABEL: func.func @filter_reduce
// CHECK-NEXT:    %[[S:.*]] = df.reduce max(%x, %zero) over [i] : !df.array<f32, [i]> -> f32 where {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[E]], %zero : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]]

// -----

// filter -> fold: the fold's step is taken where the predicate holds.
func.func @filter_fold(%x: !df.array<i32, [i]>, %zero: i32, %c0: i64, %c1: i64) -> i64 {
  %p = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %n = df.fold(%p) init(%c0) : !df.array<i32, [k]> -> i64 {
  ^bb0(%acc: i64, %e: i32):
    %a = arith.addi %acc, %c1 : i64
    df.yield %a : i64
  }
  func.return %n : i64
}

// CHECK-LABEL: func.func @filter_fold
// CHECK-NEXT:    %[[N:.*]] = df.fold(%x) init(%c0) : !df.array<i32, [i]> -> i64 {
// CHECK-NEXT:    ^bb0(%[[ACC:.*]]: i64, %[[E:.*]]: i32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi sgt, %[[E]], %zero : i32
// CHECK-NEXT:      %[[A:.*]] = arith.addi %[[ACC]], %c1 : i64
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[C]], %[[A]], %[[ACC]] : i64
// CHECK-NEXT:      df.yield %[[S]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[N]]

// -----

// Horizontal: two independent reduces of one domain are one multi-triple reduce.
func.func @horizontal_reduce(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>, %z: i64) -> (i64, i64) {
  %a = df.reduce min(%x, %z) over [i] : !df.array<i64, [i]> -> i64
  %b = df.reduce add(%y, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %a, %b : i64, i64
}

// CHECK-LABEL: func.func @horizontal_reduce
// CHECK-NEXT:    %[[A:.*]], %[[B:.*]] = df.reduce min(%x, %z), add(%y, %z) over [i] : !df.array<i64, [i]>, !df.array<i64, [i]> -> i64, i64
// CHECK-NEXT:    func.return %[[A]], %[[B]] : i64, i64

// -----

// Horizontal with a fold: one fold, each accumulator with its own in-order step.
func.func @horizontal_fold(%x: !df.array<f64, [i]>, %z: f64) -> (f64, f64) {
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f64, [i]> -> f64
  %h = df.fold(%x) init(%z) : !df.array<f64, [i]> -> f64 {
  ^bb0(%acc: f64, %e: f64):
    %m = arith.mulf %acc, %e : f64
    %n = arith.subf %m, %e : f64
    df.yield %n : f64
  }
  func.return %s, %h : f64, f64
}

// CHECK-LABEL: func.func @horizontal_fold
// CHECK-NEXT:    %[[S:.*]], %[[H:.*]] = df.fold(%x) init(%z, %z) : !df.array<f64, [i]> -> f64, f64 {
// CHECK-NEXT:    ^bb0(%[[A0:.*]]: f64, %[[A1:.*]]: f64, %[[E:.*]]: f64):
// CHECK-NEXT:      %[[N0:.*]] = arith.addf %[[A0]], %[[E]] : f64
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[A1]], %[[E]] : f64
// CHECK-NEXT:      %[[N1:.*]] = arith.subf %[[M]], %[[E]] : f64
// CHECK-NEXT:      df.yield %[[N0]], %[[N1]] : f64, f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[H]] : f64, f64

// -----

// A cheap producer with another user is recomputed in the consumer and stays for that user.
func.func @recompute(%x: !df.array<f32, [i]>, %one: f32) -> (!df.array<f32, [i]>, !df.array<f32, [i]>) {
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %y = df.map %sq : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.addf %e, %one : f32
    df.yield %p : f32
  }
  func.return %sq, %y : !df.array<f32, [i]>, !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @recompute
// CHECK-NEXT:    %[[SQ:.*]] = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      df.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[Y:.*]] = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[E2:.*]]: f32):
// CHECK-NEXT:      %[[S2:.*]] = arith.mulf %[[E2]], %[[E2]] : f32
// CHECK-NEXT:      %[[P:.*]] = arith.addf %[[S2]], %one : f32
// CHECK-NEXT:      df.yield %[[P]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[SQ]], %[[Y]]

// -----

// filter -> map: the map becomes the filter's map region (kept elements only).
func.func @filter_map(%x: !df.array<f32, [i]>, %zero: f32) -> !df.array<f64, [k]> {
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %p : !df.array<f32, [k]> -> !df.array<f64, [k]> {
  ^bb0(%e: f32):
    %w = arith.extf %e : f32 to f64
    df.yield %w : f64
  }
  func.return %y : !df.array<f64, [k]>
}

// CHECK-LABEL: func.func @filter_map
// CHECK-NEXT:    %[[Y:.*]] = df.filter %x : !df.array<f32, [i]> -> !df.array<f64, [k]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[E]], %zero : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    } map {
// CHECK-NEXT:    ^bb0(%[[E2:.*]]: f32):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[E2]] : f32 to f64
// CHECK-NEXT:      df.yield %[[W]] : f64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]]

// -----

// filter -> map -> reduce: where predicate plus map prologue, one op.
func.func @filter_map_reduce(%x: !df.array<i64, [i]>, %t: i64, %zero: i64, %one: i64) -> i64 {
  %p = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %t : i64
    df.yield %c : i1
  }
  %ones = df.map %p : !df.array<i64, [k]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %s = arith.subi %e, %t : i64
    df.yield %s : i64
  }
  %s = df.reduce add(%ones, %zero) over [k] : !df.array<i64, [k]> -> i64
  func.return %s : i64
}

// CHECK-LABEL: func.func @filter_map_reduce
// CHECK-NEXT:    %[[S:.*]] = df.reduce(%x) add(%zero) over [i] : !df.array<i64, [i]> -> i64 where {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: i64):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi sgt, %[[E]], %t : i64
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    } map {
// CHECK-NEXT:    ^bb0(%[[E2:.*]]: i64):
// CHECK-NEXT:      %[[D:.*]] = arith.subi %[[E2]], %t : i64
// CHECK-NEXT:      df.yield %[[D]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]]

// -----

// map -> scan: the map becomes the scan's map prologue.
func.func @map_scan(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>, %zero: i32) -> !df.array<i32, [i]> {
  %d = df.map %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.subi %a, %b : i32
    df.yield %s : i32
  }
  %p = df.scan max(%d, %zero) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}

// CHECK-LABEL: func.func @map_scan
// CHECK-NEXT:    %[[P:.*]] = df.scan(%x, %y) max(%zero) : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> map {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:      %[[S:.*]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT:      df.yield %[[S]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[P]]

// -----

// map -> partial reduction (row sums of squares): the prologue works over two axes.
func.func @map_row_reduce(%m: !df.array<f32, [i, j]>, %zero: f32) -> !df.array<f32, [i]> {
  %sq = df.map %m : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  %r = df.reduce add(%sq, %zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @map_row_reduce
// CHECK-NEXT:    %[[R:.*]] = df.reduce(%m) add(%zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]> map {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      df.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]

// -----

// Horizontal with prologues: one map region over the union of the inputs yields both values.
func.func @horizontal_prologues(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>, %z: i64) -> (i64, i64) {
  %a = df.reduce(%x) add(%z) over [i] : !df.array<i64, [i]> -> i64 map {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  %b = df.reduce(%x, %y) max(%z) over [i] : !df.array<i64, [i]>, !df.array<i64, [i]> -> i64 map {
  ^bb0(%e: i64, %f: i64):
    %p = arith.muli %e, %f : i64
    df.yield %p : i64
  }
  func.return %a, %b : i64, i64
}

// CHECK-LABEL: func.func @horizontal_prologues
// CHECK-NEXT:    %[[A:.*]], %[[B:.*]] = df.reduce(%x, %y) add(%z), max(%z) over [i] : !df.array<i64, [i]>, !df.array<i64, [i]> -> i64, i64 map {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: i64, %[[F:.*]]: i64):
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[E]], %[[E]] : i64
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[E]], %[[F]] : i64
// CHECK-NEXT:      df.yield %[[S]], %[[P]] : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[A]], %[[B]] : i64, i64

// -----

// Horizontal with one predicate: both reduce the same kept elements, one op keeps it once.
func.func @horizontal_same_where(%x: !df.array<f32, [i]>, %zero: f32) -> (f32, f32) {
  %s = df.reduce add(%x, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32 where {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %m = df.reduce max(%x, %zero) over [i] : !df.array<f32, [i]> -> f32 where {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  func.return %s, %m : f32, f32
}

// CHECK-LABEL: func.func @horizontal_same_where
// CHECK-NEXT:    %[[S:.*]], %[[M:.*]] = df.reduce add(%x, %zero), max(%x, %zero) over [i] reassoc : !df.array<f32, [i]>, !df.array<f32, [i]> -> f32, f32 where {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32, %[[E2:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[E]], %zero : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[M]] : f32, f32
