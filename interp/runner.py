"""Run a module's kernels on numpy values: one interpreter with every loopopt semantics.

`make_interpreter` registers lane-wise arith/math, xDSL's func and builtin interpreters
and each loopopt interpreter module that exists. A module contributes every
`InterpreterFunctions` subclass it defines (so a dialect's interpreter may be split
into several classes); modules still being written are skipped.
"""

from __future__ import annotations

import inspect
from importlib import import_module
from importlib.util import find_spec
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.utils.exceptions import InterpretationError

from loopopt.interp.lanewise import LanewiseArithFunctions

INTERPRETERS: dict[str, str] = {
    "df": "loopopt.interp.df",
    "loop": "loopopt.interp.loop",
    "simd": "loopopt.interp.simd",
}
"""Dialect name -> module holding its InterpreterFunctions (registry-style, imported lazily)."""


def interpreter_functions() -> list[InterpreterFunctions]:
    """One instance of each loopopt InterpreterFunctions class whose module exists."""
    found: list[InterpreterFunctions] = []
    for module_name in INTERPRETERS.values():
        if find_spec(module_name) is None:
            continue
        module = import_module(module_name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, InterpreterFunctions) and cls.__module__ == module_name:
                found.append(cls())
    return found


def make_interpreter(module: ModuleOp) -> Interpreter:
    """An xDSL Interpreter for `module` with arith/math (lane-wise), func, builtin and loopopt."""
    interpreter = Interpreter(module)
    for functions in (LanewiseArithFunctions(), FuncFunctions(), BuiltinFunctions(),
                      *interpreter_functions()):
        interpreter.register_implementations(functions)
    return interpreter


def _argument(value: Any, t: Any, as_value: Any) -> Any:
    """A loop buffer is passed through as is (the kernel writes into it); the rest converts."""
    if find_spec("loopopt.dialects.loop_attrs") is not None:
        from loopopt.dialects.loop_attrs import BufType

        if isinstance(t, BufType):
            if not isinstance(value, np.ndarray):
                raise InterpretationError(f"a {t} argument must be a numpy array, got {type(value).__name__}")
            return value
    return as_value(value, t)


def run_function(module: ModuleOp, name: str, *args: Any) -> tuple[Any, ...]:
    """Call kernel `name` of `module` on numpy values; returns a tuple of its results.

    Arguments are converted to the kernel's types (arrays to their element dtype, Python
    numbers to exact numpy scalars, records given as dicts of field arrays).
    """
    from loopopt.interp.df import as_value

    func = next(
        (op for op in module.walk() if isinstance(op, FuncOp) and op.sym_name.data == name), None
    )
    if func is None:
        raise InterpretationError(f"no func.func @{name} in the module")
    types = func.function_type.inputs.data
    if len(types) != len(args):
        raise InterpretationError(f"@{name} takes {len(types)} arguments, got {len(args)}")
    with np.errstate(all="ignore"):
        values = []
        for k, (a, t) in enumerate(zip(args, types, strict=True)):
            try:
                values.append(_argument(a, t, as_value))
            except (OverflowError, ValueError, TypeError) as e:  # 2**40 for an i32, "x" for an f32
                raise InterpretationError(f"@{name} argument #{k} ({t}): {e}") from None
        return tuple(make_interpreter(module).call_op(name, tuple(values)))
