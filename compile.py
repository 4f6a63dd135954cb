"""`loopopt.compile`: source (or a module) in, callable compiled kernels out.

    kernels = loopopt.compile(mlir_text, target="avx2")
    out = np.empty_like(x); total = kernels.sum_sq(x, out)      # C parameter order
    total = kernels.sum_sq(x=x, out=out)                         # or by parameter name
    out, total = kernels.call_alloc("sum_sq", x)                 # outputs allocated
    total = kernels.call_alloc("sumsq", x=x)                     # one value for one output or result

Parse (with source locations), run the pipeline, print C for the target ISA (`-t c`), build it
with the runtime (`loopopt.runtime.compile_library`, one cached shared object) and wrap each
kernel. NEON kernels run under qemu (`loopopt.runtime.ForeignKernel`): their callables take
the inputs only and return `(outputs, results)` like `call_alloc`.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, math
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import parse_pipeline as parse_pipeline_specs
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from loopopt import registry
from loopopt.diagnostics import (
    InternalError,
    LocatedParser,
    LoopoptDiagnostic,
    PipelineError,
    _op_in_traceback,
    debug_enabled,
    first_op_of_dialect,
    verify_located,
)

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


def parse(source: str | bytes, ctx: Context | None = None, name: str = "<string>") -> ModuleOp:
    """Parse MLIR text (or UTF-8 bytes), stamping each op with its source location.

    Hostile text gives a located ParseError (non-UTF-8 bytes, unterminated strings in
    linear time, overflowing literals, nesting deeper than `diagnostics.MAX_NESTING`)."""
    return LocatedParser(ctx or make_context(), source, name).parse_module()


def default_pipeline(target: str) -> str:
    passes = registry.get_all_passes()
    if "loop-pipeline" in passes:
        return DEFAULT_PIPELINE.format(target=target)
    return ",".join(p for p in FALLBACK_PIPELINE if p in passes)


def _spec_tokens(spec: str) -> list[Any]:
    from xdsl.utils.arg_spec import PipelineLexer, SpecTokenKind

    lexer, tokens = PipelineLexer(spec), []
    while True:
        token = lexer.lex()
        if token.kind is SpecTokenKind.EOF:
            return tokens
        tokens.append(token)


def _syntax_error(e: ArgSpecParseError, spec: str, columns: list[int]) -> PipelineError:
    """ArgSpecParseError only carries its text (`pass-pipeline:1:COL`, the line, a caret, the message)."""
    text = str(e)
    m = re.search(r"pass-pipeline:\d+:(\d+)", text)
    col = int(m[1]) if m else None
    if col is not None and columns:
        col = columns[col - 1] + 1 if col <= len(columns) else columns[-1] + 2 + col - 1 - len(columns)
    message = text.rstrip().rsplit("\n", 1)[-1].strip()
    message = message[:1].lower() + message[1:]
    if "malformed pass arguments" in message:
        message += " (options are separated by spaces or commas: `{a=1 b=2}`, `{a=1,b=2}`)"
    return PipelineError(f"bad pass pipeline: {message}", spec, col)


def normalize_pipeline_spec(spec: str) -> tuple[str, list[int], list[int]]:
    """The spec xDSL's parser accepts, a map from its columns to the spec's, and the
    columns of the pass names.

    MLIR-style commas between options become spaces (`df-fuse{remarks=true,recompute=false}`):
    a comma inside braces that is followed by `name=`, or that follows an option given
    without a value, separates options; any other comma still separates the values of a
    list option (`{names=a,b}`). Blanks around the passes and inside the braces' edges go.
    """
    from xdsl.utils.arg_spec import SpecTokenKind as K

    tokens = _spec_tokens(spec)
    pieces: list[tuple[str, int]] = []
    names: list[int] = []
    depth, state = 0, "key"  # inside braces: expecting a "key", "after-key" (no `=` yet), in a "value"
    for k, tok in enumerate(tokens):
        kind, start, text = tok.kind, tok.span.start, tok.span.text
        after = [t.kind for t in tokens[k + 1 :] if t.kind is not K.SPACE][:2]
        before = next((t.kind for t in reversed(tokens[:k]) if t.kind is not K.SPACE), None)
        if kind is K.SPACE:
            if depth == 0 or before in (K.L_BRACE, K.COMMA) or after[:1] in ([K.R_BRACE], [K.COMMA]):
                continue
            state = "key"
        elif kind is K.L_BRACE:
            depth, state = depth + 1, "key"
        elif kind is K.R_BRACE:
            depth -= 1
        elif depth == 0:
            if kind is K.IDENT:
                names.append(start + 1)
        elif kind is K.EQUALS:
            state = "value"
        elif kind is K.COMMA:
            if state == "after-key" or (state == "value" and after == [K.IDENT, K.EQUALS]):
                text, state = " ", "key"
        elif state == "key":
            state = "after-key"
        pieces.append((text, start))
    out, columns = "", []
    for text, start in pieces:
        out += text
        columns.extend(start + j for j in range(len(text)))
    return out, columns, names


XDSL_PIPELINE_PASSES = ("canonicalize", "cse")
"""The xDSL passes `loop-pipeline` runs (and so prints in a C header's `pipeline:` line):
accepted by `pipeline=` and `loop-run -p` too, so that line can be passed back."""


def pipeline_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The passes `loopopt.compile(pipeline=...)` and `loop-run -p` accept: loopopt's, and
    xDSL's `canonicalize` and `cse`."""
    from xdsl.transforms import get_all_passes as xdsl_passes

    theirs = xdsl_passes()
    return {**{name: theirs[name] for name in XDSL_PIPELINE_PASSES}, **registry.get_all_passes()}


def parse_pipeline(spec: str, callback: Any = None,
                   available: Mapping[str, Callable[[], type[ModulePass]]] | None = None) -> PassPipeline:
    """The passes of a pipeline spec, or a `PipelineError` saying what is wrong and where.

    The one entry for `loop-opt -p`, `loop-run -p` and `loopopt.compile(pipeline=...)`:
    syntax errors (xDSL's ArgSpecParseError is a BaseException), unknown passes and
    options, and values a pass refuses all become a PipelineError (exit status 2 in the
    tools). Options may be separated by spaces (xDSL) or commas (MLIR). `available` is the
    pass registry (default: `pipeline_passes()`; loop-opt passes xDSL's and loopopt's).
    """
    from xdsl.utils.arg_spec import ArgSpec, _convert_arg_to_type  # type: ignore[attr-defined]

    if available is None:
        available = pipeline_passes()
    try:
        text, columns, names = normalize_pipeline_spec(spec)
    except ArgSpecParseError as e:
        raise _syntax_error(e, spec, []) from None
    try:
        specs = list(parse_pipeline_specs(text))
    except ArgSpecParseError as e:
        raise _syntax_error(e, spec, columns) from None
    passes = []
    for k, arg_spec in enumerate(specs):
        col = names[k] if k < len(names) else None
        if arg_spec.name not in available:
            close = difflib.get_close_matches(arg_spec.name, list(available), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else " (loop-opt --help lists the passes)"
            raise PipelineError(f"unknown pass '{arg_spec.name}'{hint}", spec, col)
        cls = available[arg_spec.name]()
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init and f.name != "name"}
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # unresolvable annotations: leave the types to from_pass_spec
            hints = {}
        for option, values in arg_spec.normalize_parameter_names().parameters.items():
            if option not in fields:
                known = ", ".join(n.replace("_", "-") for n in fields) or "none"
                raise PipelineError(f"{arg_spec.name}: unknown option '{option}' (options: {known})", spec, col)
            if option not in hints:
                continue
            try:
                _convert_arg_to_type(values, hints[option])
            except Exception:
                raise PipelineError(
                    f"{arg_spec.name}: option {option}={','.join(map(str, values))} is not a valid "
                    f"{typing_repr(hints[option])}", spec, col) from None
        try:
            passes.append(cls.from_pass_spec(ArgSpec(arg_spec.name, arg_spec.parameters)))
        except LoopoptDiagnostic as e:
            raise PipelineError(e.message, spec, col) from None
        except (ValueError, TypeError) as e:
            raise PipelineError(f"{arg_spec.name}: {e}", spec, col) from None
    return PassPipeline(tuple(passes), callback)


def typing_repr(t: Any) -> str:
    from xdsl.utils.hints import type_repr

    return type_repr(t)


def run_pipeline(module: ModuleOp, pipeline: str | PassPipeline, ctx: Context) -> None:
    """Run a pipeline (spec or parsed) on `module`, then verify it.

    A pass that raises a LoopoptDiagnostic reports a user error (an unsupported construct);
    any other exception, or IR that no longer verifies, is a bug in loopopt: an
    `InternalError` naming the pass (and the op, when one is known).
    """
    passes = parse_pipeline(pipeline) if isinstance(pipeline, str) else pipeline
    for p in passes.passes:
        try:
            p.apply(ctx, module)
        except (DiagnosticException, RecursionError):
            raise
        except Exception as e:
            if debug_enabled():
                raise
            raise InternalError(f"pass '{p.name}' failed: {type(e).__name__}: {e}",
                                _op_in_traceback(e)) from e
        try:
            verify_located(module)
        except LoopoptDiagnostic as e:
            raise InternalError(f"pass '{p.name}' produced invalid IR: {e.message}", e.op) from None


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

    def call_alloc(self, name: str, /, *inputs: Any, extents: Mapping[str, int] | None = None,
                   **named_inputs: Any) -> Any:
        """Call `name` on its inputs only, by position and/or by parameter name (the C kernel's
        input names, `signatures[name].inputs`: a df argument's name, one per field for a
        record; `k.call_alloc("axpb", x, a=2.0, b=1.0)`), allocating the outputs. Returns the
        one value when the kernel has one output or result (a reduction's scalar, a map's
        array), else the tuple `(*outputs, *results)`, filter outputs trimmed
        (`outputs_and_results` always returns the tuple). Unknown, repeated or missing
        arguments raise TypeError, as a Python call does.

        Outputs are sized from the inputs' axes; `extents` gives the length of an axis no
        input has. An output on a computed axis (a range's: `loop.extents`) is sized by
        asking the kernel first (`KernelSignature.call_alloc`): the kernel runs twice.
        """
        got = self.outputs_and_results(name, *inputs, extents=extents, **named_inputs)
        return got[0] if len(got) == 1 else got

    def outputs_and_results(self, name: str, /, *inputs: Any, extents: Mapping[str, int] | None = None,
                            **named_inputs: Any) -> tuple[Any, ...]:
        """`call_alloc`, always as the tuple `(*outputs, *results)` (for code that handles any
        kernel: the number of values is `len(sig.outputs) + len(sig.visible_results)`)."""
        sig = self.signatures[name]
        function = self[name]
        inputs = tuple(bind_inputs(sig, inputs, named_inputs))
        if self.library is None:  # a ForeignKernel sizes its outputs itself
            outputs, results = function(*inputs, extents=extents)
            return (*outputs, *results)
        query = None
        if sig.extents:
            from loopopt.runtime.pyext import QUERY_PREFIX

            query = getattr(function.__self__, QUERY_PREFIX + name)  # the extension module
        return sig.call_alloc(function, inputs, extents, query)

    def call(self, name: str, /, *args: Any, extents: Mapping[str, int] | None = None, **kwargs: Any) -> Any:
        """The same as `call_alloc` (its earlier name for the one-value form)."""
        return self.call_alloc(name, *args, extents=extents, **kwargs)


def bind_inputs(sig: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> list[Any]:
    """The inputs of kernel signature `sig` in order, from positional and keyword arguments
    (outputs are not inputs: `call_alloc` allocates them)."""
    names = [p.name for p in sig.inputs]
    outputs = {p.name for p in sig.outputs}
    if len(args) > len(names):
        raise TypeError(f"{sig.name}() takes {len(names)} inputs ({', '.join(names) or 'none'}), {len(args)} were given")
    bound: dict[str, Any] = dict(zip(names, args))
    for key, value in kwargs.items():
        if key in outputs:
            raise TypeError(f"{sig.name}(): '{key}' is an output, allocated by the call "
                            f"(to pass your own buffer, call kernels.{sig.name}(..., {key}=buffer))")
        if key not in names:
            raise TypeError(f"{sig.name}() got an unexpected keyword argument '{key}' (inputs: {', '.join(names) or 'none'})")
        if key in bound:
            raise TypeError(f"{sig.name}() got multiple values for argument '{key}'")
        bound[key] = value
    missing = [n for n in names if n not in bound]
    if missing:
        raise TypeError(f"{sig.name}() missing {len(missing)} required argument{'s' * (len(missing) > 1)}: "
                        + ", ".join(f"'{n}'" for n in missing))
    return [bound[n] for n in names]


def emit(source_or_module: str | ModuleOp, target: str = "native", pipeline: str | None = None) -> CompiledKernels:
    """`compile` up to the printed C, without building it: the module after the pipeline, the C
    and the kernel signatures, and no callables (for ISAs this CPU cannot load, and for builds
    of the C with other tools such as the sanitizers, runtime/sanitize.py)."""
    from loopopt import runtime
    from loopopt.targets.c import emit_c

    # the message lists `native` too
    isa = runtime.best_isa() if target == "native" else runtime.isa.check_isa(target)
    ctx = make_context()
    if isinstance(source_or_module, ModuleOp):
        module = source_or_module.clone()
    else:
        module = parse(source_or_module, ctx)
    verify_located(module)
    spec = default_pipeline(isa) if pipeline is None else pipeline
    run_pipeline(module, parse_pipeline(spec), ctx)
    leftover = first_op_of_dialect(module, "df")
    if leftover is not None:
        raise LoopoptDiagnostic(f"{leftover.name} is left after the pipeline '{spec}': nothing lowers it to loops", leftover)
    c_source = emit_c(module, isa, spec)
    signatures = {k.sym_name.data: kernel_signature(k) for k in kernels_of(module)}
    return CompiledKernels(c_source, isa, module, signatures)


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
    op the printer cannot express raise `LoopoptDiagnostic` with its location (a malformed
    pipeline: `PipelineError`; malformed text: xDSL's `ParseError`). The IR is verified
    after every pass: a pass that crashes or leaves invalid IR raises `InternalError`.
    """
    from loopopt import runtime

    compiled = emit(source_or_module, target, pipeline)
    isa, c_source, signatures = compiled.target, compiled.c_source, compiled.signatures
    if isa in runtime.isa.FOREIGN_TOOLS:
        every = list(signatures.values())  # one emulated runner binary holds every kernel of the module
        compiled.functions = {
            name: runtime.ForeignKernel(c_source, sig, isa, signatures=every) for name, sig in signatures.items()
        }
        return compiled
    library = runtime.compile_library(c_source, list(signatures.values()), isa=isa, extra_cflags=extra_cflags)
    compiled.library = library
    compiled.functions = {name: library[name] for name in signatures}
    return compiled


__all__ = ["CompiledKernels", "bind_inputs", "compile", "kernel_signature", "kernels_of", "make_context", "parse", "parse_pipeline",
           "run_pipeline"]


class _CallableModule(types.ModuleType):
    """Makes `loopopt.compile(...)` work whether `loopopt.compile` names this module or the function."""

    def __call__(self, *args: Any, **kwargs: Any) -> CompiledKernels:
        return compile(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
