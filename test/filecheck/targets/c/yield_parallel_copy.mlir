// RUN: loop-opt %s -t c | filecheck %s

// A loop.yield that permutes accumulators is a parallel copy through temporaries, each of its own
// accumulator's type: an unchanged accumulator before the permuted ones must not shift the types
// (an i64 swapped through a `float` temporary loses its low bits).
builtin.module {
  func.func @swap(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> (f32, i64, i64) attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %n = loop.dim %x, 0 : !loop.buf<f32>
    %f = arith.constant 1.5 : f32
    %a = arith.constant 9007199254740993 : i64
    %b = arith.constant 3 : i64
    %r:3 = loop.for %i in [%c0, %n) accs(%keep = %f : f32 custom, %p = %a : i64 custom, %q = %b : i64 custom) {
      loop.yield %keep, %q, %p : f32, i64, i64
    }
    func.return %r#0, %r#1, %r#2 : f32, i64, i64
  }
}

// CHECK-LABEL: swap(
// CHECK:         for (
// CHECK-NEXT:      int64_t [[P:[a-z_0-9]+]] = [[Q:[a-z_0-9]+]];
// CHECK-NEXT:      int64_t [[Q2:[a-z_0-9]+]] = [[PV:[a-z_0-9]+]];
// CHECK-NOT:       float
// CHECK:         }
