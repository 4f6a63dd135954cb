// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @buf_element(%b: !loop.buf<index>) {
  func.return
}
// CHECK: !loop.buf element type must be one of f16, bf16, f32, f64, i8, i16, i32, i64, i1, found index

// -----

func.func @buf_rank(%b: !loop.buf<f32, 3>) {
  func.return
}
// CHECK: !loop.buf rank must be 1 or 2, found 3

// -----

func.func @dim_range(%b: !loop.buf<f32, 2>) {
  %n = loop.dim %b, 2 : !loop.buf<f32, 2>
  func.return
}
// CHECK: dimension 2 out of range for a rank-2 buffer

// -----

func.func @call_dim_serial(%b: !loop.buf<f32>) {
  %n = loop.call_dim %b : !loop.buf<f32>
  func.return
}
// CHECK: loop.call_dim outside a kernel with a loop.parallel plan (its driver passes the length)

// -----

func.func @call_dim_rank(%m: !loop.buf<f32, 2>) attributes {loop.parallel = {}} {
  %n = loop.call_dim %m : !loop.buf<f32, 2>
  func.return
}
// CHECK: loop.call_dim of a buffer that is not rank 1

// -----

func.func @alloc_sizes(%n: index) {
  %t = loop.alloc(%n) : !loop.buf<f32, 2>
  func.return
}
// CHECK: loop.alloc of a rank-2 buffer expects 2 sizes, found 1

// -----

func.func @access_rank(%m: !loop.buf<f32, 2>, %i: index) {
  %x = loop.load %m[%i] : !loop.buf<f32, 2>
  func.return
}
// CHECK: access has 1 indices, buffer rank is 2

// -----

func.func @access_offsets(%b: !loop.buf<f32>, %i: index) {
  %x = "loop.load"(%b, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1>, offsets = array<i64: 0, 0>}> : (!loop.buf<f32>, index) -> f32
  func.return
}
// CHECK: access has 2 offsets, expected 1 (one per dimension)

// -----

func.func @access_terms(%b: !loop.buf<f32>, %i: index) {
  %x = "loop.load"(%b, %i, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1, 1>, offsets = array<i64: 0>}> : (!loop.buf<f32>, index, index) -> f32
  func.return
}
// CHECK: dim_terms [1] must sum to the 2 index operands

// -----

func.func @access_coeffs(%b: !loop.buf<f32>, %i: index) {
  %x = "loop.load"(%b, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1, 2>, offsets = array<i64: 0>}> : (!loop.buf<f32>, index) -> f32
  func.return
}
// CHECK: access has 2 coefficients, expected 1 (one per index operand)

// -----

func.func @access_index_type(%b: !loop.buf<f32>, %i: i64) {
  %x = "loop.load"(%b, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1>, offsets = array<i64: 0>}> : (!loop.buf<f32>, i64) -> f32
  func.return
}
// CHECK: operand 'indices' at position 1 does not verify:
// CHECK-NEXT: Expected attribute index but got i64

// -----

func.func @load_type(%b: !loop.buf<f32>, %i: index) {
  %x = "loop.load"(%b, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1>, offsets = array<i64: 0>}> : (!loop.buf<f32>, index) -> f64
  func.return
}
// CHECK: loaded type f64 != buffer element type f32

// -----

func.func @store_type(%b: !loop.buf<f32>, %i: index, %v: i32) {
  "loop.store"(%v, %b, %i) <{dim_terms = array<i64: 1>, coeffs = array<i64: 1>, offsets = array<i64: 0>}> : (i32, !loop.buf<f32>, index) -> ()
  func.return
}
// CHECK: stored type i32 != buffer element type f32

// -----

func.func @range_operands(%n: index) {
  "loop.for"(%n, %n, %n) <{range_kind = #loop.range_kind<interval>, accs = [], operandSegmentSizes = array<i32: 3, 0>}> ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}
// CHECK: interval range expects 2 bound operands, found 3

// -----

func.func @acc_kinds(%n: index, %init: f32) {
  %s = "loop.for"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index, %a: f32):
    "loop.yield"(%a) : (f32) -> ()
  }) : (index, index, f32) -> f32
  func.return
}
// CHECK: expected 1 accumulator kinds (one per init), found 0

// -----

func.func @block_args(%n: index, %init: f32) {
  %s = "loop.for"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [#loop.acc<add>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index):
    "loop.yield"(%init) : (f32) -> ()
  }) : (index, index, f32) -> f32
  func.return
}
// CHECK: body block expects 2 arguments (1 leading + 1 accumulators), found 1

// -----

func.func @var_type(%n: index) {
  "loop.for"(%n, %n) <{range_kind = #loop.range_kind<interval>, accs = [], operandSegmentSizes = array<i32: 2, 0>}> ({
  ^bb0(%i: i64):
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  func.return
}
// CHECK: loop variable must be index, found i64

// -----

func.func @acc_arg_type(%n: index, %init: f32) {
  %s = "loop.for"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [#loop.acc<add>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index, %a: f64):
    "loop.yield"(%init) : (f32) -> ()
  }) : (index, index, f32) -> f32
  func.return
}
// CHECK: body block argument #1 has type f64, expected f32

// -----

func.func @acc_kind_type(%n: index, %init: f32) {
  %s = loop.for %i in [%n, %n) accs(%a = %init : f32 and) {
    loop.yield %a : f32
  }
  func.return
}
// CHECK: accumulator #0 of kind and needs an integer type, found f32

// -----

func.func @acc_kind_umax_float(%n: index, %init: f64) {
  %s = loop.for %i in [%n, %n) accs(%a = %init : f64 umax) {
    loop.yield %a : f64
  }
  func.return
}
// CHECK: accumulator #0 of kind umax needs an integer type, found f64

// -----

func.func @results(%n: index, %init: f32) {
  %s = "loop.for"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [#loop.acc<add>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index, %a: f32):
    "loop.yield"(%a) : (f32) -> ()
  }) : (index, index, f32) -> f64
  func.return
}
// CHECK: expected results (f32) (one per accumulator), found (f64)

// -----

func.func @predloop_results(%n: index, %init: f32) {
  %s = "loop.predloop"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [#loop.acc<add>], width = #loop.width<1>, tail = #loop.tail<scalar>, mask_form = #loop.mask_form<unset>, operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index):
    %t = arith.constant true
    "loop.yield"(%t) : (i1) -> ()
  }, {
  ^bb0(%i: index, %a: f32):
    "loop.yield"(%a) : (f32) -> ()
  }) : (index, index, f32) -> f32
  func.return
}
// CHECK: expected results (index, f32) (1 leading + one per accumulator), found (f32)

// -----

func.func @yield_values(%n: index, %init: f32) {
  %s = "loop.for"(%n, %n, %init) <{range_kind = #loop.range_kind<interval>, accs = [#loop.acc<add>], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%i: index, %a: f32):
    "loop.yield"() : () -> ()
  }) : (index, index, f32) -> f32
  func.return
}
// CHECK: loop.yield must give the 1 accumulators' next values (f32), found ()

// -----

func.func @yield_parent() {
  "test.op"() ({
    loop.yield
  }) : () -> ()
  func.return
}
// CHECK: 'loop.yield' expects parent op to be one of 'loop.for', 'loop.vecloop', 'loop.predloop', 'loop.zip'

// -----

func.func @width_positive(%n: index) {
  loop.vecloop %i in [%n, %n) width(0) tail(scalar) {
  }
  func.return
}
// CHECK: vector width must be positive, found 0

// -----

func.func @custom_width(%n: index, %init: f32) {
  %s = loop.vecloop %i in [%n, %n) width(W) tail(scalar) accs(%a = %init : f32 custom) {
    loop.yield %a : f32
  }
  func.return
}
// CHECK: accumulator #0 of kind custom cannot be split across lanes: needs width 1, found W

// -----

func.func @mask_form_on_vecloop(%n: index) {
  "loop.vecloop"(%n, %n) <{range_kind = #loop.range_kind<interval>, accs = [], width = #loop.width<8>, tail = #loop.tail<scalar>, mask_form = #loop.mask_form<avx512_mask>, operandSegmentSizes = array<i32: 2, 0>}> ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  func.return
}
// CHECK: property 'mask_form' is not defined by the operation 'loop.vecloop'

// -----

func.func @pred_args(%n: index) {
  %c = "loop.predloop"(%n, %n) <{range_kind = #loop.range_kind<interval>, accs = [], width = #loop.width<1>, tail = #loop.tail<scalar>, mask_form = #loop.mask_form<unset>, operandSegmentSizes = array<i32: 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %t = arith.constant true
    "loop.yield"(%t) : (i1) -> ()
  }, {
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> index
  func.return
}
// CHECK: pred region expects one index argument (the loop variable), found (index, index)

// -----

func.func @pred_yield(%n: index, %x: f32) {
  %c = loop.predloop %i in [%n, %n) width(8) tail(scalar) mask(unset) pred {
    loop.yield %x : f32
  } body {
  }
  func.return
}
// CHECK: pred region must yield one i1, found (f32)

// -----

func.func @zip_rank(%n: index, %m: !loop.buf<f32, 2>) {
  loop.zip %i in [%n, %n) streams(%x = %m : !loop.buf<f32, 2>) {
  }
  func.return
}
// CHECK: zip stream #0 must be a rank-1 buffer, found rank 2

// -----

func.func @zip_arg_type(%n: index, %b: !loop.buf<f32>) {
  "loop.zip"(%n, %n, %b) <{range_kind = #loop.range_kind<interval>, accs = [], operandSegmentSizes = array<i32: 2, 1, 0>}> ({
  ^bb0(%i: index, %x: f64):
    "loop.yield"() : () -> ()
  }) : (index, index, !loop.buf<f32>) -> ()
  func.return
}
// CHECK: body block argument #1 has type f64, expected f32

// -----

func.func @append_parent(%n: index, %o: !loop.buf<f32>, %v: f32) {
  loop.for %i in [%n, %n) {
    loop.append %v, %o : !loop.buf<f32>
  }
  func.return
}
// CHECK: 'loop.append' expects parent op 'loop.predloop'

// -----

func.func @append_in_pred(%n: index, %o: !loop.buf<f32>, %v: f32) {
  %c = loop.predloop %i in [%n, %n) width(1) tail(scalar) mask(unset) pred {
    loop.append %v, %o : !loop.buf<f32>
    %t = arith.constant true
    loop.yield %t : i1
  } body {
  }
  func.return
}
// CHECK: loop.append must be in a loop.predloop's body region, found it in the pred region

// -----

func.func @append_type(%n: index, %o: !loop.buf<f32>, %v: f64) {
  %c = loop.predloop %i in [%n, %n) width(1) tail(scalar) mask(unset) pred {
    %t = arith.constant true
    loop.yield %t : i1
  } body {
    "loop.append"(%v, %o) : (f64, !loop.buf<f32>) -> ()
  }
  func.return
}
// CHECK: appended type f64 != buffer element type f32

// -----

func.func @append_rank(%n: index, %o: !loop.buf<f32, 2>, %v: f32) {
  %c = loop.predloop %i in [%n, %n) width(1) tail(scalar) mask(unset) pred {
    %t = arith.constant true
    loop.yield %t : i1
  } body {
    loop.append %v, %o : !loop.buf<f32, 2>
  }
  func.return
}
// CHECK: loop.append output must be a rank-1 buffer, found rank 2
