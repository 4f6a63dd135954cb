// RUN: loop-opt %s -p loop-simplify --split-input-file | filecheck %s

// Constant folding gives the interpreter's integer semantics (docs/integer_semantics.md):
// divsi(MIN, -1) = MIN (wraps), remsi(MIN, -1) = 0, on every width.
// CHECK-LABEL: func.func @min_by_minus_one
// CHECK-NEXT:    %[[Q8:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    %[[R8:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[Q32:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[R32:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Q64:.*]] = arith.constant -9223372036854775808 : i64
// CHECK-NEXT:    %[[R64:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[QI:.*]] = arith.constant -9223372036854775808 : index
// CHECK-NEXT:    %[[RI:.*]] = arith.constant 0 : index
// CHECK-NEXT:    func.return %[[Q8]], %[[R8]], %[[Q32]], %[[R32]], %[[Q64]], %[[R64]], %[[QI]], %[[RI]]
func.func @min_by_minus_one() -> (i8, i8, i32, i32, i64, i64, index, index) {
  %min8 = arith.constant -128 : i8
  %m8 = arith.constant -1 : i8
  %q8 = arith.divsi %min8, %m8 : i8
  %r8 = arith.remsi %min8, %m8 : i8
  %min32 = arith.constant -2147483648 : i32
  %m32 = arith.constant -1 : i32
  %q32 = arith.divsi %min32, %m32 : i32
  %r32 = arith.remsi %min32, %m32 : i32
  %min64 = arith.constant -9223372036854775808 : i64
  %m64 = arith.constant -1 : i64
  %q64 = arith.divsi %min64, %m64 : i64
  %r64 = arith.remsi %min64, %m64 : i64
  %mini = arith.constant -9223372036854775808 : index
  %mi = arith.constant -1 : index
  %qi = arith.divsi %mini, %mi : index
  %ri = arith.remsi %mini, %mi : index
  func.return %q8, %r8, %q32, %r32, %q64, %r64, %qi, %ri : i8, i8, i32, i32, i64, i64, index, index
}

// -----

// MIN with other divisors: |MIN| overflows, so a sign-and-magnitude division gets these wrong.
// CHECK-LABEL: func.func @min_other_divisors
// CHECK-NEXT:    %[[A:.*]] = arith.constant -1073741824 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.constant -2 : i32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[D:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[E:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[F:.*]] = arith.constant -1073741824 : i32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]] : i32
func.func @min_other_divisors() -> (i32, i32, i32, i32, i32, i32) {
  %min = arith.constant -2147483648 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %a = arith.divsi %min, %two : i32
  %b = arith.remsi %min, %three : i32
  %c = arith.divsi %seven, %min : i32
  %d = arith.remsi %seven, %min : i32
  %e = arith.divsi %min, %min : i32
  %f = arith.floordivsi %min, %two : i32
  func.return %a, %b, %c, %d, %e, %f : i32, i32, i32, i32, i32, i32
}

// -----

// Division and remainder by zero fold to 0 (all six divisions), never an error.
// CHECK-LABEL: func.func @by_zero
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z1:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z3:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z4:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z5:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z6:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z7:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[Z]], %[[Z1]], %[[Z2]], %[[Z3]], %[[Z4]], %[[Z5]], %[[Z6]], %[[Z7]] : i32
func.func @by_zero() -> (i32, i32, i32, i32, i32, i32, i32, i32) {
  %min = arith.constant -2147483648 : i32
  %seven = arith.constant 7 : i32
  %z = arith.constant 0 : i32
  %a = arith.divsi %seven, %z : i32
  %b = arith.remsi %seven, %z : i32
  %c = arith.divsi %min, %z : i32
  %d = arith.remsi %min, %z : i32
  %e = arith.divui %seven, %z : i32
  %f = arith.remui %seven, %z : i32
  %g = arith.floordivsi %min, %z : i32
  %h = arith.ceildivsi %seven, %z : i32
  func.return %a, %b, %c, %d, %e, %f, %g, %h : i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// Truncating division, the remainder takes the dividend's sign; floor and ceil divisions.
// CHECK-LABEL: func.func @rounding
// CHECK-NEXT:    %[[Q:.*]] = arith.constant -3 : i64
// CHECK-NEXT:    %[[R:.*]] = arith.constant -1 : i64
// CHECK-NEXT:    %[[F:.*]] = arith.constant -4 : i64
// CHECK-NEXT:    %[[C:.*]] = arith.constant -3 : i64
// CHECK-NEXT:    %[[U:.*]] = arith.constant 9223372036854775804 : i64
// CHECK-NEXT:    func.return %[[Q]], %[[R]], %[[F]], %[[C]], %[[U]]
func.func @rounding() -> (i64, i64, i64, i64, i64) {
  %m7 = arith.constant -7 : i64
  %two = arith.constant 2 : i64
  %q = arith.divsi %m7, %two : i64
  %r = arith.remsi %m7, %two : i64
  %f = arith.floordivsi %m7, %two : i64
  %c = arith.ceildivsi %m7, %two : i64
  %m8 = arith.constant -8 : i64
  %u = arith.divui %m8, %two : i64
  func.return %q, %r, %f, %c, %u : i64, i64, i64, i64, i64
}

// -----

// Shifts by the width or more (the amount read unsigned): 0, or the sign fill for shrsi.
// CHECK-LABEL: func.func @shifts
// CHECK-NEXT:    %[[L:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[U:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[S:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[N:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[W:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    func.return %[[L]], %[[U]], %[[S]], %[[N]], %[[W]]
func.func @shifts() -> (i32, i32, i32, i32, i32) {
  %m5 = arith.constant -5 : i32
  %w = arith.constant 32 : i32
  %neg = arith.constant -1 : i32
  %l = arith.shli %m5, %w : i32
  %u = arith.shrui %m5, %w : i32
  %s = arith.shrsi %m5, %neg : i32
  %one = arith.constant 1 : i32
  %n = arith.shli %one, %neg : i32
  %k = arith.constant 31 : i32
  %x = arith.shli %one, %k : i32
  func.return %l, %u, %s, %n, %x : i32, i32, i32, i32, i32
}

// -----

// fptosi saturates and maps NaN to 0; i1 compares as -1 (signed) and 1 (unsigned).
// CHECK-LABEL: func.func @conversions_and_i1
// CHECK-NEXT:    %[[N:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[H:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:    %[[L:.*]] = arith.constant -128 : i8
// CHECK-NEXT:    %[[S:.*]] = arith.constant true
// CHECK-NEXT:    %[[U:.*]] = arith.constant false
// CHECK-NEXT:    func.return %[[N]], %[[H]], %[[L]], %[[S]], %[[U]]
func.func @conversions_and_i1() -> (i32, i32, i8, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %big = arith.constant 3.0e+10 : f64
  %low = arith.constant -1.0e+03 : f32
  %n = arith.fptosi %nan : f32 to i32
  %h = arith.fptosi %big : f64 to i32
  %l = arith.fptosi %low : f32 to i8
  %t = arith.constant true
  %f = arith.constant false
  %s = arith.cmpi slt, %t, %f : i1
  %u = arith.cmpi ult, %t, %f : i1
  func.return %n, %h, %l, %s, %u : i32, i32, i8, i1, i1
}

// -----

// Types the interpreter cannot hold exactly are left alone, never an error.
// CHECK-LABEL: func.func @odd_widths
// CHECK:         %[[R:.*]] = arith.addi %{{.*}}, %{{.*}} : i3
// CHECK:         %[[D:.*]] = arith.divsi %{{.*}}, %{{.*}} : i128
// CHECK-NEXT:    func.return %[[R]], %[[D]] : i3, i128
func.func @odd_widths() -> (i3, i128) {
  %a = arith.constant 3 : i3
  %b = arith.constant 2 : i3
  %r = arith.addi %a, %b : i3
  %c = arith.constant 3 : i128
  %z = arith.constant 0 : i128
  %d = arith.divsi %c, %z : i128
  func.return %r, %d : i3, i128
}

// -----

// fpowi by the most negative i64 exponent folds (2**-2**63 underflows to 0; 1**n = 1)
// instead of looping forever: |MIN| is 2**63 unsigned.
// CHECK-LABEL: func.func @fpowi_min_exponent
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %[[O:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    func.return %[[Z]], %[[O]] : f64, f64
func.func @fpowi_min_exponent() -> (f64, f64) {
  %two = arith.constant 2.0 : f64
  %one = arith.constant 1.0 : f64
  %n = arith.constant -9223372036854775808 : i64
  %a = math.fpowi %two, %n : f64, i64
  %b = math.fpowi %one, %n : f64, i64
  func.return %a, %b : f64, f64
}
