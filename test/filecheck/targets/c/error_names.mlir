// RUN: loop-opt %s -t c --split-input-file --verify-diagnostics | filecheck %s
// RUN: not loop-opt %s -t c --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT

// A function symbol reaches C as written: anything but a plain, unreserved C identifier is
// a located error (loopopt.names), never printed. The first one would otherwise define a
// constructor that runs when the .so is loaded.

func.func private @"h(void){} __attribute__((constructor)) static void g"(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error_names.mlir:8:1: error: function name 'h(void){} __attribute__((constructor)) static void g' is not allowed in generated C: not a valid C identifier
// EXIT: error_names.mlir:8:1: error: function name 'h(void){}
// EXIT-NOT: #include

// -----

func.func @int(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error_names.mlir:17:1: error: function name 'int' is not allowed in generated C: a C keyword

// -----

func.func @malloc(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error_names.mlir:24:1: error: function name 'malloc' is not allowed in generated C: a name the C library or the generated code's headers define

// -----

func.func @sqrtf(%x: f32) -> f32 {
  func.return %x : f32
}
// CHECK: error: function name 'sqrtf' is not allowed in generated C: a name the C library

// -----

func.func @memcpy(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'memcpy' is not allowed in generated C: a name the C library

// -----

func.func @int64_t(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'int64_t' is not allowed in generated C: reserved: is a C, POSIX or NEON type name

// -----

func.func @_mm_add_ps(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name '_mm_add_ps' is not allowed in generated C: reserved: names starting with '_' are reserved

// -----

func.func @__x(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name '__x' is not allowed in generated C: reserved: names starting with '_'

// -----

func.func @vaddq_f32(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'vaddq_f32' is not allowed in generated C: reserved: is a NEON intrinsic name

// -----

func.func @lo_hreduce_add_f32x8(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'lo_hreduce_add_f32x8' is not allowed in generated C: reserved: the prefix 'lo_' is reserved for loopopt's generated helpers

// -----

func.func @INT64_MIN(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'INT64_MIN' is not allowed in generated C: reserved: is a <stdint.h> macro

// -----

func.func @main(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'main' is not allowed in generated C

// -----

func.func @PyInit_x(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'PyInit_x' is not allowed in generated C: reserved: is reserved for the CPython / numpy API

// -----

func.func @"a%n%s"(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'a%n%s' is not allowed in generated C: not a valid C identifier

// -----

func.func @k0123456789012345678901234567890123456789012345678901234567890123(%x: i64) -> i64 {
  func.return %x : i64
}
// CHECK: error: function name 'k0123456789012345678901234567890123456789012345678901234567890123' is not allowed in generated C: longer than 63 characters

// -----

// A declaration is never printed, but its name is checked all the same.
func.func private @"x; int y"(i64) -> i64
// CHECK: error_names.mlir:116:1: error: function name 'x; int y' is not allowed in generated C
