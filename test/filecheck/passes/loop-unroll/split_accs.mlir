// RUN: loop-opt %s -p 'loop-unroll{factor=4 full_threshold=0 accs=split}' --split-input-file | filecheck %s
// RUN: not loop-opt %s -p 'loop-unroll{accs=tree}' 2>&1 | filecheck %s --check-prefix=OPTION

// accs=split: body copy k steps its own partial accumulator (4 independent chains: the
// latency of the add is paid once per 4 elements); the copies after the first start at the
// kind's neutral element, are combined pairwise after the main loop, and the remainder loop
// continues from that value. What the scalar target's loop-pipeline runs.
// CHECK-LABEL: func.func @sum_i32
func.func @sum_i32(%b: !loop.buf<i32>, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<i32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %x : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}
// CHECK:         %[[SPLIT:.*]] = arith.subi %[[N:.*]], %rem : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[P0:.*]], %[[P1:.*]], %[[P2:.*]], %[[P3:.*]] = loop.for %[[I:.*]] in range(%{{.*}}, %[[SPLIT]], %{{.*}}) accs(%[[A0:.*]] = %[[Z:.*]] : i32 add, %[[A1:.*]] = %[[ZERO]] : i32 add, %[[A2:.*]] = %[[ZERO]] : i32 add, %[[A3:.*]] = %[[ZERO]] : i32 add) {
// CHECK-NEXT:      %[[X0:.*]] = loop.load %{{.*}}[%[[I]]] : !loop.buf<i32>
// CHECK-NEXT:      %[[T0:.*]] = arith.addi %[[A0]], %[[X0]] : i32
// CHECK-NEXT:      %[[X1:.*]] = loop.load %{{.*}}[%[[I]] + 1] : !loop.buf<i32>
// CHECK-NEXT:      %[[T1:.*]] = arith.addi %[[A1]], %[[X1]] : i32
// CHECK-NEXT:      %[[X2:.*]] = loop.load %{{.*}}[%[[I]] + 2] : !loop.buf<i32>
// CHECK-NEXT:      %[[T2:.*]] = arith.addi %[[A2]], %[[X2]] : i32
// CHECK-NEXT:      %[[X3:.*]] = loop.load %{{.*}}[%[[I]] + 3] : !loop.buf<i32>
// CHECK-NEXT:      %[[T3:.*]] = arith.addi %[[A3]], %[[X3]] : i32
// CHECK-NEXT:      loop.yield %[[T0]], %[[T1]], %[[T2]], %[[T3]] : i32, i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S01:.*]] = arith.addi %[[P0]], %[[P1]] : i32
// CHECK-NEXT:    %[[S23:.*]] = arith.addi %[[P2]], %[[P3]] : i32
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[S01]], %[[S23]] : i32
// CHECK-NEXT:    %[[R:.*]] = loop.for %{{.*}} in [%[[SPLIT]], %[[N]]) accs(%{{.*}} = %[[S]] : i32 add) {
// CHECK:         func.return %[[R]] : i32

// -----

// Two accumulators (a float max and a reassociated float sum): each splits, neutral -inf and
// -0.0 (one constant each), the partials ordered copy by copy.
// CHECK-LABEL: func.func @max_and_sum
// CHECK:         %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:    %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[M0:.*]], %[[S0:.*]], %[[M1:.*]], %[[S1:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = loop.for %{{.*}} accs(%{{.*}} = %{{.*}} : f32 max, %{{.*}} = %{{.*}} : f32 add reassoc, %{{.*}} = %[[NINF]] : f32 max, %{{.*}} = %[[NZ]] : f32 add reassoc, %{{.*}} = %[[NINF]] : f32 max, %{{.*}} = %[[NZ]] : f32 add reassoc, %{{.*}} = %[[NINF]] : f32 max, %{{.*}} = %[[NZ]] : f32 add reassoc) {
// CHECK:         %{{.*}} = arith.maximumf %[[M0]], %[[M1]] : f32
// CHECK:         %{{.*}} = arith.addf %[[S0]], %[[S1]] : f32
func.func @max_and_sum(%b: !loop.buf<f32>, %z: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %m, %s = loop.for %i in [%c0, %n) accs(%am = %z : f32 max, %as = %z : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %u = arith.maximumf %am, %x : f32
    %t = arith.addf %as, %x : f32
    loop.yield %u, %t : f32, f32
  }
  func.return %m, %s : f32, f32
}

// -----

// Left alone: a float sum without reassoc (one chain in element order is its meaning), a
// scan (the running value is stored) and an accumulator used twice (not a reduction).
// CHECK-LABEL: func.func @not_split
// CHECK-COUNT-3: loop.for %{{.*}} in [
// CHECK-NOT:     range(
// CHECK:         func.return
func.func @not_split(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %q: !loop.buf<i32>, %z: f32, %zi: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %b, 0 : !loop.buf<f32>
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  %c = loop.for %i in [%c0, %n) accs(%run = %z : f32 add reassoc) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %run, %x : f32
    loop.store %t, %o[%i] : !loop.buf<f32>
    loop.yield %t : f32
  }
  %r = loop.for %i in [%c0, %n) accs(%a = %zi : i32 add) {
    %x = loop.load %q[%i] : !loop.buf<i32>
    %d = arith.muli %a, %x : i32
    %t = arith.addi %a, %d : i32
    loop.yield %t : i32
  }
  func.return %s, %r : f32, i32
}

// OPTION: error: loop-unroll: option accs=tree is not one of chain, split
