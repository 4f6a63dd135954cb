// RUN: not loop-opt %s -p 'loop-tile{size=0}' 2>&1 | filecheck %s

// CHECK: error: loop-tile: option size=0 is out of range [1, 1048576]
func.func @f() {
  func.return
}
