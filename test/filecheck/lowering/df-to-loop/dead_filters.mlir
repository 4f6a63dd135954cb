// RUN: loop-opt %s -p convert-df-to-loop | filecheck %s

// Found by the ABI fuzzer (session 23): a df op nobody reads is not lowered (a dead filter
// allocated scratch buffers of the input's length, a negative C length included, and filled
// them); a zipped filter's output nobody reads gets no buffer and no appends.

// CHECK-LABEL: func.func @all_dead
// CHECK-NOT:     loop.alloc
// CHECK-NOT:     loop.predloop
// CHECK:         loop.for
// CHECK:         func.return
func.func @all_dead(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %a, %b = df.filter %x, %y : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [k]>, !df.array<i32, [k]> {
  ^bb0(%e: i32, %f: i32):
    %c = arith.cmpi slt, %e, %f : i32
    df.yield %c : i1
  }
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// CHECK-LABEL: func.func @half_dead
// CHECK:         %[[A:.*]] = loop.alloc(%{{.*}}) : !loop.buf<f32>
// CHECK-NOT:     loop.alloc
// CHECK:         loop.predloop
// CHECK:           loop.append %{{.*}}, %[[A]] : !loop.buf<f32>
// CHECK-NOT:       loop.append
// CHECK:         loop.dealloc %[[A]]
// CHECK-NOT:     loop.dealloc
func.func @half_dead(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %a, %b = df.filter %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%e: f32, %f: f32):
    %c = arith.cmpf olt, %e, %f : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%a, %zero) over [k] : !df.array<f32, [k]> -> f32
  func.return %s : f32
}
