"""xdsl_fastpaths: the memoized trait lookups and signature checks answer as xDSL does."""

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i32
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
