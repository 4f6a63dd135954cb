"""loopopt's side of `loop-bench`: the df programs through `loopopt.compile`, per ISA.

All requested kernels of one ISA go through `loopopt.compile` as one module (one pipeline
run, one gcc run). If that fails, each kernel is compiled on its own so one pattern that
the pipeline or printer cannot handle yet costs only its own cells, and the error (first
line, with its location) is kept for the table instead of a number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .patterns import BenchPattern


@dataclass
class LoopoptBuild:
    """What loopopt produced for one ISA: per kernel name, its C and signature, or why not."""

    isa: str
    pipeline: str
    c_sources: dict[str, str] = field(default_factory=dict)
    """Kernel name -> the C it was compiled from (the whole module's C when compiled together)."""
    signatures: dict[str, Any] = field(default_factory=dict)
    callables: dict[str, Any] = field(default_factory=dict)
    """Kernel name -> the `loopopt.compile` callable (used for the correctness check and call overhead)."""
    errors: dict[str, str] = field(default_factory=dict)


def first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    line = text.splitlines()[0]
    return f"{type(error).__name__}: {line}"[:300]


def program_text(patterns: Sequence[BenchPattern]) -> str:
    """The patterns' df programs, each file once (corpus files hold several kernels)."""
    return "\n".join(path.read_text() for path in dict.fromkeys(p.program for p in patterns))


def pipeline_for(isa: str) -> str:
    """`loopopt.compile`'s default pipeline for `isa`, tuned for this machine's CPU model
    (`cpu=native`: what `target=native` does) when that CPU runs `isa`."""
    from loopopt.compile import default_pipeline
    from loopopt.lowering.target import native_cpu

    pipeline = default_pipeline(isa)
    cpu = native_cpu()
    if cpu.runs(isa) and pipeline.endswith("}"):
        pipeline = pipeline[:-1] + " cpu=native}"
    return pipeline


def compile_isa(patterns: Sequence[BenchPattern], dtypes: Sequence[str], isa: str) -> LoopoptBuild:
    """Compile the patterns' df programs for `isa` with `pipeline_for(isa)`."""
    import loopopt.compile as lc
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.dialects.func import FuncOp

    build = LoopoptBuild(isa, pipeline_for(isa))
    wanted = [p.kernel(d) for p in patterns for d in dtypes if d in p.dtypes]
    try:
        module = lc.parse(program_text(patterns), name="bench_programs")
    except Exception as e:  # a broken program is a bench bug, but report it per cell like the rest
        build.errors.update({k: f"parse: {first_line(e)}" for k in wanted})
        return build
    funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    needed = {name: _with_callees(name, funcs) for name in wanted if name in funcs}
    keep = set().union(*needed.values()) if needed else set()
    for name in list(funcs):
        if name not in keep:
            funcs[name].detach()
    try:
        compiled = lc.compile(module, target=isa, pipeline=build.pipeline)
        for name in wanted:
            build.c_sources[name] = compiled.c_source
            build.signatures[name] = compiled.signatures[name]
            build.callables[name] = compiled[name]
        return build
    except Exception:
        pass
    for name in wanted:
        try:
            module = ModuleOp([funcs[f].clone() for f in sorted(needed.get(name, {name}))])
            compiled = lc.compile(module, target=isa, pipeline=build.pipeline)
            build.c_sources[name] = compiled.c_source
            build.signatures[name] = compiled.signatures[name]
            build.callables[name] = compiled[name]
        except Exception as e:
            build.errors[name] = first_line(e)
    return build


def _with_callees(name: str, funcs: dict[str, Any]) -> set[str]:
    """`name` and the functions its `df.decl_ref`s reach (softmax's max-reduce is one): a corpus
    kernel compiles with the kernels it calls."""
    seen, todo = set(), [name]
    while todo:
        f = todo.pop()
        if f in seen or f not in funcs:
            continue
        seen.add(f)
        todo += [op.decl.root_reference.data for op in funcs[f].walk() if op.name == "df.decl_ref"]
    return seen
