// RUN: loop-opt %s --split-input-file -p 'loop-interchange' | filecheck %s
// RUN: loop-opt %s --split-input-file -p 'loop-interchange{columns=64}' | filecheck %s --check-prefix=BLOCK
// RUN: loop-opt %s --split-input-file -p 'loop-interchange{rows=2}' | filecheck %s --check-prefix=ROWS

// A column sum: the row loop becomes outermost, each column's accumulator lives in %out.
// CHECK-LABEL: func.func @colsum
// CHECK:      loop.for %[[J0:.*]] in [%[[C0:.*]], %[[NJ:.*]]) {
// CHECK-NEXT:   loop.store %[[Z:.*]], %[[OUT:.*]][%[[J0]]] : !loop.buf<f32>
// CHECK-NEXT: }
// CHECK-NEXT: loop.for %[[I:.*]] in [%[[C0]], %[[NI:.*]]) {
// CHECK-NEXT:   loop.for %[[J:.*]] in [%[[C0]], %[[NJ]]) {
// CHECK-NEXT:     %[[A:.*]] = loop.load %[[OUT]][%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:     %[[X:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
// CHECK-NEXT:     %[[T:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT:     loop.store %[[T]], %[[OUT]][%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// BLOCK-LABEL: func.func @colsum
// BLOCK:      %[[B:.*]] = arith.constant 64 : index
// BLOCK-NEXT: loop.for %[[JB:.*]] in range(%{{.*}}, %[[NJ:.*]], %[[B]]) {
// BLOCK-NEXT:   %[[E:.*]] = arith.addi %[[JB]], %[[B]] : index
// BLOCK-NEXT:   %[[JE:.*]] = arith.minsi %[[E]], %[[NJ]] : index
// BLOCK-NEXT:   loop.for %{{.*}} in [%{{.*}}, %{{.*}}) {
// BLOCK-NEXT:     loop.for %{{.*}} in [%[[JB]], %[[JE]]) {
func.func @colsum(%m: !loop.buf<f32, 2>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %j in [%c0, %n_j) {
    %s = loop.for %i in [%c0, %n_i) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %out[%j] : !loop.buf<f32>
  }
  func.return
}

// -----

// Two accumulators (an ordered float sum and a custom kind are fine: each column keeps its order).
// CHECK-LABEL: func.func @two_accs
// CHECK:      loop.store %{{.*}}, %[[S:.*]][%{{.*}}] : !loop.buf<f32>
// CHECK-NEXT: loop.store %{{.*}}, %[[M:.*]][%{{.*}}] : !loop.buf<f32>
// CHECK:      %[[A:.*]] = loop.load %[[S]][%[[J:.*]]] : !loop.buf<f32>
// CHECK-NEXT: %[[B:.*]] = loop.load %[[M]][%[[J]]] : !loop.buf<f32>
// CHECK-NEXT: %[[X:.*]] = loop.load %{{.*}}[%{{.*}}, %[[J]]] : !loop.buf<f32, 2>
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[A]], %[[X]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[B]], %[[X]] : f32
// CHECK-NEXT: loop.store %[[T]], %[[S]][%[[J]]] : !loop.buf<f32>
// CHECK-NEXT: loop.store %[[U]], %[[M]][%[[J]]] : !loop.buf<f32>
func.func @two_accs(%m: !loop.buf<f32, 2>, %sum: !loop.buf<f32>, %prod: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  loop.for %j in [%c0, %n_j) {
    %s, %p = loop.for %i in [%c0, %n_i) accs(%a = %z : f32 add, %b = %one : f32 custom) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %a, %x : f32
      %u = arith.mulf %b, %x : f32
      loop.yield %t, %u : f32, f32
    }
    loop.store %s, %sum[%j] : !loop.buf<f32>
    loop.store %p, %prod[%j] : !loop.buf<f32>
  }
  func.return
}

// -----

// A row sum already walks contiguously: left alone.
// CHECK-LABEL: func.func @rowsum
// CHECK:      loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:   %{{.*}} = loop.for %{{.*}} in [%{{.*}}, %{{.*}}) accs(
func.func @rowsum(%m: !loop.buf<f32, 2>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %m, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %m, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n_i) {
    %s = loop.for %j in [%c0, %n_j) accs(%acc = %z : f32 add reassoc) {
      %x = loop.load %m[%i, %j] : !loop.buf<f32, 2>
      %t = arith.addf %acc, %x : f32
      loop.yield %t : f32
    }
    loop.store %s, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// rows=2: each column is updated two rows at a time (row i + 1 computed outside the column
// loop), then the last n mod 2 rows one by one. A rank-2 output (a matrix product's row of C)
// works like a rank-1 one: its index moves with the column in one dimension.
// ROWS-LABEL: func.func @matmul_row
// ROWS:      %[[SPLIT:.*]] = arith.subi %{{.*}}, %rem : index
// ROWS:      loop.for %[[J:.*]] in range(%{{.*}}, %[[SPLIT]], %{{.*}}) {
// ROWS-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// ROWS-NEXT:   %[[J1:.*]] = arith.addi %[[J]], %[[ONE]] : index
// ROWS-NEXT:   loop.for %[[K:.*]] in [%{{.*}}, %{{.*}}) {
// ROWS-NEXT:     %[[ACC:.*]] = loop.load %[[C:.*]][%[[I:.*]], %[[K]]] : !loop.buf<f32, 2>
// ROWS-NEXT:     %[[X:.*]] = loop.load %{{.*}}[%[[I]], %[[J]]] : !loop.buf<f32, 2>
// ROWS-NEXT:     %[[Y:.*]] = loop.load %{{.*}}[%[[J]], %[[K]]] : !loop.buf<f32, 2>
// ROWS-NEXT:     %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// ROWS-NEXT:     %[[T:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// ROWS-NEXT:     %[[X1:.*]] = loop.load %{{.*}}[%[[I]], %[[J1]]] : !loop.buf<f32, 2>
// ROWS-NEXT:     %[[Y1:.*]] = loop.load %{{.*}}[%[[J1]], %[[K]]] : !loop.buf<f32, 2>
// ROWS-NEXT:     %[[P1:.*]] = arith.mulf %[[X1]], %[[Y1]] : f32
// ROWS-NEXT:     %[[T1:.*]] = arith.addf %[[T]], %[[P1]] : f32
// ROWS-NEXT:     loop.store %[[T1]], %[[C]][%[[I]], %[[K]]] : !loop.buf<f32, 2>
// ROWS:      loop.for %{{.*}} in [%[[SPLIT]], %{{.*}}) {
func.func @matmul_row(%a: !loop.buf<f32, 2>, %b: !loop.buf<f32, 2>, %c: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %a, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %a, 1 : !loop.buf<f32, 2>
  %n_k = loop.dim %b, 1 : !loop.buf<f32, 2>
  %zero = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n_i) {
    loop.for %k in [%c0, %n_k) {
      %s = loop.for %j in [%c0, %n_j) accs(%acc = %zero : f32 add reassoc) {
        %x = loop.load %a[%i, %j] : !loop.buf<f32, 2>
        %y = loop.load %b[%j, %k] : !loop.buf<f32, 2>
        %p = arith.mulf %x, %y : f32
        %t = arith.addf %acc, %p : f32
        loop.yield %t : f32
      }
      loop.store %s, %c[%i, %k] : !loop.buf<f32, 2>
    }
  }
  func.return
}
