"""`loop-run`: compile a df program, run its kernels, check them against the interpreter, time them.

    loop-run examples/sum_of_squares.mlir                   # every kernel, this CPU's best ISA
    loop-run prog.mlir -t neon --kernel sumsq               # NEON, run under qemu-aarch64
    loop-run prog.mlir --input x=x.npy --input a=2.5 --print-c

Each kernel is compiled with the default pipeline (`loop-pipeline{target=T}`, or `-p`), run
on inputs of size `--n` (random with `--seed`, or the arrays and scalars given with
`--input`), and its results are compared with loopopt's interpreter running the *original*
df program on the same inputs. Then the compiled kernel is timed against numpy's natural
expression of the program: the `ref=` of the kernel's `// REF:` header line (the format of
`loopopt.tools.ref_header`, which the df corpus uses too; its `inputs=` specs, value ranges
included, are used for the random inputs too). Without a header there is no numpy time.

What "matches" means:
* integers and booleans: equal;
* a float result that comes straight out of a `reassoc` add (mul) reduction: within
  2(m+1)·eps·Σ|tᵢ| (2(m+1)·eps·|ref|), the bound of any summation order over the m
  reduced terms tᵢ (read back from the interpreter);
* any other float result that depends on a reassociated reduction: within √eps·(1+|ref|);
* every other float result: bit-exact (NaNs equal). When the compiled code contracts
  `a*b + c` into an FMA (avx2, avx512, neon), the reference is the interpreter running the
  program after `df-fuse,loop-simplify{fma=true}` (the pipeline's own contraction rule;
  the interpreter's `math.fma` rounds once), so contracted maps are still checked exactly;
* a `tol=` in the REF header (exact, ulp:K, close:R, reduction:EXPR) overrides the float
  rule for that kernel (`exact` stays FMA-aware).
The check runs on at most `--check-n` elements (the interpreter runs custom folds element
by element): random inputs of that size; given `--input`s are always checked whole.

Exit status: 0 when every kernel matched; 1 on an error in the input (file, program, kernel
name, REF header, `.npy` data, a target this machine cannot run; printed as
`file:line:col: error: ...` or `loop-run: error: ...`, or `internal error: ... (please
report)` for a bug in loopopt, never a traceback unless LOOPOPT_DEBUG=1); 2 on a command-line
error (unknown flag, bad `-p` pipeline, unknown target name, malformed `--input`, `-o` not a
`.npz`), as argparse and xdsl-opt; 3 when a kernel gave a MISMATCH (docs/loop_run.md).

`-o out.npz` saves each kernel's compiled results on the checked inputs, keys `KERNEL.K`
(the K-th result; `KERNEL.K.FIELD` for a record field), and those inputs as `KERNEL.in.ARG`. REF
expressions are checked against a small grammar, never given to a bare `eval`
(docs/ref_header.md).

The library functions (`make_inputs`, `run_compiled`, `run_compiled_batch`,
`reference_results`, `compare_results`) are what the differential tests use too.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from loopopt.lowering.abi import flatten_inputs
from loopopt.tools.ref_header import DTYPES, RefError, RefHeader, parse_ref_headers, random_values

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_MISMATCH = 0, 1, 2, 3

FMA_OPS = ("math.fma", "simd.fma")
"""Ops that mark a contracted multiply-add in the compiled module."""

CONTRACT_PIPELINE = "df-fuse,loop-simplify{fma=true}"
"""What the FMA-aware reference runs on the df program: the pipeline's contraction rule."""


class RunError(Exception):
    """A user error with no source location: printed as `loop-run: error: ...`."""


class UsageError(RunError):
    """A command-line error (exit status 2): printed as `loop-run: error: ...`."""


# --------------------------------------------------------------------------- inputs


def ref_namespace(header: RefHeader, inputs: Sequence[Any], n: int) -> dict[str, Any]:
    """What the header's expressions see, for inputs given in argument order."""
    return header.namespace({s.name: x for s, x in zip(header.inputs, inputs)}, n)


def arg_names(kernel: func.FuncOp) -> list[str]:
    return [a.name_hint or f"arg{k}" for k, a in enumerate(kernel.args)]


def _dtype_name(t: Attribute) -> str:
    from loopopt.lowering.abi import dtype_name

    name = dtype_name(t)
    return "i1" if name == "bool" else name


def make_inputs(kernel: func.FuncOp, n: int, rng: np.random.Generator,
                header: RefHeader | None = None, given: Mapping[str, Any] | None = None) -> list[Any]:
    """One value per argument of df kernel `kernel`: given, from the REF spec, or random of size n.

    Without a spec, an array's first axis has extent n and any other axis 4; scalars are
    random (floats in [-1, 1), integers in [1, 8]: scalars are often lengths or steps).
    """
    from loopopt.dialects.df_types import ArrayType, RecordType

    given = given or {}
    specs = {s.name: s for s in header.inputs} if header is not None else {}
    values: list[Any] = []
    for name, t in zip(arg_names(kernel), kernel.function_type.inputs, strict=True):
        if name in given:
            values.append(given[name])
        elif name in specs:
            values.append(specs[name].make(n, rng))
        elif isinstance(t, ArrayType):
            shape = (n,) + (4,) * (t.rank - 1)
            el = t.element_type
            if isinstance(el, RecordType):
                values.append({f: random_values(_dtype_name(ft), shape, rng) for f, ft in el.fields})
            else:
                values.append(random_values(_dtype_name(el), shape, rng))
        else:
            dt = _dtype_name(t)
            low, high = (None, None) if dt in ("f32", "f64", "i1") else (1, 8)
            values.append(random_values(dt, (), rng, low, high)[()])
    return values


def check_header(kernel: func.FuncOp, header: RefHeader) -> None:
    """A RefError (naming the REF line) when the header's `inputs=` do not match the kernel's
    arguments, taken in order: their count, dtypes and ranks."""
    from loopopt.dialects.df_types import ArrayType, RecordType

    def fail(why: str) -> NoReturn:
        raise RefError(f"{header.filename}:{header.line}: error: bad REF header for @{header.kernel}: {why}")

    names = arg_names(kernel)
    if not header.inputs:
        return
    if len(header.inputs) != len(names):  # specs go with arguments by position (names may differ)
        fail(f"{len(header.inputs)} inputs= specs; the kernel has {len(names)} arguments ({', '.join(names) or 'none'})")
    for spec, t in zip(header.inputs, kernel.function_type.inputs, strict=True):
        el = t.element_type if isinstance(t, ArrayType) else t
        rank = t.rank if isinstance(t, ArrayType) else 0
        if len(spec.dims) != rank:
            fail(f"input {spec.name} has {len(spec.dims)} dims, the argument {t} has rank {rank}")
        if isinstance(el, RecordType):
            want = [(f, _dtype_name(ft)) for f, ft in el.fields]
            if list(spec.fields) != want:
                fail(f"input {spec.name} has fields {list(spec.fields)}, the argument has {want}")
        elif spec.fields or spec.dtype != _dtype_name(el):
            fail(f"input {spec.name} is {spec.dtype or 'a record'}, the argument is {t}")


def parse_given(items: Sequence[str], kernels: Sequence[func.FuncOp]) -> dict[str, Any]:
    """`--input NAME=PATH.npy` / `NAME=NUMBER` / `REC.FIELD=PATH.npy` -> values by argument name."""
    from loopopt.dialects.df_types import ArrayType, RecordType

    types: dict[str, Attribute] = {}
    for k in kernels:
        types.update(zip(arg_names(k), k.function_type.inputs))
    given: dict[str, Any] = {}
    for item in items:
        name, sep, what = item.partition("=")
        if not sep or not name or not what:
            raise UsageError(f"--input expects NAME=PATH.npy or NAME=VALUE, found {item!r}")
        base, _, fieldname = name.partition(".")
        if base not in types:
            raise UsageError(f"--input {name}: no kernel has an argument named {base!r} "
                           f"(arguments: {', '.join(sorted(types)) or 'none'})")
        t = types[base]
        el = t.element_type if isinstance(t, ArrayType) else t
        if fieldname:
            if not isinstance(el, RecordType) or el.field_type(fieldname) is None:
                raise UsageError(f"--input {name}: argument {base!r} has no record field {fieldname!r}")
            el = el.field_type(fieldname)
        elif isinstance(el, RecordType):
            raise UsageError(f"--input {name}: {base!r} is an array of records; give each field as {base}.FIELD=PATH.npy")
        dt = DTYPES[_dtype_name(el)]
        if isinstance(t, ArrayType):
            try:
                arr = np.load(what, allow_pickle=False)
            except (OSError, ValueError, EOFError) as e:
                raise RunError(f"--input {name}: cannot load {what!r}: {e or type(e).__name__}") from None
            except Exception as e:  # a corrupt header can raise anything numpy's parser meets
                raise RunError(f"--input {name}: cannot load {what!r}: {type(e).__name__}: {e}") from None
            if not isinstance(arr, np.ndarray):
                raise RunError(f"--input {name}: {what} is not a single .npy array")
            if arr.ndim != t.rank:
                raise RunError(f"--input {name}: {what} has rank {arr.ndim}, the argument has rank {t.rank}")
            if arr.dtype != dt:
                if arr.dtype.fields is not None or arr.dtype.hasobject or not np.can_cast(arr.dtype, dt, "safe"):
                    raise RunError(f"--input {name}: {what} holds {arr.dtype}, the argument is {np.dtype(dt)} "
                                   f"(only value-preserving conversions are made)")
                arr = arr.astype(dt)
            value: Any = np.ascontiguousarray(arr)
        else:
            try:
                value = dt(float(what) if np.issubdtype(dt, np.floating) else int(what, 0))
            except ValueError:
                raise UsageError(f"--input {name}: {what!r} is not a {np.dtype(dt)} value") from None
        if fieldname:
            given.setdefault(base, {})[fieldname] = value
        else:
            given[base] = value
    for base, v in given.items():
        el = types[base].element_type if isinstance(types[base], ArrayType) else None
        if isinstance(v, dict) and isinstance(el, RecordType):
            missing = [f for f, _ in el.fields if f not in v]
            if missing:
                raise RunError(f"--input {base}: record fields {', '.join(missing)} are not given")
            given[base] = {f: v[f] for f, _ in el.fields}
    return given


def input_size(inputs: Sequence[Any]) -> int:
    """The size n of a set of inputs: the first axis of the first array."""
    for v in inputs:
        if isinstance(v, dict):
            v = next(iter(v.values()))
        if isinstance(v, np.ndarray) and v.ndim:
            return v.shape[0]
    return 0


# --------------------------------------------------------------------------- running compiled code


@dataclass
class Guarded:
    """A buffer placed `offset` elements into a larger one filled with a canary pattern, so a
    misaligned start is tested and any write outside the buffer is caught."""

    backing: np.ndarray
    view: np.ndarray
    start: int
    stop: int

    PAD = 64
    CANARY = 0xA5

    @classmethod
    def make(cls, shape: Sequence[int], dtype: Any, offset: int) -> Guarded:
        dtype = np.dtype(dtype)
        count = int(np.prod(shape)) if len(shape) else 1
        start = cls.PAD + offset * dtype.itemsize
        raw = np.full(start + count * dtype.itemsize + cls.PAD, cls.CANARY, np.uint8)
        view = raw[start : start + count * dtype.itemsize].view(dtype).reshape(shape)
        return cls(raw, view, start, start + count * dtype.itemsize)

    def intact(self) -> bool:
        return bool(np.all(self.backing[: self.start] == self.CANARY) and np.all(self.backing[self.stop :] == self.CANARY))


def _place(x: np.ndarray, offset: int) -> np.ndarray:
    if offset == 0:
        return x
    g = Guarded.make(x.shape, x.dtype, offset)
    g.view[...] = x
    return g.view


def run_compiled(compiled: Any, name: str, inputs: Sequence[Any], offset: int = 0,
                 extents: Mapping[str, int] | None = None) -> tuple[Any, ...]:
    """Call compiled native kernel `name` on df-shaped inputs; its results in df order.

    Every buffer (inputs and outputs) starts `offset` elements into a canary-filled
    allocation; an output written outside its capacity raises AssertionError. Outputs are
    sized as the runtime sizes them (`KernelSignature.output_shapes`), on an axis no input
    has (a range's) from `extents`.
    """
    from loopopt.lowering.abi import BufferArg, df_results, find_kernel, kernel_args
    from loopopt.runtime.library import results_tuple

    args = kernel_args(find_kernel(compiled.module, name))
    outs = [a for a in args if isinstance(a, BufferArg) and a.output]
    ins = [a for a in args if not (isinstance(a, BufferArg) and a.output)]
    flat = flatten_inputs(inputs)
    if len(flat) != len(ins):
        raise RunError(f"@{name} takes {len(ins)} C inputs, found {len(flat)}")
    sig = compiled.signatures[name]
    values: list[Any] = [None] * len(args)
    for a, x in zip(ins, flat, strict=True):
        values[a.index] = _place(np.asarray(x), offset) if isinstance(a, BufferArg) else x
    guards = [Guarded.make(shape, o.dt.numpy, offset) for o, shape in zip(sig.outputs, sig.output_shapes(flat, extents))]
    for a, g in zip(outs, guards, strict=True):
        values[a.index] = g.view
    results = results_tuple(sig, compiled[name](*values))
    for a, g in zip(outs, guards, strict=True):
        assert g.intact(), f"@{name}: output {a.name} was written outside its {g.view.shape} buffer"
    return df_results(outs, [v.copy() if isinstance(v, np.ndarray) else v for v in values], results)


def run_compiled_batch(compiled: Any, name: str, cases: Sequence[Sequence[Any]],
                       extents: Sequence[Mapping[str, int] | None] | None = None) -> list[tuple[Any, ...]]:
    """Many calls of a compiled kernel (df-shaped inputs each, and optionally the extents of
    each case's axes no input has), results in df order.

    Native kernels are called one by one; foreign ones (NEON) go through one qemu run.
    """
    from loopopt.lowering.abi import BufferArg, df_results, find_kernel, kernel_args

    per_case = list(extents) if extents is not None else [None] * len(cases)
    if compiled.library is not None:
        return [run_compiled(compiled, name, c, extents=e) for c, e in zip(cases, per_case, strict=True)]
    args = kernel_args(find_kernel(compiled.module, name))
    outs = [a for a in args if isinstance(a, BufferArg) and a.output]
    ran = compiled[name].batch([flatten_inputs(c) for c in cases], per_case)
    regrouped = []
    for outputs, results in ran:
        values: list[Any] = [None] * len(args)
        for a, o in zip(outs, outputs, strict=True):
            values[a.index] = o
        regrouped.append(df_results(outs, values, results))
    return regrouped


# --------------------------------------------------------------------------- reference and check


def contracts_fma(module: ModuleOp, name: str) -> bool:
    """Whether compiled kernel `name` contains a fused multiply-add."""
    from loopopt.lowering.abi import find_kernel

    return any(op.name in FMA_OPS for op in find_kernel(module, name).walk())


def fma_contracted(module: ModuleOp) -> ModuleOp:
    """The df program with the pipeline's FMA contraction applied (still df: interpretable)."""
    from loopopt.compile import make_context, run_pipeline

    clone = module.clone()
    run_pipeline(clone, CONTRACT_PIPELINE, make_context())
    return clone


@dataclass
class FloatRule:
    """How one float result is compared: kind exact | bound | close | ulp, and why."""

    kind: str
    why: str
    bound: Any = None
    """Absolute bound (bound), relative tolerance (close) or ulps (ulp)."""


def _reassoc_source(v: SSAValue) -> tuple[Operation, int] | None:
    """The reassociated add/mul reduction `v` comes straight out of, with its triple index."""
    from loopopt.dialects import df

    op = v.owner
    if isinstance(op, df.ReduceOp) and op.reassoc is not None:
        k = op.results.index(v)  # type: ignore[arg-type]
        if op.kind_values[k] in ("add", "mul"):
            return op, k
    return None


def _depends_on_reassoc(v: SSAValue) -> bool:
    from loopopt.dialects import df

    seen: set[int] = set()
    stack = [v]
    while stack:
        value = stack.pop()
        op = value.owner
        if not isinstance(op, Operation) or id(op) in seen:
            continue
        seen.add(id(op))
        if isinstance(op, df.ReduceOp | df.ScanOp) and op.reassoc is not None:
            return True
        for inner in op.walk():
            stack.extend(inner.operands)
    return False


def reduction_terms(module: ModuleOp, name: str, inputs: Sequence[Any]) -> dict[int, tuple[np.ndarray, Operation, int]]:
    """For each result of df kernel `name` that is a reassociated add/mul reduction: its
    reduced terms (the reduce's input, computed by the interpreter), the reduce and triple."""
    from loopopt.lowering.abi import find_kernel

    clone = module.clone()
    kernel = find_kernel(clone, name)
    ret = kernel.get_return_op()
    assert ret is not None
    sources = {k: s for k, v in enumerate(ret.operands) if (s := _reassoc_source(v)) is not None}
    if not sources:
        return {}
    extra = [op.operands[k] for op, k in sources.values()]
    ret.operands = (*ret.operands, *extra)
    kernel.update_function_type()
    results = interpret(clone, name, inputs)
    terms = results[len(ret.operands) - len(extra):]
    original = find_kernel(module, name).get_return_op()
    assert original is not None
    return {
        k: (t, _reassoc_source(original.operands[k])[0], s[1])  # type: ignore[index]
        for (k, s), t in zip(sources.items(), terms, strict=True)
    }


def float_rules(module: ModuleOp, name: str, inputs: Sequence[Any], reference: Sequence[Any],
                header: RefHeader | None = None) -> dict[int, FloatRule]:
    """The comparison rule of each float result of df kernel `name` (see the module docstring)."""
    from loopopt.lowering.abi import find_kernel

    kernel = find_kernel(module, name)
    ret = kernel.get_return_op()
    assert ret is not None
    n = input_size(inputs)
    if header is not None and header.tol != "exact":
        tol = header.tolerance({s.name: x for s, x in zip(header.inputs, inputs)}, n)
        return {k: FloatRule(tol.kind, f"REF tol={header.tol}", tol.value) for k in range(len(reference))}
    rules: dict[int, FloatRule] = {}
    terms = reduction_terms(module, name, inputs)
    for k, v in enumerate(ret.operands):
        if k in terms:
            t, op, j = terms[k]
            over = {a for a in op.over_axis_names}  # type: ignore[attr-defined]
            axes = tuple(i for i, a in enumerate(op.inputs[j].type.axis_names) if a in over)  # type: ignore[attr-defined]
            m = int(np.prod([t.shape[i] for i in axes])) if t.ndim else 0
            eps = float(np.finfo(t.dtype).eps)
            if op.kind_values[j] == "add":  # type: ignore[attr-defined]
                with np.errstate(all="ignore"):
                    scale = np.sum(np.abs(t.astype(np.float64)), axis=axes)
                rules[k] = FloatRule("bound", f"reassociated sum of {m} terms: 2(m+1)·eps·Σ|t|",
                                     2.0 * (m + 1) * eps * scale + np.finfo(np.float32).tiny)
            else:
                rules[k] = FloatRule("bound", f"reassociated product of {m} terms: 2(m+1)·eps·|ref|",
                                     2.0 * (m + 1) * eps * np.abs(np.asarray(reference[k], np.float64)))
        elif _depends_on_reassoc(v):
            rules[k] = FloatRule("close", "depends on a reassociated reduction: √eps·(1+|ref|)", None)
        else:
            rules[k] = FloatRule("exact", "bit-exact")
    return rules


def interpret(module: ModuleOp, name: str, inputs: Sequence[Any]) -> tuple[Any, ...]:
    """The df interpreter's results for kernel `name` on inputs in argument order (its math.fma
    rounds once: `loopopt.interp.lanewise.exact_fma`)."""
    from loopopt.interp.runner import run_function

    return run_function(module, name, *inputs)


def reference_results(module: ModuleOp, name: str, inputs: Sequence[Any], fma: bool) -> tuple[Any, ...]:
    """The df interpreter's results for `name` (after the pipeline's FMA contraction if `fma`)."""
    return interpret(fma_contracted(module) if fma else module, name, inputs)


def _leaves(value: Any, what: str):
    if isinstance(value, dict):
        for f, v in value.items():
            yield from _leaves(v, f"{what}.{f}")
    elif isinstance(value, tuple):
        for j, v in enumerate(value):
            yield from _leaves(v, f"{what}[{j}]")
    else:
        yield what, value


def compare_results(got: Sequence[Any], ref: Sequence[Any], rules: Mapping[int, FloatRule],
                    exact_alternative: Sequence[Any] | None = None) -> list[str]:
    """Mismatch descriptions (empty when everything matches).

    `exact_alternative` is a second reference accepted for bit-exact float results (the
    unfused one when `ref` is FMA-contracted).
    """
    problems: list[str] = []
    if len(got) != len(ref):
        return [f"{len(got)} results, expected {len(ref)}"]
    for k, (g, r) in enumerate(zip(got, ref, strict=True)):
        alt = dict(_leaves(exact_alternative[k], f"result {k}")) if exact_alternative is not None else {}
        for (what, gv), (_, rv) in zip(_leaves(g, f"result {k}"), _leaves(r, f"result {k}"), strict=True):
            problem = _compare_leaf(np.asarray(gv), np.asarray(rv), rules.get(k))
            if problem and what in alt and _compare_leaf(np.asarray(gv), np.asarray(alt[what]), rules.get(k)) is None:
                problem = None
            if problem:
                problems.append(f"{what}: {problem}")
    return problems


def _compare_leaf(g: np.ndarray, r: np.ndarray, rule: FloatRule | None) -> str | None:
    if g.dtype != r.dtype:
        return f"dtype {g.dtype}, expected {r.dtype}"
    if g.shape != r.shape:
        return f"shape {g.shape}, expected {r.shape}"
    if not np.issubdtype(r.dtype, np.floating) or rule is None or rule.kind == "exact":
        same = (g == r) | (np.isnan(g) & np.isnan(r)) if np.issubdtype(r.dtype, np.floating) else g == r
        if np.all(same):
            return None
        bad = np.flatnonzero(~np.asarray(same).reshape(-1))
        i = int(bad[0])
        return (f"{bad.size} of {max(r.size, 1)} elements differ; first at [{i}]: "
                f"got {g.reshape(-1)[i]!r}, expected {r.reshape(-1)[i]!r}")
    with np.errstate(all="ignore"):
        diff = np.abs(g.astype(np.float64) - r.astype(np.float64))
        if rule.kind == "bound":
            limit = np.asarray(rule.bound, np.float64)
        elif rule.kind == "close":
            tol = rule.bound if rule.bound is not None else math.sqrt(float(np.finfo(r.dtype).eps))
            limit = tol * (1.0 + np.abs(r.astype(np.float64)))
        else:  # ulp
            limit = rule.bound * np.spacing(np.abs(r)).astype(np.float64)
        ok = (diff <= limit) | (np.isnan(g) & np.isnan(r)) | (np.isinf(r) & (g == r))
    if np.all(ok):
        return None
    bad = np.flatnonzero(~np.asarray(ok).reshape(-1))
    i = int(bad[0])
    lim = np.broadcast_to(limit, r.shape).reshape(-1)[i] if r.ndim else float(limit)
    return (f"{bad.size} of {max(r.size, 1)} elements off; first at [{i}]: got {g.reshape(-1)[i]!r}, "
            f"expected {r.reshape(-1)[i]!r}, |diff| {diff.reshape(-1)[i]:.3g} > {lim:.3g} ({rule.why})")


@dataclass
class Check:
    """The outcome of checking one kernel."""

    problems: list[str]
    n: int
    notes: list[str] = field(default_factory=list)
    results: tuple[Any, ...] = ()
    """The compiled kernel's results (df order), for `-o`."""

    @property
    def ok(self) -> bool:
        return not self.problems


def check_kernel(df_module: ModuleOp, compiled: Any, name: str, inputs: Sequence[Any],
                 header: RefHeader | None = None) -> Check:
    """Run compiled `name` on `inputs` and compare with the df interpreter."""
    from loopopt.lowering.abi import find_kernel

    fma = contracts_fma(compiled.module, name)
    plain = reference_results(df_module, name, inputs, fma=False)
    ref = reference_results(df_module, name, inputs, fma=True) if fma else plain
    extents = _result_extents(find_kernel(df_module, name), plain)
    if compiled.library is not None:
        got = run_compiled(compiled, name, inputs, extents=extents)
    else:
        got = run_compiled_batch(compiled, name, [inputs], [extents])[0]
    rules = float_rules(df_module, name, inputs, plain, header)
    check = Check(compare_results(got, ref, rules, plain if fma else None), input_size(inputs), results=tuple(got))
    if fma:
        check.notes.append("FMA-contracted")
    kinds = sorted({r.why for r in rules.values() if r.kind != "exact"})
    check.notes.extend(kinds)
    return check


def _result_extents(kernel: func.FuncOp, results: Sequence[Any]) -> dict[str, int]:
    """Axis extents of the df results (sizes outputs on a range's axis)."""
    from loopopt.dialects.df_types import ArrayType

    extents: dict[str, int] = {}
    for t, r in zip(kernel.function_type.outputs, results, strict=True):
        if isinstance(t, ArrayType):
            arr = next(iter(r.values())) if isinstance(r, dict) else r
            extents.update(zip(t.axis_names, np.shape(arr)))
    return extents


# --------------------------------------------------------------------------- timing


def best_time(fn: Callable[[], Any], budget: float = 0.25, repeat: int = 5) -> float:
    """Seconds per call: best of `repeat` rounds of enough calls to fill budget/repeat."""
    fn()
    number, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= budget / repeat / 4 or number >= 1 << 20:
            break
        number *= 4
    best = elapsed / number
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def format_seconds(s: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def native_call(compiled: Any, name: str, inputs: Sequence[Any], extents: Mapping[str, int]) -> Callable[[], Any]:
    """A zero-argument call of the compiled kernel with preallocated outputs (for timing)."""
    flat = flatten_inputs(inputs)
    sig = compiled.signatures[name]
    outputs = [np.empty(shape, o.dt.numpy) for o, shape in zip(sig.outputs, sig.output_shapes(flat, extents))]
    function = compiled[name]
    values = [*flat, *outputs]
    return lambda: function(*values)


# --------------------------------------------------------------------------- command line


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"loop-run: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="loop-run",
        description="Compile a df program, run its kernels, check them against loopopt's interpreter "
        "and time them against numpy.",
        epilog="Exit status: 0 all kernels match, 1 an error in the input, 2 a command-line error, "
        "3 a kernel MISMATCH (docs/loop_run.md).",
    )
    p.add_argument("file", help="a .mlir df (or Loop IR) program")
    p.add_argument("-p", "--pipeline", default=None,
                   help="pass pipeline (default: loop-pipeline{target=TARGET})")
    p.add_argument("-t", "--target", default="native",
                   help="scalar, sse2, avx2, avx512, neon (under qemu) or native (default: this CPU's best)")
    p.add_argument("-k", "--kernel", action="append", default=[], metavar="NAME",
                   help="run only this kernel (repeatable; default: every kernel)")
    p.add_argument("-n", "--n", type=int, default=1_000_000, help="size of the random inputs (default 1000000)")
    p.add_argument("--check-n", type=int, default=10_000,
                   help="size of the random inputs of the interpreter check (default 10000; capped at --n)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-i", "--input", action="append", default=[], metavar="NAME=PATH.npy|VALUE",
                   help="an argument's value: a .npy array, a number for a scalar, REC.FIELD=PATH.npy for records")
    p.add_argument("--print-c", action="store_true", help="print the generated C first")
    p.add_argument("--no-time", action="store_true", help="skip the timings")
    p.add_argument("-o", "--output", default=None, metavar="OUT.npz",
                   help="save each kernel's results (keys KERNEL.K) and checked inputs (KERNEL.in.ARG) to OUT.npz")
    return p


def main(argv: Sequence[str] | None = None, out: Any = None) -> int:
    """loop-run on `argv`: exit status 0 (every kernel matched), 1 (an error in the input),
    2 (a command-line error), 3 (a MISMATCH); errors are a diagnostic on stderr, never a
    traceback."""
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # --help: 0; a command-line error: 2 (printed by the parser)
        return e.code if isinstance(e.code, int) else EXIT_OK if e.code is None else EXIT_USAGE
    try:
        return _run(args, out)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - xDSL's ArgSpecParseError is a BaseException
        out.flush()  # what was printed comes before the diagnostic
        _report(e, args.file)
        from xdsl.utils.exceptions import ArgSpecParseError

        from loopopt.diagnostics import PipelineError

        if isinstance(e, UsageError | PipelineError | ArgSpecParseError):
            return EXIT_USAGE
    return EXIT_ERROR


def _report(e: BaseException, file: str) -> None:
    """A diagnostic for `e`: located for errors in the input, `internal error` for bugs."""
    from loopopt.diagnostics import report
    from loopopt.runtime import CompileError, ForeignRunError

    if isinstance(e, RefError):
        print(e, file=sys.stderr)
    elif isinstance(e, RunError) or (isinstance(e, CompileError | ForeignRunError) and not isinstance(e, DiagnosticException)):
        print(f"loop-run: error: {e}", file=sys.stderr)
    else:
        report(e, file)


def _run(args: argparse.Namespace, out: Any) -> int:
    from loopopt.compile import compile as compile_module
    from loopopt.compile import kernels_of, make_context, parse
    from loopopt.diagnostics import decode_source, verify_located

    if args.n < 0 or args.check_n < 0:
        raise UsageError("--n and --check-n must be >= 0")
    if args.output is not None and not args.output.endswith(".npz"):
        raise UsageError(f"-o {args.output}: the results are saved as a .npz file (name it OUT.npz)")
    if args.output is not None and not Path(args.output).resolve().parent.is_dir():
        raise RunError(f"cannot write {args.output}: its directory does not exist")
    target = _check_target(args.target)
    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise RunError(f"cannot read {args.file}: {e.strerror or e}") from None
    text = decode_source(data, args.file)
    headers = parse_ref_headers(text, args.file)
    df_module = parse(text, make_context(), args.file)
    verify_located(df_module)
    kernels = kernels_of(df_module)
    names = [k.sym_name.data for k in kernels]
    for name in args.kernel:
        if name not in names:
            raise RunError(f"no kernel {name!r} in {args.file} (kernels: {', '.join(names) or 'none'})")
    selected = [k for k in kernels if not args.kernel or k.sym_name.data in args.kernel]
    given = parse_given(args.input, selected)
    compiled = compile_module(df_module, target=target, pipeline=args.pipeline)
    if args.print_c:
        print(compiled.c_source, file=out)
    foreign = compiled.library is None
    print(f"{args.file}: target {compiled.target}" + (" (run under qemu)" if foreign else ""), file=out)
    status = EXIT_OK
    saved: dict[str, np.ndarray] = {}
    for k, kernel in enumerate(selected):
        name = kernel.sym_name.data
        header = headers.get(name)
        if header is not None:
            check_header(kernel, header)
        seed_rng = np.random.default_rng([args.seed, k])
        check_inputs = make_inputs(kernel, min(args.n, args.check_n), seed_rng, header, given)
        check = check_kernel(df_module, compiled, name, check_inputs, header)
        if args.output is not None:
            saved.update(_saved_arrays(name, arg_names(kernel), check_inputs, check.results))
        notes = f" ({'; '.join(check.notes)})" if check.notes else ""
        if check.ok:
            print(f"{name}: matches the interpreter (n={check.n}){notes}", file=out)
        else:
            status = EXIT_MISMATCH
            print(f"{name}: MISMATCH against the interpreter (n={check.n}){notes}", file=out)
            for problem in check.problems:
                print(f"  {problem}", file=out)
        if args.no_time:
            continue
        if foreign:
            print("  timing skipped: the kernel runs under qemu", file=out)
            continue
        inputs = make_inputs(kernel, args.n, np.random.default_rng([args.seed, k, 1]), header, given)
        print("  " + _timing_line(df_module, compiled, kernel, inputs, header), file=out)
    if args.output is not None:
        try:
            with open(args.output, "wb") as f:
                np.savez(f, **saved)
        except OSError as e:
            raise RunError(f"cannot write {args.output}: {e.strerror or e}") from None
        print(f"results saved to {args.output}", file=out)
    return status


def _saved_arrays(name: str, names: Sequence[str], inputs: Sequence[Any], results: Sequence[Any]) -> dict[str, np.ndarray]:
    """`-o`'s arrays for one kernel: `NAME.K` per result (`NAME.K.FIELD` per record field),
    `NAME.in.ARG` per input (`NAME.in.ARG.FIELD`)."""
    arrays: dict[str, np.ndarray] = {}

    def put(key: str, value: Any) -> None:
        if isinstance(value, dict):
            for f, v in value.items():
                arrays[f"{key}.{f}"] = np.asarray(v)
        else:
            arrays[key] = np.asarray(value)

    for arg, value in zip(names, inputs):
        put(f"{name}.in.{arg}", value)
    for k, value in enumerate(results):
        put(f"{name}.{k}", value)
    return arrays


def _check_target(target: str) -> str:
    from loopopt import runtime

    if target == "native":
        return target
    if target not in runtime.ISAS:
        raise UsageError(f"unknown target {target!r}; expected one of {', '.join(runtime.ISAS)} or native")
    if target in runtime.isa.FOREIGN_TOOLS:
        ok, why = runtime.neon_runner_available()
        if not ok:
            raise RunError(f"cannot run {target} kernels here: {why}")
    elif target not in runtime.host_isas():
        raise RunError(f"this CPU cannot run {target} (it runs {', '.join(runtime.host_isas())}, and neon under qemu)")
    return target


def _timing_line(df_module: ModuleOp, compiled: Any, kernel: func.FuncOp, inputs: Sequence[Any],
                 header: RefHeader | None) -> str:
    name = kernel.sym_name.data
    n = input_size(inputs)
    extents: dict[str, int] = {}
    try:
        call = native_call(compiled, name, inputs, extents)
    except ValueError:  # an output on a range's axis: its extent comes from a reference run
        extents = _result_extents(kernel, interpret(df_module, name, inputs))
        call = native_call(compiled, name, inputs, extents)
    ours = best_time(call)
    line = f"n={n}: loopopt {format_seconds(ours)}"
    if header is None:
        return line + "; numpy: no REF header with a numpy expression for this kernel"
    env = ref_namespace(header, inputs, n)
    header.evaluate(header.expr, env, n)  # a failing expression: a RefError naming the line
    expr = header.compiled_ref()
    with np.errstate(all="ignore"):
        theirs = best_time(lambda: expr(env))
    return line + f", numpy {format_seconds(theirs)} ({theirs / ours:.2f}x)"


if __name__ == "__main__":
    raise SystemExit(main())
