"""A separate small xDSL compiler that imports loopopt's dialects and passes.

It owns its Context and its PassPipeline, mixes xDSL's own passes with loopopt's (built
from their dataclasses, and from a pipeline string through the registry), and runs the
result — the way another xDSL/MLIR-style compiler would embed loopopt.
"""

from __future__ import annotations

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.transforms.canonicalize import CanonicalizePass

from loopopt.dialects.df import DF
from loopopt.dialects.loop import Loop
from loopopt.interp.runner import run_function
from loopopt.lowering.abi import call_loop_kernel
from loopopt.lowering.df_to_loop.convert import ConvertDFToLoopPass
from loopopt.passes.df_fuse import DFFusePass
from loopopt.registry import get_all_passes

SOURCE = """
func.func @norm2(%x: !df.array<f32, [i]>, %s: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %y = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %s : f32
    df.yield %m : f32
  }
  %sq = df.map %y : !df.array<f32, [i]> -> !df.array<f32, [i]> {
  ^bb0(%e: f32):
    %m = arith.mulf %e, %e : f32
    df.yield %m : f32
  }
  %r = df.reduce add(%sq, %zero) over [i] reassoc : !df.array<f32, [i]> -> f32
  func.return %r : f32
}
"""


def my_context() -> Context:
    """The embedding compiler's own context: xDSL's dialects it uses plus loopopt's."""
    ctx = Context()
    for dialect in (Builtin, func.Func, arith.Arith, math.Math, DF, Loop):
        ctx.load_dialect(dialect)
    return ctx


def parse(ctx: Context) -> ModuleOp:
    module = Parser(ctx, SOURCE).parse_module()
    module.verify()
    return module


def test_pipeline_of_pass_objects_fuses_and_lowers():
    ctx = my_context()
    module = parse(ctx)
    PassPipeline((CanonicalizePass(), DFFusePass(), ConvertDFToLoopPass())).apply(ctx, module)
    module.verify()
    assert not any(op.dialect_name() == "df" for op in module.walk())
    loops = [op for op in module.walk() if op.name == "loop.for"]
    assert len(loops) == 1, "map -> map -> reduce must become one loop"

    x = np.random.default_rng(0).standard_normal(101).astype(np.float32)
    (got,) = call_loop_kernel(module, "norm2", [x, np.float32(0.5)])
    (expected,) = run_function(parse(my_context()), "norm2", x, np.float32(0.5))
    assert abs(float(got) - float(expected)) <= 4 * 101 * np.finfo(np.float32).eps * float(np.sum((0.5 * x) ** 2))


def test_pipeline_string_through_the_registry():
    ctx = my_context()
    module = parse(ctx)
    available = {**get_all_passes(), "canonicalize": lambda: CanonicalizePass}
    PassPipeline.parse_spec(available, "canonicalize,df-fuse{remarks=false},convert-df-to-loop").apply(ctx, module)
    module.verify()
    assert [op.name for op in module.walk() if op.name.startswith("loop.for")] == ["loop.for"]
