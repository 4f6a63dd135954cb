"""The ABI fuzzer's minimizer (tools/fuzz/abi_minimize.py): bugs injected into the printed C, as
test_fuzz_abi.py's oracle tests inject them, found through a bigger kernel and a more hostile
call than needed, shrink to a small reproducer that still fails the same way."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from loopopt.tools.fuzz.abi import Case, write_failure
from loopopt.tools.fuzz.abi_minimize import failure_key, minimize_abi, pytest_snippet, reproduce
from loopopt.tools.fuzz.program import Arg, Const, Filter, Input, Kernel, Map, Op, Param, Reduce, Scalar
from loopopt.tools.fuzz.runner import Config

GT0 = Op("cmp:sgt", (Arg(0, "i32"), Const(0, "i32")), "i1")
BIG = Kernel("big", (
    Input("i32"), Input("i32"), Param("i32"),
    Map((0, 1), Op("mul", (Op("add", (Arg(0, "i32"), Arg(1, "i32")), "i32"), Scalar(2, "i32")), "i32")),
    Filter((0,), GT0, "k0"),
    Reduce("add", 3, Const(0, "i32")),
), (4, 5, 3))  # fmt: skip
"""A filter among a map and a sum of two inputs and a scalar: only the filter holds the bugs below."""

HOSTILE = Case(100, 7, alias=(0, 1), extreme=((2, np.int32(-1)),), offsets=5, caps=5, cap=3, slack=0, offset=3)


def _unguard(c: str) -> str:
    """The scalar filter's guarded tail store made unconditional (a write past the capacity)."""
    return re.sub(r"if \(\w+ > 0\) (out\w*\[count\w*\] = )", r"\1", c)


def _off_by_one(c: str) -> str:
    return re.sub(r"(\*ret\d+ = |return )count;", r"\1count + 1;", c)


def test_minimizer_shrinks_a_write_past_the_capacity(tmp_path: Path) -> None:
    """ASan's heap-buffer-overflow, found through BIG with aliased inputs, an extreme scalar,
    offsets and n = 100: the same report from the filter alone, a plain call, a small n."""
    found = reproduce(BIG, "scalar", HOSTILE, Config(), _unguard)
    assert found is not None and failure_key(found) == ("sanitizer", "heap-buffer-overflow"), found
    small, tries = minimize_abi(found, budget=40, patch=_unguard)
    assert failure_key(small) == failure_key(found)
    assert small.case is not None and small.case.alias is None and not small.case.extreme and small.case.offset == 0
    assert small.case.n < 100 and len(small.kernel.results) == 1 and len(small.kernel.nodes) <= 2, small
    assert isinstance(small.kernel.nodes[small.kernel.results[0]], Filter)
    assert reproduce(small.kernel, "scalar", small.case, small.config, _unguard) is not None  # still fails
    snippet = pytest_snippet(small, "capacity")
    assert "def test_capacity() -> None:" in snippet and "_run(CAPACITY, 'scalar', [Case(" in snippet
    kernel: dict = {}
    exec(snippet.split("\n\n\n")[0], kernel)  # the import line and the kernel
    assert kernel["CAPACITY"] == small.kernel
    path = write_failure(small, tmp_path, 0, original=found)
    assert f"--replay {path.with_suffix('.pkl')}" in path.read_text() and "minimized from 6 nodes" in path.read_text()
    assert "def test_sanitizer_scalar_000() -> None:" in path.with_suffix(".py.txt").read_text()


def test_minimizer_shrinks_a_wrong_count_to_an_empty_call() -> None:
    """A count off by one fails at every size: n shrinks to 0, the kernel to its filter."""
    found = reproduce(BIG, "scalar", HOSTILE, Config(), _off_by_one)
    assert found is not None and found.cls == "count", found
    small, _ = minimize_abi(found, budget=40, patch=_off_by_one)
    assert small.cls == "count" and small.case is not None and small.case.n == 0, small.case
    assert len(small.kernel.nodes) <= 2 and len(small.kernel.results) == 1, small.kernel


def test_a_shrunk_kernel_keeps_its_aliased_pair() -> None:
    """A candidate that drops the scalar node 0 renumbers both aliased inputs (1, 2 -> 0, 1): the
    case follows them (before: such candidates were skipped, so an aliasing bug kept every node
    in front of its inputs); the extreme scalar goes with its node, a plain input moves."""
    from loopopt.tools.fuzz.abi_minimize import renumbered
    from loopopt.tools.fuzz.minimize import candidates

    add = Op("add", (Arg(0, "i32"), Arg(1, "i32")), "i32")
    k = Kernel("r", (Param("i32"), Input("i32"), Input("i32"), Map((1, 2), add),
                     Map((3,), Op("mul", (Arg(0, "i32"), Scalar(0, "i32")), "i32"))), (4,))  # fmt: skip
    case = Case(10, 1, alias=(1, 2), extreme=((0, np.int32(-1)),), plain=(2,))
    cand = next(c for c in candidates(k) if not isinstance(c.nodes[0], Param) and len(c.nodes) == 4)
    assert renumbered(k, cand, case) == Case(10, 1, alias=(0, 1), plain=(1,))
    gone = next(c for c in candidates(k) if sum(isinstance(n, Input) for n in c.nodes) == 1)
    assert renumbered(k, gone, case) is None  # an aliased input is gone


def test_plain_data_keep_shape_dtype_and_alias() -> None:
    """`Case.plain` replaces an input's data by 0, 1, 2, ...; an aliased copy follows it."""
    from loopopt.tools.fuzz.abi import plain_values

    assert plain_values(np.array([7.5, -1e30, np.nan, 3.0, 2.0], np.float32)).tolist() == [0, 1, 2, 0, 1]
    assert plain_values(np.array([5, 9], np.int8)).dtype == np.int8
    assert plain_values(np.array([True, True, False])).tolist() == [False, True, False]
    rec = plain_values({"a": np.ones(4, np.int64), "b": np.ones(4, np.int64)})
    assert rec["a"].tolist() == rec["b"].tolist() == [0, 1, 2, 0]


def test_minimizer_makes_the_data_plain() -> None:
    """The write past a small capacity needs only more kept elements than the capacity: plain
    data (0, 1, 2, ... of which 1 and 2 pass x > 0) keep the report and are kept."""
    case = Case(33, 7, offsets=5, caps=5, cap=3, slack=0, offset=0)
    found = reproduce(BIG, "scalar", case, Config(), _unguard)
    assert found is not None and failure_key(found) == ("sanitizer", "heap-buffer-overflow"), found
    small, _ = minimize_abi(found, budget=40, patch=_unguard)
    assert small.case is not None and small.case.plain, small.case
    assert reproduce(small.kernel, "scalar", small.case, small.config, _unguard) is not None
