"""Shrink a failing ABI-fuzzer call (`abi.Failure`) to a small reproducer: the hostile parts of the
call it does not need dropped (extreme scalars, aliasing, a mismatched length, a negative length),
plainer buffers (offset 0, no slack), the serial build and one thread, fewer df ops (`minimize.
candidates`: fewer results, bypassed nodes, smaller expressions; an aliased pair, extreme scalars
and plain inputs follow their nodes), a smaller n, plain data (0, 1, 2, ...), a capacity of 0 or
n; each step kept only when the call still fails the same way (`same_failure`). The result prints
as a `--replay` command and a pytest snippet for test/python/fuzz/test_fuzz_abi.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from .abi import SIZES, AbiFuzzer, Case, Failure
from .evaluate import NP
from .minimize import _valid, candidates
from .printer import print_kernel
from .program import Input, Kernel, Param
from .runner import EMIT_ONLY, Config, compile_groups

Patch = Callable[[str], str]
"""A change to the printed C before it is built (the tests inject bugs this way)."""


def reproduce(kernel: Kernel, isa: str, case: Case, config: Config, patch: Patch | None = None) -> Failure | None:
    """Compile `kernel` for `isa` and make the one call `case`: its failure, or None."""
    fuzzer = AbiFuzzer([isa])
    groups, fails = compile_groups([kernel], EMIT_ONLY + isa, None, config)
    if fails:
        return Failure(fails[0].cls, isa, kernel, fails[0].message, case, config)
    ((compiled, _),) = groups
    if patch is not None:
        patched = patch(compiled.c_source)
        if patched == compiled.c_source:  # the injected bug is not in this kernel's C
            return None
        compiled.c_source = patched
    fuzzer.run_group(compiled, [kernel], isa, config, 0, [case])
    return fuzzer.failures[0] if fuzzer.failures else None


def failure_key(f: Failure) -> tuple[str, str]:
    """The class, and for sanitizer reports and crashes the kind of report (heap-buffer-overflow,
    a UBSan check), so that a shrink does not trade one bug for another."""
    kind = ""
    if f.cls in ("sanitizer", "crash", "internal"):
        for line in f.message.splitlines():
            if "ERROR: AddressSanitizer:" in line:
                kind = line.split("ERROR: AddressSanitizer:", 1)[1].split()[0]
                break
            if "runtime error:" in line:
                kind = " ".join(line.split("runtime error:", 1)[1].split()[:3])
                break
            if f.cls == "internal":
                kind = line.split(":")[0]
                break
    return f.cls, kind


def same_failure(a: Failure, b: Failure | None) -> bool:
    return b is not None and failure_key(a) == failure_key(b)


def _case_fits(kernel: Kernel, case: Case) -> bool:
    """Whether the node indices `case` names (aliased inputs, extreme scalars) still name such
    nodes in `kernel` (a shrunk kernel renumbers its nodes)."""
    nodes = kernel.nodes
    if case.alias is not None:
        a, b = case.alias
        if max(a, b) >= len(nodes) or not all(isinstance(nodes[k], Input) and not nodes[k].fields and nodes[k].rank == 1 for k in (a, b)):
            return False
        if nodes[a].dtype != nodes[b].dtype or nodes[a].axis != nodes[b].axis:  # type: ignore[union-attr]
            return False
    for k, v in case.extreme:
        if k >= len(nodes) or not isinstance(nodes[k], Param) or nodes[k].role != "free":
            return False
        if type(v) is not NP.get(nodes[k].dtype):
            return False
    return True


def renumbered(old: Kernel, new: Kernel, case: Case) -> Case | None:
    """`case` for `new`, a shrunk `old` (`minimize.candidates` keep the input and parameter nodes
    they do not drop as the same objects): the aliased pair, the extreme scalars and the plain
    inputs follow their nodes to the new indices. None when an aliased input is gone; an extreme
    scalar or plain input that is gone is dropped with it."""
    if len({id(n) for n in old.nodes}) != len(old.nodes):
        return case if _case_fits(new, case) else None
    where = {id(n): j for j, n in enumerate(new.nodes)}

    def to(k: int) -> int | None:
        return where.get(id(old.nodes[k])) if k < len(old.nodes) else None

    alias = None
    if case.alias is not None:
        a, b = to(case.alias[0]), to(case.alias[1])
        if a is None or b is None:
            return None
        alias = (a, b)
    extreme = tuple((j, v) for k, v in case.extreme if (j := to(k)) is not None)
    plain = tuple(j for k in case.plain if (j := to(k)) is not None)
    out = replace(case, alias=alias, extreme=extreme, plain=plain)
    return out if _case_fits(new, out) else None


def _plain_steps(kernel: Kernel, case: Case) -> Iterator[Case]:
    """Plainer data: every array input's at once, then one input at a time."""
    arrays = [k for k, n in enumerate(kernel.nodes) if isinstance(n, Input) and not n.index and k not in case.plain]
    if len(arrays) > 1:
        yield replace(case, plain=tuple(sorted((*case.plain, *arrays))))
    for k in arrays:
        yield replace(case, plain=tuple(sorted((*case.plain, k))))


def _case_steps(case: Case) -> Iterator[Case]:
    """Plainer calls, one hostile part at a time."""
    if case.extreme:
        yield replace(case, extreme=())
        for k in range(len(case.extreme)):
            yield replace(case, extreme=case.extreme[:k] + case.extreme[k + 1 :])
    if case.alias is not None:
        yield replace(case, alias=None)
    if case.mismatch:
        yield replace(case, mismatch=0)
    if case.negative:
        yield replace(case, negative=0)
        for neg in (-1,):
            if case.negative != neg:
                yield replace(case, negative=neg)
    if case.offset != 0:
        yield replace(case, offset=0)
    if case.slack != 0:
        yield replace(case, slack=0)


def _config_steps(config: Config) -> Iterator[Config]:
    if config != Config():
        yield Config()
    if config.threads > 1:
        yield replace(config, threads=1)
    if config.filter_block:
        yield replace(config, filter_block=0)


def minimize_abi(failure: Failure, budget: int = 60, patch: Patch | None = None,
                 log: Callable[[str], None] | None = None) -> tuple[Failure, int]:  # fmt: skip
    """The smallest variant of `failure` found within `budget` reproductions that fails the
    same way, and the reproductions spent. A failure without a case (a compile error) shrinks
    its kernel only."""
    cur = failure
    case = failure.case
    tries = 0

    def attempt(kernel: Kernel, c: Case | None, config: Config) -> bool:
        nonlocal cur, tries, case
        if tries >= budget:
            return False
        tries += 1
        got = reproduce(kernel, failure.isa, c, config, patch) if c is not None else _compile_only(kernel, failure.isa, config)
        if not same_failure(failure, got):
            return False
        assert got is not None
        cur, case = replace(got, case=c, config=config, kernel=kernel), c
        if log is not None:
            log(f"  shrunk ({tries}): {len(kernel.nodes)} nodes, {c.label() if c else '-'} {config.label()}".rstrip())
        return True

    progress = True
    while progress and tries < budget:
        progress = False
        for cfg in _config_steps(cur.config):
            progress |= attempt(cur.kernel, case, cfg)
        if case is not None:
            for c in _case_steps(case):
                if attempt(cur.kernel, c, cur.config):
                    progress = True
                    break
        size = len(print_kernel(cur.kernel))
        for cand in candidates(cur.kernel):
            if tries >= budget:
                break
            moved = renumbered(cur.kernel, cand, case) if case is not None else None
            if len(print_kernel(cand)) >= size or not _valid(cand) or (case is not None and moved is None):
                continue
            if attempt(cand, moved, cur.config):
                progress = True
                break
        if case is not None and case.n > 0:
            for n in sorted(s for s in SIZES if s < case.n):
                if attempt(cur.kernel, replace(case, n=n), cur.config):
                    progress = True
                    break
        if case is not None and case.n > 0:
            for c in _plain_steps(cur.kernel, case):
                if attempt(cur.kernel, c, cur.config):
                    progress = True
                    break
        if case is not None and case.cap is None and case.n >= 0:
            for cap in (0, case.n):
                if attempt(cur.kernel, replace(case, cap=cap), cur.config):
                    progress = True
                    break
    return cur, tries


def _compile_only(kernel: Kernel, isa: str, config: Config) -> Failure | None:
    _, fails = compile_groups([kernel], EMIT_ONLY + isa, None, config)
    return Failure(fails[0].cls, isa, kernel, fails[0].message, None, config) if fails else None


def pytest_snippet(f: Failure, name: str = "minimized") -> str:
    """A pytest test for test/python/fuzz/test_fuzz_abi.py (its `_run` and `_report`) that makes
    the minimized call and expects no failure: red until the bug is fixed."""
    case = f"[{f.case!r}]" if f.case is not None else "[]"
    from . import program

    cls, kind = failure_key(f)
    what = kind if kind else (f.message.splitlines() or [""])[0]

    used = sorted({c for c in re.findall(r"\b([A-Z][A-Za-z]+)\(", repr(f.kernel)) if isinstance(getattr(program, c, None), type)})
    return "\n".join([
        *(["import numpy as np"] if "np." in case else []),
        f"from loopopt.tools.fuzz.program import {', '.join(used)}  # noqa: F401 (with test_fuzz_abi.py's imports)",
        "",
        f"{name.upper()} = {f.kernel!r}",
        "",
        "",
        f"def test_{name}() -> None:",
        f'    """ABI fuzzer, {f.cls} on {f.isa} (minimized): {what[:120]}"""',
        f"    fuzzer = _run({name.upper()}, {f.isa!r}, {case}, {f.config!r})",
        "    assert not fuzzer.failures, _report(fuzzer)",
    ])  # fmt: skip
