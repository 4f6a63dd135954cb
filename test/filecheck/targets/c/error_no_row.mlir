// RUN: not loop-opt %s -t c 2>&1 | filecheck %s

// An operation the ISA has no row for (no integer vector division on x86).
builtin.module attributes {loop.target = "avx2"} {
  func.func @idiv(%a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
    %q = arith.divsi %a, %b : vector<8xi32>
    func.return %q : vector<8xi32>
  }
}
// CHECK: error_no_row.mlir:6:5: error: arith.divsi (div) on vector<8xi32> has no avx2 row: the avx2 target cannot print it
