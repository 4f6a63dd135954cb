// RUN: loop-opt %s -t c | filecheck %s

// Accumulators updated in place (c_print_loops.in_place_yields): a yielded value defined in the
// body, used only by the yield, whose accumulator nobody reads after it, is computed straight
// into the accumulator's variable. And after a loop, every x86 integer vector accumulator read
// later goes through `lo_in_register` (IN_REGISTER: gcc otherwise copies it every iteration).
builtin.module attributes {loop.target = "avx2", loop.pipeline = "test"} {
  // two i32 accumulators; the second's old value is also stored after its update: it keeps its copy
  func.func @sums(%x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %o: !loop.buf<i32> {loop.role = "out", loop.axes = ["i"]}) -> vector<8xi32> attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %n = loop.dim %x, 0 : !loop.buf<i32>
    %zero = arith.constant dense<0> : vector<8xi32>
    %r:2 = loop.for %i in range(%c0, %n, %c8) accs(%a = %zero : vector<8xi32> add, %b = %zero : vector<8xi32> add) {
      %v = simd.load %x[%i] : !loop.buf<i32> -> vector<8xi32>
      %s = arith.addi %a, %v : vector<8xi32>
      %t = arith.addi %b, %v : vector<8xi32>
      simd.store %b, %o[%i] : vector<8xi32>, !loop.buf<i32>
      loop.yield %s, %t : vector<8xi32>, vector<8xi32>
    }
    %both = arith.addi %r#0, %r#1 : vector<8xi32>
    func.return %both : vector<8xi32>
  }
  // the accumulators trade places (a parallel copy): no value is computed in place
  func.func @rotate(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> vector<8xf32> attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %n = loop.dim %x, 0 : !loop.buf<f32>
    %zero = arith.constant dense<0.0> : vector<8xf32>
    %r:2 = loop.for %i in range(%c0, %n, %c8) accs(%a = %zero : vector<8xf32> add reassoc, %b = %zero : vector<8xf32> add reassoc) {
      %v = simd.load %x[%i] : !loop.buf<f32> -> vector<8xf32>
      %s = arith.addf %a, %v : vector<8xf32>
      loop.yield %b, %s : vector<8xf32>, vector<8xf32>
    }
    %both = arith.addf %r#0, %r#1 : vector<8xf32>
    func.return %both : vector<8xf32>
  }
}

// CHECK:       #define lo_in_register(v) __asm__("" : "+x"(v))
// CHECK-LABEL: sums(
// CHECK:           __m256i r = zero;
// CHECK-NEXT:      __m256i r_1 = zero;
// CHECK-NEXT:      for (
// CHECK-NEXT:          __m256i v = _mm256_loadu_si256((const __m256i *)&x[i]);
// CHECK-NEXT:          r = _mm256_add_epi32(r, v);
// CHECK-NEXT:          __m256i t = _mm256_add_epi32(r_1, v);
// CHECK-NEXT:          _mm256_storeu_si256((__m256i *)&o[i], r_1);
// CHECK-NEXT:          r_1 = t;
// CHECK-NEXT:      }
// CHECK-NEXT:      lo_in_register(r);
// CHECK-NEXT:      lo_in_register(r_1);
// CHECK-NEXT:      __m256i both = _mm256_add_epi32(r, r_1);
// CHECK-LABEL: rotate(
// CHECK:           for (
// CHECK-NEXT:          __m256 v = _mm256_loadu_ps(&x[i]);
// CHECK-NEXT:          __m256 s = _mm256_add_ps(r, v);
// CHECK-NEXT:          __m256 r_next = r_1;
// CHECK-NEXT:          __m256 r_1_next = s;
// CHECK-NEXT:          r = r_next;
// CHECK-NEXT:          r_1 = r_1_next;
// CHECK-NEXT:      }
// CHECK-NOT:       lo_in_register
// CHECK:           __m256 both = _mm256_add_ps(r, r_1);
