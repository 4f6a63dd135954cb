// Plain xdsl-opt knows the df dialect through loopopt's xdsl.universe plugin.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %z = df.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %p = arith.mulf %e, %e : f32
    df.yield %p : f32
  }
  %s = df.reduce add(%sq, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// CHECK-LABEL: func.func @sumsq(%{{.*}}: !df.array<f32, [i]>) -> f32 {
// CHECK-NEXT:    %[[Z:.*]] = df.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[SQ:.*]] = df.map %{{.*}} : !df.array<f32, [i]> -> !df.array<f32, [i]> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT:      df.yield %[[P]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]] = df.reduce add(%[[SQ]], %[[Z]]) over [i] reassoc : !df.array<f32, [i]> -> f32
// CHECK-NEXT:    func.return %[[S]] : f32
