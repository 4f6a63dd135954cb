"""The fuzzer's program model: a small AST of df kernels, printed as df MLIR and evaluated by numpy.

A `Kernel` is a list of `Node`s in definition order (each refers to earlier nodes by index) and
the indices of the nodes it returns. Lane-wise bodies (map, filter predicate, custom
reduce/scan/fold steps) are `Expr` trees over the region's block arguments (`Arg`), the
kernel's scalar parameters and earlier scalar nodes (`Scalar`), and constants (`Const`).

Everything is immutable (frozen dataclasses with tuples) so the minimizer can rebuild kernels
by replacing parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FLOATS = ("f32", "f64")
INTS = ("i32", "i64")
DTYPES = FLOATS + INTS
NARROW = ("i8", "i16")
"""Narrow integers: element types of inputs, maps and reductions next to 16/32-bit lanes."""
ALL_INTS = NARROW + INTS
STORAGE = ("bf16", "f16")
"""Storage-only floats: loaded, converted to f32/f64 (arith.extf) and stored (arith.truncf)."""
WIDTH = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "f32": 32, "f64": 64, "bf16": 16, "f16": 16}

# --------------------------------------------------------------------------- lane-wise expressions


@dataclass(frozen=True)
class Arg:
    """Block argument `index` of the enclosing region (its dtype, or a record's field names)."""

    index: int
    dtype: str


@dataclass(frozen=True)
class Scalar:
    """A kernel scalar captured by the region: node `ref` (a Param, a scalar Reduce, a Fold result)."""

    ref: int
    dtype: str


@dataclass(frozen=True)
class Const:
    value: float | int
    dtype: str


@dataclass(frozen=True)
class Op:
    """`name` is one of BINARY, UNARY, `cmp:<pred>`, `select`, `cast` (signed: sitofp, fptosi,
    extsi, trunci, extf, truncf), `ucast` (unsigned: uitofp, fptoui, extui), `field:<name>`."""

    name: str
    args: tuple[Expr, ...]
    dtype: str


Expr = Arg | Scalar | Const | Op

FLOAT_BINARY = ("add", "sub", "mul", "div", "min", "max", "copysign")
INT_BINARY = ("add", "sub", "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr")
UINT_BINARY = ("udiv", "urem", "umin", "umax", "ushr")
"""Unsigned integer ops (divui remui minui maxui shrui): generated on every integer width."""
FLOAT_UNARY = ("neg", "abs", "sqrt", "floor", "ceil", "trunc")
INT_UNARY = ("abs",)
FLOAT_PREDS = ("oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une", "ult", "ule", "ugt", "uge", "ord", "uno")
INT_PREDS = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def walk_expr(e: Expr):
    yield e
    if isinstance(e, Op):
        for a in e.args:
            yield from walk_expr(a)


# --------------------------------------------------------------------------- kernel nodes


@dataclass(frozen=True)
class Input:
    """A kernel array argument: rank 1 on [i], rank 2 on [i, j], or an array of records."""

    dtype: str
    rank: int = 1
    fields: tuple[str, ...] = ()
    """Non-empty for an array of records (every field has `dtype`)."""
    cols: int = 0
    """Rank 2: the extent of the axis that is not n (rows=n when `rows_n`)."""
    rows_n: bool = True
    axis: str = "i"
    """Rank 1: "j" for a gather's source (axis j has its own length, inputs.make_args)."""
    index: bool = False
    """A gather's index array: values around axis j's bounds (negative, inside, past the end)."""


@dataclass(frozen=True)
class Param:
    """A scalar kernel argument; its value is chosen with the inputs (`role` fixes it for ranges)."""

    dtype: str
    role: str = "free"
    """free | start | step | end (range bounds with exactly n elements) | rstart | rend | rstep (free ranges)."""


@dataclass(frozen=True)
class Range:
    """df.range start, end, step (Param nodes) over i64: `zipped` ranges have exactly n elements (axis i)."""

    start: int
    end: int
    step: int
    zipped: bool


@dataclass(frozen=True)
class Map:
    srcs: tuple[int, ...]
    expr: Expr
    """Arg k is element k of srcs[k] (records: Op field:<name> of the Arg)."""


@dataclass(frozen=True)
class Select:
    cond: int
    a: int
    b: int
    scalar_cond: bool = False
    """True: `cond` is a scalar i1 node (df.select with one condition) instead of an i1 array."""


@dataclass(frozen=True)
class Filter:
    srcs: tuple[int, ...]
    pred: Expr
    axis: str


@dataclass(frozen=True)
class Gather:
    """df.gather src[idx]: `src` an array on axis `j` (its own length), `idx` an integer
    array on any other axis; an index out of bounds gives 0."""

    src: int
    idx: int


@dataclass(frozen=True)
class Project:
    """Result `index` of a multi-result node (a filter of several arrays, a fold)."""

    src: int
    index: int


@dataclass(frozen=True)
class Reduce:
    kind: str
    """add | mul | min | max | umin | umax | and | or | custom"""
    src: int
    init: Const
    reassoc: bool = False
    over: tuple[str, ...] = ()
    """Empty: every axis of src (a scalar). Rank 2: ("j",) or ("i",) gives an array."""
    body: Expr | None = None
    """custom: Arg 0 = accumulator, Arg 1 = element."""


@dataclass(frozen=True)
class Scan:
    kind: str
    src: int
    init: Const
    body: Expr | None = None


@dataclass(frozen=True)
class Fold:
    srcs: tuple[int, ...]
    inits: tuple[Const, ...]
    bodies: tuple[Expr, ...]
    """Args 0..m-1 are the accumulators, m.. the elements of srcs."""


Node = Input | Param | Range | Map | Select | Filter | Gather | Project | Reduce | Scan | Fold


@dataclass(frozen=True)
class Kernel:
    name: str
    nodes: tuple[Node, ...]
    results: tuple[int, ...]
    tags: frozenset[str] = field(default_factory=frozenset)
    """Constructs used (for statistics and exclusion switches)."""


# --------------------------------------------------------------------------- types of nodes


@dataclass(frozen=True)
class ValueType:
    """The df type of a node's value: an array (dtype, axes, fields) or a scalar (axes=None)."""

    dtype: str
    axes: tuple[str, ...] | None
    fields: tuple[str, ...] = ()

    @property
    def is_array(self) -> bool:
        return self.axes is not None


def node_types(kernel: Kernel) -> list[list[ValueType]]:
    """Result types of every node (a list: folds and multi-array filters have several)."""
    types: list[list[ValueType]] = []
    for node in kernel.nodes:
        types.append(_types_of(node, types))
    return types


def _types_of(node: Node, types: list[list[ValueType]]) -> list[ValueType]:
    match node:
        case Input(dtype=dt, rank=rank, fields=fields, axis=axis):
            return [ValueType(dt, ("i", "j")[:rank] if rank == 2 else (axis,), fields)]
        case Param(dtype=dt):
            return [ValueType(dt, None)]
        case Range():
            return [ValueType("i64", ("i",) if node.zipped else ("r",))]
        case Map(srcs=srcs, expr=e):
            return [ValueType(e.dtype, types[srcs[0]][0].axes)]
        case Select(a=a):
            return [types[a][0]]
        case Gather(src=s, idx=ix):
            return [ValueType(types[s][0].dtype, types[ix][0].axes)]
        case Filter(srcs=srcs, axis=axis):
            return [ValueType(types[s][0].dtype, (axis,)) for s in srcs]
        case Project(src=s, index=k):
            return [types[s][k]]
        case Reduce(src=s, init=init, over=over):
            axes = types[s][0].axes or ()
            rest = tuple(a for a in axes if a not in over) if over else ()
            return [ValueType(init.dtype, rest if rest else None)]
        case Scan(src=s, init=init):
            return [ValueType(init.dtype, types[s][0].axes)]
        case Fold(inits=inits):
            return [ValueType(c.dtype, None) for c in inits]
    raise TypeError(node)


def value_type(kernel: Kernel, types: list[list[ValueType]], index: int) -> ValueType:
    return types[index][0]


# --------------------------------------------------------------------------- rewriting (minimizer)


def map_expr_refs(e: Expr, f) -> Expr:
    """`e` with every Scalar's node index mapped through f."""
    if isinstance(e, Scalar):
        return Scalar(f(e.ref), e.dtype)
    if isinstance(e, Op):
        return Op(e.name, tuple(map_expr_refs(a, f) for a in e.args), e.dtype)
    return e


def map_refs(node: Node, f) -> Node:
    """`node` with every reference to another node mapped through f."""
    from dataclasses import replace

    mx = lambda e: None if e is None else map_expr_refs(e, f)  # noqa: E731
    match node:
        case Range(start=s, end=e, step=st):
            return replace(node, start=f(s), end=f(e), step=f(st))
        case Map(srcs=srcs, expr=e):
            return Map(tuple(f(s) for s in srcs), mx(e))
        case Select(cond=c, a=a, b=b):
            return replace(node, cond=f(c), a=f(a), b=f(b))
        case Filter(srcs=srcs, pred=p):
            return replace(node, srcs=tuple(f(s) for s in srcs), pred=mx(p))
        case Project(src=s):
            return replace(node, src=f(s))
        case Gather(src=s, idx=ix):
            return replace(node, src=f(s), idx=f(ix))
        case Reduce(src=s, body=b):
            return replace(node, src=f(s), body=mx(b))
        case Scan(src=s, body=b):
            return replace(node, src=f(s), body=mx(b))
        case Fold(srcs=srcs, bodies=bs):
            return replace(node, srcs=tuple(f(s) for s in srcs), bodies=tuple(mx(b) for b in bs))
    return node


def node_refs(node: Node) -> set[int]:
    found: set[int] = set()

    def note(k: int) -> int:
        found.add(k)
        return k

    map_refs(node, note)
    return found


def compact(kernel: Kernel) -> Kernel:
    """Drop the nodes no result needs (arguments too) and renumber."""
    live: set[int] = set()
    todo = list(kernel.results)
    while todo:
        k = todo.pop()
        if k in live:
            continue
        live.add(k)
        todo.extend(node_refs(kernel.nodes[k]))
    # a multi-result node's Projects need the node; a Range needs its params (node_refs has them)
    order = sorted(live)
    new_index = {old: new for new, old in enumerate(order)}
    nodes = tuple(map_refs(kernel.nodes[o], lambda k: new_index[k]) for o in order)
    return Kernel(kernel.name, nodes, tuple(new_index[r] for r in kernel.results), kernel.tags)
