// RUN: loop-opt %s -p 'df-fuse{remarks=true}' --split-input-file 2>&1 | filecheck %s
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop' --split-input-file | filecheck %s --check-prefix=LOOP

// filter → scan: one df.scan over the unfiltered input with the filter's predicate as its
// `where`; the result stays on the filter's new axis [k]. A float sum without reassoc fuses
// too (the kept elements are added in the same order).
// CHECK-NOT: remark
// CHECK-LABEL: func.func @positive_cumsum
// CHECK-NEXT:    %{{.*}} = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[Y:.*]] = df.scan add(%x, %{{.*}}) : !df.array<f32, [i]> -> !df.array<f32, [k]> where {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpf ogt, %[[E]], %{{.*}} : f32
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]] : !df.array<f32, [k]>
// It lowers to one predloop whose accumulator is appended (the count is the axis extent).
// LOOP-LABEL: func.func @positive_cumsum
// LOOP:         %count, %{{.*}} = loop.predloop %i in [%{{.*}}, %{{.*}}) width(1) tail(scalar) mask(unset) accs(%[[ACC:.*]] = %{{.*}} : f32 add) pred {
// LOOP:         } body {
// LOOP-NEXT:      %[[X:.*]] = loop.load %x[%i] : !loop.buf<f32>
// LOOP-NEXT:      %[[T:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// LOOP-NEXT:      loop.append %[[T]], %out : !loop.buf<f32>
// LOOP-NEXT:      loop.yield %[[T]] : f32
// LOOP:         func.return %count : index
func.func @positive_cumsum(%x: !df.array<f32, [i]>) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.scan add(%p, %zero) : !df.array<f32, [k]> -> !df.array<f32, [k]>
  func.return %y : !df.array<f32, [k]>
}

// -----

// A filter with a map region over two inputs: the map composes into the scan's prologue,
// which runs on the kept elements only.
// CHECK-LABEL: func.func @running_max_of_products
// CHECK:         %[[Y:.*]] = df.scan(%x, %y) max(%{{.*}}) : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [k]> where {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:      %[[C:.*]] = arith.cmpi ne, %[[B]], %{{.*}} : i64
// CHECK-NEXT:      df.yield %[[C]] : i1
// CHECK-NEXT:    } map {
// CHECK-NEXT:    ^bb0(%[[A2:.*]]: i64, %[[B2:.*]]: i64):
// CHECK-NEXT:      %[[M:.*]] = arith.muli %[[A2]], %[[B2]] : i64
// CHECK-NEXT:      df.yield %[[M]] : i64
// CHECK-NEXT:    }
func.func @running_max_of_products(%x: !df.array<i64, [i]>, %y: !df.array<i64, [i]>) -> !df.array<i64, [k]> {
  %zero = arith.constant 0 : i64
  %low = arith.constant -9223372036854775808 : i64
  %p = df.filter %x, %y : !df.array<i64, [i]>, !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%a: i64, %b: i64):
    %c = arith.cmpi ne, %b, %zero : i64
    df.yield %c : i1
  } map {
  ^bb0(%a: i64, %b: i64):
    %m = arith.muli %a, %b : i64
    df.yield %m : i64
  }
  %q = df.scan max(%p, %low) : !df.array<i64, [k]> -> !df.array<i64, [k]>
  func.return %q : !df.array<i64, [k]>
}

