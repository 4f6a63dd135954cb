"""loop_dependencies on seed 004's matmul nest, in its accumulator and in its load/store form."""

from __future__ import annotations

from lowering_harness import lowering_context
from xdsl.ir import Operation
from xdsl.parser import Parser

from loopopt.dialects import loop
from loopopt.passes.loop_deps import loop_dependencies

MATMUL = """
func.func @matmul(%A: !loop.buf<f32, 2>, %B: !loop.buf<f32, 2>, %C: !loop.buf<f32, 2>, %D: !loop.buf<f32, 2>) {
  %c0 = arith.constant 0 : index
  %M = loop.dim %A, 0 : !loop.buf<f32, 2>
  %K = loop.dim %A, 1 : !loop.buf<f32, 2>
  %N = loop.dim %B, 1 : !loop.buf<f32, 2>
  %z = arith.constant 0.0 : f32
  loop.for %m in [%c0, %M) {
    loop.for %n in [%c0, %N) {
      %s = loop.for %k in [%c0, %K) accs(%acc = %z : f32 add) attributes {name = "kloop"} {
        %a = loop.load %A[%m, %k] {name = "a"} : !loop.buf<f32, 2>
        %b = loop.load %B[%k, %n] {name = "b"} : !loop.buf<f32, 2>
        %p = arith.mulf %a, %b {name = "p"} : f32
        %t = arith.addf %acc, %p {name = "t"} : f32
        loop.yield %t : f32
      }
      loop.store %s, %C[%m, %n] {name = "store"} : !loop.buf<f32, 2>
      loop.store %z, %D[%m, %n] {name = "zero"} : !loop.buf<f32, 2>
      loop.for %k in [%c0, %K) {
        %d = loop.load %D[%m, %n] {name = "d"} : !loop.buf<f32, 2>
        %a = loop.load %A[%m, %k] : !loop.buf<f32, 2>
        %b = loop.load %B[%k, %n] : !loop.buf<f32, 2>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %d, %p {name = "dt"} : f32
        loop.store %t, %D[%m, %n] {name = "dstore"} : !loop.buf<f32, 2>
      }
    }
  }
  func.return
}
"""


def _ops():
    module = Parser(lowering_context(), MATMUL).parse_module()
    module.verify()
    named: dict[str, Operation] = {}
    for op in module.walk():
        if "name" in op.attributes:
            named[op.attributes["name"].data] = op  # type: ignore[attr-defined]
    loops = [op for op in module.walk() if isinstance(op, loop.ForOp)]
    m, n, k, k2 = (L.var for L in loops)
    return named, m, n, k, k2


def test_matmul_accumulator_form():
    ops, m, n, k, _ = _ops()
    assert loop_dependencies(ops["a"]) == {m, k}
    assert loop_dependencies(ops["b"]) == {k, n}
    assert loop_dependencies(ops["p"]) == {m, k, n}
    assert loop_dependencies(ops["t"]) == {m, k, n}  # reads the accumulator
    assert loop_dependencies(ops["kloop"]) == {m, n}  # the reduction's result
    assert loop_dependencies(ops["store"]) == {m, n}
    assert loop_dependencies(ops["zero"]) == {m, n}


def test_load_of_a_buffer_stored_in_the_loop_depends_on_it():
    """D[m, n] is read and written in the k loop: the load changes with k."""
    ops, m, n, _, k2 = _ops()
    assert loop_dependencies(ops["d"]) == {m, n, k2}
    assert loop_dependencies(ops["dt"]) == {m, n, k2}
    assert loop_dependencies(ops["dstore"]) == {m, n, k2}
