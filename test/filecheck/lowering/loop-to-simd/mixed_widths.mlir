// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx2 interleave=1}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=1}' | filecheck %s --check-prefix=AVX512
// RUN: not loop-opt %s -p 'convert-loop-to-simd{target=avx2 partial=false}' 2>&1 | filecheck %s --check-prefix=NOPART

// Mixed element widths: the widest type decides W (the 64-bit lanes per register) and the
// 32-bit values are vectors of W lanes too (they fill half a register in C: targets/c_part.py).
// An i64 count of f32 data: f32 loads, an f32 compare, an i64 select and accumulator.

func.func @count_positive(%x: !loop.buf<f32>) -> i64 {
  %c0 = arith.constant 0 : index
  %n = loop.dim %x, 0 : !loop.buf<f32>
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %z : i64 add) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %p = arith.cmpf ogt, %e, %zero : f32
    %v = arith.select %p, %one, %z : i64
    %t = arith.addi %acc, %v : i64
    loop.yield %t : i64
  }
  func.return %s : i64
}

// CHECK-LABEL: func.func @count_positive
// CHECK:         loop.for %{{.*}} in range
// CHECK:           %[[E:.*]] = simd.load %x[%{{.*}}] : !loop.buf<f32> -> vector<4xf32>
// CHECK-NEXT:      %[[P:.*]] = simd.cmp <ogt> %[[E]], %{{.*}} : vector<4xf32> -> vector<4xi1>
// CHECK-NEXT:      %[[V:.*]] = simd.select %[[P]], %{{.*}}, %{{.*}} : vector<4xi1>, vector<4xi64>
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[V]] : vector<4xi64>
// CHECK:         simd.hreduce <add> %{{.*}} : vector<4xi64> -> i64

// AVX512-LABEL: func.func @count_positive
// AVX512:         simd.load %x[%{{.*}}] : !loop.buf<f32> -> vector<8xf32>
// AVX512:         simd.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi64>

// NOPART: error: loop.vecloop mixes element widths (f32 x8, i64 x4 lanes per avx2 register): at 4 lanes the narrower vectors fill part of a register (partial=false)
