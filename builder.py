"""Build df kernels from Python, without writing MLIR text.

Body values overload Python's operators (`+ - * / % -x < <= > >=`, with Python numbers
turned into constants of the other operand's type), so a body is an ordinary lambda:

    >>> from loopopt.builder import KernelBuilder, f32
    >>> k = KernelBuilder("sum_affine")
    >>> x = k.array_arg("x", f32, axes=["i"])
    >>> y = k.map(lambda e: e * 2.0 + 1.0, x)
    >>> s = k.reduce("add", y, reassoc=True)
    >>> module = k.returns(s).module()          # a verified ModuleOp
    >>> print(module)
    builtin.module {
      func.func @sum_affine(%x: !df.array<f32, [i]>) -> f32 {
        %0 = df.map %x : !df.array<f32, [i]> -> !df.array<f32, [i]> {
        ^bb0(%1: f32):
          %2 = arith.constant 2.000000e+00 : f32
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.constant 1.000000e+00 : f32
          %5 = arith.addf %3, %4 : f32
          df.yield %5 : f32
        }
        %6 = arith.constant 0.000000e+00 : f32
        %7 = df.reduce add(%0, %6) over [i] reassoc : !df.array<f32, [i]> -> f32
        func.return %7 : f32
      }
    }

Arrays are `Array` handles (type known: `.type`, `.axes`, `.element_type`); scalars and
body elements are `Scalar` handles. Bodies may capture any scalar built earlier.
Several kernels (for df.decl_ref) go in one module with `build_module(k1, k2, ...)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TupleType,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from loopopt.dialects import df
from loopopt.dialects.df_types import ArrayType, RecordType, ReduceKind, element_type_of

__all__ = ["KernelBuilder", "Array", "Scalar", "build_module", "f32", "f64", "i1", "i32", "i64"]


_FLOAT_WIDTH = {Float16Type: 16, BFloat16Type: 16, Float32Type: 32, Float64Type: 64}


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


class _Handle:
    """A built SSA value and the builder that inserts the ops using it."""

    def __init__(self, builder: KernelBuilder, value: SSAValue):
        self.builder = builder
        self.value = value

    @property
    def type(self) -> Attribute:
        return self.value.type


class Scalar(_Handle):
    """A scalar (or record / tuple) value: a kernel argument, a constant, a body element."""

    def _binary(self, other: Any, float_op: type[Operation], int_op: type[Operation], swap: bool = False):
        b = self.builder
        other_v = b.coerce(other, self.type)
        lhs, rhs = (other_v, self.value) if swap else (self.value, other_v)
        op = (float_op if _is_float(self.type) else int_op)(lhs, rhs)
        return Scalar(b, b.insert(op).results[0])

    def __add__(self, o): return self._binary(o, arith.AddfOp, arith.AddiOp)
    def __radd__(self, o): return self._binary(o, arith.AddfOp, arith.AddiOp, swap=True)
    def __sub__(self, o): return self._binary(o, arith.SubfOp, arith.SubiOp)
    def __rsub__(self, o): return self._binary(o, arith.SubfOp, arith.SubiOp, swap=True)
    def __mul__(self, o): return self._binary(o, arith.MulfOp, arith.MuliOp)
    def __rmul__(self, o): return self._binary(o, arith.MulfOp, arith.MuliOp, swap=True)
    def __truediv__(self, o): return self._binary(o, arith.DivfOp, arith.DivSIOp)
    def __rtruediv__(self, o): return self._binary(o, arith.DivfOp, arith.DivSIOp, swap=True)
    def __mod__(self, o):
        if _is_float(self.type):
            raise TypeError("% is defined on integers only (arith.remsi, C semantics)")
        return self._binary(o, arith.RemSIOp, arith.RemSIOp)

    def __neg__(self):
        if _is_float(self.type):
            return Scalar(self.builder, self.builder.insert(arith.NegfOp(self.value)).results[0])
        return 0 - self

    def _compare(self, other: Any, fpred: str, ipred: str) -> Scalar:
        b = self.builder
        other_v = b.coerce(other, self.type)
        if _is_float(self.type):
            op = arith.CmpfOp(self.value, other_v, fpred)
        else:
            op = arith.CmpiOp(self.value, other_v, ipred)
        return Scalar(b, b.insert(op).results[0])

    def __lt__(self, o): return self._compare(o, "olt", "slt")
    def __le__(self, o): return self._compare(o, "ole", "sle")
    def __gt__(self, o): return self._compare(o, "ogt", "sgt")
    def __ge__(self, o): return self._compare(o, "oge", "sge")
    def eq(self, o) -> Scalar: return self._compare(o, "oeq", "eq")
    def ne(self, o) -> Scalar: return self._compare(o, "une", "ne")

    def __getitem__(self, name: str) -> Scalar:
        """A record field."""
        return Scalar(self.builder, self.builder.insert(df.FieldOp(self.value, name)).result)

    __hash__ = object.__hash__


class Array(_Handle):
    """A df array value (`!df.array<T, [axes]>`)."""

    @property
    def axes(self) -> tuple[str, ...]:
        t = self.type
        assert isinstance(t, ArrayType)
        return t.axis_names

    @property
    def element_type(self) -> Attribute:
        return element_type_of(self.type)

    def __getitem__(self, name: str) -> Array:
        """A field array of an array of records."""
        return Array(self.builder, self.builder.insert(df.FieldOp(self.value, name)).result)


def _wrap(builder: KernelBuilder, v: SSAValue) -> Scalar | Array:
    return Array(builder, v) if isinstance(v.type, ArrayType) else Scalar(builder, v)


def _neutral(kind: ReduceKind, t: Attribute) -> int | float | bool:
    """The identity of a built-in kind on type t (the default init)."""
    if kind in (ReduceKind.UMIN, ReduceKind.UMAX):
        return kind.neutral(t)
    if kind == ReduceKind.ADD or kind == ReduceKind.OR:
        return 0
    if kind == ReduceKind.MUL:
        return 1
    if kind == ReduceKind.AND:
        return -1
    if _is_float(t):
        return float("inf") if kind == ReduceKind.MIN else float("-inf")
    assert isinstance(t, IntegerType)
    bits = t.width.data
    return (2 ** (bits - 1) - 1) if kind == ReduceKind.MIN else -(2 ** (bits - 1))


class KernelBuilder:
    """Builds one df kernel (a func.func); see the module docstring for an example."""

    def __init__(self, name: str):
        self.name = name
        self._entry = Block()
        self._blocks: list[Block] = [self._entry]
        self._func: func.FuncOp | None = None

    # -- plumbing ------------------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        """Append `op` at the current insertion point (the innermost body being built)."""
        self._blocks[-1].add_op(op)
        return op

    def constant(self, value: int | float | bool, t: Attribute) -> Scalar:
        """An arith.constant of type t (df.constant is the same value as a df node)."""
        attr = FloatAttr(float(value), t) if _is_float(t) else IntegerAttr(int(value), t)  # type: ignore[arg-type]
        return Scalar(self, self.insert(arith.ConstantOp(attr)).results[0])

    def coerce(self, v: Any, t: Attribute) -> SSAValue:
        """An SSA value from a handle, an SSA value, or a Python number (as type t)."""
        if isinstance(v, _Handle):
            return v.value
        if isinstance(v, SSAValue):
            return v
        if isinstance(v, bool | int | float):
            return self.constant(v, t).value
        raise TypeError(f"cannot use {v!r} as a df value")

    def _body(self, arg_types: Sequence[Attribute], fn: Callable[..., Any],
              yield_types: Sequence[Attribute] | None = None) -> tuple[Region, list[Attribute]]:
        """Build a body region by calling fn on its block arguments; returns yielded types."""
        block = Block(arg_types=arg_types)
        self._blocks.append(block)
        try:
            out = fn(*(_wrap(self, a) for a in block.args))
            outs = list(out) if isinstance(out, tuple | list) else [out]
            types = list(yield_types) if yield_types is not None else [
                o.type if isinstance(o, _Handle) else arg_types[0] for o in outs
            ]
            values = [self.coerce(o, t) for o, t in zip(outs, types, strict=True)]
            block.add_op(df.YieldOp(*values))
        finally:
            self._blocks.pop()
        return Region(block), [v.type for v in values]

    # -- arguments and results -----------------------------------------------------------

    def array_arg(self, name: str, element_type: Attribute, axes: Sequence[str] = ("i",)) -> Array:
        """A kernel argument `!df.array<element_type, [axes]>` named `name`."""
        arg = self._entry.insert_arg(ArrayType(element_type, list(axes)), len(self._entry.args))
        arg.name_hint = name
        return Array(self, arg)

    def records_arg(self, name: str, fields: dict[str, Attribute], axes: Sequence[str] = ("i",)) -> Array:
        """A kernel argument: an array of records with these fields."""
        return self.array_arg(name, RecordType(fields), axes)

    def scalar_arg(self, name: str, t: Attribute) -> Scalar:
        arg = self._entry.insert_arg(t, len(self._entry.args))
        arg.name_hint = name
        return Scalar(self, arg)

    def returns(self, *values: _Handle) -> KernelBuilder:
        """End the kernel with func.return of `values`; builds the func.func."""
        self._entry.add_op(func.ReturnOp(*(v.value for v in values)))
        arg_types = [a.type for a in self._entry.args]
        self._func = func.FuncOp(self.name, (arg_types, [v.type for v in values]), Region(self._entry))
        return self

    def func(self) -> func.FuncOp:
        if self._func is None:
            raise ValueError(f"kernel {self.name}: call returns(...) first")
        return self._func

    def module(self) -> ModuleOp:
        """A verified module holding this kernel."""
        return build_module(self)

    # -- df nodes ------------------------------------------------------------------------

    def range(self, start: Any, end: Any, step: Any = 1, axis: str = "i") -> Array:
        vals = [self.coerce(v, i64) for v in (start, end, step)]
        return Array(self, self.insert(df.RangeOp(*vals, axis)).result)

    def random(self, length: Any, element_type: Attribute = f32, axis: str = "i") -> Array:
        op = df.RandomOp.build(operands=[self.coerce(length, i64)],
                               result_types=[ArrayType(element_type, [axis])])
        return Array(self, self.insert(op).result)

    def map(self, fn: Callable[..., Any], *arrays: Array) -> Any:
        """zipWith fn over arrays of one domain; one Array per value fn returns (a tuple
        gives several results)."""
        axes = arrays[0].axes
        body, types = self._body([a.element_type for a in arrays], fn)
        op = self.insert(df.MapOp([a.value for a in arrays], [ArrayType(t, axes) for t in types], body))
        results = [Array(self, r) for r in op.results]
        return results[0] if len(results) == 1 else tuple(results)

    def gather(self, x: Array, idx: Array) -> Array:
        """`x[idx]` (df.gather): on idx's axis; an index outside [0, len(x)) gives 0."""
        return Array(self, self.insert(df.GatherOp(x.value, idx.value)).result)

    def filter(self, pred: Callable[..., Any], *arrays: Array, axis: str = "k") -> Any:
        """Keep the elements where pred holds, on the new axis `axis`."""
        body, _ = self._body([a.element_type for a in arrays], pred, [i1])
        op = self.insert(df.FilterOp([a.value for a in arrays], axis, body))
        results = [Array(self, r) for r in op.results]
        return results[0] if len(results) == 1 else tuple(results)

    def select(self, cond: _Handle, a: _Handle, b: _Handle) -> Any:
        return _wrap(self, self.insert(df.SelectOp(cond.value, a.value, b.value)).result)

    def reduce(self, kind: str | ReduceKind | Callable[[Scalar, Scalar], Any], x: Array,
               init: Any = None, over: Sequence[str] | None = None, reassoc: bool = False) -> Any:
        """One reduction: a kind name, or a function (acc, x) -> acc for a custom body.

        `init` defaults to the kind's neutral element; `over` to every axis (a scalar result).
        """
        (r,) = self.reduce_many([(kind, x, init)], over, reassoc)
        return r

    def reduce_many(self, triples: Sequence[tuple[Any, Array, Any]], over: Sequence[str] | None = None,
                    reassoc: bool = False) -> tuple[Any, ...]:
        """Several (kind, array, init) reductions over one domain in one df.reduce."""
        kinds, inputs, inits, custom = [], [], [], []
        for kind, x, init in triples:
            k = ReduceKind.CUSTOM if callable(kind) else ReduceKind(kind)
            et = x.element_type
            if init is None:
                if k == ReduceKind.CUSTOM:
                    raise ValueError("a custom reduction needs an init")
                init = _neutral(k, et)
            kinds.append(k)
            inputs.append(x.value)
            inits.append(self.coerce(init, et))
            if k == ReduceKind.CUSTOM:
                custom.append((kind, et))
        body = None
        if custom:
            m = len(custom)

            def combined(*args):
                outs = [fn(args[j], args[m + j]) for j, (fn, _) in enumerate(custom)]
                return tuple(outs)

            types = [t for _, t in custom]
            body, _ = self._body(types * 2, combined, types)
        op = self.insert(df.ReduceOp(kinds, inputs, inits, over, reassoc, body))
        return tuple(_wrap(self, r) for r in op.results)

    def fold(self, fn: Callable[..., Any], inits: Sequence[Any], *arrays: Array,
             types: Sequence[Attribute] | None = None) -> Any:
        """Sequential fold: fn(acc_1..acc_m, x_1..x_n) -> accs. Python-number inits need
        `types`."""
        if types is None:
            types = [v.type for v in inits]
        init_values = [self.coerce(v, t) for v, t in zip(inits, types, strict=True)]
        body, _ = self._body([*types, *(a.element_type for a in arrays)], fn, types)
        op = self.insert(df.FoldOp([a.value for a in arrays], init_values, body))
        results = [_wrap(self, r) for r in op.results]
        return results[0] if len(results) == 1 else tuple(results)

    def scan(self, kind: str | Callable[[Scalar, Scalar], Any], x: Array, init: Any = None,
             reassoc: bool = False) -> Array:
        k = ReduceKind.CUSTOM if callable(kind) else ReduceKind(kind)
        et = x.element_type
        if init is None:
            if k == ReduceKind.CUSTOM:
                raise ValueError("a custom scan needs an init")
            init = _neutral(k, et)
        body = self._body([et, et], kind, [et])[0] if k == ReduceKind.CUSTOM else None
        op = self.insert(df.ScanOp(k, x.value, self.coerce(init, et), body, reassoc))
        return Array(self, op.output)

    def make_tuple(self, *values: _Handle) -> Scalar:
        return Scalar(self, self.insert(df.MakeTupleOp([v.value for v in values])).result)

    def get(self, tup: Scalar, index: int) -> Any:
        assert isinstance(tup.type, TupleType)
        return _wrap(self, self.insert(df.GetOp(tup.value, index)).result)

    def make_records(self, **fields: _Handle) -> Any:
        op = df.MakeRecordsOp([(name, v.value) for name, v in fields.items()])
        return _wrap(self, self.insert(op).result)

    def decl_ref(self, kernel: str | KernelBuilder, *args: _Handle,
                 result_types: Sequence[Attribute] | None = None) -> Any:
        """The results of another kernel (a KernelBuilder already `returns`-ed, or a name
        with explicit result types)."""
        if isinstance(kernel, KernelBuilder):
            result_types = list(kernel.func().function_type.outputs)
            kernel = kernel.name
        op = self.insert(df.DeclRefOp(kernel, [a.value for a in args], result_types or []))
        results = [_wrap(self, r) for r in op.results]
        return results[0] if len(results) == 1 else tuple(results)

    # -- scalar math inside bodies -------------------------------------------------------

    def _scalar_op(self, op: Operation) -> Scalar:
        return Scalar(self, self.insert(op).results[0])

    def sqrt(self, x: Scalar) -> Scalar:
        return self._scalar_op(math.SqrtOp(x.value))

    def abs(self, x: Scalar) -> Scalar:
        return self._scalar_op(math.AbsFOp(x.value) if _is_float(x.type) else math.AbsIOp(x.value))

    def exp(self, x: Scalar) -> Scalar:
        return self._scalar_op(math.ExpOp(x.value))

    def fma(self, a: Scalar, b: Any, c: Any) -> Scalar:
        return self._scalar_op(math.FmaOp(a.value, self.coerce(b, a.type), self.coerce(c, a.type)))

    def min(self, a: Scalar, b: Any) -> Scalar:
        """NaN-propagating for floats (arith.minimumf), signed for integers."""
        bv = self.coerce(b, a.type)
        return self._scalar_op(arith.MinimumfOp(a.value, bv) if _is_float(a.type) else arith.MinSIOp(a.value, bv))

    def max(self, a: Scalar, b: Any) -> Scalar:
        bv = self.coerce(b, a.type)
        return self._scalar_op(arith.MaximumfOp(a.value, bv) if _is_float(a.type) else arith.MaxSIOp(a.value, bv))

    def where(self, cond: Scalar, a: Any, b: Any) -> Scalar:
        """Scalar select inside a body (arith.select)."""
        t = a.type if isinstance(a, _Handle) else b.type
        return self._scalar_op(arith.SelectOp(cond.value, self.coerce(a, t), self.coerce(b, t)))

    def cast(self, x: Scalar, t: Attribute) -> Scalar:
        """Numeric conversion to t (sitofp, fptosi, extf/truncf, extsi/trunci)."""
        s = x.type
        if s == t:
            return x
        if _is_float(s) and _is_float(t) or _FLOAT_WIDTH.get(type(s)) and _FLOAT_WIDTH.get(type(t)):
            wider = _FLOAT_WIDTH[type(t)] > _FLOAT_WIDTH[type(s)]  # f16 / bf16 storage: extf / truncf only
            return self._scalar_op(arith.ExtFOp(x.value, t) if wider else arith.TruncFOp(x.value, t))
        if _is_float(t):
            return self._scalar_op(arith.SIToFPOp(x.value, t))
        if _is_float(s):
            return self._scalar_op(arith.FPToSIOp(x.value, t))
        assert isinstance(s, IntegerType) and isinstance(t, IntegerType)
        if t.width.data > s.width.data:
            return self._scalar_op(arith.ExtSIOp(x.value, t))
        return self._scalar_op(arith.TruncIOp(x.value, t))


def build_module(*kernels: KernelBuilder) -> ModuleOp:
    """A verified module of the given kernels (each must have called `returns`)."""
    module = ModuleOp([k.func() for k in kernels])
    module.verify()
    return module
