"""xdsl_fastpaths: the memoized trait lookups and signature checks answer as xDSL does."""

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, SymbolRefAttr, i32
from xdsl.ir import Block, Region
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

import loopopt.diagnostics  # noqa: F401  (installs the fast paths)
from loopopt import xdsl_fastpaths


def test_installed_by_diagnostics():
    assert xdsl_fastpaths._installed


def test_trait_lookups_follow_the_class_and_added_traits():
    assert arith.AddiOp.has_trait(Pure)
    assert not arith.AddiOp.has_trait(IsTerminator)
    assert func.ReturnOp.get_traits_of_type(IsTerminator) == [func.ReturnOp.get_trait(IsTerminator)]
    first = arith.AddiOp.get_traits_of_type(Pure)
    first.clear()  # callers get their own list
    assert arith.AddiOp.get_traits_of_type(Pure)

    class Probe(IsTerminator):
        pass

    assert not test.TestOp.has_trait(Probe)
    test.TestOp.traits.add_trait(Probe())
    try:
        assert test.TestOp.has_trait(Probe)  # a new trait set is not answered from the memo
    finally:
        test.TestOp.traits._traits = test.TestOp.traits.traits - {t for t in test.TestOp.traits if isinstance(t, Probe)}
    assert not test.TestOp.has_trait(Probe)


def test_a_remembered_signature_still_runs_the_traits():
    """Two returns of one signature: the one outside a func still fails HasParent."""
    ok = func.ReturnOp()
    func.FuncOp("f", ((), ()), Region(Block([ok])))
    ok.verify()
    stray = func.ReturnOp()
    ModuleOp([stray])
    assert func.ReturnOp.has_trait(HasParent)
    with pytest.raises(VerifyException, match="expects parent op"):
        stray.verify()


def test_a_failing_signature_fails_every_time():
    bad = arith.AddiOp.create(
        operands=[], result_types=[i32], properties={}, attributes={}
    )
    for _ in range(2):
        with pytest.raises(VerifyException, match="operand"):
            bad.verify()


def test_an_equal_signature_with_other_values_verifies_alike():
    c1 = arith.ConstantOp(IntegerAttr(1, IndexType()))
    c2 = arith.ConstantOp(IntegerAttr(1, IndexType()))
    ModuleOp([c1, c2]).verify()
    wrong = arith.ConstantOp.create(properties={"value": IntegerAttr(1, i32)}, result_types=[IndexType()])
    with pytest.raises(VerifyException):
        wrong.verify()


_OPTED_OUT_RUN = """
import sys
from xdsl.ir import Operation
from xdsl.irdl.operations import OpDef
import loopopt.compile as lc
from loopopt import xdsl_fastpaths
from loopopt.targets.c import emit_c
from loopopt.tools.bench.overhead import generated_module

ctx = lc.make_context()
module = lc.parse(generated_module(60), ctx, "t")
lc.run_pipeline(module, "loop-pipeline{target=avx2}", ctx)
assert not xdsl_fastpaths._installed
assert OpDef.verify.__module__ == "xdsl.irdl.operations", OpDef.verify.__module__
assert Operation.get_trait.__func__.__module__ == "xdsl.ir.core"
sys.stdout.write(emit_c(module, "avx2"))
"""


def test_opt_out_leaves_xdsl_unpatched_and_compiles_the_same_c():
    """LOOPOPT_NO_FASTPATHS=1: xDSL's own methods run the whole pipeline, to the same C."""
    import os
    import subprocess
    import sys

    import loopopt.compile as lc
    from loopopt.targets.c import emit_c
    from loopopt.tools.bench.overhead import generated_module

    env = dict(os.environ, **{xdsl_fastpaths.OPT_OUT_VARIABLE: "1"})
    out = subprocess.run([sys.executable, "-c", _OPTED_OUT_RUN], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    ctx = lc.make_context()
    module = lc.parse(generated_module(60), ctx, "t")
    lc.run_pipeline(module, "loop-pipeline{target=avx2}", ctx)
    assert xdsl_fastpaths._installed
    assert out.stdout == emit_c(module, "avx2")


def test_opted_out_reads_the_variable(monkeypatch):
    monkeypatch.delenv(xdsl_fastpaths.OPT_OUT_VARIABLE, raising=False)
    assert not xdsl_fastpaths.opted_out()
    monkeypatch.setenv(xdsl_fastpaths.OPT_OUT_VARIABLE, "0")
    assert not xdsl_fastpaths.opted_out()
    monkeypatch.setenv(xdsl_fastpaths.OPT_OUT_VARIABLE, "1")
    assert xdsl_fastpaths.opted_out()


def _both_ways(cls, **kwargs):
    """The op built by the installed fast irdl_op_init and by xDSL's own."""
    from xdsl.irdl import operations as irdl_operations

    assert irdl_operations.irdl_op_init is not xdsl_fastpaths._XDSL_OP_INIT
    args = dict(operands=[], result_types=[], properties={}, attributes={}, successors=[], regions=[]) | kwargs
    fast, slow = cls.__new__(cls), cls.__new__(cls)
    irdl_operations.irdl_op_init(fast, cls.get_irdl_definition(), **args)
    xdsl_fastpaths._XDSL_OP_INIT(slow, cls.get_irdl_definition(), **args)
    return fast, slow


def _same(fast, slow):
    assert list(fast.operands) == list(slow.operands)
    assert [r.type for r in fast.results] == [r.type for r in slow.results]
    assert fast.properties == slow.properties and fast.attributes == slow.attributes
    assert len(fast.regions) == len(slow.regions) and list(fast.successors) == list(slow.successors)


def _error(build):
    try:
        build()
    except Exception as e:  # noqa: BLE001 - the exception itself is compared
        return type(e), str(e)
    return None


def test_op_init_builds_what_xdsl_builds():
    from xdsl.dialects.builtin import VectorType, f32

    from loopopt.dialects import simd

    vt = VectorType(f32, [8])
    block = Block(arg_types=[vt, vt, vt, i32, i32])
    a, b, c, x, y = block.args
    const = arith.ConstantOp(IntegerAttr(3, i32))
    cases = [
        (simd.FmaOp, dict(operands=[a, b, c], result_types=[vt])),
        (simd.FmaOp, dict(operands=[[a], (b,), c], result_types=[[vt]])),  # 1-element sequences
        (arith.AddiOp, dict(operands=[x, const], result_types=[i32], properties={"overflowFlags": None})),
        (arith.AddiOp, dict(operands=[x, y], result_types=[i32], attributes={"tag": IntegerAttr(1, i32), "none": None})),
        (func.ReturnOp, dict(operands=[[x, y]])),  # variadic
        (func.ReturnOp, dict(operands=[(x, const)])),  # values and ops
        (func.CallOp, dict(operands=[[x]], result_types=[[i32, i32]],
                           properties={"callee": SymbolRefAttr("f")})),  # fmt: skip
    ]
    for cls, kwargs in cases:
        fast, slow = _both_ways(cls, **kwargs)
        _same(fast, slow)
        assert list(fast.operands)[0].uses  # the fast op registered its uses
    fast, slow = (test.TestOp(operands=[x], result_types=[i32], regions=[Region()]) for _ in range(2))
    _same(fast, slow)  # regions: xDSL's path


def test_op_init_errors_are_xdsls():
    from xdsl.irdl import operations as irdl_operations

    block = Block(arg_types=[i32, i32])
    x, y = block.args
    bad = [
        dict(operands=[x], result_types=[i32]),  # too few operands
        dict(operands=[x, [x, y]], result_types=[i32]),  # a sequence for a single operand
        dict(operands=[x, y], result_types=[None]),  # None for a required result
        dict(operands=[x, y], result_types=[]),
        dict(operands=[x, y], result_types=[i32], successors=[[block]]),
    ]
    for kwargs in bad:
        args = dict(properties={}, attributes={}, successors=[], regions=[]) | kwargs
        op_def = arith.AddiOp.get_irdl_definition()
        fast = _error(lambda: irdl_operations.irdl_op_init(arith.AddiOp.__new__(arith.AddiOp), op_def, **args))
        slow = _error(lambda: xdsl_fastpaths._XDSL_OP_INIT(arith.AddiOp.__new__(arith.AddiOp), op_def, **args))
        assert fast is not None and fast == slow, (kwargs, fast, slow)


def test_op_init_sequence_answers_follow_abc_register():
    """A result argument of a new class counts as one type until it is registered as a
    Sequence, then as the types it holds, in both builders."""
    from collections.abc import Sequence

    class Types:
        def __init__(self, *types):
            self.types = types

        def __len__(self):
            return len(self.types)

        def __iter__(self):
            return iter(self.types)

        def __getitem__(self, i):
            return self.types[i]

    block = Block(arg_types=[i32])
    (x,) = block.args
    pair = Types(i32)
    call = dict(operands=[[x]], result_types=[pair], properties={"callee": SymbolRefAttr("f")})
    assert func.CallOp.get_irdl_definition().options == []  # the fast path builds it
    fast, slow = _both_ways(func.CallOp, **call)
    assert fast.results[0].type is pair and slow.results[0].type is pair  # one "type": not a Sequence yet
    Sequence.register(Types)
    fast, slow = _both_ways(func.CallOp, **call)
    _same(fast, slow)
    assert fast.results[0].type == i32  # now the types it holds
