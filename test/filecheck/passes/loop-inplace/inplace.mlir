// RUN: loop-opt %s -p 'loop-inplace' | filecheck %s
// RUN: loop-opt %s -p 'loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Softmax's exps (convert-df-to-loop's loop IR): the temporary becomes the output, the
// scaling map reads and writes out[i]; no alloc, no dealloc.
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     loop.alloc
// CHECK:         %s = loop.for %[[I:.*]] in [%c0, %n) accs(%{{.*}} = %zero : f32 add reassoc) {
// CHECK:           loop.store %x1, %out[%[[I]]] : !loop.buf<f32>
// CHECK:         loop.for %[[J:.*]] in [%c0, %n) {
// CHECK-NEXT:      %v_1 = loop.load %out[%[[J]]] : !loop.buf<f32>
// CHECK-NEXT:      %q = arith.divf %v_1, %s : f32
// CHECK-NEXT:      loop.store %q, %out[%[[J]]] : !loop.buf<f32>
// CHECK-NOT:     loop.dealloc
// CHECK:         func.return
func.func @softmax(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %e = loop.alloc(%n) : !loop.buf<f32>
  %s = loop.for %i_1 in [%c0, %n) accs(%a = %zero : f32 add reassoc) {
    %v = loop.load %x[%i_1] : !loop.buf<f32>
    %x1 = math.exp %v : f32
    loop.store %x1, %e[%i_1] : !loop.buf<f32>
    %t = arith.addf %a, %x1 : f32
    loop.yield %t : f32
  }
  loop.for %i_2 in [%c0, %n) {
    %v_1 = loop.load %e[%i_2] : !loop.buf<f32>
    %q = arith.divf %v_1, %s : f32
    loop.store %q, %out[%i_2] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// The output is written by an earlier loop too: the temporary stays.
// CHECK-LABEL: func.func @written_twice(
// CHECK:         %e = loop.alloc(%n) : !loop.buf<f32>
// CHECK:         loop.dealloc %e
// REMARK: inplace.mlir:54:5: remark: INPLACE_REJECT_OUTPUT_USE: the output is read or written elsewhere
func.func @written_twice(%x: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    loop.store %v, %e[%i] : !loop.buf<f32>
    loop.store %v, %out[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %n) {
    %v = loop.load %e[%i] : !loop.buf<f32>
    %q = arith.mulf %v, %v : f32
    loop.store %q, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// The last reader runs over [0, n - 1), not the temporary's whole size: the output's capacity
// is not known to cover what the first loop writes.
// CHECK-LABEL: func.func @shorter_reader(
// CHECK:         %e = loop.alloc(%n) : !loop.buf<f32>
// REMARK: inplace.mlir:75:3: remark: INPLACE_REJECT_NOT_ELEMENTWISE: the temporary's last reader is not a loop over [0, its size)
func.func @shorter_reader(%x: !loop.buf<f32>, %out: !loop.buf<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %m = arith.subi %n, %c1 : index
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    loop.store %v, %e[%i] : !loop.buf<f32>
  }
  loop.for %i in [%c0, %m) {
    %v = loop.load %e[%i] : !loop.buf<f32>
    loop.store %v, %out[%i] : !loop.buf<f32>
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return
}

// The reader stores its element before it loads the temporary's: in place it would read its own result.
// CHECK-LABEL: func.func @store_first(
// CHECK:         %e = loop.alloc(%n) : !loop.buf<f32>
// REMARK: inplace.mlir:99:5: remark: INPLACE_REJECT_NOT_ELEMENTWISE: the last reader accesses the temporary other than at [i] before its store
func.func @store_first(%x: !loop.buf<f32>, %out: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %zero = arith.constant 0.0 : f32
  %e = loop.alloc(%n) : !loop.buf<f32>
  loop.for %i in [%c0, %n) {
    %v = loop.load %x[%i] : !loop.buf<f32>
    loop.store %v, %e[%i] : !loop.buf<f32>
  }
  %s = loop.for %i in [%c0, %n) accs(%a = %zero : f32 add reassoc) {
    %w = loop.load %x[%i] : !loop.buf<f32>
    loop.store %w, %out[%i] : !loop.buf<f32>
    %v = loop.load %e[%i] : !loop.buf<f32>
    %t = arith.addf %a, %v : f32
    loop.yield %t : f32
  }
  loop.dealloc %e : !loop.buf<f32>
  func.return %s : f32
}
