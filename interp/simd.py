"""Exact lane semantics of the `simd` dialect on numpy values.

A vector is a 1-D ndarray of its lanes (dtype of its element type), a mask a bool
ndarray, a `!loop.buf` a writable 1-D ndarray and an index a numpy int64. Memory ops
check bounds and alignment so that a lowering bug (a full-width load past the end of an
array, an `aligned` access that is not) is an InterpretationError here instead of a
silent overrun in C. Comparisons and fma reuse the lane-wise arith tables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import VectorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from loopopt.dialects import loop_attrs, simd
from loopopt.dialects.reduction_kind import unsigned_minmax
from loopopt.interp.dtypes import numpy_dtype
from loopopt.interp.lanewise import CMPF, CMPI, exact_fma, fp_to_int, int_cast, int_to_fp


def _lanes(t: Attribute) -> int:
    assert isinstance(t, VectorType)
    return t.get_shape()[0]


def _buffer(op: Operation, buf: Any, element_type: Attribute) -> np.ndarray:
    """The buffer as a 1-D ndarray of the op's element type (a rank-2 buffer as a flat
    row-major view: simd ops address it by element offset `row * cols + col`)."""
    if isinstance(buf, np.ndarray) and buf.ndim == 2 and buf.flags.c_contiguous:
        buf = buf.reshape(-1)  # a view: stores reach the 2-D buffer
    if not isinstance(buf, np.ndarray) or buf.ndim != 1:
        raise InterpretationError(f"{op.name}: expected a 1-D (or contiguous 2-D) numpy buffer, got {type(buf).__name__}")
    expected = numpy_dtype(element_type)
    if buf.dtype != expected:
        raise InterpretationError(f"{op.name}: buffer dtype {buf.dtype} != element type {expected}")
    return buf


def _check_span(op: Operation, buf: np.ndarray, start: int, count: int) -> None:
    """Elements [start, start + count) lie in the buffer."""
    if start < 0 or start + count > len(buf):
        raise InterpretationError(
            f"{op.name}: elements [{start}, {start + count}) out of bounds of a buffer of length {len(buf)}"
        )


def _check_aligned(op: Operation, buf: np.ndarray, start: int, lanes: int) -> None:
    """An `aligned` access needs &buf[start] to be a multiple of the vector size in bytes."""
    size = lanes * buf.itemsize
    address = buf.ctypes.data + start * buf.strides[0]
    if address % size:
        raise InterpretationError(
            f"{op.name}: 'aligned' access at element {start} is at address {address:#x}, "
            f"not a multiple of {size} bytes"
        )


def _vector(value: Any, t: Attribute) -> np.ndarray:
    """`value` as the lanes of vector type `t`."""
    return np.asarray(value).astype(numpy_dtype(t), copy=False).reshape(_lanes(t))


def _mask(value: Any, lanes: int) -> np.ndarray:
    mask = np.asarray(value).astype(np.bool_, copy=False).reshape(-1)
    if mask.shape != (lanes,):
        raise InterpretationError(f"mask has {mask.size} lanes, expected {lanes}")
    return mask


def _active_indices(op: Operation, buf: np.ndarray, start: int, mask: np.ndarray) -> np.ndarray:
    """Buffer indices of the active lanes, each checked to be in bounds."""
    lanes = np.flatnonzero(mask)
    for k in lanes:
        if not 0 <= start + k < len(buf):
            raise InterpretationError(
                f"{op.name}: active lane {k} at element {start + k} out of bounds of a buffer "
                f"of length {len(buf)}"
            )
    return start + lanes


def tree_reduce(fn: Callable[[Any, Any], Any], lanes: np.ndarray) -> Any:
    """simd.hreduce's order: v := fn(v[:N/2], v[N/2:]) until one lane is left."""
    v = lanes
    with np.errstate(all="ignore"):
        while len(v) > 1:
            half = len(v) // 2
            v = fn(v[:half], v[half:]).astype(lanes.dtype, copy=False)
    return lanes.dtype.type(v[0])


REDUCE: dict[simd.ReduceKind, Callable[[Any, Any], Any]] = {
    simd.ReduceKind.ADD: np.add,
    simd.ReduceKind.MUL: np.multiply,
    simd.ReduceKind.MIN: np.minimum,  # NaN-propagating
    simd.ReduceKind.MAX: np.maximum,
    simd.ReduceKind.UMIN: lambda a, b: unsigned_minmax(simd.ReduceKind.UMIN, a, b),
    simd.ReduceKind.UMAX: lambda a, b: unsigned_minmax(simd.ReduceKind.UMAX, a, b),
    simd.ReduceKind.AND: np.bitwise_and,
    simd.ReduceKind.OR: np.bitwise_or,
}


def convert_lanes(value: np.ndarray, to: np.dtype) -> np.ndarray:
    """simd.convert with arith's semantics (docs/integer_semantics.md): float -> int
    truncates toward zero and saturates, NaN -> 0 (fptosi); int -> float rounds to nearest
    even (sitofp); int -> int sign-extends or keeps the low bits; float -> float is IEEE."""
    if value.dtype.kind == "f" and to.kind in "iub":
        return fp_to_int(value, to)
    if value.dtype.kind in "iub" and to.kind == "f":
        return int_to_fp(value, to)
    if value.dtype.kind in "iub":
        return int_cast(value, to)
    with np.errstate(all="ignore"):
        return value.astype(to)


@register_impls
class SimdFunctions(InterpreterFunctions):
    """Interpreter functions of the `simd` dialect."""

    # ----------------------------------------------------------------- memory

    @impl(simd.LoadOp)
    def run_load(self, interpreter: Interpreter, op: simd.LoadOp, args: PythonValues):
        buf, index = args
        t = op.result.type
        buf = _buffer(op, buf, t.element_type)
        start, n = int(index), _lanes(t)
        _check_span(op, buf, start, n)
        if op.aligned is not None:
            _check_aligned(op, buf, start, n)
        return (buf[start : start + n].copy(),)

    @impl(simd.StoreOp)
    def run_store(self, interpreter: Interpreter, op: simd.StoreOp, args: PythonValues):
        value, buf, index = args
        t = op.value.type
        buf = _buffer(op, buf, t.element_type)
        start, n = int(index), _lanes(t)
        _check_span(op, buf, start, n)
        if op.aligned is not None:
            _check_aligned(op, buf, start, n)
        buf[start : start + n] = _vector(value, t)
        return ()

    @impl(simd.MaskedLoadOp)
    def run_masked_load(self, interpreter: Interpreter, op: simd.MaskedLoadOp, args: PythonValues):
        buf, index, mask, passthru = args
        t = op.result.type
        buf = _buffer(op, buf, t.element_type)
        mask = _mask(mask, _lanes(t))
        result = _vector(passthru, t).copy()
        result[mask] = buf[_active_indices(op, buf, int(index), mask)]
        return (result,)

    @impl(simd.GatherOp)
    def run_gather(self, interpreter: Interpreter, op: simd.GatherOp, args: PythonValues):
        buf, indices, mask, passthru = args
        t = op.result.type
        buf = _buffer(op, buf, t.element_type)
        mask = _mask(mask, _lanes(t))
        result = _vector(passthru, t).copy()
        where = _vector(indices, op.indices.type)
        for k in np.flatnonzero(mask):
            at = int(where[k])
            if not 0 <= at < len(buf):
                raise InterpretationError(
                    f"{op.name}: active lane {k} at element {at} out of bounds of a buffer of length {len(buf)}"
                )
            result[k] = buf[at]
        return (result,)

    @impl(simd.MaskedStoreOp)
    def run_masked_store(self, interpreter: Interpreter, op: simd.MaskedStoreOp, args: PythonValues):
        value, buf, index, mask = args
        t = op.value.type
        buf = _buffer(op, buf, t.element_type)
        mask = _mask(mask, _lanes(t))
        buf[_active_indices(op, buf, int(index), mask)] = _vector(value, t)[mask]
        return ()

    @impl(simd.CompressStoreOp)
    def run_compress_store(self, interpreter: Interpreter, op: simd.CompressStoreOp, args: PythonValues):
        value, mask, buf, offset, *limit = args
        t = op.value.type
        buf = _buffer(op, buf, t.element_type)
        lanes = _vector(value, t)
        mask = _mask(mask, _lanes(t))
        active = lanes[mask]
        start, count = int(offset), len(active)
        # may write span lanes: the packed ones, then scratch (the inactive lanes, in order; C
        # writes other scratch values there): all N with `full`, min(N, limit) with a `limit`
        span = len(lanes) if op.full is not None else min(len(lanes), max(int(limit[0]), 0)) if limit else count
        if span:
            _check_span(op, buf, start, span)
            buf[start : start + span] = np.concatenate([active, lanes[~mask]])[:span]
        return (np.int64(count),)

    @impl(simd.AlignOffsetOp)
    def run_align_offset(self, interpreter: Interpreter, op: simd.AlignOffsetOp, args: PythonValues):
        buf, index = args
        assert isinstance(op.buf.type, loop_attrs.BufType)
        buf = _buffer(op, buf, op.buf.type.element_type)
        address = buf.ctypes.data + int(index) * buf.strides[0]
        if address % buf.itemsize:
            raise InterpretationError(
                f"{op.name}: &b[{int(index)}] at {address:#x} is not aligned to its {buf.itemsize}-byte elements"
            )
        alignment = op.alignment.value.data
        return (np.int64((-address % alignment) // buf.itemsize),)

    @impl(simd.StoreFenceOp)
    def run_store_fence(self, interpreter: Interpreter, op: simd.StoreFenceOp, args: PythonValues):
        return ()  # the interpreter's stores are visible at once

    # ----------------------------------------------------------------- lanes

    @impl(simd.BroadcastOp)
    def run_broadcast(self, interpreter: Interpreter, op: simd.BroadcastOp, args: PythonValues):
        t = op.result.type
        return (np.full(_lanes(t), args[0], dtype=numpy_dtype(t)),)

    @impl(simd.IotaOp)
    def run_iota(self, interpreter: Interpreter, op: simd.IotaOp, args: PythonValues):
        t = op.result.type
        return (np.arange(_lanes(t), dtype=numpy_dtype(t)),)

    @impl(simd.PrefixMaskOp)
    def run_prefix_mask(self, interpreter: Interpreter, op: simd.PrefixMaskOp, args: PythonValues):
        return (np.arange(_lanes(op.result.type)) < int(args[0]),)

    @impl(simd.FmaOp)
    def run_fma(self, interpreter: Interpreter, op: simd.FmaOp, args: PythonValues):
        t = op.result.type
        a, b, c = (_vector(x, t) for x in args)
        return (_vector(exact_fma(a, b, c), t),)

    @impl(simd.MinOp)
    def run_min(self, interpreter: Interpreter, op: simd.MinOp, args: PythonValues):
        t = op.result.type
        return (np.minimum(_vector(args[0], t), _vector(args[1], t)),)

    @impl(simd.MaxOp)
    def run_max(self, interpreter: Interpreter, op: simd.MaxOp, args: PythonValues):
        t = op.result.type
        return (np.maximum(_vector(args[0], t), _vector(args[1], t)),)

    @impl(simd.CmpOp)
    def run_cmp(self, interpreter: Interpreter, op: simd.CmpOp, args: PythonValues):
        t = op.lhs.type
        pred = op.predicate.data.value
        is_float = np.dtype(numpy_dtype(t.element_type)).kind == "f"
        # ult ule ugt uge are unordered on float lanes, unsigned on integer lanes
        fn = CMPF[pred] if is_float else CMPI[pred]
        with np.errstate(all="ignore"):
            return (np.asarray(fn(_vector(args[0], t), _vector(args[1], t)), dtype=np.bool_),)

    @impl(simd.SlideUpOp)
    def run_slide_up(self, interpreter: Interpreter, op: simd.SlideUpOp, args: PythonValues):
        t = op.result.type
        v, fill = (_vector(x, t) for x in args)
        return (np.concatenate([fill, v])[_lanes(t) - op.by.value.data :][: _lanes(t)],)

    @impl(simd.SlideUpDupOp)
    def run_slide_up_dup(self, interpreter: Interpreter, op: simd.SlideUpDupOp, args: PythonValues):
        v, by = _vector(args[0], op.result.type), op.by.value.data
        return (np.concatenate([v[:by], v[:-by]]),)

    @impl(simd.SplatLastOp)
    def run_splat_last(self, interpreter: Interpreter, op: simd.SplatLastOp, args: PythonValues):
        v = _vector(args[0], op.result.type)
        return (np.full(len(v), v[-1], dtype=v.dtype),)

    @impl(simd.FirstLaneOp)
    def run_first_lane(self, interpreter: Interpreter, op: simd.FirstLaneOp, args: PythonValues):
        return (_vector(args[0], op.value.type)[0],)

    @impl(simd.SelectOp)
    def run_select(self, interpreter: Interpreter, op: simd.SelectOp, args: PythonValues):
        mask, a, b = args
        t = op.result.type
        return (np.where(_mask(mask, _lanes(t)), _vector(a, t), _vector(b, t)),)

    @impl(simd.ConvertOp)
    def run_convert(self, interpreter: Interpreter, op: simd.ConvertOp, args: PythonValues):
        value = _vector(args[0], op.value.type)
        return (convert_lanes(value, numpy_dtype(op.result.type)),)

    # ----------------------------------------------------------------- horizontal

    @impl(simd.HReduceOp)
    def run_hreduce(self, interpreter: Interpreter, op: simd.HReduceOp, args: PythonValues):
        value = _vector(args[0], op.value.type)
        return (tree_reduce(REDUCE[op.kind.data], value),)

    @impl(simd.WidenAddOp)
    def run_widen_add(self, interpreter: Interpreter, op: simd.WidenAddOp, args: PythonValues):
        acc = _vector(args[0], op.acc.type)
        value = _vector(args[1], op.value.type)
        wide = acc.dtype
        ext = value.astype(wide) if op.signed is not None else value.view(f"u{value.dtype.itemsize}").astype(wide)
        groups = ext.reshape(len(acc), -1).sum(axis=1, dtype=wide)  # wraps modulo 2^bits, as the C does
        return ((acc + groups).astype(wide),)

    @impl(simd.MaskPopcountOp)
    def run_mask_popcount(self, interpreter: Interpreter, op: simd.MaskPopcountOp, args: PythonValues):
        return (np.int64(np.count_nonzero(_mask(args[0], _lanes(op.mask.type)))),)
