"""The C printer's faster equivalents answer exactly as the code they replaced (docs/compile_time.md,
ninth round): the text scans for helper names and parameter mentions."""

from __future__ import annotations

import re

import pytest

from loopopt.targets.c_helpers import HELPER_NAME, helper_names
from loopopt.targets.c_printer import _mentions

TEXTS = [
    "",
    "lo_a",
    "x = lo_hreduce_add_f32x8(v); y = xlo_b(v); z = lo_c",
    "acc_lo_1 = lo_d(acc_lo); lo_e_lo_f lo_",
    "lo_gé lo_h; élo_i lo_jé_k _lo_l 9lo_m (lo_n)",  # non-ASCII word characters around a candidate
    "lo_o\nlo_p\tlo_q.lo_r->lo_s[lo_t]",
    "lo_lo_u lolo_v lo__w",
]


@pytest.mark.parametrize("text", TEXTS)
def test_helper_names_is_helper_name_findall(text: str) -> None:
    assert helper_names(text) == HELPER_NAME.findall(text)


NAMES = ["a", "aa", "x_len", "n", "p0", "é", "lo_x", "ret0", "a.b"]


@pytest.mark.parametrize("text", [*TEXTS, "aaa a", "aa aaa", "xaa aax", "ax_len x_lenx x_len", "na n", "éa aé", "a.b a.bc"])
@pytest.mark.parametrize("name", NAMES)
def test_mentions_is_a_whole_word_search(text: str, name: str) -> None:
    assert _mentions(text, name) == (re.search(rf"\b{re.escape(name)}\b", text) is not None)


# ---------------------------------------------------------------- liveness, once per function


_DEAD_IN_LOOPS = """
builtin.module {
  func.func @k(%x: !loop.buf<f32> {loop.role = "in", loop.axes = ["i"]}, %out: !loop.buf<f32> {loop.role = "out", loop.axes = ["i"]}, %a: f32) attributes {loop.kernel} {
    %c0 = arith.constant 0 : index
    %n = loop.dim %x, 0 : !loop.buf<f32>
    %s = arith.mulf %a, %a : f32
    %u = arith.addf %a, %a : f32
    %w = arith.subf %a, %a : f32
    %d = arith.mulf %w, %w : f32
    loop.for %i in [%c0, %n) {
      %v = loop.load %x[%i] : !loop.buf<f32>
      %dead = arith.addf %v, %s : f32
      %t = arith.mulf %u, %u : f32
      %q = arith.addf %t, %t : f32
      loop.for %j in [%c0, %n) {
        %deeper = arith.mulf %t, %u : f32
        loop.yield
      }
      loop.store %v, %out[%i] : !loop.buf<f32>
      loop.yield
    }
    func.return
  }
}
"""
"""Unprinted ops in loops: `%dead` reads `%s` from the function's block, `%deeper` reads `%t`
(the outer loop's block) and `%u`; `%q` and `%d` are read by nothing. Each block's liveness counts
the reads of every op nested in its ops, printed or not: `%s`, `%u`, `%t` print, `%q`, `%d` and
`%w` do not."""


def test_unprinted_readers_in_loops_keep_what_they_read():
    import loopopt.compile as lc
    from loopopt.targets.c import emit_c, isa_table

    ctx = lc.make_context()
    module = lc.parse(_DEAD_IN_LOOPS, ctx, "t")
    _check_liveness("dead_in_loops", module, isa_table("scalar"))
    c = emit_c(module, "scalar")
    assert all(f"float {v} = " in c for v in ("s", "u", "t")), c
    assert not any(f"float {v} = " in c for v in ("q", "d", "w", "dead", "deeper")), c


def _lowered_modules():
    """The df corpus and a generated module through the default pipeline, per target (the IR the
    printer sees), with the C printer's ISA table."""
    import loopopt.compile as lc
    from loopopt.targets.c import isa_table
    from loopopt.tools.bench.c_stable import programs

    from loopopt.passes.pipeline import LoopPipelinePass

    texts = programs()
    chosen = [k for k in texts if k.startswith("test_corpus_df__")] + ["generated_200"]
    for target in ("scalar", "sse2", "avx2", "avx512"):
        for name in chosen:
            for whole in (True, False):  # also before canonicalize: ops no block prints, in loops too
                ctx = lc.make_context()
                module = lc.parse(texts[name], ctx, name)
                try:
                    for step, pass_ in LoopPipelinePass(target=target).step_passes():
                        if not whole and step.spelling() == "canonicalize":
                            break
                        pass_.apply(ctx, module)
                except Exception:  # noqa: BLE001 - a program the target refuses: nothing to print
                    continue
                yield f"{name}.{target}.{whole}", module, isa_table(target)


def _per_block_live(fp, block) -> set[int]:
    """The printer's liveness as each block asked it before the ninth round: ops with effects or
    regions and what the later live ops of the block, or anything nested in them, print."""
    from loopopt.dialects import loop
    from loopopt.targets.c_printer import WRITERS

    live: set[int] = set()
    used: set[int] = set()
    for o in reversed(list(block.ops)):
        if o.regions or not o.results or isinstance(o, (*WRITERS, loop.AllocOp)) or any(id(r) in used for r in o.results):
            live.add(id(o))
            used.update(id(v) for inner in o.walk() for v in fp._printed_operands(inner))
    return live


def test_function_liveness_is_the_per_block_liveness():
    """`_function_live` (one pass per function) marks exactly the ops the per-block liveness did,
    in every block; `_read_by` answers as the old union of nested reads; the ABI check's written
    buffers are the printer's (print_module hands them over)."""
    checked = blocks = 0
    for name, module, isa in _lowered_modules():
        c, b = _check_liveness(name, module, isa)
        checked, blocks = checked + c, blocks + b
    assert checked > 100 and blocks > 1000, (checked, blocks)


def _check_liveness(name, module, isa) -> tuple[int, int]:
    from loopopt.dialects import loop
    from loopopt.lowering.abi import _written
    from loopopt.targets.c_printer import CPrinter, FunctionPrinter

    checked = blocks = 0
    printer = CPrinter(isa, isa.name)
    printer.symbols = {f.sym_name.data for f in module.ops}
    for f in module.ops:
        if f.is_declaration:
            continue
        fp = FunctionPrinter(printer, f)
        assert [id(o) for o in fp.ops] == [id(o) for o in f.walk()], name  # _preorder
        live = fp._live_ops(f.body.block)
        assert fp.written == {w for o in f.walk() if (w := _written(o)) is not None}, name
        assert fp.call_dims == [o for o in f.walk() if isinstance(o, loop.CallDimOp)], name
        for o in fp.ops:
            for region in o.regions:
                for block in region.blocks:
                    blocks += 1
                    assert {id(x) for x in block.ops if id(x) in live} == _per_block_live(fp, block), (name, o.name)
        top = list(f.body.block.ops)
        for half in (top[len(top) // 2 :], top[: len(top) // 2]):
            readers = {id(o) for o in half}
            reads = {id(v) for o in half for inner in o.walk() for v in fp._printed_operands(inner)}
            for o in top:
                for r in o.results:
                    assert fp._read_by(r, readers) == (id(r) in reads), (name, o.name)
        checked += 1
    return checked, blocks


# ---------------------------------------------------------------- helpers per ISA table, once


def test_helpers_per_table_are_all_helpers():
    """`_helpers_of` answers `all_helpers` for each table, and a new table (CPU features: built
    per module) gets its own helpers, not those of the table it was made from."""
    from loopopt.targets.c import isa_table
    from loopopt.targets.c_helpers import all_helpers
    from loopopt.targets.c_part import with_cpu_features
    from loopopt.targets.c_printer import _helpers_of

    for name in ("scalar", "sse2", "avx2", "avx512", "neon"):
        table = isa_table(name)
        assert _helpers_of(table) == all_helpers(table), name
        assert _helpers_of(table) is _helpers_of(table), name
    checked = 0
    for name, features in (("avx512", ["avx512_vbmi2"]), ("avx512", ["avx512_bf16"]), ("avx512", ["avx512_bf16", "avx512_vbmi2"])):
        featured = with_cpu_features(isa_table(name), features)
        assert featured is not isa_table(name)
        assert _helpers_of(featured) == all_helpers(featured), (name, features)
        checked += 1
    assert checked == 3


def test_call_dims_and_written_buffers_of_parallel_kernels():
    """A kernel split across threads reads `loop.call_dim`: the printer's one pass over the ops
    finds the same call_dim ops and written buffers as walks do."""
    import loopopt.compile as lc
    from loopopt.passes.pipeline import LoopPipelinePass
    from loopopt.targets.c import isa_table
    from loopopt.tools.bench.c_stable import programs

    ctx = lc.make_context()
    module = lc.parse(programs()["generated_200"], ctx, "g")
    LoopPipelinePass(target="avx2", parallel=2).run(ctx, module)
    checked, _ = _check_liveness("parallel", module, isa_table("avx2"))
    assert checked > 5
    assert any(o.name == "loop.call_dim" for o in module.walk())
