// Every pipeline-spec mistake is one located diagnostic and exit status 1, never a traceback
// (xDSL's ArgSpecParseError is a BaseException); options take MLIR's commas too.
// RUN: loop-opt %s -p 'df-fuse{remarks=true,recompute=false}' 2>&1 | filecheck %s --check-prefix=COMMA
// RUN: not loop-opt %s -p 'df-fuse{' 2>&1 | filecheck %s --check-prefix=OPEN
// RUN: not loop-opt %s -p ',' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not loop-opt %s -p 'loop-pipeline{target=}' 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not loop-opt %s -p 'df-fuse{a=1,b=2}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not loop-opt %s -p 'df-fuse{remarks=maybe}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not loop-opt %s -p 'df-fuse,df-fus' 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not loop-opt %s -p 'loop-pipeline{target=foo}' 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not loop-opt %s -t 'c{' 2>&1 | filecheck %s --check-prefix=TSPEC
// RUN: not loop-opt %s -t 'c{bogus=1}' 2>&1 | filecheck %s --check-prefix=TOPTION
// RUN: not loop-run %s -t scalar -p 'df-fuse{' --no-time 2>&1 | filecheck %s --check-prefix=LR

// REF: kernel=@sumsq inputs=x:f32[n] tol=reduction:x*x ref=np.sum(x*x)
func.func @sumsq(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sq = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %s = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}

// COMMA: df.reduce(%x) add(%zero)

// OPEN:      pipeline-errors.mlir: error: bad pass pipeline: expected argument name here
// OPEN-NEXT:   df-fuse{
// OPEN-NEXT: {{^ {10}\^$}}
// OPEN-NOT:  Traceback
// EMPTY:     pipeline-errors.mlir: error: bad pass pipeline: expected pass name here
// EMPTY-NOT: Traceback
// NOVALUE:     error: bad pass pipeline: unknown argument value
// NOVALUE-NOT: Traceback
// OPTION:     pipeline-errors.mlir: error: df-fuse: unknown option 'a' (options: remarks, max-recompute-ops, recompute, horizontal)
// OPTION-NOT: Traceback
// VALUE:      error: df-fuse: option remarks=maybe is not a valid bool
// PASS:       error: unknown pass 'df-fus'; did you mean df-fuse?
// PASS-NEXT:    df-fuse,df-fus
// PASS-NEXT: {{^ {10}\^$}}
// The pass's own message, prefixed once (it used to read `error: error: unknown target`).
// TARGET:     pipeline-errors.mlir: error: loop-pipeline: option target=foo is an unknown target 'foo'
// TARGET-NOT: error: error:
// TSPEC:      pipeline-errors.mlir: error: bad spec 'c{': expected argument name here (column 3)
// TSPEC-NOT:  Traceback
// TOPTION:     pipeline-errors.mlir: error: -t c{bogus=1}: Provided arguments ["bogus"] not found
// TOPTION-NOT: internal error
// LR:         pipeline-errors.mlir: error: bad pass pipeline: expected argument name here
// LR-NOT:     Traceback
