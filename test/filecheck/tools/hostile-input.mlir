// Hostile input is one located `file:line:col: error:` line and exit status 1: no traceback,
// no internal exception text, no hang.
// RUN: not loop-opt %S/Inputs/undefined-value.mlir 2>&1 | filecheck %s --check-prefix=UNDEF
// RUN: not loop-opt %S/Inputs/use-before-def.mlir 2>&1 | filecheck %s --check-prefix=ORDER
// RUN: not loop-opt %S/Inputs/overflow-literal.mlir 2>&1 | filecheck %s --check-prefix=OVERFLOW
// RUN: %python -c "import sys; sys.stdout.buffer.write(b'func.func @f() {\n  func.return\n}\n// \xff\xfe\n')" > %t.bytes.mlir
// RUN: not loop-opt %t.bytes.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: %python -c "print('func.func @f() {\n' + '\"test.op\"() ({\n' * 5000 + '}) : () -> ()\n' * 5000 + 'func.return\n}')" > %t.deep.mlir
// RUN: not loop-opt --allow-unregistered-dialect %t.deep.mlir 2>&1 | filecheck %s --check-prefix=DEEP
// RUN: %python -c "print('func.func @f() {\n  \"test.op\"() {a = \"' + 'a' * 10000 + '} : () -> ()\n}')" > %t.string.mlir
// RUN: not loop-opt --allow-unregistered-dialect %t.string.mlir 2>&1 | filecheck %s --check-prefix=STRING
// RUN: not loop-run %S/Inputs/use-before-def.mlir -t scalar --no-time 2>&1 | filecheck %s --check-prefix=ORDER
// RUN: not loop-run %t.bytes.mlir -t scalar --no-time 2>&1 | filecheck %s --check-prefix=UTF8

// It used to print the error at the end of the file, the message twice.
// UNDEF:      undefined-value.mlir:4:25: error: use of undefined value %q
// UNDEF-NEXT:     %m = arith.mulf %e, %q : f32
// UNDEF-NOT:  Traceback

// It used to be accepted and lowered to C that reads %q before it is set.
// ORDER:     use-before-def.mlir:4:5: error: 'arith.mulf' uses %q before its definition
// ORDER-NOT: Traceback

// OVERFLOW:     overflow-literal.mlir:2:3: error: Integer value 99999999999999999999 is out of range for type i32
// OVERFLOW-NOT: Traceback

// UTF8:     bytes.mlir:4:4: error: the input is not UTF-8 text (byte 0xff here)
// UTF8-NOT: Traceback

// DEEP:     deep.mlir:65:14: error: regions are nested more than 64 deep
// DEEP-NOT: maximum recursion depth

// xDSL's string regex backtracks exponentially here (28 letters took ~10 s).
// STRING:     string.mlir:2:20: error: End of file reached before closing string literal.
// STRING-NOT: Traceback
