// Pass options are checked when the pipeline is built (passes/options.py): a located
// error and exit 1, before any IR is touched.
// RUN: not loop-opt %s -p 'loop-tile{size=18446744073709551616}' 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: not loop-opt %s -p 'loop-tile{size=1048577}' 2>&1 | filecheck %s --check-prefix=ABOVE
// RUN: not loop-opt %s -p 'loop-tile{size=true}' 2>&1 | filecheck %s --check-prefix=BOOL
// RUN: loop-opt %s -p 'loop-tile{size=1048576}' | filecheck %s --check-prefix=MAX

// A 2**64 tile size used to become an invalid index constant (SIGILL in the kernel).
// HUGE: option-ranges.mlir: error: loop-tile: option size=18446744073709551616 is out of range [1, 1048576]
// ABOVE: error: loop-tile: option size=1048577 is out of range [1, 1048576]
// BOOL: error: loop-tile: option size=true is not an integer (expected one in [1, 1048576])

// MAX-LABEL: func.func @copy
// MAX:         arith.constant 1048576 : index
func.func @copy(%b: !loop.buf<f32>, %o: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    loop.store %x, %o[%i] : !loop.buf<f32>
  }
  func.return
}
