"""`loop-opt --jobs N`: a module's functions compiled in N forked worker processes.

Python threads do not run in parallel, but a loopopt module's functions are independent
through the whole pipeline (MLIR's multi-threaded pass manager relies on the same isolation):
the parent parses and verifies once, forks, and worker k keeps a contiguous share of the
functions (balanced by op count) plus the functions they reference by symbol (a
`df.decl_ref` inlines its callee's body), erases the rest, runs the pipeline and prints its
share's C. Forking shares the parsed IR copy-on-write: nothing is serialized but the results.

This divides wall time by up to the core count; it does not reduce the CPU time per op.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

__all__ = ["Died", "Failed", "Finished", "PrintedShare", "function_shares", "is_available", "keep_share", "run_workers"]


def function_shares(module: ModuleOp, jobs: int) -> list[list[str]]:
    """The names of `module`'s defined functions cut into at most `jobs` contiguous shares of
    about the same op count (a function is not split), in module order."""
    funcs = [(f.sym_name.data, sum(1 for _ in f.walk())) for f in module.ops if isinstance(f, FuncOp) and not f.is_declaration]
    total = sum(n for _, n in funcs)
    jobs = max(1, min(jobs, len(funcs)))
    shares: list[list[str]] = [[] for _ in range(jobs)]
    done = 0
    for name, n in funcs:
        # the share whose slice of the op count holds this function's middle op
        k = min(jobs - 1, (2 * done + n) * jobs // (2 * total)) if total else 0
        shares[k].append(name)
        done += n
    return [s for s in shares if s]


def keep_share(module: ModuleOp, share: list[str]) -> None:
    """Erase `module`'s defined functions but those of `share`, those they reference by symbol
    and those whose names a pass derives from theirs (a user's `<k>__count` keeps
    derive-filter-count from adding a second one, as in the whole module), transitively
    (declarations stay): the worker's module, in the same order. The worker prints its share only."""
    from loopopt.passes.derive_filter_count import count_name

    funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
    kept: set[str] = set()
    todo = list(share)
    while todo:
        name = todo.pop()
        if name in kept or name not in funcs:
            continue
        kept.add(name)
        todo.extend(_referenced(funcs[name]))
        todo.append(count_name(name))
    for name, f in funcs.items():
        if name not in kept and not f.is_declaration:
            f.detach()  # (not erased: a walk over the rest of the module, and copy-on-write
            # faults on its pages; the worker ends with os._exit, nothing is freed)


def _referenced(f: FuncOp) -> Iterator[str]:
    """The symbols `f`'s ops name (in their properties or attributes, nested in arrays too)."""
    for op in f.body.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            yield from _symbols(attr)


def _symbols(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root_reference.data
    elif isinstance(attr, ArrayAttr):
        for a in attr.data:
            yield from _symbols(a)
    elif isinstance(attr, DictionaryAttr):
        for a in attr.data.values():
            yield from _symbols(a)


@dataclass
class Finished:
    """A worker that ran to its end: `value` (what the job returned, or its failure's
    report) and what it printed, held back so that the workers' output keeps module order."""

    value: object
    stdout: str
    stderr: str


@dataclass
class PrintedShare:
    """A worker's C: its functions' `code`, whether they allocate, the drivers of its parallel
    kernels (targets/c_parallel.py) and `file`: what the file's header is made of (equal in
    every worker; else the module is compiled serially)."""

    code: str
    needs_stdlib: bool
    drivers: list[str]
    file: tuple


@dataclass
class Failed:
    """A worker's error, named for debugging: loop-opt then compiles the module serially, which
    reports the error exactly as without `--jobs` (pass order decides which error comes first)."""

    error: str


@dataclass
class Died:
    """A worker that ended without a result (a signal, `os._exit`, a broken pickle)."""

    share: int
    why: str


def run_workers(count: int, job: Callable[[int], object]) -> list[Finished | Died]:
    """`job(k)` for k < count, each in a forked process; their results in order. The parent
    reads every pipe to its end and waits for every worker before it returns: no hang and no
    zombie whatever a worker does. `job` converts its own errors into a picklable value."""
    sys.stdout.flush()
    sys.stderr.flush()
    workers: list[tuple[int, int]] = []
    for k in range(count):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the parent's code
            os.close(read)
            _work(k, job, write)
        os.close(write)
        workers.append((pid, read))
    outcomes: list[Finished | Died] = []
    for k, (pid, read) in enumerate(workers):
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        try:
            outcomes.append(pickle.loads(data))
        except Exception:  # noqa: BLE001 - a short or empty pipe: the worker died
            outcomes.append(Died(k, _status_text(status)))
    return outcomes


def _work(k: int, job: Callable[[int], object], write: int) -> None:
    status = 0
    try:
        out, err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = out, err
        try:
            value = job(k)
        finally:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        data = pickle.dumps(Finished(value, out.getvalue(), err.getvalue()))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
    except BaseException:  # noqa: BLE001 - the parent reports a worker without a result
        status = 70
    finally:
        os._exit(status)  # no atexit handlers, no flush of buffers inherited from the parent


def _status_text(status: int) -> str:
    if os.WIFSIGNALED(status):
        import signal

        sig = os.WTERMSIG(status)
        try:
            return f"killed by signal {sig} ({signal.Signals(sig).name})"
        except ValueError:
            return f"killed by signal {sig}"
    return f"exited with status {os.waitstatus_to_exitcode(status)} without a result"


def is_available() -> bool:
    """Forking works here (not on Windows; under a debugger or tracer it still does)."""
    return hasattr(os, "fork")
