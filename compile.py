"""`loopopt.compile`: source (or a module) in, callable compiled kernels out.

    kernels = loopopt.compile(mlir_text, target="avx2")
    out = np.empty_like(x); total = kernels.sum_sq(x, out)      # C parameter order
    out, total = kernels.call_alloc("sum_sq", x)                 # outputs allocated

Parse (with source locations), run the pipeline, print C for the target ISA (`-t c`), build it
with the runtime (`loopopt.runtime.compile_library`, one cached shared object) and wrap each
kernel. NEON kernels run under qemu (`loopopt.runtime.ForeignKernel`): their callables take
the inputs only and return `(outputs, results)` like `call_alloc`.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, math
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

from loopopt import registry
from loopopt.diagnostics import LocatedParser, LoopoptDiagnostic

DEFAULT_PIPELINE = "loop-pipeline{{target={target}}}"
FALLBACK_PIPELINE = ("df-fuse", "convert-df-to-loop")
"""Used while the named default pipeline is not in the registry yet (prints scalar Loop IR)."""


def make_context() -> Context:
    """A context with the dialects kernels use: builtin, func, arith, math and loopopt's own."""
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, math.Math):
        ctx.load_dialect(d)
    for name, factory in registry.get_all_dialects().items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


def parse(source: str, ctx: Context | None = None, name: str = "<string>") -> ModuleOp:
    """Parse MLIR text, stamping each op with its source location."""
    return LocatedParser(ctx or make_context(), source, name).parse_module()


def default_pipeline(target: str) -> str:
    passes = registry.get_all_passes()
    if "loop-pipeline" in passes:
        return DEFAULT_PIPELINE.format(target=target)
    return ",".join(p for p in FALLBACK_PIPELINE if p in passes)


def run_pipeline(module: ModuleOp, pipeline: str, ctx: Context) -> None:
    if not pipeline.strip():
        return
    PassPipeline.parse_spec(registry.get_all_passes(), pipeline).apply(ctx, module)


# --------------------------------------------------------------------------- signatures


def kernel_signature(op: func.FuncOp) -> Any:
    """The runtime KernelSignature of a Loop IR kernel (read from its ABI argument attributes)."""
    from loopopt.lowering.abi import kernel_signature as read_signature

    try:
        return read_signature(op)
    except ValueError as e:
        raise LoopoptDiagnostic(str(e), op) from None


def kernels_of(module: ModuleOp) -> list[func.FuncOp]:
    """The kernels: funcs marked `loop.kernel`, or every defined public func if none is marked."""
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp) and not op.is_declaration]
    marked = [op for op in funcs if "loop.kernel" in op.attributes]
    if marked:
        return marked
    return [op for op in funcs if op.sym_visibility is None or op.sym_visibility.data != "private"]


# --------------------------------------------------------------------------- result


@dataclass
class CompiledKernels:
    """The kernels of one compiled module, callable by name (`k.name(...)` or `k["name"](...)`)."""

    c_source: str
    """The printed C (what was compiled)."""
    target: str
    """The ISA the C was printed and built for."""
    module: ModuleOp
    """The module after the pipeline."""
    signatures: dict[str, Any]
    """KernelSignature per kernel name."""
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    library: Any = None
    """The runtime Library (None for NEON, which runs under qemu)."""

    def __getitem__(self, name: str) -> Callable[..., Any]:
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"no kernel {name!r} (have {', '.join(sorted(self.functions))})") from None

    def __getattr__(self, name: str) -> Callable[..., Any]:
        functions = self.__dict__.get("functions", {})
        if name in functions:
            return functions[name]
        raise AttributeError(f"no kernel {name!r} (have {', '.join(sorted(functions))})")

    def __iter__(self):
        return iter(self.functions)

    def call_alloc(self, name: str, *inputs: Any, extents: Mapping[str, int] | None = None) -> tuple[Any, ...]:
        """Call `name` on its inputs only; returns (*outputs, *results), filter outputs trimmed.

        Outputs are sized from the inputs' axes; `extents` gives the length of an axis no
        input has. An output on a computed axis (a range's: `loop.extents`) is sized by
        asking the kernel first (`KernelSignature.call_alloc`): the kernel runs twice.
        """
        sig = self.signatures[name]
        function = self[name]
        if self.library is None:  # a ForeignKernel sizes its outputs itself
            outputs, results = function(*inputs, extents=extents)
            return (*outputs, *results)
        query = None
        if sig.extents:
            from loopopt.runtime.pyext import QUERY_PREFIX

            query = getattr(function.__self__, QUERY_PREFIX + name)  # the extension module
        return sig.call_alloc(function, inputs, extents, query)


def compile(  # noqa: A001 - the public name is loopopt.compile
    source_or_module: str | ModuleOp,
    target: str = "native",
    pipeline: str | None = None,
    extra_cflags: Sequence[str] = (),
) -> CompiledKernels:
    """Compile MLIR text (df or Loop IR) or a module into callable kernels for `target`.

    `target` is an ISA (scalar sse2 avx2 avx512 neon) or "native" (the best this CPU runs).
    `pipeline` is a pass pipeline string; None runs the default pipeline for the target, ""
    runs nothing (the module must already be Loop IR / simd). Errors in the source or an
    op the printer cannot express raise `LoopoptDiagnostic` with its location.
    """
    from loopopt import runtime
    from loopopt.targets.c import emit_c

    isa = runtime.best_isa() if target == "native" else runtime.isa.check_isa(target, allow_native=False)
    ctx = make_context()
    if isinstance(source_or_module, ModuleOp):
        module = source_or_module.clone()
    else:
        module = parse(source_or_module, ctx)
    module.verify()
    spec = default_pipeline(isa) if pipeline is None else pipeline
    run_pipeline(module, spec, ctx)
    leftover = next((op for op in module.walk() if op.dialect_name() == "df"), None)
    if leftover is not None:
        raise LoopoptDiagnostic(f"{leftover.name} is left after the pipeline '{spec}': nothing lowers it to loops", leftover)
    c_source = emit_c(module, isa, spec)
    kernels = kernels_of(module)
    signatures = {k.sym_name.data: kernel_signature(k) for k in kernels}
    compiled = CompiledKernels(c_source, isa, module, signatures)
    if isa in runtime.isa.FOREIGN_TOOLS:
        compiled.functions = {name: runtime.ForeignKernel(c_source, sig, isa) for name, sig in signatures.items()}
        return compiled
    library = runtime.compile_library(c_source, list(signatures.values()), isa=isa, extra_cflags=extra_cflags)
    compiled.library = library
    compiled.functions = {name: library[name] for name in signatures}
    return compiled


__all__ = ["CompiledKernels", "compile", "kernel_signature", "kernels_of", "make_context", "parse"]


class _CallableModule(types.ModuleType):
    """Makes `loopopt.compile(...)` work whether `loopopt.compile` names this module or the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> CompiledKernels:
        return compile(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
