// RUN: loop-opt %s -p 'convert-df-to-loop,loop-parallelize{min_elements=0 chunk=64},convert-loop-to-simd{target=scalar fallback=true}' -t c | filecheck %s

// A chunk kernel that allocates sets errno = ENOMEM on the worker thread that ran it
// (docs/calling_convention.md, "Out of memory"): each thread clears errno as the region starts and
// raises a shared flag at its end; the driver then sets ENOMEM on the caller's thread and its
// results to 0, or puts the caller's errno back (the driver's own mallocs may set it even when they
// succeed; one that fails runs the serial kernel). targets/c_filter_blocks.py `DriverErrno`.

// CHECK-LABEL: static int64_t map_sum__chunk(
// CHECK:         = lo_alloc(
// CHECK-NEXT:    if ({{.*}} == NULL) { return 0; }
// CHECK-LABEL: int64_t map_sum(
// CHECK:         const int lo_errno = errno;
// CHECK-NEXT:    int lo_nomem = 0;
// CHECK-NEXT:    int64_t *lo_part0 = malloc(
// CHECK:         if (!lo_ok) {
// CHECK:             errno = lo_errno;
// CHECK-NEXT:        return map_sum__chunk(x, x_len, out, out_len);
// CHECK:         LO_OMP("omp parallel num_threads(lo_t)")
// CHECK-NEXT:    {
// CHECK-NEXT:        errno = 0;
// CHECK:             lo_part0[lo_c] = map_sum__chunk(x + lo_lo, lo_len, out + lo_lo, lo_len);
// CHECK-NEXT:      }
// CHECK-NEXT:      if (errno == ENOMEM) __atomic_store_n(&lo_nomem, 1, __ATOMIC_RELAXED);
// CHECK-NEXT:    }
// CHECK:         errno = lo_nomem ? ENOMEM : lo_errno;
// CHECK-NEXT:    if (lo_nomem) lo_r0 = 0;
// CHECK-NEXT:    free(lo_part0);
func.func @map_sum(%x: !df.array<i64, [i]>) -> (!df.array<i64, [i]>, i64) {
  %d = df.map %x : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.addi %e, %e : i64
    df.yield %s : i64
  }
  %a = df.map %d : !df.array<i64, [i]> -> !df.array<i64, [i]> {
  ^bb0(%e: i64):
    %s = arith.muli %e, %e : i64
    df.yield %s : i64
  }
  %z = arith.constant 0 : i64
  %s = df.reduce add(%d, %z) over [i] : !df.array<i64, [i]> -> i64
  func.return %a, %s : !df.array<i64, [i]>, i64
}
