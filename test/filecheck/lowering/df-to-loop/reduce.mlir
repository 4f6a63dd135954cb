// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p convert-df-to-loop | loop-opt | filecheck %s

// Reductions: one loop.for with one accumulator per triple (kind and reassoc kept, custom
// bodies inlined as the step); rank 2 over one axis: an outer loop storing each inner
// accumulator; over all axes: nested loops threading the accumulator. Fold: custom
// accumulators. Scan: the accumulator is also stored at every element. Select: arith.select.

func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

func.func @min_max(%x: !df.array<i64, [i]>, %lo: i64, %hi: i64) -> (i64, i64) {
  %mn, %mx = df.reduce min(%x, %hi), max(%x, %lo) over [i] : !df.array<i64, [i]>, !df.array<i64, [i]> -> i64, i64
  func.return %mn, %mx : i64, i64
}

func.func @absmax(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %m = df.reduce custom(%x, %z) over [i] : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %a = math.absf %e : f32
    %n = arith.maximumf %acc, %a : f32
    df.yield %n : f32
  }
  func.return %m : f32
}

func.func @row_sums(%m: !df.array<f64, [i, j]>) -> !df.array<f64, [i]> {
  %z = arith.constant 0.0 : f64
  %r = df.reduce add(%m, %z) over [j] reassoc : !df.array<f64, [i, j]> -> !df.array<f64, [i]>
  func.return %r : !df.array<f64, [i]>
}

func.func @total(%m: !df.array<i32, [i, j]>) -> i32 {
  %z = arith.constant 0 : i32
  %r = df.reduce add(%m, %z) over [i, j] : !df.array<i32, [i, j]> -> i32
  func.return %r : i32
}

func.func @argmax(%x: !df.array<f32, [i]>) -> (f32, i64) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %best, %at, %k = df.fold(%x) init(%ninf, %c0, %c0) : !df.array<f32, [i]> -> f32, i64, i64 {
  ^bb0(%b: f32, %a: i64, %n: i64, %e: f32):
    %gt = arith.cmpf ogt, %e, %b : f32
    %b2 = arith.select %gt, %e, %b : f32
    %a2 = arith.select %gt, %n, %a : i64
    %n2 = arith.addi %n, %c1 : i64
    df.yield %b2, %a2, %n2 : f32, i64, i64
  }
  func.return %best, %at : f32, i64
}

func.func @cumsum(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant 0 : i64
  %p = df.scan add(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}

func.func @relu(%x: !df.array<f32, [i]>, %c: !df.array<i1, [i]>, %zeros: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %r = df.select %c, %x, %zeros : !df.array<i1, [i]>, !df.array<f32, [i]>
  func.return %r : !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @sum(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel} {
// CHECK:         %[[Z:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S:[a-z0-9_]+]] = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %[[Z]] : f32 add reassoc) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[T:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[E]] : f32
// CHECK-NEXT:      loop.yield %[[T]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32

// Horizontally fused reductions: one loop, one accumulator each, one load of the shared input.
// CHECK-LABEL: func.func @min_max(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<i64> {{.*}}, %[[LO:[a-z0-9_]+]]: i64, %[[HI:[a-z0-9_]+]]: i64) -> (i64, i64)
// CHECK:         %[[MN:[a-z0-9_]+]], %[[MX:[a-z0-9_]+]] = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[A:[a-z0-9_]+]] = %[[HI]] : i64 min, %[[B:[a-z0-9_]+]] = %[[LO]] : i64 max) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      %[[A2:[a-z0-9_]+]] = arith.minsi %[[A]], %[[E]] : i64
// CHECK-NEXT:      %[[B2:[a-z0-9_]+]] = arith.maxsi %[[B]], %[[E]] : i64
// CHECK-NEXT:      loop.yield %[[A2]], %[[B2]] : i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[MN]], %[[MX]] : i64, i64

// A custom body whose accumulator is used once, by max's combiner (after a map of the
// element), is a max accumulator (combine.body_kinds): the vectorizer sees a reduction.
// CHECK-LABEL: func.func @absmax(
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32 max) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[A:[a-z0-9_]+]] = math.absf %[[E]] : f32
// CHECK-NEXT:      %[[N:[a-z0-9_]+]] = arith.maximumf %[[ACC]], %[[A]] : f32
// CHECK-NEXT:      loop.yield %[[N]] : f32
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @row_sums(
// CHECK-SAME:    %[[M:[a-z0-9_]+]]: !loop.buf<f64, 2> {loop.role = "in", loop.axes = ["i", "j"]},
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64})
// CHECK-NEXT:    %[[LI:[a-z0-9_]+]] = loop.dim %[[M]], 0 : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[NJ:[a-z0-9_]+]] = loop.dim %[[M]], 1 : !loop.buf<f64, 2>
// CHECK-NEXT:    %[[LO:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<f64>
// CHECK-NEXT:    %[[FITS:[a-z0-9_]+]] = arith.cmpi sle, %[[LI]], %[[LO]] : index
// CHECK-NEXT:    %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NI:[a-z0-9_]+]] = arith.select %[[FITS]], %[[LI]], %[[C0]] : index
// CHECK-NEXT:    %[[Z:[a-z0-9_]+]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    loop.for %[[I:[a-z0-9_]+]] in [%[[C0]], %[[NI]]) {
// CHECK-NEXT:      %[[R:[a-z0-9_]+]] = loop.for %[[J:[a-z0-9_]+]] in [%[[C0]], %[[NJ]]) accs(%[[ACC:[a-z0-9_]+]] = %[[Z]] : f64 add reassoc) {
// CHECK-NEXT:        %[[E:[a-z0-9_]+]] = loop.load %[[M]][%[[I]], %[[J]]] : !loop.buf<f64, 2>
// CHECK-NEXT:        %[[T:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[E]] : f64
// CHECK-NEXT:        loop.yield %[[T]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[R]], %[[OUT]][%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @total(
// CHECK:         %[[R:[a-z0-9_]+]] = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[A:[a-z0-9_]+]] = %{{.*}} : i32 add) {
// CHECK-NEXT:      %[[IN:[a-z0-9_]+]] = loop.for %[[J:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[B:[a-z0-9_]+]] = %[[A]] : i32 add) {
// CHECK-NEXT:        %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<i32, 2>
// CHECK-NEXT:        %[[T:[a-z0-9_]+]] = arith.addi %[[B]], %[[E]] : i32
// CHECK-NEXT:        loop.yield %[[T]] : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.yield %[[IN]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : i32

// CHECK-LABEL: func.func @argmax(
// CHECK:         %[[BEST:[a-z0-9_]+]], %[[AT:[a-z0-9_]+]], %{{.*}} = loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%[[B:[a-z0-9_]+]] = %{{.*}} : f32 custom, %[[A:[a-z0-9_]+]] = %{{.*}} : i64 custom, %[[N:[a-z0-9_]+]] = %{{.*}} : i64 custom) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load
// CHECK-NEXT:      %[[GT:[a-z0-9_]+]] = arith.cmpf ogt, %[[E]], %[[B]] : f32
// CHECK-NEXT:      %[[B2:[a-z0-9_]+]] = arith.select %[[GT]], %[[E]], %[[B]] : f32
// CHECK-NEXT:      %[[A2:[a-z0-9_]+]] = arith.select %[[GT]], %[[N]], %[[A]] : i64
// CHECK-NEXT:      %[[N2:[a-z0-9_]+]] = arith.addi %[[N]], %{{.*}} : i64
// CHECK-NEXT:      loop.yield %[[B2]], %[[A2]], %[[N2]] : f32, i64, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[BEST]], %[[AT]] : f32, i64

// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<i64> {{.*}}, %[[OUT:[a-z0-9_]+]]: !loop.buf<i64> {loop.role = "out"
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : i64 add) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      %[[T:[a-z0-9_]+]] = arith.addi %[[ACC]], %[[E]] : i64
// CHECK-NEXT:      loop.store %[[T]], %[[OUT]][%[[I]]] : !loop.buf<i64>
// CHECK-NEXT:      loop.yield %[[T]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @relu(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f32> {{.*}}, %[[C:[a-z0-9_]+]]: !loop.buf<i1> {{.*}}, %[[ZS:[a-z0-9_]+]]: !loop.buf<f32> {{.*}}, %[[OUT:[a-z0-9_]+]]: !loop.buf<f32>
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[CE:[a-z0-9_]+]] = loop.load %[[C]][%[[I]]] : !loop.buf<i1>
// CHECK-NEXT:      %[[XE:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[ZE:[a-z0-9_]+]] = loop.load %[[ZS]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[S:[a-z0-9_]+]] = arith.select %[[CE]], %[[XE]], %[[ZE]] : f32
// CHECK-NEXT:      loop.store %[[S]], %[[OUT]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }

// df-fuse's map prologues: the map body sits between the loads and the Accum step, one
// loop (a scan also stores each prefix); a partial reduction keeps its row loop.
func.func @scan_prologue(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.scan(%x, %y) add(%zero) : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> map {
  ^bb0(%a: i32, %b: i32):
    %d = arith.subi %a, %b : i32
    df.yield %d : i32
  }
  func.return %p : !df.array<i32, [i]>
}

func.func @row_sumsq(%m: !df.array<f32, [i, j]>) -> !df.array<f32, [i]> {
  %zero = arith.constant 0.0 : f32
  %r = df.reduce(%m) add(%zero) over [j] reassoc : !df.array<f32, [i, j]> -> !df.array<f32, [i]> map {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

// CHECK-LABEL: func.func @scan_prologue(
// CHECK:         %{{.*}} = loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : i32 add) {
// CHECK-NEXT:      %[[A:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[B:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[D:[a-z0-9_]+]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT:      %[[T:[a-z0-9_]+]] = arith.addi %[[ACC]], %[[D]] : i32
// CHECK-NEXT:      loop.store %[[T]], %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      loop.yield %[[T]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @row_sumsq(
// CHECK:         loop.for %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %[[R:[a-z0-9_]+]] = loop.for %[[J:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : f32 add reassoc) {
// CHECK-NEXT:        %[[E:[a-z0-9_]+]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
// CHECK-NEXT:        %[[S:[a-z0-9_]+]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:        %[[T:[a-z0-9_]+]] = arith.addf %[[ACC]], %[[S]] : f32
// CHECK-NEXT:        loop.yield %[[T]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %[[R]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
