// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s
// RUN: loop-opt %s -p convert-df-to-loop | loop-opt | filecheck %s

// Elementwise maps: one input -> loop.for storing at i; several inputs -> loop.zip;
// records -> loop.zip over the field buffers (struct of arrays); a df.range input -> a
// range(start, end, step) loop whose variable is the element, no allocation.

func.func @square(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %s = arith.mulf %e, %e : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @axpy(%a: f32, %x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}

func.func @norm2(%p: !df.array<!df.record<x: f32, y: f32>, [i]>) -> !df.array<f32, [i]> {
  %d = df.map %p : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: !df.record<x: f32, y: f32>):
    %x = df.field %e["x"] : !df.record<x: f32, y: f32> -> f32
    %y = df.field %e["y"] : !df.record<x: f32, y: f32> -> f32
    %xx = arith.mulf %x, %x : f32
    %yy = arith.mulf %y, %y : f32
    %s = arith.addf %xx, %yy : f32
    df.yield %s : f32
  }
  func.return %d : !df.array<f32, [i]>
}

func.func @swap(%p: !df.array<!df.record<x: f64, y: f64>, [i]>) -> !df.array<!df.record<x: f64, y: f64>, [i]> {
  %q = df.map %p : !df.array<!df.record<x: f64, y: f64>, [i]> -> !df.array<!df.record<x: f64, y: f64>, [i]> {
  ^bb0(%e: !df.record<x: f64, y: f64>):
    %x = df.field %e["x"] : !df.record<x: f64, y: f64> -> f64
    %y = df.field %e["y"] : !df.record<x: f64, y: f64> -> f64
    %r = df.make_records %y, %x : f64, f64 -> !df.record<x: f64, y: f64>
    df.yield %r : !df.record<x: f64, y: f64>
  }
  func.return %q : !df.array<!df.record<x: f64, y: f64>, [i]>
}

func.func @squares(%n: i64) -> !df.array<i64, [r]> {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %idx = df.range %zero, %n, %one : !df.array<i64, [r]>
  %y = df.map %idx : !df.array<i64, [r]> -> !df.array<i64, [r]> {
  ^bb0(%k: i64):
    %s = arith.muli %k, %k : i64
    df.yield %s : i64
  }
  func.return %y : !df.array<i64, [r]>
}

func.func @sum_range(%start: i64, %end: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %three = arith.constant 3 : i64
  %idx = df.range %start, %end, %three : !df.array<i64, [r]>
  %s = df.reduce add(%idx, %zero) over [r] : !df.array<i64, [r]> -> i64
  func.return %s : i64
}

// CHECK-LABEL: func.func @square(
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]},
// CHECK-SAME:    %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64})
// CHECK-SAME:    attributes {loop.kernel} {
// An axis several buffers share runs to the first input's length only when every other buffer
// on it holds that many (else to 0: nothing read past a buffer, nothing written).
// CHECK-NEXT:    %[[LEN:[a-z0-9_]+]] = loop.dim %[[X]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[OLEN:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[FITS:[a-z0-9_]+]] = arith.cmpi sle, %[[LEN]], %[[OLEN]] : index
// CHECK-NEXT:    %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:[a-z0-9_]+]] = arith.select %[[FITS]], %[[LEN]], %[[C0]] : index
// CHECK-NEXT:    loop.for %[[I:[a-z0-9_]+]] in [%[[C0]], %[[N]]) {
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = loop.load %[[X]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:      %[[S:[a-z0-9_]+]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      loop.store %[[S]], %[[OUT]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// CHECK-LABEL: func.func @axpy(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: f32, %[[X:[a-z0-9_]+]]: !loop.buf<f32> {{.*}}, %[[Y:[a-z0-9_]+]]: !loop.buf<f32> {{.*}}, %[[OUT:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "out"
// CHECK-NEXT:    %[[LEN:[a-z0-9_]+]] = loop.dim %[[X]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[YLEN:[a-z0-9_]+]] = loop.dim %[[Y]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[YFITS:[a-z0-9_]+]] = arith.cmpi sle, %[[LEN]], %[[YLEN]] : index
// CHECK-NEXT:    %[[OLEN:[a-z0-9_]+]] = loop.dim %[[OUT]], 0 : !loop.buf<f32>
// CHECK-NEXT:    %[[OFITS:[a-z0-9_]+]] = arith.cmpi sle, %[[LEN]], %[[OLEN]] : index
// CHECK-NEXT:    %[[FITS:[a-z0-9_]+]] = arith.andi %[[YFITS]], %[[OFITS]] : i1
// CHECK-NEXT:    %[[C0:[a-z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:[a-z0-9_]+]] = arith.select %[[FITS]], %[[LEN]], %[[C0]] : index
// CHECK-NEXT:    loop.zip %[[I:[a-z0-9_]+]] in [%[[C0]], %[[N]]) streams(%[[XE:[a-z0-9_]+]] = %[[X]] : !loop.buf<f32>, %[[YE:[a-z0-9_]+]] = %[[Y]] : !loop.buf<f32>) {
// CHECK-NEXT:      %[[M:[a-z0-9_]+]] = arith.mulf %[[A]], %[[XE]] : f32
// CHECK-NEXT:      %[[S:[a-z0-9_]+]] = arith.addf %[[M]], %[[YE]] : f32
// CHECK-NEXT:      loop.store %[[S]], %[[OUT]][%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// CHECK-LABEL: func.func @norm2(
// CHECK-SAME:    %[[PX:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %[[PY:[a-z0-9_]+]]: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]},
// CHECK-NOT:     loop.alloc
// CHECK:         loop.zip %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) streams(%[[XE:[a-z0-9_]+]] = %[[PX]] : !loop.buf<f32>, %[[YE:[a-z0-9_]+]] = %[[PY]] : !loop.buf<f32>) {
// CHECK-NEXT:      %[[XX:[a-z0-9_]+]] = arith.mulf %[[XE]], %[[XE]] : f32
// CHECK-NEXT:      %[[YY:[a-z0-9_]+]] = arith.mulf %[[YE]], %[[YE]] : f32
// CHECK-NEXT:      %[[S:[a-z0-9_]+]] = arith.addf %[[XX]], %[[YY]] : f32
// CHECK-NEXT:      loop.store %[[S]], %{{.*}}[%[[I]]] : !loop.buf<f32>
// CHECK-NEXT:    }

// A record result is one out buffer per field, in field order.
// CHECK-LABEL: func.func @swap(
// CHECK-SAME:    %[[OX:[a-z0-9_]+]]: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64, loop.field = "x"},
// CHECK-SAME:    %[[OY:[a-z0-9_]+]]: !loop.buf<f64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64, loop.field = "y"})
// CHECK:         loop.zip %[[I:[a-z0-9_]+]] in [%{{.*}}, %{{.*}}) streams(%[[XE:[a-z0-9_]+]] = %{{.*}} : !loop.buf<f64>, %[[YE:[a-z0-9_]+]] = %{{.*}} : !loop.buf<f64>) {
// CHECK-NEXT:      loop.store %[[YE]], %[[OX]][%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:      loop.store %[[XE]], %[[OY]][%[[I]]] : !loop.buf<f64>
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @squares(
// CHECK-SAME:    %[[NN:[a-z0-9_]+]]: i64, %[[OUT:[a-z0-9_]+]]: !loop.buf<i64> {loop.role = "out", loop.axes = ["r"], loop.result = 0 : i64})
// CHECK-SAME:    -> index attributes {loop.kernel, loop.extents = {r = 0 : i64}} {
// CHECK-NOT:     loop.alloc
// CHECK:         loop.for %[[R:[a-z0-9_]+]] in [%{{.*}}, %[[N:n_r]]) {
// CHECK-NEXT:      %[[K:[a-z0-9_]+]] = arith.index_cast %[[R]] : index to i64
// CHECK-NEXT:      %[[S:[a-z0-9_]+]] = arith.muli %[[K]], %[[K]] : i64
// CHECK-NEXT:      loop.store %[[S]], %[[OUT]][%[[R]]] : !loop.buf<i64>
// CHECK-NEXT:    }

// CHECK-LABEL: func.func @sum_range(
// CHECK:         %[[S:[a-z0-9_]+]] = loop.for %[[R:[a-z0-9_]+]] in [%{{.*}}, %[[N:len_r]]) accs(%[[ACC:[a-z0-9_]+]] = %{{.*}} : i64 add) {
// CHECK-NEXT:      %[[K:[a-z0-9_]+]] = arith.index_cast %[[R]] : index to i64
// CHECK-NEXT:      %[[M:[a-z0-9_]+]] = arith.muli %[[K]], %{{.*}} : i64
// CHECK-NEXT:      %[[E:[a-z0-9_]+]] = arith.addi %[[M]], %{{.*}} : i64
// CHECK-NEXT:      %[[T:[a-z0-9_]+]] = arith.addi %[[ACC]], %[[E]] : i64
// CHECK-NEXT:      loop.yield %[[T]] : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]], %[[N]] : i64, index
