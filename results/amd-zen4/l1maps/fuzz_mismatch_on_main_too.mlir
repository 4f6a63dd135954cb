// FUZZ: class=mismatch isa=avx512 kernel=@f242407539 n=16 seed=875903069 config: cpu=zen4 parallel=4 min_elements=0 chunk=-1 threads=2
// REF: kernel=@f242407539 inputs=loopopt.tools.fuzz.inputs.make_args(<this kernel>, n=16, seed=875903069) ref=loopopt.tools.fuzz.evaluate.evaluate (numpy)
// reproduce: loop-fuzz --replay mismatch_avx512_000.pkl
// failed on: avx512
// result 1 (float32): 1 of 16 elements differ: [8] want np.float32(4.0) got np.float32(2.0)
// minimized from:
//   func.func @f242407539(%v0: !df.array<f32, [i]>, %v1: !df.array<f32, [i]>, %v2: !df.array<f32, [i]>, %v3: !df.array<f32, [j]>, %v4: !df.array<i32, [i]>) -> (!df.array<i64, [i]>, !df.array<f32, [i]>) {
//     %v5 = df.gather %v3[%v4] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
//     %t1 = arith.constant 2.0 : f32
//     %v6 = df.scan max(%v5, %t1) : !df.array<f32, [i]> -> !df.array<f32, [i]>
//     %v7 = df.map %v1, %v0, %v2 : !df.array<f32, [i]>, !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<i64, [i]> {
//     ^bb0(%a2: f32, %a3: f32, %a4: f32):
//       %t5 = arith.fptosi %a2 : f32 to i64
//       %t6 = arith.constant 0 : i64
//       %t7 = arith.subi %t5, %t6 : i64
//       df.yield %t7 : i64
//     }
//     %v8 = df.map %v5 : !df.array<f32, [i]> -> !df.array<f32, [i]> {
//     ^bb0(%a8: f32):
//       %t9 = math.copysign %a8, %a8 : f32
//       %t10 = arith.addf %t9, %a8 : f32
//       df.yield %t10 : f32
//     }
//     func.return %v7, %v6 : !df.array<i64, [i]>, !df.array<f32, [i]>
//   }

func.func @f242407539(%v0: !df.array<f32, [i]>, %v1: !df.array<f32, [i]>, %v2: !df.array<f32, [i]>, %v3: !df.array<f32, [j]>, %v4: !df.array<i32, [i]>) -> (!df.array<i64, [i]>, !df.array<f32, [i]>) {
  %v5 = df.gather %v3[%v4] : !df.array<f32, [j]>, !df.array<i32, [i]> -> !df.array<f32, [i]>
  %t1 = arith.constant 2.0 : f32
  %v6 = df.scan max(%v5, %t1) : !df.array<f32, [i]> -> !df.array<f32, [i]>
  %v7 = df.map %v1, %v0, %v2 : !df.array<f32, [i]>, !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<i64, [i]> {
  ^bb0(%a2: f32, %a3: f32, %a4: f32):
    %t5 = arith.constant 0 : i64
    df.yield %t5 : i64
  }
  func.return %v7, %v6 : !df.array<i64, [i]>, !df.array<f32, [i]>
}
