"""Delta debugging over a failing kernel's AST: fewer results, bypassed nodes, smaller
expressions, smaller sizes, as long as the failure keeps its class."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from .inputs import SIZE_CHOICES
from .printer import print_kernel
from .program import (
    Arg,
    Const,
    Expr,
    Filter,
    Fold,
    Kernel,
    Map,
    Op,
    Reduce,
    Scan,
    compact,
    map_refs,
    node_refs,
    node_types,
)
from .runner import Failure, reproduce


def _exprs(node) -> list[tuple[str, int, Expr]]:
    match node:
        case Map(expr=e):
            return [("expr", 0, e)]
        case Filter(pred=e):
            return [("pred", 0, e)]
        case Reduce(body=b) | Scan(body=b) if b is not None:
            return [("body", 0, b)]
        case Fold(bodies=bs):
            return [("bodies", k, b) for k, b in enumerate(bs)]
    return []


def _with_expr(node, slot: str, k: int, e: Expr):
    if slot == "bodies":
        bodies = list(node.bodies)
        bodies[k] = e
        return replace(node, bodies=tuple(bodies))
    return replace(node, **{slot: e})


def _subexprs(e: Expr, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Expr]]:
    yield path, e
    if isinstance(e, Op):
        for k, a in enumerate(e.args):
            yield from _subexprs(a, (*path, k))


def _replace_at(e: Expr, path: tuple[int, ...], new: Expr) -> Expr:
    if not path:
        return new
    assert isinstance(e, Op)
    args = list(e.args)
    args[path[0]] = _replace_at(args[path[0]], path[1:], new)
    return Op(e.name, tuple(args), e.dtype)


def candidates(kernel: Kernel) -> Iterator[Kernel]:
    """Smaller variants of `kernel`, biggest cuts first."""
    if len(kernel.results) > 1:
        for r in kernel.results:
            yield compact(replace(kernel, results=(r,)))
    types = node_types(kernel)
    for i, node in enumerate(kernel.nodes):
        for s in sorted(node_refs(node)):
            if types[s][0] == types[i][0] and len(types[i]) == 1:
                remap = lambda k, i=i, s=s: s if k == i else k  # noqa: E731
                nodes = tuple(n if j <= i else map_refs(n, remap) for j, n in enumerate(kernel.nodes))
                yield compact(Kernel(kernel.name, nodes, tuple(remap(r) for r in kernel.results), kernel.tags))
    for i, node in enumerate(kernel.nodes):
        for slot, k, e in _exprs(node):
            args = sorted({x for _, x in _subexprs(e) if isinstance(x, Arg)}, key=lambda a: a.index)
            for path, sub in _subexprs(e):
                options: list[Expr] = []
                if isinstance(sub, Op):
                    options += [a for a in sub.args if a.dtype == sub.dtype]
                    options += [a for a in args if a.dtype == sub.dtype and a != sub]
                if sub.dtype != "record" and not (isinstance(sub, Const) and sub.value in (0, 1)):
                    options.append(Const(0 if sub.dtype != "f32" and sub.dtype != "f64" else 0.0, sub.dtype))
                    options.append(Const(1 if sub.dtype not in ("f32", "f64") else 1.0, sub.dtype))
                for new in options:
                    nodes = list(kernel.nodes)
                    nodes[i] = _with_expr(node, slot, k, _replace_at(e, path, new))
                    yield compact(replace(kernel, nodes=tuple(nodes)))


def _valid(kernel: Kernel) -> bool:
    from loopopt.compile import make_context, parse

    try:
        parse(print_kernel(kernel), make_context()).verify()
        return True
    except Exception:  # noqa: BLE001
        return False


def _same(a: Failure, b: Failure | None) -> bool:
    if b is None or b.cls != a.cls:
        return False
    if a.cls in ("internal", "rejected"):
        return a.message.split(":")[0] == b.message.split(":")[0]
    return True


def minimize(failure: Failure, budget: int = 30) -> Failure:
    """The smallest variant found (within `budget` reproductions) that fails the same way."""
    current = failure
    n, seed = failure.n or 0, failure.seed or 0
    tries = 0
    progress = True
    while progress and tries < budget:
        progress = False
        for cand in candidates(current.kernel):
            if tries >= budget:
                break
            if len(print_kernel(cand)) >= len(print_kernel(current.kernel)) or not _valid(cand):
                continue
            tries += 1
            got = reproduce(cand, failure.isa, n, seed, failure.config)
            if _same(failure, got):
                current = got  # type: ignore[assignment]
                progress = True
                break
    if failure.n is not None:
        for small in sorted({s for g in SIZE_CHOICES for s in g if s < n}):
            if tries >= budget:
                break
            tries += 1
            got = reproduce(current.kernel, failure.isa, small, seed, failure.config)
            if _same(failure, got):
                current = got  # type: ignore[assignment]
                break
    return current


def write_failure(f: Failure, out: Path, index: int, original: Failure | None = None) -> Path:
    """A standalone .mlir with the failure in comments (how to reproduce it in the header)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{f.cls}_{f.isa}_{index:03d}.mlir"
    msg = re.sub(r"\s+\n", "\n", f.message).strip().splitlines()
    head = [
        f"// FUZZ: class={f.cls} isa={f.isa} kernel=@{f.kernel.name} n={f.n} seed={f.seed}"
        + (f" config: {f.config.label()}" if f.config.label() else ""),
        f"// REF: kernel=@{f.kernel.name} inputs=loopopt.tools.fuzz.inputs.make_args(<this kernel>, n={f.n}, seed={f.seed})"
        " ref=loopopt.tools.fuzz.evaluate.evaluate (numpy)",
        f"// reproduce: loop-fuzz --replay {path.with_suffix('.pkl').name}",
        *(f"// {line}" for line in msg[:40]),
    ]
    if original is not None and original.kernel != f.kernel:
        head.append("// minimized from:")
        head += [f"//   {line}" for line in print_kernel(original.kernel).splitlines()]
    path.write_text("\n".join(head) + "\n\n" + print_kernel(f.kernel))
    import pickle

    path.with_suffix(".pkl").write_bytes(pickle.dumps(f))
    return path
