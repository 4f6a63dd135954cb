// RUN: not loop-opt %s -p 'loop-tile{size=0}' 2>&1 | filecheck %s

// CHECK: error: loop-tile: size must be a positive integer, found 0
func.func @f() {
  func.return
}
