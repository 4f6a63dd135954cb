"""The shared pipeline-spec parser (`loop-opt -p`, `loop-run -p`, `loopopt.compile(pipeline=)`),
verification after every pass, internal errors, and the guarded parser entry."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ParseError

import loopopt
from loopopt import registry
from loopopt.compile import make_context, normalize_pipeline_spec, parse, parse_pipeline, run_pipeline
from loopopt.diagnostics import InternalError, LoopoptDiagnostic, PipelineError, format_diagnostic
from loopopt.tools import loop_opt, loop_run

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "sum_of_squares.mlir"


# --------------------------------------------------------------------------- pipeline specs


@pytest.mark.parametrize("spec", ["df-fuse{remarks=true,recompute=false}", "df-fuse{remarks=true recompute=false}",
                                  "df-fuse{ remarks=true, recompute=false }", " df-fuse{remarks=true,recompute=false} "])
def test_options_separated_by_commas_or_spaces(spec):
    (p,) = parse_pipeline(spec).passes
    assert p.remarks is True and p.recompute is False


def test_commas_still_separate_list_values_and_passes():
    assert normalize_pipeline_spec("p{names=a,b c=1,2,d=3},q")[0] == "p{names=a,b c=1,2 d=3},q"
    assert normalize_pipeline_spec("p{flag,x=1}")[0] == "p{flag x=1}"
    assert normalize_pipeline_spec('p{s="a,b=1"}')[0] == 'p{s="a,b=1"}'
    assert [p.name for p in parse_pipeline("df-fuse, convert-df-to-loop").passes] == ["df-fuse", "convert-df-to-loop"]


@pytest.mark.parametrize(("spec", "message", "column"), [
    ("df-fuse{", "bad pass pipeline: expected argument name", 9),
    (",", "bad pass pipeline: expected pass name", 1),
    ("loop-pipeline{target=}", "bad pass pipeline: unknown argument value", 22),
    ("df-fuse{a=1,b=2}", "df-fuse: unknown option 'a' (options: remarks, max-recompute-ops", 1),
    ("df-fuse{remarks=maybe}", "df-fuse: option remarks=maybe is not a valid bool", 1),
    ("df-fuse,df-fus", "unknown pass 'df-fus'; did you mean df-fuse?", 9),
    ("loop-tile{size=0}", "loop-tile: option size=0 is out of range", 1),
    ("df-fuse{remarks=true", "bad pass pipeline: malformed pass arguments", 21),
])
def test_bad_specs_are_pipeline_errors(spec, message, column):
    with pytest.raises(PipelineError) as info:  # an Exception, not xDSL's BaseException
        parse_pipeline(spec)
    assert info.value.message.startswith(message)
    assert info.value.column == column
    assert format_diagnostic(info.value, "k.mlir").startswith(f"k.mlir: error: {message}")


def test_compile_reports_a_bad_pipeline():
    with pytest.raises(PipelineError, match="bad pass pipeline"):
        loopopt.compile(EXAMPLE.read_text(), target="scalar", pipeline="df-fuse{")


# --------------------------------------------------------------------------- after every pass


@dataclass(frozen=True)
class BreakIRPass(ModulePass):
    """Moves the first arith.constant after its last use: IR that no longer verifies."""

    name = "test-break-ir"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        c = next(o for o in op.walk() if isinstance(o, arith.ConstantOp) and o.result.uses)
        last = max((u.operation for u in c.result.uses), key=lambda o: o.parent_block().get_operation_index(o))
        c.detach()
        last.parent_block().insert_op_after(c, last)


@dataclass(frozen=True)
class EraseUsedPass(ModulePass):
    """Erases a constant that is still used (xDSL then reports 'Erased SSA value is used')."""

    name = "test-erase-used"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        c = next(o for o in op.walk() if isinstance(o, arith.ConstantOp) and o.result.uses)
        c.detach()
        c.erase(safe_erase=False)


@dataclass(frozen=True)
class CrashPass(ModulePass):
    name = "test-crash"

    def apply(self, ctx: Context, op: builtin.ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, arith.ConstantOp):
                raise KeyError("boom")


@pytest.fixture
def test_passes(monkeypatch):
    real = registry.get_all_passes

    def with_test_passes():
        return {**real(), "test-break-ir": lambda: BreakIRPass, "test-crash": lambda: CrashPass,
                "test-erase-used": lambda: EraseUsedPass}

    monkeypatch.setattr(registry, "get_all_passes", with_test_passes)
    monkeypatch.setattr(loop_opt, "get_all_passes", with_test_passes)


def test_invalid_ir_after_a_pass_is_an_internal_error(test_passes):
    module = parse(EXAMPLE.read_text(), name="ex.mlir")
    with pytest.raises(InternalError, match="pass 'test-break-ir' produced invalid IR: .* before its definition") as info:
        run_pipeline(module, "test-break-ir", make_context())
    assert format_diagnostic(info.value).startswith("ex.mlir:")
    with pytest.raises(InternalError):
        loopopt.compile(EXAMPLE.read_text(), target="scalar", pipeline="test-break-ir,df-fuse,convert-df-to-loop")


def test_erased_value_in_use_is_an_internal_error(test_passes, capsys):
    with pytest.raises(InternalError, match="pass 'test-erase-used' produced invalid IR: 'df.reduce' uses a value that was erased"):
        run_pipeline(parse(EXAMPLE.read_text(), name="ex.mlir"), "test-erase-used", make_context())
    assert loop_opt.run([str(EXAMPLE), "-p", "test-erase-used"]) == 1
    err = capsys.readouterr().err
    assert "internal error: pass 'test-erase-used' produced invalid IR" in err and "Traceback" not in err


def test_loop_opt_internal_error(test_passes, capsys, monkeypatch):
    monkeypatch.delenv("LOOPOPT_DEBUG", raising=False)
    assert loop_opt.run([str(EXAMPLE), "-p", "test-crash"]) == 1
    err = capsys.readouterr().err
    assert "internal error: pass 'test-crash' failed: KeyError: 'boom' (please report" in err
    assert err.startswith(f"{EXAMPLE}:") and "Traceback" not in err
    assert loop_opt.run([str(EXAMPLE), "-p", "test-break-ir"]) == 1
    err = capsys.readouterr().err
    assert "internal error: pass 'test-break-ir' produced invalid IR" in err and "Traceback" not in err
    monkeypatch.setenv("LOOPOPT_DEBUG", "1")
    assert loop_opt.run([str(EXAMPLE), "-p", "test-crash"]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_loop_run_pipeline_errors_are_diagnostics(capsys):
    assert loop_run.main([str(EXAMPLE), "-t", "scalar", "-p", "df-fuse{", "--no-time"]) == loop_run.EXIT_USAGE
    err = capsys.readouterr().err
    assert f"{EXAMPLE}: error: bad pass pipeline: expected argument name here" in err and "Traceback" not in err


# --------------------------------------------------------------------------- the parser entry


def _unregistered_ok() -> Context:
    ctx = make_context()
    ctx.allow_unregistered = True
    return ctx


def test_unterminated_string_answers_in_linear_time():
    source = 'func.func @f() {\n  "test.op"() {a = "' + "a" * 10_000 + "} : () -> ()\n}\n"
    start = time.perf_counter()
    with pytest.raises(ParseError) as info:
        parse(source, _unregistered_ok(), name="s.mlir")
    assert time.perf_counter() - start < 1.0
    assert format_diagnostic(info.value).startswith("s.mlir:2:20: error:")


def test_strings_still_parse():
    m = parse('"test.op"() {a = "x\\"y\\n\\00z", b = ""} : () -> ()', _unregistered_ok())
    op = next(iter(m.ops))
    assert op.attributes["a"].data == 'x"y\n\x00z' and op.attributes["b"].data == ""


@pytest.mark.parametrize(("source", "where", "message"), [
    (b"func.func @f() {\n  func.return\n}\n// \xff\n", "b.mlir:4:4", "not UTF-8"),
    ("func.func @f() -> i32 {\n  %c = arith.constant 99999999999999999999 : i32\n  func.return %c : i32\n}\n",
     "b.mlir:2:3", "out of range for type i32"),
    ("func.func @f(%x: f32) -> f32 {\n  %y = arith.addf %x, %q : f32\n  func.return %y : f32\n}\n",
     "b.mlir:2:23", "use of undefined value %q"),
    ("func.func @f() {\n" + '"test.op"() ({\n' * 5000 + "}) : () -> ()\n" * 5000 + "func.return\n}\n",
     "b.mlir:65:", "nested more than 64 deep"),
])
def test_hostile_text_is_a_located_parse_error(source, where, message):
    with pytest.raises((ParseError, LoopoptDiagnostic)) as info:
        parse(source, _unregistered_ok(), name="b.mlir")
    text = format_diagnostic(info.value)
    assert text.startswith(where) and message in text


def test_use_before_definition_is_located():
    from loopopt.diagnostics import verify_located

    module = parse("func.func @f(%x: f32) -> f32 {\n  %y = arith.addf %x, %z : f32\n  %z = arith.addf %x, %x : f32\n"
                   "  func.return %y : f32\n}\n", name="d.mlir")
    with pytest.raises(LoopoptDiagnostic, match="'arith.addf' uses %z before its definition") as info:
        verify_located(module)
    assert str(info.value).startswith("d.mlir:2:3: error:")


def test_a_diagnostic_without_an_op_is_prefixed_once():
    # `loop-opt -p 'loop-pipeline{target=foo}'` used to print `x.mlir: error: error: unknown target`
    assert format_diagnostic(LoopoptDiagnostic("unknown target 'foo'"), "x.mlir") == "x.mlir: error: unknown target 'foo'"
    assert format_diagnostic(KeyError("k"), "x.mlir").startswith("x.mlir: internal error: KeyError: 'k' (please report")


def test_a_megabyte_name_does_not_flood_the_terminal(tmp_path, capsys):
    (tmp_path / "junk.mlir").write_text("a" * 1_000_000 + "\n")
    assert loop_opt.run([str(tmp_path / "junk.mlir")]) == 1
    err = capsys.readouterr().err
    assert len(err) < 1000 and "more characters)" in err and err.startswith(f"{tmp_path / 'junk.mlir'}:")
