"""The fuzzer's generator: every construct and op appears, programs verify, seeds reproduce,
exclusion switches work."""

from __future__ import annotations

import pytest

from loopopt.compile import make_context, parse
from loopopt.tools.fuzz.generate import CONSTRUCTS, GenOptions, Generator, used_constructs
from loopopt.tools.fuzz.printer import print_kernel, print_module
from loopopt.tools.fuzz.program import (
    FLOAT_BINARY,
    FLOAT_UNARY,
    INT_BINARY,
    UINT_BINARY,
    Fold,
    Gather,
    Input,
    Kernel,
    Reduce,
    Scan,
    node_types,
)

SEEDS = range(400)


@pytest.fixture(scope="module")
def kernels() -> list[Kernel]:
    """Everything switched on (the default exclusions too)."""
    return [Generator(s, GenOptions(exclude=frozenset())).kernel(f"g{s}") for s in SEEDS]


def test_every_construct_and_op_appears(kernels: list[Kernel]) -> None:
    seen: set[str] = set()
    dtypes: set[str] = set()
    for k in kernels:
        seen |= used_constructs(k)
        for ts in node_types(k):
            dtypes |= {t.dtype for t in ts}
    shapes = {"map", "zip", "filter", "select", "reduce", "reassoc", "fold", "scan", "custom",
              "range", "free_range", "records", "rank2", "captured_reduce",
              "bf16", "f16", "rank2_rows", "mixed_widths", "gather", "kind_fold", "bool_fold"}  # fmt: skip
    assert shapes <= seen, shapes - seen
    ops = {f"op:{o}" for o in (*FLOAT_BINARY, *FLOAT_UNARY, *INT_BINARY, *UINT_BINARY, "cmp", "select", "cast", "ucast", "fptosi")}
    assert ops <= seen, ops - seen
    assert {"f32", "f64", "i8", "i16", "i32", "i64", "i1", "bf16", "f16"} <= dtypes


def test_programs_verify(kernels: list[Kernel]) -> None:
    module = parse(print_module(kernels[:150]), make_context(), "<fuzz>")
    module.verify()
    assert len(list(module.ops)) == 150


def test_same_seed_same_program() -> None:
    assert print_kernel(Generator(12345).kernel("a")) == print_kernel(Generator(12345).kernel("a"))
    assert print_kernel(Generator(1).kernel("a")) != print_kernel(Generator(2).kernel("a"))


@pytest.mark.parametrize("construct", ["filter", "fold", "div", "shift", "cast", "records"])
def test_exclusion_switches(construct: str) -> None:
    opts = GenOptions(exclude=frozenset({construct}))
    probe = {"div": "op:div", "shift": "op:shl", "cast": "op:cast"}.get(construct, construct)
    for s in range(150):
        assert probe not in used_constructs(Generator(s, opts).kernel("x"))


def test_constructs_are_known() -> None:
    assert "fold_passthrough" in CONSTRUCTS
    with pytest.raises(SystemExit) as e:
        from loopopt.tools.fuzz.cli import main

        main(["--exclude", "no_such_thing"])
    assert e.value.code == 1


def test_fold_passthrough_switch() -> None:
    from loopopt.tools.fuzz.program import Arg, Fold

    opts = GenOptions(exclude=frozenset({"fold_passthrough"}))
    for s in range(300):
        for node in Generator(s, opts).kernel("x").nodes:
            if isinstance(node, Fold):
                assert all(b != Arg(a, c.dtype) for a, (b, c) in enumerate(zip(node.bodies, node.inits)))


def test_session20_constructs(kernels: list[Kernel]) -> None:
    """umin/umax reductions and scans, i1 folds, gathers from axis j by index inputs, bf16 only
    as storage (inputs and truncf results, never reduced), kind-shaped fold bodies."""
    kinds = {(type(n).__name__, n.kind) for k in kernels for n in k.nodes if isinstance(n, (Reduce, Scan))}
    assert {("Reduce", "umin"), ("Reduce", "umax"), ("Scan", "umin"), ("Scan", "umax")} <= kinds
    gathers = [(k, n) for k in kernels for n in k.nodes if isinstance(n, Gather)]
    assert any(isinstance(k.nodes[g.idx], Input) and k.nodes[g.idx].index for k, g in gathers)
    for k in kernels:
        types = node_types(k)
        for n in k.nodes:
            if isinstance(n, (Reduce, Scan)):
                assert types[n.src][0].dtype not in ("bf16", "f16")
            if isinstance(n, Fold):
                assert all(types[s][0].dtype not in ("bf16", "f16") for s in n.srcs)
    assert any(isinstance(n, Fold) and n.inits[0].dtype == "i1" for k in kernels for n in k.nodes)


@pytest.mark.parametrize("construct", ["narrow", "unsigned", "bf16", "f16", "gather", "kind_fold", "bool_fold"])
def test_session20_exclusion_switches(construct: str) -> None:
    opts = GenOptions(exclude=frozenset({construct}))
    probe = {"unsigned": "op:ucast"}.get(construct, construct)
    for s in range(150):
        k = Generator(s, opts).kernel("x")
        assert probe not in used_constructs(k)
        if construct == "narrow":
            assert not {t.dtype for ts in node_types(k) for t in ts} & {"i8", "i16"}


def test_rank2_rows_feed_rank1_steps_only_when_exact() -> None:
    """Row reductions (over [j], n rows) feed rank-1 steps on [i] and a rank-2 map is returned; a
    reassociated float sum's rows are never read again (their rounding is open: a filter of them
    would compare openly rounded values exactly, the false mismatch the first run of this shape
    showed)."""
    from loopopt.tools.fuzz.program import Input, node_refs

    used, returned_maps = 0, 0
    for s in range(3000):
        k = Generator(s).kernel("x")
        if "rank2_rows" not in k.tags:
            continue
        types = node_types(k)
        returned_maps += any(len(types[r][0].axes or ()) == 2 for r in k.results)
        for i, n in enumerate(k.nodes):
            if isinstance(n, Reduce) and n.over == ("j",) and any(i in node_refs(m) for m in k.nodes[i + 1 :]):
                used += 1
                assert not (n.init.dtype in ("f32", "f64") and n.reassoc and n.kind in ("add", "mul")), print_kernel(k)
                assert k.nodes[0].rows_n and isinstance(k.nodes[0], Input)
    assert used >= 20 and returned_maps >= 5, (used, returned_maps)
