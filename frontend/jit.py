"""`loopopt.jit`: trace a numpy-style function into df, compile it per (dtypes, target), call it.

    >>> import numpy as np, loopopt
    >>> @loopopt.jit
    ... def f(x, a):
    ...     return np.sum(np.where(x > 0, x * a, 0))
    >>> f(np.arange(-3, 4, dtype=np.float32), np.float32(2))
    np.float32(12.0)

The first call with a new signature (per argument: array dtype and rank, numpy scalar
dtype, or Python number kind; for records, the field names and dtypes) traces the function
(`loopopt.frontend.trace`), lowers it to one df kernel (`loopopt.frontend.lower`) and
compiles it with `loopopt.compile` (the runtime's cache of built libraries applies). Later
calls look the signature up in a dict and call the kernel. `f.df` / `f.c_source` show the
IR and C of the last specialization; `f.specialize(*args)` returns one without running it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from loopopt.frontend.trace import _SUPPORTED, SUPPORTED_DTYPES, ArgSpec, JitError, Node, Traced, trace
from loopopt.runtime.signature import ArrayParam

__all__ = ["jit", "JitFunction", "Specialization", "JitError"]

_MISS = object()
"""What a specialization's fast path returns when the arguments are not its own."""

NARROW_GATHER_LIMIT = 2**31 - 1
"""The longest x whose x[idx] wraps 32-bit indices in i32 (trace.Trace.narrow_gathers): a
longer one runs a specialization traced with i64 indices (`Specialization.widened`)."""

_PY_SCALARS = {float: np.dtype(np.float64), int: np.dtype(np.int64), bool: np.dtype(np.bool_)}


def _key(a: Any) -> Any:
    """The cache key of one argument (cheap: one dict lookup per call uses these)."""
    t = type(a)
    if t is np.ndarray:
        return (a.dtype, a.ndim)
    if t is dict:
        return ("dict", tuple((k, _key(v)) for k, v in a.items()))
    if isinstance(a, np.generic):
        return a.dtype
    return t


def _where_defined(fn: Callable[..., Any]) -> str | None:
    try:
        return f"{inspect.getsourcefile(fn)}:{fn.__code__.co_firstlineno}:1"
    except (TypeError, AttributeError):
        return None


def _spec_of(fn: Callable[..., Any], name: str, a: Any) -> ArgSpec:
    if isinstance(a, np.ndarray) and a.dtype.names is not None:
        if a.ndim != 1:
            raise JitError(f"argument '{name}': record arrays must be one-dimensional, got {a.ndim} dimensions",
                           None, _where_defined(fn))
        return ArgSpec("record", fields=tuple((f, _check_dtype(fn, f"{name}['{f}']", a.dtype[f]))
                                              for f in a.dtype.names))
    if isinstance(a, dict):
        fields = []
        for f, v in a.items():
            if not isinstance(f, str) or not isinstance(v, np.ndarray) or v.ndim != 1:
                raise JitError(f"argument '{name}': a record is a dict of str field names to rank-1 numpy arrays",
                               None, _where_defined(fn))
            fields.append((f, _check_dtype(fn, f"{name}['{f}']", v.dtype)))
        return ArgSpec("record", fields=tuple(fields))
    if isinstance(a, np.ndarray):
        if a.ndim > 1:
            raise JitError(f"argument '{name}': arrays of rank {a.ndim} are not supported (rank 1 only)",
                           None, _where_defined(fn))
        dt = _check_dtype(fn, name, a.dtype)
        return ArgSpec("array" if a.ndim == 1 else "scalar", dt)
    if isinstance(a, np.generic):
        return ArgSpec("scalar", _check_dtype(fn, name, a.dtype))
    if type(a) in _PY_SCALARS:
        return ArgSpec("scalar", _PY_SCALARS[type(a)], weak=type(a) is not bool)
    raise JitError(f"argument '{name}': unsupported type {type(a).__name__} (numpy arrays, numpy scalars, "
                   "Python numbers, records as dicts of arrays or structured arrays)", None, _where_defined(fn))


def _check_dtype(fn: Callable[..., Any], name: str, dt: np.dtype[Any]) -> np.dtype[Any]:
    if dt not in SUPPORTED_DTYPES or not dt.isnative:
        raise JitError(f"argument '{name}': dtype {dt} is not supported ({_SUPPORTED})",
                       None, _where_defined(fn))
    return np.dtype(dt.type)


def _flatten_out(out: Any, nodes: list[Node], where: str | None) -> Any:
    """The template of fn's result with each traced value replaced by its index in `nodes`."""
    if isinstance(out, Traced):
        for j, n in enumerate(nodes):
            if n is out.node:
                return ("v", j)
        nodes.append(out.node)
        return ("v", len(nodes) - 1)
    if isinstance(out, tuple | list):
        return (type(out).__name__, [_flatten_out(o, nodes, where) for o in out])
    if isinstance(out, dict):
        return ("dict", {k: _flatten_out(v, nodes, where) for k, v in out.items()})
    if out is None or isinstance(out, int | float | bool | np.generic):
        return ("c", out)
    raise JitError(f"the jitted function returned a {type(out).__name__}: return traced arrays or scalars "
                   "(or tuples, lists, dicts of them)", None, where)


def _signless(x: Any) -> Any:
    """An unsigned numpy array or scalar as the signed dtype of its width (the kernel's
    signless integer); anything else unchanged."""
    if isinstance(x, np.ndarray | np.generic) and x.dtype.kind == "u":
        return x.view(np.dtype(f"i{x.dtype.itemsize}"))
    return x


def _unflatten(template: Any, values: Any) -> Any:
    kind, v = template
    if kind == "v":
        return values[v]
    if kind == "c":
        return v
    if kind == "dict":
        return {k: _unflatten(t, values) for k, t in v.items()}
    seq = [_unflatten(t, values) for t in v]
    return tuple(seq) if kind == "tuple" else seq


class Specialization:
    """One compiled version of a jitted function for one argument signature."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], target: str, name: str,
                 narrow_gathers: bool = True):
        from loopopt import compile as compile_module
        from loopopt.frontend.lower import lower

        try:
            names = list(inspect.signature(fn).parameters)[: len(args)]
        except (TypeError, ValueError):
            names = []
        names += [f"arg{j}" for j in range(len(names), len(args))]
        specs = [_spec_of(fn, n, a) for n, a in zip(names, args, strict=True)]
        self.specs = specs
        records = any(s.kind == "record" for s in specs)  # (positions of flat inputs then differ from args')
        t, out = trace(fn, specs, names, narrow_gathers=narrow_gathers and not records)
        nodes: list[Node] = []
        self.template = _flatten_out(out, nodes, _where_defined(fn))
        if not nodes:
            raise JitError("the jitted function computes nothing from its arguments (it returned no traced value)",
                           None, _where_defined(fn))
        self.checks = t.checks
        """x[idx]'s bounds checks: their results follow the function's own (see check_indices)."""
        self.lengths = list(t.lengths)
        """Positions of the arguments whose lengths are passed as hidden trailing arguments."""
        self.narrow = sorted({c.length for c in t.checks if c.bits == 32})
        """Positions of the arguments x whose x[idx] wraps in i32: longer than
        NARROW_GATHER_LIMIT, the call runs `widened`."""
        self._rebuild = (fn, tuple(np.empty((0,) * a.ndim, a.dtype) if isinstance(a, np.ndarray) else a
                                   for a in args), target, name)
        self._wide: Specialization | None = None
        self.n_results = len(nodes)
        nodes += [n for c in t.checks for n in (c.bad, c.largest)]
        try:
            self.df = lower(t, nodes, name)
        except RecursionError:
            raise JitError("the traced function is too deeply nested to compile", None,
                           _where_defined(fn)) from None
        """The df module (before the pipeline)."""
        self.kernels = compile_module.compile(self.df, target=target)
        self.name = name
        self.c_source: str = self.kernels.c_source
        self.target: str = self.kernels.target
        self.function = self.kernels[name]
        self.native = self.kernels.library is not None
        self.nodes = nodes
        sig = self.kernels.signatures[name]
        # Fast path: no array outputs (only scalar results) and no records / 0-d arrays to unpack.
        self.unsigned = any(n.dtype.kind == "u" for n in nodes[: self.n_results]) or any(
            isinstance(a, np.ndarray | np.generic) and a.dtype.kind == "u" for a in args)
        """Some argument or result is unsigned: the kernel takes and returns signless bits
        (viewed as the signed dtype on the way in, back as the unsigned one on the way out)."""
        self.direct = self.native and not self.unsigned and not sig.outputs and not any(
            s.kind == "record" for s in specs) and not any(
            isinstance(a, np.ndarray) and a.ndim == 0 for a in args)
        self.single = self.template == ("v", 0) and len(nodes) == 1
        self.sig = sig
        self.counts = {p.count_result for p in sig.outputs if p.count_result is not None}
        self.visible = tuple(sig.visible_results)
        self.run: Callable[..., Any] | None = None if self.direct else _array_runner(self, args)
        """The generated call of a specialization with array outputs (None: the general path)."""

    def inputs(self, args: tuple[Any, ...]) -> list[Any]:
        """The kernel's C-level inputs: records as field arrays, 0-d arrays as scalars, any
        array made contiguous."""
        flat: list[Any] = []
        for spec, a in zip(self.specs, args, strict=True):
            if spec.kind == "record":
                flat.extend(np.ascontiguousarray(a[f]) for f, _ in spec.fields)
            elif isinstance(a, np.ndarray):
                flat.append(np.ascontiguousarray(a) if a.ndim == 1 else a[()])
            else:
                flat.append(a)
        flat += [np.int64(len(flat[j])) for j in self.lengths]  # x[idx]'s len(x)
        return [_signless(x) for x in flat]

    def __call__(self, args: tuple[Any, ...]) -> Any:
        if self.narrow and any(len(args[j]) > NARROW_GATHER_LIMIT for j in self.narrow):
            return self.widened()(args)
        if self.run is not None:
            return self.run(*args)
        return self.slow(args)

    def slow(self, args: tuple[Any, ...]) -> Any:
        """The general call: records unpacked, views copied, outputs sized from the signature."""
        if self.direct and self.checks:  # scalar results only: the hidden lengths after the arguments
            try:
                r = self.function(*args, *[np.int64(len(args[j])) for j in self.lengths])
            except ValueError:
                r = self.function(*self.inputs(args))
            self.check_indices(list(r[self.n_results:]), args)
            return _unflatten(self.template, r)
        if self.direct:
            try:
                r = self.function(*args)
            except ValueError:
                r = self.function(*self.inputs(args))  # non-contiguous views: copy them
            return r if self.single else _unflatten(self.template, (r,) if len(self.nodes) == 1 else r)
        flat = self.inputs(args)
        if self.native and not self.sig.extents:
            got = self._call_native(flat)
        else:
            got = self.kernels.outputs_and_results(self.name, *flat)
        values = self._by_result(got)
        if self.checks:
            self.check_indices(values[self.n_results:], flat)
        return _unflatten(self.template, values)

    def widened(self) -> Specialization:
        """This function traced with i64 gather indices (for x longer than NARROW_GATHER_LIMIT)."""
        if self._wide is None:
            fn, args, target, name = self._rebuild
            self._wide = Specialization(fn, args, target, name, narrow_gathers=False)
        return self._wide

    def check_indices(self, hidden: list[Any], flat: list[Any]) -> None:
        """numpy's IndexError for x[idx] with an index outside [-len(x), len(x)): the kernel
        ran (out-of-range elements read as 0, nothing outside x was touched) and reported it."""
        for c, bad, largest in zip(self.checks, hidden[0::2], hidden[1::2], strict=True):
            if bad:
                n = len(flat[c.length])
                v = int(largest) & (2**c.bits - 1)  # the unsigned value (signless on the direct path)
                if c.signed and v >= 2 ** (c.bits - 1):
                    v = v - 2**c.bits - n  # the wrapped index was negative: the index was below -len(x)
                at = f"{c.where}: " if c.where else ""
                raise IndexError(f"{at}index {v} is out of bounds for axis 0 with size {n} (x[idx])")

    def _call_native(self, flat: list[Any]) -> tuple[Any, ...]:
        """call_alloc without zeroing: every element a map writes is written, filter outputs
        are trimmed to their count."""
        sig = self.sig
        outs = [np.empty(shape, o.dt.numpy) for o, shape in zip(sig.outputs, sig.output_shapes(flat, None))]
        returned = self.function(*flat, *outs)
        got = () if not self.visible else (returned,) if len(self.visible) == 1 else tuple(returned)
        return (*sig.trim_outputs(outs, sig.full_results(got, {})), *got)

    def make_fast(self, args: tuple[Any, ...]) -> Callable[..., Any]:
        """A function of the call's arguments that runs this specialization when their types
        are exactly those it was compiled for (checked by identity: numpy's builtin dtypes
        are singletons) and returns `_MISS` otherwise."""
        checks, env = [], {"nd": np.ndarray, "MISS": _MISS, "spec": self, "fn": self.function, "run": self.run}
        for j, a in enumerate(args):
            env[f"T{j}"] = type(a)
            checks.append(f"type(a{j}) is T{j}")
            if isinstance(a, np.ndarray):
                env[f"D{j}"] = a.dtype
                checks.append(f"a{j}.dtype is D{j} and a{j}.ndim == {a.ndim}")
                if j in self.narrow:
                    checks.append(f"len(a{j}) <= {NARROW_GATHER_LIMIT}")  # else __call__ runs `widened`
        params = ", ".join(f"a{j}" for j in range(len(args)))
        if any(isinstance(a, dict) for a in args):
            checks = ["False"]  # a dict's field dtypes are not checked here: take the keyed path
        guard = " and ".join(checks) or "True"
        if self.direct and self.single and not self.checks:
            body = f"        try:\n            return fn({params})\n        except ValueError:\n            pass\n"
        elif self.run is not None:
            body = f"        return run({params})\n"
        else:
            body = ""
        defaults = ", ".join(f"a{j}=MISS" for j in range(len(args)))  # fewer arguments: a miss
        src = (f"def fast({defaults}{', ' if args else ''}*rest):\n"
               f"    if not rest and {guard}:\n{body}"
               f"        return spec(({params}{',' if len(args) == 1 else ''}))\n"
               f"    return MISS\n")
        exec(compile(src, "<loopopt.jit dispatch>", "exec"), env)
        return env["fast"]  # type: ignore[no-any-return]

    def _by_result(self, got: tuple[Any, ...]) -> list[Any]:
        """call_alloc's (*outputs, *visible results) back in df result order (filter counts dropped)."""
        n_out = sum(1 for n in self.nodes if n.is_array)
        outputs, results = list(got[:n_out]), list(got[n_out:])
        scalars = [r for j, r in zip(self.visible, results, strict=True) if j not in self.counts]
        values: list[Any] = []
        for n in self.nodes:
            v = outputs.pop(0) if n.is_array else scalars.pop(0)
            values.append(v.view(n.dtype) if n.dtype.kind == "u" else v)  # int8 bits -> uint8
        return values


def _array_runner(spec: Specialization, args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """A generated function of the call's arguments for a native kernel with array outputs:
    each output `np.empty` of the length of the first argument on its axis, the hidden
    lengths as Python ints, the kernel wrapper called directly, filter outputs trimmed,
    the result built by one expression (about 1 µs where the general path, which goes
    through the signature's generic sizing, took 10). The wrapper's own checks (dtype,
    contiguity, alignment, equal lengths, no aliasing) still run on every call; a ValueError
    from it (a strided view, unequal lengths) reruns the call on the general path, which
    copies views and raises what it always raised. None when the kernel does not fit
    (records, 0-d arrays, computed axes, an output sized by no argument)."""
    sig, n_args = spec.sig, len(args)
    if not spec.native or sig.extents or any(s.kind == "record" for s in spec.specs) \
            or any(isinstance(a, np.ndarray) and a.ndim == 0 for a in args) \
            or len(sig.inputs) != n_args + len(spec.lengths):
        return None
    env: dict[str, Any] = {"fn": spec.function, "spec": spec, "empty": np.empty}
    source: dict[str, int] = {}  # axis -> the first argument on it
    for j, p in enumerate(sig.inputs[:n_args]):
        if isinstance(p, ArrayParam) and p.rank == 1 and p.axes:
            source.setdefault(p.axes[0], j)
    params = [f"a{j}" for j in range(n_args)]
    call = []
    for j, a in enumerate(args):
        if isinstance(a, np.ndarray | np.generic) and a.dtype.kind == "u":
            env[f"S{j}"] = np.dtype(f"i{a.dtype.itemsize}")  # signless bits, as _signless
            call.append(f"a{j}.view(S{j})")
        else:
            call.append(f"a{j}")
    lens = [*spec.lengths]
    lines, outs = [], []
    for i, o in enumerate(sig.outputs):
        axis = o.capacity if o.capacity is not None else (o.axes[0] if o.rank == 1 and o.axes else None)
        if axis not in source:
            return None
        lens.append(source[axis])
        env[f"D{i}"] = o.dt.numpy
        outs.append(f"o{i}")
    lines += [f"    n{j} = len(a{j})" for j in sorted(set(lens))]
    lines += [f"    o{i} = empty(n{lens[len(spec.lengths) + i]}, D{i})" for i in range(len(outs))]
    call += [f"n{j}" for j in spec.lengths] + outs
    visible = [f"r{j}" for j in sig.visible_results]
    target = "" if not visible else f"{visible[0]} = " if len(visible) == 1 else f"{', '.join(visible)}, = "
    lines += ["    try:", f"        {target}fn({', '.join(call)})", "    except ValueError:",
              f"        return spec.slow(({', '.join(params)}{',' if n_args == 1 else ''}))"]
    for i, o in enumerate(sig.outputs):
        if o.count_result is not None:
            lines.append(f"    o{i} = o{i}[:r{o.count_result}]")
    arrays = iter(outs)
    scalars = iter(f"r{j}" for j in sig.visible_results if j not in spec.counts)
    values = []
    for m, n in enumerate(spec.nodes):
        v = next(arrays) if n.is_array else next(scalars)
        if n.dtype.kind == "u":
            env[f"U{m}"] = n.dtype
            v = f"{v}.view(U{m})"
        values.append(v)
    hidden = values[spec.n_results:]
    if hidden:
        lines.append(f"    if {' or '.join(hidden[0::2])}:")
        lines.append(f"        spec.check_indices([{', '.join(hidden)}], ({', '.join(params)}{',' if n_args == 1 else ''}))")
    lines.append(f"    return {_template_expr(spec.template, values, env)}")
    src = f"def run({', '.join(params)}):\n" + "\n".join(lines) + "\n"
    exec(compile(src, "<loopopt.jit array call>", "exec"), env)
    return env["run"]  # type: ignore[no-any-return]


def _template_expr(template: Any, values: list[str], env: dict[str, Any]) -> str:
    """`_unflatten(template, values)` as a Python expression (constants and keys through env)."""
    kind, v = template
    if kind == "v":
        return values[v]
    if kind == "c":
        env[f"C{len(env)}"] = v
        return f"C{len(env) - 1}"
    if kind == "dict":
        items = []
        for k, t in v.items():
            env[f"K{len(env)}"] = k
            items.append(f"K{len(env) - 1}: {_template_expr(t, values, env)}")
        return "{" + ", ".join(items) + "}"
    seq = [_template_expr(t, values, env) for t in v]
    if kind == "tuple":
        return "(" + "".join(f"{e}, " for e in seq) + ")"
    return "[" + ", ".join(seq) + "]"


class JitFunction:
    """A jitted function: call it like the original; compiled per argument signature."""

    def __init__(self, fn: Callable[..., Any], target: str = "native"):
        if not callable(fn):
            raise TypeError(f"loopopt.jit needs a function, got {type(fn).__name__}")
        self.fn = fn
        self.target = target
        self.cache: dict[tuple[Any, ...], Specialization] = {}
        self.last: Specialization | None = None
        self._fasts: dict[tuple[Any, ...], Callable[..., Any]] = {}
        self._fast: Callable[..., Any] = lambda *args: _MISS
        functools.update_wrapper(self, fn)

    def specialize(self, *args: Any) -> Specialization:
        """The compiled version for these arguments (compiled now if new)."""
        key = tuple(map(_key, args))
        spec = self.cache.get(key)
        if spec is None:
            spec = Specialization(self.fn, args, self.target, _kernel_name(self.fn))
            self.cache[key] = spec
        self.last = spec
        fast = self._fasts.get(key)
        if fast is None:
            fast = self._fasts[key] = spec.make_fast(args)
        self._fast = fast
        return spec

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            args = self._bind(args, kwargs)
        r = self._fast(*args)  # the last specialization, if the arguments fit it
        if r is not _MISS:
            return r
        return self.specialize(*args)(args)

    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        """Keyword arguments as positional ones (defaults filled in up to the last given)."""
        bound = inspect.signature(self.fn).bind(*args, **kwargs)  # TypeError as for the function
        bound.apply_defaults()
        if bound.kwargs:
            raise JitError(f"keyword-only or **kwargs parameters ({', '.join(bound.kwargs)}) are not supported",
                           None, _where_defined(self.fn))
        return tuple(bound.args)

    def _last(self) -> Specialization:
        if self.last is None:
            raise ValueError(f"{self.fn.__name__} has not been compiled yet: call it (or .specialize(*args)) first")
        return self.last

    @property
    def df(self) -> Any:
        """The df module of the last compiled specialization."""
        return self._last().df

    @property
    def c_source(self) -> str:
        """The C of the last compiled specialization."""
        return self._last().c_source


def _kernel_name(fn: Callable[..., Any]) -> str:
    from loopopt.names import c_name_problem

    name = getattr(fn, "__name__", "kernel")
    return name if c_name_problem(name) is None and not name.startswith("lo_") else "jit_kernel"


def jit(fn: Callable[..., Any] | None = None, *, target: str = "native") -> Any:
    """`@loopopt.jit`, `@loopopt.jit(target="avx2")` or `loopopt.jit(f, target=...)`."""
    if fn is None:
        return lambda f: JitFunction(f, target)
    return JitFunction(fn, target)
