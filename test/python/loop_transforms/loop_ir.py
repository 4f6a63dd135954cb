"""Helpers of the Loop IR transform tests: parse Loop IR, apply pipelines, lower the df corpus,
run kernels before and after, and list why loops stayed scalar."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline

from loopopt.dialects import loop
from loopopt.lowering.abi import BufferArg, call_loop_kernel, find_kernel, kernel_args
from loopopt.passes.loop_surgery import is_innermost, zip_as_for
from loopopt.passes.vectorize_legality import Candidate, vectorization_decline
from loopopt.registry import get_all_passes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "df"))
from corpus import CorpusCase, load_corpus  # noqa: E402

CASES: list[CorpusCase] = load_corpus()


def context() -> Context:
    from loopopt.dialects.df import DF
    from loopopt.dialects.loop import Loop

    ctx = Context()
    for d in (Builtin, func.Func, arith.Arith, math.Math, DF, Loop):
        ctx.load_dialect(d)
    return ctx


def parse(text: str) -> ModuleOp:
    module = Parser(context(), text).parse_module()
    module.verify()
    return module


def transformed(module: ModuleOp, pipeline: str) -> ModuleOp:
    """A verified copy of `module` after `pipeline` (a loop-opt pass pipeline string)."""
    out = module.clone()
    PassPipeline.parse_spec(get_all_passes(), pipeline).apply(context(), out)
    out.verify()
    return out


@cache
def lowered(path: Path) -> ModuleOp:
    """The corpus file lowered to Loop IR (shared: clone before mutating)."""
    from loopopt.lowering.df_to_loop.convert import ConvertDFToLoopPass

    from loopopt.diagnostics import LoopoptDiagnostic
    from loopopt.passes.df_fuse import DFFusePass

    module = load_module(path).clone()
    try:
        ConvertDFToLoopPass().apply(context(), module)
    except LoopoptDiagnostic as e:
        if "rank-3 arrays are only supported fused" not in str(e):
            raise
        # a matrix product's rank-3 products exist only fused into their reduction
        module = load_module(path).clone()
        DFFusePass().apply(context(), module)
        ConvertDFToLoopPass().apply(context(), module)
    module.verify()
    return module


@cache
def lowered_and_transformed(path: Path, pipeline: str) -> ModuleOp:
    """`transformed(lowered(path), pipeline)`, computed once per file and pipeline (do not mutate)."""
    return transformed(lowered(path), pipeline)


def load_module(path: Path) -> ModuleOp:
    return next(c for c in CASES if c.path == path).module()


def output_extents(case: CorpusCase, module: ModuleOp, ref: tuple[Any, ...]) -> dict[str, int]:
    """Extents of output axes no input has (a range's), read off the reference results."""
    extents: dict[str, int] = {}
    for a in kernel_args(find_kernel(module, case.kernel)):
        if not isinstance(a, BufferArg) or not a.output or a.result is None or a.capacity is not None:
            continue
        value = ref[a.result]
        if isinstance(value, dict):
            value = value[a.field]
        extents.update(zip(a.axes, np.shape(value)))
    return extents


def run_lowered(case: CorpusCase, module: ModuleOp, inputs: dict[str, Any]) -> tuple[Any, ...]:
    ref = case.reference(inputs)
    return call_loop_kernel(module, case.kernel, case.args(inputs), output_extents(case, module, ref))


def assert_same(before: Any, after: Any, what: str) -> None:
    """Bit-exact equality (NaNs equal), through records (dicts) and tuples."""
    if isinstance(before, dict):
        assert isinstance(after, dict) and list(after) == list(before), what
        for f in before:
            assert_same(before[f], after[f], f"{what}.{f}")
    elif isinstance(before, tuple):
        assert isinstance(after, tuple) and len(after) == len(before), what
        for k, (b, a) in enumerate(zip(before, after, strict=True)):
            assert_same(b, a, f"{what}[{k}]")
    else:
        b, a = np.asarray(before), np.asarray(after)
        assert a.dtype == b.dtype and a.shape == b.shape, f"{what}: {a.dtype}{a.shape} vs {b.dtype}{b.shape}"
        np.testing.assert_array_equal(a, b, err_msg=what)


def is_float_scalar(value: Any) -> bool:
    return not isinstance(value, dict | tuple) and np.ndim(value) == 0 and np.issubdtype(
        np.asarray(value).dtype, np.floating
    )


def has_floats(value: Any) -> bool:
    """Any float array or scalar in a result (through records and tuples)."""
    if isinstance(value, dict):
        return any(has_floats(v) for v in value.values())
    if isinstance(value, tuple):
        return any(has_floats(v) for v in value)
    return bool(np.issubdtype(np.asarray(value).dtype, np.floating))


def kernel_op(module: ModuleOp, name: str) -> func.FuncOp:
    return find_kernel(module, name)


def vector_loops(op) -> list[loop.VecLoopOp | loop.PredLoopOp]:
    """vecloops and predloops of width other than 1 in `op`."""
    return [
        o
        for o in op.walk()
        if isinstance(o, loop.VecLoopOp) or (isinstance(o, loop.PredLoopOp) and o.width.concrete != 1)
    ]


def scalar_innermost(op) -> list[loop.LoopLike]:
    """Innermost loops still scalar (for, zip, width-1 predloop)."""
    return [
        o
        for o in op.walk()
        if (isinstance(o, loop.ForOp | loop.ZipOp) or (isinstance(o, loop.PredLoopOp) and o.width.concrete == 1))
        and is_innermost(o)
    ]


def decline_codes(op) -> list[str]:
    """The decline code of every innermost loop in `op` that is still scalar."""
    codes: list[str] = []
    for o in scalar_innermost(op):
        if isinstance(o, loop.ZipOp):
            scalar = zip_as_for(o)
            decline = vectorization_decline(Candidate.of(scalar, located_at=o))
            scalar.erase()
        else:
            decline = vectorization_decline(Candidate.of(o))
        codes.append(decline.code.value if decline else "VECTORIZABLE")
    return codes
