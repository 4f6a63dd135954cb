// RUN: loop-opt %s --split-input-file -p loop-simplify | filecheck %s
// passes/select_minmax.py: an integer select of a compare's own operands becomes min/max once the
// module names its target, and only where that target's min/max row is one intrinsic.

builtin.module attributes {loop.target = "avx2"} {
  // select(x ...) of cmpi sgt(x, c) -> maxsi
  // CHECK-LABEL: func.func @sgt_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.maxsi %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sgt_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sgt, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi sgt(x, c) -> minsi
  // CHECK-LABEL: func.func @sgt_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.minsi %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sgt_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sgt, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi sge(x, c) -> maxsi
  // CHECK-LABEL: func.func @sge_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.maxsi %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sge_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sge, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi sge(x, c) -> minsi
  // CHECK-LABEL: func.func @sge_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.minsi %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sge_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sge, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi slt(x, c) -> minsi
  // CHECK-LABEL: func.func @slt_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.minsi %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @slt_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi slt, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi slt(x, c) -> maxsi
  // CHECK-LABEL: func.func @slt_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.maxsi %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @slt_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi slt, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi sle(x, c) -> minsi
  // CHECK-LABEL: func.func @sle_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.minsi %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sle_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sle, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi sle(x, c) -> maxsi
  // CHECK-LABEL: func.func @sle_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.maxsi %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @sle_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sle, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi ugt(x, c) -> maxui
  // CHECK-LABEL: func.func @ugt_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.maxui %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ugt_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ugt, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi ugt(x, c) -> minui
  // CHECK-LABEL: func.func @ugt_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.minui %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ugt_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ugt, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi uge(x, c) -> maxui
  // CHECK-LABEL: func.func @uge_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.maxui %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @uge_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi uge, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi uge(x, c) -> minui
  // CHECK-LABEL: func.func @uge_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.minui %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @uge_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi uge, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi ult(x, c) -> minui
  // CHECK-LABEL: func.func @ult_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.minui %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ult_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ult, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi ult(x, c) -> maxui
  // CHECK-LABEL: func.func @ult_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.maxui %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ult_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ult, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // select(x ...) of cmpi ule(x, c) -> minui
  // CHECK-LABEL: func.func @ule_xc
  // CHECK-NEXT:    %[[R:.*]] = arith.minui %x, %c : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ule_xc(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ule, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // select(c ...) of cmpi ule(x, c) -> maxui
  // CHECK-LABEL: func.func @ule_cx
  // CHECK-NEXT:    %[[R:.*]] = arith.maxui %c, %x : i32
  // CHECK-NEXT:    func.return %[[R]] : i32
  func.func @ule_cx(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi ule, %x, %c : i32
    %r = arith.select %m, %c, %x : i32
    func.return %r : i32
  }

  // the compare's operands swapped: select(c > x, x, c) is min(x, c)
  // CHECK-LABEL: func.func @cmp_swapped
  // CHECK-NEXT:    %[[R:.*]] = arith.minsi %x, %c : i64
  func.func @cmp_swapped(%x: i64, %c: i64) -> i64 {
    %m = arith.cmpi sgt, %c, %x : i64
    %r = arith.select %m, %x, %c : i64
    func.return %r : i64
  }

  // two equal constants (before cse) are the same value; i8 too
  // CHECK-LABEL: func.func @equal_constants
  // CHECK:         %[[R:.*]] = arith.maxsi %x, %{{.*}} : i8
  // CHECK-NEXT:    func.return %[[R]] : i8
  func.func @equal_constants(%x: i8) -> i8 {
    %z0 = arith.constant 0 : i8
    %z1 = arith.constant 0 : i8
    %m = arith.cmpi sgt, %x, %z0 : i8
    %r = arith.select %m, %x, %z1 : i8
    func.return %r : i8
  }

  // different constants: select(x > 0, x, 1) is no max
  // CHECK-LABEL: func.func @different_constants
  // CHECK:         arith.select
  func.func @different_constants(%x: i32) -> i32 {
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %m = arith.cmpi sgt, %x, %z : i32
    %r = arith.select %m, %x, %one : i32
    func.return %r : i32
  }

  // the select picks a value the compare did not compare
  // CHECK-LABEL: func.func @other_operand
  // CHECK:         arith.select %{{.*}}, %x, %d : i32
  func.func @other_operand(%x: i32, %c: i32, %d: i32) -> i32 {
    %m = arith.cmpi sgt, %x, %c : i32
    %r = arith.select %m, %x, %d : i32
    func.return %r : i32
  }

  // eq / ne are no min or max
  // CHECK-LABEL: func.func @eq
  // CHECK:         arith.select
  func.func @eq(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi eq, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }

  // i1 stays a select
  // CHECK-LABEL: func.func @i1
  // CHECK:         arith.select
  func.func @i1(%x: i1, %c: i1) -> i1 {
    %m = arith.cmpi sgt, %x, %c : i1
    %r = arith.select %m, %x, %c : i1
    func.return %r : i1
  }

  // floats never: select(x > 0.0, x, 0.0) is 0.0 for NaN, maximumf NaN
  // CHECK-LABEL: func.func @float
  // CHECK:         arith.cmpf ogt
  // CHECK-NEXT:    arith.select
  func.func @float(%x: f32) -> f32 {
    %z = arith.constant 0.0 : f32
    %m = arith.cmpf ogt, %x, %z : f32
    %r = arith.select %m, %x, %z : f32
    func.return %r : f32
  }

  // the filtered sum's lowered step: simd.select(simd.cmp) -> simd.max where avx2 has vpmaxsd
  // CHECK-LABEL: func.func @simd_sgt_i32
  // CHECK-NEXT:    %[[R:.*]] = simd.max %x, %z : vector<8xi32>
  // CHECK-NEXT:    func.return %[[R]] : vector<8xi32>
  func.func @simd_sgt_i32(%x: vector<8xi32>, %z: vector<8xi32>) -> vector<8xi32> {
    %m = simd.cmp <sgt> %x, %z : vector<8xi32> -> vector<8xi1>
    %r = simd.select %m, %x, %z : vector<8xi1>, vector<8xi32>
    func.return %r : vector<8xi32>
  }

  // unsigned on vectors is arith.minui (the lowering's form; avx2 has vpminud)
  // CHECK-LABEL: func.func @simd_ult_i32
  // CHECK-NEXT:    %[[R:.*]] = arith.minui %x, %z : vector<8xi32>
  func.func @simd_ult_i32(%x: vector<8xi32>, %z: vector<8xi32>) -> vector<8xi32> {
    %m = simd.cmp <ult> %x, %z : vector<8xi32> -> vector<8xi1>
    %r = simd.select %m, %x, %z : vector<8xi1>, vector<8xi32>
    func.return %r : vector<8xi32>
  }

  // avx2's i64 max is a compare and a blend: the select stays
  // CHECK-LABEL: func.func @simd_sgt_i64
  // CHECK:         simd.select
  func.func @simd_sgt_i64(%x: vector<4xi64>, %z: vector<4xi64>) -> vector<4xi64> {
    %m = simd.cmp <sgt> %x, %z : vector<4xi64> -> vector<4xi1>
    %r = simd.select %m, %x, %z : vector<4xi1>, vector<4xi64>
    func.return %r : vector<4xi64>
  }

  // float vectors never
  // CHECK-LABEL: func.func @simd_float
  // CHECK:         simd.select
  func.func @simd_float(%x: vector<8xf32>, %z: vector<8xf32>) -> vector<8xf32> {
    %m = simd.cmp <ogt> %x, %z : vector<8xf32> -> vector<8xi1>
    %r = simd.select %m, %x, %z : vector<8xi1>, vector<8xf32>
    func.return %r : vector<8xf32>
  }
}

// -----

// avx512 has vpmaxsq
// CHECK-LABEL: func.func @avx512_i64
// CHECK-NEXT:    %[[R:.*]] = simd.max %x, %z : vector<8xi64>
builtin.module attributes {loop.target = "avx512"} {
  func.func @avx512_i64(%x: vector<8xi64>, %z: vector<8xi64>) -> vector<8xi64> {
    %m = simd.cmp <sge> %x, %z : vector<8xi64> -> vector<8xi1>
    %r = simd.select %m, %x, %z : vector<8xi1>, vector<8xi64>
    func.return %r : vector<8xi64>
  }
}

// -----

// sse2 has no pmaxsd (lo_max_i32x4 is a compare and a blend; select(m, x, 0) is one AND)
// CHECK-LABEL: func.func @sse2_i32
// CHECK:         simd.select
builtin.module attributes {loop.target = "sse2"} {
  func.func @sse2_i32(%x: vector<4xi32>, %z: vector<4xi32>) -> vector<4xi32> {
    %m = simd.cmp <sgt> %x, %z : vector<4xi32> -> vector<4xi1>
    %r = simd.select %m, %x, %z : vector<4xi1>, vector<4xi32>
    func.return %r : vector<4xi32>
  }
}

// -----

// neon has smax on i32
// CHECK-LABEL: func.func @neon_i32
// CHECK-NEXT:    %[[R:.*]] = simd.min %z, %x : vector<4xi32>
builtin.module attributes {loop.target = "neon"} {
  func.func @neon_i32(%x: vector<4xi32>, %z: vector<4xi32>) -> vector<4xi32> {
    %m = simd.cmp <sgt> %x, %z : vector<4xi32> -> vector<4xi1>
    %r = simd.select %m, %z, %x : vector<4xi1>, vector<4xi32>
    func.return %r : vector<4xi32>
  }
}

// -----

// before lowering (no loop.target) nothing fires: the op may still become a vector of any target
// CHECK-LABEL: func.func @no_target
// CHECK:         arith.select
builtin.module {
  func.func @no_target(%x: i32, %c: i32) -> i32 {
    %m = arith.cmpi sgt, %x, %c : i32
    %r = arith.select %m, %x, %c : i32
    func.return %r : i32
  }
}
