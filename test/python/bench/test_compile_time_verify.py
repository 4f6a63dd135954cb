"""Verification stays complete with the compile-time fast paths (docs/compile_time.md, eighth
round): an invalid op injected into the IR after any step of loop-pipeline is reported, at
that op, and the fast IsolatedFromAbove check fails exactly where xDSL's does."""

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Block, Operation, Region
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

import loopopt.compile as lc
from loopopt import xdsl_fastpaths
from loopopt.xdsl_fastpaths import verification
from loopopt.diagnostics import LoopoptDiagnostic, verify_located
from loopopt.passes.pipeline import LoopPipelinePass
from loopopt.tools.bench.overhead import generated_module


def _outcome(check, op: Operation) -> str | None:
    try:
        check(IsolatedFromAbove(), op)
    except VerifyException as e:
        return str(e)
    return None


def _isolated_cases() -> list[tuple[str, Operation]]:
    """(name, func.func) pairs, each in a module with an outer constant `%out`."""
    cases = []

    def fresh(build) -> None:
        out = arith.ConstantOp(IntegerAttr(1, i32))
        body = Block(arg_types=[i32])
        fn = func.FuncOp("f", ((i32,), ()), Region(body))
        ModuleOp([out, fn])
        build(body, out, fn)
        cases.append((build.__name__, fn))

    def clean(body, out, fn):
        c = arith.ConstantOp(IntegerAttr(2, i32))
        body.add_ops([c, arith.AddiOp(c, body.args[0]), func.ReturnOp()])

    def outer_value(body, out, fn):
        c = arith.ConstantOp(IntegerAttr(2, i32))
        body.add_ops([c, arith.AddiOp(c, out), func.ReturnOp()])

    def outer_value_nested(body, out, fn):
        inner = Block([arith.AddiOp(body.args[0], out)])
        body.add_ops([test.TestOp(regions=[Region(inner)]), func.ReturnOp()])

    def used_before_defined_inside(body, out, fn):
        late = arith.ConstantOp(IntegerAttr(3, i32))
        body.add_ops([arith.AddiOp(late, body.args[0]), late, func.ReturnOp()])

    def later_block_argument(body, out, fn):
        second = Block(arg_types=[i32])
        fn.body.add_block(second)
        body.add_ops([arith.AddiOp(second.args[0], body.args[0]), func.ReturnOp()])
        second.add_op(func.ReturnOp())

    def nested_isolated_child(body, out, fn):
        # a nested func reading %out: the outer check skips it (the inner one reports it)
        inner = Block([arith.AddiOp(out, out), func.ReturnOp()])
        body.add_ops([func.FuncOp("g", ((), ()), Region(inner)), func.ReturnOp()])

    def nested_child_reads_enclosing(body, out, fn):
        inner = Block([arith.AddiOp(body.args[0], body.args[0])])
        body.add_ops([test.TestOp(regions=[Region(inner)]), func.ReturnOp()])

    for build in (clean, outer_value, outer_value_nested, used_before_defined_inside, later_block_argument,
                  nested_isolated_child, nested_child_reads_enclosing):  # fmt: skip
        fresh(build)
    # an op using a result of the isolated op itself
    holder = test.TestOp(result_types=[i32], regions=[Region(Block())])
    holder.regions[0].block.add_op(arith.AddiOp(holder.results[0], holder.results[0]))
    ModuleOp([holder])
    cases.append(("own_result", holder))
    return cases


def test_isolated_check_fails_where_xdsl_fails():
    assert IsolatedFromAbove.verify is not verification._XDSL_ISOLATED_VERIFY
    outcomes = {}
    for name, op in _isolated_cases():
        fast = _outcome(IsolatedFromAbove.verify, op)
        slow = _outcome(verification._XDSL_ISOLATED_VERIFY, op)
        assert fast == slow, name
        outcomes[name] = fast
    failing = {n for n, o in outcomes.items() if o is not None}
    assert failing == {"outer_value", "outer_value_nested", "own_result"}, outcomes


def _inject_and_check(module: ModuleOp, make) -> None:
    """Insert the ops `make(module)` returns, check that verify_located reports the op at
    fault it names, and take them out again."""
    ops, at_fault = make(module)
    try:
        with pytest.raises(LoopoptDiagnostic) as info:
            verify_located(module)
        assert info.value.op is at_fault, (make.__name__, info.value.message)
    finally:
        for op in reversed(ops):
            op.detach()
            op.erase(safe_erase=False)
    verify_located(module)  # valid again


def _first(module: ModuleOp, cls) -> Operation | None:
    return next((o for o in module.walk() if isinstance(o, cls)), None)


def _first_func_block(module: ModuleOp) -> Block:
    fn = _first(module, func.FuncOp)
    assert fn is not None
    return fn.body.blocks.first  # type: ignore[return-value]


def outer_value_in_a_function(module: ModuleOp):
    out = arith.ConstantOp(IntegerAttr(7, i64))
    module.body.block.insert_op_before(out, module.body.block.first_op)  # type: ignore[arg-type]
    use = arith.AddiOp(out, out)
    block = _first_func_block(module)
    block.insert_op_before(use, block.first_op)  # type: ignore[arg-type]
    return [out, use], block.parent_op()  # reported at the function (IsolatedFromAbove)


def mismatched_operand_types(module: ModuleOp):
    block = _first_func_block(module)
    a = arith.ConstantOp(IntegerAttr(1, i32))
    b = arith.ConstantOp(IntegerAttr(1, IndexType()))
    bad = arith.AddiOp.create(operands=[a.result, b.result], result_types=[i32])
    for op in (a, b, bad):
        block.insert_op_before(op, block.last_op)  # type: ignore[arg-type]
    return [a, b, bad], bad


def wrong_result_type_of_a_verified_signature(module: ModuleOp):
    """An op of a class the module has (its signature remembered) with another result type."""
    block = _first_func_block(module)
    a = arith.ConstantOp(IntegerAttr(1, i32))
    b = arith.ConstantOp(IntegerAttr(2, i32))
    good = arith.AddiOp(a, b)
    bad = arith.AddiOp.create(operands=[a.result, b.result], result_types=[i64])
    for op in (a, b, good, bad):
        block.insert_op_before(op, block.last_op)  # type: ignore[arg-type]
    return [a, b, good, bad], bad


def terminator_outside_its_parent(module: ModuleOp):
    stray = func.ReturnOp()
    module.body.block.add_op(stray)
    return [stray], stray


def use_before_definition(module: ModuleOp):
    block = _first_func_block(module)
    late = arith.ConstantOp(IntegerAttr(1, i32))
    use = arith.AddiOp(late, late)
    block.insert_op_before(use, block.first_op)  # type: ignore[arg-type]
    block.insert_op_before(late, block.last_op)  # type: ignore[arg-type]
    return [late, use], use


INJECTIONS = [outer_value_in_a_function, mismatched_operand_types, wrong_result_type_of_a_verified_signature,
              terminator_outside_its_parent, use_before_definition]  # fmt: skip


@pytest.mark.parametrize("target", ["avx2", "scalar"])
def test_an_invalid_op_injected_after_every_step_is_reported(target):
    ctx = lc.make_context()
    module = lc.parse(generated_module(40), ctx, "t")
    verify_located(module)  # every signature of the parsed module remembered
    for make in INJECTIONS:
        _inject_and_check(module, make)
    for step, pass_ in LoopPipelinePass(target=target).step_passes():
        pass_.apply(ctx, module)
        verify_located(module)
        for make in INJECTIONS:
            _inject_and_check(module, make)


def _verify_outcome(verify, op: Operation, nested: bool) -> str | None:
    try:
        verify(op, nested)
    except Exception as e:  # noqa: BLE001 - the error is the outcome compared
        return f"{type(e).__name__}: {e}"
    return None


def _operation_cases() -> list[tuple[str, Operation]]:
    from xdsl.ir.core import ErasedSSAValue

    cases: list[tuple[str, Operation]] = []
    c = arith.ConstantOp(IntegerAttr(1, i32))
    add = arith.AddiOp(c, c)
    fn = func.FuncOp("f", ((), ()), Region(Block([c, add, func.ReturnOp()])))
    ModuleOp([fn])
    cases += [("valid", add), ("function", fn), ("constant", c)]
    erased_use = arith.AddiOp(c, c)
    erased_use.operands = [ErasedSSAValue(i32, c.result), c.result]
    cases.append(("erased operand", erased_use))
    last = arith.AddiOp(c, c)  # last op of a single-block function body: not a terminator
    func.FuncOp("g", ((), ()), Region(Block([c2 := arith.ConstantOp(IntegerAttr(2, i32)), last])))
    last.operands = [c2.result, c2.result]
    cases.append(("single-block end", last))
    two = arith.ConstantOp(IntegerAttr(3, i32))
    region = Region([Block([two]), Block([func.ReturnOp()])])
    func.FuncOp("h", ((), ()), region)
    cases.append(("multi-block end", two))
    in_module = arith.ConstantOp(IntegerAttr(4, i32))
    ModuleOp([in_module])  # NoTerminator: the last op need not terminate
    cases.append(("module end", in_module))
    cases.append(("no parent", arith.ConstantOp(IntegerAttr(5, i32))))
    bad = arith.AddiOp.create(operands=[c.result, c.result], result_types=[i64])
    func.FuncOp("k", ((), ()), Region(Block([bad, func.ReturnOp()])))
    cases.append(("own verifier fails", bad))
    nested_bad = arith.AddiOp.create(operands=[c.result, c.result], result_types=[i64])
    holder = test.TestOp(regions=[Region(Block([nested_bad]))])
    cases.append(("nested op fails", holder))
    return cases


def test_operation_verify_fails_where_xdsl_fails():
    from xdsl.ir import Operation as XOperation

    assert XOperation.verify is not verification._XDSL_OPERATION_VERIFY
    failing = set()
    for name, op in _operation_cases():
        for nested in (True, False):
            fast = _verify_outcome(XOperation.verify, op, nested)
            slow = _verify_outcome(verification._XDSL_OPERATION_VERIFY, op, nested)
            assert fast == slow, (name, nested, fast, slow)
            if fast is not None:
                failing.add(name)
    assert failing == {"erased operand", "single-block end", "multi-block end", "own verifier fails", "nested op fails"}, failing
