"""Lazy registries of loopopt's dialects, passes and targets.

Each entry names the module and attribute that defines it, so that listing what exists
imports nothing; `loop-opt`, the `xdsl.universe` plugin and embedding compilers all read
these same tables.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.utils.target import Target

DIALECTS: dict[str, str] = {
    "df": "loopopt.dialects.df:DF",
    "loop": "loopopt.dialects.loop:Loop",
    "simd": "loopopt.dialects.simd:Simd",
}

PASSES: dict[str, str] = {
    # df level
    "df-fuse": "loopopt.passes.df_fuse:DFFusePass",
    "convert-df-to-loop": "loopopt.lowering.df_to_loop.convert:ConvertDFToLoopPass",
    # loop level
    "loop-fuse": "loopopt.passes.loop_fuse:LoopFusePass",
    "loop-tile": "loopopt.passes.loop_tile:LoopTilePass",
    "loop-interchange": "loopopt.passes.loop_interchange:LoopInterchangePass",
    "loop-unroll-jam": "loopopt.passes.loop_unroll_jam:LoopUnrollJamPass",
    "loop-vectorize": "loopopt.passes.loop_vectorize:LoopVectorizePass",
    "loop-unroll": "loopopt.passes.loop_unroll:LoopUnrollPass",
    "loop-simplify": "loopopt.passes.loop_simplify:LoopSimplifyPass",
    "loop-licm": "loopopt.passes.loop_licm:LoopLICMPass",
    "loop-inplace": "loopopt.passes.loop_inplace:LoopInplacePass",
    "loop-parallelize": "loopopt.passes.loop_parallelize:LoopParallelizePass",
    # lowering to the target vector dialect, and the default pipeline
    "convert-loop-to-simd": "loopopt.lowering.loop_to_simd.convert:ConvertLoopToSimdPass",
    "loop-pipeline": "loopopt.passes.pipeline:LoopPipelinePass",
    "derive-filter-count": "loopopt.passes.derive_filter_count:DeriveFilterCountPass",
}

TARGETS: dict[str, str] = {
    "c": "loopopt.targets.c:CTarget",
}


def _lazy(ref: str) -> Callable[[], Any]:
    module, attr = ref.split(":")
    return lambda: getattr(import_module(module), attr)


_PACKAGE_DIR = Path(__file__).resolve().parent
"""The `loopopt` package's directory (this file is at its top)."""


def _module_exists(module: str) -> bool:
    """Whether `loopopt.a.b` has a source file, looked up on disk: `importlib.util.find_spec`
    would import the parent packages (`loopopt.lowering.loop_to_simd` pulls in the whole
    lowering, 0.5 s of `loop-opt --version`)."""
    path = _PACKAGE_DIR.joinpath(*module.split(".")[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _available(table: dict[str, str]) -> dict[str, str]:
    """Entries whose module exists (keeps the tool usable while a module is being written)."""
    return {name: ref for name, ref in table.items() if _module_exists(ref.split(":")[0])}


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    return {name: _lazy(ref) for name, ref in _available(DIALECTS).items()}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _lazy(ref) for name, ref in _available(PASSES).items()}


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    return {name: _lazy(ref) for name, ref in _available(TARGETS).items()}
