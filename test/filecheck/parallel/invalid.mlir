// RUN: loop-opt %s -t c --split-input-file --verify-diagnostics | filecheck %s
// RUN: not loop-opt %s -t c --split-input-file 2>&1 | filecheck %s --check-prefix=EXIT
// EXIT: error: @m: loop.parallel: chunk = 100
// A hand-written loop.parallel is checked against the kernel's ABI before any C is printed.

// CHECK: error: @m: loop.parallel: chunk = 100 is not a multiple of 64
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 100 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = []}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: buffer 'out' is not a rank-1 buffer on axis 'i'
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.capacity = "j", loop.count = 0 : i64, loop.result = 0 : i64}, %y: !loop.buf<f32> {loop.role = "in", loop.axes = ["j"]}) -> index attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["count"], scans = [], scan_kinds = []}} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}

// -----

// CHECK: error: @m: loop.parallel: result #0 is a filter count but its combiner is add
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["k"], loop.capacity = "i", loop.count = 0 : i64, loop.result = 0 : i64}) -> index attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = []}} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}

// -----

// CHECK: error: @m: loop.parallel: scans names argument #0, which is not an output buffer
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = [], scans = [0 : i64], scan_kinds = ["add"]}} {
  func.return
}

// -----

// CHECK: error: @m: loop.parallel: needs the keys axis, chunk, min_elements, results, scan_kinds, scans, threads (and may have block, block_below, block_from, block_pairs, block_stream, sources, stream_bytes)
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) attributes {loop.kernel, loop.parallel = {axis = "i"}} {
  func.return
}

// -----

// CHECK: error: @m: loop.parallel: result #0 of type f32 cannot combine with or
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["or"], scans = [], scan_kinds = []}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: block (super-blocks) is for a filter whose only result is its count, without scans
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], block = 128 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: block = 100 is not a multiple of 64
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], block = 100 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: sources names argument #1, which is not a rank-1 input buffer (once)
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"], loop.result = 0 : i64}) attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = [], scans = [], scan_kinds = [], sources = [1 : i64]}} {
  func.return
}

// -----

// CHECK: error: @m: loop.parallel: needs an input buffer on the axis
func.func @m(%v: !loop.buf<f32> {loop.role = "in", loop.axes = ["j"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], sources = [0 : i64]}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: block (super-blocks) is for a filter whose only result is its count, without scans or sources
func.func @m(%v: !loop.buf<i32> {loop.role = "in", loop.axes = ["j"]}, %x: !loop.buf<i32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<i32> {loop.role = "out", loop.axes = ["k"], loop.result = 0 : i64, loop.count = 0 : i64, loop.capacity = "i"}) -> index attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["count"], scans = [], scan_kinds = [], sources = [0 : i64], block = 128 : i64}} {
  %c0 = arith.constant 0 : index
  func.return %c0 : index
}

// -----

// CHECK: error: @m: loop.parallel: block_from, block_below and block_pairs need block
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], block_below = 4096 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// CHECK: error: @m: loop.parallel: block_from = 8192 must be below block_below = 4096 (an empty band)
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], block = 1024 : i64, block_from = 8192 : i64, block_below = 4096 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}

// -----

// The look-back driver is gone (session 26): its plan key is unknown.
// CHECK: error: @m: loop.parallel: needs the keys axis, chunk, min_elements, results, scan_kinds, scans, threads (and may have block, block_below, block_from, block_pairs, block_stream, sources, stream_bytes)
func.func @m(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}) -> f32 attributes {loop.kernel, loop.parallel = {axis = "i", chunk = 64 : i64, min_elements = 0 : i64, threads = 0 : i64, results = ["add"], scans = [], scan_kinds = [], block_lookback = 1 : i64}} {
  %z = arith.constant 0.0 : f32
  func.return %z : f32
}
