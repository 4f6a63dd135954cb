// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 | filecheck %s --check-prefix=VEC
// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize,convert-loop-to-simd{target=avx2}' | filecheck %s --check-prefix=SIMD

// Vector math ops have a vector form (targets/c_vmath.py): the loop vectorizes and the math op
// stays the same op on vector<WxT>. math.tan has none and still declines.

func.func @sigmoid(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %one = arith.constant 1.0 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %n = arith.negf %v : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %q = arith.divf %one, %d : f32
    df.yield %q : f32
  }
  func.return %y : !df.array<f32, [i]>
}

func.func @powsin(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %p = arith.constant 1.5 : f64
  %y = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {
  ^bb0(%v: f64):
    %s = math.sin %v : f64
    %w = math.powf %s, %p : f64
    %l = math.log1p %w : f64
    df.yield %l : f64
  }
  func.return %y : !df.array<f64, [i]>
}

func.func @tan(%x: !df.array<f32, [i]>) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%v: f32):
    %t = math.tan %v : f32
    df.yield %t : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// VEC-NOT: VEC_REJECT{{.*}}math.exp
// VEC-NOT: VEC_REJECT{{.*}}math.sin
// VEC: vectorize.mlir:[[# @LINE - 8]]:5: remark: VEC_REJECT_NO_VECTOR_FORM: math.tan has no vector form

// SIMD-LABEL: func.func @sigmoid
// SIMD: math.exp %{{.*}} : vector<8xf32>
// SIMD-LABEL: func.func @powsin
// SIMD: math.sin %{{.*}} : vector<4xf64>
// SIMD: math.powf %{{.*}}, %{{.*}} : vector<4xf64>
// SIMD: math.log1p %{{.*}} : vector<4xf64>
// SIMD-LABEL: func.func @tan
// SIMD-NOT: vector<8xf32>
// SIMD: math.tan %{{.*}} : f32
