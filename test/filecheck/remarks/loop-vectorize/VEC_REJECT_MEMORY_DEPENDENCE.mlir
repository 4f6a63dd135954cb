// Iteration i writes b[i + 1], which iteration i + 1 reads.
func.func @smear(%b: !loop.buf<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  loop.for %i in [%c0, %n) {
    %x = loop.load %b[%i] : !loop.buf<f32>
    %y = arith.addf %x, %x : f32
    loop.store %y, %b[%i + 1] : !loop.buf<f32>
  }
  func.return
}

// RUN: loop-opt %s -p 'loop-vectorize{remarks=true}' 2>&1 >/dev/null | filecheck %s
// CHECK: {{.*}}VEC_REJECT_MEMORY_DEPENDENCE.mlir:7:5: remark: VEC_REJECT_MEMORY_DEPENDENCE: the buffer written here is also accessed by loop.load at another index (a loop-carried dependence through memory)
