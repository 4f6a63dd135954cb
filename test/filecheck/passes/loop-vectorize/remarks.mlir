// RUN: loop-opt %s -p 'loop-vectorize{remarks=true}' --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: loop-opt %s -p 'loop-vectorize{remarks=true}' --split-input-file 2>/dev/null | filecheck %s
// RUN: loop-opt %s -p loop-vectorize --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty
// One case per decline code: the remark names the code and points at the op at fault, and
// the loop stays scalar. Without remarks=true nothing is printed.
// QUIET-NOT: remark

// A call has no vector form.
// REMARK: remarks.mlir:[[# @LINE + 8]]:5: remark: VEC_REJECT_NO_VECTOR_FORM: func.call has no vector form
// CHECK-LABEL: func.func @call
// CHECK:         loop.for
func.func private @g(f32) -> f32
func.func @call(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = func.call @g(%x) : (f32) -> f32
    loop.store %y, %b[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// Integer division vectorizes (c_intvec: multiply-high for a constant divisor, lanes otherwise).
// CHECK-LABEL: func.func @divide
// CHECK:         loop.vecloop
func.func @divide(%b: !loop.buf<i32>, %n: index, %k: i32) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %y = arith.divsi %x, %k : i32
    loop.store %y, %b[%i] : !loop.buf<i32>
  }
  func.return
}

// -----

// Integer power has no vector form on any target.
// REMARK: remarks.mlir:[[# @LINE + 7]]:5: remark: VEC_REJECT_NO_VECTOR_FORM: math.ipowi has no vector form
// CHECK-LABEL: func.func @power
// CHECK:         loop.for
func.func @power(%b: !loop.buf<i32>, %n: index, %k: i32) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %y = math.ipowi %x, %k : i32
    loop.store %y, %b[%i] : !loop.buf<i32>
  }
  func.return
}

// -----

// A float sum without reassoc keeps its order.
// REMARK: remarks.mlir:[[# @LINE + 5]]:3: remark: VEC_REJECT_FLOAT_REDUCTION_ORDER: accumulator #0 (add on f32) is not reassoc: splitting it across lanes would change the rounding
// CHECK-LABEL: func.func @ordered_sum
// CHECK:         loop.for
func.func @ordered_sum(%b: !loop.buf<f32>, %n: index, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %x : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

// -----

// A custom accumulator has no neutral element.
// REMARK: remarks.mlir:[[# @LINE + 6]]:3: remark: VEC_REJECT_CUSTOM_REDUCTION: accumulator #0 is custom: no neutral element to start the lanes from
// CHECK-LABEL: func.func @horner
// CHECK:         loop.for
func.func @horner(%b: !loop.buf<i64>, %n: index, %z: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %ten = arith.constant 10 : i64
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i64 custom) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %t = arith.muli %acc, %ten : i64
    %u = arith.addi %t, %x : i64
    loop.yield %u : i64
  }
  func.return %s : i64
}

// -----

// A carried value whose step is not `acc + x`: a recurrence labelled add.
// REMARK: remarks.mlir:[[# @LINE + 9]]:5: remark: VEC_REJECT_NOT_A_REDUCTION: accumulator #0: the carried value feeds arith.muli, a add reduction needs arith.addf or arith.addi
// CHECK-LABEL: func.func @recurrence
// CHECK:         loop.for
func.func @recurrence(%b: !loop.buf<i32>, %n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : i32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i32 add) {
    %x = loop.load %b[%i] : !loop.buf<i32>
    %t = arith.muli %acc, %c3 : i32
    %u = arith.addi %t, %x : i32
    loop.yield %u : i32
  }
  func.return %s : i32
}

// -----

// A carried value stored every iteration is a scan; one whose running value feeds anything
// but its store and yield (here a doubled copy is stored) is not the vectorizable shape.
// REMARK: remarks.mlir:[[# @LINE + 6]]:3: remark: VEC_REJECT_SCAN: accumulator #0 is stored every iteration but is not a scan: the running value is used by arith.muli, a scan only stores and yields it
// CHECK-LABEL: func.func @cumsum_doubled
// CHECK:         loop.for
func.func @cumsum_doubled(%b: !loop.buf<i64>, %o: !loop.buf<i64>, %n: index, %z: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2 : i64
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : i64 add) {
    %x = loop.load %b[%i] : !loop.buf<i64>
    %t = arith.addi %acc, %x : i64
    %d = arith.muli %t, %two : i64
    loop.store %d, %o[%i] : !loop.buf<i64>
    loop.yield %t : i64
  }
  func.return %s : i64
}

// -----

// A store at stride 2.
// REMARK: remarks.mlir:[[# @LINE + 7]]:5: remark: VEC_REJECT_NONUNIT_STRIDE: stride 2 elements per iteration (coefficient 2, step 1); vectorizable accesses have stride 1 or 0
// CHECK-LABEL: func.func @strided_store
// CHECK:         loop.for
func.func @strided_store(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[2 * %i + 1] : !loop.buf<f32>
  }
  func.return
}

// -----

// A column walk of a row-major matrix: consecutive iterations are a row apart.
// REMARK: remarks.mlir:[[# @LINE + 6]]:7: remark: VEC_REJECT_NONUNIT_STRIDE: index of dimension 0 moves with the loop variable (coefficient 1): consecutive iterations are a row apart
// CHECK-LABEL: func.func @column
// CHECK:         loop.for
func.func @column(%m: !loop.buf<i32, 2>, %r: index, %j: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = loop.for %i in [%c0, %r) accs(%acc = %z : i32 max) {
      %x = loop.load %m[%i, %j] : !loop.buf<i32, 2>
      %t = arith.maxsi %acc, %x : i32
      loop.yield %t : i32
  }
  func.return %s : i32
}

// -----

// A store at an index computed in the body (a scatter; a load there is a gather, which
// vectorizes), and a load moving with a runtime step (unknown stride).
// REMARK: remarks.mlir:[[# @LINE + 11]]:5: remark: VEC_REJECT_NONUNIT_STRIDE: index of dimension 0 is computed in the loop body (a gather/scatter)
// REMARK: remarks.mlir:[[# @LINE + 13]]:5: remark: VEC_REJECT_NONUNIT_STRIDE: the loop's step is not a constant: unknown stride
// CHECK-LABEL: func.func @scatter_and_step
// CHECK:         loop.for
// CHECK:         loop.for
func.func @scatter_and_step(%b: !loop.buf<f32>, %idx: !loop.buf<i64>, %o: !loop.buf<f32>, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %k = loop.load %idx[%i] : !loop.buf<i64>
    %j = arith.index_cast %k : i64 to index
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%j] : !loop.buf<f32>
  }
  loop.for %i in range(%c0, %n, %s) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}

// -----

// A loop-carried dependence through memory: iteration i writes b[i + 1], which iteration
// i + 1 reads.
// REMARK: remarks.mlir:[[# @LINE + 8]]:5: remark: VEC_REJECT_MEMORY_DEPENDENCE: the buffer written here is also accessed by loop.load at another index (a loop-carried dependence through memory)
// CHECK-LABEL: func.func @recurrence_in_memory
// CHECK:         loop.for
func.func @recurrence_in_memory(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.addf %x, %x : f32
    loop.store %y, %b[%i + 1] : !loop.buf<f32>
  }
  func.return
}

// -----

// Every iteration stores to the same element (the last one wins sequentially).
// REMARK: remarks.mlir:[[# @LINE + 7]]:5: remark: VEC_REJECT_MEMORY_DEPENDENCE: every iteration stores to the same element (an output dependence)
// CHECK-LABEL: func.func @last_wins
// CHECK:         loop.for
func.func @last_wins(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[0] : !loop.buf<f32>
  }
  func.return
}
