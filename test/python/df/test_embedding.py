"""loopopt's df dialect embedded in a separate xDSL compiler (its own Context and pipeline).

A downstream compiler needs only `loopopt.dialects.df.DF` (or the registry) to parse, verify,
transform and print df programs; once loopopt's passes exist this test grows them into the
pipeline.
"""

from __future__ import annotations

import io

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.printer import Printer
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from loopopt.dialects.df import DF
from loopopt.registry import get_all_dialects

PROGRAM = """
func.func @dot(%x: !df.array<f32, [i]>, %y: !df.array<f32, [i]>) -> f32 {
  %zero = arith.constant 0.0 : f32
  %unused = df.constant 1.0 : f32
  %p = df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    df.yield %m : f32
  }
  %dead = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%a: f32):
    df.yield %a : f32
  }
  %s = df.reduce add(%p, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %s : f32
}
"""

def _compile(ctx: Context, text: str) -> str:
    module = Parser(ctx, text).parse_module()
    module.verify()
    PassPipeline((CanonicalizePass(), DeadCodeElimination())).apply(ctx, module)
    module.verify()
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_separate_compiler_parses_transforms_and_prints_df():
    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, DF):
        ctx.load_dialect(d)
    printed = _compile(ctx, PROGRAM)
    # pure df ops without uses are dead code; the rest survives unchanged
    assert "%unused" not in printed and "%dead" not in printed
    assert "df.map %x, %y : !df.array<f32, [i]>, !df.array<f32, [i]> -> !df.array<f32, [i]>" in printed
    assert "df.reduce add(" in printed and "over [i] reassoc" in printed
    # what it prints, it parses again to the same text
    assert _compile(ctx, printed) == printed

def test_registry_factory_gives_the_same_dialect():
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(func.Func)
    ctx.load_dialect(arith.Arith)
    ctx.register_dialect("df", get_all_dialects()["df"])
    module = Parser(ctx, PROGRAM).parse_module()
    assert isinstance(module, ModuleOp)
    assert get_all_dialects()["df"]() is DF

def test_random_blocks_dead_code_elimination():
    """df.random is effectful: even unused, it is not erased (and it makes its map keep it)."""
    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, DF):
        ctx.load_dialect(d)
    printed = _compile(ctx, """
func.func @f(%n: i64) {
  %r = df.random %n : !df.array<f32, [i]>
  func.return
}
""")
    assert "df.random" in printed
