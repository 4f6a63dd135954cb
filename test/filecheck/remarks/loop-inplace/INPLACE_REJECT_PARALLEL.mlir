// A scan of gathered values split across threads: each chunk gathers into its own temporary.
func.func @gscan(%v: !df.array<i32, [j]>, %ix: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %x = df.gather %v[%ix] : !df.array<i32, [j]>, !df.array<i32, [i]> -> !df.array<i32, [i]>
  %z = arith.constant 0 : i32
  %s = df.scan add(%x, %z) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %s : !df.array<i32, [i]>
}

// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize,loop-inplace{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}INPLACE_REJECT_PARALLEL.mlir:3:3: remark: INPLACE_REJECT_PARALLEL: the kernel runs in chunks (loop.parallel): the temporary is each chunk's own, cache-sized
