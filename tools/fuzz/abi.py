"""`python -m loopopt.tools.fuzz.abi`: loop-fuzz's random programs called through the raw C ABI
with hostile arguments, under AddressSanitizer + UBSan (docs/fuzzing.md, "The C ABI").

The Python wrapper checks every argument before a kernel runs; a C caller does not. This fuzzer
calls the printed C directly (`abi_runner`) with what docs/calling_convention.md allows a C
caller to pass, and holds the kernels to what it promises:

* sizes 0, 1, W-1, W, W+1 for every vector width, primes, large; buffers at element offsets
  0, 1, 3 (unaligned), each in an allocation of exactly its size (ASan reports one past the end);
* a negative length is an empty array (every length that would be 0 is passed as -1, -7,
  INT64_MIN, ...): nothing is read, nothing written, reductions give their init;
* a filter output's capacity may be anything (below, at, above the count, 0, negative): the
  kernel writes the first min(count, capacity) kept elements and returns the full count;
* a map output's capacity may exceed n: nothing past n is written; an output on a computed axis
  smaller than its extent is not written at all and the extent is still returned;
* lengths on one input axis may disagree: a second buffer on it longer than the first input
  (the first n elements are used: same results), or shorter, an output included (nothing on
  the axis is written; the call only has to stay inside every buffer);
* inputs may share memory (the same pointer for two inputs of one dtype and length);
* scalar parameters at INT_MIN, INT_MAX, -1, 0, NaN, +-inf, -0.0.

Oracle, per call: no sanitizer report, no crash; no byte written outside the span the
convention allows (the allocations' offset prefixes and the slack past a capacity hold the
runner's sentinel); counts and extents equal the evaluator's; the written span equals the
evaluator's values (`compare.compare_results`, FMA-aware). Programs are compiled for each ISA
with the default pipeline, or (`--configs`) with `parallel=-1` (OpenMP drivers, 1-4 threads at
run time, small chunks so that the sizes split) and half of those with `filter_block=-1`.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .abi_runner import SENTINEL, AbiCall, AbiRunner, ArraySpec, RunnerFailure
from .compare import compare_results
from .evaluate import NP, Ref, evaluate, fma_sites
from .generate import GenOptions, Generator
from .inputs import make_args
from .printer import print_kernel
from .program import Input, Kernel, Param
from .runner import EMIT_ONLY, FMA_ISAS, Config, cheap, classify, compile_groups

INT64_MIN = -(2**63)
NEGATIVE = (-1, -2, -7, -64, INT64_MIN, INT64_MIN + 1, -(2**62), -(2**31))
"""Lengths a C caller might pass for an empty array by mistake (or on purpose)."""
SIZES = (0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 13, 37, 61, 127, 257, 1000, 4099)
BIG = (70_001, 131_101)
"""For parallel builds (chunks of 64 split them) and big filters; only for kernels the evaluator runs fast."""
OFFSETS = (0, 0, 1, 3)
FAILURES = ("sanitizer", "crash", "timeout", "oob_write", "count", "mismatch", "internal", "compile_error")


def extreme_scalar(dt: str, rng: random.Random) -> Any:
    """An extreme value of scalar type `dt`: the ends of its range, -1 / all ones, NaN, infinities."""
    if dt in ("f32", "f64"):
        t = NP[dt]
        return t(rng.choice([np.nan, np.inf, -np.inf, -0.0, np.finfo(t).max, -np.finfo(t).max, np.finfo(t).tiny]))
    if dt == "i1":
        return np.bool_(rng.random() < 0.5)
    if dt in ("bf16", "f16"):
        return None
    info = np.iinfo(NP[dt])
    return NP[dt](rng.choice([info.min, info.max, -1, 0, info.min + 1, info.bits - 1, info.bits]))


@dataclass
class Case:
    """How one call is made hostile (all of it reproducible from these fields)."""

    n: int
    seed: int
    negative: int = 0
    """Non-zero: n is 0 and every zero length is passed as this negative value."""
    alias: tuple[int, int] | None = None
    """(a, b) node indices of two inputs of one dtype and shape: b is passed as a's pointer."""
    extreme: tuple[tuple[int, Any], ...] = ()
    """(node index, value) of free scalar parameters set to extreme values."""
    offsets: int = 0
    """Seed of every array's offset (0, 1 or 3 elements into its allocation)."""
    caps: int = 0
    """Seed of the capacities (filter outputs: below / at / above the count, 0, negative;
    map outputs: n or more; computed-axis outputs: the extent, one less, more)."""
    cap: int | None = None
    """When set, the capacity of every filter output (tests pin one this way)."""
    slack: int | None = None
    """When set, the elements allocated past every output's capacity (else 0, 1 or 5 at random)."""
    offset: int | None = None
    """When set, every array's element offset into its allocation (else by `offsets`)."""
    mismatch: int = 0
    """Non-zero: seed of one buffer (not the first) on an input axis passed longer or shorter than n."""
    plain: tuple[int, ...] = ()
    """Node indices of array inputs whose data are replaced by small plain values (`plain_values`:
    the minimizer's data shrink; gather index inputs keep theirs)."""

    def label(self) -> str:
        parts = [f"n={self.n}", f"seed={self.seed}"]
        if self.negative:
            parts.append(f"negative={self.negative}")
        if self.alias:
            parts.append(f"alias={self.alias}")
        if self.mismatch:
            parts.append(f"mismatch={self.mismatch}")
        if self.extreme:
            parts.append(f"extreme={[(i, repr(v)) for i, v in self.extreme]}")
        if self.plain:
            parts.append(f"plain={self.plain}")
        parts += [f"{k}={getattr(self, k)}" for k in ("cap", "slack", "offset") if getattr(self, k) is not None]
        return (" ".join(parts[:2]) + f" offsets={self.offsets} caps={self.caps} " + " ".join(parts[2:])).rstrip()


@dataclass
class Failure:
    cls: str
    isa: str
    kernel: Kernel
    message: str
    case: Case | None = None
    config: Config = field(default_factory=Config)


# --------------------------------------------------------------------------- cases


def plain_values(x: Any) -> Any:
    """`x` (an array, or a record's dict of arrays) with the same shape and dtype holding 0, 1, 2, 0,
    1, 2, ... (False, True, ... for i1): a failure that stays with these does not need the data."""
    if isinstance(x, dict):
        return {f: plain_values(v) for f, v in x.items()}
    a = np.asarray(x)
    small = np.arange(a.size).reshape(a.shape) % 3
    return (small == 1) if a.dtype == np.bool_ else small.astype(np.float32).astype(a.dtype)


def _input_nodes(kernel: Kernel) -> list[int]:
    return [i for i, node in enumerate(kernel.nodes) if isinstance(node, (Input, Param))]


def make_cases(kernel: Kernel, seed: int, count: int, parallel: bool) -> list[Case]:
    rng = random.Random(seed)
    ranges = any(getattr(n, "role", "") == "rstart" for n in kernel.nodes)
    inputs = [(i, n) for i, n in enumerate(kernel.nodes) if isinstance(n, Input) and not n.fields and n.rank == 1]
    pairs = [(a, b) for a, x in inputs for b, y in inputs if a < b and x.dtype == y.dtype and x.axis == y.axis]
    free = [i for i, n in enumerate(kernel.nodes) if isinstance(n, Param) and n.role == "free" and n.dtype not in ("bf16", "f16")]
    cases = []
    for k in range(count):
        n = 0 if ranges and k % 2 else rng.choice(SIZES)
        if (parallel or rng.random() < 0.1) and cheap(kernel) and not ranges and rng.random() < 0.3:
            n = rng.choice(BIG)
        c = Case(n, rng.randrange(2**31), offsets=rng.randrange(2**31), caps=rng.randrange(2**31))
        if rng.random() < 0.2 and not ranges:
            c.n, c.negative = 0, rng.choice(NEGATIVE)
        if pairs and rng.random() < 0.3:
            c.alias = rng.choice(pairs)
        if c.n > 0 and not ranges and c.alias is None and rng.random() < 0.15:
            c.mismatch = rng.randrange(1, 2**31)
        if free and rng.random() < 0.3:
            c.extreme = tuple((i, extreme_scalar(kernel.nodes[i].dtype, rng)) for i in free if rng.random() < 0.7)
        cases.append(c)
    return cases


@dataclass
class Prepared:
    """A case made concrete: the C call, the references, and what the oracle checks per output."""

    call: AbiCall
    refs: list[Ref]
    alt: list[Ref] | None
    outputs: list[dict[str, Any]]
    """Per output (C order): index (param), result (df), field, need (elements the reference has,
    None when open), cap, alloc, offset, itemsize, dtype, kind (map / filter / computed), axes."""
    short_axis: str | None = None
    """An axis a buffer was passed too short on: its map outputs stay unwritten, values unchecked."""


def _ref_of(refs: list[Ref], result: int | None, fld: str | None) -> Ref:
    ref = refs[result or 0]
    if fld is None:
        return ref
    value = ref.value[fld]
    taint = ref.taint[fld] if isinstance(ref.taint, dict) else np.zeros(np.shape(value), bool)
    return Ref(value, taint, None, ref.open)


def prepare(kernel: Kernel, sig: Any, args_abi: list[Any], case: Case, isa: str) -> Prepared:
    """The C arguments of `case` for `kernel` (signature `sig`, decoded ABI args `args_abi`)."""
    from loopopt.lowering.abi import BufferArg, flatten_inputs

    args, call = make_args(kernel, case.n, case.seed)
    order = _input_nodes(kernel)
    for i in case.plain:
        args[i] = plain_values(args[i])
        call[order.index(i)] = args[i]
    for i, v in case.extreme:
        args[i] = v
        call[order.index(i)] = v
    if case.alias is not None:
        a, b = case.alias
        args[b] = np.array(args[a], copy=True)
        call[order.index(b)] = args[b]
    refs = evaluate(kernel, args)
    alt = evaluate(kernel, args, fma=True) if isa in FMA_ISAS and fma_sites(kernel) else None
    flat = flatten_inputs(call)
    ins = [a for a in args_abi if not (isinstance(a, BufferArg) and a.output)]
    rng_off = random.Random(case.offsets)
    rng_cap = random.Random(case.caps)
    specs: list[ArraySpec | bytes] = [b""] * len(args_abi)
    alias_param: dict[int, int] = {}
    if case.alias is not None:  # node index -> C parameter index (a record input is one per field)
        first: dict[int, int] = {}
        k = 0
        for i in order:
            first[i] = ins[k].index
            node = kernel.nodes[i]
            k += len(node.fields) if isinstance(node, Input) and node.fields else 1
        alias_param = {first[case.alias[1]]: first[case.alias[0]]}

    def dims_of(shape: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(case.negative if case.negative and d == 0 else d for d in shape)

    for a, x in zip(ins, flat, strict=True):
        p = sig.params[a.index]
        if not isinstance(a, BufferArg):
            specs[a.index] = np.array(x, p.dt.numpy).tobytes()
            continue
        x = np.ascontiguousarray(x)
        off = rng_off.choice(OFFSETS) if case.offset is None else case.offset
        spec = ArraySpec(dims_of(x.shape), x.size, off, x.view(p.dt.numpy).tobytes())
        if a.index in alias_param:
            src = specs[alias_param[a.index]]
            assert isinstance(src, ArraySpec)
            spec = replace(spec, offset=src.offset, alias=alias_param[a.index], alloc=0, data=b"")
        specs[a.index] = spec
    outputs = []
    computed = dict(sig.extents)
    for a in args_abi:
        if not (isinstance(a, BufferArg) and a.output):
            continue
        p = sig.params[a.index]
        ref = _ref_of(refs, a.result, a.field)
        shape = tuple(np.shape(ref.value))
        off = rng_off.choice(OFFSETS) if case.offset is None else case.offset
        slack = rng_cap.choice((0, 0, 0, 1, 5)) if case.slack is None else case.slack
        on_computed = [d for d, ax, _ in sig.computed_dims(p)]
        if a.count_result is not None:
            kind = "filter"
            need = None if ref.open else shape[0]
            base = need if need is not None else case.n
            cap = rng_cap.choice([base, base, base - 1, base + 1, base // 2, 0, case.n, case.n + 17,
                                  rng_cap.choice(NEGATIVE)])  # fmt: skip
            cap = cap if case.cap is None else case.cap
            dims = (cap,)
            alloc = max(cap, 0) + slack
        elif on_computed:
            kind = "computed"
            need = shape[0]
            cap = rng_cap.choice([need, need, need + 3, need - 1, 0, -1]) if need > 0 else rng_cap.choice([0, 0, 4, -1])
            dims = (cap, *shape[1:])
            alloc = max(cap, 0) * int(np.prod(shape[1:], dtype=np.int64)) + slack
        else:
            kind = "map"
            need = shape[0]
            extra = rng_cap.choice((0, 0, 0, 1, 9)) if p.rank == 1 else 0
            dims = dims_of(shape) if not extra else (shape[0] + extra,)
            cap = dims[0]
            alloc = int(np.prod(shape, dtype=np.int64)) + extra + slack
        specs[a.index] = ArraySpec(dims, alloc, off)
        outputs.append({"index": a.index, "result": a.result, "field": a.field, "need": need, "cap": cap,
                        "alloc": alloc, "offset": off, "dtype": p.dt.numpy, "kind": kind, "shape": shape,
                        "count": a.count_result, "extent": computed.get(sig.computed_dims(p)[0][1]) if on_computed else None,
                        "axes": a.axes})  # fmt: skip
    short = _mismatch(case, args_abi, specs, outputs, sig) if case.mismatch else None
    return Prepared(AbiCall(specs), refs, alt, outputs, short)


def _mismatch(case: Case, args_abi: list[Any], specs: list[Any], outputs: list[dict[str, Any]], sig: Any) -> str | None:
    """Pass one rank-1 buffer on an input axis (not the axis's first input, not a filter's
    output) longer (an input) or shorter (docs/calling_convention.md, "Mismatched lengths");
    the axis made short, or None."""
    from loopopt.lowering.abi import BufferArg

    first: dict[str, int] = {}
    for a in args_abi:
        if isinstance(a, BufferArg) and not a.output:
            for ax in a.axes:
                first.setdefault(ax, a.index)
    cands = [a for a in args_abi if isinstance(a, BufferArg) and a.rank == 1 and a.count_result is None
             and first.get(a.axes[0], a.index) != a.index and specs[a.index].dims[0] > 0]  # fmt: skip
    if not cands:
        return None
    rng = random.Random(case.mismatch)
    a = rng.choice(cands)
    spec = specs[a.index]
    n = spec.dims[0]
    itemsize = np.dtype(sig.params[a.index].dt.numpy).itemsize
    if not a.output and rng.random() < 0.4:
        extra = rng.choice((1, 3, 17))
        tail = bytes(rng.randrange(256) for _ in range(extra * itemsize))
        specs[a.index] = replace(spec, dims=(n + extra,), alloc=n + extra, data=spec.data + tail)
        return None
    if a.output:
        o = next(o for o in outputs if o["index"] == a.index)
        m = rng.choice((o["need"] - 1, o["need"] // 2, 0, -1, INT64_MIN))
        o["cap"], o["alloc"] = m, max(m, 0) + rng.choice((0, 1, 5))
        specs[a.index] = replace(spec, dims=(m,), alloc=o["alloc"])
        return a.axes[0]
    m = rng.choice((n - 1, n // 2, 0, -1, INT64_MIN))
    specs[a.index] = replace(spec, dims=(m,), alloc=max(m, 0), data=spec.data[: max(m, 0) * itemsize])
    return a.axes[0]


# --------------------------------------------------------------------------- oracle


def check(prepared: Prepared, sig: Any, raw_outputs: list[np.ndarray], results: list[Any], args_abi: list[Any]) -> tuple[str, str] | None:
    """(class, message) of the first broken promise of one call, or None."""
    from loopopt.lowering.abi import BufferArg, df_results

    values: list[Any] = [None] * len(args_abi)
    refs = list(prepared.refs)
    alt = list(prepared.alt) if prepared.alt is not None else None
    skip_rest = False
    for o, raw in zip(prepared.outputs, raw_outputs, strict=True):
        dt = np.dtype(o["dtype"])
        name = args_abi[o["index"]].name
        pre = o["offset"] * dt.itemsize
        if np.any(raw[:pre] != SENTINEL):
            return "oob_write", f"output {name!r}: wrote before its start ({o['offset']} elements of prefix)"
        body = raw[pre:]
        cap = max(o["cap"], 0)
        if o["kind"] == "filter" and o["extent"] is not None and cap < int(results[o["extent"]]):
            # a capacity on a computed axis below its extent: nothing on the axis runs
            # (docs/calling_convention.md, "Computed axes"; the Python wrapper rejects the call)
            skip_rest = True
            written = allowed = 0
        elif o["kind"] == "filter":
            count = int(results[o["count"]])
            if o["need"] is not None and count != o["need"] and prepared.short_axis is None:
                return "count", f"output {name!r}: count {count}, expected {o['need']} (capacity {o['cap']})"
            written = max(0, min(count, cap))
            allowed = cap
        elif o["kind"] == "computed":
            extent = int(results[o["extent"]])
            if extent != o["need"]:
                return "count", f"output {name!r}: extent result {extent}, expected {o['need']}"
            fits = cap >= o["need"]
            skip_rest = skip_rest or not fits
            written = o["need"] if fits else 0
            allowed = written
        else:
            written = allowed = o["need"]
        if prepared.short_axis is not None:  # counts and values unchecked; a map output on the axis untouched
            allowed = 0 if o["kind"] == "map" and prepared.short_axis in o["axes"] else max(allowed or 0, cap)
            written = 0
        row = int(np.prod(o["shape"][1:], dtype=np.int64))
        if np.any(body[allowed * row * dt.itemsize :] != SENTINEL):
            first = int(np.argmax(body[allowed * row * dt.itemsize :] != SENTINEL)) // dt.itemsize + allowed * row
            return "oob_write", (f"output {name!r} ({o['kind']}, capacity {o['cap']}, allocation {o['alloc']}): "
                                 f"element {first} written, only {allowed} allowed")  # fmt: skip
        arr = body[: written * row * dt.itemsize].view(dt).reshape((written, *o["shape"][1:]))
        values[o["index"]] = arr
        r = o["result"] or 0
        if o["need"] is not None and written < o["need"]:
            refs[r] = _trim(refs[r], written, o["field"])
            if alt is not None:
                alt[r] = _trim(alt[r], written, o["field"])
    if skip_rest or prepared.short_axis is not None:
        return None
    outs = [a for a in args_abi if isinstance(a, BufferArg) and a.output]
    got = df_results(outs, values, results, {j for _, j in sig.extents})
    problem = compare_results(refs, alt, got)
    return ("mismatch", problem) if problem is not None else None


def _trim(ref: Ref, k: int, fld: str | None) -> Ref:
    if fld is not None:
        return ref  # records are compared field by field below their own count; not trimmed here
    bound = ref.bound[:k] if isinstance(ref.bound, np.ndarray) and ref.bound.shape else ref.bound
    return Ref(np.asarray(ref.value)[:k], np.asarray(ref.taint)[:k], bound, ref.open)


# --------------------------------------------------------------------------- batches


def abi_config(rng: random.Random, configs: bool) -> Config:
    """Default pipeline, or parallel=-1 with small chunks (0 and 64 elements), 1-4 threads and,
    half of the time, filter_block=-1 (super-block filters)."""
    if not configs or rng.random() < 0.4:
        return Config()
    return Config("", parallel=-1, min_elements=0, chunk=64, threads=rng.choice((1, 2, 3, 4)),
                  filter_block=rng.choice((0, -1)))  # fmt: skip


@dataclass
class AbiFuzzer:
    isas: list[str]
    cases_per_kernel: int = 6
    configs: bool = False
    stats: dict[str, Counter] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    rejected: Counter = field(default_factory=Counter)

    def add(self, isa: str, key: str, count: int = 1) -> None:
        self.stats.setdefault(isa, Counter())[key] += count

    def record(self, f: Failure) -> None:
        self.add(f.isa, f.cls)
        if f.cls == "rejected":
            self.rejected[f.message.split("error:", 1)[-1].strip()[:120]] += 1
        else:
            self.failures.append(f)

    def run_batch(self, kernels: list[Kernel], seed: int) -> None:
        from loopopt import runtime

        rng = random.Random(seed)
        for isa in self.isas:
            if isa not in runtime.isa.host_isas():
                continue
            config = abi_config(rng, self.configs)
            self.add(isa, "programs", len(kernels))
            if config.parallel:
                self.add(isa, "parallel_programs", len(kernels))
            groups, fails = compile_groups(kernels, EMIT_ONLY + isa, None, config)
            for f in fails:
                self.record(Failure(f.cls, isa, f.kernel, f.message, None, config))
            for compiled, ks in groups:
                self.run_group(compiled, ks, isa, config, seed)

    def replay(self, f: Failure) -> None:
        """Compile `f`'s kernel as it was and run its case again (all its cases when it has none)."""
        groups, fails = compile_groups([f.kernel], EMIT_ONLY + f.isa, None, f.config)
        for g in fails:
            self.record(Failure(g.cls, f.isa, g.kernel, g.message, None, f.config))
        for compiled, _ in groups:
            self.run_group(compiled, [f.kernel], f.isa, f.config, 0, [f.case] if f.case else None)

    def run_group(self, compiled: Any, kernels: list[Kernel], isa: str, config: Config, seed: int,
                  cases: list[Case] | None = None) -> None:  # fmt: skip
        from loopopt.lowering.abi import find_kernel, kernel_args
        from loopopt.runtime.build import CompileError

        sigs = [compiled.signatures[k.name] for k in kernels]
        try:
            runner = AbiRunner(compiled.c_source, sigs, isa)
        except CompileError as e:
            for k in kernels:
                self.record(Failure("compile_error", isa, k, str(e)[-3000:], None, config))
            return
        for kernel in kernels:
            sig = compiled.signatures[kernel.name]
            args_abi = kernel_args(find_kernel(compiled.module, kernel.name))
            todo = cases or make_cases(kernel, seed ^ zlib.crc32(kernel.name.encode()), self.cases_per_kernel, bool(config.parallel))
            self.run_cases(runner, kernel, sig, args_abi, todo, isa, config)

    def run_cases(self, runner: AbiRunner, kernel: Kernel, sig: Any, args_abi: list[Any], cases: list[Case],
                  isa: str, config: Config) -> None:  # fmt: skip
        prepared = []
        for c in cases:
            try:
                prepared.append(prepare(kernel, sig, args_abi, c, isa))
            except Exception as e:  # noqa: BLE001 - the fuzzer's (or evaluator's) bug, reported apart
                self.record(Failure("evaluator_error", isa, kernel, classify(e)[1], c, config))
                return
        try:
            ran = runner.run(kernel.name, [p.call for p in prepared], config.threads)
        except RunnerFailure as e:
            case = cases[e.case] if e.case is not None and e.case < len(cases) else None
            self.record(Failure(e.kind, isa, kernel, e.report, case, config))
            return
        self.add(isa, "runs", len(cases))
        for c, p, (raw, results) in zip(cases, prepared, ran, strict=True):
            problem = check(p, sig, raw, results, args_abi)
            if problem is not None:
                self.record(Failure(problem[0], isa, kernel, problem[1], c, config))
                return

    def table(self) -> str:
        cols = ("programs", "runs", *FAILURES, "rejected")
        rows = [f"{'isa':8}" + "".join(f"{c:>14}" for c in cols)]
        for isa, c in self.stats.items():
            rows.append(f"{isa:8}" + "".join(f"{c[k]:>14}" for k in cols))
        return "\n".join(rows)


def write_failure(f: Failure, out: Path, k: int, original: Failure | None = None) -> Path:
    """`<class>_<isa>_<k>.mlir` (the kernel, the call and the report in comments; with `original`,
    a minimized failure, also what it was shrunk from), `.pkl` for `--replay` and, minimized, a
    pytest snippet `.py.txt` for test/python/fuzz/test_fuzz_abi.py."""
    from .abi_minimize import pytest_snippet

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{f.cls}_{f.isa}_{k:03d}.mlir"
    head = [f"// ABI-FUZZ: {f.cls} on {f.isa} {f.config.label()}".rstrip(),
            f"// CASE: {f.case.label() if f.case else '(compile)'}",
            f"// reproduce: python -m loopopt.tools.fuzz.abi --replay {path.with_suffix('.pkl')}"]  # fmt: skip
    head += [f"// {line}" for line in f.message.splitlines()[:40]]
    if original is not None:
        head.append(f"// minimized from {len(original.kernel.nodes)} nodes, {original.case.label() if original.case else '-'} "
                    f"{original.config.label()}".rstrip())  # fmt: skip
        path.with_suffix(".py.txt").write_text(pytest_snippet(f, f"{f.cls}_{f.isa}_{k:03d}") + "\n")
    path.write_text("\n".join(head) + "\n" + print_kernel(f.kernel) + "\n")
    path.with_suffix(".pkl").write_bytes(pickle.dumps(f))
    return path


def main(argv: list[str] | None = None) -> int:
    from loopopt import runtime

    p = argparse.ArgumentParser(prog="python -m loopopt.tools.fuzz.abi", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--programs", type=int, default=None, help="stop after this many programs")
    p.add_argument("--budget", type=float, default=None, help="seconds")
    p.add_argument("--batch", type=int, default=8, help="kernels per compiled program")
    p.add_argument("--cases", type=int, default=6, help="hostile calls per kernel and ISA")
    p.add_argument("--isas", default=",".join(runtime.isa.host_isas()))
    p.add_argument("--configs", action="store_true", help="also parallel=-1 (OpenMP, 1-4 threads) and filter_block=-1")
    p.add_argument("--small", action="store_true", help="at most 3 steps per kernel")
    p.add_argument("--out", type=Path, default=Path("abi-fuzz-out"))
    p.add_argument("--replay", type=Path, nargs="+", help="run saved failures (.pkl) again")
    p.add_argument("--minimize", type=int, default=0, metavar="BUDGET",
                   help="shrink each failure (at most BUDGET reproductions) before writing it (abi_minimize)")
    args = p.parse_args(argv)
    if args.replay:
        fuzzer = AbiFuzzer([])
        for path in args.replay:
            f = pickle.loads(path.with_suffix(".pkl").read_bytes())
            before = len(fuzzer.failures)
            fuzzer.replay(f)
            print(f"{path}: {'fixed' if len(fuzzer.failures) == before else fuzzer.failures[-1].cls + ': ' + fuzzer.failures[-1].message.splitlines()[0]}")
        if args.minimize:
            for k, f in enumerate(fuzzer.failures):
                _write_minimized(f, args, k)
        return 2 if fuzzer.failures else 0
    if args.programs is None and args.budget is None:
        args.programs = 40
    seed = args.seed if args.seed is not None else int(time.time()) % 1_000_000
    fuzzer = AbiFuzzer(_runnable_isas(p, args.isas), args.cases, args.configs)
    options = GenOptions(max_steps=3) if args.small else GenOptions()
    start, made, batch = time.monotonic(), 0, 0
    print(f"abi fuzz: seed {seed}, ISAs {args.isas}", flush=True)
    while (args.programs is None or made < args.programs) and (args.budget is None or time.monotonic() - start < args.budget):
        count = args.batch if args.programs is None else min(args.batch, args.programs - made)
        kernels = [Generator(s, options).kernel(f"f{s}") for s in range(seed * 100_003 + made, seed * 100_003 + made + count)]
        fuzzer.run_batch(kernels, seed * 7919 + batch)
        made, batch = made + count, batch + 1
        print(f"  {made} programs, {time.monotonic() - start:.0f}s, failures {len(fuzzer.failures)}", flush=True)
    print(fuzzer.table())
    if args.minimize:
        written = [_write_minimized(f, args, k) for k, f in enumerate(fuzzer.failures)]
    else:
        written = [write_failure(f, args.out, k) for k, f in enumerate(fuzzer.failures)]
    for path in written:
        print(f"  wrote {path}")
    for msg, n in fuzzer.rejected.most_common(5):
        print(f"  rejected x{n}: {msg}")
    if written:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps({"seed": seed, "programs": made,
            "per_isa": {k: dict(v) for k, v in fuzzer.stats.items()}, "failures": [str(x) for x in written]}, indent=2))  # fmt: skip
    return 2 if fuzzer.failures else 0


def _runnable_isas(p: argparse.ArgumentParser, requested: str) -> list[str]:
    """The ISAs of `--isas` this machine runs natively (the ABI fuzzer calls kernels in-process:
    no qemu for NEON); says on stderr which it leaves out, and fails on unknown names or none left."""
    from loopopt import runtime

    isas = [s for s in requested.split(",") if s]
    unknown = [s for s in isas if s not in runtime.isa.ISAS]
    if unknown:
        p.error(f"--isas: unknown {', '.join(unknown)}; choose from {', '.join(runtime.isa.ISAS)}")
    host = runtime.isa.host_isas()
    skipped = [s for s in isas if s not in host]
    if skipped:
        print(f"abi fuzz: skipping {', '.join(skipped)}: this machine runs {', '.join(host)} "
              "(the ABI fuzzer calls kernels natively)", file=sys.stderr, flush=True)
    if len(skipped) == len(isas):
        p.error("--isas: none of them runs on this machine")
    return [s for s in isas if s in host]


def _write_minimized(f: Failure, args: argparse.Namespace, k: int) -> Path:
    from .abi_minimize import minimize_abi, pytest_snippet

    print(f"minimizing {f.cls} on {f.isa} ({len(f.kernel.nodes)} nodes, {f.case.label() if f.case else '-'})", flush=True)
    small, tries = minimize_abi(f, args.minimize, log=lambda line: print(line, flush=True))
    path = write_failure(small, args.out, k, original=f)
    print(f"  {tries} reproductions: {len(small.kernel.nodes)} nodes, {small.case.label() if small.case else '-'} "
          f"{small.config.label()}".rstrip())  # fmt: skip
    print(f"  reproduce: python -m loopopt.tools.fuzz.abi --replay {path.with_suffix('.pkl')}")
    print("  as a test (test/python/fuzz/test_fuzz_abi.py):")
    print("\n".join("    " + line for line in pytest_snippet(small, path.stem).splitlines()))
    return path


if __name__ == "__main__":
    sys.exit(main())
