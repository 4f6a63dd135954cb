"""The implementation of `loopopt.dask` (import that name; see its docstring and docs/dask.md)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask.array.reductions import cumreduction

from loopopt.diagnostics import LoopoptDiagnostic
from loopopt.runtime.signature import dtype_info

MAP, REDUCE, FILTER, SCAN = "map", "reduce", "filter", "scan"

_UFUNCS: dict[str, dict[str, np.ufunc]] = {
    # kind -> {"float"|"int"|"bool": ufunc}: what df.reduce / df.scan mean (dialects/df.py kind_combiner)
    "add": {"float": np.add, "int": np.add},
    "mul": {"float": np.multiply, "int": np.multiply},
    "min": {"float": np.minimum, "int": np.minimum, "bool": np.logical_and},
    "max": {"float": np.maximum, "int": np.maximum, "bool": np.logical_or},
    "and": {"int": np.bitwise_and, "bool": np.logical_and},
    "or": {"int": np.bitwise_or, "bool": np.logical_or},
}
_IDEMPOTENT = {"min", "max", "umin", "umax", "and", "or"}
"""Kinds for which folding the init into every chunk's partial is exact (init ⊕ init = init)."""


_UNSIGNED = ("umin", "umax")
"""Kinds that order the bits as unsigned (numpy's min/max on the unsigned view: reduction_kind)."""


def _binop(kind: str, dtype: np.dtype[Any]) -> Callable[[Any, Any], Any]:
    """`a ⊕ b` of `kind` on `dtype` (the ufunc, or umin/umax on the unsigned view)."""
    if kind in _UNSIGNED:
        from loopopt.dialects.reduction_kind import ReductionKind, unsigned_minmax

        return lambda a, b: unsigned_minmax(ReductionKind(kind), a, b)
    return _UFUNCS[kind][_family(dtype)]


def _family(dtype: np.dtype[Any]) -> str:
    return "bool" if dtype == np.bool_ else "float" if dtype.kind == "f" else "int"


def _neutral(kind: str, dtype: np.dtype[Any]) -> Any:
    """The neutral element of `kind` on `dtype` (cumreduction's `ident`)."""
    if dtype == np.bool_:
        return kind in ("min", "umin", "and")
    if kind in _UNSIGNED:  # 0 / all-ones, in the (signed or unsigned) dtype
        return np.array(0 if kind == "umax" else -1, dtype=np.int64).astype(dtype)[()]
    if kind == "add":
        return dtype.type(0)
    if kind == "mul":
        return dtype.type(1)
    if dtype.kind == "f":
        return dtype.type(np.inf if kind == "min" else -np.inf)
    info = np.iinfo(dtype)
    return dtype.type({"min": info.max, "max": info.min, "and": -1, "or": 0}[kind])


# --------------------------------------------------------------------------- worker side


@dataclass(frozen=True)
class KernelRef:
    """What a worker needs to get the compiled kernel: plain strings, cheap to pickle."""

    source: str
    target: str
    """A concrete ISA, resolved on the client (every worker runs the same code)."""
    pipeline: str | None
    name: str


_COMPILED: dict[tuple[str, str, str | None], Any] = {}
"""Per process: (source, target, pipeline) -> CompiledKernels, compiled on first use."""


def compiled(ref: KernelRef) -> Any:
    key = (ref.source, ref.target, ref.pipeline)
    kernels = _COMPILED.get(key)
    if kernels is None:
        from loopopt.compile import compile as compile_kernels

        kernels = _COMPILED[key] = compile_kernels(ref.source, target=ref.target, pipeline=ref.pipeline)
    return kernels


def _call(ref: KernelRef, args: Sequence[Any]) -> tuple[Any, ...]:
    # Chunks deserialized by distributed can sit at any byte offset (pickle protocol 5 buffers):
    # the runtime refuses arrays not aligned to their element size, so copy those.
    return compiled(ref).outputs_and_results(ref.name, *[np.require(a, requirements="CA") if isinstance(a, np.ndarray) else a
                                                 for a in args])


def _output_block(*args: Any, ref: KernelRef, which: int) -> np.ndarray:
    """Output `which` of the kernel on one chunk (a filter's: trimmed to its count)."""
    return _call(ref, args)[which]


def _tuple_block(*args: Any, ref: KernelRef, count: int) -> np.ndarray:
    out = np.empty(1, dtype=object)
    out[0] = tuple(_call(ref, args)[:count])
    return out


def _pick(calls: np.ndarray, which: int) -> np.ndarray:
    return calls[0][which]


def _scan_block(*args: Any, ref: KernelRef) -> np.ndarray:
    return _call(ref, args)[0]


def _reduce_block(*args: Any, ref: KernelRef, record: np.dtype[Any]) -> np.ndarray:
    """One record of partials (the kernel's scalar results) for one chunk."""
    results = _call(ref, args)
    out = np.empty(1, dtype=record)
    for k, name in enumerate(record.names or ()):
        out[name][0] = results[k]
    return out


def _keep(x: np.ndarray, axis: Any = None, keepdims: bool = True) -> np.ndarray:
    return x


def _merge(x: np.ndarray, axis: Any = None, keepdims: bool = True, *, kinds: Sequence[str],
           combine: Callable[..., Any] | None) -> np.ndarray:
    """Partials of several chunks (records, in chunk order) -> one record."""
    names = x.dtype.names or ()
    out = np.empty(1, dtype=x.dtype)
    if combine is not None:
        if len(x) == 0:
            raise ValueError("loopopt.dask.reduce: no chunk to combine (empty dask array)")
        acc = tuple(x[n][0] for n in names)
        for i in range(1, len(x)):
            acc = tuple(combine(acc, tuple(x[n][i] for n in names)))
            if len(acc) != len(names):
                raise ValueError(f"loopopt.dask.reduce: combine returned {len(acc)} values, "
                                 f"expected {len(names)} (one per kernel result)")
        for n, v in zip(names, acc):
            out[n][0] = v
        return out
    for n, kind in zip(names, kinds):
        column = x[n]
        if kind in _UNSIGNED:
            out[n][0] = functools.reduce(_binop(kind, column.dtype), column, _neutral(kind, column.dtype))
            continue
        ufunc = _UFUNCS[kind][_family(column.dtype)]
        out[n][0] = ufunc.reduce(column, dtype=column.dtype) if len(column) else _neutral(kind, column.dtype)
    return out


def _identity_scan(block: np.ndarray, axis: int = 0) -> np.ndarray:
    return block


def _finish(record: np.ndarray, finalize: Callable[..., Any] | None) -> Any:
    values = tuple(record[n][()] if record.ndim == 0 else record[n][0] for n in record.dtype.names or ())
    if finalize is not None:
        return finalize(*values)
    return values[0] if len(values) == 1 else values


# --------------------------------------------------------------------------- client side


@dataclass(frozen=True)
class DaskKernel:
    """A df kernel ready to run on dask arrays: its pattern (map, reduce, filter, scan), what
    the combine needs (reduction kinds, scan kind) and the `KernelRef` the workers compile."""

    ref: KernelRef
    pattern: str
    signature: Any
    kinds: tuple[str, ...] = ()
    """Per scalar result (reduce) or of the one result (scan): the reduction kind; "custom"
    for df.fold and custom kinds (sequential: a combine must be given)."""
    sequential_reason: str = ""
    """Why the default combine cannot be used (empty when it can)."""
    sequential_op: Any = None
    """The df.fold or custom df.reduce that makes it sequential (where its error points)."""

    @property
    def name(self) -> str:
        return self.ref.name

    def __call__(self, *args: Any, **options: Any) -> Any:
        return apply(self, *args, **options)


def kernel(source: str, name: str | None = None, *, target: str = "native",
           pipeline: str | None = None) -> DaskKernel:
    """Compile `source` here (so errors surface on the client, located) and classify kernel
    `name` (the only kernel when None). Raises LoopoptDiagnostic for programs that cannot be
    split into chunks."""
    if not isinstance(source, str):
        raise TypeError(f"loopopt.dask.kernel: source must be MLIR text (str), not {type(source).__name__}")
    isa, built = _build(source, target, pipeline)
    if name is None:
        if len(built.signatures) != 1:
            raise ValueError(f"loopopt.dask.kernel: the module has kernels {sorted(built.signatures)}: name one")
        name = next(iter(built.signatures))
    if name not in built.signatures:
        raise ValueError(f"loopopt.dask.kernel: no kernel {name!r} (have {', '.join(sorted(built.signatures))})")
    return _classify(KernelRef(source, isa, pipeline, name), built.signatures[name])


def _build(source: str, target: str, pipeline: str | None) -> tuple[str, Any]:
    """(the concrete ISA of `target`, the module compiled here and kept for this process)."""
    from loopopt import runtime
    from loopopt.compile import compile as compile_kernels

    isa = runtime.best_isa() if target == "native" else runtime.isa.check_isa(target, allow_native=False)
    built = _COMPILED.get((source, isa, pipeline)) or compile_kernels(source, target=isa, pipeline=pipeline)
    _COMPILED[(source, isa, pipeline)] = built
    return isa, built


def _df_function(source: str, name: str) -> Any:
    from xdsl.dialects import func

    from loopopt.compile import make_context, parse, run_pipeline

    ctx = make_context()
    module = parse(source, ctx)
    run_pipeline(module, "df-fuse", ctx)
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise ValueError(f"loopopt.dask: kernel {name!r} is not a df function of the source")


def _constant_value(value: Any) -> Any:
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import FloatAttr, IntegerAttr

    from loopopt.dialects import df

    op = getattr(value, "op", None)
    attr = op.value if isinstance(op, arith.ConstantOp | df.ConstantOp) else None
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr.value.data
    return None


def _is_neutral(kind: str, init: Any) -> bool:
    from xdsl.dialects.builtin import IntegerType

    v = _constant_value(init)
    if v is None:
        return False
    if isinstance(init.type, IntegerType) and init.type.width.data == 1:
        return bool(v) == (kind in ("min", "umin", "and", "mul"))
    return v == (0 if kind == "add" else 1)


def _check_init(kind: str, init: Any, op: Any) -> None:
    if kind in _IDEMPOTENT or _is_neutral(kind, init):
        return
    neutral = "0" if kind == "add" else "1"
    raise LoopoptDiagnostic(
        f"loopopt.dask: {op.name} {kind} starts from an init that is not the constant {neutral}: every chunk "
        f"would add it once; start from {neutral} and apply the init in finalize", op)


def _classify(ref: KernelRef, sig: Any) -> DaskKernel:
    from xdsl.dialects import func
    from xdsl.dialects.builtin import Float32Type, Float64Type

    from loopopt.dialects import df

    fn = _df_function(ref.source, ref.name)
    for p in sig.params:
        if getattr(p, "rank", 1) != 1:
            raise LoopoptDiagnostic(f"loopopt.dask: array parameter {p.name!r} has rank {p.rank}; "
                                    "only rank-1 arrays are split into chunks", fn)
    for op in fn.walk():
        if isinstance(op, df.RangeOp | df.RandomOp | df.DeclRefOp):
            raise LoopoptDiagnostic(f"loopopt.dask: {op.name} cannot be split into chunks", op)
    if not any(isinstance(t, df.ArrayType) for t in fn.function_type.inputs.data):
        raise LoopoptDiagnostic("loopopt.dask: the kernel takes no df array: it needs the df program "
                                "(Loop IR does not say how partial results merge)", fn)
    ret = fn.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    values = list(ret.arguments)
    if not values:
        raise LoopoptDiagnostic("loopopt.dask: the kernel returns nothing", fn)
    producers = [v.owner for v in values]
    arrays = [isinstance(v.type, df.ArrayType) for v in values]
    body_ops = [op for op in fn.walk() if op.parent_op() is fn]
    if not any(arrays):  # reductions
        kinds: list[str] = []
        reason, where = "", None
        for k, (v, op) in enumerate(zip(values, producers)):
            if isinstance(op, df.FoldOp):
                kinds.append("custom")
                reason, where = reason or "df.fold is a sequential fold", where or op
                continue
            if not isinstance(op, df.ReduceOp):
                raise LoopoptDiagnostic(
                    f"loopopt.dask: result #{k} is computed by {getattr(op, 'name', 'an argument')}, not by a "
                    "df.reduce: return the partials (sums, counts, ...) and compute the rest in finalize=",
                    op if hasattr(op, "name") else fn)
            j = list(op.results).index(v)
            kind = op.kind_values[j].value
            kinds.append(kind)
            if kind == "custom":
                reason, where = reason or "a custom reduction kind has no known combine", where or op
                continue
            _check_init(kind, op.inits[j], op)
            if kind in ("add", "mul") and isinstance(v.type, Float32Type | Float64Type) and op.reassoc is None:
                raise LoopoptDiagnostic(
                    f"loopopt.dask: float {kind} reduction without reassoc: chunking reassociates it; "
                    "mark it reassoc (or pass combine=)", op)
        for op in body_ops:
            if isinstance(op, df.ScanOp):
                raise LoopoptDiagnostic("loopopt.dask: a df.scan inside a reduction kernel depends on every "
                                        "earlier chunk: it cannot be split into chunks", op)
            if isinstance(op, df.ReduceOp | df.FoldOp) and any(
                    use.operation is not ret for r in op.results for use in r.uses):
                raise LoopoptDiagnostic(f"loopopt.dask: a result of {op.name} is used inside the kernel: a "
                                        "whole-array value cannot be computed per chunk; return the partials "
                                        "and compute the rest in finalize=", op)
        return DaskKernel(ref, REDUCE, sig, tuple(kinds), reason, where)
    if not all(arrays):
        raise LoopoptDiagnostic("loopopt.dask: the kernel returns both arrays and scalars: split it into "
                                "an elementwise kernel and a reduction kernel", fn)
    for op in body_ops:
        if isinstance(op, df.ReduceOp | df.FoldOp):
            raise LoopoptDiagnostic(f"loopopt.dask: {op.name} feeds an array result: a whole-array value "
                                    "inside an elementwise kernel cannot be split into chunks", op)
    scans = [op for op in body_ops if isinstance(op, df.ScanOp)]
    filters = [op for op in body_ops if isinstance(op, df.FilterOp)]
    if scans:
        if len(values) != 1 or producers[0] is not scans[0] or len(scans) != 1 or filters:
            raise LoopoptDiagnostic("loopopt.dask: a scan kernel must return exactly one df.scan result "
                                    "(no filter, no other scan, nothing applied after the scan)", scans[0])
        scan = scans[0]
        kind = scan.kind.data.value
        if kind == "custom":
            raise LoopoptDiagnostic("loopopt.dask: a custom df.scan is sequential: it has no combine "
                                    "to carry a prefix across chunks", scan)
        _check_init(kind, scan.init, scan)
        if kind in ("add", "mul") and isinstance(scan.init.type, Float32Type | Float64Type) and scan.reassoc is None:
            raise LoopoptDiagnostic(f"loopopt.dask: float {kind} scan without reassoc: carrying prefixes across "
                                    "chunks reassociates it; mark it reassoc", scan)
        return DaskKernel(ref, SCAN, sig, (kind,))
    outputs = sig.outputs
    if any(o.capacity is not None for o in outputs):
        if not all(o.capacity is not None for o in outputs):
            raise LoopoptDiagnostic("loopopt.dask: the kernel returns filtered and unfiltered arrays", fn)
        return DaskKernel(ref, FILTER, sig)
    return DaskKernel(ref, MAP, sig)


# --------------------------------------------------------------------------- applying


def _prepare(k: DaskKernel, args: Sequence[Any]) -> tuple[list[Any], list[da.Array]]:
    """Arguments in C order (inputs only): dask arrays for array params, scalars as given;
    numpy arrays become one-chunk dask arrays; chunks of the arrays are unified."""
    if not isinstance(k, DaskKernel):
        raise TypeError(f"expected a loopopt.dask kernel (loopopt.dask.kernel(...)), not {type(k).__name__}")
    params = k.signature.inputs
    if len(args) != len(params):
        names = ", ".join(p.name for p in params)
        raise TypeError(f"{k.name}() takes {len(params)} inputs ({names}), got {len(args)}")
    out: list[Any] = []
    for p, a in zip(params, args):
        if hasattr(p, "rank"):
            if isinstance(a, np.ndarray):
                a = da.from_array(a, chunks=-1)
            if not isinstance(a, da.Array):
                raise TypeError(f"{k.name}(): array parameter {p.name!r} takes a dask or numpy array, "
                                f"not {type(a).__name__}")
            if a.ndim != 1:
                raise ValueError(f"{k.name}(): array parameter {p.name!r} must be rank 1, got shape {a.shape}")
            if a.dtype != p.dt.numpy:
                raise TypeError(f"{k.name}(): array parameter {p.name!r} has dtype {a.dtype}, "
                                f"expected {p.dt.numpy} ({p.dtype})")
            if any(math.isnan(c) for c in a.chunks[0]):
                raise ValueError(f"{k.name}(): array parameter {p.name!r} has chunks of unknown size; "
                                 "call .compute_chunk_sizes() first")
        elif isinstance(a, da.Array) or (isinstance(a, np.ndarray) and a.ndim != 0):
            raise TypeError(f"{k.name}(): scalar parameter {p.name!r} takes a Python or numpy scalar, not "
                            f"{'a dask array (compute it first)' if isinstance(a, da.Array) else 'an array'}")
        out.append(a)
    arrays = [a for a in out if isinstance(a, da.Array)]
    if len({a.shape for a in arrays}) > 1:
        raise ValueError(f"{k.name}(): array inputs have different lengths "
                         f"{', '.join(str(a.shape[0]) for a in arrays)}")
    if len(arrays) > 1:
        _, unified = da.core.unify_chunks(*[x for a in arrays for x in (a, "i")])
        it = iter(unified)
        out = [next(it) if isinstance(a, da.Array) else a for a in out]
        arrays = [a for a in out if isinstance(a, da.Array)]
    return out, arrays


def _blockwise(func: Callable[..., Any], args: Sequence[Any], chunks: Any, dtype: Any, **kw: Any) -> da.Array:
    """map_blocks over the dask arrays in `args`, other args passed to every block as they are."""
    pos = [i for i, a in enumerate(args) if isinstance(a, da.Array)]
    fixed = [None if isinstance(a, da.Array) else a for a in args]  # blocks fill these in

    def block(*blocks: Any, **kwargs: Any) -> Any:
        full = list(fixed)
        for i, b in zip(pos, blocks):
            full[i] = b
        return func(*full, **kwargs)

    block.__name__ = getattr(func, "__name__", "loopopt")  # the task name in dashboards
    return da.map_blocks(block, *[args[i] for i in pos], chunks=chunks, dtype=dtype,
                         meta=np.empty((0,), dtype=dtype), **kw)


def map_blocks(k: DaskKernel, *args: Any) -> Any:
    """Elementwise kernel over chunks: one dask array per output (a tuple when several)."""
    _expect(k, MAP)
    args, arrays = _prepare(k, args)
    return _outputs(k, args, arrays, arrays[0].chunks)


def filter(k: DaskKernel, *args: Any) -> Any:  # noqa: A001 - loopopt.dask.filter
    """Filter kernel per chunk (compacted outputs, chunk sizes unknown: `nan`)."""
    _expect(k, FILTER)
    args, arrays = _prepare(k, args)
    chunks = ((np.nan,) * arrays[0].numblocks[0],)
    return _outputs(k, args, arrays, chunks)


def _outputs(k: DaskKernel, args: Sequence[Any], arrays: Sequence[da.Array], chunks: Any) -> Any:
    """One dask array per kernel output; with several, one kernel call per chunk whose tuple
    of outputs each array picks from."""
    outputs = k.signature.outputs
    if len(outputs) == 1:
        return _blockwise(_output_block, args, chunks, outputs[0].dt.numpy, ref=k.ref, which=0)
    nblocks = arrays[0].numblocks[0]
    calls = _blockwise(_tuple_block, args, ((1,) * nblocks,), np.dtype(object), ref=k.ref, count=len(outputs))
    return tuple(da.map_blocks(_pick, calls, chunks=chunks, dtype=o.dt.numpy, meta=np.empty((0,), o.dt.numpy),
                               which=j) for j, o in enumerate(outputs))


def scan(k: DaskKernel, *args: Any) -> da.Array:
    """Inclusive scan: each chunk scanned by the kernel, prefixes carried with cumreduction."""
    _expect(k, SCAN)
    args, arrays = _prepare(k, args)
    kind = k.kinds[0]
    dtype = k.signature.outputs[0].dt.numpy
    chunks = tuple(c for c in arrays[0].chunks[0] if c) or (0,)  # an empty chunk has no last prefix
    if chunks != arrays[0].chunks[0]:
        args = [a.rechunk((chunks,)) if isinstance(a, da.Array) else a for a in args]
    local = _blockwise(_scan_block, args, (chunks,), dtype, ref=k.ref)
    return cumreduction(_identity_scan, _binop(kind, dtype), _neutral(kind, dtype), local,
                        axis=0, dtype=dtype)


def reduce(k: DaskKernel, *args: Any, finalize: Callable[..., Any] | None = None,
           combine: Callable[[tuple[Any, ...], tuple[Any, ...]], Sequence[Any]] | None = None,
           split_every: int | None = None) -> Any:
    """Reduction kernel over chunks: a dask Delayed of the kernel's results.

    Each chunk gives the kernel's scalar results (its partials); partials are merged with the
    kind of each result (sum, product, min, max, and, or), or with `combine(p, q) -> merged`
    (tuples of partials of consecutive chunks, in order) for df.fold and custom kinds. The
    computed value is `finalize(*merged)` when given, else the merged result (a tuple when the
    kernel has several)."""
    _expect(k, REDUCE)
    if combine is None and k.sequential_reason:
        raise LoopoptDiagnostic(f"loopopt.dask: {k.sequential_reason}: chunks cannot be merged without "
                                "combine=(p, q) -> merged partials", k.sequential_op)
    if combine is not None and not callable(combine):
        raise TypeError("loopopt.dask.reduce: combine must be callable")
    if finalize is not None and not callable(finalize):
        raise TypeError("loopopt.dask.reduce: finalize must be callable")
    args, arrays = _prepare(k, args)
    record = np.dtype([(f"r{j}", dtype_info(r).numpy) for j, r in enumerate(k.signature.results)])
    nblocks = arrays[0].numblocks[0]
    partials = _blockwise(_reduce_block, args, ((1,) * nblocks,), record, ref=k.ref, record=record)
    merge = functools.partial(_merge, kinds=k.kinds, combine=combine)
    total = da.reduction(partials, _keep, merge, combine=merge, axis=0, keepdims=True, dtype=record,
                         split_every=split_every, concatenate=True, meta=np.empty((0,), dtype=record))
    return dask.delayed(_finish, pure=True)(total, finalize)


# --------------------------------------------------------------------------- mean and variance

MOMENTS_SOURCE = """
func.func @chunk_moments_{t}(%x: !df.array<{t}, [i]>) -> (i64, f64, f64) {{
  %zero = arith.constant 0.0 : f64
  %izero = arith.constant 0 : i64
  {widen}
  %ones = df.map %xd : !df.array<f64, [i]> -> !df.array<i64, [i]> {{
  ^bb0(%e: f64):
    %c = arith.constant 1 : i64
    df.yield %c : i64
  }}
  %n = df.reduce add(%ones, %izero) over [i] : !df.array<i64, [i]> -> i64
  %s = df.reduce add(%xd, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  %nf = arith.sitofp %n : i64 to f64
  %mean = arith.divf %s, %nf : f64
  %d2 = df.map %xd : !df.array<f64, [i]> -> !df.array<f64, [i]> {{
  ^bb0(%e: f64):
    %d = arith.subf %e, %mean : f64
    %q = arith.mulf %d, %d : f64
    df.yield %q : f64
  }}
  %m2 = df.reduce add(%d2, %zero) over [i] reassoc : !df.array<f64, [i]> -> f64
  func.return %n, %mean, %m2 : i64, f64, f64
}}
"""
"""One chunk's (count, mean, M2 = Σ(x - mean)²) in f64, two passes over the chunk (the second
from the cache for chunks of a few MiB): M2 does not cancel as Σx² - (Σx)²/n does. f32 data
is widened: an f32 chunk mean is off by ~ε·|mean|, which adds n·(that)² to M2."""
WIDEN = {
    "f64": "%xd = df.map %x : !df.array<f64, [i]> -> !df.array<f64, [i]> {\n  ^bb0(%e: f64):\n    df.yield %e : f64\n  }",
    "f32": "%xd = df.map %x : !df.array<f32, [i]> -> !df.array<f64, [i]> {\n  ^bb0(%e: f32):\n    %w = arith.extf %e : f32 to f64\n"
           "    df.yield %w : f64\n  }",
}

_MOMENT_RECORD = np.dtype([("n", np.int64), ("mean", np.float64), ("m2", np.float64)])


def _moments_block(x: np.ndarray, *, ref: KernelRef) -> np.ndarray:
    out = np.empty(1, dtype=_MOMENT_RECORD)
    out[0] = tuple(_call(ref, (x,)))
    return out


def chan_merge(a: tuple[Any, Any, Any], b: tuple[Any, Any, Any]) -> tuple[int, float, float]:
    """(count, mean, M2) of two runs of data from each's, in float64 (Chan, Golub and LeVeque):
    δ = mean_b - mean_a, mean = mean_a + δ·n_b/n, M2 = M2_a + M2_b + δ²·n_a·n_b/n."""
    na, ma, qa = int(a[0]), float(a[1]), float(a[2])
    nb, mb, qb = int(b[0]), float(b[1]), float(b[2])
    if na == 0 or nb == 0:
        return (na, ma, qa) if nb == 0 else (nb, mb, qb)
    n = na + nb
    d = mb - ma
    return n, ma + d * (nb / n), qa + qb + d * d * (na / n * nb)


def _chan_records(x: np.ndarray, axis: Any = None, keepdims: bool = True) -> np.ndarray:
    """Records of consecutive runs (in order) -> one, merged pairwise (halves, recursively)."""

    def merged(lo: int, hi: int) -> tuple[int, float, float]:
        if hi - lo == 1:
            return int(x["n"][lo]), float(x["mean"][lo]), float(x["m2"][lo])
        mid = (lo + hi) // 2
        return chan_merge(merged(lo, mid), merged(mid, hi))

    out = np.empty(1, dtype=_MOMENT_RECORD)
    out[0] = merged(0, len(x)) if len(x) else (0, np.nan, 0.0)
    return out


def _mean_var(record: np.ndarray, ddof: int, dtype: np.dtype[Any]) -> tuple[Any, Any]:
    n, mean, m2 = int(record["n"][0]), float(record["mean"][0]), float(record["m2"][0])
    var = m2 / (n - ddof) if n - ddof > 0 else np.nan
    return dtype.type(mean if n else np.nan), dtype.type(var)


def mean_var(x: Any, *, ddof: int = 0, split_every: int | None = None, target: str = "native",
             pipeline: str | None = None) -> Any:
    """Mean and variance (`M2 / (n - ddof)`) of a rank-1 f32 or f64 dask array, numerically
    stable: a `dask.delayed` of (mean, var) in x's dtype (NaN for too few elements).

    Each chunk's kernel gives (count, mean, M2) in two passes; `dask.array.reduction` merges
    them with Chan et al.'s pairwise formula (`chan_merge`) in float64, in chunk order, in a
    tree of `split_every`. Unlike `reduce` with finalize `q/n - (s/n)**2`, nothing cancels when
    the mean is large next to the spread (docs/dask.md, "Mean and variance")."""
    if isinstance(ddof, bool) or not isinstance(ddof, int) or ddof < 0:
        raise ValueError(f"loopopt.dask.mean_var: ddof must be an integer >= 0, got {ddof!r}")
    dtype = np.dtype(getattr(x, "dtype", np.float64))
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"loopopt.dask.mean_var: x must be an f32 or f64 array, got dtype {dtype}")
    t = "f32" if dtype == np.float32 else "f64"
    source = MOMENTS_SOURCE.format(t=t, widen=WIDEN[t])
    isa, built = _build(source, target, pipeline)
    name = f"chunk_moments_{t}"
    k = DaskKernel(KernelRef(source, isa, pipeline, name), "moments", built.signatures[name])
    args, arrays = _prepare(k, (x,))
    partials = _blockwise(_moments_block, args, ((1,) * arrays[0].numblocks[0],), _MOMENT_RECORD, ref=k.ref)
    total = da.reduction(partials, _keep, _chan_records, combine=_chan_records, axis=0, keepdims=True,
                         dtype=_MOMENT_RECORD, split_every=split_every, concatenate=True,
                         meta=np.empty((0,), dtype=_MOMENT_RECORD))
    return dask.delayed(_mean_var, pure=True)(total, ddof, dtype)


def apply(k: DaskKernel, *args: Any, **options: Any) -> Any:
    """Run `k` on dask arrays with the function for its pattern (`options` go to `reduce`)."""
    if not isinstance(k, DaskKernel):
        raise TypeError(f"expected a loopopt.dask kernel (loopopt.dask.kernel(...)), not {type(k).__name__}")
    if options and k.pattern != REDUCE:
        raise TypeError(f"{k.name}(): options {sorted(options)} are for reductions; this is a {k.pattern} kernel")
    return {MAP: map_blocks, FILTER: filter, SCAN: scan, REDUCE: reduce}[k.pattern](k, *args, **options)


def _expect(k: Any, pattern: str) -> None:
    if not isinstance(k, DaskKernel):
        raise TypeError(f"expected a loopopt.dask kernel (loopopt.dask.kernel(...)), not {type(k).__name__}")
    if k.pattern != pattern:
        raise TypeError(f"kernel {k.name!r} is a {k.pattern} kernel, not a {pattern}: use loopopt.dask.apply")


__all__ = ["DaskKernel", "KernelRef", "apply", "chan_merge", "compiled", "filter", "kernel", "map_blocks", "mean_var",
           "reduce", "scan"]
