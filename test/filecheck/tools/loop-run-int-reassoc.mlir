// RUN: loop-run %s -t scalar --no-time -n 9 2>&1 | filecheck %s

// A `reassoc` integer sum is exact in any order: loop-run compares it exactly. Its float
// tolerance asked numpy for the integer's epsilon ("internal error: ValueError: data type
// <class 'numpy.int16'> not inexact"; found by the hostile-input fuzzer).

func.func @sum_i16(%x: !df.array<i16, [i]>) -> i16 {
  %c = arith.constant 63 : i16
  %s = df.reduce add(%x, %c) over [i] reassoc : !df.array<i16, [i]> -> i16
  func.return %s : i16
}

// CHECK:     sum_i16: matches the interpreter (n=9)
// CHECK-NOT: error
