"""df programs and compile helpers for the parallel-kernel tests (a uniquely named module, not
conftest: see test/python/isa_support.py)."""

from __future__ import annotations

import functools
import os

from loopopt.compile import compile as loopopt_compile
from loopopt.passes.pipeline import LoopPipelinePass, _all_passes

SOURCE = """
func.func @axpy(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [i]> {
  %r = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32, %f: f32):
    %m = arith.mulf %a, %e : f32
    %s = arith.addf %m, %f : f32
    df.yield %s : f32
  }
  func.return %r : !df.array<f32, [i]>
}
func.func @sq_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %r = df.map %x : !df.array<i32, [i]> -> !df.array<i32, [i]> {
  ^bb0(%e: i32):
    %m = arith.muli %e, %e : i32
    df.yield %m : i32
  }
  func.return %r : !df.array<i32, [i]>
}
func.func @sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %z = arith.constant 0.0 : f32
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
func.func @sum_i32(%x: !df.array<i32, [i]>) -> i32 {
  %z = arith.constant 0 : i32
  %s = df.reduce add(%x, %z) over [i] : !df.array<i32, [i]> -> i32
  func.return %s : i32
}
func.func @sum_max_f64(%x: !df.array<f64, [i]>) -> (f64, f64) {
  %z = arith.constant 0.0 : f64
  %m = arith.constant 0xFFF0000000000000 : f64
  %s = df.reduce add(%x, %z) over [i] reassoc : !df.array<f64, [i]> -> f64
  %t = df.reduce max(%x, %m) over [i] : !df.array<f64, [i]> -> f64
  func.return %s, %t : f64, f64
}
func.func @dot_norms_f64(%x: !df.array<f64, [i]>, %y: !df.array<f64, [i]>) -> (f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %xy, %xx, %yy = df.map %x, %y : !df.array<f64, [i]>, !df.array<f64, [i]> -> !df.array<f64, [i]>, !df.array<f64, [i]>, !df.array<f64, [i]> {
  ^bb0(%a: f64, %b: f64):
    %p = arith.mulf %a, %b : f64
    %q = arith.mulf %a, %a : f64
    %r = arith.mulf %b, %b : f64
    df.yield %p, %q, %r : f64, f64, f64
  }
  %d = df.reduce add(%xy, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %nx = df.reduce add(%xx, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %ny = df.reduce add(%yy, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %d, %nx, %ny : f64, f64, f64
}
func.func @min_i64(%x: !df.array<i64, [i]>) -> i64 {
  %m = arith.constant 9223372036854775807 : i64
  %s = df.reduce min(%x, %m) over [i] : !df.array<i64, [i]> -> i64
  func.return %s : i64
}
func.func @umax_u8(%x: !df.array<i8, [i]>) -> i8 {
  %z = arith.constant 0 : i8
  %s = df.reduce umax(%x, %z) over [i] : !df.array<i8, [i]> -> i8
  func.return %s : i8
}
func.func @filter_scale_f32(%x: !df.array<f32, [i]>, %a: f32) -> !df.array<f32, [k]> {
  %zero = arith.constant 0.0 : f32
  %pos = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %y = df.map %pos : !df.array<f32, [k]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %m = arith.mulf %a, %e : f32
    df.yield %m : f32
  }
  func.return %y : !df.array<f32, [k]>
}
func.func @filter_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %pos : !df.array<i32, [k]>
}
func.func @filter_sum_f32(%x: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %p = df.filter %x : !df.array<f32, [i]> -> !df.array<f32, [k]> {
  ^bb0(%e: f32):
    %c = arith.cmpf ogt, %e, %zero : f32
    df.yield %c : i1
  }
  %s = df.reduce add(%p, %zero) over [k] reassoc : !df.array<f32, [k]> -> f32
  func.return %s : f32
}
func.func @cumsum_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [i]> {
  %z = arith.constant 0 : i64
  %p = df.scan add(%x, %z) : !df.array<i64, [i]> -> !df.array<i64, [i]>
  func.return %p : !df.array<i64, [i]>
}
func.func @cumdiff_i32(%x: !df.array<i32, [i]>, %y: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %zero = arith.constant 0 : i32
  %p = df.scan(%x, %y) add(%zero) : !df.array<i32, [i]>, !df.array<i32, [i]> -> !df.array<i32, [i]> map {
  ^bb0(%a: i32, %b: i32):
    %d = arith.subi %a, %b : i32
    df.yield %d : i32
  }
  func.return %p : !df.array<i32, [i]>
}
func.func @split_signs_i32(%x: !df.array<i32, [i]>) -> (!df.array<i32, [k]>, !df.array<i32, [m]>) {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %neg = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [m]> {
  ^bb0(%e: i32):
    %c = arith.cmpi slt, %e, %zero : i32
    df.yield %c : i1
  }
  func.return %pos, %neg : !df.array<i32, [k]>, !df.array<i32, [m]>
}
func.func @running_max_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [i]> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %p = df.scan max(%x, %ninf) : !df.array<f64, [i]> -> !df.array<f64, [i]>
  func.return %p : !df.array<f64, [i]>
}
func.func @running_min_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %big = arith.constant 7 : i32
  %p = df.scan min(%x, %big) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}
func.func @running_umax_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [i]> {
  %seven = arith.constant 7 : i32
  %p = df.scan umax(%x, %seven) : !df.array<i32, [i]> -> !df.array<i32, [i]>
  func.return %p : !df.array<i32, [i]>
}
func.func @pos_cumsum_i32(%x: !df.array<i32, [i]>) -> !df.array<i32, [k]> {
  %zero = arith.constant 0 : i32
  %pos = df.filter %x : !df.array<i32, [i]> -> !df.array<i32, [k]> {
  ^bb0(%e: i32):
    %c = arith.cmpi sgt, %e, %zero : i32
    df.yield %c : i1
  }
  %p = df.scan add(%pos, %zero) : !df.array<i32, [k]> -> !df.array<i32, [k]>
  func.return %p : !df.array<i32, [k]>
}
func.func @rare_cumsum_i64(%x: !df.array<i64, [i]>) -> !df.array<i64, [k]> {
  %zero = arith.constant 0 : i64
  %big = arith.constant 9151314442816847872 : i64
  %sel = df.filter %x : !df.array<i64, [i]> -> !df.array<i64, [k]> {
  ^bb0(%e: i64):
    %c = arith.cmpi sgt, %e, %big : i64
    df.yield %c : i1
  }
  %p = df.scan add(%sel, %zero) : !df.array<i64, [k]> -> !df.array<i64, [k]>
  func.return %p : !df.array<i64, [k]>
}
func.func @pos_running_max_f64(%x: !df.array<f64, [i]>) -> !df.array<f64, [k]> {
  %m1 = arith.constant -1.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %sel = df.filter %x : !df.array<f64, [i]> -> !df.array<f64, [k]> {
  ^bb0(%e: f64):
    %c = arith.cmpf ogt, %e, %m1 : f64
    df.yield %c : i1
  }
  %p = df.scan max(%sel, %ninf) : !df.array<f64, [k]> -> !df.array<f64, [k]>
  func.return %p : !df.array<f64, [k]>
}
"""

PARALLEL_KERNELS = (
    "axpy", "sq_i32", "sum_f32", "sum_i32", "sum_max_f64", "dot_norms_f64", "min_i64", "umax_u8",
    "filter_scale_f32", "filter_i32", "filter_sum_f32", "cumsum_i64", "cumdiff_i32",
    "running_max_f64", "running_min_i32", "running_umax_i32", "split_signs_i32",
    "pos_cumsum_i32", "rare_cumsum_i64", "pos_running_max_f64",
)  # fmt: skip

CHUNK = 64
"""The smallest chunk, so small sizes already cross several chunk boundaries."""


def pipeline(isa: str, parallel: int = -1, **options: int) -> str:
    """The default pipeline for `isa` with loop-parallelize given `options` (chunk, min_elements);
    `filter_block` is loop-pipeline's own (it also adds derive-filter-count)."""
    block = options.pop("filter_block", 0)
    spelled = LoopPipelinePass(target=isa, parallel=parallel, filter_block=block).spelling(set(_all_passes()))
    if options:
        extra = " ".join(f"{k}={v}" for k, v in options.items())
        spelled = spelled.replace("loop-parallelize{threads=", "loop-parallelize{" + extra + " threads=")
    return spelled


@functools.cache
def compiled(isa: str, parallel: int = -1, chunk: int = CHUNK, min_elements: int = 0, stream_bytes: int = -1, filter_block: int = 0):
    """SOURCE compiled for `isa`; stream_bytes >= 0 sets the filters' non-temporal copy threshold;
    filter_block 0 (here the default): filters in chunks through scratch (the super-block
    driver has test_parallel_filter_blocks.py)."""
    if parallel == 0:
        return loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, 0))
    extra = {"stream_bytes": stream_bytes} if stream_bytes >= 0 else {}
    extra["filter_block"] = filter_block
    return loopopt_compile(SOURCE, target=isa, pipeline=pipeline(isa, parallel, chunk=chunk, min_elements=min_elements, **extra))


def batch_on_threads(kernel, cases: list, threads: int) -> list[list]:
    """A foreign (qemu) kernel's batch on `threads` threads, every other case one element into
    its allocations: per case its outputs then its results. No Python runtime in the runner,
    so LOOPOPT_NUM_THREADS sets the threads."""
    os.environ["LOOPOPT_NUM_THREADS"] = str(threads)
    try:
        return [[*outputs, *results] for outputs, results in kernel.batch(cases, offsets=[j % 2 for j in range(len(cases))])]
    finally:
        del os.environ["LOOPOPT_NUM_THREADS"]
