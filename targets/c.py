"""`-t c`: the C target, an xDSL `Target` printing a lowered module as one C11 file.

`loop-opt kernel.mlir -p 'convert-loop-to-simd{target=avx2}' -t c` prints C with AVX2
intrinsics. The ISA comes from the module's `loop.target` attribute (set by the lowering) or
from the option `-t 'c{target=avx2}'`; a module lowered for one ISA cannot be printed for
another. Without either the target is `scalar` (portable C). `pipeline` names the pipeline
in the file's header comment when the module does not record it (`loop.pipeline`); either is
user text and is printed through `loopopt.names.c_comment_text`, so it cannot end the comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.target import Target

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.names import python_repr
from loopopt.targets.c_isa import IsaTable
from loopopt.targets.c_printer import CPrinter

TARGET_ATTRS = ("loop.target", "simd.target")
"""Module attributes that record the ISA a module was lowered for."""
PIPELINE_ATTR = "loop.pipeline"
FEATURES_ATTR = "loop.cpu_features"
"""CPU extensions the module may use past its ISA (set by convert-loop-to-simd from `cpu=`)."""
PARALLEL_ATTR = "loop.parallel"
"""Func attribute of kernels split across threads (targets/c_parallel.py, docs/threads.md)."""


def isa_table(name: str) -> IsaTable:
    """The intrinsic table of ISA `name` (scalar sse2 avx2 avx512 neon)."""
    from loopopt.targets.isa_avx2 import AVX2
    from loopopt.targets.isa_avx512 import AVX512
    from loopopt.targets.isa_neon import NEON
    from loopopt.targets.isa_scalar import SCALAR
    from loopopt.targets.isa_sse2 import SSE2

    tables = {t.name: t for t in (SCALAR, SSE2, AVX2, AVX512, NEON)}
    try:
        return tables[name]
    except KeyError:
        raise ValueError(f"unknown C target {python_repr(name)}, expected one of {', '.join(tables)}") from None


def module_target(module: ModuleOp) -> str | None:
    for attr in TARGET_ATTRS:
        value = module.attributes.get(attr)
        if isinstance(value, StringAttr):
            return value.data
    return None


def c_printer(module: ModuleOp, target: str = "", pipeline: str = "") -> CPrinter:
    """The printer of `module`'s C: its ISA table (with the recorded CPU features) and the
    header's target and pipeline; `target`/`pipeline` fill in what the module does not record."""
    recorded = module_target(module)
    if recorded is not None and target and recorded != target:
        raise LoopoptDiagnostic(
            f"module was lowered for target {python_repr(recorded)} but the C printer was asked for {python_repr(target)}",
            module,
        )
    name = recorded or target or "scalar"
    try:
        table = isa_table(name)
        features = module.attributes.get(FEATURES_ATTR)
        if isinstance(features, StringAttr) and features.data:
            from loopopt.targets.c_part import with_cpu_features

            table = with_cpu_features(table, features.data.split(","))
    except ValueError as e:
        raise LoopoptDiagnostic(str(e), module) from None
    recorded_pipeline = module.attributes.get(PIPELINE_ATTR)
    pipe = recorded_pipeline.data if isinstance(recorded_pipeline, StringAttr) else pipeline or None
    return CPrinter(table, name, pipe)


def emit_c(module: ModuleOp, target: str = "", pipeline: str = "") -> str:
    """The C source of `module`; `target`/`pipeline` fill in what the module does not record."""
    code = c_printer(module, target, pipeline).print_module(module)
    if has_parallel_kernels(module):
        from loopopt.targets.c_parallel import parallelize

        code = parallelize(module, code)
    return code


def has_parallel_kernels(module: ModuleOp) -> bool:
    return any(PARALLEL_ATTR in op.attributes for op in module.ops)


@dataclass(frozen=True)
class CTarget(Target):
    """C11 with SSE2 / AVX2+FMA / AVX-512 / NEON intrinsics, or portable scalar C."""

    name = "c"

    target: str = ""
    """ISA when the module does not record one: scalar, sse2, avx2, avx512, neon."""
    pipeline: str = ""
    """Pipeline named in the header comment when the module does not record one."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(emit_c(module, self.target, self.pipeline))
