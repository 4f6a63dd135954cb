// RUN: loop-opt %s --split-input-file -p 'loop-unroll-jam{rows=2}' | filecheck %s
// RUN: loop-opt %s --split-input-file -p 'loop-unroll-jam{rows=3}' | filecheck %s --check-prefix=ROWS3
// RUN: loop-opt %s --split-input-file -p 'loop-unroll-jam{rows=1}' | filecheck %s --check-prefix=OFF
// RUN: loop-opt %s --split-input-file -p 'loop-unroll-jam{rows=2},loop-vectorize' | filecheck %s --check-prefix=VEC
// RUN: loop-opt %s --split-input-file -p 'loop-unroll-jam{rows=2},loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=VECREMARK --allow-empty
// RUN: not loop-opt %s -p 'loop-unroll-jam{rows=0}' 2>&1 | filecheck %s --check-prefix=RANGE

// A matrix product after loop-interchange (i, j, k; C in %out): the row loop steps 2 rows,
// each inner loop runs once for both; the B load (not depending on the row) is emitted once,
// the loads and stores of row i + 1 are at the affine index `%i + 1`; the n mod 2 rows left
// run the original body.
// CHECK-LABEL: func.func @matmul
// CHECK:      %[[R:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[T:.*]] = arith.subi %[[NI:.*]], %[[C0:.*]] : index
// CHECK-NEXT: %[[REM:.*]] = arith.remsi %[[T]], %[[R]] : index
// CHECK-NEXT: %[[SPLIT:.*]] = arith.subi %[[NI]], %[[REM]] : index
// CHECK-NEXT: loop.for %[[I:.*]] in range(%[[C0]], %[[SPLIT]], %[[R]]) {
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %{{.*}} = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NEXT:   loop.for %[[K0:.*]] in [%[[C0]], %[[NK:.*]]) {
// CHECK-NEXT:     loop.store %[[Z:.*]], %[[OUT:.*]][%[[I]], %[[K0]]] : !loop.buf<f32, 2>
// CHECK-NEXT:     loop.store %[[Z]], %[[OUT]][%[[I]] + 1, %[[K0]]] : !loop.buf<f32, 2>
// CHECK-NEXT:   }
// CHECK-NEXT:   loop.for %[[J:.*]] in [%[[C0]], %[[NJ:.*]]) {
// CHECK-NEXT:     loop.for %[[K:.*]] in [%[[C0]], %[[NK]]) {
// CHECK-NEXT:       %[[C:.*]] = loop.load %[[OUT]][%[[I]], %[[K]]]
// CHECK-NEXT:       %[[X:.*]] = loop.load %[[A:.*]][%[[I]], %[[J]]]
// CHECK-NEXT:       %[[Y:.*]] = loop.load %[[B:.*]][%[[J]], %[[K]]]
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:       %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// CHECK-NEXT:       loop.store %[[S]], %[[OUT]][%[[I]], %[[K]]]
// CHECK-NEXT:       %[[C1:.*]] = loop.load %[[OUT]][%[[I]] + 1, %[[K]]]
// CHECK-NEXT:       %[[X1:.*]] = loop.load %[[A]][%[[I]] + 1, %[[J]]]
// CHECK-NEXT:       %[[P1:.*]] = arith.mulf %[[X1]], %[[Y]] : f32
// CHECK-NEXT:       %[[S1:.*]] = arith.addf %[[C1]], %[[P1]] : f32
// CHECK-NEXT:       loop.store %[[S1]], %[[OUT]][%[[I]] + 1, %[[K]]]
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: loop.for %[[IR:.*]] in [%[[SPLIT]], %[[NI]]) {
// CHECK-NEXT:   loop.for %{{.*}} in [%[[C0]], %[[NK]]) {
// CHECK-NEXT:     loop.store %[[Z]], %[[OUT]][%[[IR]], %{{.*}}]
// CHECK-NEXT:   }
// CHECK-NEXT:   loop.for
// CHECK-NEXT:     loop.for
// CHECK-NEXT:       loop.load %[[OUT]][%[[IR]], %{{.*}}]
// ROWS3-LABEL: func.func @matmul
// ROWS3:      %[[R:.*]] = arith.constant 3 : index
// ROWS3:      loop.for %[[I:.*]] in range(%{{.*}}, %{{.*}}, %[[R]]) {
// ROWS3:          loop.store %{{.*}}, %{{.*}}[%[[I]] + 2, %{{.*}}]
// ROWS3-NOT:      %[[I]] + 3
// ROWS3:      }
// OFF-LABEL: func.func @matmul
// OFF-NOT:   range(
// OFF:       loop.for %{{.*}} in [%{{.*}}, %{{.*}}) {
// Two rows' stores name different elements (`%i` and `%i + 1`): the k loop vectorizes.
// VEC-LABEL: func.func @matmul
// VEC:      loop.for %[[I:.*]] in range(
// VEC:      loop.vecloop %{{.*}} width(W)
// VEC:        loop.store %{{.*}}, %{{.*}}[%[[I]] + 1, %{{.*}}]
// VECREMARK-NOT: VEC_REJECT_MEMORY_DEPENDENCE
// RANGE: loop-unroll-jam: option rows=0 is out of range [1, 64]
func.func @matmul(%a: !loop.buf<f32, 2>, %b: !loop.buf<f32, 2>, %out: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %a, 0 : !loop.buf<f32, 2>
  %n_j = loop.dim %a, 1 : !loop.buf<f32, 2>
  %n_k = loop.dim %b, 1 : !loop.buf<f32, 2>
  %zero = arith.constant 0.0 : f32
  loop.for %i in [%c0, %n_i) {
    loop.for %k in [%c0, %n_k) {
      loop.store %zero, %out[%i, %k] : !loop.buf<f32, 2>
    }
    loop.for %j in [%c0, %n_j) {
      loop.for %k in [%c0, %n_k) {
        %c = loop.load %out[%i, %k] : !loop.buf<f32, 2>
        %x = loop.load %a[%i, %j] : !loop.buf<f32, 2>
        %y = loop.load %b[%j, %k] : !loop.buf<f32, 2>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %c, %p : f32
        loop.store %s, %out[%i, %k] : !loop.buf<f32, 2>
      }
    }
  }
  func.return
}

// -----

// Every load changes with the row (a row-wise copy): nothing is loaded once for several
// rows, so the loop is left as it is.
// CHECK-LABEL: func.func @nothing_to_reuse
// CHECK-NOT:   range(
// CHECK:       loop.for %[[I:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:    loop.for %[[K:.*]] in [%{{.*}}, %{{.*}}) {
// CHECK-NEXT:      %{{.*}} = loop.load %{{.*}}[%[[I]], %[[K]]]
func.func @nothing_to_reuse(%a: !loop.buf<f32, 2>, %out: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %n_i = loop.dim %a, 0 : !loop.buf<f32, 2>
  %n_k = loop.dim %a, 1 : !loop.buf<f32, 2>
  loop.for %i in [%c0, %n_i) {
    loop.for %k in [%c0, %n_k) {
      %x = loop.load %a[%i, %k] : !loop.buf<f32, 2>
      loop.store %x, %out[%i, %k] : !loop.buf<f32, 2>
    }
  }
  func.return
}
