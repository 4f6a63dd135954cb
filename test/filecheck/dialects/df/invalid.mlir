// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @array_element(%x: !df.array<index, [i]>) {
  func.return
}
// CHECK: df.array element type must be f16, bf16, f32, f64, i1, i8, i16, i32, i64 or a !df.record, found index

// -----

func.func @array_rank(%x: !df.array<f32, [i, j, k, l]>) {
  func.return
}
// CHECK: df.array rank must be 1, 2 or 3, found 4 axes

// -----

func.func @array_axes(%x: !df.array<f32, [i, i]>) {
  func.return
}
// CHECK: df.array axes must be distinct, found [i, i]

// -----

func.func @record_field_type(%x: !df.array<!df.record<x: index>, [i]>) {
  func.return
}
// CHECK: record field 'x' has type index, expected f32, f64, i1, i8, i16, i32 or i64

// -----

func.func @record_duplicate(%x: !df.array<!df.record<x: f32, x: f32>, [i]>) {
  func.return
}
// CHECK: record field 'x' appears twice

// -----

func.func @constant_type() {
  %c = "df.constant"() <{value = 1.0 : f32}> : () -> f64
  func.return
}
// CHECK: df.constant result type f64 differs from value type f32

// -----

func.func @constant_scalar() {
  %c = df.constant 1 : index
  func.return
}
// CHECK: df.constant type must be f32, f64, i1, i8, i16, i32 or i64, found index

// -----

func.func @range_result(%a: i64) {
  %r = df.range %a, %a, %a : !df.array<i32, [i]>
  func.return
}
// CHECK: df.range result must be a rank-1 i64 array, found !df.array<i32, [i]>

// -----

func.func @random_bool(%n: i64) {
  %r = df.random %n : !df.array<i1, [i]>
  func.return
}
// CHECK: df.random result must be a rank-1 array of f32, f64, i32 or i64, found !df.array<i1, [i]>

// -----

func.func @map_domain(%x: !df.array<f32, [i]>, %y: !df.array<f32, [j]>) {
  %m = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [j]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.map input 1 has axes [j], expected axes of the domain [i]

// -----

// Every axis of the domain (the results' axes) needs an input that gives its length.
func.func @map_broadcast_unknown_axis(%v: !df.array<f32, [j]>) {
  %r = df.map %v : !df.array<f32, [j]> -> !df.array<f32, [i, j]> {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.map domain axis 'i' is on no input (its length is unknown)


// -----

// A reduce without a map prologue reads each input at every point of its domain: no broadcast.
func.func @reduce_broadcast_without_map(%m: !df.array<f32, [i, j]>, %v: !df.array<f32, [j]>) {
  %z = arith.constant 0.0 : f32
  %s, %t = df.reduce add(%m, %z), add(%v, %z) over [j] reassoc : !df.array<f32, [i, j]>, !df.array<f32, [j]> -> !df.array<f32, [i]>, f32
  func.return
}
// CHECK: df.reduce inputs must share one domain: input 1 has axes [j], expected [i, j]

// -----

func.func @map_no_input() {
  %m = "df.map"() ({
    %c = arith.constant 1.0 : f32
    df.yield %c : f32
  }) : () -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.map needs at least one input array, found none

// -----

func.func @map_result_axes(%x: !df.array<f32, [i]>) {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [j]> {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.map input 0 has axes [i], expected axes of the domain [j]

// -----

func.func @map_body_args(%x: !df.array<f32, [i]>) {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f64):
    %t = arith.truncf %a : f64 to f32
    df.yield %t : f32
  }
  func.return
}
// CHECK: df.map body arguments have types (f64), expected (f32)

// -----

func.func @map_yield(%x: !df.array<f32, [i]>) {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f64, [i]> {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.map body yields (f32), expected (f64)

// -----

func.func @map_terminator(%x: !df.array<f32, [i]>) {
  %m = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32):
    %b = arith.addf %a, %a : f32
  }
  func.return
}
// CHECK: df.map body must end in df.yield, found arith.addf

// -----

func.func @filter_rank(%x: !df.array<f32, [i, j]>) {
  %k = df.filter %x : !df.array<f32, [i, j]> -> !df.array<f32, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter inputs must be rank 1, found axes [i, j]

// -----

func.func @filter_results(%x: !df.array<f32, [i]>) {
  %k, %l = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]>, !df.array<f32, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter has 1 inputs, expected as many results, found 2

// -----

func.func @filter_same_axis(%x: !df.array<f32, [i]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter result must be on one new axis, found [i] for input axes [i]

// -----

func.func @filter_element(%x: !df.array<f32, [i]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f64, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter result 0 has element type f64, expected the input's f32

// -----

func.func @filter_pred(%x: !df.array<f32, [i]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.filter body yields (f32), expected (i1)

// -----

func.func @filter_no_result(%x: !df.array<f32, [i]>) {
  "df.filter"(%x) ({
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }, {
  }) : (!df.array<f32, [i]>) -> ()
  func.return
}
// CHECK: df.filter needs at least one result, found none

// -----

func.func @filter_map_yield(%x: !df.array<f32, [i]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f64, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  } map {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.filter map body yields (f32), expected (f64)

// -----

func.func @filter_axis_of_argument(%x: !df.array<f32, [i]>, %y: !df.array<f32, [k]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter new axis 'k' is already an axis of a kernel argument

// -----

func.func @filter_axis_twice(%x: !df.array<f32, [i]>) {
  %k = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  %l = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%a: f32):
    %t = arith.constant false
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.filter new axis 'k' is also produced by another df.filter

// -----

func.func @select_cond(%c: !df.array<f32, [i]>, %x: !df.array<f32, [i]>) {
  %s = df.select %c, %x, %x : !df.array<f32, [i]>, !df.array<f32, [i]>
  func.return
}
// CHECK: df.select condition must be i1 or an i1 array, found !df.array<f32, [i]>

// -----

func.func @select_axes(%c: !df.array<i1, [j]>, %x: !df.array<f32, [i]>) {
  %s = df.select %c, %x, %x : !df.array<i1, [j]>, !df.array<f32, [i]>
  func.return
}
// CHECK: df.select condition has axes [j], expected the operands' axes [i]

// -----

func.func @reduce_counts(%x: !df.array<f32, [i]>, %z: f32) {
  %s = "df.reduce"(%x, %z, %z) <{kinds = [#df.kind<add>], over_axes = ["i"], operandSegmentSizes = array<i32: 1, 2>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>, f32, f32) -> f32
  func.return
}
// CHECK: df.reduce has 1 kinds, expected as many inits and results, found 2 inits, 1 results

// -----

func.func @reduce_over(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce add(%x, %z) over [j] : !df.array<f32, [i]> -> f32
  func.return
}
// CHECK: df.reduce over_axes [j] must be distinct axes of the input axes [i]

// -----

func.func @reduce_result(%x: !df.array<f32, [i, j]>, %z: f32) {
  %s = df.reduce add(%x, %z) over [j] : !df.array<f32, [i, j]> -> f32
  func.return
}
// CHECK: df.reduce result 0 has type f32, expected !df.array<f32, [i]>

// -----

func.func @reduce_init(%x: !df.array<f32, [i]>, %z: f64) {
  %s = "df.reduce"(%x, %z) <{kinds = [#df.kind<add>], over_axes = ["i"], operandSegmentSizes = array<i32: 1, 1>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>, f64) -> f32
  func.return
}
// CHECK: df.reduce init 0 has type f64, expected the element type f32

// -----

func.func @reduce_kind(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce or(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return
}
// CHECK: df.reduce kind or (triple 0) needs an integer or i1 element type, found f32

// -----

func.func @reduce_umax_float(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce umax(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return
}
// CHECK: df.reduce kind umax (triple 0) needs an integer or i1 element type, found f32

// -----

func.func @scan_umin_float(%x: !df.array<f64, [i]>, %z: f64) {
  %s = df.scan umin(%x, %z) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return
}
// CHECK: df.scan kind umin (triple 0) needs an integer or i1 element type, found f64

// -----

func.func @reduce_add_bool(%x: !df.array<i1, [i]>, %z: i1) {
  %s = df.reduce add(%x, %z) over [i] : !df.array<i1, [i]> -> i1
  func.return
}
// CHECK: df.reduce kind add (triple 0) needs a float or i32/i64 element type, found i1

// -----

func.func @reduce_custom_no_body(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce custom(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return
}
// CHECK: df.reduce with a custom kind needs a body, found none

// -----

func.func @reduce_body_not_custom(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32 {
  ^bb0(%a: f32, %e: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.reduce has a body but no custom kind

// -----

func.func @reduce_custom_signature(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce custom(%x, %z) over [i] : !df.array<f32, [i]> -> f32 {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.reduce body arguments have types (f32), expected (f32, f32)

// -----

func.func @reduce_no_triple(%x: !df.array<f32, [i]>) {
  "df.reduce"(%x) <{kinds = [], over_axes = ["i"], operandSegmentSizes = array<i32: 1, 0>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>) -> ()
  func.return
}
// CHECK: df.reduce needs at least one (kind, value, init) triple, found none

// -----

func.func @reduce_no_input(%z: f32) {
  %s = "df.reduce"(%z) <{kinds = [#df.kind<add>], over_axes = ["i"], operandSegmentSizes = array<i32: 0, 1>}> ({
  }, {
  }, {
  }) : (f32) -> f32
  func.return
}
// CHECK: df.reduce needs at least one input array, found none

// -----

func.func @reduce_inputs_per_kind(%x: !df.array<f32, [i]>, %z: f32) {
  %s = "df.reduce"(%x, %x, %z) <{kinds = [#df.kind<add>], over_axes = ["i"], operandSegmentSizes = array<i32: 2, 1>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>, !df.array<f32, [i]>, f32) -> f32
  func.return
}
// CHECK: df.reduce without a map region reduces one input per kind, expected 1 inputs, found 2

// -----

func.func @reduce_map_yield(%x: !df.array<i32, [i]>, %z: i64) {
  %s = df.reduce(%x) add(%z) over [i] : !df.array<i32, [i]> -> i64 map {
  ^bb0(%a: i32):
    df.yield %a : i32
  }
  func.return
}
// CHECK: df.reduce map body yields (i32), expected (i64)

// -----

func.func @reduce_map_blocks(%x: !df.array<i32, [i]>, %z: i32) {
  %s = "df.reduce"(%x, %z) <{kinds = [#df.kind<add>], over_axes = ["i"], operandSegmentSizes = array<i32: 1, 1>}> ({
  }, {
  ^bb0(%a: i32):
    "test.termop"() [^bb1] : () -> ()
  ^bb1:
    df.yield %a : i32
  }, {
  }) : (!df.array<i32, [i]>, i32) -> i32
  func.return
}
// CHECK: df.reduce map body must have one block, found 2

// -----

func.func @reduce_where_rank(%m: !df.array<f32, [i, j]>, %z: f32) {
  %s = df.reduce add(%m, %z) over [j] : !df.array<f32, [i, j]> -> !df.array<f32, [i]> where {
  ^bb0(%a: f32):
    %t = arith.constant true
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.reduce where needs rank-1 inputs (a filtered domain), found axes [i, j]

// -----

func.func @reduce_where_yield(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32 where {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.reduce where body yields (f32), expected (i1)

// -----

func.func @fold_types(%x: !df.array<f32, [i]>, %z: f32) {
  %s = "df.fold"(%x, %z) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: f32, %e: f32):
    df.yield %a : f32
  }) : (!df.array<f32, [i]>, f32) -> f64
  func.return
}
// CHECK: df.fold result types (f64) must equal its init types (f32)

// -----

func.func @fold_array_acc(%x: !df.array<f32, [i]>) {
  %s = df.fold(%x) init(%x) : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: !df.array<f32, [i]>, %e: f32):
    df.yield %a : !df.array<f32, [i]>
  }
  func.return
}
// CHECK: df.fold accumulators must be scalars or records, found !df.array<f32, [i]>

// -----

func.func @fold_body(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
  ^bb0(%e: f32, %a: f32):
    %t = arith.cmpf olt, %e, %a : f32
    df.yield %t : i1
  }
  func.return
}
// CHECK: df.fold body yields (i1), expected (f32)

// -----

func.func @scan_rank(%x: !df.array<f32, [i, j]>, %z: f32) {
  %s = df.scan add(%x, %z) : !df.array<f32, [i, j]> -> !df.array<f32, [i, j]>
  func.return
}
// CHECK: df.scan input must be rank 1, found axes [i, j]

// -----

func.func @scan_result(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.scan add(%x, %z) : !df.array<f32, [i]> -> !df.array<f32, [j]>
  func.return
}
// CHECK: df.scan result has type !df.array<f32, [j]>, expected !df.array<f32, [i]>

// -----

func.func @scan_init(%x: !df.array<f32, [i]>, %z: i32) {
  %s = "df.scan"(%x, %z) <{kind = #df.kind<add>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>, i32) -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.scan init has type i32, expected the element type f32

// -----

func.func @scan_kind(%x: !df.array<f64, [i]>, %z: f64) {
  %s = df.scan and(%x, %z) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return
}
// CHECK: df.scan kind and (triple 0) needs an integer or i1 element type, found f64

// -----

func.func @scan_custom_no_body(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.scan custom(%x, %z) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.scan with kind custom needs a body, found none

// -----

func.func @scan_body_not_custom(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.scan max(%x, %z) : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %e: f32):
    df.yield %a : f32
  }
  func.return
}
// CHECK: df.scan has a body but kind max, expected custom

// -----

func.func @scan_no_input(%z: f32) {
  %s = "df.scan"(%z) <{kind = #df.kind<add>}> ({
  }, {
  }, {
  }) : (f32) -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.scan needs at least one input array, found none

// -----

func.func @scan_inputs(%x: !df.array<f32, [i]>, %z: f32) {
  %s = "df.scan"(%x, %x, %z) <{kind = #df.kind<add>}> ({
  }, {
  }, {
  }) : (!df.array<f32, [i]>, !df.array<f32, [i]>, f32) -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.scan without a map region scans one input, found 2

// -----

func.func @scan_map_args(%x: !df.array<f32, [i]>, %z: f32) {
  %s = df.scan(%x) add(%z) : !df.array<f32, [i]> -> !df.array<f32, [i]> map {
  ^bb0(%a: f64):
    %t = arith.truncf %a : f64 to f32
    df.yield %t : f32
  }
  func.return
}
// CHECK: df.scan map body arguments have types (f64), expected (f32)

// -----

func.func @make_tuple(%a: f32, %b: i64) {
  %t = df.make_tuple %a, %b : f32, i64 -> tuple<i64, f32>
  func.return
}
// CHECK: df.make_tuple result has type tuple<i64, f32>, expected tuple<f32, i64>

// -----

func.func @get_range(%t: tuple<f32, i64>) {
  %a = df.get %t[2] : tuple<f32, i64> -> f32
  func.return
}
// CHECK: df.get index 2 out of range for tuple<f32, i64> (2 elements)

// -----

func.func @get_type(%t: tuple<f32, i64>) {
  %a = df.get %t[1] : tuple<f32, i64> -> f32
  func.return
}
// CHECK: df.get result has type f32, expected element 1's type i64

// -----

func.func @make_records_result(%x: !df.array<f32, [i]>) {
  %r = df.make_records %x : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.make_records result must hold records, found !df.array<f32, [i]>

// -----

func.func @make_records_count(%x: !df.array<f32, [i]>) {
  %r = df.make_records %x : !df.array<f32, [i]> -> !df.array<!df.record<x: f32, y: f32>, [i]>
  func.return
}
// CHECK: df.make_records got 1 fields, expected 2 for !df.record<x: f32, y: f32>

// -----

func.func @make_records_field(%x: !df.array<f32, [i]>, %y: !df.array<f64, [i]>) {
  %r = df.make_records %x, %y : !df.array<f32, [i]>, !df.array<f64, [i]> -> !df.array<!df.record<x: f32, y: f32>, [i]>
  func.return
}
// CHECK: df.make_records field 'y' has type !df.array<f64, [i]>, expected !df.array<f32, [i]>

// -----

func.func @field_operand(%x: !df.array<f32, [i]>) {
  %f = df.field %x["x"] : !df.array<f32, [i]> -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.field operand must be a record or an array of records, found !df.array<f32, [i]>

// -----

func.func @field_name(%r: !df.array<!df.record<x: f32, y: f32>, [i]>) {
  %f = df.field %r["z"] : !df.array<!df.record<x: f32, y: f32>, [i]> -> !df.array<f32, [i]>
  func.return
}
// CHECK: df.field 'z' is not a field of !df.record<x: f32, y: f32> (fields: x, y)

// -----

func.func @field_result(%r: !df.record<x: f32, y: i64>) {
  %f = df.field %r["y"] : !df.record<x: f32, y: i64> -> f32
  func.return
}
// CHECK: df.field result has type f32, expected i64

// -----

func.func @decl_missing(%x: !df.array<f32, [i]>) {
  %m = df.decl_ref @nowhere(%x) : (!df.array<f32, [i]>) -> f32
  func.return
}
// CHECK: df.decl_ref: @nowhere is not a func.func in the symbol table

// -----

func.func @decl_args(%x: !df.array<f64, [i]>) {
  %m = df.decl_ref @sum(%x) : (!df.array<f64, [i]>) -> f32
  func.return
}
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = df.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
// CHECK: df.decl_ref @sum arguments have types (!df.array<f64, [i]>), expected (!df.array<f32, [i]>)

// -----

func.func @decl_results(%x: !df.array<f32, [i]>) {
  %m = df.decl_ref @sum(%x) : (!df.array<f32, [i]>) -> f64
  func.return
}
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = df.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
// CHECK: df.decl_ref @sum results have types (f64), expected (f32)

// -----

func.func @yield_parent(%a: f32) {
  df.yield %a : f32
}
// CHECK: 'df.yield' expects parent op to be one of 'df.map', 'df.filter', 'df.reduce', 'df.fold', 'df.scan'

// -----

func.func @reduce_storage_float(%x: !df.array<bf16, [i]>) -> bf16 {
  %z = arith.constant 0.0 : bf16
  %m = df.reduce max(%x, %z) over [i] : !df.array<bf16, [i]> -> bf16
  func.return %m : bf16
}
// CHECK: df.reduce kind max (triple 0) on bf16: bf16 is a storage type, reduce its values widened to f32 (arith.extf in a df.map)
