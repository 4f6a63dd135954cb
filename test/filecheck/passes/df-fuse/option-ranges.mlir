// RUN: not loop-opt %s -p 'df-fuse{max_recompute_ops=-1}' 2>&1 | filecheck %s --check-prefix=NEG
// RUN: not loop-opt %s -p 'df-fuse{max_recompute_ops=100000}' 2>&1 | filecheck %s --check-prefix=BIG

// NEG: error: df-fuse: option max_recompute_ops=-1 is out of range [0, 256]
// BIG: error: df-fuse: option max_recompute_ops=100000 is out of range [0, 256]
func.func @f() {
  func.return
}
