"""The hand-written Loop IR programs of the lit tests compute the same after each pass.

Every function of test/filecheck/passes/{loop-fuse,loop-licm,loop-simplify}/*.mlir whose
arguments are rank-1 buffers and scalars runs in the interpreter before and after its
pass on sizes 0, 1, 7, 8, 9, 1000 and 1009 (buffers of that length, index arguments equal
to it): results and every buffer must be bit-identical (loop-simplify: floats within 4
ulps, since x**3 -> x*x*x rounds twice), or both runs must fail alike (a program that
reads past a short buffer, or divides by zero).
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import pytest
from corpus import SIZES
from lowering_harness import lowering_context
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from loopopt.dialects import df
from loopopt.dialects.loop import BufType
from loopopt.interp.dtypes import numpy_dtype
from loopopt.interp.runner import make_interpreter
from loopopt.passes.loop_fuse import LoopFusePass
from loopopt.passes.loop_licm import LoopLICMPass
from loopopt.passes.loop_simplify import LoopSimplifyPass

LIT = Path(__file__).resolve().parents[2] / "filecheck" / "passes"
FILES: dict[str, ModulePass] = {
    "loop-fuse/fuse.mlir": LoopFusePass(),
    "loop-fuse/gates.mlir": LoopFusePass(allow_control_flow_simple=True, allow_broadcast_identity=True),
    "loop-licm/licm.mlir": LoopLICMPass(),
    "loop-simplify/fold.mlir": LoopSimplifyPass(),
    "loop-simplify/rules.mlir": LoopSimplifyPass(),
}


def _context():
    ctx = lowering_context()
    from xdsl.dialects.math import Math
    from xdsl.dialects.scf import Scf

    for d in (Math, Scf, df.DF):
        if d.name not in ctx.registered_dialect_names:
            ctx.load_dialect(d)
    return ctx


UNINTERPRETED = ("math.fpowi",)
"""Ops the lane-wise interpreter has no semantics for (the before-program cannot run)."""


def _runnable(func: FuncOp) -> bool:
    types = func.function_type.inputs.data
    if any(op.name in UNINTERPRETED for op in func.walk()):
        return False
    return bool(func.body.blocks) and all(not isinstance(t, BufType) or t.rank.data == 1 for t in types)


def programs():
    for rel, p in FILES.items():
        for k, chunk in enumerate((LIT / rel).read_text().split("// -----")):
            module = Parser(_context(), chunk, rel).parse_module()
            for func in module.walk():
                if isinstance(func, FuncOp) and _runnable(func):
                    yield pytest.param(rel, k, func.sym_name.data, p, id=f"{rel}::{func.sym_name.data}")


def _args(func: FuncOp, n: int, rng: np.random.Generator) -> list:
    args = []
    for t in func.function_type.inputs.data:
        if isinstance(t, BufType):
            dt = numpy_dtype(t.element_type)
            args.append(rng.integers(-1000, 1000, n).astype(dt) if dt.kind == "i" else rng.uniform(-1, 1, n).astype(dt))
        elif isinstance(t, IndexType):
            args.append(np.int64(n))
        else:
            dt = numpy_dtype(t)
            args.append(dt.type(rng.integers(-5, 5)) if dt.kind in "ib" else dt.type(rng.uniform(-1, 1)))
    return args


def _run(module: ModuleOp, name: str, args: list):
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with np.errstate(all="ignore"):
            results = tuple(make_interpreter(module).call_op(name, tuple(copies)))
    except Exception as e:  # noqa: BLE001 - both versions must fail alike
        return type(e).__name__
    return results, [c for c in copies if isinstance(c, np.ndarray)]


@pytest.mark.parametrize("rel, chunk, name, pass_", list(programs()))
def test_pass_keeps_program_results(rel, chunk, name, pass_):
    text = (LIT / rel).read_text().split("// -----")[chunk]
    before = Parser(_context(), text, rel).parse_module()
    after = before.clone()
    pass_.apply(_context(), after)
    after.verify()
    func = next(f for f in before.walk() if isinstance(f, FuncOp) and f.sym_name.data == name)
    failed = 0
    for n in SIZES:
        args = _args(func, n, np.random.default_rng(zlib.crc32(f"{rel}:{name}:{n}".encode())))
        want, got = _run(before, name, args), _run(after, name, args)
        if isinstance(want, str):
            assert got == want, f"{name} n={n}: before failed with {want}, after gave {got}"
            failed += 1
            continue
        assert not isinstance(got, str), f"{name} n={n}: after failed with {got}"
        for w, g in zip(want[0] + tuple(want[1]), got[0] + tuple(got[1]), strict=True):
            w, g = np.asarray(w), np.asarray(g)
            if isinstance(pass_, LoopSimplifyPass) and w.dtype.kind == "f":
                np.testing.assert_array_max_ulp(g, w, maxulp=4)
            else:
                np.testing.assert_array_equal(g, w, err_msg=f"{name} n={n}")
    assert failed < len(SIZES) or name == "no_fold_div_zero", f"{name}: no size ran"
