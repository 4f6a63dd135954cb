// RUN: not loop-opt %s -t c 2>&1 | filecheck %s

// A vector of another width than the ISA's registers (nor half of one: targets/c_part.py).
builtin.module attributes {loop.target = "avx2"} {
  func.func @narrow(%x: !loop.buf<f32>, %i: index) {
    %v = simd.load %x[%i] : !loop.buf<f32> -> vector<2xf32>
    simd.store %v, %x[%i] : vector<2xf32>, !loop.buf<f32>
    func.return
  }
}
// CHECK: error_non_native_vector.mlir:6:5: error: vector<2xf32> is not a native avx2 vector (avx2 vectors hold 8 f32 lanes)
