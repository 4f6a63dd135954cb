"""Generation of the CPython extension module that wraps kernels for fast, checked calls.

ctypes costs several microseconds per call; a METH_FASTCALL function reading
numpy arrays through the buffer protocol costs well under one. The wrapper is
compiled in the same translation unit as the kernels, after them (METH_FASTCALL |
METH_KEYWORDS: arguments by position or by C parameter name, `lib.axpb(x, a=2.0, b=1.0,
out=y)`; a call without keywords copies nothing), and
re-declares each kernel from its signature so that a signature disagreeing
with the C source is a compile error rather than a silent ABI mismatch.
Scalar results come back as numpy scalars of their exact dtype (an f32 result is
an np.float32, not a Python float holding a different type's value), boxed with
numpy's C API.

Names (kernel, parameters, axes) reach the generated C only as string literals made by
`loopopt.names.c_string_literal`, and reach `PyErr_Format` only as `%s` arguments: every
format string is loopopt's own fixed text. The wrapper calls the kernel through a
file-scope pointer, so a kernel name cannot be shadowed by the wrapper's locals.

A kernel with computed axes (`KernelSignature.extents`) gets a second function,
`_extents_<name>`, taking the same arguments, calling the kernel and returning its extent
results (the query `KernelSignature.call_alloc` sizes outputs with); the kernel function
itself checks after the call that every output on a computed axis held its extent, and
does not return the extent results.

A call whose arrays hold at least `GIL_RELEASE_ELEMENTS` elements in all releases the GIL
while the kernel runs (kernels touch only their buffers, which the call holds exported),
so other Python threads run meanwhile; smaller calls keep it (a release and re-acquire
costs about as much as a small kernel).
"""

from __future__ import annotations

from collections.abc import Sequence

from loopopt.names import c_string_literal

from .signature import DTYPES, ArrayParam, KernelSignature, ScalarParam

GIL_RELEASE_ELEMENTS = 1 << 14
"""Calls touching at least this many array elements release the GIL while the kernel runs."""

_PRELUDE = r"""#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
"""

_NUMPY = r"""#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>
"""

_HELPERS = r"""
/* Scalar results as numpy scalars of their exact dtype (allocated directly: ~20 ns). */
#if NPY_BITSOF_INT != 32
#error "loopopt runtime: numpy int32 is not C int on this platform"
#endif
#define LOOPOPT_RT_BOX(name, ctype, cls)                 \
    static inline PyObject *loopopt_rt_box_##name(ctype v) \
    {                                                      \
        PyObject *o = PyArrayScalar_New(cls);              \
        if (o != NULL)                                     \
            PyArrayScalar_ASSIGN(o, cls, v);               \
        return o;                                          \
    }
LOOPOPT_RT_BOX(f16, uint16_t, Half)
LOOPOPT_RT_BOX(f32, float, Float)
LOOPOPT_RT_BOX(f64, double, Double)
LOOPOPT_RT_BOX(i8, int8_t, Byte)
LOOPOPT_RT_BOX(i16, int16_t, Short)
LOOPOPT_RT_BOX(i32, int32_t, Int)
#if NPY_BITSOF_LONG == 64
LOOPOPT_RT_BOX(i64, int64_t, Long)
#else
LOOPOPT_RT_BOX(i64, int64_t, LongLong)
#endif
static inline PyObject *loopopt_rt_box_bool(uint8_t v)
{
    return Py_NewRef(PyArrayScalar_FromLong(v));
}
static inline PyObject *
loopopt_rt_describe(PyObject *obj, const Py_buffer *view)
{
    PyObject *dtype = PyObject_GetAttrString(obj, "dtype");
    if (dtype != NULL) {
        PyObject *text = PyObject_Str(dtype);
        Py_DECREF(dtype);
        if (text != NULL)
            return text;
    }
    PyErr_Clear();
    return PyUnicode_FromFormat("buffer format '%s' of %zd-byte items",
                                view->format ? view->format : "B", view->itemsize);
}

/* Acquires `obj` as a C-contiguous, element-aligned array of the expected
   format and rank; on failure raises a TypeError/ValueError naming the kernel
   and parameter and leaves view->obj NULL. */
static inline int
loopopt_rt_get_array(PyObject *obj, Py_buffer *view, const char *kernel, const char *param,
                     const char *dtype, const char *formats, Py_ssize_t itemsize, int ndim,
                     int output)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        view->obj = NULL;
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s(): parameter '%s' expects a rank-%d numpy array of %s, found %.200s",
                     kernel, param, ndim, dtype, Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    char order = '@';
    if (*f == '@' || *f == '=' || *f == '<' || *f == '>' || *f == '!')
        order = *f++;
    if (order == '>' || order == '!' || f[0] == '\0' || f[1] != '\0' || strchr(formats, f[0]) == NULL
        || view->itemsize != itemsize) {
        PyObject *found = loopopt_rt_describe(obj, view);
        if (found != NULL) {
            PyErr_Format(PyExc_TypeError, "%s(): parameter '%s' expects dtype %s, found %U",
                         kernel, param, dtype, found);
            Py_DECREF(found);
        }
        goto fail;
    }
    if (view->ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s(): parameter '%s' expects a rank-%d array, found rank %d",
                     kernel, param, ndim, view->ndim);
        goto fail;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): parameter '%s' must be C-contiguous (found a strided view); "
                     "pass numpy.ascontiguousarray(%s)", kernel, param, param);
        goto fail;
    }
    if ((uintptr_t)view->buf % (uintptr_t)itemsize != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): parameter '%s' is not aligned to its %zd-byte element size",
                     kernel, param, itemsize);
        goto fail;
    }
    if (output && view->readonly) {
        PyErr_Format(PyExc_ValueError, "%s(): output '%s' is read-only", kernel, param);
        goto fail;
    }
    return 0;
fail:
    PyBuffer_Release(view);
    view->obj = NULL;
    return -1;
}

/* ml_dtypes.bfloat16 (set by PyInit when a kernel has bf16 data). The buffer protocol cannot
   export that dtype: a bf16 array is acquired as its uint16 view (the bits the kernel reads). */
static PyObject *loopopt_rt_bf16_type = NULL;

static inline int
loopopt_rt_get_bf16_array(PyObject *obj, Py_buffer *view, const char *kernel, const char *param, int ndim,
                          int output)
{
    view->obj = NULL;
    if (!PyArray_Check(obj) || (PyObject *)PyArray_DESCR((PyArrayObject *)obj)->typeobj != loopopt_rt_bf16_type) {
        PyObject *found = PyArray_Check(obj) ? PyObject_Str((PyObject *)PyArray_DESCR((PyArrayObject *)obj))
                                             : PyUnicode_FromString(Py_TYPE(obj)->tp_name);
        if (found != NULL) {
            PyErr_Format(PyExc_TypeError, "%s(): parameter '%s' expects a rank-%d numpy array of dtype "
                         "ml_dtypes.bfloat16, found %U", kernel, param, ndim, found);
            Py_DECREF(found);
        }
        return -1;
    }
    PyObject *bits = PyArray_View((PyArrayObject *)obj, PyArray_DescrFromType(NPY_UINT16), NULL);
    if (bits == NULL)
        return -1;
    int r = loopopt_rt_get_array(bits, view, kernel, param, "bfloat16", "H", 2, ndim, output);
    Py_DECREF(bits); /* the view holds its own reference */
    return r;
}

static inline PyObject *loopopt_rt_box_bf16(uint16_t v)
{
    union { uint32_t u; float f; } c = { (uint32_t)v << 16 };
    PyObject *x = PyFloat_FromDouble((double)c.f), *o = NULL;
    if (x != NULL) {
        o = PyObject_CallOneArg(loopopt_rt_bf16_type, x); /* exact: the value is a bfloat16 */
        Py_DECREF(x);
    }
    return o;
}

static inline int
loopopt_rt_get_real(PyObject *obj, double *out, const char *kernel, const char *param, const char *dtype)
{
    if (PyFloat_CheckExact(obj)) {
        *out = PyFloat_AS_DOUBLE(obj);
        return 0;
    }
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s(): parameter '%s' expects a %s scalar (a real number), found %.200s",
                     kernel, param, dtype, Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = v;
    return 0;
}

static inline int
loopopt_rt_get_int(PyObject *obj, long long *out, const char *kernel, const char *param, const char *dtype,
                   long long lo, long long hi)
{
    long long v = PyLong_AsLongLong(obj);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_OverflowError, "%s(): parameter '%s' is out of range for %s", kernel, param, dtype);
        } else {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s(): parameter '%s' expects a %s scalar (an integer), found %.200s",
                         kernel, param, dtype, Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    if (v < lo || v > hi) {
        PyErr_Format(PyExc_OverflowError, "%s(): parameter '%s' = %lld is out of range for %s",
                     kernel, param, v, dtype);
        return -1;
    }
    *out = v;
    return 0;
}

static inline int
loopopt_rt_get_bool(PyObject *obj, uint8_t *out, const char *kernel, const char *param)
{
    const char *tname = Py_TYPE(obj)->tp_name;
    if (PyLong_Check(obj)) {
        long v = PyLong_AsLong(obj);
        if (v == 0 || v == 1) {
            *out = (uint8_t)v;
            return 0;
        }
        PyErr_Clear();
    } else if (strcmp(tname, "numpy.bool") == 0 || strcmp(tname, "numpy.bool_") == 0) {
        int v = PyObject_IsTrue(obj);
        if (v >= 0) {
            *out = (uint8_t)v;
            return 0;
        }
        PyErr_Clear();
    }
    PyErr_Format(PyExc_TypeError, "%s(): parameter '%s' expects a bool scalar (True/False or 0/1), found %.200s",
                 kernel, param, tname);
    return -1;
}

static inline int
loopopt_rt_check_disjoint(const Py_buffer *out, const Py_buffer *other, const char *kernel,
                          const char *out_name, const char *other_name)
{
    uintptr_t a = (uintptr_t)out->buf, b = (uintptr_t)other->buf;
    if (out->len > 0 && other->len > 0 && a < b + (uintptr_t)other->len && b < a + (uintptr_t)out->len) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): output '%s' overlaps parameter '%s'; kernel buffers must not alias (restrict)",
                     kernel, out_name, other_name);
        return -1;
    }
    return 0;
}
"""

_PY_DTYPE_NAMES = {"f16": "float16", "bf16": "ml_dtypes.bfloat16", "f32": "float32", "f64": "float64", "i8": "int8 or uint8", "i16": "int16 or uint16",
                   "i32": "int32", "i64": "int64", "bool": "bool"}

QUERY_PREFIX = "_extents_"
"""Module attribute of a kernel's extent query (`_extents_<name>`); no kernel name starts with `_`."""

_NARROW_SCALARS = {"f16": "loopopt_rt_f64_to_f16({})", "bf16": "loopopt_rt_f32_to_bf16((float){})"}
"""f16 / bf16 scalar parameters: any real number, rounded to the bits as numpy's float16(v)
(once, from double) and ml_dtypes' bfloat16(v) (through f32) do; the helpers are the
targets' own (`targets/c_part.py`), renamed so they cannot clash with the kernel's copies."""


def _narrow_helpers() -> str:
    from loopopt.targets.c_part import BF16_SCALAR_HELPERS, F16_SCALAR_HELPERS

    return "\n".join(src.replace(name, "loopopt_rt_" + name.removeprefix("lo_"))
                     for name, src in (("lo_f64_to_f16", F16_SCALAR_HELPERS["lo_f64_to_f16"]),
                                       ("lo_f32_to_bf16", BF16_SCALAR_HELPERS["lo_f32_to_bf16"])))


_INT_RANGES = {"i8": ("INT8_MIN", "UINT8_MAX"), "i16": ("INT16_MIN", "UINT16_MAX"),  # signless: either reading
               "i32": ("INT32_MIN", "INT32_MAX"), "i64": ("INT64_MIN", "INT64_MAX")}


_c_string = c_string_literal


def _format_error(exc: str, message: str, *args: tuple[str, str]) -> str:
    """A `PyErr_Format` statement: `message` is loopopt's fixed text with one `{}` per argument;
    each argument is (conversion, C expression), e.g. ("%s", name literal), ("%zd", extent).
    User text is only ever an argument, never part of the format."""
    assert "%" not in message, message
    fmt = message.format(*(conv for conv, _ in args))
    return f"PyErr_Format({exc}, {_c_string(fmt)}{''.join(', ' + expr for _, expr in args)});"


def _box_result(dtype: str, expr: str) -> str:
    """A new reference to the numpy scalar of the result's exact dtype (np.float32 for f32)."""
    return f"loopopt_rt_box_{dtype}({expr})"


def docstring(sig: KernelSignature) -> str:
    """A one-line Python-facing description, e.g. `sum(x: f32[n]) -> f32`; `?` is an unconstrained
    dimension, `<=n` a filter output's capacity."""
    parts = []
    for p in sig.params:
        if isinstance(p, ArrayParam):
            dims = [f"<={p.capacity}"] if p.capacity is not None else list(p.axes or ["?"] * p.rank)
            parts.append(f"{p.name}: {'out ' if p.output else ''}{p.dtype}[{', '.join(dims)}]")
        else:
            parts.append(f"{p.name}: {p.dtype}")
    results = [sig.results[j] for j in sig.visible_results]
    if len(results) <= 1:
        ret = results[0] if results else "None"
    else:
        ret = f"({', '.join(results)})"
    return f"{sig.name}({', '.join(parts)}) -> {ret}"


def _extent_checks(sig: KernelSignature, k: str) -> list[str]:
    """C checks that every dimension agrees with its axis group (see `ArrayParam`).

    A group's reference is its first input dimension (else its first output dimension);
    other input dimensions and an output's inner dimensions must equal it, an output's
    first dimension (a capacity) must be at least it, and so must a filter output's
    length be at least the extent of its capacity axis.
    """
    members: dict[str, list[tuple[int, ArrayParam, int]]] = {}
    computed = dict(sig.extents)  # checked after the call against the kernel's extent instead
    for i, p in enumerate(sig.params):
        if isinstance(p, ArrayParam):
            for d, axis in p.constrained_dims():
                if axis not in computed:
                    members.setdefault(axis, []).append((i, p, d))
    refs: dict[str, tuple[int, ArrayParam, int]] = {
        axis: next((m for m in group if not m[1].output), group[0]) for axis, group in members.items()
    }
    lines: list[str] = []
    S = "%s"

    def fail(message: str, *args: tuple[str, str]) -> None:
        lines.append("        " + _format_error("PyExc_ValueError", "{}(): " + message, (S, k), *args))
        lines.append("        goto done;")
        lines.append("    }")

    for axis, group in members.items():
        r, ref, rd = refs[axis]
        ref_extent = f"v{r}.shape[{rd}]"
        ref_name = (S, _c_string(ref.describe_dim(rd)))
        for i, p, d in group:
            if (i, d) == (r, rd):
                continue
            extent = f"v{i}.shape[{d}]"
            if p.output and d == 0:
                lines.append(f"    if ({extent} < {ref_extent}) {{")
                fail("output '{}' has capacity {} but axis '{}' has length {} (from {})",
                     (S, _c_string(p.name)), ("%zd", extent), (S, _c_string(axis)), ("%zd", ref_extent), ref_name)
            else:
                lines.append(f"    if ({extent} != {ref_extent}) {{")
                fail("length mismatch on axis '{}': {} has {} but {} has {}",
                     (S, _c_string(axis)), ref_name, ("%zd", ref_extent), (S, _c_string(p.describe_dim(d))), ("%zd", extent))
    for i, p in enumerate(sig.params):
        if isinstance(p, ArrayParam) and p.capacity is not None and p.capacity in refs:
            r, ref, rd = refs[p.capacity]
            lines.append(f"    if (v{i}.shape[0] < v{r}.shape[{rd}]) {{")
            fail("output '{}' has capacity {} but axis '{}' has length {} (from {})",
                 (S, _c_string(p.name)), ("%zd", f"v{i}.shape[0]"), (S, _c_string(p.capacity)),
                 ("%zd", f"v{r}.shape[{rd}]"), (S, _c_string(ref.describe_dim(rd))))
    return lines


def _step_checks(sig: KernelSignature, k: str) -> list[str]:
    """A range step of 0 (a scalar named by `KernelSignature.steps`) is a ValueError before the call."""
    lines = []
    for axis, i in sig.steps:
        lines.append(f"    if (s{i} == 0) {{")
        lines.append("        " + _format_error("PyExc_ValueError", "{}(): the range on axis '{}' has step '{}' = 0",
                                                 ("%s", k), ("%s", _c_string(axis)), ("%s", _c_string(sig.params[i].name))))
        lines.append("        goto done;")
        lines.append("    }")
    return lines


def _computed_checks(sig: KernelSignature, k: str) -> list[str]:
    """After the call: every output on a computed axis held the extent the kernel returned
    (the kernel wrote nothing on that axis otherwise; see `KernelSignature.extents`)."""
    lines = []
    index = {id(p): i for i, p in enumerate(sig.params)}
    for o in sig.outputs:
        i = index[id(o)]
        for d, axis, j in sig.computed_dims(o):
            bad = f"(uint64_t)r{j} > (uint64_t)v{i}.shape[{d}]" if d == 0 else f"r{j} != (int64_t)v{i}.shape[{d}]"
            lines.append(f"    if ({bad}) {{")
            lines.append("        " + _format_error(
                "PyExc_ValueError", "{}(): output '{}' needs {} elements on axis '{}' but has {}",
                ("%s", k), ("%s", _c_string(o.name)), ("%lld", f"(long long)r{j}"), ("%s", _c_string(axis)),
                ("%zd", f"v{i}.shape[{d}]")))
            lines.append("        goto done;")
            lines.append("    }")
    return lines


def kernel_pointer(sig: KernelSignature) -> str:
    """The file-scope name the wrappers call the kernel through."""
    return f"loopopt_kernel_{sig.name}"


def _kernel_pointer_declaration(sig: KernelSignature) -> str:
    types = [t for p in sig.params for t in p.c_params()]
    if len(sig.results) >= 2:
        types += [f"{DTYPES[r].c_type} *restrict" for r in sig.results]
    return f"static {sig.return_c_type} (*const {kernel_pointer(sig)})({', '.join(types) or 'void'}) = {sig.name};"


def _bind_arguments(sig: KernelSignature, k: str) -> list[str]:
    """C that puts the call's arguments, given by position and/or by parameter name
    (METH_FASTCALL | METH_KEYWORDS: `kwnames` holds the names of the trailing `given`),
    into `args[]` in parameter order, with Python's TypeErrors for too many, unknown,
    repeated and missing arguments. Without keywords `args` is `given` (no copy)."""
    n = len(sig.params)
    names = ", ".join(p.name for p in sig.params)
    S = "%s"
    too_many = _format_error("PyExc_TypeError", "{}() takes {} positional arguments ({}) but {} were given",
                             (S, k), ("%d", str(n)), (S, _c_string(names)), ("%zd", "nargs"))
    lines = [
        f"    PyObject *bound[{max(n, 1)}] = {{NULL}};",
        "    PyObject *const *args = given;",
        "    if (kwnames == NULL) {",
        f"        if (nargs != {n}) {{",
        f"            {too_many}",
        "            return NULL;",
        "        }",
        "    } else {",
        f"        if (nargs > {n}) {{",
        f"            {too_many}",
        "            return NULL;",
        "        }",
        "        for (Py_ssize_t i = 0; i < nargs; i++)",
        "            bound[i] = given[i];",
        "        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(kwnames); j++) {",
        "            PyObject *key = PyTuple_GET_ITEM(kwnames, j);",
        "            Py_ssize_t at = -1;",
    ]
    for i, p in enumerate(sig.params):
        lines.append(f"            {'else ' if i else ''}if (PyUnicode_CompareWithASCIIString(key, {_c_string(p.name)}) == 0) at = {i};")
    lines += [
        "            if (at < 0) {",
        "                " + _format_error("PyExc_TypeError", "{}() got an unexpected keyword argument '{}' (parameters: {})",
                                           (S, k), ("%U", "key"), (S, _c_string(names))),
        "                return NULL;",
        "            }",
        "            if (bound[at] != NULL) {",
        "                " + _format_error("PyExc_TypeError", "{}() got multiple values for argument '{}'",
                                           (S, k), ("%U", "key")),
        "                return NULL;",
        "            }",
        "            bound[at] = given[nargs + j];",
        "        }",
    ]
    for i, p in enumerate(sig.params):
        lines += [
            f"        if (bound[{i}] == NULL) {{",
            "            " + _format_error("PyExc_TypeError", "{}() missing required argument '{}'",
                                           (S, k), (S, _c_string(p.name))),
            "            return NULL;",
            "        }",
        ]
    lines += [
        "        args = bound;",
        "    }",
    ]
    return lines


def _wrapper(sig: KernelSignature, query: bool = False) -> str:
    """The METH_FASTCALL function of a kernel; with `query`, its `_extents_<name>` twin."""
    k = _c_string(sig.name)
    n = len(sig.params)
    lines = [
        "static PyObject *",
        f"loopopt_py{'query' if query else 'wrap'}_{sig.name}(PyObject *self, PyObject *const *given, Py_ssize_t nargs, "
        "PyObject *kwnames)",
        "{",
        "    (void)self;",
        "    PyObject *ret = NULL;",
    ]
    arrays = [(i, p) for i, p in enumerate(sig.params) if isinstance(p, ArrayParam)]
    for i, _ in arrays:
        lines.append(f"    Py_buffer v{i};")
        lines.append(f"    v{i}.obj = NULL;")
    for i, p in enumerate(sig.params):
        if isinstance(p, ScalarParam):
            ctype = {"f16": "double", "bf16": "double", "f32": "double", "f64": "double", "i8": "long long", "i16": "long long", "i32": "long long",
                     "i64": "long long", "bool": "uint8_t"}
            lines.append(f"    {ctype[p.dtype]} s{i} = 0;")
    lines += _bind_arguments(sig, k)

    # Acquire and check every argument, in order.
    for i, p in enumerate(sig.params):
        pn = _c_string(p.name)
        if isinstance(p, ArrayParam) and p.dtype == "bf16":
            lines.append(f"    if (loopopt_rt_get_bf16_array(args[{i}], &v{i}, {k}, {pn}, {p.rank}, {int(p.output)}) < 0) goto done;")
        elif isinstance(p, ArrayParam):
            dt = p.dt
            lines.append(
                f"    if (loopopt_rt_get_array(args[{i}], &v{i}, {k}, {pn}, {_c_string(_PY_DTYPE_NAMES[p.dtype])}, "
                f"{_c_string(dt.buffer_formats)}, {dt.itemsize}, {p.rank}, {int(p.output)}) < 0) goto done;"
            )
        elif p.dtype in ("f16", "bf16", "f32", "f64"):
            lines.append(
                f"    if (loopopt_rt_get_real(args[{i}], &s{i}, {k}, {pn}, {_c_string(p.dtype)}) < 0) goto done;"
            )
        elif p.dtype == "bool":
            lines.append(f"    if (loopopt_rt_get_bool(args[{i}], &s{i}, {k}, {pn}) < 0) goto done;")
        else:
            lo, hi = _INT_RANGES[p.dtype]
            lines.append(
                f"    if (loopopt_rt_get_int(args[{i}], &s{i}, {k}, {pn}, {_c_string(p.dtype)}, {lo}, {hi}) < 0) goto done;"
            )

    lines += _extent_checks(sig, k)
    lines += _step_checks(sig, k)

    # Outputs must not alias any other array (the kernels' pointers are restrict).
    for i, p in arrays:
        if not p.output:
            continue
        for j, q in arrays:
            if j != i and (not q.output or j < i):
                lines.append(
                    f"    if (loopopt_rt_check_disjoint(&v{i}, &v{j}, {k}, {_c_string(p.name)}, "
                    f"{_c_string(q.name)}) < 0) goto done;"
                )

    # The call.
    call_args = []
    for i, p in enumerate(sig.params):
        if isinstance(p, ArrayParam):
            const = "" if p.output else "const "
            call_args.append(f"({const}{p.dt.c_type} *)v{i}.buf")
            call_args += [f"(int64_t)v{i}.shape[{d}]" for d in range(p.rank)]
        elif p.dtype in _NARROW_SCALARS:
            call_args.append(_NARROW_SCALARS[p.dtype].format(f"s{i}"))
        else:
            call_args.append(f"({p.dt.c_type})s{i}")
    result_decls = [f"    {DTYPES[r].c_type} r{j};" for j, r in enumerate(sig.results)]
    lines += result_decls
    if len(sig.results) >= 2:
        call_args += [f"&r{j}" for j in range(len(sig.results))]
    call = f"{kernel_pointer(sig)}({', '.join(call_args)})"
    # errno = ENOMEM after the call: a scratch buffer could not be had (docs/calling_convention.md,
    # "Out of memory"); read on the thread that ran the kernel, before the GIL is taken back
    stmt = f"errno = 0; {'r0 = ' if len(sig.results) == 1 else ''}{call}; nomem = errno == ENOMEM;"
    lines.append("    int nomem;")
    if arrays:
        work = " + ".join(f"v{i}.len / {p.dt.itemsize}" for i, p in arrays)
        lines.append(f"    if ({work} >= {GIL_RELEASE_ELEMENTS}) {{")
        lines.append("        Py_BEGIN_ALLOW_THREADS")
        lines.append(f"        {stmt}")
        lines.append("        Py_END_ALLOW_THREADS")
        lines.append("    } else {")
        lines.append(f"        {stmt}")
        lines.append("    }")
    else:
        lines.append(f"    {stmt}")
    lines.append("    if (nomem) {")
    lines.append("        " + _format_error("PyExc_MemoryError", "{}(): out of memory for the kernel's scratch buffers", ("%s", k)))
    lines.append("        goto done;")
    lines.append("    }")

    # The query returns the extents as a tuple; the kernel function checks them and returns
    # the other results (None, one numpy scalar, or a tuple).
    returned = [j for _, j in sig.extents] if query else list(sig.visible_results)
    as_tuple = query or len(returned) >= 2
    if not query:
        lines += _computed_checks(sig, k)
    if as_tuple:
        lines.append(f"    ret = PyTuple_New({len(returned)});")
    elif not returned:
        lines.append("    ret = Py_NewRef(Py_None);")
    else:
        lines.append(f"    ret = {_box_result(sig.results[returned[0]], f'r{returned[0]}')};")
    if as_tuple:
        lines.append("    if (ret == NULL) goto done;")
        for pos, j in enumerate(returned):
            lines.append(f"    {{ PyObject *item = {_box_result(sig.results[j], f'r{j}')};")
            lines.append("      if (item == NULL) { Py_CLEAR(ret); goto done; }")
            lines.append(f"      PyTuple_SET_ITEM(ret, {pos}, item); }}")
    lines.append("done:")
    for i, _ in arrays:
        lines.append(f"    if (v{i}.obj != NULL) PyBuffer_Release(&v{i});")
    lines.append("    return ret;")
    lines.append("}")
    return "\n".join(lines)


_BF16_INIT = (
    '    PyObject *ml_dtypes = PyImport_ImportModule("ml_dtypes");',
    "    if (ml_dtypes == NULL)",
    "        return NULL;",
    '    loopopt_rt_bf16_type = PyObject_GetAttrString(ml_dtypes, "bfloat16");',
    "    Py_DECREF(ml_dtypes);",
    "    if (loopopt_rt_bf16_type == NULL)",
    "        return NULL;",
)
"""PyInit of a module with bf16 data: the dtype its arrays must have and its results are boxed as."""


def _uses_bf16(sig: KernelSignature) -> bool:
    return "bf16" in sig.results or any(p.dtype == "bf16" for p in sig.params)


def extension_source(module_name: str, kernel_source: str, signatures: Sequence[KernelSignature]) -> str:
    """One C translation unit: the kernels, their declarations from the signatures, the wrappers, PyInit."""
    methods = [
        f'    {{{_c_string(s.name)}, (PyCFunction)(void (*)(void))loopopt_pywrap_{s.name}, METH_FASTCALL | METH_KEYWORDS, '
        f"{_c_string(docstring(s))}}},"
        for s in signatures
    ]
    methods += [
        f'    {{{_c_string(QUERY_PREFIX + s.name)}, (PyCFunction)(void (*)(void))loopopt_pyquery_{s.name}, METH_FASTCALL | METH_KEYWORDS, '
        f"{_c_string('extent query of ' + s.name)}}},"
        for s in signatures
        if s.extents
    ]
    return "\n".join(
        [
            _PRELUDE,
            '#line 1 "kernel.c"',
            kernel_source,
            '#line 1 "loopopt_pyext.c"',
            "/* Kernel declarations from the runtime signatures: a mismatch with the definitions above is a compile error. */",
            *(s.c_declaration() for s in signatures),
            *(_kernel_pointer_declaration(s) for s in signatures),
            _NUMPY,
            _HELPERS,
            *((_narrow_helpers(),) if any(isinstance(p, ScalarParam) and p.dtype in _NARROW_SCALARS
                                          for sig in signatures for p in sig.params) else ()),
            *(_wrapper(s) + "\n" for s in signatures),
            *(_wrapper(s, query=True) + "\n" for s in signatures if s.extents),
            "static PyMethodDef loopopt_rt_methods[] = {",
            *methods,
            "    {NULL, NULL, 0, NULL}",
            "};",
            "",
            "static struct PyModuleDef loopopt_rt_module = {",
            f'    PyModuleDef_HEAD_INIT, {_c_string(module_name)}, "loopopt kernels", -1, loopopt_rt_methods,',
            "    NULL, NULL, NULL, NULL",
            "};",
            "",
            f"PyMODINIT_FUNC PyInit_{module_name}(void)",
            "{",
            "    import_array();",
            *(_BF16_INIT if any(_uses_bf16(s) for s in signatures) else ()),
            "    return PyModule_Create(&loopopt_rt_module);",
            "}",
            "",
        ]
    )
