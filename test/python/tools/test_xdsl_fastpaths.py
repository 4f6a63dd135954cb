"""xdsl_fastpaths: the memoized trait lookups and signature checks answer as xDSL does."""

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, SymbolRefAttr, i32
from xdsl.ir import Block, Region
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

import loopopt.diagnostics  # noqa: F401  (installs the fast paths)
from loopopt import xdsl_fastpaths
from loopopt.xdsl_fastpaths import attributes, construction, ir_structure, lexing, readers, signatures


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


def test_a_remembered_signature_checks_the_regions_again():
    """scf.for's body is a single-block region: the same signature with two blocks fails."""
    from xdsl.dialects import scf

    def loop(blocks):
        lb = arith.ConstantOp(IntegerAttr(0, IndexType()))
        body = Region([Block([scf.YieldOp()], arg_types=[IndexType()])])
        for _ in range(blocks - 1):
            body.add_block(Block([scf.YieldOp()]))
        return scf.ForOp(lb, lb, lb, [], body)

    for _ in range(2):
        loop(1).get_irdl_definition().verify(loop(1))
        with pytest.raises(VerifyException, match="expected a single block, but got 2 blocks"):
            scf.ForOp.get_irdl_definition().verify(loop(2))


def _post_init_error(cls, *args):
    """The error building `cls(*args)` raises with the installed post-init and with xDSL's."""
    from xdsl.ir import Attribute

    fast = _error(lambda: cls(*args))
    installed = Attribute.__post_init__
    Attribute.__post_init__ = attributes._XDSL_ATTRIBUTE_POST_INIT
    try:
        slow = _error(lambda: cls(*args))
    finally:
        Attribute.__post_init__ = installed
    return fast, slow


def test_bad_attributes_raise_xdsls_error_every_time():
    from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerType, StringAttr, VectorType, f32

    from loopopt.dialects.df import ArrayType

    assert attributes._XDSL_ATTRIBUTE_POST_INIT is not __import__("xdsl").ir.Attribute.__post_init__
    good = [(IntegerType, 32), (VectorType, f32, [8]), (ArrayType, f32, ArrayAttr([StringAttr("i")]))]
    bad = [
        (IntegerType, -1),  # the class's verify()
        (IntegerAttr.new, [IntAttr(1), f32]),  # a parameter constraint
        (VectorType.new, [f32, ArrayAttr([StringAttr("x")]), ArrayAttr([])]),
        (IntegerAttr, 300, IntegerType(8)),  # a value out of range
    ]
    for _ in range(2):  # the second time from the memo for the good ones
        for cls, *args in good:
            assert _post_init_error(cls, *args) == (None, None)
            assert cls(*args) == cls(*args)
        for cls, *args in bad:
            fast, slow = _post_init_error(cls, *args)
            assert fast is not None and fast == slow, (cls, fast, slow)
    # an attribute equal to a good one, but built bad through ParametrizedAttribute.new
    with pytest.raises(VerifyException):
        IntegerType.new([IntAttr(-1), IntegerType(32).signedness])
    assert IntegerType.new([IntAttr(32), IntegerType(32).signedness]) == IntegerType(32)


def test_data_attributes_still_run_their_verify():
    from xdsl.ir import Data
    from xdsl.irdl import irdl_attr_definition

    calls = []

    @irdl_attr_definition
    class Probe(Data[int]):
        name = "test.fastpath_probe"

        @classmethod
        def parse_parameter(cls, parser):
            return parser.parse_integer()

        def print_parameter(self, printer):
            printer.print_int(self.data)

        def verify(self):
            calls.append(self.data)
            if self.data < 0:
                raise VerifyException("negative")

    Probe(1), Probe(1)
    assert calls == [1, 1]
    for _ in range(2):
        with pytest.raises(VerifyException, match="negative"):
            Probe(-1)

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
from xdsl.traits import IsolatedFromAbove
assert IsolatedFromAbove.verify.__module__ == "xdsl.traits"
from xdsl.dialects.builtin import DenseArrayBase
assert DenseArrayBase.get_values.__module__ == "xdsl.dialects.builtin"
from xdsl.parser.generic_parser import GenericParser
assert GenericParser._consume_token.__module__ == "xdsl.parser.generic_parser"
assert OpDef.verify.__module__ == "xdsl.irdl.operations", OpDef.verify.__module__
assert Operation.get_trait.__func__.__module__ == "xdsl.ir.core"
from xdsl.ir import Attribute
assert Attribute.__post_init__.__module__ == "xdsl.ir.core"
assert Operation.walk.__module__ == "xdsl.ir.core"
assert Operation.verify.__module__ == "xdsl.ir.core"
from xdsl.utils.mlir_lexer import MLIRLexer
assert MLIRLexer.lex.__module__ == "xdsl.utils.mlir_lexer"
from xdsl.irdl.operations import IRDLOperation
assert IRDLOperation.__post_init__.__module__ == "xdsl.irdl.operations"
from xdsl.ir.core import IRWithName
assert IRWithName.extract_valid_name.__func__.__module__ == "xdsl.ir.core"
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


def _both_ways(cls, make=None, **kwargs):
    """The op built by the installed fast irdl_op_init and by xDSL's own (from the arguments
    `make()` gives, called once per builder: a region is attached to one op only)."""
    from xdsl.irdl import operations as irdl_operations

    assert irdl_operations.irdl_op_init is not construction._XDSL_OP_INIT
    make = make or (lambda: kwargs)
    base = dict(operands=[], result_types=[], properties={}, attributes={}, successors=[], regions=[])
    fast, slow = cls.__new__(cls), cls.__new__(cls)
    irdl_operations.irdl_op_init(fast, cls.get_irdl_definition(), **(base | make()))
    construction._XDSL_OP_INIT(slow, cls.get_irdl_definition(), **(base | make()))
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
    _same(fast, slow)


def _region_cases():
    """Region arguments both builders take: `Region`s (the fast path) and what only xDSL's
    builder converts (lists of ops or blocks, None), for ops without options or successors."""
    from xdsl.dialects.builtin import FunctionType, StringAttr

    from loopopt.dialects import df

    fn_props = {"sym_name": StringAttr("f"), "function_type": FunctionType.from_lists([], [])}
    return [
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[Region(Block([func.ReturnOp()]))])),
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[[func.ReturnOp()]])),  # a list of ops
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[[Block([func.ReturnOp()])]])),  # of blocks
        (df.FilterOp, lambda: dict(operands=[[]], result_types=[[]], regions=[Region(Block()), Region()])),
        (test.TestOp, lambda: dict(operands=[[]], result_types=[[]], regions=[[Region(), Region(Block())]])),
        (test.TestOp, lambda: dict(operands=[[]], result_types=[[]], regions=[Region(Block())])),  # one for variadic
        (test.TestOp, lambda: dict(operands=[[]], result_types=[[]], regions=[None])),
    ]


def test_op_init_with_regions_builds_what_xdsl_builds():
    """Ops with regions (df.map, df.filter, func.func while parsing; loop.for in the lowering)
    take the fast builder when every region argument is a Region: the same regions, attached
    in the same order, as xDSL's builder gives."""
    for cls, make in _region_cases():
        fast, slow = _both_ways(cls, make)
        _same(fast, slow)
        assert [len(r.blocks) for r in fast.regions] == [len(r.blocks) for r in slow.regions]
        assert [[type(o) for o in r.walk()] for r in fast.regions] == [[type(o) for o in r.walk()] for r in slow.regions]
        assert all(r.parent is fast for r in fast.regions)
    region = Region(Block([func.ReturnOp()]))
    fast, _ = _both_ways(test.TestOp, lambda: dict(operands=[[]], result_types=[[]], regions=[region]
                                                   if region.parent is None else [Region()]))
    assert fast.regions == (region,)  # the argument itself, not a copy


def test_op_init_region_errors_are_xdsls():
    from xdsl.dialects.builtin import FunctionType, StringAttr
    from xdsl.irdl import operations as irdl_operations

    from loopopt.dialects import df

    fn_props = {"sym_name": StringAttr("f"), "function_type": FunctionType.from_lists([], [])}
    attached = Region(Block())
    test.TestOp(regions=[attached])
    bad = [
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[])),  # too few regions
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[Region(), Region()])),  # too many
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[None])),  # None for a required region
        (func.FuncOp, lambda: dict(properties=fn_props, regions=[attached])),  # a region with a parent
        (df.FilterOp, lambda: dict(operands=[[]], result_types=[[]], regions=[Region()])),
    ]
    base = dict(operands=[], result_types=[], properties={}, attributes={}, successors=[], regions=[])
    for cls, kwargs in bad:
        op_def = cls.get_irdl_definition()
        fast = _error(lambda: irdl_operations.irdl_op_init(cls.__new__(cls), op_def, **(base | kwargs())))
        slow = _error(lambda: construction._XDSL_OP_INIT(cls.__new__(cls), op_def, **(base | kwargs())))
        assert fast is not None and fast == slow, (cls, fast, slow)


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
        slow = _error(lambda: construction._XDSL_OP_INIT(arith.AddiOp.__new__(arith.AddiOp), op_def, **args))
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


def _use_list(value):
    """(operation, index) of each use, in the use list's order."""
    out, use = [], value.first_use
    while use is not None:
        out.append((use.operation, use.index))
        use = use._next_use
    return out


def test_operation_init_links_what_xdsl_links():
    """Same fields in the same order, same use-list order (a value used twice, a value
    already used), and xDSL's own __init__ for anything but a first build without successors."""
    from xdsl.ir import Operation

    assert Operation.__init__ is not construction._XDSL_OPERATION_INIT
    const = arith.ConstantOp(IntegerAttr(3, i32))
    block = Block(arg_types=[i32])
    (x,) = block.args
    fast, slow = arith.AddiOp.__new__(arith.AddiOp), arith.AddiOp.__new__(arith.AddiOp)
    kwargs = dict(operands=[x, x], result_types=[i32], properties={}, attributes={"tag": IntegerAttr(1, i32)})
    Operation.__init__(fast, **kwargs)
    construction._XDSL_OPERATION_INIT(slow, **kwargs)
    assert list(vars(fast)) == list(vars(slow))
    assert [list(vars(u)) for u in fast._operand_uses] == [list(vars(u)) for u in slow._operand_uses]
    assert [(op is slow, i) for op, i in _use_list(x)][:2] == [(True, 1), (True, 0)]  # built second: first
    assert [(op is fast, i) for op, i in _use_list(x)][2:] == [(True, 1), (True, 0)]
    assert fast.results[0].owner is fast and fast.results[0].type == i32 and fast.location == slow.location
    assert fast.attributes == slow.attributes and fast.properties == slow.properties
    users = [arith.AddiOp(const, x) for _ in range(3)]
    assert [op for op, _ in _use_list(const.result)] == users[::-1]  # the newest use first, as add_use links
    Operation.__init__(fast, operands=[const.result], result_types=[i32])  # a second __init__: xDSL's detaches the old uses
    assert list(fast.operands) == [const.result] and all(op is not fast for op, _ in _use_list(x))
    wrong = [_error(lambda: init(arith.AddiOp.__new__(arith.AddiOp), operands=[const], result_types=[i32]))
             for init in (Operation.__init__, construction._XDSL_OPERATION_INIT)]  # fmt: skip
    assert wrong[0] is not None and wrong[0] == wrong[1]  # an op for a value: xDSL's AttributeError


def test_operation_init_leaves_other_initializers_to_xdsl():
    """A mixin __init__ after Operation in the MRO is what xDSL's super().__init__() calls."""
    calls = []

    class Mixin:
        def __init__(self):
            calls.append(self)

    class Mixed(test.TestOp, Mixin):
        pass

    op = Mixed.create(operands=[], result_types=[i32])
    assert calls == [op]


def test_readers_answer_as_xdsl():
    from xdsl.ir import core as ir_core

    getitem, before_get, after_get, unknown_loc = readers._XDSL_READERS
    block = Block(arg_types=[i32, i32, i32])
    x, y, z = block.args
    values = ir_core.SSAValues([x, y, z])
    for idx in (0, 2, -1, slice(1, None), slice(None, None, -1)):
        assert values[idx] == getitem(values, idx)
    add = arith.AddiOp(x, y)
    for name in ("lhs", "rhs", "result"):
        accessor = type(add).__dict__[name]
        assert getattr(add, name) is before_get(accessor, add)
    call = func.CallOp("f", [x, y], [i32, i32])
    ret = func.ReturnOp(x, y)
    assert list(call.arguments) == [x, y] and list(ret.arguments) == [x, y]  # variadic: xDSL's accessors
    select = arith.SelectOp(x, y, z)
    assert select.cond is x and select.lhs is y and select.rhs is z
    with pytest.raises(IndexError):
        before_get(type(add).__dict__["lhs"], arith.AddiOp.create(operands=[], result_types=[i32]))
    with pytest.raises(IndexError):
        getattr(arith.AddiOp.create(operands=[], result_types=[i32]), "lhs")
    assert ir_core._unknown_loc() is unknown_loc()
    ops = [arith.ConstantOp(IntegerAttr(k, i32)) for k in range(4)]
    region = Region([Block(ops[:2]), Block(ops[2:])])
    assert list(region.blocks) == [region.blocks[0], region.blocks[1]]
    assert list(region.blocks[1].ops) == ops[2:] and list(reversed(region.blocks[0].ops)) == ops[1::-1]
    assert list(region.walk()) == ops


def test_remembered_attribute_hashes_are_the_dataclass_hashes():
    import copy
    import pickle

    from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr, VectorType, f32

    v = VectorType(f32, [8])
    assert type(v) in attributes._XDSL_HASHES
    generated = attributes._XDSL_HASHES[type(v)]
    assert hash(v) == generated(v) == hash(VectorType(f32, [8]))  # remembered, then fresh
    assert hash(v) == generated(v)
    for a in (StringAttr("x"), ArrayAttr([v, IntAttr(2)])):  # Data: the class's own hash
        assert type(a) not in attributes._XDSL_HASHES and hash(a) == hash(type(a)(a.data))
    # copies and pickles take the fields only (a string's hash differs between processes)
    for twin in (copy.copy(v), copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
        assert twin == v and attributes._HASH_KEY not in twin.__dict__
        assert hash(twin) == hash(v)


def _walk_both_ways(build, mutate):
    """The ops visited (by their tag) by the installed walk and by xDSL's, while `mutate`
    changes the IR at each visit."""
    from xdsl.ir import Operation

    installed = Operation.walk
    assert installed is not ir_structure._XDSL_WALK
    seen = []
    for walk in (installed, ir_structure._XDSL_WALK):
        Operation.walk = walk
        try:
            root, visited = build(), []
            for op in root.walk():
                visited.append(op.attributes.get("tag", op.name))
                mutate(op)
            seen.append(visited)
        finally:
            Operation.walk = installed
    return seen


def test_walk_visits_what_xdsl_visits_while_the_ir_changes():
    from xdsl.dialects.builtin import StringAttr

    def build():
        def op(tag, *regions):
            return test.TestOp(attributes={"tag": StringAttr(tag)}, regions=list(regions))

        inner = Region([Block([op("c"), op("d", Region(Block([op("e")])))]), Block([op("f")])])
        return ModuleOp([op("a"), op("b", inner), op("g"), op("h", Region(), Region(Block([op("i")])))])

    def erase_next_and_nest(op):
        tag = op.attributes.get("tag")
        if tag == StringAttr("c") and op.next_op is not None:
            op.next_op.detach()  # "d" is still visited: its walk read it when "c" was produced
        if tag == StringAttr("a"):
            op.add_region(Region(Block([test.TestOp(attributes={"tag": StringAttr("new")})])))
        if tag == StringAttr("g"):
            op.detach()  # the walk goes on from its successor, read when "g" was produced

    fast, slow = _walk_both_ways(build, erase_next_and_nest)
    assert fast == slow
    tags = [str(t) for t in fast]
    assert tags.count('"new"') == 1 and '"d"' in tags and '"h"' in tags
    fast, slow = _walk_both_ways(build, lambda op: None)
    assert fast == slow and len(fast) == 10
    m = build()
    assert list(m.walk(reverse=True)) == list(ir_structure._XDSL_WALK(m, reverse=True))
    assert list(m.walk(region_first=True)) == list(ir_structure._XDSL_WALK(m, region_first=True))


def test_dense_array_values_are_xdsls_and_stay_out_of_copies():
    import copy
    import pickle

    from xdsl.dialects.builtin import DenseArrayBase, f32, i8, i64

    assert DenseArrayBase.get_values is not attributes._XDSL_GET_VALUES
    for elt, values in ((i64, [1, -2, 3]), (i8, [-128, 127]), (f32, [1.5, -0.0]), (i64, [])):
        a = DenseArrayBase.from_list(elt, values)
        assert a.get_values() == attributes._XDSL_GET_VALUES(a) and type(a.get_values()) is tuple
        assert a.get_values() is a.get_values()  # remembered
        for twin in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
            assert attributes._VALUES_KEY not in twin.__dict__
            assert twin == a and twin.get_values() == a.get_values()


def _parse_outcome(text: str) -> str:
    import loopopt.compile as lc

    try:
        return str(lc.parse(text, lc.make_context(), "t.mlir"))
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"


def test_parser_token_readers_parse_as_xdsl():
    """The parser's token readers (xdsl_fastpaths.lexing.install_parser_tokens) give xDSL's modules and
    errors on every .mlir file of test/filecheck and examples, and on malformed text."""
    from pathlib import Path

    from xdsl.parser.base_parser import BaseParser
    from xdsl.parser.generic_parser import GenericParser

    names = [(GenericParser, "_consume_token"), (GenericParser, "_parse_optional_token"),
             (GenericParser, "parse_optional_characters"), (BaseParser, "parse_optional_punctuation"),
             (BaseParser, "parse_punctuation")]  # fmt: skip
    installed = [getattr(c, n) for c, n in names]
    assert all(f is not x for f, x in zip(installed, lexing._XDSL_PARSER_TOKENS))
    root = Path(__file__).resolve().parents[3]
    texts = [p.read_text(errors="replace") for folder in ("test/filecheck", "examples")
             for p in sorted((root / folder).rglob("*.mlir")) if "Output" not in p.parts]  # fmt: skip
    texts += ["func.func @f() {", "%x = arith.constant 1 : i32 )", "func.func @f(%a: i32 -> () {}",
              "builtin.module { func.func @f() -> i32 { %c = arith.constant 1 : i32 func.return %c : i32 } }",
              '"test.op"() {a = [1, 2} : () -> ()', "func.func @f() { func.return } }", "!df.array<f32, [i>"]  # fmt: skip
    assert len(texts) > 150
    errors = 0
    for text in texts:
        fast = _parse_outcome(text)
        for (c, n), f in zip(names, lexing._XDSL_PARSER_TOKENS):
            setattr(c, n, f)
        try:
            slow = _parse_outcome(text)
        finally:
            for (c, n), f in zip(names, installed):
                setattr(c, n, f)
        assert fast == slow, text[:300]
        errors += "Error" in fast.split(":")[0]
    assert errors >= 7


def _loaded_op_classes():
    import loopopt.compile as lc

    ctx = lc.make_context()
    loaded = {d.name for d in ctx.loaded_dialects}
    for name in sorted(ctx.registered_dialect_names):
        if name not in loaded:
            ctx.load_registered_dialect(name)
    return sorted(ctx.loaded_ops, key=lambda c: c.name)


def test_irdl_post_init_fills_xdsls_defaults():
    """IRDLOperation.__post_init__ with the defaults remembered per class fills the same
    properties and attributes (same values, same order) as xDSL's for every op class of
    loopopt's context, into empty dicts and around a value already given; a class whose MRO
    puts another __post_init__ after IRDLOperation's still runs it."""
    from xdsl.ir import Operation
    from xdsl.irdl import IRDLOperation, irdl_op_definition

    fast = IRDLOperation.__post_init__
    assert fast is not construction._XDSL_IRDL_POST_INIT
    classes = [c for c in _loaded_op_classes() if issubclass(c, IRDLOperation)]
    assert len(classes) > 100
    filled = 0
    for cls in classes:
        op_def = cls.get_irdl_definition()
        for props in ({}, {name: IntegerAttr(7, i32) for name in list(op_def.properties)[:1]}):
            ops = []
            for post_init in (fast, construction._XDSL_IRDL_POST_INIT):
                op = cls.__new__(cls)
                op.properties, op.attributes = dict(props), {}
                post_init(op)
                ops.append((list(op.properties.items()), list(op.attributes.items())))
            assert ops[0] == ops[1], cls.name
            filled += len(ops[0][0]) + len(ops[0][1]) - len(props)
    assert filled > 20  # defaults were filled (fails if the memo fills none)

    calls = []

    class Base(Operation):  # after IRDLOperation in MixedOp's MRO, before Operation
        def __post_init__(self):
            calls.append(type(self).__name__)
            super().__post_init__()

    @irdl_op_definition
    class MixedOp(IRDLOperation, Base):  # type: ignore[misc]
        name = "test.mixed_post_init"

    MixedOp.create()
    assert calls == ["MixedOp"]


def test_operation_init_adds_regions_as_xdsl_does():
    """Regions given to a first build: added in order through add_region (parent set, same
    fields in the same order as xDSL's __init__); an attached region fails with xDSL's error."""
    from xdsl.ir import Operation

    ops = []
    for init in (Operation.__init__, construction._XDSL_OPERATION_INIT):
        regions = [Region(Block(arg_types=[i32])), Region()]
        op = test.TestOp.__new__(test.TestOp)
        init(op, operands=[], result_types=[i32], regions=iter(regions))  # an iterator: read once
        assert op.regions == tuple(regions) and all(r.parent is op for r in regions)
        ops.append(op)
    assert list(vars(ops[0])) == list(vars(ops[1]))
    wrong = [_error(lambda: init(test.TestOp.__new__(test.TestOp), regions=[ops[1].regions[0]]))
             for init in (Operation.__init__, construction._XDSL_OPERATION_INIT)]  # fmt: skip
    assert wrong[0] is not None and wrong[0] == wrong[1]


def test_signature_cache_skips_only_traits_that_do_nothing():
    """The traits a remembered signature skips per op are those whose class's verify only
    returns None (they return None for any op, None included); the others run in the trait
    set's order, and a trait added to a class later runs too."""
    from dataclasses import dataclass

    from xdsl.traits import OpTrait

    skipped_classes = set()
    for cls in _loaded_op_classes():
        traits = cls.traits.traits
        run = signatures._verifying_traits(traits)
        assert list(run) == [t for t in traits if t in run]  # the frozenset's order
        for trait in traits - set(run):
            if type(trait) not in signatures._TYPE_ONLY_TRAITS:
                assert trait.verify(None) is None
                skipped_classes.add(type(trait).__name__)
    assert {"Pure", "_HasFolderInterfaceTrait"} <= skipped_classes
    assert "HasParent" not in skipped_classes and "IsTerminator" not in skipped_classes

    @dataclass(frozen=True)
    class Refuses(OpTrait):
        def verify(self, op):
            raise VerifyException("refused")

    @dataclass(frozen=True)
    class Quiet(OpTrait):
        def verify(self, op):
            """Nothing to check."""

    assert signatures._verifying_traits(frozenset({Quiet()})) == ()
    assert signatures._verifying_traits(frozenset({Refuses()})) == (Refuses(),)
    add = arith.AddiOp(arith.ConstantOp(IntegerAttr(1, i32)), arith.ConstantOp(IntegerAttr(2, i32)))
    add.verify()
    add.verify()  # remembered signature
    saved = arith.AddiOp.traits._traits
    arith.AddiOp.traits.add_trait(Refuses())
    try:
        with pytest.raises(VerifyException, match="refused"):
            add.verify()
    finally:
        arith.AddiOp.traits._traits = saved
    add.verify()


def test_name_hints_are_checked_as_xdsl_checks_them():
    """The remembered name-hint check gives xDSL's answer for valid names (suffix stripped),
    its error (naming the value's class) for invalid ones every time, and leaves str
    subclasses to xDSL's check."""
    from xdsl.ir.core import BlockArgument, IRWithName

    fast = IRWithName.extract_valid_name
    slow = construction._XDSL_EXTRACT_VALID_NAME.__func__
    assert fast.__func__ is not slow

    class Name(str):
        pass

    names = ["x", "acc_12", "acc_12", "a_1_2", "_", "_1", "v$.-", "x_01", None, "1x", "a b", "", "%x", Name("y_3")]
    for _ in range(2):  # the second time from the memo
        for name in names:
            for cls in (BlockArgument, IRWithName):
                got = _error(lambda: cls.extract_valid_name(name)) or ("value", cls.extract_valid_name(name))
                want = _error(lambda: slow(cls, name)) or ("value", slow(cls, name))
                assert got == want, (name, cls, got, want)
    block = Block(arg_types=[i32])
    block.args[0].name_hint = "acc_12"
    assert block.args[0].name_hint == "acc"
    with pytest.raises(ValueError, match="Invalid BlockArgument name format `1x`"):
        block.args[0].name_hint = "1x"


def test_irdl_post_init_keeps_implicit_builders_working():
    """xDSL's ImplicitBuilder swaps Operation.__post_init__ for one that inserts each op built
    into its block: IRDLOperation's (remembered defaults) still calls the current one, with
    ops of a class built before and after the swap (the implicit terminator of an empty loop
    body is built so when its loop is parsed)."""
    from xdsl.builder import ImplicitBuilder

    import loopopt.compile as lc

    arith.AddiOp(arith.ConstantOp(IntegerAttr(1, i32)), arith.ConstantOp(IntegerAttr(2, i32)))  # classes seen
    block = Block(arg_types=[i32])
    with ImplicitBuilder(block):
        c = arith.ConstantOp(IntegerAttr(1, i32))
        add = arith.AddiOp(c, block.args[0])
    assert list(block.ops) == [c, add]
    text = "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n  loop.for %i in [%c0, %n) {\n  }\n  func.return\n}\n"
    module = lc.parse(text, lc.make_context(), "t")
    loops = [op for op in module.walk() if op.name == "loop.for"]
    assert [o.name for o in loops[0].regions[0].block.ops] == ["loop.yield"]


def _block_state(block):
    """Each op's tag and its links (parent, previous, next) as tags, in block order."""

    def tag(op):
        return None if op is None else str(op.attributes["tag"])

    out = [(tag(block.first_op), tag(block.last_op))]
    for op in block.ops:
        out.append((tag(op), op.parent is block, tag(op._prev_op), tag(op._next_op)))
    return out


def test_block_insertion_links_and_refuses_as_xdsl_does():
    """add_op / insert_op_before / insert_op_after: the same links, and the same errors for an op
    already in a block and for an op that contains the block (an op without regions skips the
    ancestor walk, which could not find it)."""
    from xdsl.dialects.builtin import StringAttr

    attach, add_op, _ = ir_structure._XDSL_BLOCK_INSERTION
    assert Block.add_op is not add_op and Block._attach_op is not attach

    def build():
        def op(tag, *regions):
            return test.TestOp(attributes={"tag": StringAttr(tag)}, regions=list(regions))

        block = Block()
        block.add_op(op("a"))
        block.add_op(op("b"))
        block.insert_op_before(op("c"), block.first_op)
        block.insert_op_after(op("d"), block.first_op)
        block.add_op(op("e", Region(Block())))
        errors = []
        for bad in (block.first_op, block.last_op):  # attached already
            for insert in (block.add_op, lambda o: block.insert_op_before(o, block.last_op)):
                try:
                    insert(bad)
                except ValueError as e:
                    errors.append(str(e))
        outer = op("outer", Region(Block()))
        try:
            outer.regions[0].block.add_op(outer)  # an op into a block of its own region
        except ValueError as e:
            errors.append(str(e))
        return block, errors

    fast_block, fast_errors = build()
    installed = (Block._attach_op, Block.add_op)
    Block._attach_op, Block.add_op = attach, add_op
    try:
        slow_block, slow_errors = build()
    finally:
        Block._attach_op, Block.add_op = installed
    assert _block_state(fast_block) == _block_state(slow_block)
    assert [t[0] for t in _block_state(fast_block)[1:]] == ['"c"', '"d"', '"a"', '"b"', '"e"']
    assert fast_errors == slow_errors and len(fast_errors) == 5
    assert "contained in the operation" in fast_errors[-1]
