// RUN: not loop-opt %s 2>&1 | filecheck %s --check-prefix=VERIFY
// RUN: not loop-opt %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not loop-opt %s -t no-such-target 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not loop-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE

// A verifier failure names the op's line and column, and no traceback is printed.
func.func @f() {
  %0 = arith.constant 1 : i32
  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i64
  func.return
}

// VERIFY: errors.mlir:9:3: error: result 'result' at position 0 does not verify
// VERIFY-NOT: Traceback
// PASS: errors.mlir: error: unknown pass 'no-such-pass' (loop-opt --help lists the passes)
// PASS-NOT: Traceback
// TARGET: error: argument -t/--target: invalid choice: 'no-such-target'
// PARSE: malformed.mlir:1:15: error: Expected argument or type
// PARSE-NOT: Traceback
