"""Portable scalar C table: the `scalar` target (width 1) and every scalar-typed op on any target.

On the scalar target a `vector<1xT>` is just a `T` and a `vector<1xi1>` a `_Bool`, so the same
rows print simd ops of width 1 and the plain `arith`/`math` ops of scalar loops and tails.
Semantics follow docs/integer_semantics.md and the interpreter (interp/lanewise.py): i32/i64
add/sub/mul/neg wrap (computed in the unsigned type, since signed overflow is undefined in C),
shift amounts are read as unsigned (shl/shrui by >= the width give 0, shrsi the sign fill),
division and remainder truncate and never trap (by zero: 0; divsi(MIN, -1) = MIN, remsi(x, -1)
= 0), float->int truncates, saturates and maps NaN to 0, float min/max propagate NaN like
numpy's minimum/maximum, minnum/maxnum are fmin/fmax. Every such row calls a `lo_*` helper
(c_emulate) where one C operator would be undefined for some input. `index` arithmetic (loop
bounds, addresses) uses plain C add/sub/mul but the same non-trapping division and shifts.
"""

from __future__ import annotations

from loopopt.targets.c_isa import ELEMENT_C_TYPES, IsaTable

FLOATS = {"f32": "f", "f64": ""}  # element -> libm suffix
INTS = {"i32": "32", "i64": "64"}
_ALL = ("f32", "f64", "i8", "i16", "i32", "i64", "index", "i1")

_FLOAT_CMP = {
    "oeq": "{a} == {b}", "ogt": "{a} > {b}", "oge": "{a} >= {b}", "olt": "{a} < {b}",
    "ole": "{a} <= {b}", "one": "({a} < {b} || {a} > {b})", "ord": "!(isnan({a}) || isnan({b}))",
    "ueq": "!({a} < {b} || {a} > {b})", "ugt": "!({a} <= {b})", "uge": "!({a} < {b})",
    "ult": "!({a} >= {b})", "ule": "!({a} > {b})", "une": "{a} != {b}", "uno": "(isnan({a}) || isnan({b}))",
    "true": "1", "false": "0",
}  # fmt: skip

_INT_CMP = {"eq": "{a} == {b}", "ne": "{a} != {b}", "slt": "{a} < {b}", "sle": "{a} <= {b}",
            "sgt": "{a} > {b}", "sge": "{a} >= {b}"}  # fmt: skip
_UNSIGNED_CMP = {"ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}

_MATH_UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "tanh",
               "floor", "ceil", "trunc", "sqrt", "cbrt", "erf", "atan")  # fmt: skip


def _float_rows(e: str, f: str) -> dict[tuple[str, str], str]:
    t = ELEMENT_C_TYPES[e]
    rows = {
        ("add", e): "{dst} = {a} + {b};",
        ("sub", e): "{dst} = {a} - {b};",
        ("mul", e): "{dst} = {a} * {b};",
        ("div", e): "{dst} = {a} / {b};",
        ("rem", e): f"{{dst}} = fmod{f}({{a}}, {{b}});",
        ("neg", e): "{dst} = -{a};",
        ("abs", e): f"{{dst}} = fabs{f}({{a}});",
        ("fma", e): f"{{dst}} = fma{f}({{a}}, {{b}}, {{c}});",
        ("rsqrt", e): f"{{dst}} = ({t})1 / sqrt{f}({{a}});",
        ("roundeven", e): f"{{dst}} = rint{f}({{a}});",
        ("pow", e): f"{{dst}} = pow{f}({{a}}, {{b}});",
        ("copysign", e): f"{{dst}} = copysign{f}({{a}}, {{b}});",
        ("atan2", e): f"{{dst}} = atan2{f}({{a}}, {{b}});",
        # numpy minimum/maximum: a NaN operand wins
        ("min", e): "{dst} = (isnan({a}) || {a} < {b}) ? {a} : {b};",
        ("max", e): "{dst} = (isnan({a}) || {a} > {b}) ? {a} : {b};",
        ("minnum", e): f"{{dst}} = fmin{f}({{a}}, {{b}});",
        ("maxnum", e): f"{{dst}} = fmax{f}({{a}}, {{b}});",
        **{(fn, e): f"{{dst}} = {fn}{f}({{a}});" for fn in _MATH_UNARY},
        **{("cmp." + p, e): f"{{dst}} = {expr};" for p, expr in _FLOAT_CMP.items()},
        ("convert.f32", e): "{dst} = (float){a};",
        ("convert.f64", e): "{dst} = (double){a};",
        # truncating, saturating, NaN -> 0 (a plain cast is UB there)
        ("convert.i8", e): f"{{dst}} = lo_fptosi_i8_{e}({{a}});",
        ("convert.i16", e): f"{{dst}} = lo_fptosi_i16_{e}({{a}});",
        ("convert.i32", e): f"{{dst}} = lo_fptosi_i32_{e}({{a}});",
        ("convert.i64", e): f"{{dst}} = lo_fptosi_i64_{e}({{a}});",
        ("convert.index", e): f"{{dst}} = lo_fptosi_i64_{e}({{a}});",
        # arith.fptoui (the printer's `fptoui.<to>` key): saturating to [0, 2^w - 1], NaN -> 0
        ("fptoui.i8", e): f"{{dst}} = lo_fptoui_i8_{e}({{a}});",
        ("fptoui.i16", e): f"{{dst}} = lo_fptoui_i16_{e}({{a}});",
        ("fptoui.i32", e): f"{{dst}} = lo_fptoui_i32_{e}({{a}});",
        ("fptoui.i64", e): f"{{dst}} = lo_fptoui_i64_{e}({{a}});",
        ("fptoui.index", e): f"{{dst}} = lo_fptoui_i64_{e}({{a}});",
        ("fptoui.i1", e): "{dst} = {a} >= 1;",  # saturates to 1; NaN and (-inf, 1) give 0
        ("convert.i1", e): "{dst} = {a} <= -1;",  # fptosi to i1: true is -1, so x <= -1 saturates to it
    }
    return rows


def _int_rows(e: str, wrap: bool) -> dict[tuple[str, str], str]:
    t = ELEMENT_C_TYPES[e]
    # u: the type arithmetic is computed in (i8/i16 in uint32_t, so that the promotion to int
    # cannot overflow in a product); uw: the same-width unsigned type (unsigned compares, min/max)
    u = "uint64_t" if e in ("i64", "index") else "uint32_t"
    uw = {"i8": "uint8_t", "i16": "uint16_t"}.get(e, u)
    h = "i64" if e == "index" else e  # helpers by C type

    def wrapped(op: str) -> str:
        if not wrap:
            return f"{{dst}} = {{a}} {op} {{b}};"
        return f"{{dst}} = ({t})(({u}){{a}} {op} ({u}){{b}});"

    def helper(op: str) -> str:
        return f"{{dst}} = lo_{op}_{h}({{a}}, {{b}});"

    bits = {"i8": 8, "i16": 16, "i32": 32}.get(e, 64)
    rows = {
        ("add", e): wrapped("+"),
        ("sub", e): wrapped("-"),
        ("mul", e): wrapped("*"),
        **{(op, e): helper(op) for op in ("div", "rem", "divu", "remu", "floordiv", "ceildiv", "ceildivu", "shl", "shru")},
        ("shr", e): helper("shrs"),
        # divisor a constant other than 0 and -1 (the printer's `<op>_const` keys): C's operators
        # cannot trap or overflow there and truncate like divsi / remsi
        ("div_const", e): "{dst} = {a} / {b};",
        ("rem_const", e): "{dst} = {a} % {b};",
        ("divu_const", e): f"{{dst}} = ({t})(({uw}){{a}} / ({uw}){{b}});",
        ("remu_const", e): f"{{dst}} = ({t})(({uw}){{a}} % ({uw}){{b}});",
        ("neg", e): f"{{dst}} = ({t})(({u})0 - ({u}){{a}});" if wrap else "{dst} = -{a};",
        # abs(MIN) = MIN: negated in the unsigned type
        ("abs", e): f"{{dst}} = ({t})({{a}} < 0 ? ({u})0 - ({u}){{a}} : ({u}){{a}});",
        ("min", e): "{dst} = {a} < {b} ? {a} : {b};",
        ("max", e): "{dst} = {a} > {b} ? {a} : {b};",
        ("minu", e): f"{{dst}} = ({uw}){{a}} < ({uw}){{b}} ? {{a}} : {{b}};",
        ("maxu", e): f"{{dst}} = ({uw}){{a}} > ({uw}){{b}} ? {{a}} : {{b}};",
        ("and", e): "{dst} = {a} & {b};",
        ("or", e): "{dst} = {a} | {b};",
        ("xor", e): "{dst} = {a} ^ {b};",
        ("ctpop", e): f"{{dst}} = ({t})__builtin_popcount{'ll' if bits == 64 else ''}(({uw}){{a}});",
        **{("cmp." + p, e): f"{{dst}} = {expr};" for p, expr in _INT_CMP.items()},
        **{("cmp." + p, e): f"{{dst}} = ({uw}){{a}} {op} ({uw}){{b}};" for p, op in _UNSIGNED_CMP.items()},
        ("convert.f32", e): "{dst} = (float){a};",
        ("convert.f64", e): "{dst} = (double){a};",
        # extsi / trunci / index_cast: value-preserving or the low bits (C's conversion to a
        # narrower signed type is GCC's and clang's modulo 2^w, documented, not undefined)
        **{(f"convert.{to}", e): f"{{dst}} = ({ELEMENT_C_TYPES[to]}){{a}};" for to in ("i8", "i16", "i32", "i64")},
        ("convert.index", e): "{dst} = (int64_t){a};",
        ("convert.i1", e): "{dst} = ({a} & 1) != 0;",
        # arith.extui: zero extension (the printer's `zext.<to>` key)
        **{(f"zext.{to}", e): f"{{dst}} = (int64_t)({uw}){{a}};" for to in ("i64", "index")},
        ("zext.i32", e): f"{{dst}} = (int32_t)({uw}){{a}};" if bits < 32 else "{dst} = (int32_t){a};",
        **({("zext.i16", e): "{dst} = (int16_t)(uint8_t){a};"} if bits == 8 else {}),
        # arith.uitofp (the printer's `uitofp.<to>` key): the unsigned value, rounded to nearest
        ("uitofp.f32", e): f"{{dst}} = (float)({uw}){{a}};",
        ("uitofp.f64", e): f"{{dst}} = (double)({uw}){{a}};",
    }  # fmt: skip
    return rows


_BOOL_ROWS: dict[tuple[str, str], str] = {
    ("and", "i1"): "{dst} = {a} & {b};",
    ("or", "i1"): "{dst} = {a} | {b};",
    ("xor", "i1"): "{dst} = {a} ^ {b};",
    ("not", "i1"): "{dst} = !{a};",
    ("cmp.eq", "i1"): "{dst} = {a} == {b};",
    ("cmp.ne", "i1"): "{dst} = {a} != {b};",
    # i1 as a signed integer: true is -1, so true < false; as unsigned, true is 1
    ("cmp.slt", "i1"): "{dst} = {a} & !{b};",
    ("cmp.sle", "i1"): "{dst} = {a} | !{b};",
    ("cmp.sgt", "i1"): "{dst} = !{a} & {b};",
    ("cmp.sge", "i1"): "{dst} = !{a} | {b};",
    ("cmp.ult", "i1"): "{dst} = !{a} & {b};",
    ("cmp.ule", "i1"): "{dst} = !{a} | {b};",
    ("cmp.ugt", "i1"): "{dst} = {a} & !{b};",
    ("cmp.uge", "i1"): "{dst} = {a} | !{b};",
    ("convert.i8", "i1"): "{dst} = (int8_t){a};",
    ("convert.i16", "i1"): "{dst} = (int16_t){a};",
    ("convert.i32", "i1"): "{dst} = (int32_t){a};",
    ("convert.i64", "i1"): "{dst} = (int64_t){a};",
    ("convert.index", "i1"): "{dst} = (int64_t){a};",
    ("convert.f32", "i1"): "{dst} = (float){a};",
    ("convert.f64", "i1"): "{dst} = (double){a};",
    ("uitofp.f32", "i1"): "{dst} = (float){a};",
    ("uitofp.f64", "i1"): "{dst} = (double){a};",
    # extsi / sitofp / index_cast of i1 (the printer's `sext.<to>` key): true is -1 signed
    ("sext.i8", "i1"): "{dst} = (int8_t)-(int32_t){a};",
    ("sext.i16", "i1"): "{dst} = (int16_t)-(int32_t){a};",
    ("sext.i32", "i1"): "{dst} = -(int32_t){a};",
    ("sext.i64", "i1"): "{dst} = -(int64_t){a};",
    ("sext.index", "i1"): "{dst} = -(int64_t){a};",
    ("sext.f32", "i1"): "{dst} = {a} ? -1.0f : 0.0f;",
    ("sext.f64", "i1"): "{dst} = {a} ? -1.0 : 0.0;",
    ("popcount", "i1"): "{dst} = (int64_t){a};",
}

# Rows shared by every element type, for width-1 simd ops and memory accesses.
_COMMON: dict[tuple[str, str], str] = {
    **{("load", e): "{dst} = {buf}[{idx}];" for e in _ALL},
    **{("load_aligned", e): "{dst} = {buf}[{idx}];" for e in _ALL},
    **{("store", e): "{buf}[{idx}] = {value};" for e in _ALL},
    **{("store_aligned", e): "{buf}[{idx}] = {value};" for e in _ALL},
    **{("store_nt", e): "{buf}[{idx}] = {value};" for e in _ALL},
    **{("masked_load", e): "{dst} = ({mask}) ? {buf}[{idx}] : {passthru};" for e in _ALL},
    **{("masked_store", e): "if ({mask}) {buf}[{idx}] = {value};" for e in _ALL},
    **{("compress_store", e): "{dst} = (int64_t)({mask}); if ({mask}) {buf}[{idx}] = {value};" for e in _ALL},
    # limit: the slot at the cursor may be overwritten while the buffer has room there (as
    # full), nothing when it has none (a short output): a branch on the room, not the data
    **{("compress_store_limit", e): "{dst} = (int64_t)({mask}); if ({limit} > 0) {buf}[{idx}] = {value};"
       for e in _ALL},
    # full: the slot at the cursor may be overwritten, so no branch
    **{("compress_store_full", e): "{buf}[{idx}] = {value}; {dst} = (int64_t)({mask});" for e in _ALL},
    # elements from &buf[idx] to the next multiple of {align} bytes (plain C on every target)
    **{("align_offset", e): "{dst} = (int64_t)(((0u - (uintptr_t)&{buf}[{idx}]) & ({align}u - 1u)) / sizeof({buf}[0]));"
       for e in ("f32", "f64", "i8", "i16", "i32", "i64")},
    **{("broadcast", e): "{dst} = {a};" for e in _ALL},
    **{("select", e): "{dst} = ({mask}) ? {a} : {b};" for e in _ALL},
    **{("iota", e): "{dst} = 0;" for e in _ALL},
    # a width-1 horizontal reduction is the lane itself
    **{(f"hreduce.{k}", e): "{dst} = {a};" for e in _ALL for k in ("add", "mul", "min", "max", "umin", "umax", "and", "or")},
}

ROWS: dict[tuple[str, str], str] = {
    **_COMMON,
    **_float_rows("f32", "f"),
    **_float_rows("f64", ""),
    **_int_rows("i8", wrap=True),
    **_int_rows("i16", wrap=True),
    **_int_rows("i32", wrap=True),
    **_int_rows("i64", wrap=True),
    # index arithmetic (loop bounds, addresses) cannot overflow in practice: plain C
    **_int_rows("index", wrap=False),
    **_BOOL_ROWS,
}
# masks of the scalar target: vector<1xi1> prints as _Bool, keyed like any other mask
ROWS.update({(k, "i1x1"): v for (k, e), v in list(ROWS.items()) if e == "i1"})
ROWS[("broadcast", "i1x1")] = "{dst} = {a};"
ROWS[("prefix_mask", "i1x1")] = "{dst} = {a} > 0;"
ROWS[("store_fence", "none")] = ""  # streaming stores print as plain stores: nothing to order
# scans: one lane is its own last and first lane (a width-1 scan slides nothing)
ROWS.update({(k, e): "{dst} = {a};" for k in ("splat_last", "first_lane") for e in ("f32", "f64", "i32", "i64")})

SCALAR = IsaTable(
    name="scalar",
    includes=(),
    lanes={"f32": 1, "f64": 1, "i8": 1, "i16": 1, "i32": 1, "i64": 1, "index": 1},
    vector_types=dict(ELEMENT_C_TYPES),
    mask_types={1: "_Bool"},
    rows=ROWS,
    cflags=(),
)
