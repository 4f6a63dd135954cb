// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s

// A df.range's length is computed without overflow, loops walk its positions [0, n) and
// compute each element as start + k*step in i64. `fits` (the guard) checks the length
// against every buffer on the range's axis; loops run over select(fits, length, 0), so a
// too-small output is never written. An axis no input has returns its required length as
// an extra index result (loop.extents; loop.steps names a step argument).

func.func @iota(%n: i64) -> !df.array<i64, [r]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %n, %one : !df.array<i64, [r]>
  func.return %idx : !df.array<i64, [r]>
}

// CHECK-LABEL: func.func @iota(
// CHECK-SAME:    %[[N:[a-z0-9_]+]]: i64, %[[OUT:[a-z0-9_]+]]: !loop.buf<i64> {loop.role = "out", loop.axes = ["r"], loop.result = 0 : i64})
// CHECK-SAME:    -> index attributes {loop.kernel, loop.extents = {r = 0 : i64}} {
// CHECK:         %[[CAP:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<i64>
// CHECK:         %[[END:[a-z0-9_]+]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT:    %[[LEN:len_r]] = arith.maxsi %[[END]], %{{.*}} : index
// CHECK-NEXT:    %[[FITS:fits_r]] = arith.cmpi sle, %[[LEN]], %[[CAP]] : index
// CHECK-NEXT:    %[[G:n_r]] = arith.select %[[FITS]], %[[LEN]], %{{.*}} : index
// CHECK-NEXT:    loop.for %[[K:[a-z0-9_]+]] in [%{{.*}}, %[[G]]) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:      loop.store %[[E]], %[[OUT]][%[[K]]] : !loop.buf<i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[LEN]] : index

func.func @odd_of_range(%start: i64, %end: i64, %step: i64) -> (!df.array<i64, [k]>, i64) {
  %zero = arith.constant 0 : i64
  %r = df.range %start, %end, %step : !df.array<i64, [i]>
  %o = df.filter %r : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.andi %e, %c1 : i64
    %p = arith.cmpi eq, %b, %c1 : i64
    df.yield %p : i1
  }
  %s = df.reduce add(%r, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %o, %s : !df.array<i64, [k]>, i64
}

// The filter's output has the computed axis as capacity; a runtime step is a kernel
// argument (loop.steps); the length is 0 for step 0.
// CHECK-LABEL: func.func @odd_of_range(
// CHECK-SAME:    %[[START:[a-z0-9_]+]]: i64, %[[END:[a-z0-9_]+]]: i64, %[[STEP:[a-z0-9_]+]]: i64,
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<i64> {loop.role = "out", loop.axes = ["k"], loop.result = 0 : i64, loop.count = 0 : i64, loop.capacity = "i"})
// CHECK-SAME:    -> (index, i64, index) attributes {loop.kernel, loop.extents = {i = 2 : i64}, loop.steps = {i = 2 : i64}} {
// CHECK:         %[[CAP:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<i64>
// CHECK:         %[[NZ:[a-z0-9_]+]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// CHECK:         %[[LEN:len_i]] = arith.select
// CHECK-NEXT:    %[[FITS:fits_i]] = arith.cmpi sle, %[[LEN]], %[[CAP]] : index
// CHECK-NEXT:    %[[G:n_i]] = arith.select %[[FITS]], %[[LEN]], %{{.*}} : index
// CHECK:         %[[CNT:count]] = loop.predloop %[[K:[a-z0-9_]+]] in [%{{.*}}, %[[G]]) width(1)
// CHECK:           %[[KE:[a-z0-9_]+]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:      %[[KS:[a-z0-9_]+]] = arith.muli %[[KE]], %[[STEP]] : i64
// CHECK-NEXT:      %{{.*}} = arith.addi %[[KS]], %[[START]] : i64
// CHECK:         %[[SUM:[a-z0-9_]+]] = loop.for %{{.*}} in [%{{.*}}, %[[G]]) accs(
// CHECK:         func.return %[[CNT]], %[[SUM]], %[[LEN]] : index, i64, index

func.func @weighted(%x: !df.array<f32, [i]>, %len: i64) -> !df.array<f32, [i]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %len, %one : !df.array<i64, [i]>
  %y = df.map %x, %idx : !df.array<f32, [i]>, !df.array<i64, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %k: i64):
    %f = arith.sitofp %k : i64 to f32
    %m = arith.mulf %e, %f : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// A range on an input's axis: not a computed axis (the input's length is the extent), but
// the guard keeps the range from reading the input (or writing the output) past its end.
// CHECK-LABEL: func.func @weighted(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %{{.*}}: i64, %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64})
// CHECK-SAME:    attributes {loop.kernel} {
// CHECK:         %[[NX:[a-z0-9_]+]] = loop.dim %[[X]], 0 : !loop.buf<f32>
// CHECK:         %[[NO:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<f32>
// CHECK:         %[[LEN:len_i]] = arith.maxsi
// CHECK-NEXT:    %[[A:[a-z0-9_]+]] = arith.cmpi sle, %[[LEN]], %[[NX]] : index
// CHECK-NEXT:    %[[B:[a-z0-9_]+]] = arith.cmpi sle, %[[LEN]], %[[NO]] : index
// CHECK-NEXT:    %[[FITS:fits_i]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NEXT:    %[[G:n_i]] = arith.select %[[FITS]], %[[LEN]], %{{.*}} : index
// CHECK-NEXT:    loop.for %{{.*}} in [%{{.*}}, %[[G]]) {
// CHECK:         func.return{{$}}

func.func @wide_by3(%start: i64, %end: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %three = arith.constant 3 : i64
  %r = df.range %start, %end, %three : !df.array<i64, [i]>
  %s = df.reduce add(%r, %zero) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}

// A constant step: the distance hi - lo - 1 (up to 2**64 - 2) is a + b with a, b in
// [0, INT64_MAX] (b = -1 - lo when lo < 0 <= hi), divided by the step term by term.
// CHECK-LABEL: func.func @wide_by3(
// CHECK-SAME:    -> (i64, index) attributes {loop.kernel, loop.extents = {i = 1 : i64}} {
// CHECK-NOT:     loop.steps
// CHECK:         %[[NE:[a-z0-9_]+]] = arith.cmpi slt, %[[LO:[a-z0-9_]+]], %[[HI:[a-z0-9_]+]] : index
// CHECK:         %[[SPLIT:[a-z0-9_]+]] = arith.andi
// CHECK:         arith.divsi %{{.*}}, %[[C3:[a-z0-9_]+]] : index
// CHECK-NEXT:    arith.remsi %{{.*}}, %[[C3]] : index
// CHECK-NEXT:    arith.divsi %{{.*}}, %[[C3]] : index
// CHECK-NEXT:    arith.remsi %{{.*}}, %[[C3]] : index
// CHECK:         %[[LEN:len_i]] = arith.select %[[NE]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %{{.*}} = loop.for %{{.*}} in [%{{.*}}, %[[LEN]]) accs(
// CHECK-NOT:     range(
