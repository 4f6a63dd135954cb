"""What "matches" means for `loop-run` and the differential tests: the interpreter's reference
results, the comparison rule of each float result, and the comparison itself:

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
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from loopopt.tools.loop_run_inputs import input_size
from loopopt.tools.ref_header import RefHeader

FMA_OPS = ("math.fma", "simd.fma")
"""Ops that mark a contracted multiply-add in the compiled module."""

CONTRACT_PIPELINE = "df-fuse,loop-simplify{fma=true}"
"""What the FMA-aware reference runs on the df program: the pipeline's contraction rule."""


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
    """The reassociated float add/mul reduction `v` comes straight out of, with its triple
    index (an integer one is exact in any order: it is compared exactly)."""
    from loopopt.dialects import df
    from loopopt.dialects.df_types import is_float_type

    op = v.owner
    if isinstance(op, df.ReduceOp) and op.reassoc is not None and is_float_type(v.type):
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
    if r.dtype.name == "bfloat16":  # ml_dtypes: not an np.floating; its f32 values are exact (NaN stays NaN)
        g, r = g.astype(np.float32), r.astype(np.float32)
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
