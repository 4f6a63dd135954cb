"""verify_located's faster equivalents answer exactly as the code they replaced
(docs/compile_time.md, tenth round): `reverse_walk` is `walk(reverse=True)`, and every chunk of
the invalid IR files of test/filecheck fails with the same message at the same op as the
verification through xDSL's walk did."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith, func, test
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Block, Operation, Region
from xdsl.utils.exceptions import ParseError, VerifyException

import loopopt.compile as lc
from loopopt import diagnostics
from loopopt.diagnostics import LoopoptDiagnostic, reverse_walk, verify_located

ROOT = Path(__file__).resolve().parents[3]
INVALID = sorted((ROOT / "test" / "filecheck").rglob("invalid*.mlir"))


def _reference_verify(module: Operation) -> None:
    """verify_located before the tenth round: the SSA check, then every op in xDSL's reverse walk."""
    diagnostics._check_ssa(module, set(), {})
    for op in module.walk(reverse=True):
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            raise LoopoptDiagnostic(diagnostics._plain_message(e), op) from None
        diagnostics._check_empty_blocks(op)


def _outcome(check, module: Operation) -> tuple[str, int] | None:
    try:
        check(module)
    except LoopoptDiagnostic as e:
        return e.message, id(e.op)
    return None


def _chunks() -> list[tuple[str, str]]:
    out = []
    for path in INVALID:
        for k, chunk in enumerate(path.read_text().split("// -----")):
            out.append((f"{path.parent.name}/{path.name}#{k}", chunk))
    return out


def test_the_invalid_files_are_found():
    assert len(INVALID) >= 4 and len(_chunks()) > 100


@pytest.mark.parametrize(("name", "text"), _chunks(), ids=[n for n, _ in _chunks()])
def test_invalid_ir_fails_as_through_xdsls_walk(name: str, text: str):
    ctx = lc.make_context()
    try:
        module = lc.parse(text, ctx, name)
    except (ParseError, LoopoptDiagnostic, VerifyException):
        pytest.skip("rejected by the parser")
    assert [id(o) for o in reverse_walk(module)] == [id(o) for o in module.walk(reverse=True)]
    assert _outcome(verify_located, module) == _outcome(_reference_verify, module)


def _lowered_modules():
    """The df corpus, as parsed and after the default pipeline, for two targets."""
    from loopopt.passes.pipeline import LoopPipelinePass
    from loopopt.tools.bench.c_stable import programs

    texts = programs()
    chosen = [k for k in texts if k.startswith("test_corpus_df__")] + ["generated_200"]
    for target in ("scalar", "avx2"):
        for name in chosen:
            ctx = lc.make_context()
            module = lc.parse(texts[name], ctx, name)
            if target == "scalar":
                yield f"{name}.input", module
            try:
                LoopPipelinePass(target=target).run(ctx, module)
            except Exception:  # noqa: BLE001 - a program the target refuses
                continue
            yield f"{name}.{target}", module


def test_reverse_walk_is_xdsls_reverse_walk_on_the_corpus():
    checked = 0
    for name, module in _lowered_modules():
        assert [id(o) for o in reverse_walk(module)] == [id(o) for o in module.walk(reverse=True)], name
        assert _outcome(verify_located, module) is None, name
        checked += 1
    assert checked > 20


class _OwnWalk(test.TestOp):
    """An op class with a walk of its own: reverse_walk asks it."""

    def walk(self, *, reverse: bool = False, region_first: bool = False):
        yield self  # its regions are not walked


def test_reverse_walk_of_multi_block_regions_and_own_walks():
    c = [arith.ConstantOp(IntegerAttr(k, i32)) for k in range(6)]
    hidden = arith.ConstantOp(IntegerAttr(9, i32))
    first = Block([c[0], test.TestOp(regions=[Region(Block([c[1], c[2]])), Region([Block([c[3]]), Block([c[4]])])])])
    second = Block([_OwnWalk(regions=[Region(Block([hidden]))]), c[5]])
    fn = func.FuncOp("f", ((), ()), Region([first, second]))
    module = ModuleOp([fn])
    order = reverse_walk(module)
    assert [id(o) for o in order] == [id(o) for o in module.walk(reverse=True)]
    assert hidden not in order and c[5] in order


def _reference_first_df(module: Operation) -> Operation | None:
    return next((o for o in module.walk() if o.dialect_name() == "df"), None)


def test_first_op_of_dialect_is_the_walks_first_on_the_corpus():
    """The drivers' check for df ops left after the pipeline finds the op the walk found first:
    a df module's first df op, none after the pipeline, a df op put back into a lowered loop."""
    from loopopt.diagnostics import first_op_of_dialect

    found = lowered = 0
    for name, module in _lowered_modules():
        ref = _reference_first_df(module)
        assert first_op_of_dialect(module, "df") is ref, name
        first_loop = next((o for o in module.walk() if o.dialect_name() == "loop"), None)
        assert first_op_of_dialect(module, "loop") is first_loop, name
        found += ref is not None
        lowered += ref is None
    assert found > 5 and lowered > 5


def test_first_op_of_dialect_in_nested_regions_and_own_walks():
    from loopopt.diagnostics import first_op_of_dialect

    c = [arith.ConstantOp(IntegerAttr(k, i32)) for k in range(3)]
    hidden = arith.ConstantOp(IntegerAttr(9, i32))
    inner = test.TestOp(regions=[Region(Block([c[1]])), Region([Block(), Block([c[2]])])])
    fn = func.FuncOp("f", ((), ()), Region([Block([_OwnWalk(regions=[Region(Block([hidden]))]), inner, c[0], func.ReturnOp()])]))
    module = ModuleOp([fn])
    for dialect in ("arith", "func", "test", "builtin", "df"):
        assert first_op_of_dialect(module, dialect) is next((o for o in module.walk() if o.dialect_name() == dialect), None), dialect
    assert first_op_of_dialect(module, "arith") is c[1]
