"""Random df kernels: chains and DAGs of map/zip/filter/select/reduce/fold/scan over 1-3 inputs.

`Generator(seed, options).kernel(name)` draws one `Kernel`. Every construct can be switched
off with `GenOptions.exclude` (the names in `CONSTRUCTS`), which is how a known open bug class
is kept out of a CI slice (docs/fuzzing.md lists what is excluded by default and why).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from .program import (
    WIDTH,
    ALL_INTS,
    DTYPES,
    NARROW,
    STORAGE,
    UINT_BINARY,
    FLOAT_BINARY,
    FLOAT_PREDS,
    FLOAT_UNARY,
    FLOATS,
    INT_BINARY,
    INT_PREDS,
    INT_UNARY,
    INTS,
    Arg,
    Const,
    Expr,
    Filter,
    Fold,
    Gather,
    Input,
    Kernel,
    Map,
    Node,
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
    walk_expr,
)

CONSTRUCTS = (
    # kernel shapes and nodes
    "map", "zip", "filter", "select", "reduce", "reassoc", "fold", "scan", "custom",
    "range", "free_range", "records", "rank2", "params", "captured_reduce",
    # lane-wise operations
    "div", "rem", "shift", "cast", "fptosi", "sqrt", "rounding", "copysign", "minmax", "bitwise",
    # session 20 constructs: i8/i16 data, unsigned ops and kinds, bf16 storage, gathers,
    # folds whose body is a reduction kind (acc op x, also on i1)
    "narrow", "unsigned", "bf16", "gather", "kind_fold", "bool_fold",
    # session 25: f16 storage (as bf16: IEEE half, F16C / AVX-512 / NEON conversions, SSE2 scalar)
    "f16",
    # session 25: a rank-2 map returned, row reductions feeding rank-1 steps on [i]; a second
    # input of another lane width (i8/i16/32-bit next to 64-bit lanes: part vectors)
    "rank2_rows", "mixed_widths",
    # values
    "special_consts",
    # known open bug classes (excluded by default, docs/fuzzing.md)
    "fold_passthrough",
)  # fmt: skip
"""Everything `GenOptions.exclude` can name."""


DEFAULT_EXCLUDE: frozenset[str] = frozenset()
"""Known open bug classes left out unless asked for (docs/fuzzing.md, "excluded until fixed")."""


@dataclass
class GenOptions:
    dtypes: tuple[str, ...] = DTYPES + NARROW
    exclude: frozenset[str] = DEFAULT_EXCLUDE
    max_depth: int = 3
    max_steps: int = 4

    def allows(self, construct: str) -> bool:
        return construct not in self.exclude

    def kernel_dtypes(self) -> tuple[str, ...]:
        """The dtypes a kernel may use (i8/i16 only with `narrow`)."""
        return tuple(d for d in self.dtypes if d not in NARROW or self.allows("narrow")) or DTYPES


INT_MIN = {"i8": -(2**7), "i16": -(2**15), "i32": -(2**31), "i64": -(2**63)}
INT_MAX = {"i8": 2**7 - 1, "i16": 2**15 - 1, "i32": 2**31 - 1, "i64": 2**63 - 1}


class Generator:
    def __init__(self, seed: int, options: GenOptions | None = None):
        self.rng = random.Random(seed)
        self.opt = options or GenOptions()

    # ------------------------------------------------------------------ helpers

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def const(self, dt: str) -> Const:
        r = self.rng
        special = self.opt.allows("special_consts")
        if dt in FLOATS:
            pool = [0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, 0.1, 1e-3, 100.0]
            if special:
                pool += [-0.0, float("inf"), float("-inf"), float("nan"), 1e30, -1e-30, 1e-40]
            v = r.choice(pool) if self.chance(0.7) else r.gauss(0, 10)
            v = float(np.float32(v)) if dt == "f32" else float(v)
            return Const(v, dt)
        if dt == "i1":
            return Const(int(self.chance(0.5)), dt)
        pool = [0, 1, -1, 2, 3, 7, 31, 32, 63, 64, 100, -100]
        if dt in NARROW:
            pool += [8, 15, 16, 127, -128, 255 - 256]
        if special:
            pool += [INT_MIN[dt], INT_MAX[dt], INT_MIN[dt] + 1]
        v = r.choice(pool) if self.chance(0.7) else r.randint(-1000, 1000)
        lo = INT_MIN[dt]
        v = (v - lo) % (2 * -lo) + lo  # wrapped into the width (i8: 200 -> -56)
        return Const(v, dt)

    # ------------------------------------------------------------------ expressions

    def expr(self, dt: str, leaves: list[Expr], depth: int, tags: set[str]) -> Expr:
        """A lane-wise expression of type `dt` over `leaves` (args and captured scalars)."""
        same = [x for x in leaves if x.dtype == dt]
        if depth <= 0 or self.chance(0.25):
            if same and self.chance(0.85):
                return self.rng.choice(same)
            if not same and leaves and self.chance(0.7):
                cast = self.cast_to(dt, self.rng.choice([x for x in leaves if x.dtype != "i1"] or leaves), tags)
                if cast is not None:
                    return cast
            return self.const(dt)
        roll = self.rng.random()
        if dt == "i1":
            return self.cond(leaves, depth - 1, tags)
        if roll < 0.6:
            int_ops = INT_BINARY + (UINT_BINARY if self.opt.allows("unsigned") else ())
            ops = [o for o in (FLOAT_BINARY if dt in FLOATS else int_ops) if self.op_allowed(o, dt)]
            name = self.rng.choice(ops)
            a = self.expr(dt, leaves, depth - 1, tags)
            b = self.expr(dt, leaves, depth - 1, tags)
            tags.add(f"op:{name}")
            return Op(name, (a, b), dt)
        if roll < 0.75:
            ops = [o for o in (FLOAT_UNARY if dt in FLOATS else INT_UNARY) if self.op_allowed(o, dt)]
            name = self.rng.choice(ops)
            tags.add(f"op:{name}")
            return Op(name, (self.expr(dt, leaves, depth - 1, tags),), dt)
        if roll < 0.88 and self.opt.allows("select"):
            c = self.cond(leaves, depth - 1, tags)
            tags.add("op:select")
            return Op("select", (c, self.expr(dt, leaves, depth - 1, tags), self.expr(dt, leaves, depth - 1, tags)), dt)
        others = [x for x in leaves if x.dtype not in (dt, "i1")]
        if others and self.opt.allows("cast"):
            cast = self.cast_to(dt, self.expr(self.rng.choice(others).dtype, leaves, depth - 1, tags), tags)
            if cast is not None:
                return cast
        return self.expr(dt, leaves, depth - 1, tags)

    def op_allowed(self, name: str, dt: str) -> bool:
        group = {
            "div": "div", "rem": "rem", "shl": "shift", "shr": "shift", "sqrt": "sqrt",
            "udiv": "div", "urem": "rem", "ushr": "shift", "umin": "minmax", "umax": "minmax",
            "floor": "rounding", "ceil": "rounding", "trunc": "rounding", "copysign": "copysign",
            "min": "minmax", "max": "minmax", "and": "bitwise", "or": "bitwise", "xor": "bitwise",
        }.get(name)  # fmt: skip
        return group is None or self.opt.allows(group)

    def cast_to(self, dt: str, x: Expr, tags: set[str]) -> Expr | None:
        """x converted to dt (None when not allowed)."""
        if x.dtype == dt:
            return x
        if not self.opt.allows("cast"):
            return None
        if x.dtype == "i1":
            if dt in ALL_INTS:
                tags.add("op:cast")
                return Op("cast", (x,), dt)
            return None
        if x.dtype in FLOATS and dt in ALL_INTS and not self.opt.allows("fptosi"):
            return None
        tags.add("op:cast")
        if x.dtype in FLOATS and dt in ALL_INTS:
            tags.add("op:fptosi")
        both_float = x.dtype in FLOATS and dt in FLOATS
        if not both_float and self.opt.allows("unsigned") and self.chance(0.35) and not (x.dtype in ALL_INTS and dt in ALL_INTS and WIDTH[dt] < WIDTH[x.dtype]):
            tags.add("op:ucast")  # uitofp / fptoui / extui
            return Op("ucast", (x,), dt)
        return Op("cast", (x,), dt)

    def cond(self, leaves: list[Expr], depth: int, tags: set[str]) -> Expr:
        bools = [x for x in leaves if x.dtype == "i1"]
        if bools and self.chance(0.2):
            return self.rng.choice(bools)
        dts = sorted({x.dtype for x in leaves if x.dtype != "i1"}) or ["i32"]
        dt = self.rng.choice(dts)
        int_preds = INT_PREDS if self.opt.allows("unsigned") else tuple(p for p in INT_PREDS if p[0] != "u")
        pred = self.rng.choice(FLOAT_PREDS if dt in FLOATS else int_preds)
        tags.add("op:cmp")
        return Op(f"cmp:{pred}", (self.expr(dt, leaves, depth, tags), self.expr(dt, leaves, depth, tags)), "i1")

    # ------------------------------------------------------------------ kernels

    def kernel(self, name: str) -> Kernel:
        for _ in range(20):
            k = self._kernel(name)
            from .evaluate import fma_sites

            if len(fma_sites(k)) <= 1:
                return k
        return k

    def _kernel(self, name: str) -> Kernel:
        b = _Builder(self, name)
        dt = self.rng.choice(self.opt.kernel_dtypes())
        shape = self.rng.random()
        if shape < 0.1 and self.opt.allows("rank2") and self.opt.allows("reduce"):
            return b.rank2(dt)
        if shape < 0.15 and self.opt.allows("free_range") and self.opt.allows("reduce"):
            return b.free_range()
        return b.rank1(dt)


class _Builder:
    """Builds one kernel: a node list plus pools of arrays per axis and of captured scalars."""

    def __init__(self, g: Generator, name: str):
        self.g = g
        self.rng = g.rng
        self.name = name
        self.nodes: list[Node] = []
        self.tags: set[str] = set()
        self.scalars: list[Scalar] = []
        self.arrays: list[int] = []
        """Nodes whose value is an array (result 0 or a Project)."""
        self.filter_count = 0
        self.no_gather = False
        """Set after a rank-2 input: a gather's source axis j would clash with the matrix's j."""

    def add(self, node: Node) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def types(self) -> list[list[ValueType]]:
        return node_types(Kernel(self.name, tuple(self.nodes), ()))

    def vt(self, k: int) -> ValueType:
        return self.types()[k][0]

    def finish(self, candidates: list[int]) -> Kernel:
        if not candidates:
            raise AssertionError("kernel without results")
        count = min(len(candidates), self.rng.choice((1, 1, 2, 3)))
        tail = candidates[-count:] if self.g.chance(0.6) else self.rng.sample(candidates, count)
        results = tuple(dict.fromkeys(tail))
        return Kernel(self.name, tuple(self.nodes), results, frozenset(self.tags))

    # ------------------------------------------------------------------ shapes

    def rank1(self, dt: str) -> Kernel:
        g = self.g
        n_inputs = self.rng.choice((1, 1, 2, 2, 3))
        for k in range(n_inputs):
            if k == 0 and g.opt.allows("records") and g.chance(0.1):
                self.tags.add("records")
                self.arrays.append(self.add(Input(dt, 1, ("a", "b"))))
                continue
            other = dt
            if k > 0 and g.opt.allows("cast") and g.chance(0.2):
                other = self.rng.choice(g.opt.kernel_dtypes())
            elif k == 1 and g.opt.allows("cast") and g.opt.allows("mixed_widths") and g.chance(0.2):
                wider = [d for d in g.opt.kernel_dtypes() if WIDTH[d] == 64] if WIDTH[dt] < 64 else []
                other = self.rng.choice(wider or [d for d in g.opt.kernel_dtypes() if WIDTH[d] < 32] or [dt])
                self.tags.add("mixed_widths")
            storage = self.storage_type()
            if storage and g.opt.allows("cast") and g.chance(0.07 if len(storage) == 1 else 0.12):
                other = self.rng.choice(storage)
                self.tags.add(other)
            self.arrays.append(self.add(Input(other)))
        if g.opt.allows("params"):
            for _ in range(self.rng.choice((0, 0, 1, 2))):
                pdt = dt if g.chance(0.8) else self.rng.choice(g.opt.kernel_dtypes())
                self.scalars.append(Scalar(self.add(Param(pdt)), pdt))
        if g.opt.allows("range") and g.chance(0.12):
            self.tags.add("range")
            s, e, st = (self.add(Param("i64", role)) for role in ("start", "end", "step"))
            self.arrays.append(self.add(Range(s, e, st, zipped=True)))
        candidates: list[int] = []
        steps = self.rng.randint(1, g.opt.max_steps)
        for _ in range(steps):
            made = self.step(dt)
            if made is not None:
                candidates.append(made)
        if not candidates:
            candidates.append(self.map_step(dt, axes=("i",)))
        return self.finish(candidates)

    def step(self, dt: str) -> int | None:
        g = self.g
        kinds = [k for k in ("map", "map", "select", "filter", "reduce", "reduce", "scan", "fold", "gather", "bool_fold")
                 if g.opt.allows(k) and not (k == "gather" and self.no_gather)]  # fmt: skip
        if not kinds:
            return None
        kind = self.rng.choice(kinds)
        axes = self.pick_axes()
        if kind == "map":
            return self.map_step(dt, axes)
        if kind == "select":
            return self.select_step(dt, axes)
        if kind == "filter" and axes == ("i",):
            return self.filter_step(dt)
        if kind == "reduce":
            return self.reduce_step(axes)
        if kind == "scan":
            return self.scan_step(axes)
        if kind == "fold":
            return self.fold_step(axes)
        if kind == "gather" and axes[0] != "j":
            return self.gather_step(dt)
        if kind == "bool_fold":
            if self.g.chance(0.5) or not g.opt.allows("fold"):
                return self.bool_fold_step(axes)
            return self.fold_step(axes)
        return self.map_step(dt, axes)

    def pick_axes(self) -> tuple[str, ...]:
        types = self.types()
        axes = sorted({types[a][0].axes for a in self.arrays if types[a][0].axes and len(types[a][0].axes) == 1})
        if ("i",) in axes and (len(axes) == 1 or self.g.chance(0.6)):
            return ("i",)
        return self.rng.choice(axes)

    def sources(self, axes: tuple[str, ...], most: int, exclude_records: bool = False) -> list[int]:
        types = self.types()
        pool = [a for a in self.arrays if types[a][0].axes == axes and not (exclude_records and types[a][0].fields)]
        if not pool:
            return []
        count = self.rng.randint(1, min(most, len(pool))) if self.g.opt.allows("zip") else 1
        return self.rng.sample(pool, count)

    def leaves_for(self, srcs: list[int], first_arg: int = 0) -> list[Expr]:
        """Block arguments of a region over srcs (record fields as field ops) + captured scalars."""
        types = self.types()
        leaves: list[Expr] = []
        for k, s in enumerate(srcs):
            t = types[s][0]
            if t.fields:
                arg = Arg(first_arg + k, "record")
                leaves += [Op(f"field:{f}", (arg,), t.dtype) for f in t.fields]
            elif t.dtype in STORAGE:  # storage only: computed on as f32 (or f64)
                leaves.append(Op("cast", (Arg(first_arg + k, t.dtype),), "f32" if self.g.chance(0.8) else "f64"))
            else:
                leaves.append(Arg(first_arg + k, t.dtype))
        return leaves + list(self.scalars)

    def map_step(self, dt: str, axes: tuple[str, ...]) -> int:
        srcs = self.sources(axes, 3)
        self.tags.add("map" if len(srcs) == 1 else "zip")
        out = dt if self.g.chance(0.85) else self.rng.choice(self.g.opt.kernel_dtypes())
        storage = self.storage_type()
        if storage and self.g.opt.allows("cast") and self.g.chance(0.06 if not self.has_storage() else 0.3):
            wide = "f32" if self.g.chance(0.75) else "f64"
            e = self.g.expr(wide, self.leaves_for(srcs), self.rng.randint(1, self.g.opt.max_depth), self.tags)
            to = self.rng.choice(storage)
            self.tags.add(to)
            k = self.add(Map(tuple(srcs), Op("cast", (e,), to)))  # truncf to bf16 / f16 storage
            self.arrays.append(k)
            return k
        e = self.g.expr(out, self.leaves_for(srcs), self.rng.randint(1, self.g.opt.max_depth), self.tags)
        k = self.add(Map(tuple(srcs), e))
        self.arrays.append(k)
        return k

    def has_storage(self) -> bool:
        return any(isinstance(n, Input) and n.dtype in STORAGE for n in self.nodes)

    def storage_type(self) -> list[str]:
        """The storage-only float types this kernel may use (bf16, f16)."""
        return [t for t in STORAGE if self.g.opt.allows(t)]

    def array_dtype_ok(self, k: int, what: str) -> bool:
        """bf16/f16 arrays are storage: no built-in reduction/scan/fold of them (a located error)."""
        return self.vt(k).dtype not in (*STORAGE, "i1")

    def gather_step(self, dt: str) -> int | None:
        """x[idx]: a new source on axis j (its own length) read at a new index array on axis i
        (values around the source's bounds, inputs.make_args) or an existing integer array."""
        g = self.g
        src_dt = dt if g.chance(0.7) else self.rng.choice(g.opt.kernel_dtypes())
        types = self.types()
        j_arrays = [a for a in self.arrays if types[a][0].axes == ("j",) and not types[a][0].fields]
        if j_arrays and g.chance(0.5):
            src = self.rng.choice(j_arrays)
        else:
            src = self.add(Input(src_dt, 1, axis="j"))
            self.arrays.append(src)
        types = self.types()
        ints = [a for a in self.arrays if types[a][0].axes and types[a][0].axes[0] in ("i",) + tuple(f"k{c}" for c in range(9))
                and types[a][0].dtype in ("i32", "i64") and not types[a][0].fields]  # fmt: skip
        if ints and g.chance(0.3):
            idx = self.rng.choice(ints)
        else:
            idx = self.add(Input(self.rng.choice(("i32", "i64")), 1, index=True))
        self.tags.add("gather")
        k = self.add(Gather(src, idx))
        self.arrays.append(k)
        return k

    def bool_fold_step(self, axes: tuple[str, ...]) -> int | None:
        """A fold of an i1 array (a comparison map) by andi/ori/xori: a custom body that is a
        reduction kind on i1 (convert-df-to-loop recognizes it)."""
        srcs = self.sources(axes, 2, exclude_records=True)
        if not srcs:
            return None
        pred = self.g.cond(self.leaves_for(srcs), self.rng.randint(0, 2), self.tags)
        c = self.add(Map(tuple(srcs), pred))
        op = self.rng.choice(("and", "or", "xor"))
        x = Arg(1, "i1")
        body = Op(op, (Arg(0, "i1"), x) if self.g.chance(0.7) else (x, Arg(0, "i1")), "i1")
        k = self.add(Fold((c,), (self.g.const("i1"),), (body,)))
        self.tags.add("bool_fold")
        return k

    def kind_body(self, dt: str, acc: int, elem: Expr) -> Expr:
        """`acc op x` (or `x op acc`) with op a reduction kind's operation: recognized as that kind."""
        ops = ["add", "mul", "min", "max"]
        if dt in ALL_INTS:
            ops += ["and", "or", "xor"] + (["umin", "umax"] if self.g.opt.allows("unsigned") else [])
        op = self.rng.choice(ops)
        self.tags.add("kind_fold")
        a = Arg(acc, dt)
        return Op(op, (a, elem) if self.g.chance(0.7) else (elem, a), dt)

    def select_step(self, dt: str, axes: tuple[str, ...]) -> int:
        types = self.types()
        same = [a for a in self.arrays if types[a][0].axes == axes and not types[a][0].fields]
        if not same:
            return self.map_step(dt, axes)
        a = self.rng.choice(same)
        adt = types[a][0].dtype
        others = [x for x in same if types[x][0].dtype == adt]
        b = self.rng.choice(others)
        self.tags.add("select")
        params = [s for s in self.scalars if s.dtype == "i1"]
        if self.g.opt.allows("params") and self.g.chance(0.2):
            c = self.add(Param("i1"))
            self.scalars.append(Scalar(c, "i1"))
            k = self.add(Select(c, a, b, scalar_cond=True))
        elif params and self.g.chance(0.3):
            k = self.add(Select(params[0].ref, a, b, scalar_cond=True))
        else:
            srcs = self.sources(axes, 2, exclude_records=True)
            pred = self.g.cond(self.leaves_for(srcs), self.rng.randint(0, 2), self.tags)
            c = self.add(Map(tuple(srcs), pred))
            k = self.add(Select(c, a, b))
        self.arrays.append(k)
        return k

    def filter_step(self, dt: str) -> int:
        srcs = self.sources(("i",), 2, exclude_records=True)
        if not srcs:
            return None
        pred = self.g.cond(self.leaves_for(srcs), self.rng.randint(0, 2), self.tags)
        axis = f"k{self.filter_count}"
        self.filter_count += 1
        self.tags.add("filter")
        k = self.add(Filter(tuple(srcs), pred, axis))
        self.arrays.append(k)
        for idx in range(1, len(srcs)):
            self.arrays.append(self.add(Project(k, idx)))
        return k

    def reduce_step(self, axes: tuple[str, ...]) -> int | None:
        srcs = self.sources(axes, 1, exclude_records=True)
        if not srcs:
            return None
        src = srcs[0]
        t = self.vt(src)
        if not self.array_dtype_ok(src, "reduce"):
            return None
        kind, reassoc, body = self.reduce_kind(t.dtype, "reduce")
        init = self.g.const(t.dtype)
        k = self.add(Reduce(kind, src, init, reassoc, (), body))
        self.tags.add("reduce")
        if reassoc:
            self.tags.add("reassoc")
        if self.captured_ok(t.dtype, kind, reassoc):
            self.scalars.append(Scalar(k, t.dtype))
        return k

    def captured_ok(self, dt: str, kind: str, reassoc: bool) -> bool:
        """Whether a reduction's scalar may feed later maps (only exactly comparable ones)."""
        ok = self.g.opt.allows("captured_reduce") and not (dt in FLOATS and reassoc and kind in ("add", "mul"))
        if ok:
            self.tags.add("captured_reduce")
        return ok

    def reduce_kind(self, dt: str, what: str) -> tuple[str, bool, Expr | None]:
        g = self.g
        kinds = ["add", "add", "mul", "min", "max"] + (["and", "or"] if dt in ALL_INTS else [])
        if dt in ALL_INTS and g.opt.allows("unsigned"):
            kinds += ["umin", "umax"]
        if not g.opt.allows("minmax"):
            kinds = [k for k in kinds if k not in ("min", "max", "umin", "umax")]
        if g.opt.allows("custom"):
            kinds.append("custom")
        kind = self.rng.choice(kinds)
        reassoc = what == "reduce" and g.opt.allows("reassoc") and g.chance(0.5)
        if dt in FLOATS and kind == "mul":
            reassoc = False
        body = None
        if kind == "custom":
            reassoc = False
            self.tags.add("custom")
            leaves: list[Expr] = [Arg(0, dt), Arg(1, dt), *self.scalars]
            body = g.expr(dt, leaves, self.rng.randint(1, 2), self.tags)
        return kind, reassoc, body

    def scan_step(self, axes: tuple[str, ...]) -> int | None:
        srcs = self.sources(axes, 1, exclude_records=True)
        if not srcs:
            return None
        src = srcs[0]
        t = self.vt(src)
        if not self.array_dtype_ok(src, "scan"):
            return None
        kind, _, body = self.reduce_kind(t.dtype, "scan")
        k = self.add(Scan(kind, src, self.g.const(t.dtype), body))
        self.tags.add("scan")
        self.arrays.append(k)
        return k

    def fold_step(self, axes: tuple[str, ...]) -> int | None:
        srcs = self.sources(axes, 2, exclude_records=True)
        types = self.types()
        if not srcs or any(types[s][0].dtype in ("i1", *STORAGE) for s in srcs):
            return None
        m = self.rng.choice((1, 1, 2))
        acc_dts = [types[srcs[0]][0].dtype if self.g.chance(0.7) else self.rng.choice(self.g.opt.kernel_dtypes()) for _ in range(m)]
        accs: list[Expr] = [Arg(a, d) for a, d in enumerate(acc_dts)]
        leaves = accs + [Arg(m + k, types[s][0].dtype) for k, s in enumerate(srcs)] + list(self.scalars)
        elem_leaves = [x for x in leaves[m:] if not isinstance(x, Arg) or x.index >= m]
        bodies = tuple(
            self.kind_body(d, a, self.g.cast_to(d, self.rng.choice(elem_leaves), self.tags) or Arg(a, d))
            if self.g.opt.allows("kind_fold") and self.g.chance(0.4) else self.fold_body(d, a, leaves)
            for a, d in enumerate(acc_dts)
        )  # fmt: skip
        inits = tuple(self.g.const(d) for d in acc_dts)
        k = self.add(Fold(tuple(srcs), inits, bodies))
        self.tags.add("fold")
        results = [k] + [self.add(Project(k, a)) for a in range(1, m)]
        for r, d in zip(results, acc_dts):
            if self.g.opt.allows("captured_reduce"):
                self.scalars.append(Scalar(r, d))
        return results[-1] if self.g.chance(0.5) else k

    def fold_body(self, dt: str, acc: int, leaves: list[Expr]) -> Expr:
        """A fold step; without `fold_passthrough`, never the accumulator itself unchanged."""
        for _ in range(8):
            e = self.g.expr(dt, leaves, self.rng.randint(1, 2), self.tags)
            if e != Arg(acc, dt) or self.g.opt.allows("fold_passthrough"):
                return e
        return Op("add" if dt in ALL_INTS else "max", (Arg(acc, dt), self.g.const(dt)), dt)

    def rank2(self, dt: str) -> Kernel:
        self.tags.add("rank2")
        cols = self.rng.choice((1, 3, 4, 5, 8, 9))
        m = self.add(Input(dt, 2, (), cols, rows_n=self.g.chance(0.7)))
        if self.g.opt.allows("params") and self.g.chance(0.5):
            self.scalars.append(Scalar(self.add(Param(dt)), dt))
        src = m
        if self.g.chance(0.6):
            e = self.g.expr(dt, [Arg(0, dt), *self.scalars], self.rng.randint(1, 2), self.tags)
            src = self.add(Map((m,), e))
            self.tags.add("map")
        kind, reassoc, body = self.reduce_kind(dt, "reduce")
        over = self.rng.choice((("j",), ("i",), ("i", "j")))
        k = self.add(Reduce(kind, src, self.g.const(dt), reassoc, over, body))
        self.tags.add("reduce")
        results = [k]
        if not self.g.opt.allows("rank2_rows"):
            return self.finish(results)
        if src != m and self.g.chance(0.3):
            results.insert(0, src)  # the rank-2 map as an output too
            self.tags.add("rank2_rows")
        rows = self.nodes[m]
        exact = not (dt in FLOATS and reassoc and kind in ("add", "mul"))  # a reassociated sum rounds openly
        if over == ("j",) and exact and isinstance(rows, Input) and rows.rows_n and self.g.chance(0.6):
            # per-row results (axis i, n of them) combined with rank-1 arrays on i: rows scaled
            # by their sums, row maxima filtered, a scan of row sums, ...
            self.tags.add("rank2_rows")
            self.no_gather = True
            self.arrays = [k]
            if self.g.chance(0.7):
                other = dt if self.g.chance(0.7) else self.rng.choice(self.g.opt.kernel_dtypes())
                self.arrays.append(self.add(Input(other)))
            for _ in range(self.rng.randint(1, 2)):
                made = self.step(dt)
                if made is not None:
                    results.append(made)
        return self.finish(results)

    def free_range(self) -> Kernel:
        self.tags.add("free_range")
        s, e, st = (self.add(Param("i64", role)) for role in ("rstart", "rend", "rstep"))
        r = self.add(Range(s, e, st, zipped=False))
        src = r
        if self.g.chance(0.5):
            ex = self.g.expr("i64", [Arg(0, "i64")], self.rng.randint(1, 2), self.tags)
            src = self.add(Map((r,), ex))
        kind, reassoc, body = self.reduce_kind("i64", "reduce")
        k = self.add(Reduce(kind, src, self.g.const("i64"), reassoc, (), body))
        self.tags.add("reduce")
        return self.finish([k])


def used_constructs(kernel: Kernel) -> set[str]:
    """Tags plus the op names found in the kernel's expressions."""
    found = set(kernel.tags)
    for node in kernel.nodes:
        for e in _exprs(node):
            for x in walk_expr(e):
                if isinstance(x, Op):
                    found.add("op:" + x.name.split(":")[0])
    return found


def _exprs(node: Node) -> list[Expr]:
    match node:
        case Map(expr=e):
            return [e]
        case Filter(pred=e):
            return [e]
        case Reduce(body=b) | Scan(body=b):
            return [b] if b is not None else []
        case Fold(bodies=bs):
            return list(bs)
    return []
