// RUN: loop-run %S/../../../examples/sum_of_squares.mlir --n 1000 --no-time | filecheck %s --check-prefix=EXAMPLE
// RUN: loop-run %s -t scalar --n 1000 | filecheck %s
// RUN: loop-run %s -t sse2 -k axpb --n 1000 --no-time --print-c | filecheck %s --check-prefix=PRINTC
// RUN: not loop-run %s -k no_such_kernel 2>&1 | filecheck %s --check-prefix=KERNEL
// RUN: not loop-run %s -t avx9 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not loop-run %S/no-such-file.mlir 2>&1 | filecheck %s --check-prefix=NOFILE
// RUN: not loop-run %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not loop-run %s --input nope=1.0 2>&1 | filecheck %s --check-prefix=INPUT

// The README command: every kernel of the example matches the interpreter.
// EXAMPLE:      sum_of_squares.mlir: target
// EXAMPLE-NEXT: sumsq: matches the interpreter (n=1000)
// EXAMPLE-NEXT: scale_positive: matches the interpreter (n=1000)
// EXAMPLE-NEXT: sqrt_abs_axpb: matches the interpreter (n=1000)

// REF: kernel=@axpb inputs=x:f32[n];a:f32;b:f32 ref=a * x + b
func.func @axpb(%x: !df.array<f32, [i]>, %a: f32, %b: f32) -> !df.array<f32, [i]> {
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %b : f32
    df.yield %s : f32
  }
  func.return %y : !df.array<f32, [i]>
}

// No REF header: the interpreter check still runs, the numpy timing is skipped.
func.func @total(%x: !df.array<i32, [i]>) -> i32 {
  %zero = arith.constant 0 : i32
  %s = df.reduce add(%x, %zero) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}

// CHECK:      loop-run.mlir: target scalar
// CHECK-NEXT: axpb: matches the interpreter (n=1000)
// CHECK-NEXT:   n=1000: loopopt {{.*}}, numpy {{.*}}x)
// CHECK-NEXT: total: matches the interpreter (n=1000)
// CHECK-NEXT:   n=1000: loopopt {{.*}}; numpy: no REF header

// PRINTC:      target: sse2
// PRINTC:      void axpb(const float *restrict
// PRINTC:      axpb: matches the interpreter (n=1000)
// PRINTC-NOT:  total:

// KERNEL: loop-run: error: no kernel 'no_such_kernel' in {{.*}}loop-run.mlir (kernels: axpb, total)
// TARGET: loop-run: error: unknown target 'avx9'; expected one of scalar, sse2, avx2, avx512, neon or native
// NOFILE: loop-run: error: cannot read {{.*}}no-such-file.mlir: No such file or directory
// PARSE: malformed.mlir:1:15: error: Expected argument or type
// PARSE-NOT: Traceback
// INPUT: loop-run: error: --input nope: no kernel has an argument named 'nope' (arguments: a, b, x)
