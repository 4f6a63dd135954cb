"""Lower a trace (`loopopt.frontend.trace`) to one df kernel with `loopopt.builder.KernelBuilder`.

* Every maximal elementwise expression over arrays becomes one `df.map` whose inputs are
  its leaves (arguments, filter and scan results); scalars it uses (arguments, reductions,
  arithmetic on those) are computed at kernel level first and captured by the body.
* `x[mask]`: one `df.filter` per mask; its predicate is the mask's expression evaluated on
  the filter's inputs (no boolean array is materialized), its results are the filtered
  arrays (all arrays indexed by that mask), on the mask's new axis.
* `x[idx]` (an integer index array) is `df.gather` at the index wrapped by a hidden len(x)
  argument; its bounds check is two extra scalar results (trace.IndexCheck, tested by jit.py).
* Reductions are `df.reduce` (floats with `reassoc`: numpy sums pairwise, not in order),
  `np.cumsum` / `np.cumprod` are `df.scan` (in order). df-fuse then fuses map→reduce,
  filter→reduce and filter→map.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, bf16, f16, f32, f64, i1, i8, i16, i32, i64
from xdsl.ir import Attribute, Operation

from loopopt.builder import Array, KernelBuilder, Scalar
from loopopt.frontend.trace import ELEMENTWISE, NARROW_FLOATS, Axis, JitError, Node, Trace
from loopopt.names import c_name_problem

__all__ = ["lower", "DF_TYPES"]

DF_TYPES: dict[np.dtype[Any], Attribute] = {
    np.dtype(np.float32): f32, np.dtype(np.float64): f64, np.dtype(np.int32): i32,
    np.dtype(np.int64): i64, np.dtype(np.bool_): i1,
    np.dtype(np.int8): i8, np.dtype(np.int16): i16,
    # unsigned: the signless integer of the width; the ops say unsigned (_UBIN, _BCMP, emit_cast)
    np.dtype(np.uint8): i8, np.dtype(np.uint16): i16, np.dtype(np.uint32): i32, np.dtype(np.uint64): i64,
    # storage floats: the trace computes on them in f32 (`trace._elementwise`), casts are extf / truncf
    **dict(zip(NARROW_FLOATS, (f16, bf16), strict=False)),
}

_FBIN = {"add": arith.AddfOp, "sub": arith.SubfOp, "mul": arith.MulfOp, "div": arith.DivfOp,
         "min": arith.MinimumfOp, "max": arith.MaximumfOp, "pow": math.PowFOp}
_IBIN = {"add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp, "floordiv": arith.FloorDivSIOp,
         "min": arith.MinSIOp, "max": arith.MaxSIOp, "and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp,
         "shl": arith.ShLIOp, "shr": arith.ShRSIOp}
_UBIN = {**_IBIN, "floordiv": arith.DivUIOp, "mod": arith.RemUIOp, "min": arith.MinUIOp, "max": arith.MaxUIOp,
         "shr": arith.ShRUIOp}
"""numpy's unsigned `//` and `%` truncate and give 0 for a zero divisor: divui / remui."""
_BBIN = {"and": arith.AndIOp, "or": arith.OrIOp, "xor": arith.XOrIOp, "min": arith.AndIOp, "max": arith.OrIOp}
_FCMP = {"lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge", "eq": "oeq", "ne": "une"}
_ICMP = {"lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge", "eq": "eq", "ne": "ne"}
_BCMP = {"lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge", "eq": "eq", "ne": "ne"}  # i1 true is -1 signed; unsigned ints
_FUN = {"sqrt": math.SqrtOp, "exp": math.ExpOp, "log": math.LogOp, "sin": math.SinOp, "cos": math.CosOp,
        "tanh": math.TanhOp, "floor": math.FloorOp, "ceil": math.CeilOp, "log2": math.Log2Op,
        "log10": math.Log10Op, "exp2": math.Exp2Op, "expm1": math.ExpM1Op, "log1p": math.Log1pOp,
        "tan": math.TanOp, "arctan": math.AtanOp, "trunc": math.TruncOp, "rint": math.RoundEvenOp}


def _located(node: Node, message: str) -> JitError:
    return JitError(message, None, node.where)


class _Lowering:
    def __init__(self, trace: Trace, name: str):
        self.trace = trace
        self.k = KernelBuilder(name)
        self.arrays: dict[int, Array] = {}
        """Materialized array per node id (kernel level)."""
        self.scalars: dict[int, Scalar] = {}
        """Kernel-level scalar per node id."""
        self.axis_names: dict[int, str] = {}
        self.filters: dict[int, dict[int, Array]] = {}
        """Per mask node id: the filtered array of each filtered node id."""
        self.filtered_by: dict[int, list[Node]] = {}

    # -- names -------------------------------------------------------------------------

    def axis_name(self, axis: Axis) -> str:
        root = axis.root()
        name = self.axis_names.get(id(root))
        if name is None:
            prefix = "k" if root.mask is not None else "i"
            count = sum(1 for n in self.axis_names.values() if n.startswith(prefix))
            name = prefix if count == 0 else f"{prefix}{count}"
            self.axis_names[id(root)] = name
        return name

    # -- elementwise bodies ------------------------------------------------------------

    @staticmethod
    def _walk(node: Node, stop: Any) -> list[Node]:
        """Nodes of node's expression in post-order (operands first), not entering nodes
        `stop` accepts (they are listed); iterative: expressions may be thousands deep."""
        order: list[Node] = []
        seen: set[int] = set()
        stack: list[tuple[Node, bool]] = [(node, False)]
        while stack:
            n, expanded = stack.pop()
            if expanded:
                order.append(n)
                continue
            if id(n) in seen:
                continue
            seen.add(id(n))
            stack.append((n, True))
            if not stop(n):
                stack.extend((a, False) for a in reversed(n.args))
        return order

    @staticmethod
    def _is_boundary(n: Node) -> bool:
        """Where an elementwise expression ends: materialized arrays and kernel-level scalars."""
        return n.op not in ELEMENTWISE

    def leaves(self, node: Node, out: dict[int, Node], seen: set[int]) -> None:
        """The array leaves of an elementwise expression (args, filters, scans)."""
        for n in self._walk(node, self._is_boundary):
            if n.is_array and self._is_boundary(n):
                out.setdefault(id(n), n)

    def prepare_scalars(self, node: Node, seen: set[int]) -> None:
        """Lower (at kernel level) every non-elementwise scalar an expression uses."""
        for n in self._walk(node, self._is_boundary):
            if not n.is_array and self._is_boundary(n):
                self.scalar(n)

    def emit(self, node: Node, env: dict[int, Any]) -> Scalar:
        """Build `node`'s value as scalar ops at the builder's insertion point; `env` holds
        the values of leaves (block arguments) and of captured scalars."""
        got = env.get(id(node))
        if got is not None:
            return got
        for n in self._walk(node, lambda n: id(n) in env or self._is_boundary(n)):
            if id(n) not in env:
                env[id(n)] = self.emit_one(n, env)
        return env[id(node)]

    def emit_one(self, node: Node, env: dict[int, Any]) -> Scalar:
        """One node, its operands already in env."""
        k = self.k
        t = DF_TYPES[node.dtype]
        if node.op == "const" and node.dtype in NARROW_FLOATS:  # an f32 constant (exact: already rounded)
            r = k.cast(k.constant(node.attr, f32), t)
        elif node.op == "const":
            v = node.attr
            r = k.constant((-1 if v else 0) if t == i1 else v, t)  # i1 true is -1 (signless)
        elif node.op == "arg" or node.op in ("reduce",):
            r = self.scalar(node)
        elif node.op == "cast":
            r = self.emit_cast(env[id(node.args[0])], node.args[0].dtype, node.dtype)
        elif node.op == "bin":
            a, b = (env[id(x)] for x in node.args)
            r = self.emit_binary(node, a, b)
        elif node.op == "cmp":
            a, b = (env[id(x)] for x in node.args)
            src = node.args[0].dtype
            if src.kind == "f":
                op: Operation = arith.CmpfOp(a.value, b.value, _FCMP[node.attr])
            else:
                op = arith.CmpiOp(a.value, b.value, (_BCMP if src.kind in "bu" else _ICMP)[node.attr])
            r = Scalar(k, k.insert(op).results[0])
        elif node.op == "un":
            r = self.emit_unary(node, env[id(node.args[0])])
        elif node.op == "where":
            c, a, b = (env[id(x)] for x in node.args)
            r = Scalar(k, k.insert(arith.SelectOp(c.value, a.value, b.value)).results[0])
        else:
            raise _located(node, f"internal: cannot emit {node.op} in a body")
        return r

    def emit_binary(self, node: Node, a: Scalar, b: Scalar) -> Scalar:
        k, kind, dt = self.k, node.attr, node.dtype
        if dt.kind == "f":
            table = _FBIN
        elif dt.kind == "b":
            table = _BBIN
        else:
            table = _UBIN if dt.kind == "u" else _IBIN
        if kind == "mod" and dt.kind == "i":
            # numpy: a - floor(a / b) * b, and 0 where b == 0
            q = k.insert(arith.FloorDivSIOp(a.value, b.value)).results[0]
            p = k.insert(arith.MuliOp(q, b.value)).results[0]
            m = k.insert(arith.SubiOp(a.value, p)).results[0]
            zero = k.constant(0, a.type).value
            is0 = k.insert(arith.CmpiOp(b.value, zero, "eq")).results[0]
            return Scalar(k, k.insert(arith.SelectOp(is0, zero, m)).results[0])
        op_type = table.get(kind)
        if op_type is None:
            raise _located(node, f"'{kind}' is not supported on {dt}")
        return Scalar(k, k.insert(op_type(a.value, b.value)).results[0])

    def emit_unary(self, node: Node, a: Scalar) -> Scalar:
        k, kind, dt = self.k, node.attr, node.dtype
        if kind == "neg":
            if dt.kind == "f":
                return Scalar(k, k.insert(arith.NegfOp(a.value)).results[0])
            zero = k.constant(0, a.type).value
            return Scalar(k, k.insert(arith.SubiOp(zero, a.value)).results[0])
        if kind == "abs" and dt.kind == "u":
            return a
        if kind == "abs":
            op = math.AbsFOp(a.value) if dt.kind == "f" else math.AbsIOp(a.value)
            return Scalar(k, k.insert(op).results[0])
        if kind == "invert":
            ones = k.constant(-1, a.type).value
            return Scalar(k, k.insert(arith.XOrIOp(a.value, ones)).results[0])
        op_type = _FUN.get(kind)
        if op_type is None:
            raise _located(node, f"np.{kind} is not supported")
        return Scalar(k, k.insert(op_type(a.value)).results[0])

    def emit_cast(self, a: Scalar, src: np.dtype[Any], dst: np.dtype[Any]) -> Scalar:
        k = self.k
        t = DF_TYPES[dst]
        if src == dst:
            return a
        if src.kind in "bu" and dst.kind == "f":  # numpy's True is 1; unsigned values
            return Scalar(k, k.insert(arith.UIToFPOp(a.value, t)).results[0])
        if isinstance(t, IntegerType) and (src.kind == "b" or src.kind == "u" and t.width.data > src.itemsize * 8):
            # zero-extend (a bool is i1 whatever its numpy itemsize: True -> 1, also into i8)
            return Scalar(k, k.insert(arith.ExtUIOp(a.value, t)).results[0])
        if src.kind == "f" and dst.kind == "u":  # saturating (numpy's cast is undefined out of range)
            return Scalar(k, k.insert(arith.FPToUIOp(a.value, t)).results[0])
        return k.cast(a, t)

    # -- kernel-level values -----------------------------------------------------------

    def scalar(self, node: Node) -> Scalar:
        got = self.scalars.get(id(node))
        if got is not None:
            return got
        k = self.k
        if node.op == "arg":
            r = self.arg_handles[node.attr]
        elif node.op == "reduce":
            (x,) = node.args
            arr = self.array(x)
            kind = node.attr
            reassoc = node.dtype.kind == "f" and kind in ("add", "mul")
            if node.dtype.kind == "u" and kind in ("min", "max"):
                kind = "u" + kind  # the unsigned order: df.reduce umin / umax
            r = k.reduce(kind, arr, reassoc=reassoc)
        else:  # elementwise on scalars, at kernel level
            self.prepare_scalars(node, set())
            r = self.emit(node, {})
        self.scalars[id(node)] = r
        return r

    def array(self, node: Node) -> Array:
        got = self.arrays.get(id(node))
        if got is not None:
            return got
        k = self.k
        if node.op == "arg":
            r = self.arg_handles[node.attr]
        elif node.op == "filter":
            r = self.filter(node)
        elif node.op == "scan":
            arr = self.array(node.args[0])
            r = k.scan(node.attr, arr)
        elif node.op == "gather":  # x[idx], the index already wrapped (trace.gather_index)
            r = k.gather(self.array(node.args[0]), self.array(node.args[1]))
        else:
            leaves: dict[int, Node] = {}
            self.leaves(node, leaves, set())
            self.prepare_scalars(node, set())
            inputs = [self.array(n) for n in leaves.values()]

            def body(*elems: Scalar) -> Scalar:
                env: dict[int, Any] = dict(self.scalars)
                env.update({i: e for i, e in zip(leaves, elems, strict=True)})
                return self.emit(node, env)

            r = k.map(body, *inputs)
        self.arrays[id(node)] = r
        return r

    def filter(self, node: Node) -> Array:
        """All arrays filtered by node's mask, in one df.filter (built at the first use)."""
        mask = node.args[0]
        done = self.filters.get(id(mask))
        if done is None:
            values = self.filtered_by[id(mask)]
            leaves: dict[int, Node] = {}
            self.leaves(mask, leaves, set())
            self.prepare_scalars(mask, set())
            sources: dict[int, Node] = {}
            for v in values:
                sources.setdefault(id(v.args[1]), v.args[1])
            for i, n in leaves.items():
                sources.setdefault(i, n)
            arrays = [self.array(n) for n in sources.values()]
            position = {i: j for j, i in enumerate(sources)}

            def pred(*elems: Scalar) -> Scalar:
                env: dict[int, Any] = dict(self.scalars)
                env.update({i: elems[position[i]] for i in leaves})
                return self.emit(mask, env)

            axis = self.axis_name(node.axis)  # type: ignore[arg-type]
            results = self.k.filter(pred, *arrays, axis=axis)
            if not isinstance(results, tuple):
                results = (results,)
            done = {id(v): results[position[id(v.args[1])]] for v in values}
            self.filters[id(mask)] = done
        return done[id(node)]

    # -- entry -------------------------------------------------------------------------

    def collect_filters(self, roots: list[Node]) -> None:
        seen: set[int] = set()
        stack = list(roots)
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if n.op == "filter":
                self.filtered_by.setdefault(id(n.args[0]), []).append(n)
            stack.extend(n.args)

    def run(self, outputs: list[Node]) -> KernelBuilder:
        k = self.k
        self.arg_handles: list[Any] = []
        used: set[str] = set()
        for j, node in enumerate(self.trace.args):
            name = self.trace.arg_names[j]
            if c_name_problem(name) or name in used or name.startswith(("i", "k")) and name[1:].isdigit():
                name = f"arg{j}"
            used.add(name)
            t = DF_TYPES[node.dtype]
            if node.is_array:
                self.arg_handles.append(k.array_arg(name, t, axes=[self.axis_name(node.axis)]))
            else:
                self.arg_handles.append(k.scalar_arg(name, t))
        self.collect_filters(outputs)
        values = []
        for n in outputs:
            if n.is_array:
                if n.op == "arg":  # a returned input: copy it (an identity map)
                    v: Any = k.map(lambda e: e, self.array(n))
                else:
                    v = self.array(n)
            else:
                v = self.scalar(n)
            values.append(v)
        return k.returns(*values)


def lower(trace: Trace, outputs: list[Node], name: str) -> Any:
    """A verified module holding kernel `name` computing `outputs` from the trace's args."""
    return _Lowering(trace, name).run(outputs).module()
