// A float sum without `reassoc`: it must be added in element order.
func.func @sum(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// RUN: loop-opt %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_FLOAT_REDUCTION_ORDER.mlir:4:3: remark: VEC_REJECT_FLOAT_REDUCTION_ORDER: accumulator #0 (add on f32) is not reassoc: splitting it across lanes would change the rounding
