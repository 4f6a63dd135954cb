// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=4 stream_bytes=0 tail=auto cpu=zen4}' | filecheck %s
// RUN: loop-opt %s -p 'convert-loop-to-simd{target=avx512 interleave=4 stream_bytes=0 tail=auto cpu=sapphirerapids}' | filecheck %s

// tail=auto with constant bounds counts the tail's real iterations, trips mod W, instead of
// the (W-1)/2 average (lowering/loop_to_simd/tail.py). On AVX-512 (W = 16 f32 / i32 lanes) a
// masked block costs 2 + 1 per masked load:
// * a float sum of 1000 elements leaves 8, a dependent chain of 8 fp-latency steps: masked;
// * a float sum of 1024 leaves none: no tail to pay for, the loop's own (scalar, empty) one;
// * an integer sum of 993 leaves 1 one-cycle add: cheaper than the masked block, scalar;
// * an integer sum of 1010 leaves 2 adds, a map of 1010 two independent elements: still
//   cheaper than 3, scalar; an integer sum of 1012 leaves 4: masked.

func.func @fsum_1000(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

func.func @fsum_1024(%x: !loop.buf<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zero : f32 add reassoc) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %t = arith.addf %acc, %e : f32
    loop.yield %t : f32
  }
  func.return %s : f32
}

func.func @isum_993(%x: !loop.buf<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 993 : index
  %zero = arith.constant 0 : i32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zero : i32 add) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %e : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}

func.func @isum_1012(%x: !loop.buf<i32>) -> i32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1012 : index
  %zero = arith.constant 0 : i32
  %s = loop.vecloop %i in [%c0, %n) width(W) tail(scalar) accs(%acc = %zero : i32 add) {
    %e = loop.load %x[%i] : !loop.buf<i32>
    %t = arith.addi %acc, %e : i32
    loop.yield %t : i32
  }
  func.return %s : i32
}

func.func @scale_1010(%x: !loop.buf<f32>, %out: !loop.buf<f32>, %a: f32) {
  %c0 = arith.constant 0 : index
  %n = arith.constant 1010 : index
  loop.vecloop %i in [%c0, %n) width(W) tail(scalar) {
    %e = loop.load %x[%i] : !loop.buf<f32>
    %m = arith.mulf %a, %e : f32
    loop.store %m, %out[%i] : !loop.buf<f32>
  }
  func.return
}

// CHECK-LABEL: func.func @fsum_1000
// CHECK:         simd.masked_load %x
// CHECK-NOT:     loop.load
// CHECK:         func.return

// CHECK-LABEL: func.func @fsum_1024
// CHECK-NOT:     simd.masked_load
// CHECK:         loop.load %x
// CHECK:         func.return

// CHECK-LABEL: func.func @isum_993
// CHECK-NOT:     simd.masked_load
// CHECK:         loop.load %x
// CHECK:         func.return

// CHECK-LABEL: func.func @isum_1012
// CHECK:         simd.masked_load %x
// CHECK-NOT:     loop.load
// CHECK:         func.return

// CHECK-LABEL: func.func @scale_1010
// CHECK-NOT:     simd.masked_store
// CHECK:         loop.store
// CHECK:         func.return
