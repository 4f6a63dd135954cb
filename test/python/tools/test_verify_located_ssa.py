"""verify_located's scoped SSA walk reports what asking `_dominance_problem` of every operand
of every op in `walk()` order reports (docs/compile_time.md, sixth round)."""

import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region

from loopopt.diagnostics import LoopoptDiagnostic, _check_ssa, _dominance_problem, verify_located


def _op_by_op(module):
    """The first SSA problem as verify_located reported it before the scoped walk."""
    index = {}
    for op in module.walk():
        for operand in op.operands:
            problem = _dominance_problem(operand, op, index)
            if problem is not None:
                return f"'{op.name}' {problem}", op
    return None


def _scoped(module):
    try:
        _check_ssa(module, set(), {})  # verify_located's first step (the ops' verifiers follow)
    except LoopoptDiagnostic as e:
        return e.message, e.op
    return None


def _op(*operands, regions=(), results=1):
    return test.TestOp(operands=list(operands), result_types=[i32] * results, regions=list(regions))


def _modules():
    """(name, module) pairs: valid and invalid uses in nested regions and blocks."""
    out = []

    # a loop-like op using a value of its enclosing block and its own block argument
    a = _op()
    body = Block(arg_types=[i32])
    body.add_op(_op(a.results[0], body.args[0]))
    out.append(("enclosing", [a, _op(a.results[0], regions=[Region(body)])]))

    # a use before the definition, in a nested block, then a second bad op later
    inner = Block()
    later = _op()
    inner.add_ops([_op(later.results[0]), later])
    outer_bad = _op()
    out.append(("before-definition", [_op(regions=[Region(inner)]), _op(outer_bad.results[0]), outer_bad]))

    # an op using its own result inside its region
    own = Block()
    owner = _op(regions=[Region(own)])
    own.add_op(_op(owner.results[0]))
    out.append(("own-result", [_op(regions=[Region(Block([owner]))])]))  # (not in the module's body)
    own_at_top = Block()
    top_owner = _op(regions=[Region(own_at_top)])
    own_at_top.add_op(_op(top_owner.results[0]))
    out.append(("module-body", [top_owner]))  # the module's body is not ordered: not checked

    # a value of a nested region used after the region
    hidden = _op()
    out.append(("not-enclosing", [_op(regions=[Region(Block([hidden]))]), _op(hidden.results[0])]))

    # a value of another block of the same region (a CFG region: not checked)
    first, second = Block(), Block()
    defined = _op()
    first.add_op(defined)
    second.add_op(_op(defined.results[0]))
    out.append(("other-block", [_op(regions=[Region([first, second])])]))

    # a block argument of an inner block used after that block's op
    loop_body = Block(arg_types=[i32])
    out.append(("argument-out-of-scope", [_op(regions=[Region(loop_body)]), _op(loop_body.args[0])]))
    return [(name, ModuleOp(ops)) for name, ops in out]


@pytest.mark.parametrize("name,module", _modules(), ids=[n for n, _ in _modules()])
def test_scoped_walk_reports_the_op_by_op_problem(name, module):
    expected = _op_by_op(module)
    assert (name in ("enclosing", "other-block", "module-body")) == (expected is None)
    got = _scoped(module)
    if expected is None:
        assert got is None
    else:
        assert got is not None and got[0] == expected[0] and got[1] is expected[1], (got, expected)


def test_verify_located_reports_an_ssa_problem_before_the_ops_verifiers():
    hidden = _op()
    module = ModuleOp([_op(regions=[Region(Block([hidden]))]), _op(hidden.results[0])])
    with pytest.raises(LoopoptDiagnostic, match="not defined in an enclosing scope"):
        verify_located(module)
