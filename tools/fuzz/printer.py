"""Print a fuzzer `Kernel` as df MLIR text (the syntax of test/corpus/df)."""

from __future__ import annotations

import math
import struct

from .program import (
    FLOATS,
    STORAGE,
    WIDTH,
    Arg,
    Const,
    Expr,
    Filter,
    Fold,
    Gather,
    Input,
    Kernel,
    Map,
    Op,
    Param,
    Project,
    Range,
    Reduce,
    Scalar,
    Scan,
    Select,
    ValueType,
    node_types,
)

FLOAT_OPS = {
    "add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf", "div": "arith.divf",
    "min": "arith.minimumf", "max": "arith.maximumf", "copysign": "math.copysign",
    "neg": "arith.negf", "abs": "math.absf", "sqrt": "math.sqrt", "floor": "math.floor",
    "ceil": "math.ceil", "trunc": "math.trunc",
}  # fmt: skip
INT_OPS = {
    "add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli", "div": "arith.divsi",
    "rem": "arith.remsi", "min": "arith.minsi", "max": "arith.maxsi", "and": "arith.andi",
    "or": "arith.ori", "xor": "arith.xori", "shl": "arith.shli", "shr": "arith.shrsi", "abs": "math.absi",
    "udiv": "arith.divui", "urem": "arith.remui", "umin": "arith.minui", "umax": "arith.maxui", "ushr": "arith.shrui",
}  # fmt: skip


def const_text(c: Const) -> str:
    if c.dtype in FLOATS:
        v = float(c.value)
        if math.isfinite(v) and not (v == 0 and math.copysign(1, v) < 0):
            text = repr(v)
            if "e" in text and "." not in text.split("e")[0]:
                text = text.replace("e", ".0e")
            return f"{text} : {c.dtype}"
        if c.dtype == "f32":
            return f"0x{struct.unpack('<I', struct.pack('<f', v))[0]:08X} : f32"
        return f"0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016X} : f64"
    if c.dtype == "i1":
        return "true" if c.value else "false"
    return f"{int(c.value)} : {c.dtype}"


def type_text(t: ValueType) -> str:
    if t.axes is None:
        return t.dtype
    elem = record_text(t) if t.fields else t.dtype
    return f"!df.array<{elem}, [{', '.join(t.axes)}]>"


def record_text(t: ValueType) -> str:
    return "!df.record<" + ", ".join(f"{f}: {t.dtype}" for f in t.fields) + ">"


class _Body:
    """Prints one region body: expressions to SSA lines with fresh names."""

    def __init__(self, printer: KernelPrinter, args: list[str], arg_types: list[str], indent: str):
        self.p = printer
        self.args = args
        self.arg_types = arg_types
        self.indent = indent
        self.lines: list[str] = []
        self.memo: dict[int, str] = {}

    def fresh(self) -> str:
        return self.p.fresh()

    def emit(self, e: Expr) -> str:
        key = id(e)
        if key in self.memo:
            return self.memo[key]
        name = self._emit(e)
        self.memo[key] = name
        return name

    def _emit(self, e: Expr) -> str:
        ind = self.indent
        if isinstance(e, Arg):
            return self.args[e.index]
        if isinstance(e, Scalar):
            return self.p.name_of(e.ref)
        if isinstance(e, Const):
            n = self.fresh()
            self.lines.append(f"{ind}{n} = arith.constant {const_text(e)}")
            return n
        assert isinstance(e, Op)
        xs = [self.emit(a) for a in e.args]
        n = self.fresh()
        if e.name.startswith("field:"):
            field = e.name.split(":", 1)[1]
            self.lines.append(f'{ind}{n} = df.field {xs[0]}["{field}"] : {self.arg_types[e.args[0].index]} -> {e.dtype}')  # type: ignore[union-attr]
        elif e.name.startswith("cmp:"):
            pred = e.name.split(":", 1)[1]
            src = e.args[0].dtype
            op = "arith.cmpf" if src in FLOATS else "arith.cmpi"
            self.lines.append(f"{ind}{n} = {op} {pred}, {xs[0]}, {xs[1]} : {src}")
        elif e.name == "select":
            self.lines.append(f"{ind}{n} = arith.select {xs[0]}, {xs[1]}, {xs[2]} : {e.dtype}")
        elif e.name in ("cast", "ucast"):
            op = cast_op(e.args[0].dtype, e.dtype, e.name == "ucast")
            self.lines.append(f"{ind}{n} = {op} {xs[0]} : {e.args[0].dtype} to {e.dtype}")
        else:
            table = FLOAT_OPS if e.dtype in FLOATS else INT_OPS
            self.lines.append(f"{ind}{n} = {table[e.name]} {', '.join(xs)} : {e.dtype}")
        return n


def cast_op(src: str, dst: str, unsigned: bool = False) -> str:
    """The arith conversion from src to dst (`unsigned`: uitofp / fptoui / extui)."""
    if src == "i1":
        return "arith.extui"
    fl = (*FLOATS, *STORAGE)
    if src in fl and dst in fl:
        return "arith.extf" if WIDTH[dst] > WIDTH[src] else "arith.truncf"
    if src in fl:
        return "arith.fptoui" if unsigned else "arith.fptosi"
    if dst in fl:
        return "arith.uitofp" if unsigned else "arith.sitofp"
    if WIDTH[dst] > WIDTH[src]:
        return "arith.extui" if unsigned else "arith.extsi"
    return "arith.trunci"


class KernelPrinter:
    def __init__(self, kernel: Kernel):
        self.k = kernel
        self.types = node_types(kernel)
        self.counter = 0
        self.lines: list[str] = []
        self.arg_nodes = [i for i, n in enumerate(kernel.nodes) if isinstance(n, (Input, Param))]

    def fresh(self) -> str:
        self.counter += 1
        return f"%t{self.counter}"

    def name_of(self, index: int) -> str:
        node = self.k.nodes[index]
        if isinstance(node, Project):
            return f"%v{node.src}#{node.index}"
        if len(self.types[index]) > 1:
            return f"%v{index}#0"
        return f"%v{index}"

    def t(self, index: int) -> str:
        return type_text(self.types[index][0])

    def region(self, head: str, arg_types: list[str], body: list[Expr], yield_types: list[str]) -> None:
        args = [self.fresh().replace("%t", "%a") for _ in arg_types]
        b = _Body(self, args, arg_types, "    ")
        outs = [b.emit(e) for e in body]
        self.lines.append(f"  {head} {{")
        self.lines.append(f"  ^bb0({', '.join(f'{a}: {t}' for a, t in zip(args, arg_types))}):")
        self.lines += b.lines
        self.lines.append(f"    df.yield {', '.join(outs)} : {', '.join(yield_types)}")
        self.lines.append("  }")

    def elem_type(self, index: int) -> str:
        t = self.types[index][0]
        return record_text(t) if t.fields else t.dtype

    def const(self, c: Const) -> str:
        n = self.fresh()
        self.lines.append(f"  {n} = arith.constant {const_text(c)}")
        return n

    def print(self) -> str:
        k = self.k
        params = ", ".join(f"{self.name_of(i)}: {self.t(i)}" for i in self.arg_nodes)
        results = ", ".join(self.t(r) for r in k.results)
        for i, node in enumerate(k.nodes):
            self.node(i, node)
        out = [f"func.func @{k.name}({params}) -> ({results}) {{"]
        out += self.lines
        ret = ", ".join(self.name_of(r) for r in k.results)
        out.append(f"  func.return {ret} : {results}")
        out.append("}")
        return "\n".join(out) + "\n"

    def node(self, i: int, node) -> None:
        name = f"%v{i}"
        nres = len(self.types[i])
        lhs = f"{name}:{nres}" if nres > 1 else name
        match node:
            case Input() | Param() | Project():
                return
            case Range(start=s, end=e, step=st):
                self.lines.append(f"  {name} = df.range {self.name_of(s)}, {self.name_of(e)}, {self.name_of(st)} : {self.t(i)}")
            case Map(srcs=srcs, expr=e):
                ins = ", ".join(self.name_of(s) for s in srcs)
                sig = f"{', '.join(self.t(s) for s in srcs)} -> {self.t(i)}"
                self.region(f"{lhs} = df.map {ins} : {sig}", [self.elem_type(s) for s in srcs], [e], [e.dtype])
            case Select(cond=c, a=a, b=b, scalar_cond=sc):
                ct = "i1" if sc else self.t(c)
                self.lines.append(f"  {name} = df.select {self.name_of(c)}, {self.name_of(a)}, {self.name_of(b)} : {ct}, {self.t(a)}")
            case Gather(src=s, idx=ix):
                self.lines.append(f"  {name} = df.gather {self.name_of(s)}[{self.name_of(ix)}] : {self.t(s)}, {self.t(ix)} -> {self.t(i)}")
            case Filter(srcs=srcs, pred=p):
                ins = ", ".join(self.name_of(s) for s in srcs)
                outs = ", ".join(type_text(t) for t in self.types[i])
                sig = f"{', '.join(self.t(s) for s in srcs)} -> {outs}"
                self.region(f"{lhs} = df.filter {ins} : {sig}", [self.elem_type(s) for s in srcs], [p], ["i1"])
            case Reduce(kind=kind, src=s, init=init, reassoc=ra, over=over, body=body):
                c = self.const(init)
                axes = over or self.types[s][0].axes
                head = (
                    f"{name} = df.reduce {kind}({self.name_of(s)}, {c}) over [{', '.join(axes)}]"
                    f"{' reassoc' if ra else ''} : {self.t(s)} -> {self.t(i)}"
                )
                if body is None:
                    self.lines.append(f"  {head}")
                else:
                    self.region(head, [init.dtype, init.dtype], [body], [init.dtype])
            case Scan(kind=kind, src=s, init=init, body=body):
                c = self.const(init)
                head = f"{name} = df.scan {kind}({self.name_of(s)}, {c}) : {self.t(s)} -> {self.t(i)}"
                if body is None:
                    self.lines.append(f"  {head}")
                else:
                    self.region(head, [init.dtype, init.dtype], [body], [init.dtype])
            case Fold(srcs=srcs, inits=inits, bodies=bodies):
                cs = [self.const(c) for c in inits]
                ins = ", ".join(self.name_of(s) for s in srcs)
                dts = [c.dtype for c in inits]
                head = (
                    f"{lhs} = df.fold({ins}) init({', '.join(cs)}) : {', '.join(self.t(s) for s in srcs)}"
                    f" -> {', '.join(dts)}"
                )
                self.region(head, dts + [self.elem_type(s) for s in srcs], list(bodies), dts)
            case _:
                raise TypeError(node)


def print_kernel(kernel: Kernel) -> str:
    return KernelPrinter(kernel).print()


def print_module(kernels: list[Kernel]) -> str:
    return "\n".join(print_kernel(k) for k in kernels)
