// RUN: loop-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not loop-opt %s --split-input-file -t c 2>&1 | filecheck %s --check-prefix=LOC

// `loop.split_halves` on a loop the AVX-512 printer cannot split into 256-bit halves is a
// verifier error (dialects/split_halves.py, the one test the lowering's marking, the verifier
// and the printer share): never C printed whole behind the marking's back. Hand-written IR;
// the lowering marks folds of contiguous loads and that arithmetic (split_folds.mlir).

func.func @div(%x: !loop.buf<f32>, %lo: index, %hi: index, %z: vector<16xf32>) -> vector<16xf32> {
  %c16 = arith.constant 16 : index
  %s = loop.for %i in range(%lo, %hi, %c16) accs(%acc = %z : vector<16xf32> add reassoc) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f32> -> vector<16xf32>
    %m = arith.divf %e, %e : vector<16xf32>
    %t = arith.addf %acc, %m : vector<16xf32>
    loop.yield %t : vector<16xf32>
  }
  func.return %s : vector<16xf32>
}
// CHECK: loop.split_halves loop cannot be split into halves: 'arith.divf' (lane-wise arith.addf, arith.addi, arith.subf, arith.subi, arith.mulf, arith.muli, math.fma, simd.fma, simd.max, simd.min, simd.load, simd.store, constants only)
// LOC: split_halves_invalid.mlir:11:3: error: loop.split_halves loop cannot be split into halves: 'arith.divf'
// LOC-NOT: Traceback

// -----

func.func @mask(%x: !loop.buf<f32>, %lo: index, %hi: index, %z: vector<16xf32>) -> vector<16xf32> {
  %c16 = arith.constant 16 : index
  %s = loop.for %i in range(%lo, %hi, %c16) accs(%acc = %z : vector<16xf32> add reassoc) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f32> -> vector<16xf32>
    %p = arith.cmpf ogt, %e, %z : vector<16xf32>
    %t = arith.addf %acc, %e : vector<16xf32>
    loop.yield %t : vector<16xf32>
  }
  func.return %s : vector<16xf32>
}
// CHECK: loop.split_halves loop cannot be split into halves: 'arith.cmpf'

// -----

func.func @lanes(%x: !loop.buf<f64>, %lo: index, %hi: index, %z: vector<16xf32>) -> vector<16xf32> {
  %c16 = arith.constant 16 : index
  %s = loop.for %i in range(%lo, %hi, %c16) accs(%acc = %z : vector<16xf32> add reassoc) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f64> -> vector<8xf64>
    loop.yield %acc : vector<16xf32>
  }
  func.return %s : vector<16xf32>
}
// CHECK: loop.split_halves loop cannot be split into halves: 'simd.load' on vector<8xf64> next to accumulators of 16 lanes

// -----

func.func @scalar(%x: !loop.buf<f32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.for %i in [%c0, %n) accs(%acc = %z : f32 add reassoc) attributes {loop.split_halves} {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK: loop.split_halves loop cannot be split into halves: a scalar accumulator (f32)

// -----

func.func @avx2_width(%x: !loop.buf<f32>, %lo: index, %hi: index, %z: vector<8xf32>) -> vector<8xf32> {
  %c8 = arith.constant 8 : index
  %s = loop.for %i in range(%lo, %hi, %c8) accs(%acc = %z : vector<8xf32> add reassoc) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<f32> -> vector<8xf32>
    %t = arith.addf %acc, %e : vector<8xf32>
    loop.yield %t : vector<8xf32>
  }
  func.return %s : vector<8xf32>
}
// CHECK: loop.split_halves loop cannot be split into halves: an accumulator of a vector<8xf32> (not 512 bits)

// -----

func.func @bytes(%x: !loop.buf<i8>, %lo: index, %hi: index, %z: vector<64xi8>) -> vector<64xi8> {
  %c64 = arith.constant 64 : index
  %s = loop.for %i in range(%lo, %hi, %c64) accs(%acc = %z : vector<64xi8> add) attributes {loop.split_halves} {
    %e = simd.load %x[%i] : !loop.buf<i8> -> vector<64xi8>
    %t = arith.addi %acc, %e : vector<64xi8>
    loop.yield %t : vector<64xi8>
  }
  func.return %s : vector<64xi8>
}
// CHECK: loop.split_halves loop cannot be split into halves: an accumulator of a vector<64xi8> (split rows exist for f32, f64, i32, i64)

// -----

func.func @vecloop(%x: !loop.buf<f32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(masked) accs(%acc = %z : f32 add reassoc) attributes {loop.split_halves} {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}
// CHECK: loop.split_halves on a loop.vecloop: only a loop.for splits into halves
