// RUN: loop-opt %s -t c --split-input-file --verify-diagnostics | filecheck %s
// RUN: not loop-opt %s -t c --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// ABI attributes of a Loop IR kernel (docs/calling_convention.md) are user input when the
// Loop IR is written by hand: each is checked against the kernel before any C is printed.
// Axis names reach the runtime's error messages: they must be plain identifiers too.

func.func @fmt(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["%n%s"]}) attributes {loop.kernel} {
  func.return
}
// CHECK: error_abi.mlir:8:1: error: @fmt: axis name of argument #0 ('x') '%n%s' is not allowed in generated C: not a valid C identifier
// EXIT: error_abi.mlir:8:1: error: @fmt: axis name
// EXIT-NOT: #include

// -----

func.func @kw(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["int"]}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @kw: axis name of argument #0 ('x') 'int' is not allowed in generated C: a C keyword

// -----

func.func @rank(%x: !loop.buf<f32, 2> {loop.role = "in", loop.axes = ["i"]}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @rank: buffer argument #0 ('x') has rank 2 but loop.axes names 1 axes ['i']

// -----

func.func @role(%x: !loop.buf<f32> {loop.role = "inout", loop.axes = ["i"]}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @role: buffer argument #0 ('x') needs loop.role = "in" or "out", found '"inout"'

// -----

func.func @bare(%x: !loop.buf<f32>) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @bare: buffer argument #0 ('x') needs loop.role = "in" or "out", found none

// -----

// The kernel convert-df-to-loop used to emit for `df.range` -> output: nothing bounds the
// writes to %out (no input has axis i, and it is not a computed axis).
func.func @unbounded(%n: i64, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %e = arith.index_cast %n : i64 to index
  loop.for %i in [%c0, %e) {
    %v = arith.index_cast %i : index to i64
    loop.store %v, %out[%i] : !loop.buf<i64>
  }
  func.return
}
// CHECK: error: @unbounded: output #1 ('out') dimension 0 is on axis 'i' (loop.axes), which no input buffer has and which is not a computed axis (loop.extents): nothing would check the output's length before the kernel writes it

// -----

func.func @filter_axis(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "k", loop.count = 0 : i64}) -> index attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}
// CHECK: error: @filter_axis: output #1 ('out') dimension 0 is on axis 'k' (loop.capacity), which no input buffer has

// -----

// A count without a capacity: the output's own (filter) axis bounds nothing.
func.func @count_alone(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.count = 0 : i64}) -> index attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}
// CHECK: error: @count_alone: output #1 ('out') dimension 0 is on axis 'j' (loop.axes), which no input buffer has

// -----

func.func @count_type(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 0 : i64}) -> f32 attributes {loop.kernel} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}
// CHECK: error: @count_type: loop.count of output argument #1 ('out') = 0 names result #0 of type f32, expected index or i64

// -----

func.func @count_range(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["j"], loop.capacity = "i", loop.count = 3 : i64}) -> index attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}
// CHECK: error: @count_range: loop.count of output argument #1 ('out') = 3 is not a result of the kernel (it has 1)

// -----

func.func @written_input(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) attributes {loop.kernel} {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  loop.store %z, %x[%c0] : !loop.buf<f32>
  func.return
}
// CHECK: error: @written_input: input argument #0 ('x') (loop.role = "in") is written by the kernel

// -----

func.func @typo(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"], loop.capcity = "i"}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @typo: argument #0 ('x') has unknown ABI attribute 'loop.capcity'

// -----

func.func @field(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64, loop.field = "a */ b"}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @field: field name of argument #1 ('out') 'a */ b' is not allowed in generated C: not a valid C identifier

// -----

func.func @scalar_role(%a: f32 {loop.role = "in"}) attributes {loop.kernel} {
  func.return
}
// CHECK: error: @scalar_role: argument #0 ('a') is a scalar but carries the buffer attribute loop.role

// -----

func.func @extent_type(%n: i64, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.extents = {i = 0 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}
// CHECK: error: @extent_type: loop.extents[i] = 0 names result #0 of type f32, expected index or i64

// -----

func.func @extent_name(%n: i64, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}) -> index attributes {loop.kernel, loop.extents = {"i%d" = 0 : i64}} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}
// CHECK: error: @extent_name: computed axis name in loop.extents 'i%d' is not allowed in generated C

// -----

func.func @steps(%n: i64, %out: !loop.buf<i64> {loop.role = "out", loop.axes = ["i"]}) -> index attributes {loop.kernel, loop.extents = {i = 0 : i64}, loop.steps = {j = 0 : i64}} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}
// CHECK: error: @steps: loop.steps names axis 'j', which is not a computed axis of loop.extents
