"""Repeat wrappers: call a C kernel `reps` times from C, so timing a 1 Ki-element call is not timing Python.

A Python loop around a ~0.3 µs runtime call would swamp a 50 ns kernel. For each kernel
`k` we add `bench_k(<inputs>, int64_t reps, <outputs>)` to the same translation unit; it
calls `k` through a *volatile* function pointer (no inlining, no hoisting of a call whose
arguments never change) with a compiler memory barrier between calls (the output stores
stay live). Every C implementation — loopopt's, the kernel library's, gcc's — is timed
through the same wrapper, so the few ns of an indirect call cancel out of the ratios.
"""

from __future__ import annotations

from collections.abc import Sequence

from loopopt.runtime import ArrayParam, KernelSignature, ScalarParam

REPS = ScalarParam("bench_reps", "i64")


def wrapper_name(kernel: str) -> str:
    return f"bench_{kernel}"


def _c_params(sig: KernelSignature) -> list[tuple[str, str]]:
    """(C type, name) of every C parameter of `sig`, in order."""
    params: list[tuple[str, str]] = []
    for p in sig.params:
        types = p.c_params()
        if isinstance(p, ArrayParam):
            dims = ["len"] if p.rank == 1 else ["rows", "cols"]
            params.append((types[0], p.name))
            params += [(t, f"{p.name}_{d}") for t, d in zip(types[1:], dims)]
        else:
            params.append((types[0], p.name))
    return params


def wrapper_signature(sig: KernelSignature) -> KernelSignature:
    """The wrapper's signature: the kernel's inputs, `reps`, then its outputs; the same results."""
    return KernelSignature(wrapper_name(sig.name), (*sig.inputs, REPS, *sig.outputs), sig.results)


def wrapper_source(sig: KernelSignature) -> str:
    """C of `bench_<kernel>`; returns the last call's result (if any)."""
    if len(sig.results) > 1:
        raise ValueError(f"{sig.name}: repeat wrappers handle at most one scalar result, not {sig.results}")
    params = _c_params(sig)
    ret = sig.return_c_type
    n_inputs = sum(len(p.c_params()) for p in sig.inputs)
    decl = [f"{t} {n}" for t, n in params]
    decl.insert(n_inputs, "int64_t bench_reps")
    call = f"fp({', '.join(n for _, n in params)})"
    pointer_type = f"{ret} (*volatile fp)({', '.join(t for t, _ in params)})"
    body = (
        f"    {ret} r = 0;\n    for (int64_t rep = 0; rep < bench_reps; rep++) {{\n"
        f"        r = {call};\n        __asm__ volatile(\"\" ::: \"memory\");\n    }}\n    return r;\n"
        if ret != "void"
        else f"    for (int64_t rep = 0; rep < bench_reps; rep++) {{\n"
        f"        {call};\n        __asm__ volatile(\"\" ::: \"memory\");\n    }}\n"
    )
    return f"{ret} {wrapper_name(sig.name)}({', '.join(decl)})\n{{\n    {pointer_type} = {sig.name};\n{body}}}\n"


def with_wrappers(c_source: str, signatures: Sequence[KernelSignature]) -> tuple[str, list[KernelSignature]]:
    """`c_source` plus a repeat wrapper per kernel, and the wrappers' signatures (to build with the runtime)."""
    parts = [c_source, "\n/* loop-bench repeat wrappers */"]
    parts += [wrapper_source(s) for s in signatures]
    return "\n".join(parts), [wrapper_signature(s) for s in signatures]


__all__ = ["REPS", "with_wrappers", "wrapper_name", "wrapper_signature", "wrapper_source"]
