// RUN: %python -c "from loopopt.diagnostics import locate_xdsl_parser as l; l(); from xdsl.tools.xdsl_opt import main; main()" %s -p 'df-fuse,convert-df-to-loop,loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: %python -c "from loopopt.diagnostics import locate_xdsl_parser as l; l(); from xdsl.tools.xdsl_opt import main; main()" %s | filecheck %s --check-prefix=IR

// Plain xdsl-opt parses with xDSL's Parser, which keeps no locations; with
// `loopopt.diagnostics.locate_xdsl_parser` (what loopopt's xdsl.universe plugin installs)
// every op gets the file:line:col of its first token, so remarks point at the op's line,
// not `<unknown>`. The printed IR is unchanged (no `loc(...)` without --print-debuginfo),
// and an explicit `loc(...)` is kept.

// CHECK-NOT: <unknown>
// CHECK: xdsl-opt-locations.mlir:[[# @LINE + 4]]:3: remark: VEC_REJECT_CUSTOM_REDUCTION:
// CHECK: explicit.mlir:7:1: remark: VEC_REJECT_CUSTOM_REDUCTION:
func.func @k(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %p = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %m = arith.mulf %acc, %e : f32
    %a = arith.addf %m, %e : f32
    df.yield %a : f32
  }
  func.return %p : f32
}

func.func @explicit(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %p = df.fold(%x) init(%z) : !df.array<f32, [i]> -> f32 {
  ^bb0(%acc: f32, %e: f32):
    %m = arith.mulf %acc, %e : f32
    %a = arith.addf %m, %e : f32
    df.yield %a : f32
  } loc("explicit.mlir":7:1)
  func.return %p : f32
}

// IR-NOT: loc(
// IR: func.func @explicit
// IR-NOT: loc(
