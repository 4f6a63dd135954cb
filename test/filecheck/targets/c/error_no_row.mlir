// RUN: not loop-opt %s -t c 2>&1 | filecheck %s

// An operation the ISA has no row for (no vector tan on x86: not a vector math function).
builtin.module attributes {loop.target = "avx2"} {
  func.func @vtan(%a: vector<8xf32>) -> vector<8xf32> {
    %q = math.tan %a : vector<8xf32>
    func.return %q : vector<8xf32>
  }
}
// CHECK: error_no_row.mlir:6:5: error: math.tan (tan) on vector<8xf32> has no avx2 row: the avx2 target cannot print it
