// RUN: loop-opt %s -p loop-fuse --split-input-file | filecheck %s

// A fold that yields its accumulator unchanged, before another loop: the fused loop yields
// its own block argument (fusion used to leave the yield naming the erased loop's argument:
// "Operation using value defined out of its IsolatedFromAbove parent").
// CHECK-LABEL: func.func @first_unchanged
// CHECK:         %[[S:.*]] = loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%[[ACC:.*]] = %init : f32 add) {
// CHECK:           loop.store
// CHECK-NEXT:      loop.yield %[[ACC]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[S]] : f32
func.func @first_unchanged(%a: !loop.buf<f32>, %o: !loop.buf<f32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.yield %acc : f32
  }
  loop.for %i in [%c0, %n) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return %s : f32
}

// -----

// The same in the second loop, next to a real sum: each result keeps its own accumulator.
// CHECK-LABEL: func.func @second_unchanged
// CHECK:         %[[S:.*]], %[[T:.*]] = loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(%[[SUM:.*]] = %init : f32 add, %[[KEEP:.*]] = %init : f32 add) {
// CHECK:           %[[NEXT:.*]] = arith.addf %[[SUM]], %{{.*}} : f32
// CHECK-NEXT:      loop.yield %[[NEXT]], %[[KEEP]] : f32, f32
// CHECK:         func.return %[[S]], %[[T]] : f32, f32
func.func @second_unchanged(%a: !loop.buf<f32>, %init: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %a, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    %y = arith.addf %acc, %x : f32
    loop.yield %y : f32
  }
  %t = loop.for %i in [%c0, %n) accs(%acc = %init : f32 add) {
    %x = loop.load %a[%i] : !loop.buf<f32>
    loop.yield %acc : f32
  }
  func.return %s, %t : f32, f32
}
